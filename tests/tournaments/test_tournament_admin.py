"""Score editing in the admin: a typed sheet's rows and the adjustments change with a
reason, through the services, checked as on the sheet page; the history keeps who, when, why
and the old and new values, and a version can be put back; the standings follow at once. A
hotseat table's rows are not edited; scorers edit rows only, anyone else nothing."""

import json

import pytest
from django.utils.html import escape

from club.models import AuditEntry
from games import services as game_services
from tests.support import EXAMPLES
from tests.support.accounts import name_official, user_in
from tournaments import document, selectors, services
from tournaments.models import Adjustment, RoundTable, SheetRow, Tournament
from tournaments.results import services as results_services

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

# Round 1's first row, and the same deal had the attackers scored -18 (the defenders +10).
FIRST = {"contract": 8, "attackers": [1, 2], "scores": [-18, -8, -8, -18]}
CORRECTED = {"contract": 8, "attackers": [1, 2], "scores": [2, -18, -18, 2]}
INCONSISTENT = {"contract": 8, "attackers": [1, 2], "scores": [-18, -8, -8, -17]}


@pytest.fixture
def tournament(db):
    text = (EXAMPLES / "variety-five.json").read_text(encoding="utf-8")
    return services.import_document(doc=document.read(text))


@pytest.fixture
def row(tournament):
    return SheetRow.objects.get(
        table__round__tournament=tournament, table__round__number=1, table__number=1, index=1
    )


def standings(tournament):
    return selectors.standings(Tournament.objects.get(pk=tournament.pk)).as_json()


def member(django_user_model, name, group=None, staff=True):
    return user_in(django_user_model, name, *([group] if group else []), staff=staff)


@pytest.fixture
def director_client(client, django_user_model, tournament):
    dora = member(django_user_model, "dora", "director")
    name_official(tournament, dora, role="director")
    client.force_login(dora)
    return client


@pytest.fixture
def scorer_client(client, django_user_model, tournament):
    """Staff, in the club's directors (who hold the admin's permissions), and a scorer of
    this tournament alone."""
    sam = member(django_user_model, "sam", "director")
    name_official(tournament, sam)
    client.force_login(sam)
    return client


def change_url(obj):
    return f"/admin/tournaments/{obj._meta.model_name}/{obj.pk}/change/"


def history_url(obj):
    return f"/admin/tournaments/{obj._meta.model_name}/{obj.pk}/history/"


def edit_row(client, row, data, reason):
    return client.post(change_url(row), {"data": json.dumps(data), "reason": reason}, **EN)


