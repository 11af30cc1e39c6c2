"""Robots at the tables: the new-table form seats them, the server plays their turns
after a pause (whatever page is open) through the same service, log and audit as people's,
once each, and the screen is only ever passed between people. Run for every game."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone, translation

from club.models import AuditEntry
from core import notices
from games import registry, robot_turns, selectors, services
from games.engine.robots import STRENGTHS
from games.models import Deal, DealEvent, Seat, Table
from games.robot_seats import RobotSeat
from tests.support.hotseat import (
    HTMX,
    alert,
    check_hidden,
    current,
    form_fields,
    stamp,
    take_robot_turns,
    take_turn,
    unchanged,
    url,
)

pytestmark = pytest.mark.django_db

GAME_KEYS = sorted(registry.GAMES)
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def quick_robots(settings):
    settings.ROBOT_SAMPLES = 1  # the strong robot searches one sampled deal a move


def seats_of(game: str) -> int:
    rules = registry.rules(game)
    return rules.seats(rules.parse_options({}))


def new_table(client, game: str, seating: list[str], **extra):
    """Post the new-table form: each seat a person's name or a robot's strength."""
    form = registry.game(game).form(game=game)
    data = {}
    for name in form.option_names:  # the options as the form offers them
        value = form[name].value()
        if value not in (None, False):
            data[name] = value
    for i, who in enumerate(seating):
        data[f"robot_{i}" if who in STRENGTHS else f"new_{i}"] = who
    return client.post(f"/tables/new/{game}/", data, **extra)


def seating(game: str, practice: bool) -> list[str]:
    """People and robots round the table: two people with robots between them, or one
    person and robots (in a two-seat game both are one person and a robot)."""
    if seats_of(game) == 2:
        return ["Анна", "strong"]
    return (
        ["Анна", "strong", "club", "beginner"] if practice else ["Анна", "strong", "club", "Борис"]
    )


def play_deal(client, table) -> dict:
    """Play the current deal through the pages: the people by their forms, the robots by the
    server once their pause is over. Check on every page that the screen is passed only from
    one person to another, named, and that a robot's turn shows its pause and no hand."""
    robots = selectors.played_by_robots(table)
    with translation.override("en"):  # as the pages are asked for: a robot's name is worded
        names = selectors.names(table)
    holder = None  # the person who last had the screen
    seen = {"robot turns": 0, "handoffs": 0, "turns kept": 0}
    response = client.get(url(table), **HTMX, **EN)
    for step in range(600):
        deal = current(table)
        if deal.is_over:
            assert "The deal is over" in response.content.decode()
            return seen
        check_hidden(response, table)
        page = response.content.decode()
        hotseat = selectors.load(deal)
        seat = hotseat.state.to_act
        if robots[seat]:
            assert f"{names[seat]} is thinking…" in page
            # the one person of a practice table keeps his hand in view (check_hidden above
            # holds the page to it); between people the screen shows none
            practice = robots.count(False) == 1
            holds = practice and bool(hotseat.state.view(robots.index(False))["hand"])
            assert ('aria-label="Your hand"' in page) == holds
            assert "hx-trigger" not in page  # the page asks nothing: the server plays it
            assert "Pass the screen" not in page
            assert robot_turns.take_due() == 0  # not before its pause
            assert take_robot_turns() == 1
            assert current(table).version > deal.version
            seen["robot turns"] += 1
            response = client.get(url(table), **HTMX, **EN)
            continue
        if hotseat.handoff:
            assert f"Pass the screen to {names[seat]}" in page
            assert holder != seat, "asked to pass the screen to the person who has it"
            seen["handoffs"] += 1
        else:
            assert "Pass the screen" not in page
            assert holder in (seat, None)
            seen["turns kept"] += holder == seat
        take_turn(client, table, choose=step, **HTMX, **EN)
        holder = seat
        response = client.get(url(table), **HTMX, **EN)
    raise AssertionError("the deal did not end")


# every game with two people and robots, and at a practice table (a two-seat game's table of
# one person and a robot is both)
CASES = [
    (game, practice)
    for game in GAME_KEYS
    for practice in (False, True)
    if not (practice and seats_of(game) == 2)
]


