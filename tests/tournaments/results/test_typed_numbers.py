"""Numbers typed into the tournaments' forms: an adjustment's points, the new-tournament
form's rounds, seed, bye points and deals, a typed sheet's figures and the admin's
adjustment. Each takes the digits 0 to 9 only (never ``٣`` for 3) and keeps to its range; a
number outside it, however large, is refused with a message at its field and changes
nothing, on SQLite and on PostgreSQL alike."""

from html import unescape

import pytest

from club.models import AuditEntry
from club.roles import DIRECTOR
from tests.support.accounts import name_official, user_in
from tests.support.tournaments import SHORT_CYCLE, sheet_post
from tournaments import services
from tournaments.models import Adjustment, RoundTable, SheetRow, Tournament
from tournaments.results import services as results_services
from tournaments.run import services as run_services

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

NOT_DIGITS = ["٣", "３", "१२", "1_0", "1e3", "3.0", "1+2", "--3", "0x1f"]
TOO_LARGE = ["2147483648", "-2147483649", "9223372036854775808", "1" + "0" * 40]


@pytest.fixture
def director(client, django_user_model):
    user = user_in(django_user_model, "director", DIRECTOR)
    client.force_login(user)
    return user


@pytest.fixture
def tournament(director):
    """A short-cycle Выборы tournament of five, round 1 released."""
    tournament = services.create_tournament(
        user=director,
        name="Осенний кубок",
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=3,
        seating="mixing",
        seed=20261130,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
    )
    for name in ["Анна", "Борис", "Вера", "Глеб", "Дарья"]:
        run_services.add_entrant(tournament=tournament, player=name, user=director)
    run_services.release_round(
        round_=run_services.draw_round(tournament=tournament, user=director), user=director
    )
    return tournament


def written() -> tuple:
    return (
        Tournament.objects.count(),
        list(Adjustment.objects.values_list("points", flat=True)),
        list(SheetRow.objects.values_list("data", flat=True)),
        AuditEntry.objects.count(),
    )


def adjust(client, tournament, points: str):
    entrant = tournament.entrants.order_by("number").first()
    return client.post(
        f"/tournaments/{tournament.key}/run/adjust",
        {
            "adjust-entrant": entrant.pk,
            "adjust-round": "1",
            "adjust-points": points,
            "adjust-reason": "late",
        },
        **EN,
    )


# -- an adjustment ------------------------------------------------------------------------------


@pytest.mark.parametrize("points", NOT_DIGITS)
def test_an_adjustment_in_other_digits_than_0_to_9_is_refused(client, tournament, points):
    before = written()
    response = adjust(client, tournament, points)
    assert response.status_code == 400
    assert "Enter a whole number in the digits 0 to 9." in response.content.decode()
    assert written() == before


@pytest.mark.parametrize("points", [*TOO_LARGE, "10001", "-10001"])
def test_an_adjustment_beyond_ten_thousand_points_either_way_is_refused(client, tournament, points):
    before = written()
    response = adjust(client, tournament, points)
    assert response.status_code == 400
    page = response.content.decode()
    assert "10000" in page or "Enter a whole number" in page
    assert written() == before


def test_an_adjustment_within_its_range_is_saved_the_minus_sign_its_label_shows_too(
    client, tournament
):
    for points in ("10000", "−10000", " +7 "):
        assert adjust(client, tournament, points).status_code == 302, points
    assert sorted(Adjustment.objects.values_list("points", flat=True)) == [-10000, 7, 10000]


def test_the_service_refuses_an_adjustment_beyond_its_range_and_a_change_to_one(
    tournament, director
):
    round_, entrant = tournament.rounds.get(), tournament.entrants.first()
    before = written()
    for points in (10001, -(2**31), 2**63):
        with pytest.raises(services.TournamentError, match="at most 10000 game points"):
            results_services.adjust(
                round_=round_, entrant=entrant, points=points, reason="x", user=None
            )
    assert written() == before
    adjustment = results_services.adjust(
        round_=round_, entrant=entrant, points=5, reason="x", user=None
    )
    before = written()
    with pytest.raises(services.TournamentError, match="at most 10000 game points"):
        results_services.correct_adjustment(
            adjustment=adjustment, points=2**31, reason="y", user=None
        )
    assert written() == before


def test_the_admin_refuses_an_adjustment_in_other_digits_or_beyond_its_range(
    client, django_user_model, tournament
):
    staff = user_in(django_user_model, "dora", DIRECTOR, staff=True)
    name_official(tournament, staff, role="director")
    client.force_login(staff)
    entrant = tournament.entrants.first()
    before = written()
    for points in ["٣", "10001", "2147483648"]:
        response = client.post(
            "/admin/tournaments/adjustment/add/",
            {
                "round": tournament.rounds.get().pk,
                "entrant": entrant.pk,
                "points": points,
                "reason": "bonus",
            },
            **EN,
        )
        assert response.status_code == 200, points  # the form again, with its error
        assert list(response.context["adminform"].form.errors) == ["points"], points
    assert written() == before


# -- a new tournament -----------------------------------------------------------------------------

FORM = {
    "name": "Осенний кубок",
    "rounds_planned": "3",
    "seating": "mixing",
    "seed": "20261130",
    "bye_points": "3",
    "order": "default",
    "option-cycle": "short",
}


@pytest.mark.parametrize(
    "field, value",
    [
        ("rounds_planned", "٣"),
        ("rounds_planned", "１０"),
        ("seed", "٣"),
        ("seed", "1_000"),
        ("bye_points", "٣"),
        ("bye_points", "1.٥"),
    ],
)
def test_a_new_tournaments_number_in_other_digits_is_refused_at_its_field(
    client, director, field, value
):
    before = written()
    response = client.post("/tournaments/new/variety/", {**FORM, field: value}, **EN)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [field], errors
    assert unescape(errors[field][0]) in unescape(response.content.decode())
    assert written() == before


def test_fantans_deals_in_other_digits_are_refused(client, director):
    form = {
        **{key: value for key, value in FORM.items() if not key.startswith("option-")},
        "option-players": "4",
        "option-start_rank": "8",
        "option-until_out": "1",
        "option-scoring": "win",
        "option-premium_1": "800",
        "option-premium_2": "500",
        "setting_deals": "٤",
    }
    before = written()
    response = client.post("/tournaments/new/fantan/", form, **EN)
    assert response.status_code == 400
    assert "Enter a whole number in the digits 0 to 9." in response.content.decode()
    assert written() == before
    response = client.post("/tournaments/new/fantan/", {**form, "setting_deals": "4"}, **EN)
    assert response.status_code == 302
    assert Tournament.objects.get().game_settings == {"deals": 4}


# -- a typed sheet ------------------------------------------------------------------------------


def first_table(tournament) -> RoundTable:
    return RoundTable.objects.filter(round__tournament=tournament).order_by("number").first()


@pytest.mark.parametrize("figure", ["١٦", "1_6", "1+6", "10000000", "-10000000"])
def test_a_typed_sheets_figure_in_other_digits_or_beyond_any_score_is_refused(
    client, tournament, figure
):
    table = first_table(tournament)
    data = sheet_post(SHORT_CYCLE)
    data["r1-scores-0"] = figure
    before = written()
    response = client.post(f"/tournaments/{tournament.key}/tables/{table.pk}/sheet/", data, **EN)
    assert response.status_code == 400
    page = unescape(response.content.decode())
    assert "Row 1:" in page
    assert "is not a whole number" in page or "beyond any score" in page
    assert written() == before
