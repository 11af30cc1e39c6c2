import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import registry
from games.engine import InvalidRecord, get_rules
from games.engine.duel import duel


class Command(BaseCommand):
    help = (
        "Play robots against each other: N deals with the seats rotated so that every robot "
        "sits everywhere equally; print per robot the deals won or the average points a "
        "deal, with a 95% confidence interval."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "game", choices=sorted(k for k in registry.GAMES if registry.robots(k) is not None)
        )
        parser.add_argument(
            "--robots",
            required=True,
            help="the strength at each seat, comma-separated: strong,club,…",
        )
        parser.add_argument("--deals", type=int, default=100)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--samples",
            type=int,
            help="the strong robots' samples a move (default: as many as fit in --budget)",
        )
        parser.add_argument(
            "--budget", type=float, help="the strong robots' seconds a move (default 0.3)"
        )
        parser.add_argument("--options", default="{}", help="the game's options, as JSON")
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")
        parser.add_argument(
            "--records", type=Path, metavar="DIR", help="write each deal's record to this folder"
        )

    def handle(
        self,
        *args,
        game,
        robots,
        deals,
        seed,
        samples,
        budget,
        options,
        json: bool,
        records,
        **rest,
    ):
        if deals < 1:
            raise CommandError("--deals must be at least 1")
        if samples is not None and samples < 1:
            raise CommandError("--samples must be at least 1")
        if budget is not None and budget <= 0:
            raise CommandError("--budget must be more than 0")
        rules = get_rules(game)
        try:
            options = rules.parse_options(loads(options))
        except (ValueError, InvalidRecord) as exc:
            raise CommandError(f"--options: {exc}") from None
        names = [name.strip() for name in robots.split(",")]
        strengths = registry.robots(game).ROBOTS
        unknown = [name for name in names if name not in strengths]
        if unknown:
            raise CommandError(
                f"unknown robot {unknown[0]!r}: the robots are {', '.join(strengths)}"
            )
        if len(names) != rules.seats(options):
            raise CommandError(
                f"--robots names {len(names)} robots; the table has {rules.seats(options)} seats"
            )
        if records is not None:
            try:
                records.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CommandError(f"cannot write records to {records}: {exc}") from None
        figures = duel(
            game,
            names,
            deals=deals,
            seed=seed,
            samples=samples,
            budget=budget,
            options=options,
            records_dir=records,
        )
        if json:
            self.stdout.write(dumps(figures))
            return
        self.stdout.write(text(figures))


def loads(text: str) -> dict:
    return json.loads(text)


def dumps(figures: dict) -> str:
    return json.dumps(figures)


def text(figures: dict) -> str:
    measure = figures["measure"]
    lines = [f"{figures['game']}: {figures['deals']} deals, seed {figures['seed']}"]
    for row in figures["robots"]:
        low, high = row["ci95"]
        seats = f" ({row['seats']} seats)" if row["seats"] > 1 else ""
        if measure == "won":
            lines.append(
                f"  {row['robot']}{seats}: won {100 * row[measure]:.1f}% of deals "
                f"(95% CI {100 * low:.1f}–{100 * high:.1f}%)"
            )
        else:
            lines.append(
                f"  {row['robot']}{seats}: {row[measure]:.2f} points a deal "
                f"(95% CI {low:.2f} to {high:.2f})"
            )
    for row in figures["versus"]:
        low, high = row["ci95"]
        scale, unit = (100, " points of %") if measure == "won" else (1, "")
        lines.append(
            f"  {row['robots'][0]} − {row['robots'][1]}: "
            f"{scale * row['difference']:+.2f}{unit} "
            f"(95% CI {scale * low:+.2f} to {scale * high:+.2f})"
        )
    return "\n".join(lines)
