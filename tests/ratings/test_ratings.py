"""The club's ratings: OpenSkill's own figures for the matches the results make, in the order
they were completed; corrections re-rate so that the stored ratings equal a rebuild."""

import json
import threading
from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from club.models import Player
from core import notices
from games import services as game_services
from games.models import Cycle, Deal, DealEvent, Seat, Table
from games.robot_seats import RobotSeat
from ratings import ladder, services, skill
from ratings.models import RatedMatch, Rating, RatingStep
from tests.support import club_night
from tests.support.tournaments import import_text
from tournaments.models import SheetRow
from tournaments.results import services as results_services

pytestmark = pytest.mark.django_db

MODEL = PlackettLuce()  # the library's defaults, as the club's ratings use
T0 = datetime(2026, 9, 1, 18, 0, tzinfo=UTC)

# Фантан by cards: the first out takes the cards left of the others; a table's game points
# are its rows' sums. Round 1: [6, −4, 5, −7] and [2, 2, −4]; round 2: [1, −3, 5, −3] and
# [2, −4, 2]: each table but the first has a tie.
FANTAN_DOCUMENT = {
    "tournament": "Фантан: двое вечеров",
    "game": "fantan",
    "options": {"scoring": "cards"},
    "rounds_planned": 2,
    "seating": "mixing",
    "seed": 1,
    "deals": 2,
    "players": ["Алла", "Богдан", "Вика", "Гриша", "Дина", "Егор", "Жора"],
    "rounds": [
        {
            "tables": [
                {
                    "players": ["Алла", "Богдан", "Вика", "Гриша"],
                    "rows": [
                        {"finish_order": [0], "cards_left": [0, 3, 2, 5]},
                        {"finish_order": [2], "cards_left": [4, 1, 0, 2]},
                    ],
                },
                {
                    "players": ["Дина", "Егор", "Жора"],
                    "rows": [
                        {"finish_order": [1], "cards_left": [3, 0, 1]},
                        {"finish_order": [0], "cards_left": [0, 2, 3]},
                    ],
                },
            ],
            "byes": [],
        },
        {
            "tables": [
                {
                    "players": ["Вика", "Дина", "Жора", "Егор"],
                    "rows": [
                        {"finish_order": [2], "cards_left": [4, 2, 0, 2]},
                        {"finish_order": [0], "cards_left": [0, 1, 3, 1]},
                    ],
                },
                {
                    "players": ["Гриша", "Алла", "Богдан"],
                    "rows": [
                        {"finish_order": [0], "cards_left": [0, 2, 1]},
                        {"finish_order": [2], "cards_left": [1, 2, 0]},
                    ],
                },
            ],
            "byes": [],
        },
    ],
}
FANTAN_POINTS = [
    (["Алла", "Богдан", "Вика", "Гриша"], [6, -4, 5, -7]),
    (["Дина", "Егор", "Жора"], [2, 2, -4]),
    (["Вика", "Дина", "Жора", "Егор"], [1, -3, 5, -3]),
    (["Гриша", "Алла", "Богдан"], [2, -4, 2]),
]


def openskill_ratings(matches) -> dict[str, tuple[float, float]]:
    """OpenSkill's own ratings after ``matches`` (names, game points) in order."""
    now: dict[str, object] = {}
    for names, points in matches:
        teams = [[now.get(name) or MODEL.rating()] for name in names]
        ranks = [1 + sum(other > mine for other in points) for mine in points]
        for name, (rating,) in zip(names, MODEL.rate(teams, ranks=ranks), strict=True):
            now[name] = rating
    return {name: (r.mu, r.sigma) for name, r in now.items()}


def stored(game: str) -> dict[str, tuple[float, float]]:
    return {
        r.player.name: (r.mu, r.sigma)
        for r in Rating.objects.filter(game=game).select_related("player")
    }


def at(table, when: datetime) -> None:
    """The table's sheet entered at ``when``."""
    SheetRow.objects.filter(table=table).update(created_at=when)


