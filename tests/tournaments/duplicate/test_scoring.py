"""A duplicate tournament's scoring (tournaments/duplicate/scoring.py, pure Python): margins,
matchpoints, Neuberg's formula for missing results, percentages and the field figure, against
the rules' two worked examples and as properties."""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import registry
from tournaments.duplicate.scoring import Board, compare, margins, player_totals

EXAMPLES = Path(__file__).resolve().parents[2] / "support" / "examples"


def scored_boards(document: dict) -> list[Board]:
    """The scored deals of a tournament document: each round's tables grouped by size, deal
    k scored once every table of its group has a row for it or a later round exists."""
    parts = registry.tournament(document["game"])
    settings = parts.read_settings({k: document[k] for k in ("deals", "scoring") if k in document})
    last = len(document["rounds"]) - 1
    boards = []
    for number, round_ in enumerate(document["rounds"]):
        groups: dict[int, list[tuple[int, dict]]] = {}
        for index, table in enumerate(round_["tables"]):
            groups.setdefault(len(table["players"]), []).append((index, table))
        for size, tables in groups.items():
            options = parts.table_options(document["options"], size)
            for deal in range(max(len(table["rows"]) for _, table in tables)):
                rows = {
                    index: parts.row_points(
                        parts.check_row(
                            table["rows"][deal], seats=size, options=options, settings=settings
                        ),
                        seats=size,
                        options=options,
                        settings=settings,
                    )
                    for index, table in tables
                    if len(table["rows"]) > deal
                }
                if len(rows) < len(tables) and number == last:
                    continue  # still to be played at a table of its group: not scored
                players = {index: table["players"] for index, table in tables}
                boards.append(Board(rows, players, len(tables)))
    return boards


@pytest.mark.parametrize("name", ["duplicate-variety-nine", "duplicate-fantan-fifteen"])
def test_the_worked_examples_give_exactly_their_percentages_fields_and_deals(name):
    document = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((EXAMPLES / f"{name}.standings.json").read_text(encoding="utf-8"))
    totals = player_totals(scored_boards(document))
    got = {
        player: (round(float(t.percent), 2), round(float(t.field), 2), t.deals)
        for player, t in totals.items()
    }
    assert got == {
        row["player"]: (row["percent"], row["field"], row["deals"])
        for row in expected
        if row["deals"]
    }


def test_a_margin_is_the_score_less_the_mean_of_the_others_at_its_table():
    assert margins([10, -2, 4, 0]) == [Fraction(28, 3), Fraction(-20, 3), Fraction(4, 3), -4]
    assert margins([3, 0, 0]) == [Fraction(3), Fraction(-3, 2), Fraction(-3, 2)]


def test_matchpoints_count_two_a_smaller_margin_and_one_an_equal_one():
    scored = compare({"a": Fraction(5), "b": Fraction(1), "c": Fraction(1), "d": Fraction(-2)}, 4)
    assert {t: s.matchpoints for t, s in scored.items()} == {"a": 6, "b": 3, "c": 3, "d": 0}
    assert {t: s.percent for t, s in scored.items()} == {"a": 100, "b": 50, "c": 50, "d": 0}
    assert {t: s.field for t, s in scored.items()} == {
        "a": Fraction(15, 4),
        "b": Fraction(-1, 4),
        "c": Fraction(-1, 4),
        "d": Fraction(-13, 4),
    }


def test_neuberg_scales_the_matchpoints_of_a_comparison_missing_results():
    # three results of four tables: 4, 2, 0 matchpoints become (MP + 1) × 4/3 − 1
    scored = compare({"a": Fraction(3), "b": Fraction(0), "c": Fraction(-3)}, 4)
    assert {t: s.matchpoints for t, s in scored.items()} == {
        "a": Fraction(17, 3),
        "b": Fraction(3),
        "c": Fraction(1, 3),
    }
    assert compare({"a": Fraction(7)}, 2)["a"].matchpoints == 1  # alone: the average


def test_a_group_of_one_table_scores_fifty_everywhere():
    assert compare({"only": Fraction(-12)}, 1)["only"].percent == 50


margin = st.fractions(min_value=-60, max_value=60, max_denominator=3)
scores = st.lists(st.integers(-60, 60), min_size=4, max_size=4)


@st.composite
def groups(draw):
    """A group of 2 to 6 tables of four with rows for 1 to 4 deals, some missing."""
    tables = draw(st.integers(2, 6))
    deals = draw(st.integers(1, 4))
    boards = []
    for _ in range(deals):
        played = draw(st.sets(st.integers(0, tables - 1), min_size=1))
        rows = {t: draw(scores) for t in sorted(played)}
        players = {t: [f"p{t}-{seat}" for seat in range(4)] for t in range(tables)}
        boards.append(Board(rows, players, tables))
    return boards


@given(st.dictionaries(st.integers(0, 9), margin, min_size=1), st.integers(0, 4))
def test_a_comparisons_figures_stay_within_the_top_and_balance(results, more):
    tables = len(results) + more
    scored = compare(results, tables)
    top = 2 * (tables - 1)
    assert all(0 <= s.matchpoints <= top and 0 <= s.percent <= 100 for s in scored.values())
    assert sum(s.field for s in scored.values()) == 0
    if not more:  # every pair of results shares two matchpoints
        assert sum(s.matchpoints for s in scored.values()) == len(results) * (len(results) - 1)


@given(groups(), st.randoms(use_true_random=False))
def test_renaming_or_reordering_a_groups_tables_changes_nobodys_figures(boards, lot):
    names = list(boards[0].players)
    renamed = dict(
        zip(names, lot.sample([f"table {n}" for n in range(50)], len(names)), strict=True)
    )
    moved = [
        Board(
            {renamed[t]: board.rows[t] for t in lot.sample(list(board.rows), len(board.rows))},
            {renamed[t]: board.players[t] for t in reversed(names)},
            board.tables,
        )
        for board in boards
    ]
    assert player_totals(moved) == player_totals(boards)


@given(groups())
def test_a_table_whose_every_row_equals_another_tables_gives_its_players_their_figures(boards):
    tables = boards[0].tables
    twin = [
        Board(
            {**board.rows, tables: board.rows[0]} if 0 in board.rows else dict(board.rows),
            {**board.players, tables: [f"twin-{seat}" for seat in range(4)]},
            tables + 1,
        )
        for board in boards
    ]
    totals = player_totals(twin)
    for seat in range(4):
        if f"p0-{seat}" in totals:
            assert totals[f"twin-{seat}"].percent == totals[f"p0-{seat}"].percent
            assert totals[f"twin-{seat}"].field == totals[f"p0-{seat}"].field


@given(
    st.dictionaries(st.integers(0, 59), st.fractions(-6, 6, max_denominator=4), min_size=1),
    st.integers(0, 3),
)
def test_a_big_groups_matchpoints_count_every_other_result_one_by_one(results, more):
    """The comparison as the rules define it, result by result, for groups of up to sixty
    tables and some results missing."""
    tables = len(results) + more
    scored = compare(results, tables)
    for table, margin in results.items():
        raw = sum(
            2 if other < margin else 1 if other == margin else 0
            for key, other in results.items()
            if key != table
        )
        expected = raw if not more else Fraction((raw + 1) * tables, len(results)) - 1
        assert scored[table].matchpoints == expected
        assert scored[table].field == margin - sum(results.values()) / len(results)
