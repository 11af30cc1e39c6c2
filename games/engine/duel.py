"""Robots against robots (pure Python): deals played with the seats rotated so that every
robot sits at every seat equally often, and what each strength scored, with a 95% confidence
interval. ``python manage.py duel`` prints it."""

import json
import math
import random
import statistics
from itertools import permutations
from pathlib import Path

from .. import registry
from . import get_rules
from .robots import play_out, robot


def seatings(names: list[str]) -> list[tuple[str, ...]]:
    """Every distinct order of the robots at the seats (so a strength sits at each seat, and
    beside or across from each other, equally often), first the order given."""
    seen, orders = set(), []
    for order in permutations(names):
        if order not in seen:
            seen.add(order)
            orders.append(order)
    return orders


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def duel(
    game: str,
    names: list[str],
    *,
    deals: int,
    seed: int,
    samples: int | None = None,
    budget: float | None = None,
    options: dict | None = None,
    records_dir: Path | None = None,
) -> dict:
    """Play ``deals`` deals of ``game`` between robots of the strengths ``names`` (one a
    seat); the figures by strength."""
    rules = get_rules(game)
    options = rules.parse_options(options or {})
    measure = registry.robots(game).MEASURE
    settings = {k: v for k, v in (("samples", samples), ("budget", budget)) if v is not None}
    orders = seatings(names)
    rng = random.Random(seed)
    strengths = list(dict.fromkeys(names))
    per_deal = {name: [] for name in strengths}
    for number in range(deals):
        order = orders[number % len(orders)]
        robots = [robot(game, name, **settings) for name in order]
        dealer = number // len(orders) % len(order)
        state = rules.new_deal(options, dealer, rng.getrandbits(62))
        actions = play_out(state, robots, random.Random(rng.getrandbits(62)))
        scores = state.result()["scores"]
        for name in strengths:
            seats = [seat for seat, at in enumerate(order) if at == name]
            if measure == "won":
                got = [
                    float(all(scores[s] > scores[o] for o in range(len(scores)) if o != s))
                    for s in seats
                ]
            else:
                got = [float(scores[s]) for s in seats]
            per_deal[name].append(statistics.fmean(got))
        if records_dir is not None:
            record = {**state.record(), "actions": actions, "robots": list(order)}
            path = records_dir / f"{game}-{seed}-{number:05d}.json"
            path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    figures = {
        "game": game,
        "deals": deals,
        "seed": seed,
        "measure": measure,
        "robots": [],
        "versus": [],
    }
    for name in strengths:
        mean, low, high = interval(per_deal[name])
        figures["robots"].append(
            {"robot": name, "seats": names.count(name), measure: mean, "ci95": [low, high]}
        )
    for index, first in enumerate(strengths):
        for second in strengths[index + 1 :]:
            mean, low, high = interval(
                [a - b for a, b in zip(per_deal[first], per_deal[second], strict=True)]
            )
            figures["versus"].append(
                {"robots": [first, second], "difference": mean, "ci95": [low, high]}
            )
    return figures
