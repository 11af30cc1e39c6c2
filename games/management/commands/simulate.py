import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine.simulate import simulate
from games.registry import GAMES


class Command(BaseCommand):
    help = (
        "Play random deals, every seat choosing a uniformly random legal action, checking "
        "the rules' invariants after every action; print deals per second."
    )

    def add_arguments(self, parser):
        parser.add_argument("game", choices=sorted(GAMES))
        parser.add_argument("--deals", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")
        parser.add_argument(
            "--records", type=Path, metavar="DIR", help="write each deal's record to this folder"
        )

    def handle(self, *args, game, deals, seed, json: bool, records, **options):
        if deals < 1:
            raise CommandError("--deals must be at least 1")
        if records is not None:
            try:
                records.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CommandError(f"cannot write records to {records}: {exc}") from None
        figures = simulate(game, deals=deals, seed=seed, records_dir=records)
        if json:
            self.stdout.write(dumps_json(figures))
        else:
            self.stdout.write(
                f"{figures['game']}: {figures['deals']} deals, {figures['actions']} actions in "
                f"{figures['seconds']:.2f} s: {figures['deals_per_second']:.0f} deals per second"
            )


def dumps_json(figures: dict) -> str:
    return json.dumps(figures)
