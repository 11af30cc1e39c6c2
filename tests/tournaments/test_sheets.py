"""Sheets typed in from paper (docs/rules/tournaments.md): every check of each game's
rows, the table sizes, when a sheet is complete, and hotseat results as rows."""

import random

import pytest

from games import registry
from games.engine.simulate import random_deal
from games.engine.tournament import RowError
from tournaments.sheets import SheetError, check_sheet

FANTAN = registry.tournament("fantan")
VARIETY = registry.tournament("variety")
LEOPARD = registry.tournament("leopard")


def check(parts, row, *, seats=None, options=None, settings=None):
    seats = seats or max(parts.allowed_sizes())
    options = parts.table_options(options or {}, seats)
    return parts.check_row(row, seats=seats, options=options, settings=settings or {})


def refused(parts, row, reason, **kwargs) -> RowError:
    """The row is refused with a message matching ``reason``; the message is the marked
    English sentence with its placeholders, the parameters apart."""
    with pytest.raises(RowError) as caught:
        check(parts, row, **kwargs)
    error = caught.value
    assert error.message % error.params == str(error)
    assert reason.lower() in str(error).lower(), str(error)
    return error


# -- what each game brings ----------------------------------------------------------------


def test_the_parts_are_registered():
    assert (FANTAN.key, VARIETY.key, LEOPARD.key) == ("fantan", "variety", "leopard")
    assert (FANTAN.seating, VARIETY.seating, LEOPARD.seating) == ("mixing", "mixing", "swiss")
    assert FANTAN.setting_names == ("deals",)
    assert VARIETY.setting_names == LEOPARD.setting_names == ()
    assert FANTAN.allowed_sizes() == (3, 4)
    assert VARIETY.allowed_sizes() == (4,)
    assert LEOPARD.allowed_sizes() == (2,)


