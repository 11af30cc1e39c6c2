"""``python -m bench.fanout`` (in ``make bench``): one action reaching 100 spectators
against reaching one, through real daphne processes on PostgreSQL and Redis.

It makes a throw-away PostgreSQL database (``bench_fanout``, migrated by ``manage.py migrate``
in a subprocess) and drops it at the end, and uses Redis database 6 for the channel layer
(emptied before and after). Two daphne processes serve; N spectators' sockets (the websockets
client, all in this process's event loop) are opened on one table's ``/ws/watch/<key>/``,
spread over both processes in turn, the first on the process the posts go to. Then ``ACTIONS``
writes (reveals and actions, as the hotseat screen of a table of the registry's first game
posts them) go one after another through that process; each is timed from just before its
POST until every one of the N sockets has received its stamp. A few writes first warm up and
are not counted. The client, the processes, PostgreSQL and Redis share this machine's cores.

The requirement: the median for 100 spectators is at most ten times the median for one, and
no message is lost. It exits 1 when either fails, or on a non-200 answer or a traceback in a
process's log; when PostgreSQL or Redis cannot be reached it says so and exits 0, its
figures left as they were.
"""

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bench import figures as figures_file
from bench.club import BASE_DIR, say, throwaway_club
from config.machine import machine
from games import registry

REDIS_URL = os.environ.get("BENCH_FANOUT_REDIS_URL", "redis://127.0.0.1:6379/6")
DATABASE = "bench_fanout"
ACTIONS = int(os.environ.get("BENCH_FANOUT_ACTIONS", "30"))
WARM_UP = 3
SPECTATORS = (1, 100)
PROCESSES = 2
GAME = next(iter(registry.GAMES))  # any game: the notices are the same for all
REQUIRED_RATIO = 10
WAIT_SECONDS = 10  # a stamp not on every socket by then is counted as lost there
OPENING_AT_ONCE = 20  # sockets opened at the same time


@dataclass
class Figures:
    spectators: int
    seconds: list[float] = field(default_factory=list)  # per action, to the last socket
    answers: list[float] = field(default_factory=list)  # per action, the POST alone
    lost: int = 0
    out_of_order: int = 0
    statuses: dict = field(default_factory=dict)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.seconds) * 1000

    @property
    def max_ms(self) -> float:
        return max(self.seconds) * 1000


class Spectators:
    """``count`` sockets of one table's spectators, each read by a task of its own: when a
    stamp came to each socket, and an event set once it has come to all of them."""

    def __init__(self, count: int):
        self.count = count
        self.sockets = []
        self.readers = []
        self.received: list[list[tuple]] = [[] for _ in range(count)]
        self.arrivals: dict[tuple, list[float]] = {}
        self.everywhere: dict[tuple, asyncio.Event] = {}

    def event(self, stamp: tuple) -> asyncio.Event:
        return self.everywhere.setdefault(stamp, asyncio.Event())

    async def open(self, servers, path: str) -> None:
        from websockets.asyncio.client import connect

        limit = asyncio.Semaphore(OPENING_AT_ONCE)

        async def one(index):
            server = servers[index % len(servers)]
            async with limit:
                return await connect(
                    f"ws://127.0.0.1:{server.port}{path}",
                    origin=server.url,
                    proxy=None,
                    open_timeout=60,
                )

        self.sockets = await asyncio.gather(*(one(i) for i in range(self.count)))
        self.readers = [asyncio.create_task(self.read(i, s)) for i, s in enumerate(self.sockets)]

    async def read(self, index: int, socket) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in socket:
                arrived = time.perf_counter()
                stamp = tuple(json.loads(message)["stamp"])
                self.received[index].append(stamp)
                times = self.arrivals.setdefault(stamp, [])
                times.append(arrived)
                if len(times) == self.count:
                    self.event(stamp).set()
        except ConnectionClosed:
            pass

    async def wait_for(self, stamp: tuple) -> float | None:
        """When the stamp had come to every socket; None if it had not within the wait."""
        try:
            await asyncio.wait_for(self.event(stamp).wait(), WAIT_SECONDS)
        except TimeoutError:
            return None
        return max(self.arrivals[stamp])

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self.sockets), return_exceptions=True)
        await asyncio.gather(*self.readers, return_exceptions=True)


