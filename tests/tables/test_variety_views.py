"""Выборы through the pages: the auction, the partnerships, trick play, the cycle's sheet."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import registry, selectors, services
from games.engine.cards import codes_of
from games.engine.records import replay
from games.models import Cycle
from tests.support.hotseat import (
    HTMX,
    act,
    alert,
    card_buttons,
    current,
    play_to_end,
    reveal_now,
    stamp,
    take_turn,
    unchanged,
    url,
)

pytestmark = [pytest.mark.django_db, pytest.mark.any_database]
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def call(client, table, number, say="", **extra):
    reveal_now(client, table)
    deal = current(table)
    seat = selectors.load(deal).state.to_act
    return client.post(url(table, "act"), stamp(deal, seat=seat, call=number, say=say), **extra)


def auction(client, table, numbers):
    for number in numbers:
        response = call(client, table, number, **HTMX)
        assert response.status_code == 200, alert(response)


def test_the_auction_shows_each_contract_and_disables_the_callers_own_numbers(
    host_client, variety_table
):
    auction(host_client, variety_table, [2, 3, 6])  # three different numbers: no contract yet
    page = reveal_now(host_client, variety_table).content.decode()
    assert 'name="say"' in page
    assert all(f'name="call" value="{n}"' in page for n in range(1, 9))
    assert not re.search(r'value="\d" class="call" disabled', page)  # D has called nothing
    assert (
        "the lowest card wins the trick"
        in host_client.get(url(variety_table), **EN).content.decode()
    )
    # A (the first caller) has called 2: on his next turn 2 is disabled
    call(host_client, variety_table, 4, **HTMX)
    page = reveal_now(host_client, variety_table).content.decode()
    assert re.search(r'name="call" value="2" class="call" disabled', page)
    assert not re.search(r'name="call" value="3" class="call" disabled', page)


def test_an_announcement_goes_with_the_call_into_the_auction_log(host_client, variety_table):
    call(host_client, variety_table, 2, say="I have six high clubs", **HTMX)
    page = host_client.get(url(variety_table), **EN).content.decode()
    assert re.search(
        r'<strong>2</strong><span class="call-say"> — «I have six high clubs»</span>', page
    )


def test_the_books_first_example_makes_the_contract_and_partners_plain(host_client, variety_table):
    deal = current(variety_table)
    first = (deal.dealer + 1) % 4
    names = [s.player.name for s in variety_table.seats.all()]
    auction(host_client, variety_table, [2, 3, 6, 2])  # A 2, B 3, C 6, D 2
    state = selectors.load(current(variety_table)).state
    assert state.contract == 2 and state.attackers == (first, (first + 3) % 4)
    page = host_client.get(url(variety_table), **EN).content.decode()
    assert "Contract 2" in page
    assert re.search(rf"Attackers: <strong>{names[first]} &(amp;)? {names[(first + 3) % 4]}<", page)
    assert 'name="say"' not in page  # no table talk once play has begun
    assert state.to_act == (first + 1) % 4  # the first namer's left neighbour leads


def test_only_legal_cards_are_buttons_and_a_revoke_is_refused(host_client, variety_table):
    auction(host_client, variety_table, [2, 3, 6, 2])
    take_turn(host_client, variety_table)  # the lead
    page = reveal_now(host_client, variety_table).content.decode()
    deal = current(variety_table)
    state = selectors.load(deal).state
    playable = {a["play"] for a in state.legal_actions()}
    buttons = card_buttons(page)
    assert buttons == playable
    led_suit = state.trick[0][1] // 13
    off_suit = [c for c in codes_of(state.hands[state.to_act]) if c not in playable]
    if not off_suit:
        pytest.skip("this hand holds only cards of the suit led")
    assert all("SHDC".index(c[1]) != led_suit for c in off_suit)
    response = host_client.post(
        url(variety_table, "act"), stamp(deal, seat=state.to_act, card=off_suit[0]), **EN
    )
    assert response.status_code == 400 and "must follow suit" in alert(response)
    unchanged(variety_table, deal)


@pytest.mark.parametrize(
    "bad",
    [
        {"call": "9"},
        {"call": "0"},
        {"call": "two"},
        {"call": "2", "say": "x" * 81},
    ],
)
def test_bad_calls_are_refused(host_client, variety_table, bad):
    reveal_now(host_client, variety_table)
    before = current(variety_table)
    fields = stamp(before, seat=selectors.load(before).state.to_act, **bad)
    response = host_client.post(url(variety_table, "act"), fields, **EN)
    assert response.status_code == 400 and alert(response)
    unchanged(variety_table, before)


@pytest.mark.parametrize(
    "form",
    [
        pytest.param(lambda hand: {"call": "2", "say": "", "card": hand[0]}, id="call-and-card"),
        pytest.param(lambda hand: {"call": ["2", "3"], "say": ""}, id="two-calls"),
        pytest.param(lambda hand: {"call": "2", "say": ["", "hi"]}, id="two-announcements"),
        pytest.param(lambda hand: {"call": "02", "say": ""}, id="call-with-a-leading-zero"),
        pytest.param(lambda hand: {"call": "2", "say": "", "pass": "1"}, id="unknown-field"),
    ],
)
def test_an_auction_form_that_is_not_exactly_one_call_is_refused(host_client, variety_table, form):
    reveal_now(host_client, variety_table)
    before = current(variety_table)
    state = selectors.load(before).state
    hand = codes_of(state.hands[state.to_act])
    response = host_client.post(
        url(variety_table, "act"), stamp(before, seat=state.to_act, **form(hand)), **EN
    )
    assert response.status_code == 400 and "incomplete or damaged" in alert(response)
    unchanged(variety_table, before)


@pytest.mark.parametrize(
    "form",
    [
        pytest.param(lambda cards: {"card": cards[0], "say": "psst"}, id="card-and-announcement"),
        pytest.param(lambda cards: {"card": cards[0], "call": "3"}, id="card-and-call"),
        pytest.param(lambda cards: {"card": cards}, id="every-card-at-once"),
    ],
)
def test_a_play_form_that_is_not_exactly_one_card_is_refused(host_client, variety_table, form):
    auction(host_client, variety_table, [2, 3, 6, 2])
    reveal_now(host_client, variety_table)
    before = current(variety_table)
    state = selectors.load(before).state
    cards = [a["play"] for a in state.legal_actions()]
    response = host_client.post(
        url(variety_table, "act"), stamp(before, seat=state.to_act, **form(cards)), **EN
    )
    assert response.status_code == 400 and "incomplete or damaged" in alert(response)
    unchanged(variety_table, before)


def test_a_number_called_twice_by_one_player_is_refused(host_client, variety_table):
    auction(host_client, variety_table, [5, 1, 8, 4])
    reveal_now(host_client, variety_table)
    before = current(variety_table)
    response = host_client.post(
        url(variety_table, "act"),
        stamp(before, seat=selectors.load(before).state.to_act, call=5),
        **EN,
    )
    assert response.status_code == 400 and "already called 5" in alert(response)
    unchanged(variety_table, before)


def test_a_call_once_play_has_begun_is_refused(host_client, variety_table):
    auction(host_client, variety_table, [2, 3, 6, 2])
    reveal_now(host_client, variety_table)
    before = current(variety_table)
    response = host_client.post(
        url(variety_table, "act"),
        stamp(before, seat=selectors.load(before).state.to_act, call=7, say="psst"),
        **EN,
    )
    assert response.status_code == 400 and "auction is over" in alert(response)
    unchanged(variety_table, before)


def test_a_finished_deal_shows_points_and_adds_a_highlighted_row(host_client, variety_table):
    play_to_end(host_client, variety_table, **HTMX)
    deal = current(variety_table)
    page = host_client.get(url(variety_table), **EN).content.decode()
    result = deal.result
    verdict = "The attackers won." if result["attackers_won"] else "each defender also gets"
    assert verdict in page
    rows = re.findall(r'<tr class="new">(.*?)</tr>', page, re.S)
    assert len(rows) == 1
    assert re.findall(r'<td class="score">(−?\d+)(?:<abbr|</td>)', rows[0]) == [
        str(s).replace("-", "−") for s in result["scores"]
    ]


def test_a_sides_points_below_zero_are_written_with_the_minus_sign(host_client, variety_table):
    """Contract 8 counts −2 a trick: after the first trick its side shows "1 trick, −2
    points", in Russian "−2 очка" (the plural chosen by the number's size)."""
    auction(host_client, variety_table, [8, 8])
    for _ in range(4):
        take_turn(host_client, variety_table, **HTMX)
    state = selectors.load(current(variety_table)).state
    assert sum(state.tricks) == 1
    english = host_client.get(url(variety_table), **EN).content.decode()
    russian = host_client.get(url(variety_table), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "— 1 trick, −2 points</span>" in english
    assert "— 1 взятка, −2 очка</span>" in russian


def test_a_take_back_in_the_auction_undoes_the_call(host_client, variety_table):
    auction(host_client, variety_table, [2])
    deal = current(variety_table)
    first = (deal.dealer + 1) % 4
    response = host_client.post(url(variety_table, "take-back"), stamp(deal, seat=first), **HTMX)
    assert response.status_code == 200
    state = selectors.load(current(variety_table)).state
    assert state.calls == [] and state.to_act == first
    page = host_client.get(url(variety_table), **EN).content.decode()
    assert "took back the call 2" in page


def play_deals(table, count, host):
    for _ in range(count):
        while not current(table).is_over:
            act(table, user=host)
        if _ < count - 1:
            services.next_deal(table=table, after=current(table).number, user=host)


def test_a_full_cycle_sheet_agrees_with_the_deals_records(variety_table, host):
    """Eight deals through the services: the four-column sheet and its totals equal what
    replaying each deal's record gives."""
    play_deals(variety_table, 8, host)
    cycle = Cycle.objects.get(table=variety_table)
    names = selectors.names(variety_table)
    sheet = selectors.cycle_sheet(cycle, names, registry.game("variety"))
    deals = list(cycle.deals.order_by("number"))
    assert len(deals) == len(sheet.rows) == 8 and sheet.complete
    totals = [0, 0, 0, 0]
    for row, deal in zip(sheet.rows, deals, strict=True):
        deal.table = variety_table
        result = replay(selectors.record(deal)).result()
        assert result["complete"]
        assert [cell.score for cell in row.detail.cells] == result["scores"]
        assert row.detail.contract == result["contract"]
        assert row.detail.attackers == [names[s] for s in result["attackers"]]
        assert [c.bonus for c in row.detail.cells] == [
            not result["attackers_won"] and s in result["defenders"] for s in range(4)
        ]
        totals = [t + s for t, s in zip(totals, result["scores"], strict=True)]
    assert sheet.totals == totals
    best = max(totals)
    assert sheet.winners == [names[s] for s in range(4) if totals[s] == best]
    # each player dealt twice, and opened the auction twice
    assert sorted(d.dealer for d in deals) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_a_short_cycle_ends_after_four_deals_with_its_winner_and_a_new_cycle(
    host_client, short_variety_table, host
):
    table = short_variety_table
    play_deals(table, 4, host)
    page = host_client.get(url(table), **EN).content.decode()
    assert "Cycle 1 is over" in page and "Start a new cycle" in page
    last = current(table)
    response = host_client.post(url(table, "next-deal"), {"deal": last.number})
    assert response.status_code == 302
    deal = current(table)
    assert deal.cycle.number == 2 and deal.cycle.length == 4
    assert deal.dealer == (last.dealer + 1) % 4
    page = host_client.get(url(table), **EN).content.decode()
    assert "cycle 2, deal 1 of 4" in page


def sheet_rows(response) -> int:
    """The rows of the page's score sheet (its chart's table of numbers aside)."""
    sheet = response.content.decode().split('<table class="scores cycle">', 1)[1]
    return sheet.split("</table>", 1)[0].count("<tr")


def test_the_score_sheet_page_costs_the_same_queries_after_one_deal_and_after_eight(
    host_client, variety_table, host
):
    path = url(variety_table, "cycles/1/")
    play_deals(variety_table, 1, host)
    with CaptureQueriesContext(connection) as one:
        first = host_client.get(path, **EN)
    play_deals_more = 7
    for _ in range(play_deals_more):
        services.next_deal(table=variety_table, after=current(variety_table).number, user=host)
        while not current(variety_table).is_over:
            act(variety_table, user=host)
    with CaptureQueriesContext(connection) as eight:
        last = host_client.get(path, **EN)
    assert first.status_code == last.status_code == 200
    assert sheet_rows(last) == sheet_rows(first) + 7
    assert len(one) == len(eight)
    assert "Winner" in last.content.decode()


def test_a_variety_table_is_started_from_its_form(host_client, players):
    response = host_client.post(
        "/tables/new/variety/",
        {
            "seat_0": players[0].pk,
            "seat_1": players[1].pk,
            "seat_2": players[2].pk,
            "seat_3": players[3].pk,
            "cycle": "short",
        },
    )
    assert response.status_code == 302
    table = selectors.table_by_token(response["Location"].split("/")[2])
    assert table.game == "variety" and table.options == {"cycle": "short"}
    assert table.cycles.get().length == 4


def test_variety_needs_four_players(host_client, players):
    response = host_client.post(
        "/tables/new/variety/",
        {
            "seat_0": players[0].pk,
            "seat_1": players[1].pk,
            "seat_2": players[2].pk,
            "cycle": "full",
        },
        **EN,
    )
    assert response.status_code == 400 and "Seat four players" in response.content.decode()
