"""Live pages in a real browser against a real daphne process (websockets and all): the
hotseat page fetches each version once, a spectator follows every action without a reload,
a page says it is disconnected and catches up after a restart, the standings follow results.
"""

import random
import time

import pytest

from club.models import Player
from games import selectors
from tests.support.browser import (
    click_and_wait,
    lay_first_card_or_pass,
    off_the_loop,
    reveal_button,
)
from tests.support.hotseat import act, current, leaked_cards
from tests.support.live import next_post
from tests.support.servers import Member
from tests.support.tournaments import enter, new_tournament
from tournaments.run import services as run_services

pytestmark = [pytest.mark.browser, pytest.mark.servers, pytest.mark.django_db(transaction=True)]


def fetches_of(page) -> list[str]:
    """The page's own GETs of itself (htmx asks them with its header), as they are made."""
    made = []
    page.on(
        "request",
        lambda r: made.append(r.url) if r.method == "GET" and r.headers.get("hx-request") else None,
    )
    return made


def connected(page):
    page.locator('#live-status[data-socket="open"]').wait_for(state="attached")


def next_click(page, table):
    """What the screen asks next: show the hand of the player to act, or lay a card."""
    if page.locator("h2.handoff").count():
        state = selectors.load(current(table)).state
        click_and_wait(page, reveal_button(page, selectors.names(table)[state.to_act]))
    else:
        lay_first_card_or_pass(page)


def stamp_of(deal) -> str:
    return f"{deal.number} {deal.version}"


def test_the_hotseat_page_fetches_each_version_once_and_follows_another_tab(
    served, tab, host, fantan_table
):
    (server,) = served(1)
    page = tab(server, host)
    page.goto(fantan_table.get_absolute_url())
    fetches = fetches_of(page)
    connected(page)
    for _ in range(3):  # hand on, play, hand on: each click's answer is the new version
        next_click(page, fantan_table)
    page.wait_for_timeout(800)  # the notices of those versions have come and gone
    assert fetches == [], "the page fetched a version its own click had brought"

    other = page.context.new_page()  # another tab of the same member
    other.goto(fantan_table.get_absolute_url())
    next_click(other, fantan_table)
    after = current(fantan_table)
    page.locator(f'#table[data-stamp="{stamp_of(after)}"]').wait_for(timeout=3000)
    page.wait_for_timeout(500)
    assert len(fetches) == 1, fetches  # once, for the version the other tab made
    assert page.script_errors == []


def test_a_spectator_follows_every_action_without_a_reload_and_sees_no_hand(
    served, tab, host, fantan_table
):
    (server,) = served(1)
    watcher = tab(server)  # not signed in
    watcher.goto(f"/watch/{fantan_table.watch_key}/")
    watcher.evaluate("window.sameDocument = true")
    fetches = fetches_of(watcher)
    connected(watcher)
    session = Member(host).session(server)
    rng = random.Random(3)
    versions = 0
    for _ in range(12):
        post = next_post(fantan_table, rng)
        assert session.post(f"/t/{fantan_table.token}/{post.what}", post.fields).ok
        versions += 1
        deal = current(fantan_table)
        watcher.locator(f'#table[data-stamp="{stamp_of(deal)}"]').wait_for(timeout=3000)
        state = selectors.load(deal).state
        html = watcher.content().replace(fantan_table.watch_key, "")
        assert leaked_cards(html, sorted(state.hidden_from(None))) == []
        assert watcher.locator(".hand, button.card").count() == 0
    assert watcher.evaluate("window.sameDocument") is True  # never reloaded
    assert len(fetches) <= versions  # at most one fetch a version
    assert watcher.script_errors == []


def test_a_page_shows_it_is_disconnected_and_catches_up_after_a_restart(
    served, tab, host, fantan_table
):
    (server,) = served(1)
    watcher = tab(server)
    watcher.goto(f"/watch/{fantan_table.watch_key}/")
    status = watcher.locator("#live-status")
    connected(watcher)
    assert status.is_hidden()
    server.kill()
    status.wait_for(state="visible", timeout=5000)
    assert "reconnecting" in status.inner_text()
    act(fantan_table, 0, host)  # written while the page cannot hear of it
    server.restart()
    deal = current(fantan_table)
    watcher.locator(f'#table[data-stamp="{stamp_of(deal)}"]').wait_for(timeout=15_000)
    status.wait_for(state="hidden")
    assert watcher.locator(".log li").count() >= 1


