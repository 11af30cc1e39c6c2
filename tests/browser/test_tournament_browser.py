"""A Леопард tournament run in a real browser (Debian's chromium, Playwright), end to end.

A director signs in, creates the tournament (a match of one deal a table), enters four club
players, seats round 1 and releases it; table 1 is played here, at the hotseat screen, to its
end; table 2's paper sheet is typed in; a visitor, not signed in, reads the standings.

The browser, the live server's tabs and the helpers come from tests/support/browser.py, the
steering of a Леопард deal from tests/browser/test_leopard_browser.py. Random play seldom brings a
square to the five points that end a deal, and a deal that runs out the stock takes over a
hundred turns: the steered moves are planned on a copy of the engine's state, all but the
last PAGE_TURNS are played through the services, off the event loop, and those last turns and
the end itself are clicked. Run with ``pytest tests/browser/test_tournament_browser.py``; without
/usr/bin/chromium the test is skipped, except on CI (CI=true).
"""

import re

import pytest
from django.contrib.auth.models import Group

from club.models import Player
from club.roles import DIRECTOR
from games.leopard.engine import END_AT
from games.leopard.tournament import declarer_score
from games.models import Deal
from tests.support import browser
from tests.support.browser import (
    PASSWORD,
    click_and_swap,
    click_and_wait,
    english_text,
    reveal_button,
    sign_in,
    version,
)
from tests.support.leopard import end_button, english_name, plan_to_end, play_turns, state_of, text
from tournaments.models import RoundTable, SheetRow, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

NAMES = ("Анна", "Борис", "Вера", "Глеб")  # the club players, in entry order
TOURNAMENT = "Кубок клуба"
PAGE_TURNS = 2  # the turns of the hotseat deal clicked before the one that ends it
LAPTOP = dict(viewport={"width": 1366, "height": 768})
# Table 2's paper sheet: seat 1 declared the end with a square of 8 (8 + 3 − 1 = 10).
TYPED = {"scores": [4, declarer_score(8)], "ender": 1}


def watch_responses(page) -> list[str]:
    """Every answer of 400 or more the tab receives (pages, htmx swaps, static files)."""
    failed = []
    page.on(
        "response",
        lambda r: (
            failed.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None
        ),
    )
    return failed


def match_points(mine: int, other: int) -> int:
    """At a table of two: 6 for a win, 3 for a tie, 0 for a loss."""
    return 6 if mine > other else 3 if mine == other else 0


def seat_names(table: RoundTable) -> list[str]:
    return [
        seat.entrant.player.name
        for seat in table.seats.select_related("entrant__player").order_by("position")
    ]


def in_table(page, table: RoundTable):
    """A table's block on the director's page (its caption and its buttons)."""
    return page.locator(f"#table-{table.pk}")


def play_move(page, hotseat, names, move: dict):
    """One turn clicked at the hotseat screen: show the hand, draw, choose the card, lay it
    on the marked place or discard it."""
    state = state_of(hotseat)
    name = names[state.to_act]
    click_and_wait(page, reveal_button(page, name))
    assert end_button(page).count() == 0, f"{name} may end the deal sooner than planned"
    click_and_wait(page, page.get_by_role("button", name="Draw a card", exact=True))
    code = move.get("lay") or move["discard"]
    card = english_text(code)
    hand_card = page.locator(".hand").get_by_role(
        "button", name=re.compile(rf"^{re.escape(english_name(code))}( \(drawn\))?$")
    )
    click_and_swap(page, hand_card.first)
    if "lay" in move:
        target = f"Lay {card} on {move['place']} ({names[move['square']]})"
        click_and_wait(page, page.get_by_role("button", name=target, exact=True))
    else:
        click_and_wait(page, page.get_by_role("button", name=f"Discard {card}", exact=True))


