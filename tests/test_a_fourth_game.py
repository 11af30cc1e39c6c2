"""A fourth game added through the registry alone: Duel (``tests/duel/``), a throw-away game
that lives in the test suite, is started, played and replayed through the shared pages and
records, so nothing outside a game's own package has to change to add one."""

import json
import random
import re
from contextlib import contextmanager

import pytest
from django.test import modify_settings

from games import registry, selectors
from games.engine import InvalidRecord
from games.engine.records import replay
from games.engine.simulate import random_deal
from games.models import Table
from tests.commands import run, write
from tests.conftest import current
from tests.hotseat import (
    HTMX,
    alert,
    check_hidden,
    play_to_end,
    reveal_now,
    stamp,
    unchanged,
    url,
)

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@contextmanager
def duel_registered():
    """The game in the registry, and its package an installed app (templates found)."""
    registry.register("duel", "tests.duel")
    try:
        with modify_settings(INSTALLED_APPS={"append": "tests.duel"}):
            yield registry.game("duel")
    finally:
        registry.unregister("duel")


@pytest.fixture
def duel():
    with duel_registered() as game:
        yield game


@pytest.fixture
def duel_table(duel, host_client, players):
    response = host_client.post("/tables/new/duel/", {"seat_0": players[0].pk,
                                                      "seat_1": players[1].pk})
    assert response.status_code == 302
    return Table.objects.get(token=response["Location"].split("/")[2])


def expected_scores(actions) -> list[int]:
    """The rules as the engine's docstring states them: spades score their rank, hearts
    lose it, for the seat that played them."""
    scores = [0, 0]
    for action in actions:
        rank, suit = int(action["play"][0]), action["play"][1]
        scores[action["seat"]] += rank if suit == "S" else -rank
    return scores


@pytest.mark.django_db
def test_the_front_page_offers_the_new_game_and_its_table_can_be_started(
        duel, host_client, players):
    home = host_client.get("/", **EN).content.decode()
    assert 'href="/tables/new/duel/"' in home
    assert "Start a Duel table" in home
    form = host_client.get("/tables/new/duel/", **EN)
    assert form.status_code == 200
    page = form.content.decode()
    assert 'name="seat_1"' in page and 'name="seat_2"' not in page  # two seats only

    response = host_client.post("/tables/new/duel/", {"seat_0": players[0].pk,
                                                      "seat_1": players[1].pk})
    assert response.status_code == 302
    table = Table.objects.get(token=response["Location"].split("/")[2])
    assert response["Location"] == table.get_absolute_url()
    assert table.game == "duel" and table.options == {}
    assert [s.player.name for s in table.seats.all()] == ["Анна", "Борис"]
    deal = table.deals.get()
    assert sorted(len(hand) for hand in deal.dealt["hands"]) == [6, 6]
    page = host_client.get(response["Location"], **EN).content.decode()
    assert "Duel (a test game)" in page
    name = players[(deal.dealer + 1) % 2].name  # the dealer's left plays first
    assert f"Pass the screen to {name}" in page

    refused = host_client.post("/tables/new/duel/", {"seat_0": players[0].pk}, **EN)
    assert refused.status_code == 400 and "Seat two players." in refused.content.decode()


@pytest.mark.django_db
def test_a_whole_deal_is_played_through_the_pages_and_its_record_replays(
        duel_table, host_client, tmp_path):
    table = duel_table
    reveal_now(host_client, table)
    deal = current(table)
    state = selectors.load(deal).state
    page = host_client.get(url(table)).content.decode()
    buttons = set(re.findall(r'<button type="submit" name="card" value="(\w\w)"', page))
    assert buttons == set(state.hands[state.to_act])  # his own hand, every card playable
    check_hidden(host_client.get(url(table)), table)  # and not the other one

    assert play_to_end(host_client, table, check=check_hidden, **HTMX) == 12
    deal = current(table)
    assert deal.is_over
    page = host_client.get(url(table), **EN).content.decode()
    assert "The deal is over" in page and "Next deal" in page
    names = selectors.names(table)
    for name, score in zip(names, deal.result["scores"], strict=True):
        assert f'<th scope="row">{name}</th><td>{score}</td>' in page
    assert page.count(" dueled with ") == 12  # the log, worded by the game's own template

    response = host_client.get(url(table, "deals/1/record.json"))
    assert response.status_code == 200
    assert 'filename="duel-' in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["game"] == "duel" and record["hands"] == deal.dealt["hands"]
    assert len(record["actions"]) == 12
    assert deal.result["scores"] == expected_scores(record["actions"])
    assert replay(record).result() == {**deal.result, "complete": True}

    code, out, err = run("replay", str(write(tmp_path / "duel.json", record)))
    assert (code, err) == (0, "")
    assert json.loads(out) == {**deal.result, "complete": True}

    response = host_client.post(url(table, "next-deal"), {"deal": 1})
    assert response.status_code == 302
    second = current(table)
    assert second.number == 2 and second.dealer == (deal.dealer + 1) % 2


@pytest.mark.django_db
def test_a_card_not_in_the_hand_is_refused_by_the_shared_machinery(duel_table, host_client):
    table = duel_table
    reveal_now(host_client, table)
    before = current(table)
    state = selectors.load(before).state
    seat = state.to_act
    for card in (state.hands[1 - seat][0], "AS"):  # the other hand's card; out of the pack
        response = host_client.post(url(table, "act"), stamp(before, seat=seat, card=card),
                                    **EN, **HTMX)
        assert response.status_code == 400
        assert "is not in your hand" in alert(response)
        unchanged(table, before)
        assert 'name="card"' in response.content.decode()  # still his turn, his hand shown
    check_hidden(response, table)  # (the first page names the forged card, as it was posted)


@pytest.mark.django_db
def test_once_unregistered_the_game_is_unknown(host_client, tmp_path):
    with duel_registered() as game:
        state, actions = random_deal(game.rules, {}, 0, random.Random(5))
        record = {**state.record(), "actions": actions}
        assert replay(record).result()["complete"]
        assert host_client.get("/tables/new/duel/").status_code == 200

    assert "duel" not in registry.GAMES
    with pytest.raises(InvalidRecord, match="unknown game 'duel'"):
        replay(record)
    code, out, err = run("replay", str(write(tmp_path / "duel.json", record)))
    assert code == 2 and "unknown game 'duel'" in err
    assert host_client.get("/tables/new/duel/").status_code == 404
    assert "/tables/new/duel/" not in host_client.get("/").content.decode()
