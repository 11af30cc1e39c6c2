"""The limits of a served process, proved against real daphne processes
(tests/support/servers.py): the database connections it holds whatever it answers, the request
bodies it takes in, what its health check tells, and the live pages it keeps telling with
hundreds of sockets open."""

import asyncio
import json
import os
import random
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.db import connection
from django.utils.crypto import get_random_string

from games import selectors
from tests.support.live import new_table, next_post
from tests.support.preconditions import unavailable
from tests.support.servers import (
    REDIS_SERVER,
    Member,
    RedisServer,
    Servers,
    current_database_url,
    free_port,
    server_env,
)

pytestmark = [pytest.mark.servers, pytest.mark.django_db(transaction=True)]

MIB = 1024 * 1024
# The most /healthz may take while big bodies come in: the machine is shared, and its first
# answer may wait while their connections open.
HEALTHZ_SECONDS = 1.5


def server_connections(server) -> int:
    """The connections one server process holds to the test database (its settings name
    them after its pid)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            [connection.settings_dict["NAME"], f"cardclub:{server.process.pid}"],
        )
        return cursor.fetchone()[0]


def needs_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip(
            "connections are counted in PostgreSQL's pg_stat_activity: the suite's second "
            "run, on PostgreSQL, has it"
        )


# -- database connections -----------------------------------------------------------------


def test_a_burst_of_error_pages_holds_no_more_connections_than_the_request_slots(
    served, host, settings
):
    """40 threads ask one process for 400 pages that do not exist, as a signed-in member (each
    404 page shows him signed in): every one answered 404, the process's connections never
    more than its request slots, during the burst or after it, and a page asked for
    afterwards comes at once."""
    needs_postgresql()
    (server,) = served(1)
    member = Member(host)
    most, done = [0], threading.Event()

    def watch():
        try:
            while not done.is_set():
                most[0] = max(most[0], server_connections(server))
                time.sleep(0.005)
        finally:
            connection.close()

    def refused(number: int) -> list[int]:
        session = member.session(server)
        with session:
            return [session.get(f"/t/no-such-table-{number}-{i}/").status_code for i in range(10)]

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        with ThreadPoolExecutor(40) as pool:
            answers = Counter(code for codes in pool.map(refused, range(40)) for code in codes)
        time.sleep(1)  # anything held past the requests would show now
    finally:
        done.set()
        watcher.join(10)
    assert answers == {404: 400}
    assert 0 < most[0] <= settings.REQUEST_SLOTS, most[0]
    assert server_connections(server) <= settings.REQUEST_SLOTS
    started = time.monotonic()
    assert member.session(server).get("/").status_code == 200
    assert time.monotonic() - started < 2


# -- request bodies -----------------------------------------------------------------------


def chunks(total: int, size: int = 64 * 1024):
    """A body of ``total`` bytes sent in chunks, with no Content-Length."""
    piece = b"x" * size
    for _ in range(total // size):
        yield piece


def test_over_long_bodies_are_refused_before_they_are_read(served):
    """Four anonymous 50 MB posts to /replay/ at once, two declared (Content-Length) and two
    sent in chunks without one: each is answered 413 with the short page, within seconds;
    the process's memory grows by a few MB at most, and /healthz keeps answering at once
    meanwhile. A record of a real size still replays."""
    (server,) = served(1)
    # the process's memory once it has served a page and refused a body, as it runs
    requests.post(server.url + "/replay/", data=b"x" * (2 * MIB), timeout=30)
    assert requests.get(server.url + "/healthz", timeout=10).status_code == 200
    rss_before = server.rss_kib()
    answers, took = [], []
    posting = threading.Event()

    def post(body):
        started = time.monotonic()
        try:
            response = requests.post(
                server.url + "/replay/",
                data=body,
                headers={"Accept-Language": "en", "Content-Type": "text/plain"},
                timeout=60,
            )
            answers.append((response.status_code, response.text, time.monotonic() - started))
        except requests.RequestException as exc:
            answers.append((repr(exc), "", time.monotonic() - started))

    def health():
        while posting.is_set():
            started = time.monotonic()
            assert requests.get(server.url + "/healthz", timeout=10).status_code == 200
            took.append(time.monotonic() - started)
            time.sleep(0.02)

    posting.set()
    checker = threading.Thread(target=health, daemon=True)
    checker.start()
    posts = [
        threading.Thread(target=post, args=(body,))
        for body in (b"x" * (50 * MIB), b"y" * (50 * MIB), chunks(50 * MIB), chunks(50 * MIB))
    ]
    for thread in posts:
        thread.start()
    for thread in posts:
        thread.join(90)
    posting.clear()
    checker.join(10)
    grown = server.rss_kib() - rss_before
    assert [status for status, _, _ in answers] == [413] * 4, answers
    assert all("Too large to send" in text and "1024 KiB" in text for _, text, _ in answers)
    assert max(seconds for _, _, seconds in answers) < 15, answers
    assert grown < 8 * 1024, f"the process grew by {grown} KiB"
    assert took and max(took) < HEALTHZ_SECONDS, [f"{s:.2f} s" for s in took]
    record = {"game": "fantan", "options": {}, "players": ["Анна", "Борис", "Вера", "Глеб"]}
    response = requests.post(
        server.url + "/replay/",
        files={"file": ("deal.json", json.dumps(record).encode() + b" " * 200_000)},
        timeout=30,
    )
    assert response.status_code != 413  # the page itself reads it, and says what it finds
    server.check()


def test_the_413_page_is_in_the_readers_language(served):
    """The 413 page speaks the language the browser asks for, among the club's."""
    (server,) = served(1)
    response = requests.post(
        server.url + "/replay/", data=b"x" * (2 * MIB), headers={"Accept-Language": "ru"}
    )
    assert response.status_code == 413
    assert response.headers["Content-Language"] == "ru"
    assert "На главную страницу клуба" in response.text


