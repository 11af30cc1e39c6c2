"""Correcting a typed sheet on the club's own pages: a scorer or director (not staff) corrects
one row as the typed sheet shows it, with a reason; the whole sheet is checked again, a refusal
keeps what was typed and says why beside the row; the row's history says who, when, why and
old → new in words (seats from 1 with their players), and an earlier version is put back with
a reason of its own. A stale or forged page changes nothing; nobody else gets in."""

import re

import pytest
from django.db import connection
from django.template.defaultfilters import date as date_filter
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from club.models import AuditEntry, Player
from club.roles import DIRECTOR, PLAYER
from games import services as game_services
from tests.support.accounts import name_official, user_in
from tournaments import selectors, services
from tournaments.models import Adjustment, RoundTable, SheetRow, Tournament
from tournaments.results import services as results_services
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}

# A short cycle of Выборы that passes every check; row 1 corrected keeps it consistent.
SHORT_CYCLE = [
    {"contract": 2, "attackers": [0, 1], "scores": [16, 16, 10, 10]},
    {"contract": 2, "attackers": [2, 3], "scores": [26, 26, 10, 10]},
    {"contract": 2, "attackers": [0, 2], "scores": [16, 10, 16, 10]},
    {"contract": 8, "attackers": [1, 3], "scores": [-20, -6, -20, -6]},
]
CORRECTED = {"contract": 2, "attackers": [0, 1], "scores": [20, 20, 6, 6]}
PARTNERS_DIFFER = {"contract": 2, "attackers": [0, 1], "scores": [20, 20, 6, 7]}


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "dora", DIRECTOR)


@pytest.fixture
def scorer(django_user_model):
    return user_in(django_user_model, "sam", PLAYER)  # not staff: no admin for him


@pytest.fixture
def tournament(director, scorer, players):
    """A short-cycle Выборы tournament of four, round 1's sheet typed in by the scorer."""
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
    )
    name_official(tournament, scorer)
    for player in players:
        run_services.add_entrant(tournament=tournament, player=player, user=director)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=director), user=director
    )
    results_services.enter_sheet(table=table_of(tournament), rows=SHORT_CYCLE, user=scorer)
    return tournament


def table_of(tournament) -> RoundTable:
    return RoundTable.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=1
    )


def row_of(tournament, index=1) -> SheetRow:
    return SheetRow.objects.get(table=table_of(tournament), index=index)


def names_of(tournament) -> list[str]:
    return [seat.entrant.player.name for seat in table_of(tournament).seats.order_by("position")]


def row_url(tournament, index=1, what=""):
    table = table_of(tournament)
    return f"/tournaments/{tournament.key}/tables/{table.pk}/rows/{index}/{what}"


def typed(row: dict) -> dict:
    """The row's inputs as the page names them (seats by their value, from 0)."""
    data = {"r1-contract": str(row["contract"])}
    for k, seat in enumerate(row["attackers"]):
        data[f"r1-attackers-{k}"] = str(seat)
    for seat, figure in enumerate(row["scores"]):
        data[f"r1-scores-{seat}"] = str(figure)
    return data


def seen(response) -> str:
    return re.search(r'name="seen" value="([^"]+)"', response.content.decode()).group(1)


def alerts(response) -> str:
    found = re.findall(r'role="alert">\s*([^<]+)', response.content.decode())
    return " ".join(" ".join(text.split()) for text in found)


def text(response) -> str:
    """The page's words, as a reader sees them."""
    html = re.sub(r"(?s)<(script|style|head)\b.*?</\1>", "", response.content.decode())
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def points_of(tournament) -> dict:
    return {
        row.player: row.points
        for row in selectors.standings(Tournament.objects.get(pk=tournament.pk)).rows
    }


def snapshot() -> dict:
    models = (Tournament, RoundTable, SheetRow, SheetRow.history.model, Adjustment, Player)
    state = {model.__name__: sorted(map(repr, model.objects.values())) for model in models}
    state["audit"] = AuditEntry.objects.count()
    return state


def correct(client, tournament, row, reason, *, index=1, page=None, **extra):
    page = page or client.get(row_url(tournament, index), **EN)
    return client.post(
        row_url(tournament, index),
        {**typed(row), "seen": seen(page), "reason": reason, **extra},
        **EN,
    )


def score_words(names, scores) -> str:
    return ", ".join(f"{name} {figure}" for name, figure in zip(names, scores, strict=True))


# -- a correction ---------------------------------------------------------------------------


