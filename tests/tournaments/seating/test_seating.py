"""Seating a tournament's rounds (docs/rules/tournaments.md, "A round" and "Seating"):
``tournaments.seating`` (pure Python) and the ``seating`` command.

The Hypothesis properties seat whole tournaments of every game by both methods, with entrants
leaving and joining, and check what every round must be; small Swiss rounds are compared with
a brute force over every seating; mixing must find the seatings without repeats the rules name.
"""

import json
import os
import random
import subprocess
import sys
from itertools import combinations

import pytest
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import registry
from tests.support.commands import ROOT, run
from tournaments.seating import Round, meetings, mixing, repeats, seat_round

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def sizes_of(game: str, entrants: int) -> list[int]:
    return registry.tournament(game).table_sizes(entrants)


def tournament(
    game: str,
    players: int,
    rounds: int,
    *,
    method: str | None = None,
    seed: int = 0,
    changes: list[int] | None = None,
) -> list[tuple[list[int], Round]]:
    """(entrants, round) for each round seated one after the other, with random standings
    (for Swiss) from the seed. ``changes[r]`` before round r + 2: 1 someone joins, 2 the
    second entrant leaves, 0 nothing."""
    method = method or registry.tournament(game).seating
    entrants = list(range(players))
    rng = random.Random(seed)
    history: list[Round] = []
    seated = []
    standings = None
    for number in range(1, rounds + 1):
        sizes = sizes_of(game, len(entrants))
        if not sizes:
            break
        rnd = seat_round(
            method=method,
            sizes=sizes,
            entrants=entrants,
            history=history,
            standings=standings,
            rounds_planned=rounds,
            round_number=number,
            seed=seed,
        )
        seated.append((list(entrants), rnd))
        history.append(rnd)
        standings = rng.sample(entrants, len(entrants))
        change = changes[number - 1] if changes and number <= len(changes) else 0
        if change == 1:
            entrants.append(max(entrants, default=-1) + 1)
        elif change == 2 and len(entrants) > 1:
            del entrants[1]
    return seated


def rematches(tables: list[list[int]], history: list[Round]) -> int:
    met = meetings(history)
    return sum(1 for t in tables for a, b in combinations(t, 2) if met[frozenset((a, b))])


# -- every round ------------------------------------------------------------------------------


@PROPERTY
@given(
    game=st.sampled_from(sorted(registry.GAMES)),
    players=st.integers(0, 22),
    rounds=st.integers(1, 4),
    method=st.sampled_from([None, "mixing", "swiss"]),
    seed=st.integers(0, 2**32),
    changes=st.lists(st.integers(0, 2), max_size=3),
)
def test_every_entrant_is_seated_once_a_round_at_the_games_tables_or_has_a_bye(
    game, players, rounds, method, seed, changes
):
    seated = tournament(game, players, rounds, method=method, seed=seed, changes=changes)
    if not sizes_of(game, players):
        assert seated == []
        return
    byes_had = dict.fromkeys(range(players + rounds), 0)
    for entrants, rnd in seated:
        everyone = [p for t in rnd.tables for p in t] + rnd.byes
        assert sorted(everyone) == sorted(entrants)
        sizes = sizes_of(game, len(entrants))
        assert sorted(map(len, rnd.tables), reverse=True) == sizes
        assert len(rnd.byes) == len(entrants) - sum(sizes)
        # byes rotate: nobody has a second bye while someone still in has fewer
        others = [e for e in entrants if e not in rnd.byes]
        if rnd.byes and others:
            assert max(byes_had[b] for b in rnd.byes) <= min(byes_had[e] for e in others)
        for b in rnd.byes:
            byes_had[b] += 1


@PROPERTY
@given(
    game=st.sampled_from(sorted(registry.GAMES)),
    players=st.integers(4, 22),
    method=st.sampled_from(["mixing", "swiss"]),
    seed=st.integers(0, 2**32),
)
def test_the_same_seed_gives_the_same_seating(game, players, method, seed):
    first = tournament(game, players, 3, method=method, seed=seed)
    mixing._plan.cache_clear()  # seated again from nothing, not from the plans kept
    assert tournament(game, players, 3, method=method, seed=seed) == first


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_different_seeds_give_different_seatings(game):
    firsts = {json.dumps(tournament(game, 16, 1, seed=seed)[0][1].tables) for seed in range(10)}
    assert len(firsts) >= 9


