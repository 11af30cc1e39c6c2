"""A full club, made through the services as a club night would make it: tables of every game
with people, with robots and practice tables, in play, between deals, finished and abandoned,
renamed and not; tournaments of every game in draft, released and complete, with a bye, a
withdrawal, a table played here (and one on the players' own devices), typed, confirmed and
corrected rows and an adjustment; and a
member of each role (the director directs every tournament, the scorers score them).
``build()`` returns the members by role."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from club.models import Player
from club.roles import DIRECTOR, ORGANISER, PLAYER
from games import registry, selectors, services
from games.robot_seats import RobotSeat
from tests.support import DOCUMENTS
from tournaments import document, roles
from tournaments import services as tournament_services
from tournaments.models import RoundTable, Tournament
from tournaments.results import services as results_services
from tournaments.run import services as run_services

PEOPLE = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Alice", "Bob", "Carol", "Dave", "Ева"]
LIMIT = 2000  # events: far more than any deal below needs


def member(name: str, *groups: str, staff: bool = False, player: str | None = None):
    user = get_user_model().objects.create_user(
        name, password="pw-for-tests-only", is_staff=staff, is_superuser=staff
    )
    for group in groups:
        user.groups.add(Group.objects.get(name=group))
    if player:
        Player.objects.filter(name=player).update(user=user)
    return user


def play(table, user, deals_over: int = 0, events: int | None = None) -> None:
    """Play the table through the services as its screen would (hands revealed, robots asked
    for their turns) until ``deals_over`` more deals are over, or ``events`` more events of
    the current deal are written."""
    for _ in range(LIMIT):
        deal = selectors.current_deal(table)
        deal.table = table
        hotseat = selectors.load(deal)
        state = hotseat.state
        if state.is_over():
            if deals_over == 0:
                return
            deals_over -= 1
            if deals_over == 0:
                return
            services.next_deal(table=table, after=deal.number, user=user)
            continue
        if events is not None:
            if events == 0:
                return
            events -= 1
        seat = state.to_act
        if services.robot_strength(table, seat):
            services.robot_turn(deal=deal, seat=seat, expected_version=deal.version, user=user)
        elif hotseat.handoff:
            services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=user)
        else:
            action = (state.steps() or state.legal_actions())[0]
            services.play(
                deal=deal,
                seat=seat,
                expected_version=deal.version,
                user=user,
                action={k: v for k, v in action.items() if k != "seat"},
                device=seat in hotseat.devices,  # a device seat plays from its own page
            )
    raise AssertionError(f"the {table.game} table never got where it was asked to")


def start(user, game: str, players: list, devices=frozenset(), **options):
    return services.start_table(
        user=user, game=game, players=players, options=options, seed=3, devices=devices
    )


def seats_of(game: str) -> int:
    rules = registry.rules(game)
    return rules.seats(rules.parse_options({}))


def tables(player_user, director) -> None:
    """Each game's tables in every state, a practice table of the player's among them."""
    anna = Player.objects.get(name="Анна")
    for game in registry.GAMES:
        count = seats_of(game)
        people = PEOPLE[:count]
        start(player_user, game, [anna, *people[1:]])  # the first hand-off
        play(start(player_user, game, people), player_user, events=9)  # in play
        # seats on their own devices (Анна's among them: her front page links to it), in play
        # and between deals: their host page links to each seat's own page
        on_devices = start(player_user, game, [anna, *people[1:]], devices={0, 1})
        play(on_devices, player_user, events=7)
        play(start(director, game, people, devices={1}), director, deals_over=1)
        between = start(director, game, people)
        play(between, director, deals_over=1)  # a deal over, the next not dealt
        finished = start(director, game, people)
        play(finished, director, deals_over=1)
        services.finish_table(table=finished, expected_version=finished.version, user=director)
        abandoned = start(director, game, people)
        play(abandoned, director, events=5)
        abandoned.refresh_from_db()
        services.rename_table(
            table=abandoned, name=f"Вечер {game}", expected_version=abandoned.version, user=director
        )
        abandoned.refresh_from_db()
        services.abandon_table(table=abandoned, expected_version=abandoned.version, user=director)
        if registry.robots(game) is not None:
            practice = start(player_user, game, [anna] + [RobotSeat("beginner")] * (count - 1))
            play(practice, player_user, events=6)
            mixed = start(player_user, game, [anna, RobotSeat("club")] + people[2:count])
            play(mixed, player_user, deals_over=1)


def imported(name: str, director):
    doc = document.read((DOCUMENTS / name).read_text(encoding="utf-8"))
    return tournament_services.import_document(doc=doc, user=director)


def typed_row(table: RoundTable, first_out: int) -> dict:
    seats = table.seats.count()
    return {
        "finish_order": [first_out],
        "cards_left": [0 if seat == first_out else 2 for seat in range(seats)],
    }


VARIETY_ROW = {"contract": 2, "attackers": [0, 1], "scores": [16, 16, 10, 10]}


def tournaments(director, scorer, other_scorer) -> None:
    # Фантан, the club night: ten entrants, tables of 4, 3 and 3, sheets checked twice
    night = tournament_services.create_tournament(
        user=director,
        name="Клубный вечер",
        game="fantan",
        options={"scoring": "cards"},
        settings={"deals": 2},
        rounds_planned=2,
        seating="mixing",
        seed=11,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
        confirmation=True,
    )
    name_scorers(night, director, scorer, other_scorer)
    for name in PEOPLE:
        run_services.add_entrant(tournament=night, player=name, user=director)
    first = run_services.draw_round(tournament=night, user=director)
    run_services.release_round(round_=first, user=director)
    here, confirmed, awaiting = first.tables.order_by("number")
    table = run_services.play_here(table=here, user=director).hotseat
    play(table, director, deals_over=1)
    for typed in (confirmed, awaiting):
        results_services.enter_sheet(
            table=typed, user=scorer, rows=[typed_row(typed, 0), typed_row(typed, 1)]
        )
    results_services.confirm_sheet(table=confirmed, user=other_scorer)
    row = confirmed.rows.order_by("index").first()
    results_services.correct_row(
        row=row, data=typed_row(confirmed, 2), reason="Опечатка в протоколе", user=scorer
    )
    results_services.adjust(
        round_=first,
        entrant=night.entrants.get(number=2),
        points=-2,
        reason="Опоздание",
        user=director,
    )
    run_services.withdraw(entrant=night.entrants.get(number=10), user=director)
    # Выборы: nine entrants, a bye, a table played here, the second round a draft
    cup = tournament_services.create_tournament(
        user=director,
        name="Кубок",
        game="variety",
        options={"cycle": "short"},
        settings={},
        rounds_planned=3,
        seating="mixing",
        seed=7,
        bye_points=3,
        order=["match_points", "points", "opponents", "wins"],
    )
    for name in PEOPLE[:9]:
        run_services.add_entrant(tournament=cup, player=name, user=director)
    first = run_services.draw_round(tournament=cup, user=director)
    run_services.release_round(round_=first, user=director)
    table = run_services.play_here(table=first.tables.order_by("number")[0], user=director).hotseat
    play(table, director, events=20)
    # its other table reports itself from the players' phones: a row confirmed, one awaiting
    reported = first.tables.order_by("number")[1]
    results_services.report_row(
        table=reported, seat=0, data=VARIETY_ROW, seen=results_services.report_version(reported)
    )
    results_services.confirm_reported_row(
        table=reported, seat=1, seen=results_services.report_version(reported)
    )
    results_services.report_row(
        table=reported, seat=2, data=VARIETY_ROW, seen=results_services.report_version(reported)
    )
    run_services.draw_round(tournament=cup, user=director)
    # Леопард on the players' phones: its table played here, every seat on its own device
    phones = tournament_services.create_tournament(
        user=director,
        name="Вечер на телефонах",
        game="leopard",
        options={"deals": 1},
        settings={},
        rounds_planned=2,
        seating="swiss",
        seed=3,
        bye_points=1,
        order=["match_points", "points", "opponents", "wins"],
    )
    for name in PEOPLE[:2]:
        run_services.add_entrant(tournament=phones, player=name, user=director)
    first = run_services.draw_round(tournament=phones, user=director)
    run_services.release_round(round_=first, user=director)
    run_services.play_here(table=first.tables.get(), user=director, devices=True)
    # Леопард and Фантан imported complete; a Леопард tournament with no round yet
    imported("leopard-swiss-four.json", director)
    imported("fantan-seven-cards.json", director)
    draft = tournament_services.create_tournament(
        user=director,
        name="Leopard open",
        game="leopard",
        options={},
        settings={},
        rounds_planned=2,
        seating="swiss",
        seed=5,
        bye_points=1,
        order=["match_points", "points", "opponents", "wins"],
    )
    for name in PEOPLE[:5]:
        run_services.add_entrant(tournament=draft, player=name, user=director)
    for other in Tournament.objects.exclude(pk=night.pk):
        name_scorers(other, director, scorer)


def build() -> dict:
    """The club, and a member of each role: {"player", "scorer", "director", "organiser",
    "staff"}."""
    for name in PEOPLE:
        Player.objects.get_or_create(name=name)
    users = {
        "player": member("anna", PLAYER, player="Анна"),
        "scorer": member("scorer", PLAYER),
        "director": member("director", DIRECTOR),
        "organiser": member("organiser", ORGANISER),
        "staff": member("admin", staff=True),
    }
    second_scorer = member("scorer2", PLAYER)
    tables(users["player"], users["director"])
    tournaments(users["director"], users["scorer"], second_scorer)
    return users


def name_scorers(tournament, director, *scorers) -> None:
    for scorer in scorers:
        roles.name_official(tournament=tournament, account=scorer, role="scorer", by=director)
