"""The seasons' pages: the public season page (its standings, each tournament's column,
the leaders' chart and the CSV) in both languages, the season on the tournaments' pages, and
the management page where a director creates a season, changes it and adds or removes his
tournaments — who may, and what anything else that can be sent gets."""

import re
from fractions import Fraction
from html import unescape

import pytest
from django.utils import translation

from club.models import AuditEntry
from club.roles import DIRECTOR, ORGANISER
from tests.support.accounts import user_in
from tests.support.rules_pages import Tree
from tests.support.seasons import NAMES, leopard, three_months
from tests.support.tournaments import new_tournament
from tournaments.models import Season, Tournament
from tournaments.seasons import services as season_services
from tournaments.seasons.views import shown

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


@pytest.fixture
def months(director):
    return three_months(director)


@pytest.fixture
def season(director, months):
    season = season_services.create_season(
        user=director,
        name="Осень 2026",
        game="leopard",
        scoring="places",
        place_points=[10, 8, 6, 5, 4, 3, 2, 1],
    )
    for tournament in months:
        season = season_services.add_tournament(
            season=season, tournament=tournament, user=director, version=season.version
        )
    return season


def as_user(client, user):
    client.force_login(user)
    return client


def text(response) -> str:
    return unescape(response.content.decode())


def alert(response) -> str:
    found = re.findall(r'role="alert">\s*([^<]+)', response.content.decode())
    return unescape(" ".join(found_text.strip() for found_text in found))


def rows(response) -> list[list[str]]:
    """The season standings' rows as the page shows them: each cell's text."""
    body = text(response).split("<tbody>")[1].split("</tbody>")[0]
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr)
        ]
        for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


# -- the public page -------------------------------------------------------------------------


def test_the_season_page_shows_the_standings_each_tournament_and_the_leaders_chart(
    client, season, months
):
    response = client.get(f"/tournaments/seasons/{season.key}/", **EN)
    assert response.status_code == 200
    page = text(response)
    assert rows(response) == [
        ["1", "Анна", "23", "10", "9", "4"],
        ["2", "Вера", "22", "8", "9", "5"],
        ["3", "Борис", "17.5", "5", "5.5", "7"],
        ["4", "Глеб", "16.5", "4", "5.5", "7"],
        ["5", "Дарья", "16", "6", "—did not enter", "10"],
    ]
    for tournament in months:  # each column links to its tournament's standings
        assert f'href="/tournaments/{tournament.key}/standings/"' in page
    anna = months[0].entrants.get(player__name="Анна").player
    assert f'href="/ratings/players/{anna.pk}/"' in page
    assert "by places: 10, 8, 6, 5, 4, 3, 2, 1; a place beyond them scores 0" in page
    assert "The leaders' season points, tournament by tournament" in page
    assert "<svg" in page and page.count('class="series"') == 5  # the top eight: all five
    assert f'href="/tournaments/seasons/{season.key}/standings.csv"' in page
    assert "Manage this season" not in page  # a visitor's page


def test_the_season_page_in_russian_writes_halves_in_its_way(client, season):
    response = client.get(f"/tournaments/seasons/{season.key}/", **RU)
    page = text(response)
    assert response.status_code == 200 and 'lang="ru"' in page
    assert rows(response)[2][:3] == ["3", "Борис", "17,5"]
    assert "Очки сезона" in page and "не участвовал" in page
    assert "по местам: 10, 8, 6, 5, 4, 3, 2, 1" in page


