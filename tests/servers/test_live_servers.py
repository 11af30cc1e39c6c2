"""Proofs of the live pages against real daphne processes (tests/support/servers.py), their sockets
opened by a real websocket client as a browser opens them.

Two processes share their notices only through Redis: the proofs across processes run in the
suite's second run (PostgreSQL and Redis) and are skipped in the first. The proof of Redis
stopped mid-deal brings a private redis-server of its own and runs in both.
"""

import json
import os
import random
import re
import time

import pytest
import requests
from django.contrib.auth.models import Group
from django.utils.crypto import get_random_string
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from club.roles import DIRECTOR
from core.consumers import CLOSE_LAYER_FAILED, CLOSE_REFUSED_FRAME
from games import selectors
from tests.support.accounts import user_in
from tests.support.live import assert_in_log, assert_log_explains_every_deal, new_table, next_post
from tests.support.preconditions import unavailable
from tests.support.servers import (
    REDIS_SERVER,
    Member,
    RedisServer,
    Server,
    Servers,
    current_database_url,
    redis_url,
    server_env,
)
from tests.support.tournaments import SHORT_CYCLE, TOTALS, points_of, sheet_post
from tournaments import services as tournament_services
from tournaments.models import RoundTable, Tournament

pytestmark = [pytest.mark.servers, pytest.mark.django_db(transaction=True)]

LATENCY = 1.0  # the most a notice may take to reach a page, from the answer to the write
WAIT = 5.0  # how long a receive waits before the test gives up (the latency is asserted apart)
ACTIONS = 10
RECONNECT_SECONDS = 10  # the page's script retries for longer; the test gives up after this


def open_socket(
    server: Server, path: str, member: Member | None = None, timeout: float = WAIT
) -> ClientConnection:
    """A live page's socket on ``server``, as a browser on the club's address opens it."""
    headers = {}
    if member is not None:
        headers["Cookie"] = f"sessionid={member.cookies['sessionid']}"
    return connect(
        f"ws://127.0.0.1:{server.port}{path}",
        origin=server.url,
        additional_headers=headers,
        proxy=None,
        open_timeout=timeout,
    )


def stamp(socket: ClientConnection, timeout: float = WAIT) -> list[int]:
    return json.loads(socket.recv(timeout=timeout))["stamp"]


def assert_nothing_more(socket: ClientConnection, seconds: float = 0.3) -> None:
    with pytest.raises(TimeoutError):
        socket.recv(timeout=seconds)


def needs_redis():
    if redis_url() is None:
        pytest.skip(
            "two processes tell each other's pages only through Redis: REDIS_URL is "
            "unset in this run (the suite's second run, on Redis, has it)"
        )


def play(session, table, rng) -> tuple:
    """The table's next post through ``session``: the post, and when its 200 came back."""
    post = next_post(table, rng)
    response = session.post(f"/t/{table.token}/{post.what}", post.fields)
    answered = time.perf_counter()
    assert response.status_code == 200, (post, response.status_code, response.text[:500])
    return post, answered


# -- one process ---------------------------------------------------------------------------


def test_whatever_a_page_sends_closes_its_socket_cleanly_on_a_served_process(served, fantan_table):
    """The pages send nothing: a text or a binary frame closes the socket with a code
    daphne can send, and the process logs no traceback (``served`` checks its log)."""
    (server,) = served(1)
    for frame in ("not json", b"\x00\xff"):
        with open_socket(server, f"/ws/watch/{fantan_table.watch_key}/") as socket:
            assert stamp(socket) == selectors.deal_stamp(fantan_table)
            socket.send(frame)
            with pytest.raises(ConnectionClosed) as closed:
                socket.recv(timeout=WAIT)
        assert closed.value.rcvd.code == CLOSE_REFUSED_FRAME


# -- two processes, one Redis ---------------------------------------------------------------


def test_a_spectator_on_one_process_sees_each_action_posted_through_another_within_a_second(
    served, host
):
    """A spectator's socket and the host page's socket (his session cookie) on process A; ten
    writes (reveals, actions) posted one after another through process B: each one's stamp
    reaches both sockets, none lost, none twice, in order, the slowest within a second of
    B's answer."""
    needs_redis()
    a, b = served(2)
    table = new_table(host, "fantan", seed=5)
    member = Member(host)
    session = member.session(b)
    rng = random.Random(1)
    latencies = []
    with (
        open_socket(a, f"/ws/watch/{table.watch_key}/") as watcher,
        open_socket(a, f"/ws/t/{table.token}/", member) as host_page,
    ):
        sockets = (watcher, host_page)
        assert [stamp(s) for s in sockets] == [selectors.deal_stamp(table)] * 2
        for _ in range(ACTIONS):
            post, answered = play(session, table, rng)
            now = selectors.deal_stamp(table)
            assert [stamp(s) for s in sockets] == [now, now], post
            latencies.append(time.perf_counter() - answered)
        for socket in sockets:
            assert_nothing_more(socket)
    assert selectors.deal_stamp(table) == [1, ACTIONS]  # (the ten writes were in one deal)
    assert max(latencies) < LATENCY, [f"{s * 1000:.0f} ms" for s in latencies]