def test_a_scorer_who_is_not_staff_corrects_a_row_and_its_history_says_who_when_why_and_what(
    client, tournament, scorer
):
    names = names_of(tournament)
    before = points_of(tournament)
    version = Tournament.objects.get(pk=tournament.pk).version
    client.force_login(scorer)
    page = client.get(row_url(tournament), **EN)
    assert page.status_code == 200
    html = page.content.decode()
    # the row as the typed sheet shows it: the seats' names as column heads, lists of seats
    for number, name in enumerate(names, start=1):
        assert f"{number} · {name}" in html
    assert 'name="r1-contract"' in html and 'name="r1-attackers-1"' in html
    assert 'name="r1-scores-3" value="10"' in html

    response = correct(client, tournament, CORRECTED, "Misread the paper sheet", page=page)
    assert response.status_code == 302, alerts(response)
    assert response["Location"] == row_url(tournament) + "#history"
    assert row_of(tournament).data == CORRECTED
    after = points_of(tournament)
    assert [after[name] - before[name] for name in names] == [4, 4, -4, -4]
    assert Tournament.objects.get(pk=tournament.pk).version == version + 1  # live pages

    page = client.get(response["Location"], **EN)
    words = text(page)
    correction = row_of(tournament).history.latest("history_id")
    with translation.override("en"):
        when = date_filter(timezone.localtime(correction.history_date), "DATETIME_FORMAT")
    history = words[words.index("History of the row") :]
    assert when in history and "sam" in history and "Misread the paper sheet" in history
    assert (
        f"Score: {score_words(names, [16, 16, 10, 10])} → {score_words(names, [20, 20, 6, 6])}"
    ) in history
    # the first version, as typed in, with its values in words
    assert "as entered" in history
    assert f"Attackers: 1 · {names[0]}, 2 · {names[1]}" in history
    entry = AuditEntry.objects.get(verb="sheet.correct")
    assert entry.user == scorer and entry.data["reason"] == "Misread the paper sheet"
    assert entry.data["old"] == SHORT_CYCLE[0] and entry.data["new"] == CORRECTED


def test_a_director_corrects_too(client, tournament, director):
    client.force_login(director)
    assert correct(client, tournament, CORRECTED, "typo").status_code == 302
    assert row_of(tournament).history.latest("history_id").history_user == director


def test_a_refused_correction_keeps_what_was_typed_and_says_why_beside_the_row(
    client, tournament, scorer
):
    names = names_of(tournament)
    client.force_login(scorer)
    before = snapshot()
    response = correct(client, tournament, PARTNERS_DIFFER, "typo")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'name="r1-scores-3" value="7"' in html and 'name="reason" value="typo"' in html
    assert 'class="refused" aria-invalid="true"' in html
    beside = re.search(r'class="row-error"><span class="error" role="alert">([^<]+)<', html)
    refusal = " ".join(beside.group(1).split()).replace("&#x27;", "'")
    assert refusal.startswith("Row 1: Partners' figures must be equal")
    # seats from 1 with their players
    assert f"seat 3 ({names[2]}) has 6" in refusal and f"seat 4 ({names[3]}) has 7" in refusal

    response = correct(client, tournament, {**CORRECTED}, "typo", **{"r1-scores-0": "twenty"})
    assert response.status_code == 400
    assert "Row 1: “twenty” is not a whole number." in alerts(response)
    assert 'value="twenty"' in response.content.decode()

    blank = {name: "" for name in typed(CORRECTED)}
    response = correct(client, tournament, CORRECTED, "typo", **blank)
    assert response.status_code == 400 and "Row 1: Fill in every column" in alerts(response)

    response = correct(client, tournament, SHORT_CYCLE[0], "no change at all")
    assert response.status_code == 400 and "The row is unchanged." in alerts(response)
    assert snapshot() == before


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_correction_without_a_reason_is_refused_and_changes_nothing(
    client, tournament, scorer, reason
):
    client.force_login(scorer)
    before = snapshot()
    response = correct(client, tournament, CORRECTED, reason)
    assert response.status_code == 400
    assert "Give the reason for the change." in alerts(response)
    assert 'name="r1-scores-0" value="20"' in response.content.decode()  # kept as typed
    assert snapshot() == before
    response = correct(client, tournament, CORRECTED, "x" * 301)
    assert response.status_code == 400 and "at most 300 characters" in alerts(response)
    assert snapshot() == before


# -- a version put back ---------------------------------------------------------------------