def test_the_season_csv_is_a_line_a_player(client, season):
    response = client.get(f"/tournaments/seasons/{season.key}/standings.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'filename="osen-2026-season.csv"' in response["Content-Disposition"]
    lines = response.content.decode().splitlines()
    assert lines[0] == '"place","player","season_points","Сентябрь","Октябрь","Ноябрь"'
    assert lines[1] == '1,"Анна",23,10,9,4'


def test_a_season_without_tournaments_says_so_in_a_sentence_not_a_numbered_item(client, director):
    empty = season_services.create_season(
        user=director, name="Зима", game="variety", scoring="match_points", place_points=[]
    )
    as_user(client, director)
    page = Tree(text(client.get(f"/tournaments/seasons/{empty.key}/manage/", **EN))).root
    shown = page.holding("No tournament has joined this season yet.")
    assert shown.tag == "p" and not shown.within("ol", "ul")


def test_a_season_without_a_counted_table_says_so_and_draws_no_chart(client, director):
    empty = season_services.create_season(
        user=director, name="Зима", game="variety", scoring="match_points", place_points=[]
    )
    response = client.get(f"/tournaments/seasons/{empty.key}/", **EN)
    assert response.status_code == 200
    assert "No tournament has joined this season yet." in text(response)
    assert "<svg" not in text(response)
    tournament = new_tournament(director)
    season_services.add_tournament(season=empty, tournament=tournament, user=director, version=0)
    response = client.get(f"/tournaments/seasons/{empty.key}/", **EN)
    assert "No table of its tournaments has been counted yet." in text(response)


def test_an_unknown_season_is_not_found_and_its_pages_answer_get_only(client, season):
    assert client.get("/tournaments/seasons/no-such-season/").status_code == 404
    assert client.get("/tournaments/seasons/no-such-season/standings.csv").status_code == 404
    assert client.post(f"/tournaments/seasons/{season.key}/").status_code == 405


def test_the_tournaments_list_names_the_seasons_and_a_tournament_links_to_its_season(
    client, season, months
):
    page = text(client.get("/tournaments/", **EN))
    assert f'<a href="/tournaments/seasons/{season.key}/">Осень 2026</a>' in page
    assert "3 tournaments" in page
    assert "New season" not in page  # a visitor creates none
    page = text(client.get(f"/tournaments/{months[0].key}/", **EN))
    assert f'<a href="/tournaments/seasons/{season.key}/">Осень 2026</a>' in page
    page = text(client.get("/tournaments/", **RU))
    assert "Сезоны" in page and "3 турнира" in page


# -- a new season ----------------------------------------------------------------------------


def new_form(**changes) -> dict:
    return {
        "season-name": "Весна 2027",
        "season-game": "leopard",
        "season-scoring": "places",
        "season-place_points": "12, 10, 8",
        "season-token": "form-1",
        **changes,
    }


def test_a_director_creates_a_season_from_the_form_and_is_taken_to_its_management(client, director):
    as_user(client, director)
    page = client.get("/tournaments/seasons/new/", **EN)
    assert page.status_code == 200 and "10, 8, 6, 5, 4, 3, 2, 1" in text(page)
    assert "New season" in text(client.get("/tournaments/", **EN))
    response = client.post("/tournaments/seasons/new/", new_form(), **EN)
    assert response.status_code == 302
    assert response["Location"] == "/tournaments/seasons/vesna-2027/manage/"
    again = client.post("/tournaments/seasons/new/", new_form(), **EN)  # a double click
    assert again["Location"] == response["Location"] and Season.objects.count() == 1
    season = Season.objects.get()
    assert (season.game, season.place_points, season.created_by) == (
        "leopard",
        [12, 10, 8],
        director,
    )
    russian = client.get("/tournaments/seasons/new/", **RU)
    assert "Новый сезон" in text(russian)


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ("10, x, 6", "Place 2: “x” is not a whole number from 0 to 1000 in the digits 0 to 9."),
        ("10, 1001", "Place 2: “1001” is not a whole number from 0 to 1000"),
        ("10, -1", "Place 2: “-1” is not a whole number from 0 to 1000"),
        ("١٠, 8", "Place 1: “١٠” is not a whole number"),  # Arabic-Indic digits
        ("10,,6", "Place 2 has no points: write a whole number between the commas."),
        (", ".join(["1"] * 65), "At most 64 places have points."),
        ("", "Scoring by places needs each place's points."),
        ("0, 0", "Give at least one place some points."),
    ],
)
def test_a_points_table_that_is_not_one_is_refused_with_a_clear_message(
    client, director, points, message
):
    as_user(client, director)
    response = client.post(
        "/tournaments/seasons/new/", new_form(**{"season-place_points": points}), **EN
    )
    assert response.status_code == 400 and message in alert(response)
    assert not Season.objects.exists()


@pytest.mark.parametrize(
    "changes",
    [
        {"season-game": "chess"},
        {"season-scoring": "wins"},
        {"season-name": ""},
        {"season-name": "x" * 201},
        {"season-token": "t" * 65},
    ],
    ids=["game", "scoring", "no name", "long name", "long token"],
)
def test_a_forged_new_season_form_is_refused_and_creates_nothing(client, director, changes):
    as_user(client, director)
    response = client.post("/tournaments/seasons/new/", new_form(**changes), **EN)
    assert response.status_code == 400 and not Season.objects.exists()


