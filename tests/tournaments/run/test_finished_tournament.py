"""A tournament whose planned rounds are all played and counted is finished: its pages say
so and call its standings final, and nothing offers a round that will not be played (a late
entry, a check-in, a draw). Its director may plan one more round: it is under way again."""

import re
from html import unescape

import pytest

from club.models import AuditEntry
from club.roles import DIRECTOR, PLAYER
from tests.support.accounts import name_official, user_in
from tests.support.tournaments import enter, new_tournament
from tournaments import selectors, services
from tournaments.document import MOST_ROUNDS
from tournaments.models import Entrant, Round, Tournament
from tournaments.results import services as results_services
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
ROW = {"scores": [10, 8], "ender": None}  # a Леопард deal: the stock ran out
OVER = "The tournament is over. All 2 rounds are played and counted: the standings are final."


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


def words(response) -> str:
    html = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(unescape(html).split())


def play_round(tournament, director, *, last_table: bool = True) -> Round:
    """The next round drawn, released and typed in, its last table only if ``last_table``."""
    round_ = run_services.draw_round(tournament=tournament, user=director)
    run_services.release_round(round_=round_, user=director)
    tables = list(round_.tables.order_by("number").select_related("round__tournament"))
    for table in tables if last_table else tables[:-1]:
        results_services.enter_sheet(table=table, rows=[ROW], user=director)
    return round_


@pytest.fixture
def finished(director):
    """A Леопард tournament of four, one deal a table, both its planned rounds counted."""
    tournament = new_tournament(
        director, game="leopard", options={"deals": 1}, rounds_planned=2, seating="swiss"
    )
    enter(tournament, ["Анна", "Борис", "Вера", "Глеб"], director)
    play_round(tournament, director)
    play_round(tournament, director)
    return Tournament.objects.get(pk=tournament.pk)


def pages(client, tournament) -> dict[str, str]:
    key = tournament.key
    return {
        "tournament": words(client.get(f"/tournaments/{key}/", **EN)),
        "run": words(client.get(f"/tournaments/{key}/run/", **EN)),
        "standings": words(client.get(f"/tournaments/{key}/standings/", **EN)),
        "projector": words(client.get(f"/tournaments/{key}/projector/", **EN)),
    }


def test_a_tournament_is_finished_once_the_last_planned_rounds_tables_all_count(director, client):
    tournament = new_tournament(
        director, game="leopard", options={"deals": 1}, rounds_planned=2, seating="swiss"
    )
    enter(tournament, ["Анна", "Борис", "Вера", "Глеб"], director)
    play_round(tournament, director)
    assert not selectors.finished(selectors.played(tournament))  # a round is left
    round_ = play_round(tournament, director, last_table=False)
    client.force_login(director)
    assert not selectors.finished(selectors.played(tournament))  # a table still plays
    assert all("The tournament is over" not in page for page in pages(client, tournament).values())
    results_services.enter_sheet(
        table=round_.tables.order_by("number").last(), rows=[ROW], user=director
    )
    assert selectors.finished(selectors.played(tournament))


def test_a_finished_tournaments_pages_say_so_and_offer_no_round_that_will_not_be_played(
    finished, director, client
):
    client.force_login(director)
    shown = pages(client, finished)
    assert OVER in shown["tournament"] and "The final standings" in shown["tournament"]
    assert OVER in shown["run"]
    assert "Final standings" in shown["standings"] and OVER in shown["standings"]
    assert "The tournament is over: the final standings" in shown["projector"]
    run = shown["run"]
    assert "late entrant is seated from round 3" not in run and "Check-in for round" not in run
    assert "Seat round 3" not in run and "Plan round 3 too" in run
    assert "Here tonight?" not in shown["tournament"]
    russian = words(client.get(f"/tournaments/{finished.key}/", **RU))
    assert "Турнир окончен. Сыграны и подсчитаны все 2 тура: итоги окончательные." in russian
    projector = words(client.get(f"/tournaments/{finished.key}/projector/", **RU))
    assert "Турнир окончен: итоговая таблица" in projector


def test_no_late_entrant_is_entered_once_every_planned_round_is_seated(finished, director):
    before = Entrant.objects.count(), AuditEntry.objects.count()
    with pytest.raises(services.TournamentError, match="plan one more round before entering"):
        run_services.add_entrant(tournament=finished, player="Дарья", user=director)
    assert (Entrant.objects.count(), AuditEntry.objects.count()) == before


def test_the_director_plans_one_more_round_and_the_tournament_is_under_way_again(
    finished, director, client
):
    client.force_login(director)
    version = finished.version
    response = client.post(f"/tournaments/{finished.key}/run/plan-round", {"planned": "2"})
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{finished.key}/run/#next-round"
    tournament = Tournament.objects.get(pk=finished.pk)
    assert tournament.rounds_planned == 3 and tournament.version > version
    entry = AuditEntry.objects.get(verb="tournament.plan_round")
    assert entry.user == director and entry.data == {
        "tournament": finished.key,
        "rounds_planned": 3,
    }
    shown = pages(client, tournament)
    assert all("The tournament is over" not in page for page in shown.values())
    assert "Seat round 3" in shown["run"] and "Check-in for round 3" in shown["run"]
    assert "A late entrant is seated from round 3." in shown["run"]
    run_services.add_entrant(tournament=tournament, player="Дарья", user=director)
    assert run_services.draw_round(tournament=tournament, user=director).number == 3


def test_planning_a_round_from_a_stale_page_or_too_early_is_refused_and_changes_nothing(
    finished, director, client, django_user_model
):
    scorer = user_in(django_user_model, "scorer", PLAYER)
    name_official(finished, scorer)
    client.force_login(director)
    url = f"/tournaments/{finished.key}/run/plan-round"
    assert client.post(url, {"planned": "2"}).status_code == 302
    before = Tournament.objects.get(pk=finished.pk).rounds_planned, AuditEntry.objects.count()
    for planned in ("2", "", "٣", "x"):  # a second click, a damaged form
        again = client.post(url, {"planned": planned}, **EN)
        assert again.status_code == 409, planned
        assert "The tournament now has 3 rounds planned" in words(again)
    early = client.post(url, {"planned": "3"}, **EN)  # round 3 is planned, not seated
    assert early.status_code == 400
    assert "Round 3 is planned and not seated yet: seat it first." in words(early)
    russian = words(client.post(url, {"planned": "3"}, **RU))
    assert "Тур 3 запланирован, но ещё не рассажен: сначала рассадите его." in russian
    client.force_login(scorer)
    assert client.post(url, {"planned": "3"}).status_code == 403
    assert (Tournament.objects.get(pk=finished.pk).rounds_planned, AuditEntry.objects.count()) == (
        before
    )


def test_a_tournament_has_at_most_a_hundred_rounds(finished, director):
    Tournament.objects.filter(pk=finished.pk).update(rounds_planned=MOST_ROUNDS)
    tournament = Tournament.objects.get(pk=finished.pk)
    for number in range(3, MOST_ROUNDS + 1):  # every planned round seated
        Round.objects.create(tournament=tournament, number=number, released=True)
    with pytest.raises(services.TournamentError, match="at most 100 rounds"):
        run_services.plan_round(tournament=tournament, user=director, planned_seen=MOST_ROUNDS)
    assert Tournament.objects.get(pk=finished.pk).rounds_planned == MOST_ROUNDS
