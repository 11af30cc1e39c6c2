"""Seats played on their players' own devices, in real browsers against a real daphne
process (websockets and all): four phones play a whole deal each from his own seat's link; a
table mixes the shared screen, a device and a robot; a replaced link's open page says so and
acts no more.

Each phone is a browser context of its own at 390×844, on its seat's link, not signed in (a
seat's link needs no account). The shared screen is the host's page, signed in.
"""

import re
import time

import pytest

from games import selectors, services
from games.models import Seat
from games.robot_seats import RobotSeat
from tests.support.browser import (
    click_and_wait,
    is_handoff,
    is_over,
    lay_first_card_or_pass,
    reveal_button,
)
from tests.support.hotseat import current, form_fields, leaked_cards, scrub
from tests.support.servers import Member
from tests.support.tournaments import enter, new_tournament
from tournaments.run import services as run_services

pytestmark = [pytest.mark.browser, pytest.mark.servers, pytest.mark.django_db(transaction=True)]


def seat_of(table, position) -> Seat:
    return Seat.objects.get(table=table, position=position)


def open_seat(page, seat):
    """The seat's own page, its socket open."""
    page.goto(f"/s/{seat.key}/")
    page.locator('#live-status[data-socket="open"]').wait_for(state="attached")


def shows(deal) -> str:
    """The table of every page showing ``deal`` as it is (its stamp: "deal version", and the
    table's version once it has one)."""
    stamp = f"{deal.number} {deal.version}"
    return f'#table[data-stamp="{stamp}"], #table[data-stamp^="{stamp} "]'


def in_step(pages, table):
    """Wait for every page to show the deal as the database has it now; that deal."""
    deal = current(table)
    for page in pages:
        page.locator(shows(deal)).wait_for(timeout=5000)
    return deal


def hand_of(table, position) -> list[str]:
    return sorted(selectors.load(current(table)).state.view(position)["hand"])


def assert_own_hand_alone(page, table, seat):
    """The seat's page holds no card the engine hides from it (the other hands, anywhere in
    its HTML), and no hand-off screen."""
    hidden = sorted(selectors.load(current(table)).state.hidden_from(seat.position))
    html = scrub(page.content(), table)
    html = re.sub(r'href="data:image/svg\+xml,[^"]*"', "", html)  # the turn's favicon: %3Csvg…
    assert leaked_cards(html, hidden) == [], f"another hand on seat {seat.position + 1}'s page"
    assert not is_handoff(page)


def wait_for_robot(table, deal, seconds=15):
    """The server plays the robot's turn after its pause: wait until it has."""
    deadline = time.monotonic() + seconds
    while current(table).version == deal.version:
        assert time.monotonic() < deadline, "the robot never played"
        time.sleep(0.1)


MINE = ".seat:has(.badge.mine) .badge.device"  # what a seat's own row says of its device
CALLS = "#table .panel.turn button.call:not([disabled])"


def call(page, number):
    click_and_wait(page, page.locator(f'{CALLS}[value="{number}"]'))


# -- four phones --------------------------------------------------------------------------


def test_four_phones_play_a_whole_variety_deal_each_his_own_seat_live(served, tab, host, players):
    """Выборы, every seat on its own phone: the auction (each calls once; the fourth names
    the first's number, which is played) and the thirteen tricks, each from his own page.
    Every page holds its own hand alone, never a hand-off, and follows every move live; a
    take-back on one page shows on all four."""
    table = services.start_table(
        user=host, game="variety", players=players, options={}, seed=3, devices={0, 1, 2, 3}
    )
    (server,) = served(1)
    seats = [seat_of(table, i) for i in range(4)]
    pages = [tab(server, phone=True) for _ in seats]
    for page, seat in zip(pages, seats, strict=True):
        open_seat(page, seat)
        page.evaluate("window.sameDocument = true")
        # the page open on his phone is his presence: his own row says so from the start
        assert page.locator(MINE).inner_text() == "on their device: connected"
    names = selectors.names(table)
    taken_back = False
    for _ in range(9 + 52 + 2):
        deal = in_step(pages, table)
        if deal.is_over:
            break
        state = selectors.load(deal).state
        mover = state.to_act
        if deal.version == 1:  # the first move: every page has heard of every phone since
            for page in pages:
                assert page.locator(".seat .badge.device.connected").count() == 4
        for page, seat in zip(pages, seats, strict=True):
            assert_own_hand_alone(page, table, seat)
            mine = page.locator("#table[data-my-turn]").count() == 1
            assert mine == (seat.position == mover), f"{names[seat.position]}'s page"
            if not mine:
                assert page.locator("h2.waiting").inner_text() == f"Waiting for {names[mover]}"
        page = pages[mover]
        if state.phase == "auction":
            calls = len(state.calls)
            call(page, calls + 1 if calls < 3 else 1)
            continue
        before = hand_of(table, mover)
        _, played = lay_first_card_or_pass(page)
        if taken_back or len(state.trick) != 1:
            continue
        # the second card of the first trick: its player takes it back, on his page alone
        in_step(pages, table)
        others = [p for i, p in enumerate(pages) if i != mover]
        assert all(p.locator("#table .take-back").count() == 0 for p in others)
        click_and_wait(page, page.locator("#table .take-back button"))
        in_step(pages, table)
        assert hand_of(table, mover) == before
        assert page.locator(f'.hand button.card[value="{played}"]').count() == 1
        for other, seat in zip(pages, seats, strict=True):
            assert_own_hand_alone(other, table, seat)  # the card is back in his hand, hidden
            assert other.locator(".log").inner_text().count("took back") == 1
        taken_back = True
    else:
        pytest.fail("the deal did not end")
    assert taken_back
    for page in pages:
        page.get_by_role("heading", name="The deal is over").wait_for()
        assert page.evaluate("window.sameDocument") is True  # followed live, never reloaded
        assert page.script_errors == []


