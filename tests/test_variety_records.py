"""Выборы (Variety) deal records (../shared/rules/records.md) through the real ``simulate`` and
``replay`` commands: what they print, on which stream, and with which exit status."""

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import get_rules
from games.engine.cards import CODES
from games.engine.simulate import random_deal, simulate

ROOT = Path(__file__).resolve().parent.parent
RESULT_FIELDS = {"contract", "attackers", "defenders", "tricks", "points", "attackers_won",
                 "scores", "complete"}
FIXED_TOTAL = {1: 12, 2: 26, 3: 26, 4: 0, 5: 0, 6: 26, 7: -26, 8: -26}


def run(*args) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of a management command run in this process."""
    out, err = io.StringIO(), io.StringIO()
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


def round_robin() -> list[list[str]]:
    """The sorted pack dealt one card at a time: every seat holds cards of every suit."""
    return [[CODES[i] for i in range(seat, 52, 4)] for seat in range(4)]


def by_suit() -> list[list[str]]:
    return [[rank + suit for rank in "23456789TJQKA"] for suit in "SHDC"]


def record(actions=(), hands=None, **extra) -> dict:
    """Dealer 3, so seat 0 (A) calls first."""
    return {"game": "variety", "options": {}, "dealer": 3,
            "hands": round_robin() if hands is None else hands,
            "actions": list(actions), **extra}


def calls(*numbers, first: int = 0) -> list[dict]:
    return [{"seat": (first + i) % 4, "call": n} for i, n in enumerate(numbers)]


def by_suit_contract_1() -> dict:
    """Contract 1, attackers 0 and 1; seat 1 leads hearts every time and nobody can follow."""
    actions = calls(1, 1)
    for rank in "23456789TJQKA":
        actions += [{"seat": s, "play": rank + suit} for s, suit in zip((1, 2, 3, 0), "HDCS",
                                                                          strict=True)]
    return record(actions, hands=by_suit())


def expected_results(deals: int, seed: int, options: dict | None = None) -> list[dict]:
    """What the simulated deals ended with, by the engine's own random play from the seed
    (the loop of games.engine.simulate.simulate, keeping the final states)."""
    rules = get_rules("variety")
    options = rules.parse_options(options or {})
    rng = random.Random(seed)
    results = []
    for number in range(deals):
        state, _ = random_deal(rules, options, number % 4, rng)
        results.append({**state.result(), "complete": True})
    return results


@pytest.fixture
def simulated(tmp_path) -> list[Path]:
    folder = tmp_path / "records"
    code, out, err = run("simulate", "variety", "--deals", "8", "--seed", "17",
                         "--records", str(folder))
    assert code == 0, err
    assert "8 deals" in out
    return sorted(folder.iterdir())


# -- simulate writes records that replay accepts ---------------------------------------------


def test_simulate_writes_one_record_per_deal_and_replay_prints_each_result(simulated):
    assert len(simulated) == 8
    for number, path in enumerate(simulated):
        written = json.loads(path.read_text(encoding="utf-8"))
        assert written["game"] == "variety"
        assert written["dealer"] == number % 4  # the deal passes clockwise
        assert sorted(c for h in written["hands"] for c in h) == sorted(CODES)
        assert [len(h) for h in written["hands"]] == [13] * 4
        assert written["actions"][0]["seat"] == (number + 1) % 4
    code, out, err = run("replay", *map(str, simulated))
    assert (code, err) == (0, "")
    results = [json.loads(line) for line in lines(out)]
    assert len(results) == 8
    for result in results:
        assert set(result) == RESULT_FIELDS
        assert result["complete"] is True
        assert result["contract"] in range(1, 9)
        attackers, defenders = result["attackers"], result["defenders"]
        assert sorted(attackers + defenders) == [0, 1, 2, 3]
        assert sum(result["tricks"]) == 13
        attack, defence = result["points"]
        assert attack + defence == FIXED_TOTAL[result["contract"]]
        assert result["attackers_won"] is (attack > defence)
        bonus = 0 if attack > defence else 10
        scores = result["scores"]
        assert [scores[s] for s in attackers] == [attack, attack]
        assert [scores[s] for s in defenders] == [defence + bonus] * 2
    assert results == expected_results(8, 17)


def test_replay_prints_the_results_in_the_order_of_the_files(simulated):
    code, forward, _ = run("replay", *map(str, simulated))
    code_back, backward, _ = run("replay", *map(str, reversed(simulated)))
    assert code == code_back == 0
    assert lines(backward) == list(reversed(lines(forward)))
    assert len(set(lines(forward))) > 1


def test_the_same_seed_writes_identical_records_and_another_seed_other_ones(tmp_path):
    for name, seed in (("a", 9), ("b", 9), ("c", 10)):
        code, _, err = run("simulate", "variety", "--deals", "4", "--seed", str(seed),
                           "--records", str(tmp_path / name))
        assert code == 0, err

    def contents(name):
        return [p.read_bytes() for p in sorted((tmp_path / name).iterdir())]

    assert len(contents("a")) == 4
    assert contents("a") == contents("b")
    assert contents("a") != contents("c")


def test_simulate_json_counts_the_actions_of_the_records_it_writes(tmp_path):
    folder = tmp_path / "records"
    code, out, err = run("simulate", "variety", "--deals", "3", "--seed", "2", "--json",
                         "--records", str(folder))
    assert (code, err) == (0, "")
    figures = json.loads(out)
    assert figures["game"] == "variety" and figures["deals"] == 3
    written = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.iterdir())]
    assert figures["actions"] == sum(len(r["actions"]) for r in written)
    for one in written:  # an auction of 2 to 9 calls, then 52 cards
        plays = [a for a in one["actions"] if "play" in a]
        assert len(plays) == 52
        assert 2 <= len(one["actions"]) - 52 <= 9


def test_short_cycle_records_carry_their_option_and_replay(tmp_path):
    simulate("variety", deals=4, seed=23, records_dir=tmp_path, options={"cycle": "short"})
    paths = sorted(tmp_path.iterdir())
    assert [json.loads(p.read_text(encoding="utf-8"))["options"] for p in paths] == [
        {"cycle": "short"}] * 4
    code, out, err = run("replay", *map(str, paths))
    assert (code, err) == (0, "")
    assert [json.loads(line) for line in lines(out)] == expected_results(
        4, 23, {"cycle": "short"})


# -- records written by hand -----------------------------------------------------------------


def test_a_hand_written_record_replays_to_its_exact_result(tmp_path):
    path = write(tmp_path / "hand.json", by_suit_contract_1())
    code, out, err = run("replay", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "contract": 1, "attackers": [0, 1], "defenders": [2, 3], "tricks": [0, 13, 0, 0],
        "points": [12, 0], "attackers_won": True, "scores": [12, 12, 0, 0], "complete": True}


@pytest.mark.parametrize("options", [{"cycle": "short"}, {"cycle": "full"}, {}, None])
def test_the_cycle_option_is_accepted_in_a_record(tmp_path, options):
    document = by_suit_contract_1()
    if options is None:
        del document["options"]
    else:
        document["options"] = options
    code, out, err = run("replay", str(write(tmp_path / "cycle.json", document)))
    assert (code, err) == (0, "")
    assert json.loads(out)["complete"] is True


def test_an_auction_only_record_is_not_complete_but_names_the_contract(tmp_path):
    auction = write(tmp_path / "auction.json", record(calls(5, 1, 8, 4, 7, 3, 4)))
    halfway = write(tmp_path / "halfway.json", record(calls(5, 1, 8)))
    nothing = record()
    del nothing["actions"]
    empty = write(tmp_path / "empty.json", nothing)
    code, out, err = run("replay", str(auction), str(halfway), str(empty))
    assert (code, err) == (0, "")
    after_auction, during_auction, before_auction = (json.loads(line) for line in lines(out))
    assert after_auction == {
        "contract": 4, "attackers": [3, 2], "defenders": [0, 1], "tricks": [0, 0, 0, 0],
        "points": None, "attackers_won": None, "scores": None, "complete": False}
    for result in (during_auction, before_auction):
        assert result["complete"] is False
        assert result["contract"] is None and result["attackers"] is None
        assert result["scores"] is None


def test_a_simulated_record_cut_before_its_last_card_is_not_complete(tmp_path, simulated):
    cut = json.loads(simulated[0].read_text(encoding="utf-8"))
    cut["actions"] = cut["actions"][:-1]
    code, out, _ = run("replay", str(write(tmp_path / "cut.json", cut)))
    assert code == 0
    result = json.loads(out)
    assert result["complete"] is False and result["scores"] is None
    assert sum(result["tricks"]) == 12


def test_announcements_in_a_record_are_accepted(tmp_path):
    document = by_suit_contract_1()
    document["actions"][0]["say"] = "I call 1: I hold every spade"
    document["actions"][1]["say"] = ""
    code, out, err = run("replay", str(write(tmp_path / "say.json", document)))
    assert (code, err) == (0, "")
    assert json.loads(out)["scores"] == [12, 12, 0, 0]


# -- illegal actions -------------------------------------------------------------------------


def revoke() -> dict:
    # Contract 2, seat 1 leads 3S; seat 2 holds 4S, 8S and QS but plays 3H.
    return record(calls(2, 2) + [{"seat": 1, "play": "3S"}, {"seat": 2, "play": "3H"}])


ILLEGAL = {
    "revoke": (revoke(), 3, {"seat": 2, "play": "3H"}, "must follow suit"),
    "repeated_call": (record(calls(5, 1, 8, 4, 5)), 4, {"seat": 0, "call": 5},
                      "already called 5"),
    "call_in_play": (record(calls(2, 2) + [{"seat": 1, "call": 3, "say": "I lead"}]), 2,
                     {"seat": 1, "call": 3, "say": "I lead"}, "auction is over"),
    "card_in_auction": (record([{"seat": 0, "play": "2S"}]), 0, {"seat": 0, "play": "2S"},
                        "auction is not over"),
    "out_of_turn": (record(calls(2, 3, first=1)), 0, {"seat": 1, "call": 2}, "not your turn"),
    "card_not_held": (record(calls(2, 2) + [{"seat": 1, "play": "2S"}]), 2,
                      {"seat": 1, "play": "2S"}, "not in your hand"),
    "long_announcement": (record([{"seat": 0, "call": 2, "say": "x" * 81}]), 0,
                          {"seat": 0, "call": 2, "say": "x" * 81}, "at most 80"),
}


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_an_illegal_action_is_named_with_file_index_action_and_reason_exit_1(tmp_path, name):
    document, index, action, reason = ILLEGAL[name]
    assert document["actions"][index] == action
    path = write(tmp_path / f"{name}.json", document)
    code, out, err = run("replay", str(path))
    assert (code, out) == (1, "")
    assert len(lines(err)) == 1
    line = lines(err)[0]
    assert line.startswith(f"{path}: illegal action {index} {json.dumps(action)}: ")
    assert reason in line
    assert "Traceback" not in err


def test_the_other_files_still_print_around_an_illegal_one(tmp_path, simulated):
    bad = write(tmp_path / "bad.json", revoke())
    code, out, err = run("replay", str(simulated[0]), str(bad), str(simulated[1]))
    assert code == 1
    assert [json.loads(line)["complete"] for line in lines(out)] == [True, True]
    assert len(lines(err)) == 1 and lines(err)[0].startswith(f"{bad}: illegal action 3 ")


def test_a_simulated_record_with_a_revoke_is_refused_at_that_card(tmp_path, simulated):
    for path in simulated:  # find a card played while holding the suit led elsewhere
        document = json.loads(path.read_text(encoding="utf-8"))
        hands = [set(h) for h in document["hands"]]
        trick = []
        for index, action in enumerate(document["actions"]):
            if "play" not in action:
                continue
            seat, card = action["seat"], action["play"]
            if trick:
                led = trick[0][1]
                off = [c for c in hands[seat] if c[1] != led]
                if card[1] == led and off:
                    document["actions"][index] = {"seat": seat, "play": off[0]}
                    bad = write(tmp_path / "revoke.json", document)
                    code, out, err = run("replay", str(bad))
                    assert (code, out) == (1, "")
                    assert lines(err)[0].startswith(f"{bad}: illegal action {index} ")
                    assert "must follow suit" in err
                    return
            hands[seat].remove(card)
            trick = [] if len(trick) == 3 else trick + [card]
    pytest.fail("no simulated deal had a card that followed suit")


# -- documents that are not records ----------------------------------------------------------


def hands_with(change) -> list[list[str]]:
    hands = round_robin()
    change(hands)
    return hands


INVALID = {
    "twelve_cards": record(hands=hands_with(lambda h: h[2].pop())),
    "fourteen_cards": record(hands=hands_with(lambda h: (h[0].append(h[1].pop())))),
    "three_hands": record(hands=round_robin()[:3]),
    "card_twice": record(hands=hands_with(lambda h: h[1].__setitem__(0, h[0][0]))),
    "unknown_card": record(hands=hands_with(lambda h: h[3].__setitem__(0, "1X"))),
    "card_not_text": record(hands=hands_with(lambda h: h[3].__setitem__(0, 14))),
    "call_nine": record([{"seat": 0, "call": 9}]),
    "call_zero": record([{"seat": 0, "call": 0}]),
    "call_as_text": record([{"seat": 0, "call": "4"}]),
    "call_as_float": record([{"seat": 0, "call": 4.0}]),
    "call_as_list": record([{"seat": 0, "call": [4]}]),
    "say_not_text": record([{"seat": 0, "call": 4, "say": ["hi"]}]),
    "say_alone": record([{"seat": 0, "say": "I hold six clubs"}]),
    "say_with_a_card": record(calls(2, 2) + [{"seat": 1, "play": "3S", "say": "hi"}]),
    "call_and_play": record([{"seat": 0, "call": 2, "play": "2S"}]),
    "no_seat": record([{"call": 2}]),
    "unknown_played_card": record(calls(2, 2) + [{"seat": 1, "play": "ZZ"}]),
    "unknown_option": {**record(), "options": {"trumps": "S"}},
    "unknown_cycle": {**record(), "options": {"cycle": "long"}},
    "bad_dealer": {**record(), "dealer": 4},
    "bad_json": '{"game": "variety", "dealer": 0,',
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_a_document_that_is_not_a_record_gets_one_line_and_exit_2(tmp_path, name):
    path = write(tmp_path / f"{name}.json", INVALID[name])
    code, out, err = run("replay", str(path))
    assert (code, out) == (2, "")
    assert len(lines(err)) == 1
    assert lines(err)[0].startswith(f"{path}: not a valid record: ")
    assert "Traceback" not in err


def test_bad_input_never_shows_a_traceback_in_a_real_process(tmp_path, simulated):
    paths = [str(write(tmp_path / f"{name}.json", INVALID[name]))
             for name in ("card_twice", "twelve_cards", "call_as_text", "unknown_option")]
    done = manage("replay", *paths, str(simulated[0]))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert [line.split(":")[0] for line in lines(done.stderr)] == paths
    assert json.loads(done.stdout)["complete"] is True
    done = manage("replay", str(write(tmp_path / "revoke.json", revoke())))
    assert done.returncode == 1 and "illegal action 3" in done.stderr
    assert "Traceback" not in done.stderr