def test_only_directors_and_organisers_open_the_new_season_form(client, django_user_model):
    response = client.get("/tournaments/seasons/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post("/tournaments/seasons/new/", new_form()).status_code == 403
    as_user(client, user_in(django_user_model, "player", "player"))
    assert client.get("/tournaments/seasons/new/").status_code == 403
    assert client.post("/tournaments/seasons/new/", new_form()).status_code == 403
    as_user(client, user_in(django_user_model, "organiser", ORGANISER))
    assert client.post("/tournaments/seasons/new/", new_form()).status_code == 302
    assert not Season.objects.exclude(created_by__username="organiser").exists()


# -- its management page ---------------------------------------------------------------------


def manage_url(season, what=""):
    return f"/tournaments/seasons/{season.key}/manage/{what}"


def test_the_management_page_offers_the_directors_own_tournaments_of_the_game_in_no_season(
    client, director, season, django_user_model
):
    free = leopard({"tournament": "Декабрь", "players": NAMES[:2], "rounds": []}, director)
    new_tournament(director, game="fantan", name="Фантан")  # another game
    other = user_in(django_user_model, "other", DIRECTOR)
    leopard({"tournament": "Чужой", "players": NAMES[:2], "rounds": []}, other)  # not his
    as_user(client, director)
    response = client.get(manage_url(season), **EN)
    page = text(response)
    assert response.status_code == 200
    options = re.findall(r'<option value="(\d+)"', page)
    assert options == [str(free.pk)]
    assert page.count("from the season</button>") == 3
    russian = client.get(manage_url(season), **RU)
    assert "Управление сезоном" in text(russian)


def test_a_tournament_is_added_and_removed_from_the_management_page(client, director, season):
    free = leopard({"tournament": "Декабрь", "players": NAMES[:2], "rounds": []}, director)
    as_user(client, director)
    version = Season.objects.get().version
    response = client.post(
        manage_url(season, "add"), {"add-tournament": free.pk, "add-version": version}
    )
    assert response.status_code == 302 and response["Location"].endswith("#tournaments")
    assert Tournament.objects.get(pk=free.pk).season_id == season.pk
    response = client.post(
        manage_url(season, "remove"), {"remove-tournament": free.pk, "remove-version": version + 1}
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=free.pk).season_id is None
    verbs = list(
        AuditEntry.objects.filter(verb__startswith="season.tournament").values_list(
            "verb", flat=True
        )
    )
    assert verbs.count("season.tournament.remove") == 1


def test_a_stale_page_a_forged_tournament_and_a_damaged_form_are_refused_with_a_message(
    client, director, season, months
):
    free = leopard({"tournament": "Декабрь", "players": NAMES[:2], "rounds": []}, director)
    fantan = new_tournament(director, game="fantan")
    as_user(client, director)
    version = Season.objects.get().version
    cases = [
        ({"add-tournament": free.pk, "add-version": version - 1}, 409, "The season has changed"),
        ({"add-tournament": 999999, "add-version": version}, 400, "not in the club's list"),
        ({"add-tournament": "x", "add-version": version}, 400, "not in the club's list"),
        ({"add-tournament": fantan.pk, "add-version": version}, 400, "not a tournament of this"),
        ({"add-tournament": months[0].pk, "add-version": version}, 409, "already in this season"),
        ({"add-tournament": free.pk}, 400, "The form was incomplete or damaged"),
        ({"add-tournament": free.pk, "add-version": "٣"}, 400, "The form was incomplete"),
        ({"add-version": version}, 400, "Choose a tournament."),
    ]
    for data, status, message in cases:
        response = client.post(manage_url(season, "add"), data, **EN)
        assert (response.status_code, message in alert(response)) == (status, True), data
    assert Tournament.objects.get(pk=free.pk).season_id is None
    assert Season.objects.get().version == version
    response = client.post(manage_url(season, "add"), {"add-tournament": free.pk}, **RU)
    assert "Форма неполная или повреждена" in alert(response)


def test_the_season_is_changed_from_its_management_page_and_a_stale_change_is_refused(
    client, director, season
):
    as_user(client, director)
    version = Season.objects.get().version
    change = {
        "season-name": "Осень",
        "season-scoring": "match_points",
        "season-place_points": "10, 8, 6",
        "season-version": version,
    }
    response = client.post(manage_url(season, "change"), change, **EN)
    assert response.status_code == 302
    changed = Season.objects.get()
    assert (changed.name, changed.scoring, changed.place_points) == (
        "Осень",
        "match_points",
        [10, 8, 6],
    )
    response = client.post(manage_url(season, "change"), {**change, "season-name": "Зима"}, **EN)
    assert response.status_code == 409
    assert "The season has changed since this page was shown: look again." in alert(response)
    assert Season.objects.get().name == "Осень"
    response = client.post(
        manage_url(season, "change"),
        {**change, "season-version": version + 1, "season-place_points": "ten"},
        **EN,
    )
    assert response.status_code == 400 and "Place 1: “ten”" in alert(response)
    page = text(client.get(f"/tournaments/seasons/{season.key}/", **EN))
    assert "by the match points made in each tournament" in page


def test_only_the_seasons_creator_and_the_organisers_manage_it(client, season, django_user_model):
    other = user_in(django_user_model, "other", DIRECTOR)
    response = client.get(manage_url(season))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(manage_url(season, "change"), {}).status_code == 403
    as_user(client, other)
    assert client.get(manage_url(season)).status_code == 403
    for what in ("change", "add", "remove"):
        assert client.post(manage_url(season, what), {}).status_code == 403
    assert "Manage this season" not in text(client.get(f"/tournaments/seasons/{season.key}/"))
    as_user(client, user_in(django_user_model, "organiser", ORGANISER))
    assert client.get(manage_url(season)).status_code == 200
    assert "Manage this season" in text(client.get(f"/tournaments/seasons/{season.key}/", **EN))
    assert client.get("/tournaments/seasons/no-such/manage/").status_code == 404
    assert client.get(manage_url(season, "add")).status_code == 405


def test_season_points_are_shown_whole_as_halves_or_to_two_decimals_in_the_readers_way():
    with translation.override("en"):
        assert [shown(Fraction(n, d)) for n, d in ((6, 1), (35, 2), (19, 3))] == [
            "6",
            "17.5",
            "6.33",
        ]
    with translation.override("ru"):
        assert shown(Fraction(19, 3)) == "6,33"


def test_the_admin_shows_a_season_and_its_tournaments_but_changes_nothing(admin_client, season):
    listing = admin_client.get("/admin/tournaments/season/", **EN)
    assert listing.status_code == 200
    assert "<h1>Choose a season to view</h1>" in text(listing) and "1 season" in text(listing)
    page = admin_client.get(f"/admin/tournaments/season/{season.pk}/change/", **EN)
    assert page.status_code == 200 and "Сентябрь" in text(page) and "Ноябрь" in text(page)
    assert admin_client.get("/admin/tournaments/season/add/").status_code == 403
    response = admin_client.post(f"/admin/tournaments/season/{season.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403 and Season.objects.exists()


def test_a_tournament_named_seasons_gets_an_address_the_seasons_pages_do_not_hide(client, director):
    tournament = new_tournament(director, name="Seasons")
    assert tournament.key == "seasons-2"
    assert client.get(f"/tournaments/{tournament.key}/standings/").status_code == 200


def test_a_name_the_service_refuses_keeps_the_form_as_typed_with_the_reason(
    client, director, season
):
    as_user(client, director)
    change = {
        "season-name": "Зима\u200b",  # a zero-width space: not printable text
        "season-scoring": "places",
        "season-place_points": "7, 5, 3",
        "season-version": Season.objects.get().version,
    }
    response = client.post(manage_url(season, "change"), change, **EN)
    assert response.status_code == 400
    assert "A name may hold only printable text." in alert(response)
    assert 'value="7, 5, 3"' in text(response) and Season.objects.get().name == "Осень 2026"


def test_a_season_of_a_duplicate_tournament_ranks_its_players_by_the_places_it_gave(
    client, director
):
    from tests.support import EXAMPLES
    from tournaments import document, selectors, services

    text_ = (EXAMPLES / "duplicate-variety-nine.json").read_text(encoding="utf-8")
    tournament = services.import_document(doc=document.read(text_), user=director)
    season = season_services.create_season(
        user=director, name="Дубль", game="variety", scoring="places", place_points=[10, 8, 6]
    )
    season_services.add_tournament(
        season=season, tournament=tournament, user=director, version=season.version
    )
    response = client.get(f"/tournaments/seasons/{season.key}/", **EN)
    assert response.status_code == 200
    first = selectors.standings(tournament).rows[0].player
    assert rows(response)[0][:2] == ["1", first]
