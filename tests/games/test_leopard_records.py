"""Леопард deal records (docs/rules/records.md) through the real ``simulate`` and
``replay`` commands: what they print, on which stream, and with which exit status.

What holds alike for every game is checked once, for all three, in test_records.py."""

import json
from collections import Counter
from pathlib import Path

import pytest

from games.engine import get_rules
from games.engine.cards import CODES
from tests.support.commands import (
    BOOK_SQUARE,
    FILLER,
    assert_illegal,
    assert_not_a_record,
    assert_refused_in_a_real_process,
    discard,
    end,
    lay,
    lays_in_own_square,
    leopard_record,
    lines,
    not_a_record,
    read,
    run,
    simulate_records,
    write,
)


def book_record() -> dict:
    """Seat 0 lays spades A to 8 in his square (sum 10), seat 1 hearts A-2-3 in his (sum 2);
    then seat 0 declares the end: 10 + 5 - 1 = 14 for him, 2 for seat 1."""
    return leopard_record(lays_in_own_square(0, BOOK_SQUARE, ["AH", "2H", "3H"]), then=[end(0)])


@pytest.fixture
def simulated(tmp_path) -> list[Path]:
    """Eight random deals; with seed 1, two of them end by a declaration (seats 1 and 0)."""
    return simulate_records(tmp_path / "records", "leopard")


# -- simulate writes records that replay accepts ---------------------------------------------


def test_a_simulated_deal_gives_8_cards_each_and_88_to_the_stock_and_ends_by_the_rules(simulated):
    code, out, err = run("replay", *map(str, simulated))
    assert (code, err) == (0, "")
    results = [json.loads(line) for line in lines(out)]
    assert len(results) == 8
    for number, (path, result) in enumerate(zip(simulated, results, strict=True)):
        written = read(path)
        assert [len(hand) for hand in written["hands"]] == [8, 8]
        assert len(written["stock"]) == 88
        dealt = Counter(c for hand in written["hands"] for c in hand) + Counter(written["stock"])
        assert dealt == Counter({code: 2 for code in CODES})
        seats = [action["seat"] for action in written["actions"]]
        assert seats == [(number + 1 + i) % 2 for i in range(len(seats))], "turns alternate"
        sums, ender, scores = result["sums"], result["ender"], result["scores"]
        if ender is None:
            assert len(written["actions"]) == 88, "the deal ran until the stock was out"
            assert scores == sums
        else:
            assert written["actions"][-1] == end(ender)
            assert sums[ender] >= 5
            assert scores[ender] == sums[ender] + (sums[ender] - 5) - 1
            assert scores[1 - ender] == sums[1 - ender]
    assert sorted(r["ender"] for r in results if r["ender"] is not None) == [0, 1]


# -- records written by hand -----------------------------------------------------------------


def test_the_books_example_replays_to_14_for_the_declarer_and_2_for_the_opponent(tmp_path):
    code, out, err = run("replay", str(write(tmp_path / "book.json", book_record())))
    assert (code, err) == (0, "")
    assert json.loads(out) == {"sums": [10, 2], "ender": 0, "scores": [14, 2], "complete": True}


def test_a_record_played_until_the_stock_is_out_scores_each_his_sum(tmp_path):
    turns = lays_in_own_square(0, BOOK_SQUARE, ["AH", "2H", "3H"])
    hands = [
        ["KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC"],
        ["QS", "QS", "QH", "QH", "QD", "QD", "QC", "QC"],
    ]
    used = Counter(t.get("lay") or t.get("discard") for t in turns)
    for hand in hands:
        used.update(hand)
    seat = 0
    for card in [c for c in CODES for _ in range(2 - used[c])]:
        turns.append(discard(seat, card))
        seat = 1 - seat
    assert len(turns) == 88
    path = write(tmp_path / "out.json", leopard_record(turns, hands=hands))
    code, out, err = run("replay", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out) == {"sums": [10, 2], "ender": None, "scores": [10, 2], "complete": True}