async def measure(count: int, servers, table, session, seed: int) -> Figures:
    """``count`` spectators on the table; ``WARM_UP`` + ``ACTIONS`` writes through the first
    process, each timed to its stamp on every socket."""
    import random

    from django.db import connection

    from games import selectors
    from tests.support.live import next_post

    rng = random.Random(seed)
    figures = Figures(count)
    database = ThreadPoolExecutor(1)  # the ORM and requests, off the event loop
    loop = asyncio.get_running_loop()

    def post_next() -> tuple[int, float, float, tuple]:
        post = next_post(table, rng)
        started = time.perf_counter()
        status = session.post(f"/t/{table.token}/{post.what}", post.fields).status_code
        answered = time.perf_counter()
        return status, started, answered, tuple(selectors.deal_stamp(table))

    spectators = Spectators(count)
    try:
        now = tuple(await loop.run_in_executor(database, selectors.deal_stamp, table))
        await spectators.open(servers, f"/ws/watch/{table.watch_key}/")
        if await spectators.wait_for(now) is None:
            raise RuntimeError(f"the {count} sockets did not all get the stamp on connecting")
        expected = []
        for turn in range(WARM_UP + ACTIONS):
            # ``started`` and ``answered`` are taken in the thread, around the POST
            status, started, answered, stamp = await loop.run_in_executor(database, post_next)
            figures.statuses[status] = figures.statuses.get(status, 0) + 1
            if status != 200:
                continue
            expected.append(stamp)
            everywhere = await spectators.wait_for(stamp)
            if turn < WARM_UP:
                continue
            if everywhere is None:
                figures.lost += count - len(spectators.arrivals.get(stamp, []))
                continue
            figures.seconds.append(everywhere - started)
            figures.answers.append(answered - started)
        await asyncio.sleep(0.2)  # anything late or repeated would come now
        figures.out_of_order = sum(received[1:] != expected for received in spectators.received)
    finally:
        await spectators.close()
        # (the thread's own connection: ``connection`` is looked up in the thread)
        await loop.run_in_executor(database, lambda: connection.close())
        database.shutdown()
    return figures


def run(env: dict, user) -> list[Figures]:
    from tests.support.live import new_table
    from tests.support.servers import Member, Servers

    member = Member(user)
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-fanout-") as logs:
        with Servers(PROCESSES, env, log_dir=logs) as servers:
            session = member.session(servers[0])
            for count in SPECTATORS:
                table = new_table(user, GAME, seed=count)
                results.append(asyncio.run(measure(count, servers, table, session, count)))
            servers.stop()
            servers.check()  # a traceback in a process's log fails the bench, showing it
    return results


def report(figures: Figures) -> str:
    where = (
        "on the process the posts go to"
        if figures.spectators == 1
        else f"{figures.spectators // PROCESSES} on each of the {PROCESSES} processes"
    )
    others = {k: v for k, v in figures.statuses.items() if k != 200}
    return (
        f"fanout {figures.spectators} spectator{'s' if figures.spectators > 1 else ''} "
        f"({where}), {len(figures.seconds)} writes one after another: from just before "
        f"the POST to the stamp on every socket median {figures.median_ms:.1f} ms, max "
        f"{figures.max_ms:.1f} ms (the POST's own answer: median "
        f"{statistics.median(figures.answers) * 1000:.1f} ms); messages lost: "
        f"{figures.lost}; sockets with a stamp out of order or twice: "
        f"{figures.out_of_order}" + (f"; other answers: {others}" if others else "")
    )


def main() -> int:
    with throwaway_club("fanout benchmark", DATABASE, REDIS_URL) as club:
        if club is None:
            return 0
        env, user = club
        say(f"fanout command: {sys.executable} -m bench.fanout (from {BASE_DIR})")
        redis_db = urlsplit(REDIS_URL).path.lstrip("/") or "0"
        say(
            f"fanout machine: {machine()}; PostgreSQL and Redis (db {redis_db}) on this "
            f"machine, {PROCESSES} daphne processes"
        )
        results = run(env, user)
    for figures in results:
        say(report(figures))
    one, many = results
    ratio = many.median_ms / one.median_ms
    met = ratio <= REQUIRED_RATIO
    say(
        f"fanout {many.spectators} spectators against 1: {ratio:.2f} times the median "
        f"(required: at most {REQUIRED_RATIO}: {'met' if met else 'NOT met'})"
    )
    record(results, ratio)
    failed = not met or any(f.lost or f.out_of_order or set(f.statuses) != {200} for f in results)
    return 1 if failed else 0


def record(results: list[Figures], ratio: float) -> None:
    def where(f: Figures) -> str:
        if f.spectators == 1:
            return "1 (on the process posted to)"
        return f"{f.spectators} ({f.spectators // PROCESSES} on each process)"

    figures_file.record(
        "fanout",
        "One action to many spectators",
        "python -m bench.fanout",
        [
            "spectators' sockets",
            "writes",
            "POST to the stamp on every socket: median",
            "max",
            "the POST's answer, median",
            "messages lost",
            "out of order or twice",
            f"median against one (required: at most {REQUIRED_RATIO})",
        ],
        [
            [
                where(f),
                len(f.seconds),
                f"{f.median_ms:.1f} ms",
                f"{f.max_ms:.1f} ms",
                f"{statistics.median(f.answers) * 1000:.1f} ms" if f.answers else "—",
                f.lost,
                f.out_of_order,
                "—"
                if f.spectators == 1
                else f"{ratio:.2f}: {figures_file.verdict(ratio <= REQUIRED_RATIO)}",
            ]
            for f in results
        ],
        [f"{PROCESSES} daphne processes; the client, PostgreSQL and Redis on the same machine."]
        + [
            f"Other answers, {f.spectators} spectators: {others}."
            for f in results
            if (others := {k: v for k, v in f.statuses.items() if k != 200})
        ],
    )


if __name__ == "__main__":
    sys.exit(main())
