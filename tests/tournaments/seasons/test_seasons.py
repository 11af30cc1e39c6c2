"""Seasons (docs/rules/tournaments.md, "Seasons"): the season standings by places and by
match points against tables worked out by hand, shared places and ties, and the services
that create and change a season and add tournaments to it — who may, what is audited, and
what a stale page is told."""

from fractions import Fraction

import pytest

from club.models import AuditEntry
from club.roles import DIRECTOR, ORGANISER
from club.services import Forbidden, Refused, Stale
from tests.support.accounts import name_official, user_in
from tests.support.seasons import NAMES, leopard, three_months
from tests.support.tournaments import enter, new_tournament
from tournaments.models import Season, Tournament
from tournaments.results import services as results_services
from tournaments.run import services as run_services
from tournaments.seasons import selectors as season_selectors
from tournaments.seasons import services as season_services
from tournaments.seasons.standings import (
    MATCH_POINTS,
    PLACES,
    Played,
    check_place_points,
    place_share,
    season_standings,
)
from tournaments.standings import Standing

F = Fraction


def row(player, place, last_place=None, match_points=0, points=0, opponents=0, wins=0):
    return Standing(
        place=place,
        last_place=last_place or place,
        player=player,
        match_points=F(match_points),
        points=points,
        opponents=F(opponents),
        wins=wins,
        rounds=(),
    )


def table_of(standings) -> list[tuple]:
    return [(r.shown_place, r.player, r.points) for r in standings]


# -- the pure module -------------------------------------------------------------------------


def test_shared_places_share_their_points_equally_and_a_place_beyond_the_table_scores_0():
    table = (10, 8, 6, 5, 4, 3, 2, 1)
    assert place_share(1, 1, table) == 10
    assert place_share(1, 2, table) == 9
    assert place_share(2, 4, table) == F(19, 3)  # (8 + 6 + 5) / 3, kept exact
    assert place_share(8, 9, table) == F(1, 2)  # the 9th place is beyond the table
    assert place_share(9, 9, table) == 0


@pytest.mark.parametrize(
    "points",
    [[1] * 65, [10, -1], [1001], [10, 1.5], [True], ["10"]],
    ids=["65 places", "negative", "over 1000", "a fraction", "a boolean", "text"],
)
def test_a_points_table_is_at_most_64_whole_numbers_from_0_to_1000(points):
    with pytest.raises(ValueError):
        check_place_points(points)


def test_a_points_table_may_be_empty_or_give_64_places_1000_each():
    assert check_place_points([1000] * 64) == (1000,) * 64
    assert check_place_points([]) == ()


def test_equal_season_points_are_ordered_by_the_season_sums_of_the_tournaments_keys():
    """X and Y each win one tournament and come second in the other (18 points each); Y
    made more match points over the season, so Y is ahead."""
    first = Played([row("X", 1, match_points=6), row("Y", 2, match_points=5)])
    second = Played([row("Y", 1, match_points=5), row("X", 2, match_points=3)])
    standings = season_standings([first, second], scoring=PLACES, place_points=[10, 8])
    assert table_of(standings) == [("1", "Y", 18), ("2", "X", 18)]
    assert standings.rows[0].keys == (10, 0, 0, 0)  # Y's match points, points, opponents, wins


def test_the_first_tournaments_order_decides_which_key_breaks_a_tie_first():
    """X has more wins, Y more match points: ranked by wins first (the first tournament's
    order), X is ahead; by the default order, Y."""
    rows_1 = [row("X", 1, match_points=6, wins=2), row("Y", 2, match_points=9, wins=0)]
    rows_2 = [row("Y", 1), row("X", 2)]

    def leader(order):
        played = [Played(rows_1, order=order), Played(rows_2, order=("match_points",))]
        return season_standings(played, place_points=[10, 8]).rows[0].player

    assert leader(("wins", "match_points")) == "X"
    assert leader(("match_points", "points", "opponents", "wins")) == "Y"


def test_players_equal_on_season_points_and_every_key_share_the_place_in_order_of_appearance():
    first = Played([row("X", 1, 2, match_points=3), row("Y", 1, 2, match_points=3), row("Z", 3)])
    second = Played([row("W", 1)])
    standings = season_standings([first, second], place_points=[10, 8, 6])
    assert table_of(standings) == [("1", "W", 10), ("2–3", "X", 9), ("2–3", "Y", 9), ("4", "Z", 6)]
    assert [r.shared for r in standings] == [False, True, True, False]