def test_an_earlier_version_is_put_back_with_its_own_reason(client, tournament, scorer, director):
    before = points_of(tournament)
    client.force_login(scorer)
    assert correct(client, tournament, CORRECTED, "Misread").status_code == 302
    first = row_of(tournament).history.earliest("history_id")
    page = client.get(row_url(tournament), **EN)
    assert f'name="version" value="{first.history_id}"' in page.content.decode()

    client.force_login(director)
    page = client.get(row_url(tournament), **EN)
    refused = client.post(
        row_url(tournament, what="revert"),
        {"version": first.history_id, "seen": seen(page), "reason": " "},
        **EN,
    )
    assert refused.status_code == 400 and "Give the reason" in alerts(refused)
    assert row_of(tournament).data == CORRECTED

    response = client.post(
        row_url(tournament, what="revert"),
        {
            "version": first.history_id,
            "seen": seen(page),
            "reason": "The paper was right after all",
        },
        **EN,
    )
    assert response.status_code == 302, alerts(response)
    assert row_of(tournament).data == SHORT_CYCLE[0]
    assert points_of(tournament) == before
    latest = row_of(tournament).history.latest("history_id")
    assert latest.history_change_reason == "The paper was right after all"
    assert latest.history_user == director
    assert AuditEntry.objects.get(verb="sheet.revert").data["version"] == first.history_id
    history = text(client.get(row_url(tournament), **EN))
    assert "dora" in history and "The paper was right after all" in history


# -- stale, forged and double posts -----------------------------------------------------------


def test_a_page_shown_before_another_change_is_refused_and_changes_nothing(
    client, tournament, scorer, director
):
    client.force_login(scorer)
    old_page = client.get(row_url(tournament), **EN)
    results_services.correct_row(
        row=row_of(tournament), data=CORRECTED, reason="the director's", user=director
    )
    before = snapshot()
    response = correct(
        client, tournament, {**CORRECTED, "scores": [22, 22, 4, 4]}, "mine", page=old_page
    )
    assert response.status_code == 409
    assert "changed since the page was shown" in alerts(response)
    assert snapshot() == before
    # the row as it is now, so that a new correction starts from it
    assert 'name="r1-scores-0" value="20"' in response.content.decode()
    first = row_of(tournament).history.earliest("history_id")
    response = client.post(
        row_url(tournament, what="revert"),
        {"version": first.history_id, "seen": seen(old_page), "reason": "back"},
        **EN,
    )
    assert response.status_code == 409 and snapshot() == before


def test_a_second_click_of_the_same_correction_changes_nothing(client, tournament, scorer):
    client.force_login(scorer)
    page = client.get(row_url(tournament), **EN)
    assert correct(client, tournament, CORRECTED, "typo", page=page).status_code == 302
    before = snapshot()
    assert correct(client, tournament, CORRECTED, "typo", page=page).status_code == 409
    assert snapshot() == before


def test_a_page_of_a_sheet_typed_in_again_since_is_refused(client, tournament, scorer):
    client.force_login(scorer)
    page = client.get(row_url(tournament), **EN)
    results_services.enter_sheet(table=table_of(tournament), rows=SHORT_CYCLE, user=scorer)
    before = snapshot()
    response = correct(client, tournament, CORRECTED, "typo", page=page)
    assert response.status_code == 409 and snapshot() == before


def test_a_forged_post_changes_nothing(client, tournament, scorer, director):
    client.force_login(scorer)
    page = client.get(row_url(tournament), **EN)
    other = row_of(tournament, 2)
    results_services.correct_row(
        row=other, data={**SHORT_CYCLE[1], "scores": [28, 28, 8, 8]}, reason="x", user=director
    )
    other_version = other.history.earliest("history_id").history_id
    before = snapshot()
    url = row_url(tournament)
    posts = [
        {**typed(CORRECTED), "reason": "no version"},  # no seen
        {**typed(CORRECTED), "reason": "forged", "seen": "0.0"},
        {**typed(CORRECTED), "reason": "forged", "seen": "garbage"},
    ]
    for data in posts:
        assert client.post(url, data, **EN).status_code == 409, data
    # another line's inputs are not read: only the row's own
    response = client.post(
        url,
        {
            **typed(PARTNERS_DIFFER),
            "r2-contract": "9",
            "rows": "400",
            "more": "1",
            "seen": seen(page),
            "reason": "x",
        },
        **EN,
    )
    assert response.status_code == 400 and "Partners" in alerts(response)
    for version in (other_version, "nonsense", "", 10**9):
        response = client.post(
            row_url(tournament, what="revert"),
            {"version": version, "seen": seen(page), "reason": "x"},
            **EN,
        )
        assert response.status_code == 400 and "no such version" in alerts(response), version
    # the current version is not put back
    current = client.get(url, **EN)
    assert "as the sheet has it now" in text(current)
    assert client.get(row_url(tournament, 99), **EN).status_code == 404
    assert client.post(row_url(tournament, 99), typed(CORRECTED), **EN).status_code == 404
    assert client.get(f"/tournaments/{tournament.key}/tables/99999/rows/").status_code == 404
    assert client.get(row_url(tournament, what="revert")).status_code == 405
    assert snapshot() == before