def test_the_standings_and_round_pages_follow_a_table_played_here_to_its_result(served, tab, host):
    tournament = new_tournament(host, game="leopard", seating="swiss", options={"deals": 1})
    enter(tournament, ["Анна", "Борис"], host)
    round_ = run_services.draw_round(tournament=tournament, user=host)
    run_services.release_round(round_=round_, user=host)
    hotseat = run_services.play_here(table=round_.tables.get(), user=host).hotseat
    (server,) = served(1)
    standings = tab(server)
    standings.goto(f"/tournaments/{tournament.key}/standings/")
    round_page = standings.context.new_page()
    round_page.goto(f"/tournaments/{tournament.key}/rounds/1/")
    for page in (standings, round_page):
        page.evaluate("window.sameDocument = true")
        connected(page)
    assert round_page.locator(".badge.state").inner_text() == "playing"
    session = Member(host).session(server)
    rng = random.Random(5)
    started = time.monotonic()
    while not current(hotseat).is_over:
        assert time.monotonic() - started < 60, "the deal did not end"
        post = next_post(hotseat, rng)
        assert session.post(f"/t/{hotseat.token}/{post.what}", post.fields).ok
    result = current(hotseat).result["scores"]
    version = type(tournament).objects.get(pk=tournament.pk).version
    for page in (standings, round_page):
        page.locator(f'[data-live][data-stamp="{version}"]').wait_for(timeout=3000)
        assert page.evaluate("window.sameDocument") is True
    assert round_page.locator(".badge.state").count() == 0  # the table counts now
    points = round_page.locator(".round-table tbody td.num").all_inner_texts()
    assert [int(p) for p in points[0::2]] == result


def test_the_directors_run_page_shows_a_check_in_from_a_seat_and_keeps_what_he_typed(
    served, tab, host
):
    """A player checks in from his seat's own page; the director's open Run page shows it
    without a reload, the names he was typing in the entrants box still there."""

    def evening():  # round 1 released, its table played on the players' own devices
        tournament = new_tournament(host, rounds_planned=2)
        enter(tournament, ["Анна", "Борис", "Вера", "Глеб"], host)
        round_ = run_services.draw_round(tournament=tournament, user=host)
        run_services.release_round(round_=round_, user=host)
        table = run_services.play_here(table=round_.tables.get(), user=host, devices=True)
        return tournament, table.hotseat.seats.select_related("player").order_by("position")[0]

    tournament, seat = off_the_loop(evening)
    (server,) = served(1)
    run = tab(server, host)
    run.goto(f"/tournaments/{tournament.key}/run/")
    run.evaluate("window.sameDocument = true")
    connected(run)
    count = run.locator(".check-in-count")
    assert count.inner_text().startswith("Nobody is checked in yet (0 of 4)")
    names = run.locator("textarea[name=enter-name]")
    names.fill("Дарья\nЕго")  # half typed, not sent
    phone = tab(server)  # the seat's link: no sign-in
    phone.goto(seat.get_absolute_url())
    phone.get_by_role("button", name="I am here for round 2").click()
    phone.get_by_text("You are checked in for round 2.").wait_for()
    expected = "1 of 4 checked in: round 2 seats only those checked in."
    run.locator(".check-in-count", has_text=expected).wait_for(timeout=5000)
    assert run.evaluate("window.sameDocument") is True  # never reloaded
    assert run.locator(".check-in-present").inner_text() == f"Checked in: {seat.player.name}"
    assert names.input_value() == "Дарья\nЕго"
    assert run.evaluate("document.activeElement.name") == "enter-name"  # still typing there
    assert run.script_errors == [] and phone.script_errors == []


def test_the_directors_draft_keeps_a_half_made_swap_while_a_player_checks_in_from_his_page(
    served, tab, host, django_user_model
):
    """A player checks in from the tournament's page, signed in as his club player; the
    director's open Run page shows it and the redraw it calls for, the two entrants he had
    picked to swap still picked and their preview shown again."""

    def evening():  # round 1 drawn, a draft
        tournament = new_tournament(host, rounds_planned=2)
        enter(tournament, ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зоя"], host)
        run_services.draw_round(tournament=tournament, user=host)
        return tournament

    tournament = off_the_loop(evening)
    member = django_user_model.objects.create_user("zoya", password="pw-for-tests-only")
    Player.objects.filter(name="Зоя").update(user=member)
    (server,) = served(1)
    run = tab(server, host)
    run.goto(f"/tournaments/{tournament.key}/run/")
    run.evaluate("window.sameDocument = true")
    connected(run)
    first, second = (
        run.locator("select[name=swap1-first]"),
        run.locator("select[name=swap1-second]"),
    )
    first.select_option(label="Анна")
    second.select_option(label="Борис")
    preview = run.locator("#swap-preview-1", has_text="After swapping Анна and Борис")
    preview.wait_for()
    player = tab(server, member)
    player.goto(f"/tournaments/{tournament.key}/")
    player.get_by_role("button", name="Check in for round 1").click()
    player.get_by_text("You are checked in for round 1.").wait_for()
    run.locator(".check-in-count", has_text="1 of 8 checked in").wait_for(timeout=5000)
    assert run.evaluate("window.sameDocument") is True
    assert "drawn before these changes" in run.locator(".check-in-redraw").inner_text()
    chosen = [s.evaluate("s => s.selectedOptions[0].text") for s in (first, second)]
    assert chosen == ["Анна", "Борис"]
    preview.wait_for()  # asked again for the page as it is now
    assert run.script_errors == [] and player.script_errors == []