def test_by_match_points_each_player_scores_the_sum_of_his_match_points():
    first = Played([row("X", 1, match_points=F(15, 2)), row("Y", 2, match_points=6)])
    second = Played([row("Y", 1, match_points=6)])
    standings = season_standings([first, second], scoring=MATCH_POINTS)
    assert table_of(standings) == [("1", "Y", 12), ("2", "X", F(15, 2))]
    x = standings.rows[1]
    assert x.cells == (F(15, 2), None) and x.running == (F(15, 2), F(15, 2))


def test_a_tournament_not_begun_gives_nobody_anything_and_a_season_may_be_empty():
    played = Played([row("X", 1)])
    standings = season_standings([played, Played([])])
    assert [(r.cells, r.running) for r in standings] == [((10, None), (10, 10))]
    assert season_standings([]).rows == []


def test_a_scoring_or_a_points_table_that_is_none_is_refused():
    with pytest.raises(ValueError):
        season_standings([], scoring="wins")
    with pytest.raises(ValueError):
        season_standings([], place_points=[-1])
    with pytest.raises(ValueError):  # a player twice in one tournament
        season_standings([Played([row("X", 1), row("X", 2)])])


# -- three tournaments, worked out by hand ---------------------------------------------------


@pytest.fixture
def director(django_user_model):
    return user_in(django_user_model, "director", DIRECTOR)


@pytest.fixture
def months(director):
    return three_months(director)


def season_of(director, tournaments, scoring=PLACES, points=(10, 8, 6, 5, 4, 3, 2, 1)):
    season = season_services.create_season(
        user=director, name="Осень 2026", game="leopard", scoring=scoring, place_points=points
    )
    for tournament in tournaments:
        season = season_services.add_tournament(
            season=season, tournament=tournament, user=director, version=season.version
        )
    return season


def by_name(season) -> list[tuple]:
    table = season_selectors.season_table(season)
    return [
        (r.shown_place, table.names[r.player], r.points, r.cells, r.running)
        for r in table.standings
    ]


@pytest.mark.django_db
def test_a_season_by_places_gives_each_place_its_points_shared_places_their_average(
    director, months
):
    """Сентябрь: Анна 1, Вера 2, Дарья 3 (her bye counted), Борис 4, Глеб 5 (withdrawn, his
    place kept). Октябрь: Анна and Вера share 1–2 (9 each), Борис and Глеб 3–4 (5½ each);
    Дарья did not enter. Ноябрь: Дарья 1, Борис and Глеб 2–3 (7 each), Вера 4, Анна 5."""
    season = season_of(director, months)
    assert by_name(season) == [
        ("1", "Анна", 23, (10, 9, 4), (10, 19, 23)),
        ("2", "Вера", 22, (8, 9, 5), (8, 17, 22)),
        ("3", "Борис", F(35, 2), (5, F(11, 2), 7), (5, F(21, 2), F(35, 2))),
        ("4", "Глеб", F(33, 2), (4, F(11, 2), 7), (4, F(19, 2), F(33, 2))),
        ("5", "Дарья", 16, (6, None, 10), (6, 6, 16)),
    ]


@pytest.mark.django_db
def test_a_season_by_match_points_counts_byes_and_breaks_its_ties_by_game_points(director, months):
    """Вера 9 + 6 + 3 (a bye); Анна 9 + 6 + 0 and Дарья 9 (a bye and a win) + 6 tie at 15,
    and Анна's 28 game points beat Дарья's 18; Борис (16) and Глеб (13) tie at 3."""
    season = season_of(director, months, scoring=MATCH_POINTS)
    assert by_name(season) == [
        ("1", "Вера", 18, (9, 6, 3), (9, 15, 18)),
        ("2", "Анна", 15, (9, 6, 0), (9, 15, 15)),
        ("3", "Дарья", 15, (9, None, 6), (9, 9, 15)),
        ("4", "Борис", 3, (0, 0, 3), (0, 0, 3)),
        ("5", "Глеб", 3, (0, 0, 3), (0, 0, 3)),
    ]


@pytest.mark.django_db
def test_the_season_follows_its_tournaments_in_date_order_whatever_the_order_they_joined(
    director, months
):
    season = season_of(director, reversed(months))
    table = season_selectors.season_table(season)
    assert [t.name for t in table.tournaments] == ["Сентябрь", "Октябрь", "Ноябрь"]


