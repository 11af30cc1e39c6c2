"""``python -m bench.robots`` (in ``make bench``): how strong the robots play, and how
long the strong robot thinks. Pure Python, one process, one core.

For each game with robots, the duels its robots module names as its targets (``TARGETS``),
with their figures (the deals each strength won, or the difference of points a deal with its
95% confidence interval) and whether the target holds, then the strong robot's median think
time a move at its default budget (300 ms).

The number of deals and the strong robot's samples a move are settings, because the full
figures at the default budget take hours on one core: ``BENCH_ROBOTS_SCALE`` (default 1)
multiplies the targets' deal counts; ``BENCH_ROBOTS_SAMPLES`` (default: each game's
``BENCH_SAMPLES``; "budget" runs the duels at the real 300 ms budget).
"""

import os
import random
import statistics
import time

from bench import figures as figures_file
from games import registry
from games.engine import get_rules
from games.engine.duel import duel
from games.engine.robots import choices, robot
from games.management.commands.duel import text


def judged(figures: dict, target: tuple) -> tuple[bool, str]:
    """Whether the duel's figures hold the target, and the target in words."""
    if target[0] == "won":
        row = next(row for row in figures["robots"] if row["robot"] == target[1])
        return row["won"] >= target[2], f"{target[1]} wins at least {100 * target[2]:.0f}%"
    row = next(row for row in figures["versus"] if row["robots"] == [target[1], target[2]])
    return row["ci95"][0] > 0, f"{target[1]} above {target[2]}, the CI clear of zero"


def verdict(figures: dict, target: tuple) -> str:
    ok, wanted = judged(figures, target)
    return f"{'meets' if ok else 'MISSES'} the target: {wanted}"


def result(figures: dict, target: tuple) -> str:
    """The duel's figure that the target judges."""
    if target[0] == "won":
        row = next(row for row in figures["robots"] if row["robot"] == target[1])
        low, high = row["ci95"]
        return f"{target[1]} won {100 * row['won']:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%)"
    row = next(row for row in figures["versus"] if row["robots"] == [target[1], target[2]])
    low, high = row["ci95"]
    return (
        f"{target[1]} − {target[2]}: {row['difference']:+.2f} points a deal "
        f"(95% CI {low:+.2f} to {high:+.2f})"
    )


def think_times(game: str, moves: int = 15, seed: int = 0) -> list[float]:
    """Seconds the strong robot (default budget) takes over moves of club play-outs with a
    real choice (more than one legal action)."""
    rules = get_rules(game)
    options = rules.parse_options({})
    rng = random.Random(seed)
    strong, club = robot(game, "strong"), robot(game, "club")
    times = []
    while len(times) < moves:
        state = rules.new_deal(options, 0, rng.getrandbits(32))
        while not state.is_over() and len(times) < moves:
            legal = choices(state)
            view = state.view(state.to_act)
            if len(legal) > 1 and rng.random() < 0.3:
                started = time.perf_counter()
                strong.choose(view, legal, rng)
                times.append(time.perf_counter() - started)
            state.apply(
                club.say(view, club.choose(view, legal, rng) if len(legal) > 1 else legal[0])
            )
    return times


def main() -> None:
    scale = float(os.environ.get("BENCH_ROBOTS_SCALE", "1"))
    chosen = os.environ.get("BENCH_ROBOTS_SAMPLES")
    measured = [key for key in registry.GAMES if registry.robots(key) is not None]
    rows = []
    for game in measured:
        robots = registry.robots(game)
        samples = None if chosen == "budget" else int(chosen or robots.BENCH_SAMPLES)
        for target in robots.TARGETS:
            deals = max(len(target.robots), round(target.deals * scale))
            started = time.perf_counter()
            figures = duel(game, list(target.robots), deals=deals, seed=1, samples=samples)
            took = time.perf_counter() - started
            print(text(figures))
            print(
                f"  ({'budget' if samples is None else samples} samples a move; {took:.0f} s):"
                f" {verdict(figures, target.holds)}"
            )
            ok, wanted = judged(figures, target.holds)
            rows.append(
                [
                    game,
                    f"{', '.join(target.robots)}: {deals} deals, "
                    + ("the default budget" if samples is None else f"{samples} samples")
                    + " a move",
                    result(figures, target.holds),
                    f"{wanted}: {figures_file.verdict(ok)}",
                ]
            )
    for game in measured:
        times = think_times(game)
        print(
            f"{game}: the strong robot's median think time a move "
            f"{1000 * statistics.median(times):.0f} ms (default budget, {len(times)} moves)"
        )
        rows.append(
            [
                game,
                f"the strong robot's think time a move at its default budget, median of "
                f"{len(times)} moves",
                f"{1000 * statistics.median(times):.0f} ms",
                "—",
            ]
        )
    figures_file.record(
        "robots",
        "Robots",
        "python -m bench.robots",
        ["game", "measured", "figure", "target"],
        rows,
        [f"Seed 1; the targets' deals scaled by {scale:g} (BENCH_ROBOTS_SCALE)."],
    )


if __name__ == "__main__":
    main()