def casual(user, game: str, names: list[str], deals: list[list[int]], when: datetime, cycle=None):
    """A casual table whose finished deals scored ``deals``, the last finished at ``when``
    (a cycle of that many deals when ``cycle``)."""
    table = Table.objects.create(game=game, created_by=user)
    for position, name in enumerate(names):
        player, _ = Player.objects.get_or_create(name=name)
        Seat.objects.create(table=table, position=position, player=player)
    cycle_row = Cycle.objects.create(table=table, number=1, length=len(deals)) if cycle else None
    for number, scores in enumerate(deals, start=1):
        deal = Deal.objects.create(
            table=table,
            cycle=cycle_row,
            number=number,
            dealer=0,
            seed=number,
            dealt={},
            snapshot={},
            version=1,
            is_over=True,
            result={"scores": scores},
        )
        DealEvent.objects.create(deal=deal, index=0, kind="action", seat=0)
        finished = when - timedelta(minutes=len(deals) - number)
        DealEvent.objects.filter(deal=deal).update(created_at=finished)
    return table


def snapshot(game: str) -> tuple:
    """Everything stored of a game's ratings, as rows a rebuild must equal."""
    matches = list(
        RatedMatch.objects.filter(game=game).values_list("key", "order").order_by("order")
    )
    steps = list(
        RatingStep.objects.filter(match__game=game)
        .order_by("match__order", "seat")
        .values_list(
            "match__key",
            "player_id",
            "seat",
            "points",
            "rank",
            "mu_before",
            "sigma_before",
            "mu",
            "sigma",
        )
    )
    rated = sorted(
        Rating.objects.filter(game=game).values_list("player_id", "mu", "sigma", "matches")
    )
    return matches, steps, rated


def test_ratings_equal_openskills_own_for_tournament_tables_and_casual_matches_interleaved(
    django_user_model,
):
    user = django_user_model.objects.create_user("host")
    tournament = import_text(json.dumps(FANTAN_DOCUMENT, ensure_ascii=False))
    first, second = tournament.rounds.order_by("number")
    for table in first.tables.all():
        at(table, T0)
    for table in second.tables.all():
        at(table, T0 + timedelta(hours=2))
    # between the rounds a casual deal of four with a tie, after them a deal of three
    casual(
        user, "fantan", ["Алла", "Дина", "Вика", "Жора"], [[5, -2, -2, -1]], T0 + timedelta(hours=1)
    )
    casual(user, "fantan", ["Жора", "Богдан", "Егор"], [[-1, 4, -3]], T0 + timedelta(hours=3))
    services.rebuild("fantan")
    expected = openskill_ratings(
        [
            *FANTAN_POINTS[:2],
            (["Алла", "Дина", "Вика", "Жора"], [5, -2, -2, -1]),
            *FANTAN_POINTS[2:],
            (["Жора", "Богдан", "Егор"], [-1, 4, -3]),
        ]
    )
    assert stored("fantan") == expected
    assert Rating.objects.get(player__name="Жора", game="fantan").matches == 4


def test_a_corrected_row_re_rates_the_casual_matches_completed_after_its_table(
    django_user_model,
):
    user = django_user_model.objects.create_user("host")
    tournament = import_text(json.dumps(FANTAN_DOCUMENT, ensure_ascii=False))
    first, second = tournament.rounds.order_by("number")
    for table in first.tables.all():
        at(table, T0)
    for table in second.tables.all():
        at(table, T0 + timedelta(hours=2))
    later = (["Алла", "Дина", "Вика", "Жора"], [5, -2, -2, -1])
    casual(user, "fantan", later[0], [later[1]], T0 + timedelta(hours=1))
    services.rebuild("fantan")
    # the first table's second row: Богдан went out, not Вика: [4, 1, 0, 2] becomes [4, 0, 1, 2]
    row = first.tables.get(number=1).rows.get(index=2)
    data = {"finish_order": [1], "cards_left": [4, 0, 1, 2]}
    results_services.correct_row(row=row, data=data, reason="Опечатка", user=user)
    corrected = (["Алла", "Богдан", "Вика", "Гриша"], [6, 3, -3, -7])
    expected = openskill_ratings([corrected, FANTAN_POINTS[1], later, *FANTAN_POINTS[2:]])
    assert stored("fantan") == expected
    before = snapshot("fantan")
    services.rebuild("fantan")
    assert snapshot("fantan") == before