@pytest.mark.django_db
def test_only_counted_tables_of_released_rounds_give_season_points(director):
    """A tournament whose round is a draft, or released with no sheet counted yet, gives
    nothing; once a sheet counts, its standings do."""
    tournament = new_tournament(director, game="leopard", options={"deals": 1}, seating="swiss")
    enter(tournament, NAMES[:4], director)
    season = season_of(director, [tournament])
    round_ = run_services.draw_round(tournament=tournament, user=director)
    assert by_name(season) == []
    run_services.release_round(round_=round_, user=director)
    assert by_name(season) == []
    first, second = round_.tables.order_by("number")
    results_services.enter_sheet(
        table=first, rows=[{"scores": [10, 5], "ender": None}], user=director
    )
    rows = by_name(season)
    winner, loser = (seat.entrant.player.name for seat in first.seats.order_by("position"))
    # the other table's players have played nothing counted yet: they share 3–4, for now
    assert [r[:3] for r in rows] == [
        ("1", winner, 10),
        ("2", loser, 8),
        ("3–4", rows[2][1], F(11, 2)),
        ("3–4", rows[3][1], F(11, 2)),
    ]


@pytest.mark.django_db
def test_the_season_csv_has_a_line_a_player_and_a_blank_where_he_did_not_enter(director, months):
    season = season_of(director, months)
    table = season_selectors.season_table(season)
    text = table.standings.as_csv([t.name for t in table.tournaments], table.names.get)
    lines = text.splitlines()
    assert lines[0] == '"place","player","season_points","Сентябрь","Октябрь","Ноябрь"'
    assert lines[3] == '3,"Борис",17.5,5,5.5,7'
    assert lines[5] == '5,"Дарья",16,6,"",10'


@pytest.mark.django_db
def test_the_season_reads_the_same_queries_for_one_tournament_and_for_three(
    director, months, django_assert_num_queries
):
    season = season_of(director, months[:1])
    with django_assert_num_queries(8):
        assert len(season_selectors.season_table(season).begun) == 1
    Tournament.objects.filter(pk__in=[t.pk for t in months[1:]]).update(season=season)
    with django_assert_num_queries(8):
        assert len(season_selectors.season_table(season).begun) == 3


# -- the services ------------------------------------------------------------------------------


def audited(verb: str) -> list[dict]:
    return list(AuditEntry.objects.filter(verb=verb).values_list("data", flat=True))


@pytest.mark.django_db
def test_a_director_creates_a_season_audited_and_a_form_sent_twice_creates_one(director):
    arguments = dict(name="  Осень   2026 ", game="leopard", scoring=PLACES, place_points=[5, 3])
    season = season_services.create_season(user=director, form_token="t1", **arguments)
    again = season_services.create_season(user=director, form_token="t1", **arguments)
    assert again.pk == season.pk and Season.objects.count() == 1
    assert (season.key, season.name, season.place_points) == ("osen-2026", "Осень 2026", [5, 3])
    assert season.created_by == director and season.version == 0
    assert audited("season.create") == [
        {
            "season": "osen-2026",
            "name": "Осень 2026",
            "game": "leopard",
            "scoring": "places",
            "place_points": [5, 3],
        }
    ]
    other = season_services.create_season(user=director, **arguments)
    assert other.key == "osen-2026-2"  # its own address, as a tournament's


@pytest.mark.django_db
def test_only_the_clubs_directors_and_organisers_create_seasons(django_user_model):
    player = user_in(django_user_model, "player", "player")
    organiser = user_in(django_user_model, "organiser", ORGANISER)
    arguments = dict(name="Лето", game="fantan", scoring=MATCH_POINTS, place_points=[])
    with pytest.raises(Forbidden):
        season_services.create_season(user=player, **arguments)
    assert season_services.create_season(user=organiser, **arguments).game == "fantan"
    assert Season.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "changes",
    [
        {"name": "   "},
        {"name": "Осень\x00"},
        {"name": "О" * 201},
        {"game": "chess"},
        {"scoring": "wins"},
        {"place_points": [10, -1]},
        {"place_points": [1001]},
        {"place_points": [1] * 65},
        {"place_points": "10, 8"},
        {"place_points": [0, 0]},  # by places, every place worth nothing
    ],
    ids=lambda changes: next(iter(changes)),
)
def test_a_season_that_cannot_be_is_refused_and_nothing_is_created(director, changes):
    arguments = {
        "name": "Осень",
        "game": "leopard",
        "scoring": PLACES,
        "place_points": [10, 8],
        **changes,
    }
    with pytest.raises(Refused):
        season_services.create_season(user=director, **arguments)
    assert not Season.objects.exists() and not AuditEntry.objects.filter(verb="season.create")


