"""Standings (docs/rules/tournaments.md, "Scoring a table" and "Standings"): the worked
examples, exactly, and small cases computed by hand."""

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import registry
from tests.support import EXAMPLES
from tournaments.sheets import check_sheet
from tournaments.standings import (
    DEFAULT_ORDER,
    Round,
    RoundCell,
    Table,
    match_points,
    number,
    standings,
)


def from_document(doc: dict):
    """The standings of a tournament document: every table's rows checked with the game's
    parts; complete tables count."""
    parts = registry.tournament(doc["game"])
    options = registry.rules(doc["game"]).parse_options(doc.get("options"))
    settings = {name: doc[name] for name in parts.setting_names if name in doc}
    rounds = []
    for round_ in doc["rounds"]:
        tables = []
        for table in round_["tables"]:
            seats = len(table["players"])
            assert seats in parts.allowed_sizes()
            sheet = check_sheet(
                parts, table["rows"], seats=seats, options=options, settings=settings
            )
            if sheet.complete:
                tables.append(Table(table["players"], sheet.points))
        rounds.append(Round(tables, round_.get("byes", [])))
    return standings(
        doc["players"],
        rounds,
        bye_points=doc.get("bye_points", 3),
        order=doc.get("order", DEFAULT_ORDER),
    )


@pytest.mark.parametrize("name", ["fantan-seven", "variety-five"])
def test_worked_example(name):
    doc = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((EXAMPLES / f"{name}.standings.json").read_text(encoding="utf-8"))
    result = from_document(doc)
    assert result.as_json() == expected
    # the same text, not only equal numbers: 12 stays 12, 9.5 stays 9.5
    assert json.dumps(result.as_json(), ensure_ascii=False) == json.dumps(
        expected, ensure_ascii=False
    )


def test_worked_examples_are_both_there():
    assert sorted(p.name for p in EXAMPLES.glob("*.standings.json")) == [
        "duplicate-fantan-fifteen.standings.json",
        "duplicate-variety-nine.standings.json",
        "fantan-seven.standings.json",
        "variety-five.standings.json",
    ]


def test_fantan_example_breakdown():
    doc = json.loads((EXAMPLES / "fantan-seven.json").read_text(encoding="utf-8"))
    rows = {row.player: row for row in from_document(doc).rows}
    assert rows["Frank"].rounds == (RoundCell(6, 2), RoundCell(6, 2))
    assert rows["Рита"].rounds == (RoundCell(5, 1), RoundCell(Fraction(9, 2), 1))
    assert rows["Никита"].shared and rows["Zed"].shared and not rows["Frank"].shared
    assert (rows["Никита"].place, rows["Никита"].last_place) == (5, 6)


def test_variety_example_byes():
    doc = json.loads((EXAMPLES / "variety-five.json").read_text(encoding="utf-8"))
    rows = {row.player: row for row in from_document(doc).rows}
    assert rows["Mallory"].rounds[0] == RoundCell(3, None, bye=True)
    assert rows["Victor"].rounds[1] == RoundCell(3, None, bye=True)
    assert rows["Victor"].rounds[0] == RoundCell(0, -31)


# -- match points -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "points, expected",
    [
        ([5, 3], [6, 0]),
        ([3, 3], [3, 3]),
        ([1, 0, 0], [6, Fraction(3, 2), Fraction(3, 2)]),
        ([1, 1, 0], [Fraction(9, 2), Fraction(9, 2), 0]),
        ([2, 2, 2], [3, 3, 3]),
        ([0, 1, 2], [0, 3, 6]),
        ([4, 3, 2, 1], [6, 4, 2, 0]),
        ([1, 0, 0, 0], [6, 2, 2, 2]),
        ([1, 1, 0, 0], [5, 5, 1, 1]),
        ([7, 7, 7, 7], [3, 3, 3, 3]),
        ([-5, 10, 10, 0], [0, 5, 5, 2]),
    ],
)
def test_match_points(points, expected):
    assert match_points(points) == expected
    assert all(isinstance(value, Fraction) for value in match_points(points))


def test_halves_are_kept_exact_and_written_as_floats():
    assert number(Fraction(9, 2)) == 4.5 and isinstance(number(Fraction(9, 2)), float)
    assert number(Fraction(8, 2)) == 4 and isinstance(number(Fraction(8, 2)), int)
    # three halves add up exactly
    result = standings(["a", "b", "c"], [Round([Table(["a", "b", "c"], [0, 0, 1])])] * 3)
    assert {row.player: row.match_points for row in result.rows} == {
        "c": 18,
        "a": Fraction(9, 2),
        "b": Fraction(9, 2),
    }
    assert [row["match_points"] for row in result.as_json()] == [18, 4.5, 4.5]


@given(st.lists(st.integers(-30, 30), min_size=2, max_size=6))
def test_a_table_shares_three_per_player(points):
    assert sum(match_points(points)) == 3 * len(points)


def test_a_table_needs_two_players():
    with pytest.raises(ValueError):
        match_points([3])


