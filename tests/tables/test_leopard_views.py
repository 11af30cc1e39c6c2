"""Леопард through the pages: hand, draw, choose a card, lay or discard, end the deal."""

import re

import pytest

from games import registry, selectors, services
from games.hotseat import Hotseat
from tests.support.commands import discard, lay, leopard_record
from tests.support.hotseat import HTMX, alert, current, reveal_now, stamp, url, without_seat

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_the_turn_is_draw_then_choose_a_card_then_a_place(host_client, leopard_table):
    reveal_now(host_client, leopard_table)
    deal = current(leopard_table)
    state = selectors.load(deal).state
    seat = state.to_act
    page = host_client.get(url(leopard_table), **EN).content.decode()
    assert "Draw a card" in page and 'name="card"' not in page
    response = host_client.post(
        url(leopard_table, "act"), stamp(deal, seat=seat, draw="1"), **HTMX, **EN
    )
    assert response.status_code == 200
    drawn = state.stock[-1]
    from games.engine.cards import CODES

    page = response.content.decode()
    assert re.search(rf'value="{CODES[drawn]}" class="card playable[^"]* drawn"', page)
    assert len(re.findall(r'name="card" value="\w\w"', page)) == 9
    page = host_client.get(
        url(leopard_table) + f"?card={CODES[drawn]}", **HTMX, **EN
    ).content.decode()
    places = state.places_for(seat, drawn)
    assert len(re.findall(r'class="target"', page)) == len(places)
    assert f'name="discard" value="{CODES[drawn]}"' in page


def test_an_action_before_the_draw_is_refused(host_client, leopard_table):
    reveal_now(host_client, leopard_table)
    before = current(leopard_table)
    state = selectors.load(before).state
    card = state.hands[state.to_act][0]
    from games.engine.cards import CODES

    response = host_client.post(
        url(leopard_table, "act"), stamp(before, seat=state.to_act, discard=CODES[card]), **EN
    )
    assert response.status_code == 400 and "Draw a card first" in alert(response)
    assert current(leopard_table).version == before.version


def drawn_turn(client, table):
    """Reveal and draw for the player to act; the deal as it then is."""
    reveal_now(client, table)
    deal = current(table)
    seat = selectors.load(deal).state.to_act
    response = client.post(url(table, "act"), stamp(deal, seat=seat, draw="1"), **HTMX)
    assert response.status_code == 200, alert(response)
    return current(table)


def arranged(table, record: dict):
    """The table's deal replaced by the deal of ``record`` (hands and stock), played through
    the services up to the record's actions, each a live turn: reveal, draw, then the action."""
    deal = current(table)
    rules = registry.rules("leopard")
    state = rules.from_record(record)
    deal.dealer, deal.dealt = state.dealer, state.dealt
    deal.snapshot = Hotseat(rules, state).to_json()
    deal.save()
    for action in record["actions"]:
        deal = current(table)
        seat = action["seat"]
        deal = services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=None)
        deal = services.play(
            deal=deal, seat=seat, action={"draw": True}, expected_version=deal.version, user=None
        )
        services.play(
            deal=deal,
            seat=seat,
            action=without_seat(action),
            expected_version=deal.version,
            user=None,
        )
    return current(table)


# Seat 0 holds a queen, a ten, a jack, a five and a king; seat 1 has laid a five on place 5
# of his own square, seat 0's place 5 is empty; then seat 0 draws.
HELD = ["QS", "TS", "JS", "5H", "KS", "3C", "4C", "6C"]
OTHER = ["7D", "8D", "9C", "AH", "2H", "3H", "4H", "6H"]


def held_turn(client, table):
    """The deal of HELD and OTHER with seat 0 to act, having drawn the two of clubs."""
    record = leopard_record(
        [discard(0, "2D"), lay(1, "5D", 1)], hands=[HELD, OTHER], next_cards=["2C"], dealer=1
    )
    deal = arranged(table, record)
    state = selectors.load(deal).state
    assert state.squares[1][4] and not state.squares[0][4]
    deal = drawn_turn(client, table)
    state = selectors.load(deal).state
    assert state.drawn and state.to_act == 0
    return deal


@pytest.mark.parametrize(
    "fields, message",
    [
        # a queen: on a laid card of his own square only
        ({"lay": "QS", "square": "1", "place": "5"}, "may not be laid there"),
        # a jack: on a laid card, and place 5 of his own square is empty
        ({"lay": "JS", "square": "0", "place": "5"}, "may not be laid there"),
        (
            {"lay": "TS", "square": "1", "place": "6"},
            "may not be laid there",
        ),  # a ten: own square only
        ({"lay": "KS", "square": "0"}, "Name the place"),  # a king needs a place named
        # a three names its own place or none: not another, though its own is free
        ({"lay": "3C", "square": "0", "place": "A"}, "may not be laid there"),
        ({"lay": "3C", "square": "0", "place": ""}, "not a move of this game"),
        ({"lay": "5H", "square": "7"}, "not a move of this game"),  # no such square
        ({"lay": "KS", "square": "0", "place": "Z"}, "not a move of this game"),  # no such place
        ({"discard": "ZZ"}, "not a move of this game"),
        ({"discard": "9D"}, "not in your hand"),
        ({"end": "1"}, "You have drawn"),
    ],
)
def test_bad_lays_are_refused_for_their_reason_and_change_nothing(
    host_client, leopard_table, fields, message
):
    deal = held_turn(host_client, leopard_table)
    response = host_client.post(url(leopard_table, "act"), stamp(deal, seat=0, **fields), **EN)
    assert response.status_code == 400 and message in alert(response), alert(response)
    after = current(leopard_table)
    assert (after.version, after.snapshot) == (deal.version, deal.snapshot)


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"discard": "3C", "lay": "4C", "square": "0", "place": "4"}, id="two-moves"),
        pytest.param({"discard": ["3C", "4C"]}, id="two-discards"),
        pytest.param({"lay": "3C", "square": "0", "place": ["3", "A"]}, id="two-places"),
        pytest.param({"lay": "3C", "square": " 0", "place": "3"}, id="a-spaced-square"),
        pytest.param({"discard": "3C", "card": "3C"}, id="another-games-field"),
        pytest.param({"draw": "1", "end": "1"}, id="draw-and-end"),
        pytest.param({"draw": "0"}, id="a-button-not-pressed"),
    ],
)
def test_a_form_that_is_not_exactly_one_move_is_refused_and_changes_nothing(
    host_client, leopard_table, fields
):
    deal = held_turn(host_client, leopard_table)
    response = host_client.post(url(leopard_table, "act"), stamp(deal, seat=0, **fields), **EN)
    assert response.status_code == 400 and "incomplete or damaged" in alert(response)
    after = current(leopard_table)
    assert (after.version, after.snapshot) == (deal.version, deal.snapshot)


