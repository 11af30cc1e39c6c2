"""``python -m bench.seats`` (in ``make bench``): tables of devices, each player's seat on his
own phone, through real daphne processes: from a move's POST until the table's other seats'
pages have fetched their new view.

Twenty tables of four seats, every seat on its own device (the registry's games of four
seats in turn): eighty seat pages, each as ``static/js/live.js`` keeps one, its socket open
on ``/ws/seat/<key>/`` ("ping" every 20 seconds, as the page sends it) and, when its socket
announces a version newer than it shows, a fetch of its own view (``GET /s/<key>/`` as htmx
asks, the partial) unless a request of its own is on its way; a fetch's answer (or a post's)
is the version the page then shows. The sockets are all in this process's event loop, the
pages' requests in a pool of threads.

A move is the POST of the seat to act (its action, or the step before it) from that seat's
page, at a table drawn at random among those nobody is moving at; it is timed from just
before its POST until each of the table's three other pages has fetched a view at least as
new as the POST's answer. Once a deal is over, a seat's page posts the next deal, followed
the same way but not counted. ``CONCURRENT`` movers (1: one move at a time; 4: four at
four tables at once) make ``MOVES`` moves each run, after ``WARM_UP`` not counted.

Two set-ups, each in a process of its own (Django is set up once a process): one daphne
process on a SQLite file in a temporary folder with the in-memory channel layer, as ``make
run`` serves; and two daphne processes on a throw-away PostgreSQL database
(``bench_seats``) and Redis (database 5), the pages spread over both, skipped with a
message when either cannot be reached. The clients and the servers share this machine's
cores. This process writes both set-ups' figures as one table (``bench.figures``), each
set-up's process handing its rows over in a file (``python -m bench.seats sqlite``, run
alone, prints its figures and writes none).

The requirement: one move at a time, the 95th percentile under 150 ms; and no notice lost
(every page's socket announced every version of its table) however many move at once. Four
moves at once (about twice the moves a second of twenty tables playing a card every two
seconds) are measured for information: they queue on the processes' cores. It exits 1 when
a requirement fails, on an answer other than 200, or on a traceback in a process's log.
"""

import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from bench import figures as figures_file
from bench.club import each_setup, say, sqlite_club, throwaway_club, write_rows
from bench.live import cpu_seconds
from config.machine import machine

REDIS_URL = os.environ.get("BENCH_SEATS_REDIS_URL", "redis://127.0.0.1:6379/5")
DATABASE = "bench_seats"
TABLES = 20
SEATS = 4
MOVES = int(os.environ.get("BENCH_SEATS_MOVES", "200"))
WARM_UP = 10
CONCURRENT = (1, 4)
REQUIRED_P95_MS = 150
WAIT_SECONDS = 10  # a page not showing the move by then counts as lost
PING_SECONDS = 20  # as static/js/live.js
STAMP = re.compile(r'data-stamp="([0-9 ]+)"')


