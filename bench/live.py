"""``python -m bench.live`` (in ``make bench``): writes per second with ten busy tables
played through real daphne processes, two of them and then one, on PostgreSQL and Redis.

It makes a throw-away PostgreSQL database (``bench_live``, migrated by ``manage.py migrate``
in a subprocess) and drops it at the end, and uses Redis database 4 for the channel layer.
Ten client threads, one a table, play their table's deals as its hotseat screen does: read
the deal from the database, then post the reveal, the action (a random legal one) or the
next deal; one set-up's posts are spread over its processes in turn. Each set-up runs for
``SECONDS`` on fresh tables. The clients, the processes, PostgreSQL and Redis share this
machine's cores. When PostgreSQL or Redis cannot be reached it says so and exits 0, its
figures left as they were; a 5xx answer makes it exit 1.
"""

import os
import statistics
import sys
import time

from bench import figures as figures_file
from bench.club import say, throwaway_club
from config.machine import machine

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/4")
DATABASE = "bench_live"
TABLES = 10
SECONDS = float(os.environ.get("BENCH_LIVE_SECONDS", "15"))


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU time a process has used so far (Linux), None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def percentile(values: list[float], p: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


def run_setup(processes: int, env: dict, user) -> dict:
    """Fresh tables, ``processes`` daphne processes, ``TABLES`` screens for ``SECONDS``."""
    from games.registry import GAMES
    from tests.support.live import Stream, new_table
    from tests.support.servers import Member, Servers

    games = list(GAMES)
    tables = [new_table(user, games[i % len(games)], seed=i) for i in range(TABLES)]
    member = Member(user)
    with Servers(processes, env) as servers:
        pids = [server.process.pid for server in servers]
        servers_cpu = [cpu_seconds(pid) for pid in pids]
        clients_cpu = time.process_time()
        started = time.monotonic()
        until = started + SECONDS
        streams = [
            Stream(table, [member.session(s) for s in servers], seed=i, until=until)
            for i, table in enumerate(tables)
        ]
        for stream in streams:
            stream.start()
        for stream in streams:
            stream.finish(timeout=SECONDS + 60)
        elapsed = time.monotonic() - started
        clients_cpu = time.process_time() - clients_cpu
        servers_cpu = [
            None if before is None or (now := cpu_seconds(pid)) is None else now - before
            for pid, before in zip(pids, servers_cpu, strict=True)
        ]
        servers.stop()
        servers.check()
    answers = [a for stream in streams for a in stream.answers]
    done = [a for a in answers if a.status == 200]
    times = [a.seconds * 1000 for a in done]
    return {
        "processes": processes,
        "writes_per_second": len(done) / elapsed,
        "actions_per_second": sum(a.post.what == "act" for a in done) / elapsed,
        "median_ms": statistics.median(times),
        "p95_ms": percentile(times, 95),
        "server_errors": sum(isinstance(a.status, int) and a.status >= 500 for a in answers),
        "other": sorted({str(a.status) for a in answers if a.status != 200}),
        "posts": len(answers),
        "servers_cpu_ms": (
            None if None in servers_cpu or not done else sum(servers_cpu) / len(done) * 1000
        ),
        "clients_cpu_ms": clients_cpu / len(done) * 1000 if done else None,
    }


def main() -> int:
    with throwaway_club("live benchmark", DATABASE, REDIS_URL) as club:
        if club is None:
            return 0
        env, user = club
        say(f"live bench machine: {machine()}; PostgreSQL and Redis (db 4) on this machine")
        figures = [run_setup(processes, env, user) for processes in (2, 1)]
    for f in figures:
        say(
            f"live {TABLES} busy tables on {f['processes']} daphne "
            f"process{'es' if f['processes'] > 1 else ''}, {SECONDS:.0f} s: "
            f"{f['writes_per_second']:.1f} writes/s (reveal, act, next deal), of which "
            f"{f['actions_per_second']:.1f} game actions/s; time of a write: median "
            f"{f['median_ms']:.1f} ms, 95th percentile {f['p95_ms']:.1f} ms; "
            f"5xx: {f['server_errors']}"
            + (
                f"; CPU a write: daphne {f['servers_cpu_ms']:.1f} ms, the clients' reads and "
                f"posts {f['clients_cpu_ms']:.1f} ms"
                if f["servers_cpu_ms"] is not None
                else ""
            )
            + (f"; other answers: {', '.join(f['other'])}" if f["other"] else "")
        )
    two, one = figures
    say(
        f"live two processes against one: {two['writes_per_second'] / one['writes_per_second']:.2f}"
        " times the writes per second"
    )
    record(figures)
    return 1 if any(f["server_errors"] or f["other"] for f in figures) else 0


def record(figures: list[dict]) -> None:
    def ms(value: float | None) -> str:
        return "—" if value is None else f"{value:.1f} ms"

    def setup(f: dict) -> str:
        return f"{f['processes']} daphne process{'es' if f['processes'] > 1 else ''}"

    two, one = figures
    figures_file.record(
        "live",
        "Busy tables, served",
        "python -m bench.live",
        [
            "set-up",
            "writes/s (game actions/s)",
            "a write: median, 95th percentile",
            "5xx",
            "CPU a write: daphne, clients",
        ],
        [
            [
                setup(f),
                f"{f['writes_per_second']:.1f} ({f['actions_per_second']:.1f})",
                f"{f['median_ms']:.0f} ms, {f['p95_ms']:.0f} ms",
                f["server_errors"],
                f"{ms(f['servers_cpu_ms'])}, {ms(f['clients_cpu_ms'])}",
            ]
            for f in figures
        ],
        [
            f"{TABLES} tables, {SECONDS:.0f} s a set-up; the clients, PostgreSQL and Redis on "
            "the same machine.",
            f"Two processes give {two['writes_per_second'] / one['writes_per_second']:.2f} "
            "times the writes of one.",
        ]
        + [f"Other answers, {setup(f)}: {', '.join(f['other'])}." for f in figures if f["other"]],
    )


if __name__ == "__main__":
    sys.exit(main())
