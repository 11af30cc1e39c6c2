"""The fewest repeats any seating can have (docs/rules/tournaments.md, "Seating"): a lower
bound from counting, pure Python.

A seating's repeats (``base.repeats``) are its meetings beyond the first of each pair; so
they are also, round by round, the pairs of a round's tables who had sat together before.
Two arguments bound them from below, and the bound is the larger:

- **counting**: a player seated with more others than he has opponents left to meet meets
  the rest again. Over the rounds to play, player p is seated with ``m_p`` others in all,
  which the tables and his byes keep between a least and a most, and the ``m_p`` add up to
  twice the meetings of those rounds (``Σ_rounds Σ_tables C(size, 2)``); of them at most his
  ``fresh_p`` unmet opponents are new. So ``2 × repeats ≥ Σ_p max(0, m_p − fresh_p)``,
  taken at the least the ``m_p`` can make it. This is never below the count of pairs,
  ``meetings − unmet pairs``, nor below the simpler per-player form,
  ``½ Σ_p max(0, m_p − (N − 1))`` with every ``m_p`` as even as the tables allow.
- **pigeonholes**: a round's table of ``s`` drawn from the tables of one earlier round has
  at least the pairs of its players spread over them as evenly as can be sitting together
  again (8 players at two tables of four: every later table has two from each earlier
  table, two pairs again).

The byes go to those with the fewest so far (``base.draw_byes``): each player's future byes
are kept between what that rule can give him, whichever way its lot falls.
"""

from collections.abc import Sequence
from itertools import combinations

from .base import Round, bye_counts, repeats


def least_repeats(
    *,
    sizes: Sequence[int],
    rounds: int,
    entrants: int | Sequence[int],
    history: Sequence[Round] = (),
) -> int:
    """The fewest repeats a seating can end with: the ``history`` seated so far, then
    ``rounds`` more rounds at tables of ``sizes`` each among ``entrants`` (their ids, or
    their number for ids 0 to N − 1), the rest of each round having byes.

    15 entrants at Фантан's tables (4, 4, 4, 3) for 7 rounds: 42. Eight at two tables of
    four: 0 in one round, 4 in two (pigeonholes), 8 in three (counting)."""
    ids = list(range(entrants)) if isinstance(entrants, int) else list(entrants)
    sizes = list(sizes)
    done = repeats(list(history))
    if rounds <= 0 or not sizes:
        return done
    counts = bye_counts(list(history))
    played = _rounds_played([counts[e] for e in ids], count=len(ids) - sum(sizes), rounds=rounds)
    return done + future_repeats(
        sizes=sizes,
        rounds=rounds,
        entrants=ids,
        history=history,
        played=played,
    )


def future_repeats(
    *,
    sizes: list[int],
    rounds: int,
    entrants: list[int],
    history: Sequence[Round],
    played: list[tuple[int, int]],
) -> int:
    """The fewest repeats ``rounds`` more rounds must add to ``history``, ``played[i]``
    being the least and the most of them ``entrants[i]`` plays."""
    n = len(entrants)
    index = {e: i for i, e in enumerate(entrants)}
    met: list[set[int]] = [set() for _ in range(n)]
    for rnd in history:
        for table in rnd.tables:
            here = [index[p] for p in table if p in index]
            for a, b in combinations(here, 2):
                met[a].add(b)
                met[b].add(a)
    fresh = [n - 1 - len(m) for m in met]

    # counting
    meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
    counting = max(_counting(sizes, rounds, played, fresh), meetings - sum(fresh) // 2)

    # pigeonholes: against each round played, and the later rounds against the first
    def groups_of(tables: list[list[int]]) -> list[int]:
        groups = [len(t) for t in tables if len(t) > 1]
        return groups + [1] * (n - sum(groups))

    played_before = max(
        (
            _pigeonholes(groups_of([[p for p in t if p in index] for t in rnd.tables]), sizes)
            for rnd in history
        ),
        default=0,
    )
    against_first = _pigeonholes(groups_of([[0] * s for s in sizes]), sizes)
    holes = played_before + (rounds - 1) * max(played_before, against_first)
    return max(counting, holes)


def _counting(
    sizes: list[int], rounds: int, played: list[tuple[int, int]], fresh: list[int]
) -> int:
    """Half the least ``Σ_p max(0, m_p − fresh_p)`` the rounds allow, rounded up.

    At tables of one size ``s``, ``m_p`` is ``(s − 1)`` times the rounds p plays, which lie
    between his least and most and add up to the seats of all rounds: the least is found
    seat by seat, each to the player whom it costs the fewest repeats (the cost of a
    player's rounds only grows round by round). At tables of several sizes, ``m_p`` is taken
    as any whole number between ``(least − 1)`` times the smallest size and his most
    rounds times the largest less one, adding up to twice the meetings."""
    if len(set(sizes)) == 1:
        mates = sizes[0] - 1

        def cost(p: int, k: int) -> int:
            return max(0, mates * k - fresh[p])

        over = sum(cost(p, lo) for p, (lo, _) in enumerate(played))
        steps = sorted(
            cost(p, k + 1) - cost(p, k) for p, (lo, hi) in enumerate(played) for k in range(lo, hi)
        )
        seats = rounds * sum(sizes) - sum(lo for lo, _ in played)
        over += sum(steps[:seats])
    else:
        least, most = min(sizes) - 1, max(sizes) - 1
        lo = [fewest * least for fewest, _ in played]
        hi = [most_ * most for _, most_ in played]
        over = sum(max(0, lo[p] - fresh[p]) for p in range(len(fresh)))
        room = sum(max(0, min(hi[p], fresh[p]) - lo[p]) for p in range(len(fresh)))
        meetings = rounds * sum(s * (s - 1) for s in sizes)  # twice the meetings
        over += max(0, meetings - sum(lo) - room)
    return (over + 1) // 2


def _pigeonholes(groups: list[int], sizes: list[int]) -> int:
    """The fewest pairs of a round at tables of ``sizes`` who sat together in a round whose
    tables (and ones for those not at a table) held ``groups`` of the players: each table
    takes its players from as many groups, as evenly, as it can."""
    total = 0
    for size in sizes:
        taken = [0] * len(groups)
        for _ in range(size):
            g = min(
                (g for g in range(len(groups)) if taken[g] < groups[g]),
                key=taken.__getitem__,
                default=None,
            )
            if g is None:
                break
            total += taken[g]
            taken[g] += 1
    return total


def _rounds_played(counts: list[int], *, count: int, rounds: int) -> list[tuple[int, int]]:
    """The least and the most of ``rounds`` rounds each entrant plays, ``count`` byes a
    round going to those with the fewest byes (``counts`` so far), whichever way the lot
    breaks the ties: found by letting the lot give him every bye it can, then none."""
    if count <= 0:
        return [(rounds, rounds)] * len(counts)
    out: dict[int, tuple[int, int]] = {}
    for c in sorted(set(counts)):
        byes = []
        for tie in (-1, 1):  # he wins every tie for a bye, then loses every one
            now = list(counts)
            me = now.index(c)
            for _ in range(rounds):
                order = sorted(range(len(now)), key=lambda i: (now[i], tie if i == me else 0))
                for i in order[:count]:
                    now[i] += 1
            byes.append(now[me] - c)
        out[c] = (rounds - byes[0], rounds - byes[1])
    return [out[c] for c in counts]
