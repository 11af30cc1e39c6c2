"""Фантан's hotseat pages through the Django test client: its flows and refusals. What every
game's pages share (stale pages, forged fields, permissions, hidden cards, query counts) is
tested once for all games in test_every_game.py."""

import re

import pytest

from games import selectors, services
from games.engine.cards import codes_of
from games.models import Deal, DealEvent
from tests.support.hotseat import (
    HTMX,
    alert,
    card_buttons,
    check_hidden,
    current,
    leaked_cards,
    play_to_end,
    reveal_now,
    scrub,
    stamp,
    take_turn,
    unchanged,
    url,
)

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

# -- whole deals --------------------------------------------------------------------------


def test_handoff_screen_shows_no_hand_and_names_the_player(host_client, fantan_table):
    deal = current(fantan_table)
    state = selectors.load(deal).state
    name = fantan_table.seats.all()[state.to_act].player.name
    page = host_client.get(url(fantan_table), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Pass the screen to {name}" in page
    assert 'name="card"' not in page and 'class="hand"' not in page
    assert not leaked_cards(scrub(page, fantan_table), codes_of(sum(state.hands)))


def test_reveal_shows_the_hand_with_playable_cards_as_buttons(host_client, fantan_table):
    response = reveal_now(host_client, fantan_table)
    deal = current(fantan_table)
    state = selectors.load(deal).state
    page = response.content.decode()
    own = codes_of(state.hands[state.to_act])
    playable = {a["play"] for a in state.legal_actions() if "play" in a}
    buttons = card_buttons(page)
    assert buttons == playable
    assert all(leaked_cards(page, [code]) for code in own)  # his whole hand is there
    assert ('name="pass"' in page) == (not playable)


def test_a_finished_deal_shows_results_totals_and_the_next_deal_passes_left(
    host_client, fantan_table
):
    play_to_end(host_client, fantan_table)
    first = current(fantan_table)
    page = host_client.get(url(fantan_table), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The deal is over" in page and "Next deal" in page
    assert f"deals/{first.number}/record.json" in page
    winner = fantan_table.seats.all()[first.result["finish_order"][0]].player.name
    assert re.search(rf"<th scope=\"row\">{winner}</th><td>1</td>", page)
    response = host_client.post(url(fantan_table, "next-deal"), {"deal": 1})
    assert response.status_code == 302
    second = current(fantan_table)
    assert second.number == 2 and second.dealer == (first.dealer + 1) % 4
    assert second.dealt != first.dealt


def test_running_total_adds_up_the_finished_deals(host_client, fantan_table):
    for number in (1, 2):
        play_to_end(host_client, fantan_table)
        host_client.post(url(fantan_table, "next-deal"), {"deal": number})
    deals = list(Deal.objects.filter(table=fantan_table, is_over=True).order_by("number"))
    totals = [sum(d.result["scores"][s] for d in deals) for s in range(4)]
    page = host_client.get(url(fantan_table), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    foot = re.search(r"<tfoot>(.*?)</tfoot>", page, re.S).group(1)
    assert re.findall(r"<td>(-?\d+)</td>", foot) == [str(t) for t in totals]


# -- refusals: a clear message, a 4xx status, and the deal unchanged --------------------------


def test_out_of_turn_play_is_refused(host_client, fantan_table):
    reveal_now(host_client, fantan_table)
    before = current(fantan_table)
    state = selectors.load(before).state
    other = (state.to_act + 1) % 4
    card = codes_of(state.hands[other])[0]
    response = host_client.post(
        url(fantan_table, "act"),
        stamp(before, seat=other, card=card),
        HTTP_ACCEPT_LANGUAGE="en",
        **HTMX,
    )
    assert response.status_code == 400
    assert "not your turn" in alert(response)
    unchanged(fantan_table, before)
    check_hidden(response, fantan_table)


def test_a_card_that_does_not_continue_a_row_is_refused(host_client, fantan_table):
    reveal_now(host_client, fantan_table)
    before = current(fantan_table)
    state = selectors.load(before).state
    seat = state.to_act
    unplayable = [c for c in codes_of(state.hands[seat]) if c[0] != "8"]
    response = host_client.post(
        url(fantan_table, "act"),
        stamp(before, seat=seat, card=unplayable[0]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "cannot be laid now" in alert(response)
    unchanged(fantan_table, before)


def test_a_card_from_another_hand_is_refused(host_client, fantan_table):
    reveal_now(host_client, fantan_table)
    before = current(fantan_table)
    state = selectors.load(before).state
    foreign = codes_of(state.hands[(state.to_act + 2) % 4])[0]
    response = host_client.post(
        url(fantan_table, "act"),
        stamp(before, seat=state.to_act, card=foreign),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "not in your hand" in alert(response)
    unchanged(fantan_table, before)


def test_passing_with_a_playable_card_is_refused(host_client, fantan_table):
    for _ in range(8):  # get past the opening, where a pass may be forced
        take_turn(host_client, fantan_table)
    deal = current(fantan_table)
    while True:
        reveal_now(host_client, fantan_table)
        deal = current(fantan_table)
        state = selectors.load(deal).state
        if any("play" in a for a in state.legal_actions()) and not state.extra:
            break
        take_turn(host_client, fantan_table)
    response = host_client.post(
        url(fantan_table, "act"),
        stamp(deal, seat=state.to_act, **{"pass": "1"}),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "may not pass" in alert(response)
    unchanged(fantan_table, deal)


def playable_turn(client, table):
    """Play on until the seat to act (his hand shown) has two cards he may lay: the deal as
    it then is and those cards."""
    for choose in range(40):
        reveal_now(client, table)
        deal = current(table)
        cards = [a["play"] for a in selectors.load(deal).state.legal_actions() if "play" in a]
        if len(cards) >= 2:
            return deal, cards
        take_turn(client, table, choose=choose)
    raise AssertionError("no seat had two playable cards in 40 turns")


@pytest.mark.parametrize(
    "form",
    [
        pytest.param(lambda cards: {"card": cards[0], "pass": "1"}, id="card-and-pass"),
        pytest.param(lambda cards: {"card": cards[0], "stop": "1"}, id="card-and-unknown-field"),
        pytest.param(lambda cards: {"card": cards[:2]}, id="two-cards"),
        pytest.param(lambda cards: {"card": cards[0], "say": "hi"}, id="another-games-field"),
        pytest.param(lambda cards: {"pass": "0"}, id="pass-not-pressed"),
    ],
)
def test_a_form_that_is_not_exactly_one_move_is_refused_and_changes_nothing(
    host_client, fantan_table, form
):
    before, cards = playable_turn(host_client, fantan_table)
    seat = selectors.load(before).state.to_act
    response = host_client.post(
        url(fantan_table, "act"), stamp(before, seat=seat, **form(cards)), **HTMX, **EN
    )
    assert response.status_code == 400
    assert "incomplete or damaged" in alert(response)
    unchanged(fantan_table, before)


def test_revealing_for_the_wrong_player_is_refused(host_client, fantan_table):
    before = current(fantan_table)
    other = (selectors.load(before).state.to_act + 1) % 4
    response = host_client.post(
        url(fantan_table, "reveal"), stamp(before, seat=other), HTTP_ACCEPT_LANGUAGE="en", **HTMX
    )
    assert response.status_code == 400 and "not your turn" in alert(response)
    unchanged(fantan_table, before)
    assert 'name="card"' not in response.content.decode()


def test_take_back_until_the_next_player_reveals(host_client, fantan_table):
    action = take_turn(host_client, fantan_table)
    deal = current(fantan_table)
    page = host_client.get(url(fantan_table), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "take back the last move" in page
    response = host_client.post(
        url(fantan_table, "take-back"), stamp(deal, seat=action["seat"]), **HTMX
    )
    assert response.status_code == 200
    back = current(fantan_table)
    hotseat = selectors.load(back)
    assert hotseat.state.to_act == action["seat"] and not hotseat.handoff
    kinds = list(DealEvent.objects.filter(deal=back).values_list("kind", flat=True))
    assert kinds[-2:] == ["action", "take_back"]  # the take-back stays in the log
    assert selectors.record(back)["actions"] == []
    # play again, the next player looks at his hand: no more taking back
    take_turn(host_client, fantan_table)
    reveal_now(host_client, fantan_table)
    before = current(fantan_table)
    response = host_client.post(
        url(fantan_table, "take-back"),
        stamp(before, seat=action["seat"]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400 and "no longer be taken back" in alert(response)
    unchanged(fantan_table, before)


def test_the_next_deal_is_dealt_once_for_a_double_click(host_client, fantan_table):
    play_to_end(host_client, fantan_table)
    assert host_client.post(url(fantan_table, "next-deal"), {"deal": 1}).status_code == 302
    again = host_client.post(url(fantan_table, "next-deal"), {"deal": 1}, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 409 and "already started" in alert(again)
    assert fantan_table.deals.count() == 2


def test_the_next_deal_waits_for_the_end_of_this_one(host_client, fantan_table):
    response = host_client.post(url(fantan_table, "next-deal"), {"deal": 1})
    assert response.status_code == 400 and alert(response)
    assert fantan_table.deals.count() == 1


# -- who may see and do what ------------------------------------------------------------------


def test_unknown_table_address_is_not_found(host_client, db):
    response = host_client.get("/t/not-a-table/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert "There is no such page" in response.content.decode()
    assert host_client.post("/t/not-a-table/act", {}).status_code == 404


def test_table_addresses_are_not_guessable(fantan_table, host, players):
    other = services.start_table(user=host, game="fantan", players=players, options={})
    for table in (fantan_table, other):  # 128 random bits, and no serial number
        assert table.get_absolute_url() == f"/t/{table.token}/"
        assert len(table.token) >= 22
    assert fantan_table.token != other.token


# -- starting a table ----------------------------------------------------------------------


def test_a_member_starts_a_table_with_club_players_and_a_new_name(host_client, players):
    response = host_client.post(
        "/tables/new/fantan/",
        {
            "seat_0": players[0].pk,
            "seat_1": players[1].pk,
            "seat_2": players[2].pk,
            "new_3": "Zoë",
            "start_rank": "7",
            "until_out": "2",
            "scoring": "",
            "premium_1": "200",
            "premium_2": "125",
            "ace_extra": "on",
        },
    )
    assert response.status_code == 302
    table = fantan_table_of(response)
    assert [s.player.name for s in table.seats.all()] == ["Анна", "Борис", "Вера", "Zoë"]
    assert table.options == {
        "players": 4,
        "start_rank": "7",
        "ace_extra": True,
        "two_extra": False,
        "until_out": 2,
        "premiums": [200, 125],
        "scoring": "premiums",
    }
    assert table.deals.get().number == 1


def test_three_players_make_a_three_player_table(host_client, players):
    response = host_client.post(
        "/tables/new/fantan/",
        {
            "seat_0": players[0].pk,
            "seat_1": players[1].pk,
            "seat_2": players[2].pk,
            "start_rank": "8",
            "until_out": "1",
            "premium_1": "800",
            "premium_2": "500",
        },
    )
    table = fantan_table_of(response)
    deal = table.deals.get()
    assert table.options["players"] == 3
    assert [len(h) for h in deal.dealt["hands"]] == [17, 17, 17]


@pytest.mark.parametrize(
    "seats",
    [
        {"seat_0": 0, "seat_1": 1},  # two players
        {"seat_0": 0, "seat_1": 0, "seat_2": 1},  # the same player twice
        {"seat_0": 0, "seat_2": 1, "seat_3": 2},  # a gap
    ],
)
def test_a_table_with_a_wrong_seating_is_refused(host_client, players, seats):
    data = {k: players[v].pk for k, v in seats.items()}
    data.update({"start_rank": "8", "until_out": "1", "premium_1": "800", "premium_2": "500"})
    response = host_client.post("/tables/new/fantan/", data)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not fantan_table_of_any()


def fantan_table_of(response):
    from games.models import Table

    return Table.objects.get(token=response["Location"].split("/")[2])


def fantan_table_of_any():
    from games.models import Table

    return Table.objects.exists()


def test_starting_a_table_needs_a_sign_in(client, db):
    response = client.get("/tables/new/fantan/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_three_players_cannot_start_rows_with_the_missing_two(host_client, players):
    response = host_client.post(
        "/tables/new/fantan/",
        {
            "seat_0": players[0].pk,
            "seat_1": players[1].pk,
            "seat_2": players[2].pk,
            "start_rank": "2",
            "until_out": "1",
            "premium_1": "800",
            "premium_2": "500",
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "without the two of clubs" in response.content.decode()
    assert response.context["form"].errors == {
        "start_rank": [  # the engine's words, there
            "Three players play without the two of clubs, so the rows cannot start with a two."
        ]
    }
    assert not fantan_table_of_any()
