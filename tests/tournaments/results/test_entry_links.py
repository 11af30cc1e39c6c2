"""A table played with real cards reports its own results through its entry link
(``/e/<key>/``), from the players' phones and without signing in: each phone says which of
the table's players it is, one player enters a deal's row (the typed sheet's checks and
messages), another player of the table confirms it. The enterer cannot confirm his own row
but may change or withdraw it until then; a confirmed row is locked for the table. The sheet
counts once its rows are all confirmed; a stale, doubled or forged post changes nothing, a
wrong key is a plain 404, and the key is in no audit entry and no log line."""

import logging
import re
from html import unescape

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation
from django.utils.html import strip_tags

from club.models import AuditEntry
from club.roles import DIRECTOR, PLAYER
from config.logs import HideKeys
from games.variety.presenter import CONTRACTS
from tests.support.accounts import name_official, user_in
from tests.support.tournaments import SHORT_CYCLE, TOTALS, points_of
from tournaments import services
from tournaments.models import ReportedRow, RoundTable, SheetRow
from tournaments.results import services as results_services
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
INCONSISTENT = (2, [0, 1], [16, 16, 10, 9])  # the defenders' figures differ


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "dora", DIRECTOR)


@pytest.fixture
def table(director, players) -> RoundTable:
    """A short-cycle Выборы tournament of four that asks for confirmed sheets, round 1
    released: its one table is played with real cards."""
    tournament = services.create_tournament(
        user=director,
        name="Осенний кубок",
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=2,
        seating="mixing",
        seed=20261130,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
        confirmation=True,
    )
    for player in players:
        run_services.add_entrant(tournament=tournament, player=player, user=director)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=director), user=director
    )
    return fresh(tournament.rounds.get().tables.get())


def fresh(table) -> RoundTable:
    return RoundTable.objects.select_related("round__tournament").get(pk=table.pk)


def names(table) -> list[str]:
    return [seat.entrant.player.name for seat in table.seats.order_by("position")]


def url(table, what="") -> str:
    return f"/e/{table.entry_key}/{what}"


def phone(table, seat: int) -> Client:
    """A player's phone that has said which of the table's players it is."""
    client = Client(**EN)
    assert client.post(url(table, "seat"), {"seat": str(seat)}).status_code == 302
    return client


def seen(table) -> str:
    return results_services.report_version(fresh(table))


def row_post(row, table, **extra) -> dict:
    contract, attackers, scores = row
    data = {"r1-contract": str(contract), "seen": seen(table)}
    for k, seat in enumerate(attackers):
        data[f"r1-attackers-{k}"] = str(seat)
    for seat, figure in enumerate(scores):
        data[f"r1-scores-{seat}"] = str(figure)
    return {**data, **extra}


def as_row(row) -> dict:
    contract, attackers, scores = row
    return {"contract": contract, "attackers": attackers, "scores": scores}


def sheet(table) -> list[dict]:
    return list(
        SheetRow.objects.filter(table=table).order_by("index").values_list("data", flat=True)
    )


def test_two_phones_enter_and_confirm_the_whole_sheet_and_it_counts(table):
    """Without a scorer: each row entered on one phone and confirmed on another."""
    anna, boris = phone(table, 0), phone(table, 1)
    page = anna.get(url(table)).content.decode()
    assert f"You are {names(table)[0]}." in page and 'name="r1-scores-3"' in page
    for number, row in enumerate(SHORT_CYCLE, start=1):
        enterer, confirmer = (anna, boris) if number % 2 else (boris, anna)
        assert enterer.post(url(table), row_post(row, table)).status_code == 302
        assert sheet(table) == [as_row(r) for r in SHORT_CYCLE[: number - 1]]
        waiting = confirmer.get(url(table)).content.decode()
        assert f"Confirm deal {number}" in waiting
        assert "awaiting confirmation by another player" in waiting
        assert confirmer.post(url(table, "confirm"), {"seen": seen(table)}).status_code == 302
        assert sheet(table) == [as_row(r) for r in SHORT_CYCLE[:number]]
        if number < len(SHORT_CYCLE):  # the whole sheet counts, never a part
            assert set(points_of(table.round.tournament).values()) == {0}
    tournament = table.round.tournament
    assert points_of(tournament) == dict(zip(names(table), TOTALS, strict=True))
    done = anna.get(url(table)).content.decode()
    assert "The sheet is complete and confirmed: the table counts." in done
    assert 'name="r1-scores-3"' not in done  # no row is offered after the last
    verbs = list(
        AuditEntry.objects.filter(verb__startswith="sheet.report").values_list("verb", "data")
    )
    assert [verb for verb, _ in verbs].count("sheet.report.confirm") == 4
    assert table.entry_key not in str(list(AuditEntry.objects.values_list("data", flat=True)))