# -- the keys -----------------------------------------------------------------------------


def by_player(result):
    return {row.player: row for row in result.rows}


def test_opponents_count_a_player_met_twice_twice():
    entrants = ["a", "b", "c", "d"]
    rounds = [
        Round([Table(["a", "b"], [5, 3]), Table(["c", "d"], [2, 2])]),
        Round([Table(["a", "b"], [1, 4]), Table(["c", "d"], [0, 9])]),
    ]
    rows = by_player(standings(entrants, rounds))
    # totals: a 6 + 0 = 6; b 0 + 6 = 6; c 3 + 0 = 3; d 3 + 6 = 9
    assert [rows[p].match_points for p in entrants] == [6, 6, 3, 9]
    assert rows["a"].opponents == 12 and rows["b"].opponents == 12  # each other, twice
    assert rows["c"].opponents == 18 and rows["d"].opponents == 6
    assert [rows[p].wins for p in entrants] == [1, 1, 0, 1]
    assert [rows[p].points for p in entrants] == [6, 7, 2, 11]


def test_byes_add_bye_points_and_nothing_to_opponents():
    entrants = ["a", "b", "c"]
    rounds = [
        Round([Table(["a", "b"], [3, 1])], byes=["c"]),
        Round([Table(["b", "c"], [2, 2])], byes=["a"]),
        Round([Table(["a", "c"], [0, 1])], byes=["b"]),
    ]
    rows = by_player(standings(entrants, rounds))
    assert rows["a"].match_points == 6 + 3 + 0
    assert rows["b"].match_points == 0 + 3 + 3
    assert rows["c"].match_points == 3 + 3 + 6
    # opponents: the totals of the players met at tables, the bye adds nothing
    assert rows["a"].opponents == rows["b"].match_points + rows["c"].match_points
    assert rows["b"].opponents == rows["a"].match_points + rows["c"].match_points
    assert rows["a"].points == 3 and rows["c"].points == 3  # a bye gives no game points
    assert rows["a"].rounds[1] == RoundCell(3, None, bye=True)


def test_bye_points_are_the_tournaments():
    rows = by_player(
        standings(
            ["a", "b", "c"], [Round([Table(["a", "b"], [1, 0])], ["c"])], bye_points=Fraction(3, 2)
        )
    )
    assert rows["c"].match_points == Fraction(3, 2)
    rows = by_player(
        standings(["a", "b", "c"], [Round([Table(["a", "b"], [1, 0])], ["c"])], bye_points=0)
    )
    assert rows["c"].match_points == 0


def test_a_shared_place_is_the_best_place_in_entry_order():
    entrants = ["e", "d", "c", "b", "a"]
    rounds = [Round([Table(["a", "b", "c", "d"], [3, 1, 1, 0])], byes=["e"])]
    result = standings(entrants, rounds, order=["match_points"])
    # a 6; b, c 3 each; e 3 (a bye); d 0
    assert [(row.place, row.player) for row in result.rows] == [
        (1, "a"),
        (2, "e"),
        (2, "c"),
        (2, "b"),
        (5, "d"),
    ]
    assert [row["place"] for row in result.as_json()] == [1, 2, 2, 2, 5]
    assert [row.last_place for row in result.rows] == [1, 4, 4, 4, 5]


def test_the_default_order_breaks_ties_by_points_then_opponents_then_wins():
    entrants = ["a", "b", "c", "d"]
    rounds = [Round([Table(["a", "b", "c", "d"], [5, 5, 1, 0])])]
    result = standings(entrants, rounds)
    assert [(row.place, row.player) for row in result.rows] == [
        (1, "a"),
        (1, "b"),
        (3, "c"),
        (4, "d"),
    ]
    assert result.rows[0].wins == 0  # equal first is no table win


def test_a_custom_order():
    entrants = ["a", "b", "c", "d"]
    rounds = [
        Round([Table(["a", "b", "c", "d"], [10, 9, 8, 7])]),
        Round([Table(["a", "b", "c", "d"], [0, 1, 30, 2])]),
    ]
    default = standings(entrants, rounds)
    by_points = standings(entrants, rounds, order=["points", "match_points"])
    # match points: a 6+0, b 4+2, c 2+6, d 0+4; points: a 10, b 10, c 38, d 9
    assert [row.player for row in default.rows] == ["c", "a", "b", "d"]
    assert [(row.place, row.player) for row in by_points.rows] == [
        (1, "c"),
        (2, "a"),
        (2, "b"),
        (4, "d"),
    ]
    assert by_points.order == ("points", "match_points")


def test_incomplete_tables_and_absent_players_count_for_nothing():
    result = standings(["a", "b", "c"], [Round([]), Round([Table(["a", "b"], [1, 0])])])
    rows = by_player(result)
    assert rows["c"].rounds == (None, None) and rows["c"].match_points == 0
    assert rows["a"].rounds == (None, RoundCell(6, 1))
    assert [(row.place, row.player) for row in result.rows] == [(1, "a"), (2, "b"), (3, "c")]
    shared = standings(
        ["a", "c", "b"], [Round([Table(["a", "b"], [1, 0])])], order=["match_points", "points"]
    )
    assert [(row.place, row.player) for row in shared.rows] == [(1, "a"), (2, "c"), (2, "b")]


