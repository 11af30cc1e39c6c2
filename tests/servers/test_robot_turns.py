"""A robot's turn is the server's: real daphne processes take it after its pause with no page
of the table open, a turn due when the process was killed is taken once it starts again, and
two processes that both find the turns take each once."""

import random
import time

import pytest

from club.models import AuditEntry
from games import selectors, services
from games.models import Deal, DealEvent
from games.robot_seats import RobotSeat
from tests.support.hotseat import current
from tests.support.live import assert_log_explains_every_deal, next_post
from tests.support.servers import Member

pytestmark = [pytest.mark.servers, pytest.mark.django_db(transaction=True)]


def practice_table(host, players, to_act: str, seed_from: int = 0):
    """Фантан: Анна and three robots, the deal's first turn Анна's (``to_act="person"``)
    or a robot's."""
    for seed in range(seed_from, seed_from + 200):
        table = services.start_table(
            user=host,
            game="fantan",
            players=[players[0], RobotSeat("beginner"), RobotSeat("club"), RobotSeat("beginner")],
            options={},
            seed=seed,
        )
        first = selectors.load(current(table)).state.to_act
        if (first == 0) == (to_act == "person"):
            return selectors.table_by_token(table.token)
    raise AssertionError("no such deal")


def wait_until(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def robots_moved(table, version: int) -> bool:
    return current(table).version > version


def annas_turn(table) -> bool:
    return selectors.load(current(table)).state.to_act == 0


def test_the_server_takes_a_robots_turn_after_its_pause_with_no_page_open(served, host, players):
    table = practice_table(host, players, to_act="robot")
    (server,) = served(1, ROBOT_PAUSE="0.5")
    # nobody opens anything: the process found the turn due at its start, and the robots
    # play, a pause each, up to Анна's turn
    wait_until(lambda: annas_turn(table), 15, "the robots did not play up to Анна's turn")
    deal = current(table)
    assert DealEvent.objects.filter(deal=deal, kind="robot").count() == deal.version - 1
    # Анна plays from her screen; the robots after her play on by themselves
    session = Member(host).session(server)
    post = next_post(table, random.Random(1))
    assert session.post(f"/t/{table.token}/{post.what}", post.fields).status_code == 200
    version = current(table).version
    wait_until(
        lambda: robots_moved(table, version) and annas_turn(table) or current(table).is_over,
        15,
        "the robots did not play after Анна",
    )
    assert_log_explains_every_deal(table)
    server.check()


def test_a_robots_turn_due_when_the_process_died_is_taken_once_it_starts_again(
    served, host, players
):
    table = practice_table(host, players, to_act="person")
    (server,) = served(1, ROBOT_PAUSE="2")
    session = Member(host).session(server)
    rng = random.Random(2)
    post = next_post(table, rng)
    if post.what == "reveal":  # a practice table shows its one person's hand unasked
        post = next_post(table, rng)
    assert session.post(f"/t/{table.token}/{post.what}", post.fields).status_code == 200
    server.kill()  # while the robot's turn waits out its pause
    version = current(table).version
    assert Deal.objects.get(pk=current(table).pk).robot_due_at is not None
    time.sleep(2.5)
    assert current(table).version == version, "a dead process played"
    server.restart()
    wait_until(lambda: robots_moved(table, version), 15, "the robot's turn was never taken")
    deal = current(table)
    robot = DealEvent.objects.filter(deal=deal, kind="robot")
    assert robot.count() == AuditEntry.objects.filter(verb="deal.robot", deal=deal).count() > 0
    assert_log_explains_every_deal(table)
    server.check()


def test_two_processes_take_every_robots_turn_once(served, host, players):
    tables = [practice_table(host, players, "robot", seed_from=200 * i) for i in range(4)]
    servers = served(2, ROBOT_PAUSE="0.2")
    wait_until(
        lambda: all(annas_turn(t) for t in tables),
        30,
        "the robots did not play up to Анна's turn at every table",
    )
    for table in tables:
        deal = current(table)
        robot = DealEvent.objects.filter(deal=deal, kind="robot")
        assert robot.count() == deal.version - 1 > 0
        assert AuditEntry.objects.filter(verb="deal.robot", deal=deal).count() == robot.count()
        assert Deal.objects.get(pk=deal.pk).robot_due_at is None
        assert_log_explains_every_deal(table)
    servers.check()
