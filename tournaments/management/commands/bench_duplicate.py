"""The duplicate tournaments' figures (`make bench`), on the documents ``bench_tournaments``
builds (random sheets of the game's own engine, seated by mixing), imported as duplicate:

- the standings page's SQL queries for 8 players and for 200 (required: the same);
- the standings page of the 200-player tournament as duplicate and as not, the same rows,
  rendered in turn (required: the duplicate median under twice the other);
- a round's deals drawn for every group of the big tournament's first round, and their hand
  records (required: every drawing under 0.5 s).

It exits 1 on a miss."""

import json
import os
import statistics
import sys
import time

from django.core.management.base import BaseCommand
from django.db import connection, reset_queries
from django.test import Client
from django.test.utils import (
    CaptureQueriesContext,
    setup_databases,
    setup_test_environment,
    teardown_databases,
)

from bench import sections
from games import registry
from tournaments import document, services
from tournaments.duplicate.deals import by_suit
from tournaments.duplicate.hand_records import HandGroup, hand_records

from .bench_tournaments import big_document, seating

RATIO_MOST = 2.0  # the duplicate standings' median against the plain one's
DEALS_MOST = 0.5  # seconds, a round's deals and hand records
RENDERS = 15  # of each page, in turn
DRAWINGS = 15
SEED = 1  # the tournaments' seed, whose round deals are drawn


class Command(BaseCommand):
    help = "Benchmarks of duplicate tournaments: the standings page, a round's deals."

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=sorted(registry.tournament_keys()), required=True)
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--rounds", type=int, default=8)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, game: str, players: int, rounds: int, json: bool, **options):
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
        figures = measure(game, players, rounds)
        sections.duplicate(
            figures, players=players, rounds=rounds, ratio_most=RATIO_MOST, deals_most=DEALS_MOST
        )
        if json:
            self.stdout.write(dumps(figures))
        else:
            self.stdout.write(report(figures, players))
        if not met(figures):
            sys.exit(1)


def measure(game: str, players: int, rounds: int) -> dict:
    """Every figure, on a throw-away test database."""
    seated = seating(game, players, rounds)["rounds"]
    figures = {"game": game, "deals": drawing(game, seated[0])}
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False, aliases={"default"})
    try:
        text = big_document(game, players, rounds, seated)
        duplicate = services.import_document(doc=document.read(as_duplicate(text)))
        plain = services.import_document(doc=document.read(text))
        small = services.import_document(
            doc=document.read(
                as_duplicate(big_document(game, 8, rounds, seating(game, 8, rounds)["rounds"]))
            )
        )
        client = Client()
        figures["queries"] = {
            "small": queries(client, standings_url(small)),
            "big": queries(client, standings_url(duplicate)),
        }
        figures["pages"] = renders(client, standings_url(duplicate), standings_url(plain))
    finally:
        teardown_databases(old, verbosity=0)
    return figures


def as_duplicate(text: str) -> str:
    """The same document, its tournament duplicate (ranked by its duplicate order)."""
    data = json.loads(text)
    data["duplicate"] = True
    return json.dumps(data, ensure_ascii=False)


def standings_url(tournament) -> str:
    return f"/tournaments/{tournament.key}/standings/"


def queries(client: Client, url: str) -> int:
    client.get(url)  # warm: templates, translations
    reset_queries()
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url)
    assert answer.status_code == 200, url
    return len(captured)


def renders(client: Client, duplicate_url: str, plain_url: str) -> dict:
    """The two pages' medians, rendered one after the other so that the machine's wandering
    weighs on both alike."""
    timings: dict[str, list[float]] = {"duplicate": [], "plain": []}
    client.get(plain_url)  # warm
    for _ in range(RENDERS):
        for name, url in (("duplicate", duplicate_url), ("plain", plain_url)):
            started = time.perf_counter()
            answer = client.get(url)
            timings[name].append(time.perf_counter() - started)
            assert answer.status_code == 200, url
    duplicate_ms = statistics.median(timings["duplicate"]) * 1000
    plain_ms = statistics.median(timings["plain"]) * 1000
    return {
        "duplicate_ms": round(duplicate_ms, 1),
        "plain_ms": round(plain_ms, 1),
        "ratio": round(duplicate_ms / plain_ms, 2),
    }


def group_deals(game: str, round_number: int, round_) -> list[HandGroup]:
    """The round's deals of every group (its tables of one size), as the directors' page
    and ``tournament deals`` draw them."""
    parts = registry.tournament(game)
    sizes = {len(table) for table in round_.tables}
    return hand_records(
        game, {}, parts.read_settings({}), seed=SEED, round_number=round_number, sizes=sizes
    )


def by_suits(groups: list[HandGroup]) -> list[list[dict[str, list[str]]]]:
    """Every hand of the deals as the hand records show it, by suit."""
    return [
        [by_suit(hand) for hand in deal.dealt["hands"]] for group in groups for deal in group.deals
    ]


def drawing(game: str, round_) -> dict:
    """A round's deals and hand records drawn DRAWINGS times: the slowest and the median."""
    timings = []
    for _ in range(DRAWINGS):
        started = time.perf_counter()
        drawn = group_deals(game, 1, round_)
        by_suits(drawn)
        timings.append(time.perf_counter() - started)
    return {
        "groups": [
            {
                "size": group.size,
                "tables": sum(len(t) == group.size for t in round_.tables),
                "deals": len(group.deals),
            }
            for group in drawn
        ],
        "median_ms": round(statistics.median(timings) * 1000, 2),
        "slowest_ms": round(max(timings) * 1000, 2),
    }


def met(figures: dict) -> bool:
    q, p, d = figures["queries"], figures["pages"], figures["deals"]
    return (
        q["small"] == q["big"] and p["ratio"] < RATIO_MOST and d["slowest_ms"] < DEALS_MOST * 1000
    )


def report(figures: dict, players: int) -> str:
    q, p, d = figures["queries"], figures["pages"], figures["deals"]
    groups = ", ".join(
        f"{g['tables']} tables of {g['size']}, {g['deals']} deals" for g in d["groups"]
    )
    return "\n".join(
        [
            f"duplicate standings: SQL queries 8 players {q['small']}, {players} players "
            f"{q['big']}: {'equal' if q['small'] == q['big'] else 'NOT equal'}",
            f"standings of {players} players, medians of {RENDERS}: duplicate "
            f"{p['duplicate_ms']:.0f} ms, not duplicate {p['plain_ms']:.0f} ms, ratio "
            f"{p['ratio']:.2f} (required: under {RATIO_MOST})",
            f"a round's deals and hand records ({groups}): median {d['median_ms']:.2f} ms, "
            f"slowest {d['slowest_ms']:.2f} ms (required: under {DEALS_MOST * 1000:.0f} ms)",
        ]
    )


def dumps(figures) -> str:
    return json.dumps(figures, ensure_ascii=False)
