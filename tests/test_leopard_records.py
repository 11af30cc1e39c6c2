"""Леопард deal records (../shared/rules/records.md) through the real ``simulate`` and
``replay`` commands: what they print, on which stream, and with which exit status."""

import io
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import get_rules
from games.engine.cards import CODES
from games.engine.simulate import random_deal

ROOT = Path(__file__).resolve().parent.parent
RESULT_FIELDS = {"sums", "ender", "scores", "complete"}
BOOK_SQUARE = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]  # place 9 empty: sum 10
FILLER = ["6D", "6H", "8D", "8H", "4D", "4H", "6D", "6H", "8D", "8H"]


def run(*args, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of a management command run in this process."""
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        call_command(*args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


def manage(*args) -> subprocess.CompletedProcess:
    """The command as a user runs it: a separate ``python manage.py`` process."""
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def lines(text: str) -> list[str]:
    return text.splitlines()


def write(path: Path, record) -> Path:
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return path


def end(seat: int) -> dict:
    return {"seat": seat, "end": True}


def discard(seat: int, card: str) -> dict:
    return {"seat": seat, "discard": card}


def lay(seat: int, card: str, square: int, place: str | None = None) -> dict:
    action = {"seat": seat, "lay": card, "square": square}
    if place is not None:
        action["place"] = place
    return action


def record(turns=(), *, then=(), hands=None, next_cards=(), dealer: int = 1,
           options=None) -> dict:
    """A record whose stock is laid out so that each of ``turns`` plays the card it draws;
    ``then`` are actions appended as written (their cards are not arranged for); then
    ``next_cards`` come off the stock. The other cards fill the hands, unless given, and the
    rest of the stock."""
    drawn = [a.get("discard") or a.get("lay") for a in turns if "end" not in a]
    pool = Counter({code: 2 for code in CODES})
    for code in drawn + list(next_cards) + [c for hand in hands or [] for c in hand]:
        pool[code] -= 1
        assert pool[code] >= 0, f"{code} wanted three times"
    rest = [code for code in CODES for _ in range(pool[code])]
    if hands is None:
        hands, rest = [rest[:8], rest[8:16]], rest[16:]
    out = {"game": "leopard", "dealer": dealer, "hands": hands,
           "stock": drawn + list(next_cards) + rest, "actions": list(turns) + list(then)}
    if options is not None:
        out["options"] = options
    return out


def square_turns(seat: int, cards: list[str], other_cards=()) -> list[dict]:
    """``seat`` (who acts first) lays ``cards`` in his own square, one a turn; the other seat
    lays ``other_cards`` in his own square, then discards."""
    filler = list(FILLER)
    turns = []
    for i, card in enumerate(cards):
        turns.append(lay(seat, card, seat))
        if i < len(other_cards):
            turns.append(lay(1 - seat, other_cards[i], 1 - seat))
        else:
            turns.append(discard(1 - seat, filler.pop()))
    return turns


def book_record() -> dict:
    """Seat 0 lays spades A to 8 in his square (sum 10), seat 1 hearts A-2-3 in his (sum 2);
    then seat 0 declares the end: 10 + 5 - 1 = 14 for him, 2 for seat 1."""
    return record(square_turns(0, BOOK_SQUARE, ["AH", "2H", "3H"]), then=[end(0)])


def expected_results(deals: int, seed: int) -> list[dict]:
    """What the simulated deals ended with, by the engine's own random play from the seed
    (the loop of games.engine.simulate.simulate, keeping the final states)."""
    rules = get_rules("leopard")
    options = rules.parse_options({})
    rng = random.Random(seed)
    results = []
    for number in range(deals):
        state, _ = random_deal(rules, options, number % 2, rng)
        results.append({**state.result(), "complete": True})
    return results


@pytest.fixture
def simulated(tmp_path) -> list[Path]:
    """Eight random deals; with seed 1, two of them end by a declaration (seats 1 and 0)."""
    folder = tmp_path / "records"
    code, out, err = run("simulate", "leopard", "--deals", "8", "--seed", "1",
                         "--records", str(folder))
    assert code == 0, err
    return sorted(folder.iterdir())


# -- simulate writes records that replay accepts ---------------------------------------------


def test_simulate_writes_one_record_per_deal_and_replay_prints_each_result(simulated):
    assert len(simulated) == 8
    code, out, err = run("replay", *map(str, simulated))
    assert (code, err) == (0, "")
    results = [json.loads(line) for line in lines(out)]
    assert len(results) == 8
    assert results == expected_results(8, 1)
    for number, (path, result) in enumerate(zip(simulated, results, strict=True)):
        assert set(result) == RESULT_FIELDS
        assert result["complete"] is True
        written = json.loads(path.read_text(encoding="utf-8"))
        assert written["game"] == "leopard" and written["dealer"] == number % 2
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


def test_replay_prints_the_results_in_the_order_of_the_files(simulated):
    order = [simulated[i] for i in (5, 0, 4, 4, 1)]
    code, out, _ = run("replay", *map(str, order))
    assert code == 0
    expected = expected_results(8, 1)
    assert [json.loads(line) for line in lines(out)] == [expected[i] for i in (5, 0, 4, 4, 1)]


def test_the_same_seed_writes_identical_records_and_another_seed_other_ones(tmp_path):
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        code, _, err = run("simulate", "leopard", "--deals", "3", "--seed", str(seed),
                           "--records", str(tmp_path / name))
        assert code == 0, err

    def contents(name):
        return [p.read_bytes() for p in sorted((tmp_path / name).iterdir())]

    assert len(contents("a")) == 3
    assert contents("a") == contents("b")
    assert contents("a") != contents("c")


def test_simulate_json_counts_the_actions_of_the_records_it_writes(tmp_path):
    folder = tmp_path / "records"
    code, out, err = run("simulate", "leopard", "--deals", "4", "--seed", "2", "--json",
                         "--records", str(folder))
    assert (code, err) == (0, "")
    figures = json.loads(out)
    assert figures["game"] == "leopard" and figures["deals"] == 4
    written = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.iterdir())]
    assert figures["actions"] == sum(len(r["actions"]) for r in written)
    assert figures["seconds"] >= 0 and figures["deals_per_second"] > 0


# -- records written by hand -----------------------------------------------------------------


def test_the_books_example_replays_to_14_for_the_declarer_and_2_for_the_opponent(tmp_path):
    code, out, err = run("replay", str(write(tmp_path / "book.json", book_record())))
    assert (code, err) == (0, "")
    assert json.loads(out) == {"sums": [10, 2], "ender": 0, "scores": [14, 2],
                               "complete": True}


def test_a_record_played_until_the_stock_is_out_scores_each_his_sum(tmp_path):
    turns = square_turns(0, BOOK_SQUARE, ["AH", "2H", "3H"])
    hands = [["KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC"],
             ["QS", "QS", "QH", "QH", "QD", "QD", "QC", "QC"]]
    used = Counter(t.get("lay") or t.get("discard") for t in turns)
    for hand in hands:
        used.update(hand)
    seat = 0
    for card in [c for c in CODES for _ in range(2 - used[c])]:
        turns.append(discard(seat, card))
        seat = 1 - seat
    assert len(turns) == 88
    path = write(tmp_path / "out.json", record(turns, hands=hands))
    code, out, err = run("replay", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out) == {"sums": [10, 2], "ender": None, "scores": [10, 2],
                               "complete": True}


def test_a_record_whose_actions_stop_early_is_not_complete(tmp_path, simulated):
    early = book_record()
    early["actions"] = early["actions"][:6]  # AS 2S 3S by seat 0: sum 2; AH 2H 3H: 2
    no_actions = {k: v for k, v in book_record().items() if k != "actions"}
    cut = json.loads(simulated[0].read_text(encoding="utf-8"))
    cut["actions"] = cut["actions"][:-1]
    paths = [write(tmp_path / name, doc) for name, doc in
             (("early.json", early), ("none.json", no_actions), ("cut.json", cut))]
    code, out, err = run("replay", *map(str, paths))
    assert (code, err) == (0, "")
    early_result, none_result, cut_result = (json.loads(line) for line in lines(out))
    assert early_result == {"sums": [2, 2], "ender": None, "scores": None, "complete": False}
    assert none_result == {"sums": [0, 0], "ender": None, "scores": None, "complete": False}
    assert cut_result["complete"] is False and cut_result["scores"] is None


def test_a_dash_reads_the_record_from_standard_input(monkeypatch):
    code, out, err = run("replay", "-", stdin=json.dumps(book_record()),
                         monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert json.loads(out)["scores"] == [14, 2]


@pytest.mark.parametrize("options, length, target", [
    (None, 4, None), ({}, 4, None), ({"deals": 2}, 2, None), ({"deals": 10}, 10, None),
    ({"target": 33}, None, 33), ({"target": 1}, None, 1),
])
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
    hands = [["KS", "KS", "QH", "QH", "2C", "2C", "9D", "9D"],
             ["KH", "KH", "QS", "QS", "3C", "3C", "8D", "8D"]]
    doc = record(hands=hands, next_cards=["2S", "2H"],
                 then=[lay(0, "KS", 0, "5"), discard(1, "KH")])  # kings from the hands
    code, out, err = run("replay", str(write(tmp_path / "twins.json", doc)))
    assert (code, err) == (0, "")
    assert json.loads(out)["complete"] is False


# -- illegal actions -------------------------------------------------------------------------

NOT_HELD = record([lay(0, "5S", 0)], hands=[FILLER[:8], ["2S", "3S", "4S", "5H", "6S",
                                                        "7S", "8S", "9S"]],
                  next_cards=["2H"], then=[discard(1, "AS")])
AFTER_THE_END = book_record()
AFTER_THE_END["actions"].append(discard(1, AFTER_THE_END["hands"][1][0]))

ILLEGAL = {
    "jack_on_an_empty_place": (record([lay(0, "JH", 0, "5")]), 0, "may not be laid there"),
    "jack_on_an_empty_place_of_the_other_square": (
        record([lay(0, "5S", 0), lay(1, "JH", 0, "4")]), 1, "may not be laid there"),
    "queen_in_the_opponents_square": (
        record([lay(0, "5S", 0), lay(1, "5D", 1), lay(0, "QS", 1, "5")]), 2,
        "may not be laid there"),
    "ten_in_the_opponents_square": (record([lay(0, "TH", 1, "3")]), 0,
                                    "may not be laid there"),
    "king_in_the_opponents_square": (record([discard(0, "2H"), lay(1, "KC", 0, "9")]), 1,
                                     "may not be laid there"),
    "five_on_a_place_already_showing_a_card": (
        record([lay(0, "5S", 0), lay(1, "5D", 1), lay(0, "5H", 0)]), 2,
        "may not be laid there"),
    "ten_without_a_place": (record([lay(0, "TH", 0)]), 0, "Name the place"),
    "ending_with_nothing": (record(then=[end(0)]), 0, "at least 5"),
    "ending_with_4": (record(square_turns(0, ["AS", "2S", "3S", "4C", "5C", "6C"]),
                             then=[end(0)]), 12, "at least 5"),
    "a_card_not_in_hand": (NOT_HELD, 1, "AS is not in your hand"),
    "not_his_turn": (record([lay(0, "5S", 0), lay(0, "6S", 0)]), 1, "not your turn"),
    "after_the_end": (AFTER_THE_END, 17, "The deal is over"),
}


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_an_illegal_action_is_named_with_file_index_action_and_reason_exit_1(tmp_path, name):
    doc, index, reason = ILLEGAL[name]
    path = write(tmp_path / f"{name}.json", doc)
    code, out, err = run("replay", str(path))
    assert (code, out) == (1, "")
    assert len(lines(err)) == 1
    action = doc["actions"][index]
    assert lines(err)[0].startswith(f"{path}: illegal action {index} {json.dumps(action)}: ")
    assert reason in lines(err)[0]
    assert "Traceback" not in err


def test_the_other_files_still_print_around_an_illegal_one(tmp_path, simulated):
    bad = write(tmp_path / "bad.json", ILLEGAL["queen_in_the_opponents_square"][0])
    code, out, err = run("replay", str(simulated[0]), str(bad), str(simulated[1]))
    assert code == 1
    assert [json.loads(line) for line in lines(out)] == expected_results(2, 1)
    assert len(lines(err)) == 1 and lines(err)[0].startswith(f"{bad}: illegal action 2 ")


def test_a_simulated_record_with_one_card_moved_is_refused_at_that_action(tmp_path, simulated):
    doc = json.loads(simulated[3].read_text(encoding="utf-8"))
    index = next(i for i, a in enumerate(doc["actions"]) if i > 10 and "discard" in a)
    doc["actions"][index] = {**doc["actions"][index], "seat": 1 - doc["actions"][index]["seat"]}
    path = write(tmp_path / "moved.json", doc)
    code, out, err = run("replay", str(path))
    assert (code, out) == (1, "")
    assert lines(err)[0].startswith(f"{path}: illegal action {index} ")
    assert "not your turn" in err


# -- documents that are not records ----------------------------------------------------------


def valid() -> dict:
    return record([lay(0, "5S", 0)])


def changed(change) -> dict:
    doc = valid()
    change(doc)
    return doc


def a_card_three_times(doc: dict) -> None:
    counts = Counter(doc["hands"][0] + doc["hands"][1] + doc["stock"])
    assert counts[doc["stock"][-1]] == 2 and doc["hands"][0][0] != doc["stock"][-1]
    doc["hands"][0][0] = doc["stock"][-1]


INVALID = {
    "bad_json": '{"game": "leopard", "dealer": 0,',
    "not_an_object": json.dumps(["leopard"]),
    "unknown_game": changed(lambda d: d.update(game="leopards")),
    "a_card_three_times": changed(a_card_three_times),
    "a_card_three_times_in_the_stock": changed(
        lambda d: d["stock"].__setitem__(slice(-3, None), ["AS", "AS", "AS"])),
    "stock_one_card_short": changed(lambda d: d["stock"].pop()),
    "stock_one_card_too_many": changed(lambda d: d["stock"].append("AS")),
    "no_stock": changed(lambda d: d.pop("stock")),
    "hand_of_seven": changed(lambda d: d["hands"][1].pop()),
    "three_hands": changed(lambda d: d["hands"].append(d["hands"][0])),
    "unknown_card_in_a_hand": changed(lambda d: d["hands"][0].__setitem__(0, "1X")),
    "unknown_card_in_the_stock": changed(lambda d: d["stock"].__setitem__(40, "ZZ")),
    "card_not_text": changed(lambda d: d["stock"].__setitem__(40, 52)),
    "bad_dealer": changed(lambda d: d.update(dealer=2)),
    "square_2": changed(lambda d: d["actions"].append(lay(1, "5D", 2))),
    "square_as_text": changed(lambda d: d["actions"].append(lay(1, "5D", "1"))),
    "place_0": changed(lambda d: d["actions"].append(lay(1, "TD", 1, "0"))),
    "place_10": changed(lambda d: d["actions"].append(lay(1, "TD", 1, "10"))),
    "place_as_number": changed(lambda d: d["actions"].append(lay(1, "TD", 1, 5))),
    "lay_without_a_square": changed(lambda d: d["actions"].append({"seat": 1, "lay": "5D"})),
    "unknown_card_in_an_action": changed(lambda d: d["actions"].append(discard(1, "5X"))),
    "end_false": changed(lambda d: d["actions"].append({"seat": 1, "end": False})),
    "seat_2": changed(lambda d: d["actions"].append(discard(2, "5D"))),
    "actions_not_a_list": changed(lambda d: d.update(actions=discard(1, "5D"))),
    "unknown_option": changed(lambda d: d.update(options={"rounds": 3})),
    "deals_and_target_both": changed(lambda d: d.update(options={"deals": 4, "target": 33})),
    "deals_as_float": changed(lambda d: d.update(options={"deals": 4.0})),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_a_document_that_is_not_a_record_gets_one_line_and_exit_2(tmp_path, name):
    path = write(tmp_path / f"{name}.json", INVALID[name])
    code, out, err = run("replay", str(path))
    assert code == 2
    assert out == ""
    assert len(lines(err)) == 1
    assert lines(err)[0].startswith(f"{path}: not a valid record: ")
    assert "Traceback" not in err


def test_the_valid_record_the_invalid_ones_are_made_from_replays(tmp_path):
    code, out, err = run("replay", str(write(tmp_path / "valid.json", valid())))
    assert (code, err) == (0, "")
    assert json.loads(out)["complete"] is False


def test_both_deals_and_target_is_refused_with_a_clear_reason(tmp_path):
    path = write(tmp_path / "both.json", INVALID["deals_and_target_both"])
    code, _, err = run("replay", str(path))
    assert code == 2 and "not both" in err


def test_bad_input_never_shows_a_traceback_in_a_real_process(tmp_path):
    names = ("bad_json", "a_card_three_times", "stock_one_card_short", "place_10", "square_2")
    paths = [str(write(tmp_path / f"{name}.json", INVALID[name])) for name in names]
    good = str(write(tmp_path / "good.json", book_record()))
    done = manage("replay", *paths, good)
    assert done.returncode == 2
    assert [json.loads(line)["scores"] for line in lines(done.stdout)] == [[14, 2]]
    assert "Traceback" not in done.stderr
    assert [line.split(":")[0] for line in lines(done.stderr)] == paths
    illegal = write(tmp_path / "illegal.json", ILLEGAL["ten_in_the_opponents_square"][0])
    done = manage("replay", str(illegal))
    assert done.returncode == 1 and "illegal action 0" in done.stderr
    assert "Traceback" not in done.stderr