# -- the health check ---------------------------------------------------------------------


def unreachable_database(tmp_path) -> str:
    if connection.vendor == "postgresql":
        return f"postgresql://postgres@127.0.0.1:{free_port()}/club"
    return f"sqlite:///{tmp_path}/no-such-folder/club.db"


@pytest.mark.parametrize("down", [["database"], ["redis"], ["database", "redis"]])
def test_the_health_check_names_what_is_down(settings, tmp_path, down):
    """A process whose database (a PostgreSQL port nobody listens on, or an SQLite file in a
    folder that does not exist) or whose Redis (a port nobody listens on) cannot be reached
    answers /healthz with 503 naming what is down, and no address, user or password; with
    both reachable, 200 "ok"."""
    settings.SECRET_KEY = "live-" + get_random_string(50)
    if os.access(REDIS_SERVER, os.X_OK):
        redis = RedisServer(log_dir=str(tmp_path)).start()
    else:
        unavailable(f"{REDIS_SERVER} is missing: no private Redis can be started")
    try:
        database = unreachable_database(tmp_path) if "database" in down else None
        redis_url = f"redis://127.0.0.1:{free_port()}/0" if "redis" in down else redis.url
        env = server_env(database or current_database_url(), redis_url, settings.SECRET_KEY)
        with Servers(1, env, log_dir=str(tmp_path), healthy=False) as (server,):
            response = requests.get(server.url + "/healthz", timeout=30)
            assert (response.status_code, response.text) == (503, "down: " + ", ".join(down))
            assert not any(secret in response.text for secret in ("127.0.0.1", "postgres"))
            server.stop()
            server.check()  # a line in the log for each, no traceback
        log = server.log_path.read_text()
        assert ("the database did not answer" in log) == ("database" in down)
        assert ("Redis did not answer" in log) == ("redis" in down)
        env = server_env(current_database_url(), redis.url, settings.SECRET_KEY)
        with Servers(1, env, log_dir=str(tmp_path)) as (server,):
            response = requests.get(server.url + "/healthz", timeout=10)
            assert (response.status_code, response.text) == (200, "ok")
    finally:
        redis.stop()


