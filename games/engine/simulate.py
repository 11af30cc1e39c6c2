"""Random play for tests and benchmarks: every seat picks a uniformly random legal action."""

import json
import random
import time
from pathlib import Path

from . import get_rules


def random_deal(rules, options: dict, dealer: int, rng: random.Random, check: bool = True):
    """Play one deal to its end; the final state and the actions, in record order."""
    state = rules.new_deal(options, dealer, rng.getrandbits(62))
    actions = []
    while not state.is_over():
        action = rng.choice(state.legal_actions())
        state.apply(action)
        if check:
            state.check_invariants()
        actions.append(action)
    return state, actions


def simulate(
    game: str,
    *,
    deals: int,
    seed: int,
    records_dir: Path | None = None,
    options: dict | None = None,
) -> dict:
    rules = get_rules(game)
    options = rules.parse_options(options or {})
    rng = random.Random(seed)
    seats = rules.seats(options)
    total_actions = 0
    started = time.perf_counter()
    for number in range(deals):
        state, actions = random_deal(rules, options, number % seats, rng)
        total_actions += len(actions)
        if records_dir is not None:
            record = {**state.record(), "actions": actions}
            path = records_dir / f"{game}-{seed}-{number:05d}.json"
            path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    seconds = time.perf_counter() - started
    return {
        "game": game,
        "deals": deals,
        "actions": total_actions,
        "seed": seed,
        "seconds": round(seconds, 4),
        "deals_per_second": round(deals / seconds, 1),
    }