# -- the shared screen, a device and a robot ------------------------------------------------


def test_a_mixed_table_hands_the_screen_between_its_own_seats_and_follows_the_device(
    served, tab, host, players
):
    """Фантан: Анна and Борис at the shared screen, Вера on her phone, a robot. The screen is
    handed on only between Анна and Борис, never shows Вера's hand, and waits while she
    plays; her page follows the screen's moves and the robot's live."""
    table = services.start_table(
        user=host,
        game="fantan",
        players=[*players[:3], RobotSeat("beginner")],
        options={},
        seed=7,
        devices={2},
    )
    (server,) = served(1)
    screen = tab(server, host)
    screen.goto(table.get_absolute_url())
    screen.locator('#live-status[data-socket="open"]').wait_for(state="attached")
    vera = seat_of(table, 2)
    phone = tab(server, phone=True)
    open_seat(phone, vera)
    names = selectors.names(table)
    handoffs = []
    for _ in range(200):
        deal = in_step([screen, phone], table)
        if deal.is_over:
            break
        hotseat = selectors.load(deal)
        mover = hotseat.state.to_act
        html = scrub(screen.content(), table)
        assert leaked_cards(html, hand_of(table, 2)) == [], "Вера's hand on the shared screen"
        assert leaked_cards(html, sorted(hotseat.state.hidden_from(hotseat.shown_seat))) == []
        assert_own_hand_alone(phone, table, vera)
        if mover == 3:
            # the robot plays by itself: a hand-off seen once it has moved is the next seat's
            handoff = is_handoff(screen)
            moved = selectors.current_deal(table).version != deal.version
            assert moved or not handoff
            wait_for_robot(table, deal)
        elif mover == 2:
            assert not is_handoff(screen)
            screen.get_by_role("heading", name=f"Waiting for {names[2]}").wait_for()
            lay_first_card_or_pass(phone)
        else:
            if is_handoff(screen):
                handoffs.append(names[mover])
                click_and_wait(screen, reveal_button(screen, names[mover]))
            lay_first_card_or_pass(screen)
    else:
        pytest.fail("the deal did not end")
    assert set(handoffs) == {names[0], names[1]}
    assert is_over(screen) and is_over(phone)
    assert screen.script_errors == phone.script_errors == []


# -- a link replaced -----------------------------------------------------------------------


def test_a_replaced_links_open_page_says_so_and_acts_no_more(served, tab, host, players):
    table = services.start_table(
        user=host, game="fantan", players=players, options={}, seed=7, devices={0, 1, 2, 3}
    )
    (server,) = served(1)
    position = selectors.load(current(table)).state.to_act
    old = seat_of(table, position)
    page = tab(server, phone=True)
    open_seat(page, old)
    card = page.locator(".hand button.card.playable, #table .panel.turn button[name=pass]")
    assert card.count() > 0  # his turn: he could play
    token = page.locator("input[name=csrfmiddlewaretoken]").first.get_attribute("value")
    session = Member(host).session(server)
    answer = session.post(
        f"/t/{table.token}/reissue-seat", {"seat": position, "version": table.version}
    )
    assert answer.ok
    gone = page.locator("#seat-gone")
    gone.wait_for(state="visible", timeout=5000)  # told by the socket, without a click
    assert "link was replaced" in gone.inner_text()
    assert card.first.is_disabled()
    before = current(table)
    action = selectors.load(before).state.legal_actions()[0]
    fields = {"csrfmiddlewaretoken": token, "deal": before.number, "version": before.version}
    refused = page.request.post(
        f"/s/{old.key}/act", form={**fields, "seat": position, **form_fields(table, action)}
    )
    assert refused.status == 404
    assert current(table).version == before.version  # nothing was played
    new = seat_of(table, position)
    assert new.key != old.key
    fresh = tab(server, phone=True)
    open_seat(fresh, new)
    lay_first_card_or_pass(fresh)  # the new link plays the seat
    assert page.script_errors == fresh.script_errors == []


def test_a_seats_page_follows_the_check_in_the_director_makes(served, tab, host):
    tournament = new_tournament(host)  # its director
    enter(tournament, ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор"], host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    played = run_services.play_here(
        table=round_.tables.order_by("number").first(), user=host, devices=True
    )
    seat = played.hotseat.seats.order_by("position").first()
    (server,) = served(1)
    page = tab(server, phone=True)
    open_seat(page, seat)
    offer = page.locator("#seat-check-in")
    assert "I am here for round 2" in offer.inner_text()
    answer = (
        Member(host)
        .session(server)
        .post(f"/tournaments/{tournament.key}/run/check-in/everyone", {"round": "2"})
    )
    assert answer.ok
    # without a reload: his seat's page hears of it and asks for what changed
    page.locator("#seat-check-in", has_text="Undo my check-in").wait_for(timeout=5000)
    assert "You are checked in for round 2." in offer.inner_text()
    assert page.locator("#seat-check-in").count() == 1
    assert page.script_errors == []