def test_a_record_whose_actions_stop_early_is_not_complete(tmp_path):
    early = book_record()
    early["actions"] = early["actions"][:6]  # AS 2S 3S by seat 0: sum 2; AH 2H 3H: 2
    no_actions = {k: v for k, v in book_record().items() if k != "actions"}
    paths = [
        write(tmp_path / name, doc)
        for name, doc in (("early.json", early), ("none.json", no_actions))
    ]
    code, out, err = run("replay", *map(str, paths))
    assert (code, err) == (0, "")
    early_result, none_result = (json.loads(line) for line in lines(out))
    assert early_result == {"sums": [2, 2], "ender": None, "scores": None, "complete": False}
    assert none_result == {"sums": [0, 0], "ender": None, "scores": None, "complete": False}


@pytest.mark.parametrize(
    "options, length, target",
    [
        (None, 4, None),
        ({}, 4, None),
        ({"deals": 2}, 2, None),
        ({"deals": 10}, 10, None),
        ({"target": 33}, None, 33),
        ({"target": 1}, None, 1),
    ],
)
def test_a_record_agrees_the_match_by_deals_or_by_a_target(tmp_path, options, length, target):
    doc = book_record()
    if options is not None:
        doc["options"] = options
    code, out, err = run("replay", str(write(tmp_path / "match.json", doc)))
    assert (code, err) == (0, "")
    assert json.loads(out)["scores"] == [14, 2]
    rules = get_rules("leopard")
    assert rules.cycle(rules.from_record(doc).options) == {"length": length, "target": target}


def test_a_record_may_hold_both_copies_of_a_card_in_one_hand(tmp_path):
    hands = [
        ["KS", "KS", "QH", "QH", "2C", "2C", "9D", "9D"],
        ["KH", "KH", "QS", "QS", "3C", "3C", "8D", "8D"],
    ]
    doc = leopard_record(
        hands=hands, next_cards=["2S", "2H"], then=[lay(0, "KS", 0, "5"), discard(1, "KH")]
    )  # kings from the hands
    code, out, err = run("replay", str(write(tmp_path / "twins.json", doc)))
    assert (code, err) == (0, "")
    assert json.loads(out)["complete"] is False


# -- illegal actions -------------------------------------------------------------------------

NOT_HELD = leopard_record(
    [lay(0, "5S", 0)],
    hands=[FILLER[:8], ["2S", "3S", "4S", "5H", "6S", "7S", "8S", "9S"]],
    next_cards=["2H"],
    then=[discard(1, "AS")],
)
AFTER_THE_END = book_record()
AFTER_THE_END["actions"].append(discard(1, AFTER_THE_END["hands"][1][0]))

ILLEGAL = {
    "jack_on_an_empty_place": (leopard_record([lay(0, "JH", 0, "5")]), 0, "may not be laid there"),
    "jack_on_an_empty_place_of_the_other_square": (
        leopard_record([lay(0, "5S", 0), lay(1, "JH", 0, "4")]),
        1,
        "may not be laid there",
    ),
    "queen_in_the_opponents_square": (
        leopard_record([lay(0, "5S", 0), lay(1, "5D", 1), lay(0, "QS", 1, "5")]),
        2,
        "may not be laid there",
    ),
    "ten_in_the_opponents_square": (
        leopard_record([lay(0, "TH", 1, "3")]),
        0,
        "may not be laid there",
    ),
    "king_in_the_opponents_square": (
        leopard_record([discard(0, "2H"), lay(1, "KC", 0, "9")]),
        1,
        "may not be laid there",
    ),
    "five_on_a_place_already_showing_a_card": (
        leopard_record([lay(0, "5S", 0), lay(1, "5D", 1), lay(0, "5H", 0)]),
        2,
        "may not be laid there",
    ),
    "ten_without_a_place": (leopard_record([lay(0, "TH", 0)]), 0, "Name the place"),
    "ending_with_nothing": (leopard_record(then=[end(0)]), 0, "at least 5"),
    "ending_with_4": (
        leopard_record(lays_in_own_square(0, ["AS", "2S", "3S", "4C", "5C", "6C"]), then=[end(0)]),
        12,
        "at least 5",
    ),
    "a_card_not_in_hand": (NOT_HELD, 1, "AS is not in your hand"),
    "not_his_turn": (leopard_record([lay(0, "5S", 0), lay(0, "6S", 0)]), 1, "not your turn"),
    "after_the_end": (AFTER_THE_END, 17, "The deal is over"),
}


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_an_illegal_action_is_named_with_file_index_action_and_reason_exit_1(tmp_path, name):
    doc, index, reason = ILLEGAL[name]
    assert_illegal(write(tmp_path / f"{name}.json", doc), index, doc["actions"][index], reason)