# -- hundreds of sockets --------------------------------------------------------------------

SOCKETS = 500
WRITES = 4
BETWEEN_WRITES = 4  # seconds: longer than Redis's waiting read for the sockets (5 s) in all


async def watch_every_write(servers, table, session, rng) -> tuple[list, Counter]:
    """``SOCKETS`` spectators' sockets opened all at once over the processes, then
    ``WRITES`` writes posted a few seconds apart: what each socket received, and how each
    ended (closed by the process, or still open at the end)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    path = f"/ws/watch/{table.watch_key}/"
    loop = asyncio.get_running_loop()
    database = ThreadPoolExecutor(1)  # the ORM and requests, off the event loop

    def open_one(index):
        server = servers[index % len(servers)]
        return connect(
            f"ws://127.0.0.1:{server.port}{path}", origin=server.url, proxy=None, open_timeout=120
        )

    received = [[] for _ in range(SOCKETS)]
    endings = Counter()
    closing = False

    async def read(index, socket):
        try:
            async for message in socket:
                received[index].append(json.loads(message)["stamp"])
        except ConnectionClosed:
            pass
        if not closing:  # closed by the process, not at the end
            endings[f"closed {socket.close_code}"] += 1

    def post_next():
        post = next_post(table, rng)
        status = session.post(f"/t/{table.token}/{post.what}", post.fields).status_code
        return status, selectors.deal_stamp(table)

    opened = await asyncio.gather(*(open_one(i) for i in range(SOCKETS)), return_exceptions=True)
    sockets = [s for s in opened if not isinstance(s, BaseException)]
    refused = [repr(s) for s in opened if isinstance(s, BaseException)]
    assert not refused, (len(refused), refused[:3])
    readers = [asyncio.create_task(read(i, s)) for i, s in enumerate(sockets)]
    stamps = [await loop.run_in_executor(database, selectors.deal_stamp, table)]
    try:
        for _ in range(WRITES):
            await asyncio.sleep(BETWEEN_WRITES)
            status, stamp = await loop.run_in_executor(database, post_next)
            assert status == 200
            stamps.append(stamp)
        await asyncio.sleep(3)  # the last notice's way to every socket
        endings["open"] = sum(not reader.done() for reader in readers)
    finally:
        closing = True
        await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
        await asyncio.gather(*readers, return_exceptions=True)
        await loop.run_in_executor(database, lambda: connection.close())  # (the thread's own)
        database.shutdown()
    return [r == stamps for r in received], endings


def test_five_hundred_sockets_over_two_processes_hear_of_every_write(settings, tmp_path, host):
    """500 spectators' sockets opened at once on one table, over two processes and a
    private Redis; four writes a few seconds apart through one process: every socket gets
    the stamp on connecting and each write's, in order, and none is closed under it; the
    processes log no failure of the channel layer, joining, telling or leaving."""
    if connection.vendor != "postgresql":
        pytest.skip(
            "Redis carries the sockets whatever the database: the run on PostgreSQL makes it"
        )
    if not os.access(REDIS_SERVER, os.X_OK):
        unavailable(f"{REDIS_SERVER} is missing: no private Redis can be started")
    settings.SECRET_KEY = "live-" + get_random_string(50)
    redis = RedisServer(log_dir=str(tmp_path)).start()
    try:
        env = server_env(current_database_url(), redis.url, settings.SECRET_KEY)
        with Servers(2, env, log_dir=str(tmp_path)) as servers:
            table = new_table(host, "fantan", seed=4)
            session = Member(host).session(servers[0])
            every, endings = asyncio.run(
                watch_every_write(servers, table, session, random.Random(4))
            )
            servers.stop()
            servers.check()
        assert endings == {"open": SOCKETS}, endings
        assert every.count(True) == SOCKETS, f"{every.count(False)} sockets missed a stamp"
        for server in servers:
            log = server.log_path.read_text()
            for failure in ("channel layer failed", "not joined", "not sent", "not removed"):
                assert failure not in log, (failure, server.log())
    finally:
        redis.stop()
