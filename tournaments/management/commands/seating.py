"""``python manage.py seating GAME --players N --rounds R [--method mixing|swiss] --seed S
[--json]``: seats R rounds of N entrants (0..N−1) with the tournament's seating code and the
game's table sizes, playing random results between rounds for Swiss, and prints the seating,
its repeats and the seconds the seating took."""

import json
import random
import time

from django.core.management.base import BaseCommand, CommandError

from games import registry
from tournaments.seating import METHODS, Round, repeats, seat_round


class Command(BaseCommand):
    help = (
        "Seat R rounds of N entrants (numbered 0..N-1) with the tournament's seating code "
        "and print the seating, its repeats and the seconds it took."
    )

    def add_arguments(self, parser):
        parser.add_argument("game", help="the game's key: " + ", ".join(registry.tournament_keys()))
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument(
            "--method", choices=sorted(METHODS), help="the seating method (default: the game's)"
        )
        parser.add_argument("--seed", type=int, required=True)
        parser.add_argument("--json", action="store_true", help="print the seating as JSON")

    def handle(self, *args, game, players, rounds, method, seed, json: bool, **options):
        try:
            parts = registry.tournament(game)
        except registry.UnknownGame as exc:
            what = (
                f"the game {game!r} is not played in tournaments"
                if isinstance(exc, registry.NoTournaments)
                else f"unknown game {game!r}"
            )
            raise CommandError(f"{what}: one of {', '.join(registry.tournament_keys())}") from None
        if rounds < 1:
            raise CommandError("--rounds must be at least 1")
        sizes = parts.table_sizes(max(players, 0))
        if not sizes:
            raise CommandError(f"too few players for one table of {game}: {players}")
        method = method or parts.seating
        started = time.perf_counter()
        seated = seat(method=method, sizes=sizes, players=players, rounds=rounds, seed=seed)
        seconds = time.perf_counter() - started
        figures = {
            "rounds": [{"tables": r.tables, "byes": r.byes} for r in seated],
            "repeats": repeats(seated),
            "seconds": round(seconds, 3),
        }
        if json:
            self.stdout.write(dumps(figures))
            return
        for number, r in enumerate(seated, 1):
            tables = " | ".join(" ".join(map(str, table)) for table in r.tables)
            byes = f"; byes: {' '.join(map(str, r.byes))}" if r.byes else ""
            self.stdout.write(f"round {number}: {tables}{byes}")
        self.stdout.write(f"repeats: {figures['repeats']}")
        self.stdout.write(f"seconds: {figures['seconds']:.3f}")


def seat(*, method: str, sizes: list[int], players: int, rounds: int, seed: int) -> list[Round]:
    """R rounds seated one after the other as a tournament seats them; for Swiss, between
    rounds every table's finishing order is drawn at random (from the seed) and the standings
    are the match points so far, ties in a random order."""
    entrants = list(range(players))
    results = random.Random(f"{seed}:results")
    points = dict.fromkeys(entrants, 0.0)
    history: list[Round] = []
    standings = None
    for number in range(1, rounds + 1):
        r = seat_round(
            method=method,
            sizes=sizes,
            entrants=entrants,
            history=history,
            standings=standings,
            rounds_planned=rounds,
            round_number=number,
            seed=seed,
        )
        history.append(r)
        if method == "swiss":
            for table in r.tables:
                finish = results.sample(table, len(table))
                for beaten, player in enumerate(reversed(finish)):
                    points[player] += 6 * beaten / (len(table) - 1)
            for player in r.byes:
                points[player] += 3
            tiebreak = {e: results.random() for e in entrants}
            standings = sorted(entrants, key=lambda e: (-points[e], tiebreak[e]))
    return history


def dumps(figures: dict) -> str:
    return json.dumps(figures)