@pytest.mark.django_db
def test_its_creator_and_the_organisers_change_a_season_and_a_stale_page_is_refused(
    director, django_user_model
):
    season = season_of(director, [])
    other = user_in(django_user_model, "other", DIRECTOR)
    organiser = user_in(django_user_model, "organiser", ORGANISER)
    change = dict(name="Осень", scoring=MATCH_POINTS, place_points=[10, 8])
    with pytest.raises(Forbidden):
        season_services.change_season(season=season, user=other, version=0, **change)
    changed = season_services.change_season(season=season, user=director, version=0, **change)
    assert (changed.name, changed.scoring, changed.version) == ("Осень", MATCH_POINTS, 1)
    assert changed.key == "osen-2026"  # its address stays
    with pytest.raises(Stale):  # the page showed version 0
        season_services.change_season(
            season=season, user=organiser, version=0, name="Зима", scoring=PLACES, place_points=[1]
        )
    assert Season.objects.get().name == "Осень"
    season_services.change_season(
        season=season, user=organiser, version=1, name="Зима", scoring=PLACES, place_points=[1]
    )
    assert [entry["after"]["name"] for entry in audited("season.change")] == ["Зима", "Осень"]
    assert audited("season.change")[1]["before"] == {
        "name": "Осень 2026",
        "scoring": "places",
        "place_points": [10, 8, 6, 5, 4, 3, 2, 1],
    }


@pytest.mark.django_db
def test_a_tournament_joins_a_season_of_its_game_by_one_who_directs_it_and_may_leave_it(
    director, months, django_user_model
):
    season = season_of(director, [])
    september = months[0]
    stranger = user_in(django_user_model, "stranger", DIRECTOR)
    with pytest.raises(Forbidden):  # he may not change the season
        season_services.add_tournament(
            season=season, tournament=september, user=stranger, version=0
        )
    theirs = leopard({"tournament": "Чужой", "players": NAMES[:2], "rounds": []}, stranger)
    with pytest.raises(Forbidden):  # the season's creator does not direct it
        season_services.add_tournament(season=season, tournament=theirs, user=director, version=0)
    before = Tournament.objects.get(pk=september.pk).version
    season = season_services.add_tournament(
        season=season, tournament=september, user=director, version=0
    )
    joined = Tournament.objects.get(pk=september.pk)
    assert joined.season == season and season.version == 1
    assert joined.version == before + 1  # its live pages are told: they show the season
    with pytest.raises(Stale):  # sent again from the same page
        season_services.add_tournament(
            season=season, tournament=september, user=director, version=0
        )
    with pytest.raises(Stale):  # already in it
        season_services.add_tournament(
            season=season, tournament=september, user=director, version=1
        )
    season = season_services.remove_tournament(
        season=season, tournament=september, user=director, version=1
    )
    assert Tournament.objects.get(pk=september.pk).season is None and season.version == 2
    assert audited("season.tournament.add") == [{"season": season.key, "tournament": "sentyabr"}]
    assert audited("season.tournament.remove") == [{"season": season.key, "tournament": "sentyabr"}]


@pytest.mark.django_db
def test_a_tournament_of_another_game_or_in_another_season_is_refused(director, months):
    season = season_of(director, [])
    fantan = new_tournament(director, game="fantan")
    with pytest.raises(Refused):
        season_services.add_tournament(season=season, tournament=fantan, user=director, version=0)
    other = season_of(director, [months[0]])
    with pytest.raises(Refused):
        season_services.add_tournament(
            season=season, tournament=months[0], user=director, version=0
        )
    with pytest.raises(Stale):  # it is not in this season
        season_services.remove_tournament(
            season=season, tournament=months[0], user=director, version=0
        )
    assert Tournament.objects.get(pk=months[0].pk).season == other
    assert Season.objects.get(pk=season.pk).version == 0


@pytest.mark.django_db
def test_a_scorer_of_a_tournament_does_not_add_it_to_his_season(
    director, months, django_user_model
):
    scorer = user_in(django_user_model, "scorer", DIRECTOR)
    name_official(months[0], scorer)
    season = season_services.create_season(
        user=scorer, name="Моя", game="leopard", scoring=PLACES, place_points=[1]
    )
    with pytest.raises(Forbidden):
        season_services.add_tournament(season=season, tournament=months[0], user=scorer, version=0)
    name_official(months[0], scorer, "director")
    scorer = django_user_model.objects.get(pk=scorer.pk)  # his roles read afresh, as a request
    season_services.add_tournament(season=season, tournament=months[0], user=scorer, version=0)
    assert season_selectors.season_table(season).tournaments == [months[0]]


@pytest.mark.django_db
def test_a_tournament_deleted_leaves_its_season_and_a_season_deleted_leaves_its_tournaments(
    director, months
):
    season = season_of(director, months[:2])
    months[0].delete()
    assert [t.name for t in season_selectors.season_table(season).tournaments] == ["Октябрь"]
    season.delete()
    assert Tournament.objects.get(pk=months[1].pk).season is None