@pytest.mark.parametrize(
    "entrants, sizes",
    [
        (0, []),
        (1, []),
        (2, []),
        (3, [3]),
        (4, [4]),
        (5, [4]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
        (14, [4, 4, 3, 3]),
        (17, [4, 4, 3, 3, 3]),
        (40, [4] * 10),
    ],
)
def test_fantan_table_sizes(entrants, sizes):
    assert FANTAN.table_sizes(entrants) == sizes


@pytest.mark.parametrize("entrants", range(0, 30))
def test_variety_and_leopard_table_sizes(entrants):
    assert VARIETY.table_sizes(entrants) == [4] * (entrants // 4)
    assert LEOPARD.table_sizes(entrants) == [2] * (entrants // 2)


@pytest.mark.parametrize("entrants", range(3, 60))
def test_fantan_seats_everyone_but_five(entrants):
    sizes = FANTAN.table_sizes(entrants)
    assert sum(sizes) == entrants - (entrants == 5)
    assert sizes == sorted(sizes, reverse=True)


def test_table_options():
    assert FANTAN.table_options({"scoring": "cards"}, 3) == {"scoring": "cards", "players": 3}
    assert FANTAN.table_options({"players": 3}, 4) == {"players": 4}
    assert VARIETY.table_options({"cycle": "short"}, 4) == {"cycle": "short"}
    assert LEOPARD.table_options({"target": 33}, 2) == {"target": 33}


# -- Выборы -------------------------------------------------------------------------------


def variety(contract, attackers, scores):
    return {"contract": contract, "attackers": attackers, "scores": scores}


@pytest.mark.parametrize(
    "row",
    [
        variety(1, [0, 2], [12, 0, 12, 0]),  # the attackers took more tricks
        variety(1, [0, 1], [0, 0, 22, 22]),  # they did not: +10 each defender
        variety(2, [1, 3], [6, 20, 6, 20]),
        variety(3, [3, 0], [0, 36, 36, 0]),
        variety(4, [3, 2], [20, 20, -10, -10]),  # -10 and 10: the defenders score more
        variety(4, [0, 1], [0, 0, 10, 10]),  # equal points are a loss for the attackers
        variety(5, [0, 2], [-5, 15, -5, 15]),
        variety(5, [1, 2], [-20, 20, 20, -20]),
        variety(6, [0, 3], [14, 12, 12, 14]),
        variety(6, [0, 3], [13, 23, 23, 13]),
        variety(7, [2, 3], [-20, -20, -6, -6]),
        variety(8, [1, 2], [-18, -8, -8, -18]),
        variety(8, [3, 0], [-18, 2, 2, -18]),
    ],
)
def test_variety_good_rows(row):
    assert check(VARIETY, row) == row
    assert VARIETY.row_points(row, seats=4, options={}, settings={}) == row["scores"]


def test_variety_row_is_copied_in_canonical_form():
    row = variety(2, [1, 3], [6, 20, 6, 20])
    kept = check(VARIETY, row)
    assert kept == row and kept is not row and kept["scores"] is not row["scores"]


@pytest.mark.parametrize(
    "row, reason",
    [
        ([1, [0, 1], [0, 0, 22, 22]], "json object"),
        (None, "json object"),
        ({"attackers": [0, 1], "scores": [0, 0, 22, 22]}, "no “contract”"),
        ({"contract": 1, "scores": [0, 0, 22, 22]}, "no “attackers”"),
        ({"contract": 1, "attackers": [0, 1]}, "no “scores”"),
        (variety(1, [0, 1], [0, 0, 22, 22]) | {"dealer": 0}, "unknown key “dealer”"),
        (variety("1", [0, 1], [0, 0, 22, 22]), "“contract” must be a whole number"),
        (variety(True, [0, 1], [0, 0, 22, 22]), "“contract” must be a whole number"),
        (variety(1.0, [0, 1], [0, 0, 22, 22]), "“contract” must be a whole number"),
        (variety(0, [0, 1], [0, 0, 22, 22]), "contract must be a number from 1 to 8"),
        (variety(9, [0, 1], [0, 0, 22, 22]), "contract must be a number from 1 to 8"),
        (variety(1, [0, 0], [0, 0, 22, 22]), "names seat 0 twice"),
        (variety(1, [0], [0, 0, 22, 22]), "list of 2 seats"),
        (variety(1, [0, 1, 2], [0, 0, 22, 22]), "list of 2 seats"),
        (variety(1, [0, 4], [0, 0, 22, 22]), "each from 0 to 3"),
        (variety(1, [-1, 0], [0, 0, 22, 22]), "each from 0 to 3"),
        (variety(1, [0, True], [0, 0, 22, 22]), "list of 2 seats"),
        (variety(1, "01", [0, 0, 22, 22]), "list of 2 seats"),
        (variety(1, [0, 1], [0, 0, 22]), "list of 4 whole numbers"),
        (variety(1, [0, 1], [0, 0, 22, 22, 0]), "list of 4 whole numbers"),
        (variety(1, [0, 1], [0, 0, "22", 22]), "list of 4 whole numbers"),
        (variety(1, [0, 1], [0, 0, 22.0, 22]), "list of 4 whole numbers"),
        (variety(1, [0, 1], {"0": 0}), "list of 4 whole numbers"),
    ],
)
def test_variety_shape(row, reason):
    refused(VARIETY, row, reason)


@pytest.mark.parametrize(
    "row",
    [
        variety(2, [0, 1], [20, 18, 6, 6]),  # the attackers differ
        variety(2, [0, 1], [20, 20, 6, 16]),  # the defenders differ
        variety(2, [0, 2], [20, 6, 20, 8]),
    ],
)
def test_variety_partners_figures_equal(row):
    refused(VARIETY, row, "partners' figures must be equal")


@pytest.mark.parametrize(
    "contract, attack",
    [
        (1, 6),
        (1, -12),
        (1, 24),
        (2, 7),
        (2, -2),
        (2, 28),
        (3, 3),
        (3, 28),
        (4, 3),
        (4, 28),
        (4, -28),
        (5, 3),
        (5, 25),
        (5, -25),
        (6, -1),
        (6, 27),
        (7, 2),
        (7, -3),
        (7, -28),
        (8, 2),
        (8, -1),
        (8, -28),
    ],
)
def test_variety_attackers_points_possible(contract, attack):
    error = refused(
        VARIETY, variety(contract, [0, 1], [attack, attack, 0, 0]), "attackers cannot score"
    )
    assert error.params == {"points": attack, "contract": contract}


@pytest.mark.parametrize(
    "contract, attack, figure",
    [
        (1, 12, 5),
        (2, 10, 15),
        (2, 0, 38),
        (3, 0, -2),
        (4, 0, 37),
        (5, 0, 33),
        (5, 5, 2),
        (6, 0, 37),
        (7, 0, 13),
        (8, -26, 11),
        (8, 0, -27),
    ],
)
def test_variety_defenders_points_possible(contract, attack, figure):
    refused(
        VARIETY,
        variety(contract, [0, 1], [attack, attack, figure, figure]),
        "defenders cannot score",
    )


@pytest.mark.parametrize(
    "contract, attack, figure",
    [
        (1, 12, 12),
        (1, 0, 0),
        (2, 20, 2),
        (2, 20, 8),
        (3, 26, 2),
        (4, 10, 2),
        (4, 10, -8),
        (5, 20, 0),
        (6, 20, 10),
        (6, 0, 20),
        (7, -10, -10),
        (8, -26, -2),
        (8, 0, 0),
    ],
)
def test_variety_sides_add_up(contract, attack, figure):
    refused(VARIETY, variety(contract, [2, 3], [figure, figure, attack, attack]), "must add up to")


@pytest.mark.parametrize(
    "contract, attack, figure",
    [
        (1, 0, 12),  # lost, no +10
        (2, 12, 14),
        (2, 0, 26),
        (3, 10, 16),
        (4, 0, 0),
        (4, -6, 6),
        (5, 0, 0),
        (5, -10, 10),
        (6, 13, 13),
        (7, -14, -12),
        (8, -26, 0),
    ],
)
def test_variety_bonus_missing(contract, attack, figure):
    refused(
        VARIETY, variety(contract, [1, 2], [figure, attack, attack, figure]), "must include the +10"
    )


@pytest.mark.parametrize(
    "contract, attack, figure",
    [
        (1, 12, 10),
        (2, 14, 22),
        (3, 26, 10),
        (4, 2, 8),
        (5, 10, 0),
        (6, 20, 16),
        (7, -12, -4),
        (8, 0, -16),
    ],
)
def test_variety_bonus_only_when_attackers_lost(contract, attack, figure):
    refused(VARIETY, variety(contract, [1, 2], [figure, attack, attack, figure]), "get no +10")


# -- Фантан -------------------------------------------------------------------------------


def fantan(finish_order, cards_left, **extra):
    return {"finish_order": finish_order, "cards_left": cards_left, **extra}


@pytest.mark.parametrize(
    "row, seats, options, scores",
    [
        (fantan([1], [3, 0, 1, 3]), 4, {}, [0, 1, 0, 0]),
        (fantan([2], [13, 1, 0, 13]), 4, {}, [0, 0, 1, 0]),
        (fantan([2], [17, 1, 0]), 3, {}, [0, 0, 1]),
        (fantan([0], [0, 4, 2, 1]), 4, {"scoring": "cards"}, [7, -4, -2, -1]),
        (fantan([1], [2, 0, 5]), 3, {"scoring": "cards"}, [-2, 7, -5]),
        (fantan([3, 1], [2, 0, 5, 0]), 4, {"until_out": 2}, [0, 500, 0, 800]),
        (
            fantan([3, 1], [2, 0, 5, 0]),
            4,
            {"until_out": 2, "premiums": [200, 125]},
            [0, 125, 0, 200],
        ),
        (fantan([3, 1], [2, 0, 5, 0]), 4, {"until_out": 2, "scoring": "win"}, [0, 0, 0, 1]),
        (fantan([3, 1], [2, 0, 5, 0]), 4, {"until_out": 2, "scoring": "cards"}, [-2, 0, -5, 7]),
        (fantan([0], [0, 1, 1, 1]), 4, {"scoring": "premiums"}, [800, 0, 0, 0]),
        (fantan([1], [3, 0, 1, 3], scores=[0, 1, 0, 0]), 4, {}, [0, 1, 0, 0]),
    ],
)
def test_fantan_good_rows(row, seats, options, scores):
    kept = check(FANTAN, row, seats=seats, options=options)
    assert kept == {
        "finish_order": row["finish_order"],
        "cards_left": row["cards_left"],
        "scores": scores,
    }
    assert FANTAN.row_points(kept, seats=seats, options=options, settings={}) == scores
    assert check(FANTAN, kept, seats=seats, options=options) == kept  # canonical: stable


@pytest.mark.parametrize(
    "row, seats, options, reason",
    [
        ("row", 4, {}, "json object"),
        ({"cards_left": [3, 0, 1, 3]}, 4, {}, "no “finish_order”"),
        ({"finish_order": [1]}, 4, {}, "no “cards_left”"),
        (fantan([1], [3, 0, 1, 3], winner=1), 4, {}, "unknown key “winner”"),
        (fantan(1, [3, 0, 1, 3]), 4, {}, "“finish_order” must be a list of 1 seats"),
        (fantan([], [3, 0, 1, 3]), 4, {}, "“finish_order” must be a list of 1 seats"),
        (fantan([1, 2], [3, 0, 0, 3]), 4, {}, "“finish_order” must be a list of 1 seats"),
        (fantan([1], [3, 0, 1, 3]), 4, {"until_out": 2}, "“finish_order” must be a list of 2"),
        (fantan([1, 1], [3, 0, 1, 3]), 4, {"until_out": 2}, "names seat 1 twice"),
        (fantan([4], [3, 0, 1, 3]), 4, {}, "each from 0 to 3"),
        (fantan([3], [3, 0, 1]), 3, {}, "each from 0 to 2"),
        (fantan(["1"], [3, 0, 1, 3]), 4, {}, "“finish_order” must be a list of 1 seats"),
        (fantan([True], [3, 0, 1, 3]), 4, {}, "“finish_order” must be a list of 1 seats"),
        (fantan([1], [3, 0, 1]), 4, {}, "“cards_left” must be a list of 4 whole numbers"),
        (fantan([1], [3, 0, 1, 3]), 3, {}, "“cards_left” must be a list of 3 whole numbers"),
        (fantan([1], [3, False, 1, 3]), 4, {}, "“cards_left” must be a list of 4 whole"),
        (fantan([1], [3, 0, 1.5, 3]), 4, {}, "“cards_left” must be a list of 4 whole"),
        (fantan([1], [3, 0, None, 3]), 4, {}, "“cards_left” must be a list of 4 whole"),
        (fantan([1], [3, 1, 1, 3]), 4, {}, "seat 1 went out, so has no cards left, not 1"),
        (fantan([3, 1], [2, 0, 5, 2]), 4, {"until_out": 2}, "seat 3 went out"),
        (fantan([1], [3, 0, 0, 3]), 4, {}, "seat 2 did not go out, so has 1 to 13"),
        (fantan([1], [3, 0, -1, 3]), 4, {}, "seat 2 did not go out, so has 1 to 13"),
        (fantan([1], [14, 0, 1, 3]), 4, {}, "seat 0 did not go out, so has 1 to 13 cards left"),
        (fantan([1], [18, 0, 1]), 3, {}, "seat 0 did not go out, so has 1 to 17 cards left"),
        (fantan([1], [3, 0, 1, 3], scores=[0, 0, 1, 0]), 4, {}, "do not follow"),
        (fantan([1], [3, 0, 1, 3], scores=[-3, 7, -1, -3]), 4, {}, "do not follow"),
        (
            fantan([1], [3, 0, 1, 3], scores=[-3, 7, -1, -3]),
            4,
            {"scoring": "premiums"},
            "do not follow",
        ),
        (fantan([1], [3, 0, 1, 3], scores=[0, 1, 0]), 4, {}, "“scores” must be a list of 4"),
        (fantan([1], [3, 0, 1, 3], scores=None), 4, {}, "“scores” must be a list of 4"),
    ],
)
def test_fantan_refused(row, seats, options, reason):
    refused(FANTAN, row, reason, seats=seats, options=options)


def test_fantan_given_scores_follow_the_tournaments_scoring():
    row = fantan([1], [3, 0, 1, 3], scores=[-3, 7, -1, -3])
    assert check(FANTAN, row, options={"scoring": "cards"})["scores"] == [-3, 7, -1, -3]


# -- Леопард ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "row",
    [
        {"scores": [0, 0], "ender": None},
        {"scores": [16, 3], "ender": None},
        {"scores": [4, 16], "ender": 0},  # a sum of 5: 2 × 5 − 6
        {"scores": [0, 26], "ender": 1},  # a sum of 16
        {"scores": [14, 7], "ender": 0},  # the book's example: 10 gives 14
    ],
)
def test_leopard_good_rows(row):
    assert check(LEOPARD, row) == row
    assert LEOPARD.row_points(row, seats=2, options={}, settings={}) == row["scores"]


@pytest.mark.parametrize(
    "row, reason",
    [
        ([3, 4], "json object"),
        ({"ender": None}, "no “scores”"),
        ({"scores": [3, 4]}, "no “ender”"),
        ({"scores": [3, 4], "ender": None, "sums": [3, 4]}, "unknown key “sums”"),
        ({"scores": [3], "ender": None}, "list of 2 whole numbers"),
        ({"scores": [3, 4, 5], "ender": None}, "list of 2 whole numbers"),
        ({"scores": ["3", 4], "ender": None}, "list of 2 whole numbers"),
        ({"scores": [3.0, 4], "ender": None}, "list of 2 whole numbers"),
        ({"scores": [3, True], "ender": None}, "list of 2 whole numbers"),
        ({"scores": [-1, 4], "ender": None}, "below 0"),
        ({"scores": [4, -2], "ender": 0}, "below 0"),
        ({"scores": [17, 4], "ender": None}, "more than a square can give"),
        ({"scores": [4, 17], "ender": 0}, "more than a square can give"),
        ({"scores": [5, 4], "ender": 0}, "declared the end"),  # odd
        ({"scores": [2, 4], "ender": 0}, "declared the end"),  # a sum of 4
        ({"scores": [3, 0], "ender": 1}, "declared the end"),  # 0: a sum of 3
        ({"scores": [3, 28], "ender": 1}, "declared the end"),  # a sum of 17
        ({"scores": [3, 4], "ender": 2}, "“ender” must be a seat from 0 to 1"),
        ({"scores": [3, 4], "ender": -1}, "“ender” must be a seat from 0 to 1"),
        ({"scores": [4, 4], "ender": "0"}, "“ender” must be a seat"),
        ({"scores": [4, 4], "ender": False}, "“ender” must be a seat"),
    ],
)
def test_leopard_refused(row, reason):
    refused(LEOPARD, row, reason)


# -- complete sheets ----------------------------------------------------------------------


def sheet(parts, rows, seats=None, options=None, settings=None):
    seats = seats or max(parts.allowed_sizes())
    return check_sheet(parts, rows, seats=seats, options=options or {}, settings=settings or {})


VARIETY_ROW = variety(2, [0, 2], [20, 6, 20, 6])
FANTAN_ROW = fantan([1], [3, 0, 1, 3])


@pytest.mark.parametrize(
    "options, length", [({}, 8), ({"cycle": "full"}, 8), ({"cycle": "short"}, 4)]
)
def test_variety_cycle(options, length):
    for played in range(length):
        partial = sheet(VARIETY, [VARIETY_ROW] * played, options=options)
        assert not partial.complete
        assert partial.points == [20 * played, 6 * played, 20 * played, 6 * played]
    full = sheet(VARIETY, [VARIETY_ROW] * length, options=options)
    assert full.complete and full.rows == [VARIETY_ROW] * length
    with pytest.raises(SheetError) as caught:
        sheet(VARIETY, [VARIETY_ROW] * (length + 1), options=options)
    assert caught.value.row == length + 1
    assert "already complete" in str(caught.value)
    assert str(caught.value).startswith(f"row {length + 1}: ")


@pytest.mark.parametrize("settings, deals", [({}, 4), ({"deals": 2}, 2), ({"deals": 6}, 6)])
@pytest.mark.parametrize("seats", [3, 4])
def test_fantan_deals(settings, deals, seats):
    row = fantan([1], [3, 0, 1, 3][:seats])
    assert not sheet(FANTAN, [row] * (deals - 1), seats, settings=settings).complete
    full = sheet(FANTAN, [row] * deals, seats, settings=settings)
    assert full.complete and full.points == [0, deals, 0, 0][:seats]
    with pytest.raises(SheetError) as caught:
        sheet(FANTAN, [row] * (deals + 1), seats, settings=settings)
    assert caught.value.row == deals + 1


def test_fantan_sheet_uses_the_tournaments_scoring():
    rows = [fantan([1], [3, 0, 1, 3]), fantan([0], [0, 4, 2, 1])]
    checked = sheet(FANTAN, rows, options={"scoring": "cards"}, settings={"deals": 2})
    assert checked.points == [-3 + 7, 7 - 4, -1 - 2, -3 - 1]
    assert [row["scores"] for row in checked.rows] == [[-3, 7, -1, -3], [7, -4, -2, -1]]


def test_leopard_match_by_deals():
    row = {"scores": [3, 4], "ender": None}
    assert not sheet(LEOPARD, [row] * 3).complete
    assert sheet(LEOPARD, [row] * 4).complete  # the default: 4 deals
    assert sheet(LEOPARD, [row] * 2, options={"deals": 2}).complete
    with pytest.raises(SheetError) as caught:
        sheet(LEOPARD, [row] * 3, options={"deals": 2})
    assert caught.value.row == 3


def test_leopard_match_to_a_target():
    rows = [
        {"scores": [10, 4], "ender": None},
        {"scores": [2, 26], "ender": 1},
        {"scores": [16, 3], "ender": None},
    ]
    first = sheet(LEOPARD, rows[:1], options={"target": 30})
    assert not first.complete and first.points == [10, 4]
    assert sheet(LEOPARD, rows[:2], options={"target": 31}).points == [12, 30]
    assert not sheet(LEOPARD, rows[:2], options={"target": 31}).complete
    assert sheet(LEOPARD, rows[:2], options={"target": 30}).complete  # reached counts
    with pytest.raises(SheetError) as caught:
        sheet(LEOPARD, rows, options={"target": 30})
    assert caught.value.row == 3
    assert sheet(LEOPARD, rows, options={"target": 31}).points == [28, 33]


def test_the_first_bad_row_is_named():
    rows = [VARIETY_ROW, VARIETY_ROW, variety(2, [0, 0], [20, 6, 20, 6]), "bad"]
    with pytest.raises(SheetError) as caught:
        sheet(VARIETY, rows)
    assert caught.value.row == 3
    assert isinstance(caught.value.error, RowError)
    assert caught.value.params == {"name": "attackers", "seat": 0}
    assert str(caught.value) == "row 3: “attackers” names seat 0 twice."


def test_rows_must_be_a_list():
    with pytest.raises(SheetError) as caught:
        sheet(VARIETY, {"0": VARIETY_ROW})
    assert caught.value.row is None


def test_an_empty_sheet_is_not_complete():
    for parts in (FANTAN, VARIETY, LEOPARD):
        empty = sheet(parts, [])
        assert not empty.complete and empty.rows == []
        assert empty.points == [0] * max(parts.allowed_sizes())


# -- hotseat results as rows --------------------------------------------------------------


@pytest.mark.parametrize(
    "game, options",
    [
        ("variety", {}),
        ("fantan", {}),
        ("fantan", {"players": 3}),
        ("fantan", {"scoring": "cards"}),
        ("fantan", {"players": 3, "scoring": "cards", "ace_extra": True}),
        ("fantan", {"until_out": 2}),
        ("fantan", {"until_out": 2, "scoring": "cards", "players": 3}),
        ("leopard", {}),
    ],
)
def test_rows_from_results_round_trip(game, options):
    rules = registry.rules(game)
    parts = registry.tournament(game)
    options = rules.parse_options(options)
    seats = rules.seats(options)
    rng = random.Random(f"{game}{sorted(options.items())}")
    results = []
    for number in range({"variety": 8, "fantan": 12, "leopard": 6}[game]):
        state, _ = random_deal(rules, options, number % seats, rng, check=False)
        results.append(state.result())
    rows = parts.rows_from_results(results)
    assert len(rows) == len(results)
    for row, result in zip(rows, results, strict=True):
        kept = parts.check_row(row, seats=seats, options=options, settings={})
        assert kept == row
        assert parts.row_points(kept, seats=seats, options=options, settings={}) == result["scores"]
    settings = {"deals": len(rows)}
    match = {**options, "deals": len(rows)} if game == "leopard" else options
    checked = check_sheet(parts, rows, seats=seats, options=match, settings=settings)
    assert checked.points == [sum(r["scores"][s] for r in results) for s in range(seats)]
    assert checked.complete


def test_fantan_settings():
    assert FANTAN.read_settings({}) == {"deals": 4}
    assert FANTAN.read_settings({"deals": None}) == {"deals": 4}
    assert FANTAN.read_settings({"deals": 2}) == {"deals": 2}
    for bad in (0, -1, "4", 4.0, True, [4]):
        with pytest.raises(ValueError):
            FANTAN.read_settings({"deals": bad})
    assert VARIETY.read_settings({}) == LEOPARD.read_settings({}) == {}