def test_the_seating_is_the_same_in_another_process():
    """No set order or string hash leaks into a draw: PYTHONHASHSEED changes nothing."""
    outputs = []
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [
                sys.executable,
                "manage.py",
                "seating",
                "fantan",
                "--players",
                "15",
                "--rounds",
                "3",
                "--seed",
                "9",
                "--json",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert done.returncode == 0, done.stderr
        outputs.append(json.loads(done.stdout)["rounds"])
    assert outputs[0] == outputs[1]


def test_the_seating_code_imports_no_django():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, tournaments.seating; "
            "assert not any(m.startswith('django') for m in sys.modules)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_repeats_count_k_minus_one_for_a_pair_that_met_k_times():
    rounds = [Round([[0, 1, 2, 3]]), Round([[0, 1, 4, 5]]), Round([[0, 1, 2, 6]], byes=[3])]
    assert repeats(rounds) == 2 + 1 + 1  # 0-1 met three times, 0-2 and 1-2 twice
    assert repeats(rounds[:1]) == 0


def test_byes_go_to_the_fewest_byes_then_by_lot_drawn_from_the_seed():
    history = [Round([[0, 1, 2, 3]], byes=[4]), Round([[4, 1, 2, 3]], byes=[0])]
    byes = {
        tuple(
            seat_round(
                method="mixing",
                sizes=[4],
                entrants=[0, 1, 2, 3, 4],
                history=history,
                rounds_planned=5,
                round_number=3,
                seed=seed,
            ).byes
        )
        for seed in range(20)
    }
    assert byes == {(1,), (2,), (3,)}


# -- mixing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "size"),
    [
        (16, 5, 4),
        (20, 5, 4),
        (40, 8, 4),
        (10, 9, 2),
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_mixing_finds_the_seatings_without_repeats(players, rounds, size, seed):
    seated = tournament(
        "leopard" if size == 2 else "variety", players, rounds, method="mixing", seed=seed
    )
    assert len(seated) == rounds
    assert repeats([rnd for _, rnd in seated]) == 0


def test_mixing_repeats_as_few_as_possible_where_some_are_unavoidable():
    for seed in range(5):
        assert repeats([rnd for _, rnd in tournament("variety", 8, 2, seed=seed)]) == 4
        # seven at a table of four and one of three: every pair has met by the third round
        assert repeats([rnd for _, rnd in tournament("fantan", 7, 5, seed=seed)]) == 45 - 21


def test_mixing_plans_the_remaining_rounds_together_and_follows_the_plan():
    plan = mixing.plan(
        sizes=[4] * 5,
        entrants=list(range(20)),
        history=[],
        rounds_planned=5,
        round_number=1,
        seed=4,
    )
    assert repeats(plan) == 0
    mixing._plan.cache_clear()
    seated = []
    for number in range(1, 6):
        seated.append(
            seat_round(
                method="mixing",
                sizes=[4] * 5,
                entrants=list(range(20)),
                history=seated,
                rounds_planned=5,
                round_number=number,
                seed=4,
            )
        )
        mixing._plan.cache_clear()
    assert seated == plan


@pytest.mark.parametrize("seed", range(3))
def test_mixing_repairs_the_plan_after_a_director_swaps_players(seed):
    entrants = list(range(16))
    first = seat_round(
        method="mixing",
        sizes=[4] * 4,
        entrants=entrants,
        history=[],
        rounds_planned=4,
        round_number=1,
        seed=seed,
    )
    tables = [list(t) for t in first.tables]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]  # the director's swap
    history = [Round(tables)]
    for number in range(2, 5):
        history.append(
            seat_round(
                method="mixing",
                sizes=[4] * 4,
                entrants=entrants,
                history=history,
                rounds_planned=4,
                round_number=number,
                seed=seed,
            )
        )
    assert repeats(history) == 0


def test_mixing_of_tables_of_four_and_three():
    seated = [rnd for _, rnd in tournament("fantan", 18, 4, seed=3)]
    assert all(sorted(map(len, r.tables)) == [3, 3, 4, 4, 4] for r in seated)
    assert repeats(seated) == 0


# -- Swiss ------------------------------------------------------------------------------------


def seatings(players: list[int], sizes: list[int]):
    """Every way to seat ``players`` at tables of ``sizes`` (each once)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes), reverse=True):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for below in seatings(remaining, left):
                yield [[first, *others], *below]


@st.composite
def swiss_rounds(draw, game: str, players: st.SearchStrategy):
    """A Swiss round to seat: entrants, earlier rounds of random tables, the standings."""
    n = draw(players)
    sizes = sizes_of(game, n)
    history = []
    for _ in range(draw(st.integers(1, n))):
        order = draw(st.permutations(range(n)))
        tables, at = [], 0
        for size in sizes:
            tables.append(list(order[at : at + size]))
            at += size
        history.append(Round(tables, list(order[at:])))
    standings = list(draw(st.permutations(range(n))))
    return list(range(n)), sizes, history, standings


def swiss(entrants, sizes, history, standings, seed=0) -> Round:
    return seat_round(
        method="swiss",
        sizes=sizes,
        entrants=entrants,
        history=history,
        standings=standings,
        rounds_planned=len(history) + 1,
        round_number=len(history) + 1,
        seed=seed,
    )


@settings(max_examples=150, deadline=None)
@given(swiss_rounds("leopard", st.integers(2, 11)))
def test_swiss_pairs_with_as_few_rematches_as_any_pairing_top_down(case):
    entrants, sizes, history, standings = case
    rnd = swiss(entrants, sizes, history, standings)
    playing = [p for p in standings if p not in rnd.byes]
    counts = {p: sum(p in r.byes for r in history) for p in entrants}
    # the byes: the fewest byes so far, then the lowest in the standings
    for b in rnd.byes:
        assert all(
            (counts[b], -standings.index(b)) <= (counts[p], -standings.index(p)) for p in playing
        )
    least = min(rematches(s, history) for s in seatings(playing, sizes))
    assert rematches(rnd.tables, history) == least
    # the best player sits with the best he can while the rest keep the fewest rematches
    top = playing[0]
    partners = [s[0][1] for s in seatings(playing, sizes) if rematches(s, history) == least]
    best = min(partners, key=playing.index)
    table = next(t for t in rnd.tables if top in t)
    assert table == [top, best]


@settings(max_examples=40, deadline=None)
@given(swiss_rounds("fantan", st.sampled_from([6, 7, 8, 9, 10, 12])))
def test_swiss_at_larger_tables_avoids_rematches_when_a_seating_does(case):
    entrants, sizes, history, standings = case
    rnd = swiss(entrants, sizes, history, standings)
    playing = [p for p in standings if p not in rnd.byes]
    if any(rematches(s, history) == 0 for s in seatings(playing, sizes)):
        assert rematches(rnd.tables, history) == 0


def test_swiss_seats_neighbours_in_the_standings_together():
    history = [Round([[0, 1], [2, 3], [4, 5], [6, 7]])]
    standings = [0, 2, 4, 6, 1, 3, 5, 7]
    rnd = swiss(list(range(8)), [2] * 4, history, standings)
    assert rnd.tables == [[0, 2], [4, 6], [1, 3], [5, 7]]
    standings = [0, 1, 2, 3, 4, 5, 6, 7]  # neighbours have met: the next one down
    assert swiss(list(range(8)), [2] * 4, history, standings).tables == [
        [0, 2],
        [1, 3],
        [4, 6],
        [5, 7],
    ]


def test_swiss_first_round_is_drawn_by_lot():
    draws = {
        json.dumps(swiss(list(range(10)), [2] * 5, [], None, seed=s).tables) for s in range(10)
    }
    assert len(draws) == 10


# -- the command ------------------------------------------------------------------------------


def test_seating_command_prints_the_rounds_as_json():
    code, out, _ = run(
        "seating", "variety", "--players", "20", "--rounds", "5", "--seed", "3", "--json"
    )
    figures = json.loads(out)
    assert code == 0 and set(figures) == {"rounds", "repeats", "seconds"}
    assert figures["repeats"] == 0
    assert len(figures["rounds"]) == 5
    for r in figures["rounds"]:
        assert set(r) == {"tables", "byes"} and r["byes"] == []
        assert sorted(p for t in r["tables"] for p in t) == list(range(20))


def test_seating_command_prints_each_round_then_repeats_and_seconds():
    code, out, _ = run("seating", "leopard", "--players", "5", "--rounds", "3", "--seed", "1")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 5
    assert lines[0].startswith("round 1: ") and "bye" in lines[0]
    assert lines[3].startswith("repeats: ") and lines[4].startswith("seconds: ")


def test_seating_command_seats_200_players_for_8_rounds_without_repeats():
    code, out, _ = run(
        "seating", "variety", "--players", "200", "--rounds", "8", "--seed", "1", "--json"
    )
    assert code == 0 and json.loads(out)["repeats"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess", "--players", "8", "--rounds", "2"], "unknown game"),
        (["leopard", "--players", "1", "--rounds", "2"], "too few"),
        (["variety", "--players", "3", "--rounds", "2"], "too few"),
        (["fantan", "--players", "8", "--rounds", "0"], "--rounds"),
    ],
)
def test_seating_command_refuses_bad_input_in_one_line(args, message):
    with pytest.raises(CommandError, match=message):
        run("seating", *args, "--seed", "1")


def test_seating_command_bad_input_in_a_real_process_is_one_line_without_traceback():
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "seating",
            "chess",
            "--players",
            "8",
            "--rounds",
            "2",
            "--seed",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
