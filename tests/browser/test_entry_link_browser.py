"""A table played with real cards reports its whole sheet from two phones (390×844, not
signed in) against a real daphne process: one phone enters each deal's row, the other, told
live, confirms it; a row that breaks the rules is refused with its reason and nothing is
kept; the standings page, open in a third browser, follows each step live and counts the
table once its last row is confirmed."""

import pytest

from tests.support.phone_screen import WIDTH
from tests.support.tournaments import SHORT_CYCLE, TOTALS
from tournaments import services
from tournaments.models import ReportedRow, RoundTable, SheetRow, Tournament
from tournaments.run import services as run_services

pytestmark = [pytest.mark.browser, pytest.mark.servers, pytest.mark.django_db(transaction=True)]

INCONSISTENT = (2, [0, 1], [16, 16, 10, 9])  # the defenders' figures differ


def paper_table(host) -> RoundTable:
    tournament = services.create_tournament(
        user=host,
        name="Кубок",
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=1,
        seating="mixing",
        seed=7,
        bye_points=3,
        order=["points"],
        confirmation=True,
    )
    for name in ("Анна", "Борис", "Вера", "Глеб"):
        run_services.add_entrant(tournament=tournament, player=name, user=host)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=host), user=host
    )
    return RoundTable.objects.select_related("round__tournament").get(round__tournament=tournament)


def type_row(page, row) -> None:
    contract, attackers, scores = row
    page.locator("[name=r1-contract]").select_option(str(contract))
    for k, seat in enumerate(attackers):
        page.locator(f"[name=r1-attackers-{k}]").select_option(str(seat))
    for seat, figure in enumerate(scores):
        page.locator(f"[name=r1-scores-{seat}]").fill(str(figure))
    page.get_by_role("button", name="Save the row").click()


def version(tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).version


def test_two_phones_report_a_whole_sheet_and_the_standings_follow_live(served, tab, host):
    table = paper_table(host)
    tournament = table.round.tournament
    names = [seat.entrant.player.name for seat in table.seats.order_by("position")]
    (server,) = served(1)
    standings = tab(server)
    standings.goto(f"/tournaments/{tournament.key}/standings/")
    standings.evaluate("window.sameDocument = true")
    enterer, confirmer = tab(server, phone=True), tab(server, phone=True)
    for page, name in ((enterer, names[0]), (confirmer, names[1])):
        page.goto(f"/e/{table.entry_key}/")
        page.get_by_role("button", name=f"I am {name}", exact=True).click()
        page.get_by_text(f"You are {name}.").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    for page in (standings, confirmer):
        page.locator('#live-status[data-socket="open"]').wait_for(state="attached")
    # a row that breaks the rules: its reason beside it, nothing kept
    type_row(enterer, INCONSISTENT)
    alert = enterer.get_by_role("alert").first
    assert alert.inner_text().startswith("Row 1: ")
    assert ReportedRow.objects.count() == 0
    assert enterer.locator("[name=r1-scores-3]").input_value() == "9"
    enterer.goto(f"/e/{table.entry_key}/")
    for number, row in enumerate(SHORT_CYCLE, start=1):
        enterer.get_by_role("heading", name=f"Deal {number}", exact=True).wait_for()
        for field in enterer.locator("#entry-form [name^=r1-]").all():
            box = field.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, field
        type_row(enterer, row)
        enterer.get_by_text("awaiting confirmation by another player").wait_for()
        # the other phone hears of it and confirms it
        confirm = confirmer.get_by_role("button", name=f"Confirm deal {number}")
        confirm.wait_for(timeout=5000)
        confirm.click()
        confirmer.locator(f"#row-{number}").wait_for()
        stamp = version(tournament)
        standings.locator(f'[data-live][data-stamp="{stamp}"]').wait_for(timeout=5000)
    rows = list(
        SheetRow.objects.filter(table=table).order_by("index").values_list("data", flat=True)
    )
    assert len(rows) == len(SHORT_CYCLE)
    confirmer.get_by_text("The sheet is complete and confirmed: the table counts.").wait_for()
    standings_table = standings.get_by_role("table", name="Standings", exact=True)
    shown = {
        line.locator("th").inner_text().strip(): int(line.locator("td.num").nth(2).inner_text())
        for line in standings_table.locator("tbody tr").all()
    }
    assert shown == dict(zip(names, TOTALS, strict=True))
    assert standings.evaluate("window.sameDocument") is True  # followed live, never reloaded
    for page in (enterer, confirmer, standings):
        assert page.script_errors == []
