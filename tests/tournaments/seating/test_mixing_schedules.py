"""Mixing's schedules against the best known ones of the social golfer problem, and the lower
bound on repeats (docs/rules/tournaments.md, "Seating"): ``tournaments.seating`` alone.

Every tournament here is seated round by round, as a director draws it: each round from the
entrants still in and the rounds really seated before it.
"""

import json
import os
import subprocess
import sys
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import registry
from tests.support.commands import ROOT
from tournaments.seating import Round, least_repeats, mixing, repeats, seat_round
from tournaments.seating.designs import PLAYERS, design_round, rounds_without_repeats

FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def sizes_of(game: str, entrants: int) -> list[int]:
    return registry.tournament(game).table_sizes(entrants)


def seat(
    game: str,
    players: int,
    rounds: int,
    *,
    seed: int = 0,
    history: list[Round] | None = None,
    entrants: list[int] | None = None,
    until: int | None = None,
) -> list[Round]:
    """The rounds of a tournament of ``rounds`` seated one after the other by mixing, after
    ``history`` (kept as it is), up to round ``until`` (the last)."""
    entrants = list(range(players)) if entrants is None else entrants
    seated = list(history or [])
    for number in range(len(seated) + 1, (until or rounds) + 1):
        seated.append(
            seat_round(
                method="mixing",
                sizes=sizes_of(game, len(entrants)),
                entrants=entrants,
                history=seated,
                rounds_planned=rounds,
                round_number=number,
                seed=seed,
            )
        )
    return seated


# -- the designs ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_each_design_seats_everyone_once_a_round_and_no_pair_twice(players):
    met = set()
    for t in range(rounds_without_repeats(players)):
        tables = design_round(players, t)
        assert sorted(p for table in tables for p in table) == list(range(players))
        assert all(len(table) == 4 for table in tables)
        for table in tables:
            for pair in combinations(sorted(table), 2):
                assert pair not in met
                met.add(pair)


# -- no repeats where a schedule without any is known -----------------------------------------

BEST_KNOWN = [(16, 5), (20, 5), (24, 7), (28, 9), (32, 10), (36, 11), (40, 13)]


@pytest.mark.parametrize(
    ("players", "rounds"),
    [*BEST_KNOWN, (24, 6), (28, 7), (32, 8), (32, 9), (40, 10), (44, 8), (200, 8)],
)
def test_mixing_seats_tables_of_four_without_repeats_for_the_best_known_rounds(players, rounds):
    seated = seat("variety", players, rounds, seed=1)
    assert len(seated) == rounds
    assert repeats(seated) == 0


@FEW
@given(
    case=st.sampled_from(BEST_KNOWN).flatmap(
        lambda case: st.tuples(st.just(case[0]), st.integers(1, case[1]))
    ),
    seed=st.integers(0, 2**32),
)
def test_any_seed_and_any_fewer_rounds_seat_without_repeats(case, seed):
    players, rounds = case
    assert repeats(seat("variety", players, rounds, seed=seed)) == 0


@FEW
@given(players=st.sampled_from([16, 20]), seed=st.integers(0, 2**32))
def test_sixteen_and_twenty_players_meet_no_one_twice_in_five_rounds(players, seed):
    assert repeats(seat("variety", players, 5, seed=seed)) == 0


def test_pairs_are_seated_as_a_round_robin():
    seated = seat("leopard", 12, 11, seed=5)
    assert repeats(seated) == 0
    assert all(len(t) == 2 for r in seated for t in r.tables)


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(15, 5), (19, 5), (22, 7), (23, 7), (30, 10), (31, 10), (33, 11), (38, 12), (39, 13)],
)
def test_tables_of_four_and_three_seat_without_repeats_where_a_design_leaves_places_empty(
    players, rounds
):
    seated = seat("fantan", players, rounds, seed=2)
    assert all(sorted(map(len, r.tables)) == sorted(sizes_of("fantan", players)) for r in seated)
    assert repeats(seated) == 0