def test_the_admin_pages_open(admin_client, tournament, row):
    adjustment = results_services.adjust(
        round_=tournament.rounds.first(),
        entrant=tournament.entrants.first(),
        points=-2,
        reason="late",
        user=None,
    )
    for path in (
        "/admin/tournaments/tournament/",
        change_url(tournament),
        "/admin/tournaments/sheetrow/",
        change_url(row),
        history_url(row),
        "/admin/tournaments/adjustment/",
        "/admin/tournaments/adjustment/add/",
        change_url(adjustment),
        history_url(adjustment),
    ):
        assert admin_client.get(path).status_code == 200, path
    assert admin_client.get("/admin/tournaments/sheetrow/add/").status_code == 403
    response = admin_client.post(f"/admin/tournaments/sheetrow/{row.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert SheetRow.objects.filter(pk=row.pk).exists()


def test_an_edited_row_changes_the_standings_and_its_history_shows_the_change(
    admin_client, tournament, row
):
    before = standings(tournament)
    version = Tournament.objects.get(pk=tournament.pk).version
    response = edit_row(admin_client, row, CORRECTED, "Misread the paper sheet")
    assert response.status_code == 302, response.content.decode()[:2000]
    row.refresh_from_db()
    assert row.data == CORRECTED
    # a new version: the standings, projector and round pages fetch themselves again
    assert Tournament.objects.get(pk=tournament.pk).version == version + 1
    after = standings(tournament)
    assert after != before
    points = {entry["player"]: entry["points"] for entry in after}
    old_points = {entry["player"]: entry["points"] for entry in before}
    assert points["Жанна"] == old_points["Жанна"] + 20  # seat 0 was a defender: -18 → 2
    assert points["Rupert"] == old_points["Rupert"] - 10

    versions = list(row.history.order_by("history_date", "history_id"))
    assert [v.data for v in versions] == [FIRST, CORRECTED]
    assert versions[-1].history_change_reason == "Misread the paper sheet"
    assert versions[-1].history_user.username == "admin"
    page = admin_client.get(history_url(row), **EN).content.decode()
    assert "Misread the paper sheet" in page and "admin" in page
    # the columns that changed, in words: each seat's player with his figure
    assert (
        "<strong>Score:</strong> Жанна −18, Rupert −8, Trent −8, Victor −18 "
        "&nbsp;&rarr;&nbsp;&nbsp;Жанна 2, Rupert −18, Trent −18, Victor 2"
    ) in " ".join(page.split())
    assert escape(json.dumps(FIRST, sort_keys=True)) not in page
    entry = AuditEntry.objects.get(verb="sheet.correct")
    assert entry.data["old"] == FIRST and entry.data["new"] == CORRECTED
    assert entry.data["reason"] == "Misread the paper sheet"


def test_an_edit_without_a_reason_is_refused_and_changes_nothing(admin_client, tournament, row):
    before = standings(tournament)
    for reason in ("", "   "):
        response = edit_row(admin_client, row, CORRECTED, reason)
        assert response.status_code == 200
        assert response.context["adminform"].form.errors["reason"]
    row.refresh_from_db()
    assert row.data == FIRST and not row.history.exists()
    assert standings(tournament) == before
    with pytest.raises(services.TournamentError):
        results_services.correct_row(row=row, data=CORRECTED, reason=" ", user=None)
    row.refresh_from_db()
    assert row.data == FIRST


def test_an_inconsistent_row_is_refused_with_the_reason_and_changes_nothing(
    admin_client, tournament, row
):
    before = standings(tournament)
    response = edit_row(admin_client, row, INCONSISTENT, "typo")
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["data"]
    assert errors and errors[0].startswith("Row 1: ")
    assert "Row 1: " in response.content.decode()
    response = edit_row(admin_client, row, {"contract": 8}, "typo")
    assert "attackers" in response.context["adminform"].form.errors["data"][0]
    row.refresh_from_db()
    assert row.data == FIRST and not row.history.exists()
    assert standings(tournament) == before
    with pytest.raises(services.SheetRefused) as refused:
        results_services.correct_row(row=row, data=INCONSISTENT, reason="typo", user=None)
    assert refused.value.row == 1
    assert not AuditEntry.objects.filter(verb="sheet.correct").exists()


def test_reverting_from_the_history_restores_the_row_and_the_standings(
    admin_client, tournament, row
):
    before = standings(tournament)
    assert edit_row(admin_client, row, CORRECTED, "Misread").status_code == 302
    first = row.history.earliest("history_date")
    version_url = f"{history_url(row)}{first.history_id}/"
    assert admin_client.get(version_url).status_code == 200

    response = admin_client.post(version_url, {"reason": ""}, **EN)  # a reason is needed
    assert response.status_code == 200 and response.context["adminform"].form.errors["reason"]
    row.refresh_from_db()
    assert row.data == CORRECTED

    # the values come from the version, whatever the form sends
    response = admin_client.post(
        version_url,
        {"reason": "The paper was right after all", "data": json.dumps(INCONSISTENT)},
        **EN,
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    row.refresh_from_db()
    assert row.data == FIRST
    assert standings(tournament) == before
    latest = row.history.latest("history_date")
    assert latest.history_change_reason == "The paper was right after all"
    assert AuditEntry.objects.get(verb="sheet.revert").data["version"] == first.history_id


def test_a_scorer_corrects_rows_but_not_adjustments(scorer_client, tournament, row):
    assert edit_row(scorer_client, row, CORRECTED, "Misread").status_code == 302
    row.refresh_from_db()
    assert row.data == CORRECTED
    assert row.history.latest("history_date").history_user.username == "sam"

    adjustment = results_services.adjust(
        round_=tournament.rounds.first(),
        entrant=tournament.entrants.first(),
        points=-2,
        reason="late",
        user=None,
    )
    before = standings(tournament)
    response = scorer_client.post(
        change_url(adjustment), {"points": "5", "reason": "late", "change_reason": "x"}
    )
    assert response.status_code == 403
    version = adjustment.history.get()
    response = scorer_client.post(
        f"{history_url(adjustment)}{version.history_id}/", {"change_reason": "x"}
    )
    assert response.status_code == 403
    response = scorer_client.post(
        "/admin/tournaments/adjustment/add/",
        {
            "round": adjustment.round_id,
            "entrant": adjustment.entrant_id,
            "points": "4",
            "reason": "bonus",
        },
    )
    assert response.status_code == 403
    adjustment.refresh_from_db()
    assert adjustment.points == -2 and Adjustment.objects.count() == 1
    assert standings(tournament) == before


def test_a_director_adds_corrects_and_reverts_an_adjustment(director_client, tournament):
    before = standings(tournament)
    round_ = tournament.rounds.get(number=1)
    entrant = tournament.entrants.get(player__name="Victor")
    response = director_client.post(
        "/admin/tournaments/adjustment/add/",
        {"round": round_.pk, "entrant": entrant.pk, "points": "-5", "reason": "slow play"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    adjustment = Adjustment.objects.get()
    assert adjustment.by.username == "dora"
    victor = next(e for e in standings(tournament) if e["player"] == "Victor")
    assert victor["points"] == next(e for e in before if e["player"] == "Victor")["points"] - 5

    response = director_client.post(
        change_url(adjustment), {"points": "-3", "reason": "slow play"}, **EN
    )
    assert response.status_code == 200  # no reason for the change
    assert response.context["adminform"].form.errors["change_reason"]
    response = director_client.post(
        change_url(adjustment),
        {"points": "-3", "reason": "slow play", "change_reason": "Only one warning"},
        **EN,
    )
    assert response.status_code == 302
    adjustment.refresh_from_db()
    assert adjustment.points == -3
    page = director_client.get(history_url(adjustment), **EN).content.decode()
    assert "Only one warning" in page and "dora" in page and "slow play" in page

    first = adjustment.history.earliest("history_date")
    response = director_client.post(
        f"{history_url(adjustment)}{first.history_id}/", {"change_reason": "Two warnings after all"}
    )
    assert response.status_code == 302
    adjustment.refresh_from_db()
    assert adjustment.points == -5


def test_a_director_of_another_tournament_changes_none_of_its_scores(
    client, django_user_model, tournament, row
):
    adjustment = results_services.adjust(
        round_=tournament.rounds.first(),
        entrant=tournament.entrants.first(),
        points=-2,
        reason="late",
        user=None,
    )
    text = (EXAMPLES / "variety-five.json").read_text(encoding="utf-8")
    rival = member(django_user_model, "rival", "director")
    services.import_document(doc=document.read(text), user=rival)  # his own
    before = standings(tournament)
    client.force_login(rival)
    assert edit_row(client, row, CORRECTED, "mine").status_code == 403
    response = client.post(
        change_url(adjustment), {"points": "9", "reason": "late", "change_reason": "x"}
    )
    assert response.status_code == 403
    response = client.post(
        "/admin/tournaments/adjustment/add/",
        {
            "round": adjustment.round_id,
            "entrant": adjustment.entrant_id,
            "points": "4",
            "reason": "bonus",
        },
        **EN,
    )
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    row.refresh_from_db()
    adjustment.refresh_from_db()
    assert row.data == FIRST and adjustment.points == -2 and Adjustment.objects.count() == 1
    assert standings(tournament) == before


def test_anyone_else_cannot_change_scores(client, django_user_model, tournament, row):
    adjustment = results_services.adjust(
        round_=tournament.rounds.first(),
        entrant=tournament.entrants.first(),
        points=-2,
        reason="late",
        user=None,
    )
    before = standings(tournament)
    client.force_login(member(django_user_model, "pat", staff=False))
    response = edit_row(client, row, CORRECTED, "mine")
    assert response.status_code == 302 and "/login/" in response["Location"]
    client.force_login(member(django_user_model, "stan", group="player"))
    assert edit_row(client, row, CORRECTED, "mine").status_code == 403
    assert client.get(change_url(row)).status_code == 403
    assert (
        client.post(
            change_url(adjustment), {"points": "9", "reason": "late", "change_reason": "x"}
        ).status_code
        == 403
    )
    row.refresh_from_db()
    adjustment.refresh_from_db()
    assert row.data == FIRST and adjustment.points == -2
    assert standings(tournament) == before


def test_a_hotseat_tables_rows_are_not_edited(admin_client, django_user_model, tournament):
    table = RoundTable.objects.get(round__tournament=tournament, round__number=2)
    players = [seat.entrant.player for seat in table.seats.order_by("position")]
    hotseat = game_services.start_table(
        user=member(django_user_model, "host"),
        game="variety",
        players=players,
        options={"cycle": "short"},
        seed=1,
    )
    RoundTable.objects.filter(pk=table.pk).update(hotseat=hotseat)
    row = table.rows.get(index=1)
    before = standings(tournament)
    assert admin_client.get(change_url(row)).status_code == 200  # read-only
    good = {"contract": 8, "attackers": [2, 3], "scores": [-8, -8, -18, -18]}
    assert edit_row(admin_client, row, good, "played wrongly").status_code == 403
    with pytest.raises(services.TournamentError) as refused:
        results_services.correct_row(row=row, data=good, reason="played wrongly", user=None)
    assert "adjustment" in refused.value.message
    row.refresh_from_db()
    assert row.data["scores"] == [-16, -16, -10, -10]
    assert standings(tournament) == before


def test_the_admins_row_pages_word_the_row_with_seats_from_1_and_their_players(
    admin_client, tournament, row
):
    page = admin_client.get(change_url(row), **EN).content.decode()
    words = " ".join(page.split())
    assert "Round 1, table 1" in words  # the table, not the tournament's name again
    assert "Attackers: 2 · Rupert, 3 · Trent" in words  # the row as the sheet shows it
    assert "Score: Жанна −18, Rupert −8, Trent −8, Victor −18" in words
    # the row's number and its values are told apart; the JSON's seats explained
    assert ">Deal:<" in words and ">The row as recorded (JSON):<" in words
    assert ">Row:<" not in words
    assert "0 — Жанна, 1 — Rupert, 2 — Trent, 3 — Victor" in words
    assert f'href="/tournaments/{tournament.key}/tables/{row.table_id}/rows/1/"' in page

    response = edit_row(admin_client, row, INCONSISTENT, "typo")
    error = response.context["adminform"].form.errors["data"][0]
    assert error == (
        "Row 1: Partners' figures must be equal: seat 1 (Жанна) has -18, seat 4 (Victor) has -17."
    )
    response = edit_row(admin_client, row, {**FIRST, "attackers": [1, 4]}, "typo")
    assert "each from 0 to 3" in response.context["adminform"].form.errors["data"][0]


def test_the_first_versions_reason_is_the_services_marked_text(admin_client, row):
    assert edit_row(admin_client, row, CORRECTED, "Misread").status_code == 302
    first = row.history.earliest("history_id")
    assert first.history_change_reason == results_services.FIRST_REASON == "as entered"
    page = " ".join(admin_client.get(history_url(row), **EN).content.decode().split())
    assert "as entered" in page


def test_the_admins_titles_are_sentences_of_their_own(admin_client, tournament, row):
    adjustment = results_services.adjust(
        round_=tournament.rounds.first(),
        entrant=tournament.entrants.first(),
        points=-2,
        reason="late",
        user=None,
    )
    expected = {
        "/admin/tournaments/sheetrow/": ["<h1>Choose a sheet row to change</h1>", "8 sheet rows"],
        change_url(row): ["<h1>Change the sheet row</h1>"],
        "/admin/tournaments/adjustment/": [
            "<h1>Choose an adjustment to change</h1>",
            "Add an adjustment",
            "1 adjustment",
        ],
        "/admin/tournaments/adjustment/add/": [
            "<h1>Add an adjustment</h1>",
            "&rsaquo; Add an adjustment",
        ],
        change_url(adjustment): ["<h1>Change the adjustment</h1>"],
        "/admin/tournaments/tournament/": ["<h1>Choose a tournament to view</h1>", "1 tournament"],
        change_url(tournament): ["<h1>View the tournament</h1>"],
    }
    assert edit_row(admin_client, row, CORRECTED, "Misread").status_code == 302
    first = row.history.earliest("history_id")
    expected[f"{history_url(row)}{first.history_id}/"] = [
        "&rsaquo; Put back a version of the sheet row"
    ]
    for path, texts in expected.items():
        page = " ".join(admin_client.get(path, **EN).content.decode().split())
        for text in texts:
            assert text in page, (path, text)
        assert "Historical" not in page and "Select " not in page, path
