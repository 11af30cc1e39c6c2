"""Proofs against real daphne processes (tests/support/servers.py) on the test database: SQLite in
the first run of the suite, PostgreSQL (and Redis) in the second. The tables' data is committed
(transactional tests) so that the processes see it."""

import random
import threading
import time
from collections import Counter

import pytest
from django.db import connection
from django.utils.crypto import get_random_string

from games import selectors, services
from games.models import Deal
from games.registry import GAMES
from tests.support.hotseat import current, form_fields
from tests.support.live import (
    Stream,
    assert_in_log,
    assert_log_explains_every_deal,
    new_table,
    next_post,
)
from tests.support.servers import (
    Member,
    Server,
    ServerFailed,
    Servers,
    other_sessions,
    server_env,
)

pytestmark = [pytest.mark.servers, pytest.mark.django_db(transaction=True)]


def pg_connections(server: Server | None = None) -> int | None:
    """Connections to the test database now: all of them (this test's own included), or
    those of one server process (its settings name them after its pid); None on SQLite."""
    if connection.vendor != "postgresql":
        return None
    query = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
    params = [connection.settings_dict["NAME"]]
    if server is not None:
        query += " AND application_name = %s"
        params.append(f"cardclub:{server.process.pid}")
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        return cursor.fetchone()[0]


def assert_within_the_pools(servers, slots: int) -> None:
    """On PostgreSQL: each process holds at most its pool's connections (REQUEST_SLOTS),
    and none is held by anyone but the processes and this test (by their connections'
    names: a backend whose client has just closed it is listed a moment longer)."""
    if connection.vendor != "postgresql":
        return
    held = [pg_connections(server) for server in servers]
    assert all(count <= slots for count in held), (held, slots)
    ours = [f"cardclub:{server.process.pid}" for server in servers]
    ours.append(connection.settings_dict["OPTIONS"]["application_name"])
    assert other_sessions(connection, besides=ours) == []


class PeakConnections(threading.Thread):
    """On PostgreSQL, while in its ``with``: the most connections to the test database seen
    at once, those of one server process (or all, its own included), polled from a
    connection of its own."""

    def __init__(self, server: Server | None = None):
        super().__init__(daemon=True)
        self.server = server
        self.most = 0
        self.done = threading.Event()

    def run(self):
        try:
            while not self.done.is_set():
                self.most = max(self.most, pg_connections(self.server))
                time.sleep(0.002)
        finally:
            connection.close()

    def __enter__(self):
        if connection.vendor == "postgresql":
            self.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        if self.is_alive():
            self.join(10)


def test_fifty_concurrent_submissions_of_one_turn_apply_exactly_one(
    served, fantan_table, host, settings
):
    """50 threads post the same action of the same deal and version at once to one daphne
    process: one is applied, 49 are refused as stale (409), none fails (no 5xx, no "database
    is locked", no "too many clients"); on PostgreSQL the process never holds more
    connections than its request slots."""
    (server,) = served(1)
    deal = current(fantan_table)
    seat = selectors.load(deal).state.to_act
    services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=host)
    deal = current(fantan_table)
    action = selectors.load(deal).state.legal_actions()[0]
    version = deal.version
    fields = {
        "deal": deal.number,
        "version": version,
        "seat": seat,
        **form_fields(fantan_table, action),
    }
    member = Member(host)
    sessions = [member.session(server) for _ in range(50)]
    for session in sessions:  # each thread's connection is open before the race
        assert session.get("/healthz").status_code == 200
    barrier = threading.Barrier(len(sessions))
    answers = []

    def submit(session):
        try:
            barrier.wait()
            answers.append(session.post(f"/t/{fantan_table.token}/act", fields).status_code)
        except Exception as exc:  # whatever went wrong, the assertion shows it
            answers.append(repr(exc))

    threads = [threading.Thread(target=submit, args=(s,)) for s in sessions]
    with PeakConnections(server) as peak:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    for session in sessions:
        session.close()
    server.check()
    assert Counter(answers) == {200: 1, 409: 49}
    if connection.vendor == "postgresql":  # the burst queued for the process's request slots
        assert 0 < peak.most <= settings.REQUEST_SLOTS, peak.most
    deal = Deal.objects.get(pk=deal.pk)
    assert deal.version == version + 1
    assert deal.events.count() == version + 1
    last = deal.events.get(index=version)
    assert (last.kind, last.seat, last.data) == ("action", seat, action)
    assert_within_the_pools([server], settings.REQUEST_SLOTS)