@pytest.mark.parametrize(("players", "rounds"), [(25, 7), (29, 9), (37, 11)])
def test_a_bye_a_round_still_seats_without_repeats_the_reserve_taking_the_byes_places(
    players, rounds
):
    seated = seat("variety", players, rounds, seed=3)
    assert all(len(r.byes) == 1 for r in seated)
    assert repeats(seated) == 0


# -- where repeats cannot be avoided: as few as the bound --------------------------------------


def test_fifteen_at_fantans_tables_for_seven_rounds_repeat_as_few_as_the_bound_42():
    assert sizes_of("fantan", 15) == [4, 4, 4, 3]
    assert least_repeats(sizes=[4, 4, 4, 3], rounds=7, entrants=15) == 42
    for seed in range(3):
        assert repeats(seat("fantan", 15, 7, seed=seed)) == 42


@pytest.mark.parametrize(("players", "rounds", "forced"), [(16, 6, 24), (16, 7, 48), (24, 9, 48)])
def test_rounds_beyond_the_design_repeat_only_what_counting_forces(players, rounds, forced):
    assert least_repeats(sizes=[4] * (players // 4), rounds=rounds, entrants=players) == forced
    assert repeats(seat("variety", players, rounds, seed=4)) == forced


# -- the bound --------------------------------------------------------------------------------


def test_the_bound_for_eight_players_at_two_tables_of_four():
    # one round: nothing forced; two: every table of the second holds two pairs of the
    # first's tables (pigeonholes), 4; three: 36 meetings of 28 pairs, 8 (counting)
    assert [least_repeats(sizes=[4, 4], rounds=r, entrants=8) for r in (1, 2, 3, 4)] == [
        0,
        4,
        8,
        20,
    ]
    assert repeats(seat("variety", 8, 2)) == 4
    assert repeats(seat("variety", 8, 3)) == 8


def test_the_bound_counts_the_byes_each_player_can_have():
    # 17 at four tables for six rounds: eleven play all six, meeting 18 of 16 opponents
    assert least_repeats(sizes=[4] * 4, rounds=6, entrants=17) == 11


def test_the_bound_after_rounds_played_adds_their_repeats_and_counts_whom_each_has_met():
    history = [Round([[0, 1, 2, 3], [4, 5, 6, 7]]), Round([[0, 1, 4, 5], [2, 3, 6, 7]])]
    assert repeats(history) == 4
    assert least_repeats(sizes=[4, 4], rounds=1, entrants=8, history=history) == 4 + 4
    assert least_repeats(sizes=[4, 4], rounds=0, entrants=8, history=history) == 4
    # an entrant who withdrew is not seated again, but his repeats stand
    assert least_repeats(sizes=[4], rounds=1, entrants=[0, 1, 2, 3, 4], history=history) >= 4


def fewest_repeats_of_any_seating(players: int, sizes: list[int], rounds: int) -> int:
    """By trying every seating of every round (tiny cases; byes by the fewest-first rule)."""

    def seatings(left: list[int], sizes: list[int]):
        if not sizes:
            yield [], left
            return
        for table in combinations(left, sizes[0]):
            rest = [p for p in left if p not in table]
            for tables, byes in seatings(rest, sizes[1:]):
                yield [list(table), *tables], byes

    options = list(seatings(list(range(players)), sizes))
    best = None

    def extend(history: list[Round]):
        nonlocal best
        if len(history) == rounds:
            best = repeats(history) if best is None else min(best, repeats(history))
            return
        had = {p: sum(p in r.byes for r in history) for p in range(players)}
        for tables, byes in options:
            others = [p for p in range(players) if p not in byes]
            if byes and max(had[b] for b in byes) > min(had[p] for p in others):
                continue
            extend([*history, Round(tables, byes)])

    extend([])
    return best


@pytest.mark.parametrize(
    ("players", "sizes", "rounds"),
    [(6, [3, 3], 3), (7, [4, 3], 2), (6, [4], 3), (5, [3], 3), (8, [4, 4], 2), (7, [3, 3], 2)],
)
def test_the_bound_is_never_above_the_fewest_repeats_of_any_seating(players, sizes, rounds):
    bound = least_repeats(sizes=sizes, rounds=rounds, entrants=players)
    assert bound <= fewest_repeats_of_any_seating(players, sizes, rounds)


# -- re-planning: a withdrawal, a late entry, a director's swap --------------------------------


@pytest.mark.parametrize(("players", "rounds", "after"), [(24, 5, 2), (28, 6, 2), (40, 8, 3)])
def test_after_a_withdrawal_the_rest_is_replanned_without_repeats_and_the_played_rounds_stand(
    players, rounds, after
):
    played = seat("variety", players, rounds, seed=6, until=after)
    kept = json.dumps([[r.tables, r.byes] for r in played])
    entrants = [e for e in range(players) if e != 5]  # the sixth entrant withdraws
    seated = seat("variety", players, rounds, seed=6, history=played, entrants=entrants)
    assert json.dumps([[r.tables, r.byes] for r in seated[:after]]) == kept
    assert all(5 not in r.players() and 5 not in r.byes for r in seated[after:])
    assert repeats(seated) == 0


def test_after_a_withdrawal_at_fantan_the_tables_of_three_keep_the_plan():
    played = seat("fantan", 16, 5, seed=7, until=2)
    entrants = [e for e in range(16) if e != 0]
    seated = seat("fantan", 16, 5, seed=7, history=played, entrants=entrants)
    assert [sorted(map(len, r.tables)) for r in seated[2:]] == [[3, 4, 4, 4]] * 3
    assert repeats(seated) == 0


def test_a_late_entrant_is_seated_and_the_rest_replanned_without_repeats():
    played = seat("variety", 28, 6, seed=8, until=2)
    entrants = list(range(29))
    seated = seat("variety", 28, 6, seed=8, history=played, entrants=entrants)
    assert 28 in seated[2].players() + seated[2].byes
    assert repeats(seated) == 0


@pytest.mark.parametrize(("players", "rounds"), [(28, 9), (40, 13)])
def test_a_directors_swap_in_the_first_round_is_followed_without_repeats(players, rounds):
    first = seat("variety", players, rounds, seed=9, until=1)[0]
    tables = [list(t) for t in first.tables]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
    seated = seat("variety", players, rounds, seed=9, history=[Round(tables)])
    assert seated[0].tables == tables
    assert repeats(seated) == 0


def test_an_undisturbed_tournament_follows_its_first_plan():
    plan = mixing.plan(
        sizes=[4] * 7,
        entrants=list(range(30)),
        history=[],
        rounds_planned=8,
        round_number=1,
        seed=10,
    )
    mixing._plan.cache_clear()
    assert seat("variety", 30, 8, seed=10) == plan


# -- the same seating on any machine -----------------------------------------------------------

SEAT_IN_A_PROCESS = """
import json
from tournaments.seating import seat_round
entrants, history = list(range(30)), []
for number in range(1, 9):
    if number == 4:
        entrants.remove(7)
    history.append(seat_round(method="mixing", sizes=[4] * (len(entrants) // 4),
                              entrants=entrants, history=history, rounds_planned=8,
                              round_number=number, seed=11))
print(json.dumps([[r.tables, r.byes] for r in history]))
"""


def test_the_same_inputs_give_the_same_seating_in_another_process_whatever_its_hash_seed():
    """The searches stop after a fixed amount of work and no set or dict order of strings
    enters a draw: another process, another PYTHONHASHSEED, the same seating."""
    outputs = []
    for hash_seed in ("0", "12345"):
        done = subprocess.run(
            [sys.executable, "-c", SEAT_IN_A_PROCESS],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert done.returncode == 0, done.stderr
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1]
    mixing._plan.cache_clear()
    entrants, history = list(range(30)), []
    for number in range(1, 9):
        if number == 4:
            entrants.remove(7)
        history.append(
            seat_round(
                method="mixing",
                sizes=[4] * (len(entrants) // 4),
                entrants=entrants,
                history=history,
                rounds_planned=8,
                round_number=number,
                seed=11,
            )
        )
    assert [[r.tables, r.byes] for r in history] == outputs[0]