def test_a_tournament_imported_later_is_rated_after_the_matches_completed_before_it(
    django_user_model,
):
    """Its tables are rated in import order, round by round, table by table."""
    user = django_user_model.objects.create_user("host")
    casual(user, "fantan", ["Алла", "Богдан", "Вика"], [[1, 2, -3]], T0)
    import_text(json.dumps(FANTAN_DOCUMENT, ensure_ascii=False))
    services.rebuild("fantan")
    expected = openskill_ratings([(["Алла", "Богдан", "Вика"], [1, 2, -3]), *FANTAN_POINTS])
    assert stored("fantan") == expected


def test_a_cycle_is_one_match_ranked_by_its_totals_and_two_players_rate_too(django_user_model):
    user = django_user_model.objects.create_user("host")
    names = ["Анна", "Борис", "Вера", "Глеб"]
    # totals 20, 20, 5, 7: Анна and Борис tie for first
    casual(user, "variety", names, [[16, 16, 10, 10], [4, 4, -5, -3]], T0, cycle=True)
    unfinished = casual(user, "variety", names, [[16, 16, 10, 10]], T0, cycle=True)
    Cycle.objects.filter(table=unfinished).update(length=2)  # one deal of two: not rated yet
    casual(user, "leopard", ["Анна", "Борис"], [[10, 7], [3, 12]], T0, cycle=True)
    services.rebuild("variety")
    services.rebuild("leopard")
    assert stored("variety") == openskill_ratings([(names, [20, 20, 5, 7])])
    assert stored("leopard") == openskill_ratings([(["Анна", "Борис"], [13, 19])])
    assert RatedMatch.objects.filter(game="variety").count() == 1


def test_a_table_with_a_robot_seat_is_not_rated(django_user_model):
    user = django_user_model.objects.create_user("host")
    people = club_night.PEOPLE[:4]
    for name in people:
        Player.objects.create(name=name)
    with_robot = club_night.start(user, "fantan", [*people[:3], RobotSeat("club")])
    club_night.play(with_robot, user, deals_over=1)
    assert not RatedMatch.objects.exists()
    people_only = club_night.start(user, "fantan", people)
    club_night.play(people_only, user, deals_over=1)
    assert RatedMatch.objects.get().key == f"table:{people_only.pk}:deal:1"
    assert set(stored("fantan")) == set(people)


def test_a_take_back_that_reopens_a_deal_takes_its_match_out_of_the_ladder(django_user_model):
    user = django_user_model.objects.create_user("host")
    people = club_night.PEOPLE[:4]
    for name in people:
        Player.objects.create(name=name)
    table = club_night.start(user, "fantan", people)
    club_night.play(table, user, deals_over=1)
    deal = Deal.objects.get(table=table)
    assert Rating.objects.filter(game="fantan").count() == 4
    last = deal.events.order_by("-index").first().seat
    game_services.take_back(deal=deal, seat=last, expected_version=deal.version, user=user)
    assert not RatedMatch.objects.exists() and not Rating.objects.exists()
    club_night.play(table, user, deals_over=1)
    assert RatedMatch.objects.count() == 1
    before = snapshot("fantan")
    services.rebuild("fantan")
    assert snapshot("fantan") == before


def test_the_stored_ratings_equal_a_rebuild_after_a_club_night_and_its_corrections():
    """The club night types, confirms, corrects and adjusts sheets, plays tables here and
    casually; a correction and an adjustment of its earliest tournament table re-rate every
    later match, and a sheet counts once it is confirmed."""
    people = club_night.build()
    director = people["director"]
    night = club_night.Tournament.objects.get(name="Клубный вечер")
    confirmed, awaiting = night.rounds.get(number=1).tables.order_by("number")[1:]
    row = confirmed.rows.order_by("index").first()
    results_services.correct_row(
        row=row, data=club_night.typed_row(confirmed, 1), reason="Пересчёт", user=director
    )
    results_services.adjust(
        round_=night.rounds.get(number=1),
        entrant=confirmed.seats.first().entrant,
        points=-5,
        reason="Штраф",
        user=director,
    )
    key = f"tournament:{night.pk}:{awaiting.pk}"
    assert not RatedMatch.objects.filter(key=key).exists()
    results_services.confirm_sheet(table=awaiting, user=people["organiser"])
    assert RatedMatch.objects.filter(key=key).exists()
    assert {"fantan", "leopard"} <= set(RatedMatch.objects.values_list("game", flat=True))
    for game in ("fantan", "variety", "leopard"):
        before = snapshot(game)
        services.rebuild(game)
        assert snapshot(game) == before, game