def percentile(values: list[float], p: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


def newer(a: tuple, b: tuple) -> bool:
    """As live.js compares versions: missing places count as 0."""
    width = max(len(a), len(b))
    return (*a, *[0] * (width - len(a))) > (*b, *[0] * (width - len(b)))


def page_stamp(html: str) -> tuple:
    found = STAMP.search(html)
    if found is None:
        raise RuntimeError("a seat page without its data-stamp")
    return tuple(int(n) for n in found.group(1).split())


class Page:
    """One seat's page on its device: what it shows, what its socket announced, and its
    fetches, as live.js has them."""

    def __init__(self, table, seat, server, pool: ThreadPoolExecutor):
        import requests

        self.table = table
        self.seat = seat
        self.server = server
        self.pool = pool
        self.http = requests.Session()  # one request of the page's at a time
        # a phone that opened its link: no account, the CSRF cookie its page set
        token = "".join(random.choices("abcdefghijklmnopqrstuvwxyz0123456789", k=32))
        self.http.cookies.set("csrftoken", token)
        self.http.headers.update({"X-CSRFToken": token, "HX-Request": "true"})
        self.shown: tuple = ()
        self.announced: tuple | None = None
        self.notices: set[tuple] = set()
        self.busy = False  # a request of the page's is on its way
        self.changed = asyncio.Condition()
        self.statuses: dict = {}
        self.socket = None
        self.tasks: list[asyncio.Task] = []

    @property
    def url(self) -> str:
        return f"{self.server.url}/s/{self.seat.key}/"

    def _request(self, method: str, url: str, fields=None):
        response = self.http.request(method, url, data=fields, timeout=30, allow_redirects=False)
        return response.status_code, response.text, time.perf_counter()

    async def request(self, method: str, url: str, fields=None) -> tuple[int, float]:
        """The page's own request; what it answers is what the page shows from then on."""
        self.busy = True
        try:
            loop = asyncio.get_running_loop()
            status, html, answered = await loop.run_in_executor(
                self.pool, self._request, method, url, fields
            )
        finally:
            self.busy = False
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status == 200:
            stamp = page_stamp(html)
            if newer(stamp, self.shown):
                self.shown = stamp
            async with self.changed:
                self.changed.notify_all()
        self.catch_up()
        return status, answered

    def catch_up(self) -> None:
        if self.busy or self.announced is None or not newer(self.announced, self.shown):
            return
        self.busy = True  # (before the task runs: one fetch at a time)
        self.tasks.append(asyncio.create_task(self.fetch()))

    async def fetch(self) -> None:
        self.busy = False
        await self.request("GET", self.url)

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        await self.request("GET", self.url)
        self.socket = await connect(
            f"ws://127.0.0.1:{self.server.port}/ws/seat/{self.seat.key}/",
            origin=self.server.url,
            proxy=None,
            open_timeout=60,
        )
        self.tasks += [asyncio.create_task(self.read()), asyncio.create_task(self.ping())]

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in self.socket:
                stamp = tuple(json.loads(message)["stamp"])
                self.notices.add(stamp[:2])  # (deal, version): what a write changes
                if self.announced is None or newer(stamp, self.announced):
                    self.announced = stamp
                self.catch_up()
        except ConnectionClosed:
            pass

    async def ping(self) -> None:
        await asyncio.sleep(random.uniform(0, PING_SECONDS))  # the pages opened at any time
        while True:
            await self.socket.send("ping")
            await asyncio.sleep(PING_SECONDS)

    async def showing(self, stamp: tuple) -> float | None:
        """When the page showed ``stamp`` (or newer); None if not within the wait."""

        async def shown():
            async with self.changed:
                await self.changed.wait_for(lambda: not newer(stamp, self.shown))
            return time.perf_counter()

        try:
            return await asyncio.wait_for(shown(), WAIT_SECONDS)
        except TimeoutError:
            return None

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.socket is not None:
            await self.socket.close()
        self.http.close()


@dataclass
class Figures:
    setup: str
    concurrent: int
    seconds: list[float] = field(default_factory=list)  # a move: POST to the last page's view
    answers: list[float] = field(default_factory=list)  # the POST alone
    lost: int = 0
    statuses: dict = field(default_factory=dict)
    servers_cpu_ms: float | None = None

    def percentile_ms(self, p: int) -> float:
        return percentile(self.seconds, p) * 1000

    @property
    def median_ms(self) -> float:
        return statistics.median(self.seconds) * 1000

    @property
    def required(self) -> bool:
        """The time is required of one move at a time; moves at once are figures to read."""
        return self.concurrent == 1

    @property
    def meets(self) -> bool:
        fast = self.percentile_ms(95) < REQUIRED_P95_MS or not self.required
        return fast and not self.lost


def four_seat_games() -> list[str]:
    from games import registry

    return [
        key
        for key in registry.GAMES
        if (rules := registry.rules(key)).seats(rules.parse_options({})) == SEATS
    ]


def new_tables(user) -> list:
    """``TABLES`` fresh tables, every seat on its own device; each with its seats in order
    (``seat_pages``), read here: the event loop reads no database."""
    from games import services
    from tests.support.live import NAMES

    games = four_seat_games()
    tables = []
    for i in range(TABLES):
        table = services.start_table(
            user=user,
            game=games[i % len(games)],
            options={},
            seed=i,
            players=NAMES[:SEATS],
            devices=set(range(SEATS)),
        )
        table.seat_pages = sorted(table.seats.all(), key=lambda s: s.position)
        tables.append(table)
    return tables


async def measure(setup: str, concurrent: int, servers, tables, seed: int) -> Figures:
    from django.db import connection

    from tests.support.live import next_post

    rng = random.Random(seed)
    figures = Figures(setup, concurrent)
    pool = ThreadPoolExecutor(32)
    database = ThreadPoolExecutor(concurrent)  # the movers' reads of the deal, off the loop
    loop = asyncio.get_running_loop()
    pages: dict[int, list[Page]] = {}
    for t, table in enumerate(tables):
        seats = table.seat_pages
        pages[table.pk] = [
            Page(table, seat, servers[(t * SEATS + i) % len(servers)], pool)
            for i, seat in enumerate(seats)
        ]
    everyone = [page for table_pages in pages.values() for page in table_pages]
    expected: dict[int, list[tuple]] = {table.pk: [] for table in tables}
    free = set(range(len(tables)))
    moves = 0
    cpu = CpuTime(servers)
    try:
        for start in range(0, len(everyone), 20):  # opened twenty at a time
            await asyncio.gather(*(page.open() for page in everyone[start : start + 20]))

        async def mover(index: int) -> None:
            nonlocal moves
            posts_rng = random.Random(seed * 100 + index)
            while moves < WARM_UP + MOVES:
                t = rng.choice(sorted(free))
                free.discard(t)
                try:
                    table = tables[t]
                    post = await loop.run_in_executor(database, next_post, table, posts_rng)
                    counted = post.what == "act" and moves >= WARM_UP
                    if post.what == "act":
                        moves += 1
                        if moves == WARM_UP + 1:
                            cpu.start()
                    seat = post.fields["seat"] if post.what == "act" else posts_rng.randrange(SEATS)
                    page = pages[table.pk][seat]
                    started = time.perf_counter()
                    status, answered = await page.request(
                        "POST", f"{page.url}{post.what}", post.fields
                    )
                    if status != 200:
                        continue
                    stamp = page.shown
                    expected[table.pk].append(stamp[:2])
                    others = [p for p in pages[table.pk] if p is not page]
                    shown = await asyncio.gather(*(p.showing(stamp) for p in others))
                    if counted:
                        if None in shown:
                            figures.lost += shown.count(None)
                        else:
                            figures.seconds.append(max(shown) - started)
                            figures.answers.append(answered - started)
                finally:
                    free.add(t)

        await asyncio.gather(*(mover(i) for i in range(concurrent)))
        figures.servers_cpu_ms = cpu.per(len(figures.seconds))
        await asyncio.sleep(0.5)  # anything late would come now
        for page in everyone:
            figures.lost += sum(stamp not in page.notices for stamp in expected[page.table.pk])
            for status, count in page.statuses.items():
                figures.statuses[status] = figures.statuses.get(status, 0) + count
    finally:
        await asyncio.gather(*(page.close() for page in everyone), return_exceptions=True)
        await loop.run_in_executor(database, lambda: connection.close())
        database.shutdown()
        pool.shutdown()
    return figures


class CpuTime:
    """The daphne processes' CPU time (Linux), from ``start`` on."""

    def __init__(self, servers):
        self.pids = [server.process.pid for server in servers]
        self.before = None

    def now(self) -> float | None:
        times = [cpu_seconds(pid) for pid in self.pids]
        return None if None in times else sum(times)

    def start(self) -> None:
        self.before = self.now()

    def per(self, count: int) -> float | None:
        after = self.now()
        if self.before is None or after is None or not count:
            return None
        return (after - self.before) / count * 1000


def run(setup: str, processes: int, env: dict, user) -> list[Figures]:
    from tests.support.servers import Servers

    results = []
    with tempfile.TemporaryDirectory(prefix="bench-seats-") as logs:
        with Servers(processes, env, log_dir=logs) as servers:
            for concurrent in CONCURRENT:
                tables = new_tables(user)
                results.append(asyncio.run(measure(setup, concurrent, servers, tables, concurrent)))
            servers.stop()
            servers.check()  # a traceback in a process's log fails the bench, showing it
    return results


def report(f: Figures) -> str:
    others = {k: v for k, v in f.statuses.items() if k != 200}
    at_once = "one move at a time" if f.concurrent == 1 else f"{f.concurrent} moves at once"
    return (
        f"seats {f.setup}, {TABLES} tables of {SEATS} device seats, {at_once}, "
        f"{len(f.seconds)} moves: from the POST until the other {SEATS - 1} pages had "
        f"fetched their view median {f.median_ms:.1f} ms, 95th percentile "
        f"{f.percentile_ms(95):.1f} ms ("
        + (f"required: under {REQUIRED_P95_MS} ms, " if f.required else "for information; ")
        + f"no notice lost: {'meets' if f.meets else 'MISSES'}); the POST's own answer: median "
        f"{statistics.median(f.answers) * 1000:.1f} ms; notices lost: {f.lost}"
        + (
            f"; daphne CPU a move (its fetches included): {f.servers_cpu_ms:.1f} ms"
            if f.servers_cpu_ms is not None
            else ""
        )
        + (f"; other answers: {others}" if others else "")
    )


def setup_sqlite() -> list[Figures] | None:
    with sqlite_club() as (env, user):
        say(
            f"seats machine: {machine()}; SQLite in {tempfile.gettempdir()}, the in-memory "
            "channel layer, 1 daphne process"
        )
        return run(LABELS["sqlite"], 1, env, user)


def setup_postgresql() -> list[Figures] | None:
    with throwaway_club("seats benchmark on PostgreSQL and Redis", DATABASE, REDIS_URL) as club:
        if club is None:
            return None
        env, user = club
        say(
            f"seats machine: {machine()}; PostgreSQL and Redis (db 5) on this machine, "
            "2 daphne processes"
        )
        return run(LABELS["postgresql"], 2, env, user)


SETUPS = {"sqlite": setup_sqlite, "postgresql": setup_postgresql}
LABELS = {"sqlite": "SQLite, 1 process", "postgresql": "PostgreSQL and Redis, 2 processes"}
COLUMNS = [
    "set-up",
    "moves",
    f"POST to the {SEATS - 1} other pages' views: median, 95th percentile",
    "required",
    "the POST's answer, median",
    "notices lost",
    "daphne CPU a move",
]


def row(f: Figures) -> list:
    """The set-up's line of the figures file's table."""
    required = (
        f"95th percentile under {REQUIRED_P95_MS} ms, no notice lost"
        if f.required
        else "no notice lost (the times for information)"
    )
    return [
        f.setup,
        "one at a time" if f.concurrent == 1 else f"{f.concurrent} at once",
        f"{f.median_ms:.1f} ms, {f.percentile_ms(95):.1f} ms",
        f"{required}: {figures_file.verdict(f.meets)}",
        f"{statistics.median(f.answers) * 1000:.1f} ms",
        f.lost,
        "—" if f.servers_cpu_ms is None else f"{f.servers_cpu_ms:.1f} ms",
    ]


def main(argv: list[str]) -> int:
    if argv:  # one set-up, in this process; its rows into the file named after it, if any
        results = SETUPS[argv[0]]()
        if results is None:
            return 0
        for figures in results:
            say(report(figures))
        others = [
            f"{f.setup}, {f.concurrent} at once: other answers {statuses}"
            for f in results
            if (statuses := {k: v for k, v in f.statuses.items() if k != 200})
        ]
        write_rows(argv, [row(f) for f in results], others)
        failed = any(not f.meets or set(f.statuses) != {200} for f in results)
        return 1 if failed else 0
    code, rows, notes = each_setup("bench.seats", LABELS)
    if rows:
        figures_file.record(
            "seats",
            "Tables of devices",
            "python -m bench.seats",
            COLUMNS,
            rows,
            [
                f"{TABLES} tables of {SEATS} seats, every seat on its own device; "
                f"{MOVES} moves each way; the pages' client on the same machine.",
                *notes,
            ],
        )
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