def history_who(page: str) -> dict[str, str]:
    """The row page's history: each version's "Who", by its row's id (the newest first)."""
    found = re.findall(r'<tr id="version-(\w+)">\s*<td>[^<]*</td>\s*<td>([^<]*)</td>', page)
    return {version: unescape(who) for version, who in found}


def test_a_rows_history_and_the_run_page_name_the_players_who_entered_and_confirmed_it(
    table, director
):
    anna, boris, vera = phone(table, 0), phone(table, 1), phone(table, 2)
    anna.post(url(table), row_post(SHORT_CYCLE[0], table))
    boris.post(url(table, "confirm"), {"seen": seen(table)})
    vera.post(url(table), row_post(SHORT_CYCLE[1], table))
    anna.post(url(table, "confirm"), {"seen": seen(table)})
    first, second, third, _fourth = names(table)
    office = Client(**EN)
    office.force_login(director)
    key = table.round.tournament.key
    row_page = f"/tournaments/{key}/tables/{table.pk}/rows/1/"
    who = history_who(office.get(row_page).content.decode())
    assert list(who.values()) == [f"entered by {first}, confirmed by {second}"]
    run = " ".join(unescape(office.get(f"/tournaments/{key}/run/").content.decode()).split())
    assert f"rows entered by {first}, {third}, confirmed by {first}, {second}" in run
    results_services.correct_row(
        row=SheetRow.objects.get(table=table, index=1),
        data=as_row((2, [0, 1], [26, 26, 0, 0])),
        reason="a typo",
        user=director,
    )
    who = history_who(office.get(row_page).content.decode())
    assert list(who.values()) == ["dora", f"entered by {first}, confirmed by {second}"]
    russian = history_who(office.get(row_page, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert list(russian.values())[1] == f"ввод: {first}; подтверждение: {second}"


def test_an_inconsistent_row_is_refused_with_its_reason_and_nothing_is_stored(table):
    anna = phone(table, 0)
    answer = anna.post(url(table), row_post(INCONSISTENT, table))
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "Row 1: " in page and 'role="alert"' in page
    assert 'value="9"' in page  # what was typed is kept
    assert not ReportedRow.objects.exists() and sheet(table) == []
    assert not AuditEntry.objects.filter(verb__startswith="sheet.report").exists()


def test_the_player_who_entered_a_row_cannot_confirm_it(table):
    anna = phone(table, 0)
    anna.post(url(table), row_post(SHORT_CYCLE[0], table))
    answer = anna.post(url(table, "confirm"), {"seen": seen(table)})
    assert answer.status_code == 400
    assert (
        "Another player of the table must confirm the row you entered." in answer.content.decode()
    )
    assert sheet(table) == [] and ReportedRow.objects.get().seat == 0


def test_the_enterer_changes_or_withdraws_his_row_until_it_is_confirmed(table):
    anna, boris = phone(table, 0), phone(table, 1)
    anna.post(url(table), row_post(SHORT_CYCLE[1], table))
    assert boris.post(url(table), row_post(SHORT_CYCLE[0], table)).status_code == 400  # not his
    assert anna.post(url(table), row_post(SHORT_CYCLE[0], table)).status_code == 302
    assert ReportedRow.objects.get().data == as_row(SHORT_CYCLE[0])
    assert boris.post(url(table, "withdraw"), {"seen": seen(table)}).status_code == 400
    assert anna.post(url(table, "withdraw"), {"seen": seen(table)}).status_code == 302
    assert not ReportedRow.objects.exists() and sheet(table) == []


def test_a_confirmed_row_is_locked_for_the_table(table):
    anna, boris = phone(table, 0), phone(table, 1)
    anna.post(url(table), row_post(SHORT_CYCLE[0], table))
    boris.post(url(table, "confirm"), {"seen": seen(table)})
    assert anna.post(url(table, "withdraw"), {"seen": seen(table)}).status_code == 400
    # a row posted now is the next deal's: the confirmed one stays as it is
    assert anna.post(url(table), row_post(SHORT_CYCLE[2], table)).status_code == 302
    assert sheet(table) == [as_row(SHORT_CYCLE[0])]
    assert ReportedRow.objects.get().index == 2
    # the typed sheet no longer replaces it: a scorer corrects it on its own page
    scorer = user_in(django_user_model_of(table), "sam", PLAYER)
    name_official(table.round.tournament, scorer)
    office = Client(**EN)
    office.force_login(scorer)
    key = table.round.tournament.key
    typed = office.get(f"/tournaments/{key}/tables/{table.pk}/sheet/")
    assert typed.status_code == 409
    assert "correct a row on its own page" in typed.content.decode()
    assert office.get(f"/tournaments/{key}/tables/{table.pk}/rows/1/").status_code == 200


def django_user_model_of(table):
    return type(table.round.tournament.created_by)


def test_a_wrong_key_is_a_plain_404(table):
    client = Client(**EN)
    assert client.get("/e/not-a-key/").status_code == 404
    assert client.get(f"/e/{table.entry_key[:-1]}/").status_code == 404
    assert client.post("/e/not-a-key/seat", {"seat": "0"}).status_code == 404
    assert client.post("/e/not-a-key/confirm", {"seen": "0"}).status_code == 404


def test_a_double_submit_enters_the_row_once(table):
    anna = phone(table, 0)
    post = row_post(SHORT_CYCLE[0], table)
    assert anna.post(url(table), post).status_code == 302
    again = anna.post(url(table), post)
    assert again.status_code == 409
    assert "has changed since this page was shown" in again.content.decode()
    assert ReportedRow.objects.count() == 1
    assert AuditEntry.objects.filter(verb="sheet.report").count() == 1
    boris = phone(table, 1)
    confirm = {"seen": seen(table)}
    assert boris.post(url(table, "confirm"), confirm).status_code == 302
    assert boris.post(url(table, "confirm"), confirm).status_code == 409
    assert len(sheet(table)) == 1


def test_forged_fields_are_refused_and_change_nothing(table):
    client = Client(**EN)
    for forged in ("4", "-1", "x", ""):
        assert client.post(url(table, "seat"), {"seat": forged}).status_code == 400
    assert "entry-seat-" not in str(dict(client.session))
    # no seat said: neither a row nor a confirmation
    answer = client.post(url(table), row_post(SHORT_CYCLE[0], table))
    assert answer.status_code == 400
    assert "Say first which player of the table you are." in answer.content.decode()
    anna = phone(table, 0)
    forged_seat = row_post(SHORT_CYCLE[0], table, **{"r1-attackers-1": "7"})
    assert anna.post(url(table), forged_seat).status_code == 400
    assert anna.post(url(table), row_post(SHORT_CYCLE[0], table, seen="x")).status_code == 409
    assert not ReportedRow.objects.exists()
    anna.post(url(table), row_post(SHORT_CYCLE[0], table))
    assert client.post(url(table, "confirm"), {"seen": seen(table)}).status_code == 400
    assert sheet(table) == []


def test_a_table_typed_in_or_played_here_has_no_report(table, director):
    results_services.enter_sheet(table=table, rows=[as_row(SHORT_CYCLE[0])], user=director)
    anna = phone(table, 0)
    answer = anna.get(url(table))
    assert answer.status_code == 409
    assert "typed in from paper by a scorer" in answer.content.decode()
    assert anna.post(url(table), row_post(SHORT_CYCLE[1], table)).status_code == 400
    assert sheet(table) == [as_row(SHORT_CYCLE[0])]


def test_the_entry_link_is_a_qr_code_for_the_scorers_and_on_the_printed_sheet(table, director):
    key = table.round.tournament.key
    visitor = Client(**EN).get(f"/tournaments/{key}/rounds/1/").content.decode()
    assert table.entry_key not in visitor and "<svg" not in visitor
    office = Client(**EN)
    office.force_login(director)
    for address in (f"/tournaments/{key}/rounds/1/", f"/tournaments/{key}/rounds/1/sheets/"):
        page = office.get(address).content.decode()
        assert f"/e/{table.entry_key}/" in page
        assert '<svg width="' in page and 'class="segno"' in page


@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_contract_is_named_with_its_trumps_as_the_table_names_it(table, director, language):
    """The printed sheet, the entry link's row and the typed sheet's row list the eight
    contracts in the auction's own words: trumps (or none) and what the tricks count."""
    with translation.override(language):
        named = [
            " ".join(strip_tags(render_to_string("variety/_contract.html", {"c": c})).split())
            for c in CONTRACTS
        ]
    assert named[0].startswith(("no trumps · ", "без козырей · "))
    office = Client(HTTP_ACCEPT_LANGUAGE=language)
    office.force_login(director)
    key = table.round.tournament.key
    printed = office.get(f"/tournaments/{key}/rounds/1/sheets/").content.decode()
    typed = office.get(f"/tournaments/{key}/tables/{table.pk}/sheet/").content.decode()
    entry = phone(table, 0).get(url(table), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for page in (printed, typed, entry):
        text = " ".join(unescape(strip_tags(page)).split())
        for number, words in enumerate(named, start=1):
            assert f"{number} · {words}" in text


def test_a_log_line_of_an_entry_page_hides_its_key(table):
    (handler,) = [
        h for h in logging.getLogger().handlers if any(isinstance(f, HideKeys) for f in h.filters)
    ]
    record = logging.LogRecord(
        "django.request",
        logging.WARNING,
        __file__,
        1,
        "%s: %s",
        ("Bad Request", url(table)),
        None,
    )
    handler.filter(record)
    assert table.entry_key not in handler.format(record)
    assert "/e/…/" in handler.format(record)