def test_a_tournament_page_on_one_process_follows_a_director_on_another(served, django_user_model):
    """A tournament's socket on process A; through process B a director enters four players,
    draws and releases a round and types in its sheet: each new version reaches A's socket
    (every one, in order) within a second of B's answer, and the standings fetched from A
    afterwards carry the last one."""
    needs_redis()
    Group.objects.get_or_create(name=DIRECTOR)  # (a transactional test may have flushed it)
    director = user_in(django_user_model, "director", DIRECTOR)
    tournament = tournament_services.create_tournament(
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
    key = tournament.key
    a, b = served(2)
    session = Member(director).session(b)

    def version() -> int:
        return Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)

    def table_sheet() -> tuple[str, dict]:
        table = RoundTable.objects.get(round__tournament=tournament)
        return f"/tournaments/{key}/tables/{table.pk}/sheet/", sheet_post(SHORT_CYCLE)

    steps = [
        *[
            lambda name=name: (f"/tournaments/{key}/run/enter", {"enter-name": name})
            for name in ("Анна", "Борис", "Вера", "Глеб")
        ],
        lambda: (f"/tournaments/{key}/run/draw", {}),
        lambda: (f"/tournaments/{key}/run/rounds/1/release", {}),
        table_sheet,
    ]
    latencies = []
    with open_socket(a, f"/ws/tournaments/{key}/") as socket:
        seen = version()
        assert stamp(socket) == [seen]
        for step in steps:
            path, fields = step()
            response = session.post(path, fields)
            answered = time.perf_counter()
            assert response.status_code == 302, (path, response.status_code, response.text[:500])
            now = version()
            assert now > seen, path
            # every version in between (one write may make more than one), in order
            assert [stamp(socket) for _ in range(now - seen)] == [
                [v] for v in range(seen + 1, now + 1)
            ]
            latencies.append(time.perf_counter() - answered)
            seen = now
        assert_nothing_more(socket)
    assert max(latencies) < LATENCY, [f"{s * 1000:.0f} ms" for s in latencies]
    page = requests.get(f"{a.url}/tournaments/{key}/standings/", timeout=10)
    assert page.status_code == 200
    assert f'data-stamp="{seen}"' in page.text
    assert sorted(points_of(tournament).values()) == sorted(TOTALS)  # the typed sheet counted


# -- Redis stopped mid-deal -----------------------------------------------------------------


def test_redis_stopped_mid_deal_loses_no_write_and_the_pages_catch_up(settings, tmp_path, host):
    """Two processes on a private Redis, a spectator's socket on A, writes posted through B.
    Redis is killed (SIGKILL): the socket is closed, every further write is still answered
    200 and is in the deal's log (no 5xx). Redis is started again on its port: the page's
    socket, reconnecting as its script does, first gets the stamp now (the page catches up),
    then the next write's; neither process logged a traceback, each logged a line instead."""
    if not os.access(REDIS_SERVER, os.X_OK):
        unavailable(f"{REDIS_SERVER} is missing: no private Redis can be started and killed")
    settings.SECRET_KEY = "live-" + get_random_string(50)
    redis = RedisServer(log_dir=str(tmp_path)).start()
    try:
        env = server_env(current_database_url(), redis.url, settings.SECRET_KEY)
        with Servers(2, env, log_dir=str(tmp_path)) as servers:
            a, b = servers
            run_redis_stopped_mid_deal(redis, a, b, host)
            servers.stop()
            servers.check()
            # a line for each failure instead: the notices B could not send, A's socket
            assert re.search(r"notice to table\.\d+ not sent", b.log_path.read_text())
            assert "live page dropped: the channel layer failed" in a.log_path.read_text()
    finally:
        redis.stop()


def run_redis_stopped_mid_deal(redis: RedisServer, a: Server, b: Server, host) -> None:
    table = new_table(host, "fantan", seed=9)
    session = Member(host).session(b)
    rng = random.Random(3)
    watch = f"/ws/watch/{table.watch_key}/"
    posts = []
    with open_socket(a, watch) as socket:
        assert stamp(socket) == selectors.deal_stamp(table)
        for _ in range(3):
            post, _answered = play(session, table, rng)
            posts.append(post)
            assert stamp(socket) == selectors.deal_stamp(table), post

        redis.kill()
        for _ in range(5):
            post, _answered = play(session, table, rng)  # 200, though no notice can be sent
            posts.append(post)
        # the page learns that it is disconnected (its script then retries)
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=WAIT)
        assert closed.value.rcvd.code == CLOSE_LAYER_FAILED
    for post in posts:
        assert_in_log(table, post)
    assert selectors.deal_stamp(table) == [1, len(posts)]

    redis.start()
    socket = reconnect(a, watch)
    with socket:
        assert stamp(socket) == selectors.deal_stamp(table)  # the page catches up
        post, _answered = play(session, table, rng)
        posts.append(post)
        assert stamp(socket) == selectors.deal_stamp(table), post
        assert_nothing_more(socket)
    assert_in_log(table, post)
    assert_log_explains_every_deal(table)


def reconnect(server: Server, path: str) -> ClientConnection:
    """Open the socket again and again, as the page's script does (half a second, then twice
    as long each time, at most five), until it is accepted."""
    deadline = time.monotonic() + RECONNECT_SECONDS
    delay = 0.5
    while True:
        try:
            return open_socket(server, path, timeout=2)
        except (InvalidStatus, ConnectionClosed, OSError) as exc:
            if time.monotonic() + delay > deadline:
                raise AssertionError(f"no socket within {RECONNECT_SECONDS} s: {exc!r}") from exc
            time.sleep(delay)
            delay = min(delay * 2, 5)
