"""Seating a tournament's round (docs/rules/tournaments.md, "Seating"): pure Python, no
Django, the same seating from the same inputs on any machine.

One method per module, chosen by name through ``METHODS``: ``mixing`` (players meet as many
different opponents as possible) and ``swiss`` (players of similar standing meet). The byes are
drawn the same way for both (``base.draw_byes``). ``least_repeats`` is the fewest repeats any
seating can have (``bounds``).
"""

from collections.abc import Callable

from . import mixing, swiss
from .base import Round, check, meetings, repeats
from .bounds import least_repeats

__all__ = ["METHODS", "Round", "least_repeats", "meetings", "repeats", "seat_round"]

# Each takes the keyword arguments of seat_round but the method, and uses those it needs.
METHODS: dict[str, Callable[..., Round]] = {"mixing": mixing.seat, "swiss": swiss.seat}


def seat_round(
    *,
    method: str,
    sizes: list[int],
    entrants: list[int],
    history: list[Round],
    standings: list[int] | None = None,
    rounds_planned: int,
    round_number: int,
    seed: int,
) -> Round:
    """The seating of round ``round_number`` (from 1).

    ``sizes``: the round's tables (the game's ``table_sizes``; the entrants left over have a
    bye); ``entrants``: those still in, in entry order; ``history``: the earlier rounds as
    they were seated (byes so far are counted from them); ``standings``: the entrants best
    first (Swiss; None before any results, when the round is drawn by lot);
    ``rounds_planned``: the tournament's planned rounds (mixing plans them all together).
    """
    check(sizes=sizes, entrants=entrants)
    try:
        seat = METHODS[method]
    except KeyError:
        raise ValueError(f"unknown seating method: {method!r}") from None
    return seat(
        sizes=list(sizes),
        entrants=list(entrants),
        history=list(history),
        standings=standings,
        rounds_planned=rounds_planned,
        round_number=round_number,
        seed=seed,
    )