@pytest.mark.parametrize(
    "game, practice", CASES, ids=[f"{g}-{'practice' if p else 'people'}" for g, p in CASES]
)
def test_robots_play_whole_deals_beside_people_and_the_screen_passes_between_people_only(
    host_client, game, practice
):
    response = new_table(host_client, game, seating(game, practice))
    assert response.status_code == 302, response.content.decode()[:2000]
    table = selectors.table_by_token(Table.objects.get().token)
    robots = [s.robot for s in table.seats.all()]
    assert [bool(r) for r in robots] == [w in STRENGTHS for w in seating(game, practice)]
    seen = play_deal(host_client, table)
    assert seen["robot turns"] > 0
    events = DealEvent.objects.filter(deal=current(table))
    robot_events = events.filter(kind="robot")
    assert {e.seat for e in robot_events} == {i for i, r in enumerate(robots) if r}
    assert not events.filter(kind="reveal", seat__in=[i for i, r in enumerate(robots) if r])
    # the same audit as a person's action, in the name of nobody: the server played it
    audit = AuditEntry.objects.filter(verb="deal.robot", deal=current(table))
    assert audit.count() == robot_events.count()
    assert {a.user for a in audit} == {None}
    alone = practice or seats_of(game) == 2
    if alone:
        assert seen["handoffs"] == 0 and seen["turns kept"] > 0
        page = host_client.get(url(table), **EN).content.decode()
        assert "practice table" in page
    else:
        assert seen["handoffs"] > 0
        assert "practice table" not in host_client.get(url(table), **EN).content.decode()
    # the next deal at a practice table begins without asking to pass the screen
    response = host_client.post(url(table, "next-deal"), {"deal": 1}, **HTMX, **EN)
    assert response.status_code == 200
    if alone:
        assert "Pass the screen" not in response.content.decode()


@pytest.fixture
def robot_table(host):
    """A table of the first game: a person at seat 1, every other seat a club robot, and the
    robot's turn now."""
    game = GAME_KEYS[0]
    players = ["Анна"] + [RobotSeat("club")] * (seats_of(game) - 1)
    for seed in range(50):
        table = services.start_table(user=host, game=game, players=players, options={}, seed=seed)
        if selectors.load(current(table)).state.to_act != 0:
            return selectors.table_by_token(table.token)
    raise AssertionError("no deal began with a robot's turn")


@pytest.fixture(autouse=True)
def long_pause(settings):
    settings.ROBOT_PAUSE = 60  # no test is slow enough to see a turn fall due by itself


def test_a_robots_turn_falls_due_after_the_pause_and_is_taken_once(robot_table):
    deal = current(robot_table)
    due = Deal.objects.get(pk=deal.pk).robot_due_at
    assert due is not None and due > timezone.now()
    assert robot_turns.next_due() == due
    assert robot_turns.take_due() == 0  # the pause is not over
    unchanged(robot_table, deal)
    assert robot_turns.take_due(due) == 1
    after = current(robot_table)
    assert after.version > deal.version
    assert robot_turns.take_due(due) == 0  # taken: the next robot's pause begins now
    unchanged(robot_table, after)