# -- documents that are not records ----------------------------------------------------------


def valid() -> dict:
    return leopard_record([lay(0, "5S", 0)])


def changed(change) -> dict:
    doc = valid()
    change(doc)
    return doc


def a_card_three_times(doc: dict) -> None:
    counts = Counter(doc["hands"][0] + doc["hands"][1] + doc["stock"])
    assert counts[doc["stock"][-1]] == 2 and doc["hands"][0][0] != doc["stock"][-1]
    doc["hands"][0][0] = doc["stock"][-1]


# What is not a record for every game is checked in test_records.py; here Леопард's own cases.
INVALID = {
    "a_card_three_times": changed(a_card_three_times),
    "a_card_three_times_in_the_stock": changed(
        lambda d: d["stock"].__setitem__(slice(-3, None), ["AS", "AS", "AS"])
    ),
    "stock_one_card_short": changed(lambda d: d["stock"].pop()),
    "stock_one_card_too_many": changed(lambda d: d["stock"].append("AS")),
    "no_stock": changed(lambda d: d.pop("stock")),
    "unknown_card_in_the_stock": changed(lambda d: d["stock"].__setitem__(40, "ZZ")),
    "card_in_the_stock_not_text": changed(lambda d: d["stock"].__setitem__(40, 52)),
    "square_2": changed(lambda d: d["actions"].append(lay(1, "5D", 2))),
    "square_as_text": changed(lambda d: d["actions"].append(lay(1, "5D", "1"))),
    "place_0": changed(lambda d: d["actions"].append(lay(1, "TD", 1, "0"))),
    "place_10": changed(lambda d: d["actions"].append(lay(1, "TD", 1, "10"))),
    "place_as_number": changed(lambda d: d["actions"].append(lay(1, "TD", 1, 5))),
    "lay_without_a_square": changed(lambda d: d["actions"].append({"seat": 1, "lay": "5D"})),
    "unknown_card_in_an_action": changed(lambda d: d["actions"].append(discard(1, "5X"))),
    "end_false": changed(lambda d: d["actions"].append({"seat": 1, "end": False})),
    "deals_and_target_both": changed(lambda d: d.update(options={"deals": 4, "target": 33})),
    "deals_as_float": changed(lambda d: d.update(options={"deals": 4.0})),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_a_document_that_is_not_a_leopard_record_gets_one_line_and_exit_2(tmp_path, name):
    assert_not_a_record(write(tmp_path / f"{name}.json", INVALID[name]))


def test_the_valid_record_the_invalid_ones_are_made_from_replays(tmp_path):
    code, out, err = run("replay", str(write(tmp_path / "valid.json", valid())))
    assert (code, err) == (0, "")
    assert json.loads(out)["complete"] is False


def test_both_deals_and_target_is_refused_with_a_clear_reason(tmp_path):
    path = write(tmp_path / "both.json", INVALID["deals_and_target_both"])
    code, _, err = run("replay", str(path))
    assert code == 2 and "not both" in err


def test_bad_input_never_shows_a_traceback_in_a_real_process(tmp_path):
    invalid = [write(tmp_path / "bad_json.json", not_a_record("leopard", "bad_json"))]
    invalid += [
        write(tmp_path / f"{name}.json", INVALID[name])
        for name in ("a_card_three_times", "stock_one_card_short", "place_10", "square_2")
    ]
    illegal = write(tmp_path / "illegal.json", ILLEGAL["ten_in_the_opponents_square"][0])
    printed = assert_refused_in_a_real_process(
        invalid, illegal, 0, good=write(tmp_path / "good.json", book_record())
    )
    assert [result["scores"] for result in printed] == [[14, 2]]