def test_the_boards_own_forms_lay_a_three_on_its_place_in_either_square(host_client, leopard_table):
    held_turn(host_client, leopard_table)
    page = host_client.get(url(leopard_table) + "?card=3C", **HTMX).content.decode()
    forms = re.findall(r'<form method="post"[^>]*class="lay-here">(.*?)</form>', page, re.S)
    posted = [dict(re.findall(r'name="(\w+)" value="([^"]*)"', form)) for form in forms]
    assert [(f["lay"], f["square"], f["place"]) for f in posted] == [
        ("3C", "0", "3"),
        ("3C", "1", "3"),
    ]
    response = host_client.post(url(leopard_table, "act"), posted[0], **HTMX)
    assert response.status_code == 200, alert(response)
    state = selectors.load(current(leopard_table)).state
    assert state.view(None)["squares"][0][2]["top"] == "3C"


def test_ending_below_five_points_is_refused(host_client, leopard_table):
    reveal_now(host_client, leopard_table)
    deal = current(leopard_table)
    seat = selectors.load(deal).state.to_act
    page = host_client.get(url(leopard_table), **EN).content.decode()
    assert "End the deal now" not in page
    response = host_client.post(url(leopard_table, "act"), stamp(deal, seat=seat, end="1"), **EN)
    assert response.status_code == 400 and "at least 5 points" in alert(response)
    assert current(leopard_table).version == deal.version


def test_drawing_twice_is_refused(host_client, leopard_table):
    deal = drawn_turn(host_client, leopard_table)
    seat = selectors.load(deal).state.to_act
    response = host_client.post(url(leopard_table, "act"), stamp(deal, seat=seat, draw="1"), **EN)
    assert response.status_code == 409 and "already drawn" in alert(response)


def test_a_take_back_of_a_discard_returns_the_drawn_card_and_keeps_it_seen(
    host_client, leopard_table
):
    deal = drawn_turn(host_client, leopard_table)
    state = selectors.load(deal).state
    seat, drawn, stock = state.to_act, state.hands[state.to_act][-1], len(state.stock)
    from games.engine.cards import CODES

    host_client.post(
        url(leopard_table, "act"), stamp(deal, seat=seat, discard=CODES[drawn]), **HTMX
    )
    deal = current(leopard_table)
    response = host_client.post(
        url(leopard_table, "take-back"), stamp(deal, seat=seat), **HTMX, **EN
    )
    assert response.status_code == 200
    state = selectors.load(current(leopard_table)).state
    assert state.to_act == seat and state.hands[seat][-1] == drawn and not state.discards
    assert len(state.stock) == stock  # the card is not drawn twice
    # he has seen that card: he may not now end the deal instead, nor draw again
    assert state.drawn and state.steps() == []
    page = response.content.decode()
    assert "took back the discard" in page and "Draw a card" not in page
    assert re.search(rf'value="{CODES[drawn]}" class="card playable[^"]* drawn"', page)


def test_a_match_to_a_target_ends_when_a_total_reaches_it(host, players):
    table = services.start_table(
        user=host, game="leopard", players=players[:2], options={"target": 3}, seed=2
    )
    from games import selectors
    from tests.support.hotseat import act

    step = 0
    for _ in range(30):
        deal = current(table)
        while not deal.is_over:
            act(table, choose=step * 7, user=host)
            step += 1
            deal = current(table)
        sheet = selectors.cycle_sheet(
            deal.cycle, selectors.names(table), registry.game("leopard"), deal
        )
        if sheet.complete:
            break
        services.next_deal(table=table, after=deal.number, user=host)
    assert max(sheet.totals) >= 3 and sheet.winners
    running = [0, 0]
    for row in sheet.rows[:-1]:  # no total had reached the target before the last deal
        running = [t + s for t, s in zip(running, row.scores, strict=True)]
        assert max(running) < 3
    dealers = [d.dealer for d in table.deals.order_by("number")]
    assert all(a != b for a, b in zip(dealers, dealers[1:], strict=False))  # alternating
    services.next_deal(table=table, after=current(table).number, user=host)
    assert current(table).cycle.number == 2


def test_a_leopard_table_is_started_from_its_form(host_client, players):
    response = host_client.post(
        "/tables/new/leopard/",
        {
            "seat_0": players[0].pk,
            "seat_1": players[1].pk,
            "match": "target",
            "target": "33",
            "deals": "4",
        },
    )
    assert response.status_code == 302
    from games.models import Table

    table = Table.objects.get(token=response["Location"].split("/")[2])
    assert table.options == {"deals": None, "target": 33}
    assert (table.cycles.get().length, table.cycles.get().target) == (None, 33)