@pytest.mark.concurrency
@pytest.mark.django_db(transaction=True)
def test_processes_finding_one_robots_turn_at_once_play_it_once(robot_table):
    deal = current(robot_table)
    later = timezone.now() + timedelta(seconds=61)
    results = []
    barrier = threading.Barrier(3)

    def find():
        try:
            barrier.wait()
            results.append(robot_turns.take_due(later))
        except Exception as exc:  # whatever went wrong, the assertion shows it
            results.append(type(exc).__name__)
        finally:
            connection.close()
            notices.close_loop()

    threads = [threading.Thread(target=find) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [0, 0, 1]
    after = current(robot_table)
    robot_events = DealEvent.objects.filter(deal=after, kind="robot")
    assert robot_events.count() == after.version - deal.version > 0
    assert AuditEntry.objects.filter(verb="deal.robot").count() == robot_events.count()


def test_a_claim_whose_process_died_is_taken_again_once_its_lease_is_over(robot_table):
    deal = current(robot_table)
    later = timezone.now() + timedelta(seconds=61)
    # a process claimed the turn and died before writing it
    Deal.objects.filter(pk=deal.pk).update(robot_due_at=later + robot_turns.LEASE)
    assert robot_turns.take_due(later) == 0
    unchanged(robot_table, deal)
    assert robot_turns.take_due(later + robot_turns.LEASE) == 1
    assert current(robot_table).version > deal.version


def test_a_turn_found_due_that_is_no_robots_is_dropped(robot_table, host):
    deal = current(robot_table)
    take_robot_turns()
    while selectors.load(deal := current(robot_table)).state.to_act != 0:
        take_robot_turns()
    # as after an upgrade, every unfinished deal of a table with robots is looked at
    Deal.objects.filter(pk=deal.pk).update(robot_due_at=timezone.now())
    assert robot_turns.take_due() == 0
    unchanged(robot_table, deal)
    assert Deal.objects.get(pk=deal.pk).robot_due_at is None


def test_an_abandoned_tables_robot_plays_no_more(robot_table, host):
    deal = current(robot_table)
    services.abandon_table(table=robot_table, expected_version=robot_table.version, user=host)
    assert take_robot_turns() == 0
    unchanged(robot_table, deal)
    assert robot_turns.next_due() is None


def test_people_cannot_play_a_robots_seat_nor_a_robot_a_persons(host_client, robot_table):
    deal = current(robot_table)
    state = selectors.load(deal).state
    seat = state.to_act
    move = form_fields(robot_table, state.legal_actions()[0])  # a move the robot could make
    for address, fields in (("reveal", {}), ("act", move)):
        response = host_client.post(
            url(robot_table, address), stamp(deal, seat=seat, **fields), **HTMX, **EN
        )
        assert response.status_code == 400
        assert alert(response) == "A robot plays this seat."
        unchanged(robot_table, deal)
    with pytest.raises(services.Refused, match="A person plays this seat, not a robot."):
        services.robot_turn(deal=deal, seat=0, expected_version=deal.version)
    unchanged(robot_table, deal)


def test_the_new_table_form_offers_robots_and_refuses_a_table_of_robots_alone(host_client):
    game = GAME_KEYS[0]
    page = host_client.get(f"/tables/new/{game}/", **EN).content.decode()
    assert 'name="robot_0"' in page and ">strong</option>" in page
    seats = seats_of(game)
    response = new_table(host_client, game, ["club"] * seats, **EN)
    assert response.status_code == 400
    assert "robots do not play alone" in response.content.decode()
    both = {"new_0": "Анна", "robot_0": "club", **{f"robot_{i}": "club" for i in range(1, seats)}}
    response = host_client.post(f"/tables/new/{game}/", both, **EN)
    assert response.status_code == 400
    assert "Seat a person or a robot, not both." in response.content.decode()
    forged = {"new_0": "Анна", **{f"robot_{i}": "grandmaster" for i in range(1, seats)}}
    assert host_client.post(f"/tables/new/{game}/", forged, **EN).status_code == 400
    assert not Table.objects.exists() and not Seat.objects.exists()


@pytest.mark.parametrize("game", GAME_KEYS)
def test_a_practice_table_names_the_hand_it_shows_while_a_robot_thinks(host, host_client, game):
    players = ["Анна"] + [RobotSeat("club")] * (seats_of(game) - 1)
    for seed in range(50):
        table = services.start_table(user=host, game=game, players=players, options={}, seed=seed)
        if selectors.load(current(table)).state.to_act != 0:
            break
    page = host_client.get(url(table), **EN).content.decode()
    thinking, owner, hand = (
        page.index(part)
        for part in (
            ") is thinking…",
            '<p class="hand-of">Анна\'s hand</p>',
            'aria-label="Your hand"',
        )
    )
    assert thinking < owner < hand  # the robot's turn, then whose hand stays in view