@given(st.lists(st.integers(2, 4), min_size=1, max_size=40))
def test_a_rating_is_provisional_while_sigma_is_high_and_settles_with_matches(sizes):
    skill_now = skill.START
    for size in sizes:
        skill_now = skill.rate([skill_now] * size, list(range(size)))[size - 1]
        assert skill.provisional(skill_now) == (skill_now[1] >= skill.PROVISIONAL_SIGMA)
    assert skill.provisional(skill.START)


def test_a_regular_player_is_no_longer_provisional_and_a_newcomer_is(django_user_model):
    user = django_user_model.objects.create_user("host")
    names = ["Анна", "Борис", "Вера", "Глеб"]
    for n in range(12):  # each of them first, second, third and last in turn
        points = [[3, 1, -1, -3][(seat + n) % 4] for seat in range(4)]
        casual(user, "fantan", names, [points], T0 + timedelta(hours=n))
    casual(user, "fantan", ["Анна", "Дарья", "Вера"], [[1, 0, -1]], T0 + timedelta(hours=20))
    services.rebuild("fantan")
    marks = {rung.player.name: rung.provisional for rung in ladder.ladder("fantan")}
    assert marks == {"Анна": False, "Борис": False, "Вера": False, "Глеб": False, "Дарья": True}


def test_the_ratings_command_prints_every_rated_player_as_json(django_user_model):
    user = django_user_model.objects.create_user("host")
    casual(user, "fantan", ["Анна", "Борис", "Вера"], [[2, 1, -3]], T0)
    casual(user, "fantan", ["Анна", "Глеб", "Вера"], [[-3, 1, 2]], T0 + timedelta(hours=1))
    out = StringIO()
    call_command("ratings", "rebuild", "fantan", stdout=StringIO())
    call_command("ratings", "fantan", "--json", stdout=out)
    rows = json.loads(out.getvalue())
    expected = openskill_ratings(
        [(["Анна", "Борис", "Вера"], [2, 1, -3]), (["Анна", "Глеб", "Вера"], [-3, 1, 2])]
    )
    assert {row["player"]: (row["mu"], row["sigma"]) for row in rows} == expected
    assert {row["player"]: row["matches"] for row in rows} == {
        "Анна": 2,
        "Борис": 1,
        "Вера": 2,
        "Глеб": 1,
    }
    for row in rows:
        assert row["rating"] == round(1500 + 40 * (row["mu"] - 3 * row["sigma"]))
    ordinals = [row["mu"] - 3 * row["sigma"] for row in rows]
    assert ordinals == sorted(ordinals, reverse=True)


def test_the_ratings_command_refuses_an_unknown_game_in_one_line():
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="no game 'chess'"):
        call_command("ratings", "chess")


@pytest.mark.concurrency
@pytest.mark.django_db(transaction=True)
def test_two_deals_of_the_same_players_finished_at_once_rate_as_a_rebuild_does(django_user_model):
    """Two tables' last actions at the same moment: each re-rates under the ladder's lock,
    so neither rating is computed from a state the other is changing."""
    user = django_user_model.objects.create_user("host")
    people = club_night.PEOPLE[:4]
    for name in people:
        Player.objects.create(name=name)
    finals = []
    for _ in range(2):
        table = club_night.start(user, "fantan", people)
        club_night.play(table, user, deals_over=1)
        deal = Deal.objects.get(table=table)
        last = deal.events.order_by("-index").first()
        game_services.take_back(deal=deal, seat=last.seat, expected_version=deal.version, user=user)
        deal.refresh_from_db()
        finals.append((deal, last.seat, last.data))
    assert not RatedMatch.objects.exists()
    results = []
    barrier = threading.Barrier(2)

    def finish(deal, seat, action):
        try:
            barrier.wait()
            game_services.play(
                deal=deal, seat=seat, action=action, expected_version=deal.version, user=user
            )
            results.append("applied")
        except Exception as exc:  # whatever went wrong, the assertion shows it
            results.append(type(exc).__name__)
        finally:
            connection.close()
            notices.close_loop()

    threads = [threading.Thread(target=finish, args=final) for final in finals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ["applied", "applied"]
    assert RatedMatch.objects.count() == 2
    assert Rating.objects.filter(matches=2).count() == 4
    before = snapshot("fantan")
    services.rebuild("fantan")
    assert snapshot("fantan") == before