def test_a_director_runs_a_round_and_a_visitor_reads_the_standings(open_page, django_user_model):
    director = django_user_model.objects.create_user("director", password=PASSWORD)
    # get_or_create: an earlier transactional test may have flushed the migration's groups
    director.groups.add(Group.objects.get_or_create(name=DIRECTOR)[0])
    for name in NAMES:
        Player.objects.create(name=name)
    page = open_page(**LAPTOP)
    failed = watch_responses(page)

    # -- the new tournament ----------------------------------------------------------------
    page.goto("/tournaments/new/leopard/")
    page.wait_for_url("**/accounts/login/**")
    sign_in(page, "director")
    page.wait_for_url("**/tournaments/new/leopard/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("heading", name="New tournament: Leopard", exact=True).wait_for()
    page.get_by_label("Name", exact=True).fill(TOURNAMENT)
    page.get_by_label("Rounds planned", exact=True).fill("1")
    page.get_by_label("an agreed number of deals").check()
    page.get_by_label("Deals", exact=True).fill("1")
    page.get_by_role("button", name="Create the tournament", exact=True).click()
    page.wait_for_url(re.compile(r"/tournaments/[^/]+/run/$"))

    tournament = Tournament.objects.get()
    assert (tournament.game, tournament.name, tournament.created_by) == (
        "leopard",
        TOURNAMENT,
        director,
    )
    assert tournament.options == {"deals": 1, "target": None}
    assert tournament.rounds_planned == 1
    run_url = f"/tournaments/{tournament.key}/run/"
    page.get_by_role("heading", name=re.compile(rf"^{TOURNAMENT}")).wait_for()

    # -- four club players enter, ticked together -----------------------------------------
    entrants = page.get_by_role("region", name="Entrants")
    for name in NAMES:
        page.get_by_role("checkbox", name=name, exact=True).check()
    page.get_by_role("button", name="Enter", exact=True).click()
    for name in NAMES:
        entrants.get_by_role("listitem").filter(has_text=name).wait_for()
    assert [e.player.name for e in tournament.entrants.order_by("number")] == list(NAMES)

    # -- round 1 seated as a draft, then released -------------------------------------------
    page.get_by_role("button", name="Seat round 1", exact=True).click()
    round_1 = page.get_by_role("region", name=re.compile(r"^Round 1"))
    round_1.get_by_text("draft", exact=True).wait_for()
    page.get_by_role("button", name="Release round 1", exact=True).click()
    page.get_by_role("button", name="Play here").first.wait_for()
    assert round_1.get_by_text("draft", exact=True).count() == 0
    assert page.get_by_role("button", name="Release round 1").count() == 0
    first, second = RoundTable.objects.filter(
        round__tournament=tournament, round__released=True
    ).order_by("number")
    names_1, names_2 = seat_names(first), seat_names(second)
    assert sorted(names_1 + names_2) == sorted(NAMES)
    for table, names in ((first, names_1), (second, names_2)):
        assert in_table(page, table).get_by_role("rowheader").all_inner_texts() == names

    # -- table 1 played here, at the hotseat screen ----------------------------------------
    in_table(page, first).get_by_role("button", name="Play here", exact=True).click()
    first.refresh_from_db()
    hotseat = first.hotseat
    assert hotseat is not None and hotseat.created_by == director
    page.wait_for_url(f"**{hotseat.get_absolute_url()}")
    assert hotseat.options == {"deals": 1, "target": None}
    assert "deal 1 of 1" in text(page.locator("h1"))

    # The steered moves to an end; all but the last PAGE_TURNS through the services.
    moves = plan_to_end(state_of(hotseat))
    on_page = moves[-PAGE_TURNS:]
    browser.off_the_loop(play_turns, hotseat, director, moves[: len(moves) - len(on_page)])
    page.reload()
    for move in on_page:
        play_move(page, hotseat, names_1, move)

    # Now the player to act has five points or more: he ends the deal, by clicking.
    state = state_of(hotseat)
    ender, sums = state.to_act, state.sums()
    assert sums[ender] >= END_AT
    click_and_wait(page, reveal_button(page, names_1[ender]))
    click_and_wait(page, end_button(page))
    page.get_by_role("heading", name="The deal is over", exact=True).wait_for()
    deal = Deal.objects.get(table=hotseat)
    assert deal.is_over and deal.version == version(page)
    played = deal.result["scores"]
    assert played[ender] == declarer_score(sums[ender])
    assert [row.data for row in SheetRow.objects.filter(table=first).order_by("index")] == [
        {"scores": played, "ender": ender}
    ]
    assert page.script_errors == []

    # -- table 2's paper sheet typed in ------------------------------------------------------
    page.goto(run_url)
    assert "played here" in text(in_table(page, first).get_by_role("table"))
    in_table(page, second).get_by_role("link", name="Type in the sheet", exact=True).click()
    page.wait_for_url(f"**/tables/{second.pk}/sheet/")
    page.get_by_role("heading", name=re.compile(r"Round 1 · Table 2$")).wait_for()
    for seat, name in enumerate(names_2):
        page.get_by_label(f"1 · Score · {name}", exact=True).fill(str(TYPED["scores"][seat]))
    page.get_by_label("1 · Declared the end", exact=True).select_option(  # its seat from 1
        label=f"{TYPED['ender'] + 1} · {names_2[TYPED['ender']]}"
    )
    page.get_by_role("button", name="Save the sheet", exact=True).click()
    page.wait_for_url(re.compile(rf"/run/#table-{second.pk}$"))
    caption = text(in_table(page, second).get_by_role("table").locator("caption"))
    assert "counted" in caption and "paper sheet" in caption, caption
    assert "counted" in text(in_table(page, first).get_by_role("table").locator("caption"))
    assert [row.data for row in SheetRow.objects.filter(table=second).order_by("index")] == [TYPED]
    typed = TYPED["scores"]
    for table, names, points in ((first, names_1, played), (second, names_2, typed)):
        shown = (
            in_table(page, table)
            .get_by_role("table")
            .locator("tbody tr")
            .evaluate_all(
                "rows => rows.map(r => [r.querySelector('th').textContent.trim(),"
                " r.querySelector('td.num').textContent.trim()])"
            )
        )
        assert shown == [[name, str(p)] for name, p in zip(names, points, strict=True)]
    assert page.script_errors == []
    assert failed == []

    # -- a visitor reads the standings ------------------------------------------------------
    expected = {}
    for names, points in ((names_1, played), (names_2, typed)):
        for seat, name in enumerate(names):
            expected[name] = (match_points(points[seat], points[1 - seat]), points[seat])
    visitor = open_page(**LAPTOP)
    seen = watch_responses(visitor)
    visitor.goto("/")
    visitor.get_by_role("link", name="Tournaments", exact=True).click()
    visitor.get_by_role("link", name=TOURNAMENT, exact=True).click()
    visitor.get_by_role("heading", name=TOURNAMENT, exact=True).wait_for()
    visitor.get_by_role("navigation", name="Tournament pages").get_by_role(
        "link", name="Standings", exact=True
    ).click()
    visitor.wait_for_url(re.compile(r"/tournaments/[^/]+/standings/$"))  # the key quoted
    # its one planned round counted: the tournament is over
    visitor.get_by_role("heading", name=f"{TOURNAMENT} · Final standings", exact=True).wait_for()
    assert visitor.get_by_role("button", name=re.compile("^Sign out")).count() == 0
    standings = visitor.get_by_role("table", name="Standings", exact=True)
    rows = standings.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))"
    )
    assert len(rows) == 4
    shown = {row[1]: (int(row[2]), int(row[3])) for row in rows}
    assert shown == expected
    # in order: match points, then game points (the default order), best first
    keys = [shown[row[1]] for row in rows]
    assert keys == sorted(keys, reverse=True)
    by_round = visitor.locator("table.by-round tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))"
    )
    assert {row[1]: row[2] for row in by_round} == {
        name: f"{mp} ({points})" for name, (mp, points) in expected.items()
    }
    assert visitor.script_errors == []
    assert seen == []