def test_a_process_killed_mid_stream_loses_no_acknowledged_action(served, host):
    """A screen keeps playing a table (reveal, act, next deal) while its daphne process is
    killed with SIGKILL and started again: every action answered 200 is in the log, every
    deal's snapshot is its log rebuilt, and the table plays on."""
    (server,) = served(1)
    table = new_table(host, "fantan", seed=3)
    member = Member(host)
    stream = Stream(table, [member.session(server)], seed=1)
    stream.start()

    def acknowledged_at_least(count, timeout=20):
        deadline = time.monotonic() + timeout
        while len(stream.acknowledged()) < count and time.monotonic() < deadline:
            assert stream.is_alive(), stream.error
            time.sleep(0.01)
        assert len(stream.acknowledged()) >= count, stream.statuses()

    try:
        acknowledged_at_least(15)
        time.sleep(random.uniform(0, 0.05))  # anywhere in a request, or between two
        server.kill()
        at_kill = len(stream.acknowledged())
        server.restart()
        acknowledged_at_least(at_kill + 15)
    finally:
        stream.finish()
    statuses = stream.statuses()
    assert {s for s in statuses if isinstance(s, int)} == {200}, statuses
    assert any(isinstance(s, str) for s in statuses), "no post met the dead process"
    for post in stream.acknowledged():
        assert_in_log(table, post)
    assert_log_explains_every_deal(table)
    session, rng = member.session(server), random.Random(2)
    for _ in range(3):  # and the table plays on: a reveal or a next deal first, if due
        post = next_post(table, rng)
        assert session.post(f"/t/{table.token}/{post.what}", post.fields).status_code == 200
        assert_in_log(table, post)
        if post.what == "act":
            break
    assert post.what == "act"
    server.check()


def test_ten_busy_tables_on_two_processes(served, host, settings):
    """Ten tables, each played on by its own screen, their posts spread over two daphne
    processes, for a few seconds: every post answered 200 (no 5xx, no conflict between
    processes), every deal's snapshot is its log rebuilt; on PostgreSQL each process holds
    no more connections than its request slots."""
    servers = served(2)
    games = list(GAMES)
    tables = [new_table(host, games[i % len(games)], seed=i) for i in range(10)]
    member = Member(host)
    streams = [
        Stream(table, [member.session(s) for s in servers], seed=i)
        for i, table in enumerate(tables)
    ]
    for stream in streams:
        stream.start()
    # A few seconds of play, longer on a loaded machine: until every table has had five
    # answered posts (no rate is asserted; the machine is shared).
    time.sleep(4)
    give_up = time.monotonic() + 60
    while any(len(s.acknowledged()) < 5 for s in streams) and time.monotonic() < give_up:
        time.sleep(0.1)
    for stream in streams:
        stream.finish(timeout=60)
    servers.check()
    statuses = Counter()
    for stream in streams:
        statuses.update(stream.statuses())
    assert set(statuses) == {200}, statuses
    assert all(len(stream.acknowledged()) >= 5 for stream in streams), [
        len(stream.acknowledged()) for stream in streams
    ]
    for table in tables:
        assert_log_explains_every_deal(table)
    assert_within_the_pools(servers, settings.REQUEST_SLOTS)


def test_a_server_error_fails_the_test_with_the_log(settings, tmp_path, host):
    """The harness itself: a process whose database cannot be opened answers 500 and logs a
    traceback, and ``check`` fails showing it (so the proofs above would)."""
    settings.SECRET_KEY = "live-" + get_random_string(50)
    broken = server_env(f"sqlite:///{tmp_path}/no-such-folder/club.db", None, settings.SECRET_KEY)
    with Servers(1, broken, log_dir=str(tmp_path), healthy=False) as (server,):
        assert Member(host).session(server).get("/").status_code == 500
    with pytest.raises(ServerFailed, match="(?s)traceback.*unable to open database"):
        server.check()
