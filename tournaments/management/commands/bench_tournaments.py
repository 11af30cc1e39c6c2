"""The tournaments' figures (`make bench`): seating 200 players for 8 rounds, the standings
and projector pages of a big and a small tournament, importing a big tournament. The game is
named on the command line (the Makefile names the one measured); its sheets' rows come from random
deals of its own engine."""

import json
import os
import random
import statistics
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
from games.engine.simulate import random_deal
from tournaments import document, services
from tournaments.seating import repeats, seat_round

PAGES = ("tournament-standings", "tournament-projector")


class Command(BaseCommand):
    help = "Benchmarks of the tournaments: seating, the standings pages, an import."

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=sorted(registry.tournament_keys()), required=True)
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--rounds", type=int, default=8)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, game: str, players: int, rounds: int, json: bool, **options):
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
        figures = {"game": game, "seating": seating(game, players, rounds)}
        setup_test_environment()
        old = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        try:
            text = big_document(game, players, rounds, figures["seating"]["rounds"])
            started = time.perf_counter()
            big = services.import_document(doc=document.read(text))
            figures["import"] = {
                "players": players,
                "rounds": rounds,
                "rows": big_rows(text),
                "seconds": round(time.perf_counter() - started, 2),
            }
            small = services.import_document(
                doc=document.read(big_document(game, 8, rounds, seating(game, 8, rounds)["rounds"]))
            )
            figures["pages"] = {page: pages(page, small, big) for page in PAGES}
        finally:
            teardown_databases(old, verbosity=0)
        figures["seating"].pop("rounds")
        sections.tournaments(figures, players=players, rounds=rounds)
        if json:
            self.stdout.write(dumps(figures))
            return
        s = figures["seating"]
        self.stdout.write(
            f"seating {game} --players {players} --rounds {rounds}: "
            f"{s['seconds']:.2f} s, {s['repeats']} repeats"
        )
        i = figures["import"]
        self.stdout.write(
            f"import of a {players}-player, {rounds}-round {game} tournament "
            f"({i['rows']} sheet rows): {i['seconds']:.2f} s"
        )
        for page, p in figures["pages"].items():
            self.stdout.write(
                f"{page}: SQL queries 8 players {p['queries_small']}, {players} players "
                f"{p['queries_big']}; render of the big one, median {p['big_ms']:.0f} ms"
            )


def dumps(figures) -> str:
    return json.dumps(figures, ensure_ascii=False)


def seating(game: str, players: int, rounds: int) -> dict:
    """``seating GAME --players N --rounds R``: the rounds seated one after the other."""
    parts = registry.tournament(game)
    entrants = list(range(players))
    seated = []
    started = time.perf_counter()
    for number in range(1, rounds + 1):
        seated.append(
            seat_round(
                method=parts.seating,
                sizes=parts.table_sizes(players),
                entrants=entrants,
                history=seated,
                rounds_planned=rounds,
                standings=entrants if number > 1 else None,
                round_number=number,
                seed=1,
            )
        )
    return {
        "seconds": round(time.perf_counter() - started, 3),
        "repeats": repeats(seated),
        "rounds": seated,
    }


def sheet_rows(game: str, seats: int, rng: random.Random) -> list[dict]:
    """A complete sheet of random deals of the game, as its tournament parts write it."""
    parts, rules = registry.tournament(game), registry.rules(game)
    options = rules.parse_options(parts.table_options({}, seats))
    rows: list[dict] = []
    while not parts.complete(rows, seats=seats, options=options, settings=parts.read_settings({})):
        state, _ = random_deal(rules, options, len(rows) % seats, rng, check=False)
        rows += parts.rows_from_results([state.result()])
    return rows


def big_document(game: str, players: int, rounds: int, seated) -> str:
    names = [f"Игрок {n:03d}" for n in range(players)]
    rng = random.Random(1)
    return json.dumps(
        {
            "tournament": f"Бенчмарк {players}",
            "game": game,
            "rounds_planned": rounds,
            "players": names,
            "rounds": [
                {
                    "tables": [
                        {
                            "players": [names[p] for p in table],
                            "rows": sheet_rows(game, len(table), rng),
                        }
                        for table in round_.tables
                    ],
                    "byes": [names[p] for p in round_.byes],
                }
                for round_ in seated
            ],
        },
        ensure_ascii=False,
    )


def big_rows(text: str) -> int:
    return sum(
        len(table["rows"]) for round_ in json.loads(text)["rounds"] for table in round_["tables"]
    )


def pages(page: str, small, big) -> dict:
    """The page's queries for the small and the big tournament, and its render time."""
    client = Client()
    counts = {}
    for name, tournament in (("small", small), ("big", big)):
        url = f"/tournaments/{tournament.key}/{page.removeprefix('tournament-')}/"
        client.get(url)  # warm: templates, translations
        reset_queries()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, url
        counts[name] = len(queries)
    timings = []
    for _ in range(15):
        started = time.perf_counter()
        client.get(url)
        timings.append(time.perf_counter() - started)
    return {
        "queries_small": counts["small"],
        "queries_big": counts["big"],
        "big_ms": round(statistics.median(timings) * 1000, 1),
    }