def test_json_and_csv():
    result = standings(
        ["Анна", "Борис", "Вера"], [Round([Table(["Анна", "Борис", "Вера"], [2, 1, 1])])]
    )
    assert result.as_json() == [
        {"place": 1, "player": "Анна", "match_points": 6, "points": 2, "opponents": 3, "wins": 1},
        {
            "place": 2,
            "player": "Борис",
            "match_points": 1.5,
            "points": 1,
            "opponents": 7.5,
            "wins": 0,
        },
        {
            "place": 2,
            "player": "Вера",
            "match_points": 1.5,
            "points": 1,
            "opponents": 7.5,
            "wins": 0,
        },
    ]
    assert result.as_csv() == (
        '"place","player","match_points","points","opponents","wins"\n'
        '1,"Анна",6,2,3,1\n2,"Борис",1.5,1,7.5,0\n2,"Вера",1.5,1,7.5,0\n'
    )
    assert result.as_json(name=str.upper)[0]["player"] == "АННА"


@pytest.mark.parametrize(
    "call",
    [
        lambda: standings(["a", "a"], []),
        lambda: standings(["a", "b"], [Round([Table(["a", "x"], [1, 0])])]),
        lambda: standings(["a", "b"], [Round([], byes=["x"])]),
        lambda: standings(["a", "b"], [Round([Table(["a", "b"], [1])])]),
        lambda: standings(["a", "b"], [Round([Table(["a", "a"], [1, 0])])]),
        lambda: standings(["a", "b"], [], order=["points", "luck"]),
        lambda: standings(["a", "b"], [], order=[]),
    ],
)
def test_bad_input_is_a_value_error(call):
    with pytest.raises(ValueError):
        call()


# -- properties ---------------------------------------------------------------------------

ENTRANTS = [f"p{i}" for i in range(9)]


@st.composite
def tournaments(draw):
    rounds = []
    for _ in range(draw(st.integers(0, 4))):
        order = draw(st.permutations(ENTRANTS))
        sizes = draw(st.lists(st.sampled_from([2, 3, 4]), max_size=3))
        tables, at = [], 0
        for size in sizes:
            if at + size > len(order):
                break
            players = order[at : at + size]
            at += size
            tables.append(
                Table(players, draw(st.lists(st.integers(-5, 5), min_size=size, max_size=size)))
            )
        rounds.append(Round(tables, byes=order[at : at + draw(st.integers(0, 2))]))
    order = draw(
        st.sampled_from([DEFAULT_ORDER, ("points", "match_points"), ("wins", "opponents")])
    )
    return rounds, order


@given(tournaments())
def test_standings_properties(case):
    rounds, order = case
    result = standings(ENTRANTS, rounds, order=order)
    places = [row.place for row in result.rows]
    assert places == sorted(places) and places[0] == 1
    assert sorted(row.player for row in result.rows) == sorted(ENTRANTS)
    for i, row in enumerate(result.rows):
        key = tuple(getattr(row, name) for name in order)
        assert row.place <= i + 1 <= row.last_place
        if i:
            before = result.rows[i - 1]
            previous = tuple(getattr(before, name) for name in order)
            assert previous >= key
            if previous == key:  # a shared place: entry order
                assert row.place == before.place
                assert ENTRANTS.index(before.player) < ENTRANTS.index(row.player)
            else:
                assert row.place == i + 1
    tables = [table for round_ in rounds for table in round_.tables]
    byes = sum(len(round_.byes) for round_ in rounds)
    assert sum(row.match_points for row in result.rows) == (
        3 * sum(len(table.players) for table in tables) + 3 * byes
    )
    assert sum(row.points for row in result.rows) == sum(sum(t.points) for t in tables)


def test_adjustments_count_in_points_only():
    entrants = ["a", "b"]
    rounds = [Round([Table(["a", "b"], [3, 1])])]
    result = standings(entrants, rounds, adjustments={"b": 5})
    rows = by_player(result)
    assert rows["b"].points == 6 and rows["b"].adjustment == 5
    assert rows["b"].match_points == 0 and rows["b"].rounds == (RoundCell(0, 1),)
    assert [
        row.player for row in standings(entrants, rounds, adjustments={"b": 5}, order=["points"])
    ] == ["b", "a"]
    with pytest.raises(ValueError):
        standings(entrants, rounds, adjustments={"x": 1})


def test_shown_place_and_iteration():
    result = standings(["a", "b", "c"], [Round([Table(["a", "b", "c"], [0, 0, 1])])])
    assert len(result) == 3
    assert [row.shown_place for row in result] == ["1", "2–3", "2–3"]