def test_a_table_played_here_is_shown_but_not_corrected(
    client, tournament, director, django_user_model
):
    table = table_of(tournament)
    players = [seat.entrant.player for seat in table.seats.order_by("position")]
    hotseat = game_services.start_table(
        user=director, game="variety", players=players, options={"cycle": "short"}, seed=1
    )
    RoundTable.objects.filter(pk=table.pk).update(hotseat=hotseat)
    client.force_login(director)
    before = snapshot()
    response = client.get(row_url(tournament), **EN)
    assert response.status_code == 409 and "corrects them with an adjustment" in alerts(response)
    assert 'name="r1-contract"' not in response.content.decode()
    response = client.post(
        row_url(tournament),
        {
            **typed(CORRECTED),
            "seen": results_services.row_version(row_of(tournament)),
            "reason": "played wrongly",
        },
        **EN,
    )
    assert response.status_code == 409
    response = client.post(
        row_url(tournament, what="revert"),
        {"version": "1", "seen": results_services.row_version(row_of(tournament)), "reason": "x"},
        **EN,
    )
    assert response.status_code == 409 and "adjustment" in alerts(response)
    rows = client.get(f"/tournaments/{tournament.key}/tables/{table.pk}/rows/", **EN)
    assert rows.status_code == 200 and "Correct row 1" not in text(rows)
    assert "A director corrects them with an adjustment." in text(rows)
    assert snapshot() == before


# -- where the page is reached, and by whom ---------------------------------------------------


def test_the_run_page_the_tables_rows_and_the_typed_sheet_link_each_row_to_its_correction(
    client, tournament, scorer
):
    client.force_login(scorer)
    table = table_of(tournament)
    rows_url = f"/tournaments/{tournament.key}/tables/{table.pk}/rows/"
    run = client.get(f"/tournaments/{tournament.key}/run/", **EN).content.decode()
    assert f'href="{rows_url}"' in run
    rows = client.get(rows_url, **EN)
    assert rows.status_code == 200
    for index in range(1, len(SHORT_CYCLE) + 1):
        assert f'href="{row_url(tournament, index)}"' in rows.content.decode()
    names = names_of(tournament)
    assert f"3 · {names[2]}, 4 · {names[3]}" in text(rows)  # row 2's attackers, in words
    sheet = client.get(f"/tournaments/{tournament.key}/tables/{table.pk}/sheet/", **EN)
    for index in range(1, len(SHORT_CYCLE) + 1):
        assert f'href="{row_url(tournament, index)}"' in sheet.content.decode()
    client.post(
        row_url(tournament),
        {**typed(CORRECTED), "seen": seen(client.get(row_url(tournament))), "reason": "typo"},
    )
    assert "corrected 1 time" in text(client.get(rows_url, **EN))


def test_a_visitor_or_a_plain_player_gets_no_access(client, tournament, django_user_model):
    table = table_of(tournament)
    pages = [f"/tournaments/{tournament.key}/tables/{table.pk}/rows/", row_url(tournament)]
    writes = [row_url(tournament), row_url(tournament, what="revert")]
    data = {
        **typed(CORRECTED),
        "seen": results_services.row_version(row_of(tournament)),
        "reason": "mine",
        "version": "1",
    }
    before = snapshot()
    for address in pages:
        response = client.get(address)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for address in writes:
        assert client.post(address, data).status_code == 403, address
    for user in (
        user_in(django_user_model, "pat", PLAYER),
        user_in(django_user_model, "stan", staff=True),
    ):
        client.force_login(user)
        for address in pages:
            assert client.get(address, **EN).status_code == 403, address
        for address in writes:
            assert client.post(address, data, **EN).status_code == 403, address
    assert snapshot() == before


# -- reading ------------------------------------------------------------------------------------


def test_a_rows_history_is_read_at_a_fixed_number_of_queries(client, tournament, scorer, director):
    client.force_login(scorer)

    def queries(address):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(address).status_code == 200
        return len(captured)

    table = table_of(tournament)
    rows_url = f"/tournaments/{tournament.key}/tables/{table.pk}/rows/"
    results_services.correct_row(
        row=row_of(tournament), data=CORRECTED, reason="once", user=director
    )
    before = queries(row_url(tournament)), queries(rows_url)
    for figure in (22, 24, 18):
        results_services.correct_row(
            row=row_of(tournament),
            reason="again",
            user=director,
            data={**CORRECTED, "scores": [figure, figure, 26 - figure, 26 - figure]},
        )
    assert (queries(row_url(tournament)), queries(rows_url)) == before


@pytest.mark.parametrize("language", [EN, RU])
def test_the_pages_render_in_both_languages(client, tournament, scorer, language):
    client.force_login(scorer)
    assert correct(client, tournament, CORRECTED, "typo").status_code == 302
    table = table_of(tournament)
    code = language["HTTP_ACCEPT_LANGUAGE"]
    for address in (f"/tournaments/{tournament.key}/tables/{table.pk}/rows/", row_url(tournament)):
        response = client.get(address, **language)
        assert response.status_code == 200
        assert f'<html lang="{code}">' in response.content.decode()
