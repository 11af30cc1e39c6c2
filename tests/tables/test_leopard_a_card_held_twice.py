"""With two packs a hand may hold a card twice (J♥ and J♥); choosing one
marks that one only: the hand's buttons carry the card's place in the hand (?card=JH&at=3),
and a link without it (?card=JH) still marks one card."""

import re
from collections import Counter

import pytest

from games import selectors, services
from tests.support.hotseat import HTMX, current, url

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def hand_with_a_twin(host, players):
    """A table whose player to act has drawn, his hand holding some card twice; that card."""
    for seed in range(60):
        table = services.start_table(
            user=host, game="leopard", players=players[:2], options={}, seed=seed
        )
        deal = current(table)
        seat = selectors.load(deal).state.to_act
        deal = services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=host)
        deal.table = table
        if selectors.load(deal).state.view(seat)["may_draw"]:
            services.play(
                deal=deal,
                seat=seat,
                action={"draw": True},
                expected_version=deal.version,
                user=host,
            )
        hand = selectors.load(current(table)).state.view(seat)["hand"]
        twins = [code for code, n in Counter(hand).items() if n == 2]
        if twins:
            return table, twins[0]
    raise AssertionError("no seed gave a hand with a twin")


def hand_buttons(page) -> list[tuple[str, bool]]:
    """The hand's buttons in order: (card, marked as chosen)."""
    return [
        (code, "chosen" in css)
        for code, css in re.findall(r'<button name="card" value="(\w\w)" class="([^"]*)"', page)
    ]


@pytest.mark.parametrize("which", [0, 1])
def test_choosing_one_of_two_twins_marks_that_one_only(host_client, host, players, which):
    table, twin = hand_with_a_twin(host, players)
    page = host_client.get(url(table), **HTMX, **EN).content.decode()
    places = [i for i, (code, _) in enumerate(hand_buttons(page)) if code == twin]
    assert len(places) == 2
    at = places[which]
    # each card's button carries its place in the hand
    assert len(re.findall(r'name="at" value="\d"', page)) == 9
    page = host_client.get(url(table) + f"?card={twin}&at={at}", **HTMX, **EN).content.decode()
    marked = [i for i, (_, chosen) in enumerate(hand_buttons(page)) if chosen]
    assert marked == [at]
    assert page.count('aria-pressed="true"') == 1
    assert f'name="discard" value="{twin}"' in page


def test_a_link_without_the_place_still_marks_one_card(host_client, host, players):
    table, twin = hand_with_a_twin(host, players)
    for query in (f"?card={twin}", f"?card={twin}&at=99", f"?card={twin}&at=x"):
        page = host_client.get(url(table) + query, **HTMX, **EN).content.decode()
        marked = [code for code, chosen in hand_buttons(page) if chosen]
        assert marked == [twin], query
