"""After an ace (or a two) Фантан offers one more card; when no card of the
hand can be laid, the page says plainly that the turn ends, with one button to end it."""

import pytest

from games import selectors, services
from tests.support.hotseat import HTMX, act, current, reveal_now, url

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def extra_turn_without_a_card(host, players):
    """A table whose seat to act has laid an ace or a two and has no card it can lay."""
    for seed in range(40):
        table = services.start_table(
            user=host,
            game="fantan",
            players=players,
            options={"ace_extra": True, "two_extra": True},
            seed=seed,
        )
        for _ in range(300):
            deal = current(table)
            if deal.is_over:
                break
            state = selectors.load(deal).state
            legal = state.legal_actions()
            if state.extra and all("play" not in a for a in legal):
                return table
            # an ace or a two whenever one can be laid, else the first legal action
            extra = [i for i, a in enumerate(legal) if a.get("play", "")[:1] in ("A", "2")]
            act(table, choose=extra[0] if extra else 0, user=host)
    raise AssertionError("no deal came to an extra turn without a card")


def test_an_extra_turn_without_a_card_to_lay_says_the_turn_ends(host_client, host, players):
    table = extra_turn_without_a_card(host, players)
    if selectors.load(current(table)).handoff:
        reveal_now(host_client, table)
    page = host_client.get(url(table), **EN).content.decode()
    assert "You may lay one more card" not in page
    assert "No card can be laid: your turn ends." in page
    assert ">End the turn</button>" in page
    assert ">Stop</button>" not in page and ">Pass</button>" not in page
    # the button ends the turn: the next seat is to act
    deal = current(table)
    seat = selectors.load(deal).state.to_act
    response = host_client.post(
        url(table, "act"),
        {"deal": deal.number, "version": deal.version, "seat": seat, "pass": "1"},
        **HTMX,
    )
    assert response.status_code == 200
    assert selectors.load(current(table)).state.to_act != seat
