"""Выборы (Variety) deal records (docs/rules/records.md) through the real ``simulate`` and
``replay`` commands: what they print, on which stream, and with which exit status.

What holds alike for every game is checked once, for all three, in test_records.py."""

import json
from pathlib import Path

import pytest

from games.engine.cards import CODES
from games.engine.simulate import simulate
from tests.support.commands import (
    assert_illegal,
    assert_not_a_record,
    assert_refused_in_a_real_process,
    by_suit,
    expected_results,
    lines,
    not_a_record,
    read,
    round_robin,
    run,
    simulate_records,
    write,
)

FIXED_TOTAL = {1: 12, 2: 26, 3: 26, 4: 0, 5: 0, 6: 26, 7: -26, 8: -26}


def record(actions=(), hands=None, **extra) -> dict:
    """Dealer 3, so seat 0 (A) calls first."""
    return {
        "game": "variety",
        "options": {},
        "dealer": 3,
        "hands": round_robin() if hands is None else hands,
        "actions": list(actions),
        **extra,
    }


def calls(*numbers, first: int = 0) -> list[dict]:
    return [{"seat": (first + i) % 4, "call": n} for i, n in enumerate(numbers)]


def by_suit_contract_1() -> dict:
    """Contract 1, attackers 0 and 1; seat 1 leads hearts every time and nobody can follow."""
    actions = calls(1, 1)
    for rank in "23456789TJQKA":
        actions += [
            {"seat": s, "play": rank + suit} for s, suit in zip((1, 2, 3, 0), "HDCS", strict=True)
        ]
    return record(actions, hands=by_suit())


@pytest.fixture
def simulated(tmp_path) -> list[Path]:
    return simulate_records(tmp_path / "records", "variety")


# -- simulate writes records that replay accepts ---------------------------------------------


def test_a_simulated_deal_gives_13_cards_each_then_an_auction_and_52_cards_scored_by_contract(
    simulated,
):
    for number, path in enumerate(simulated):
        written = read(path)
        assert sorted(c for h in written["hands"] for c in h) == sorted(CODES)
        assert [len(h) for h in written["hands"]] == [13] * 4
        assert written["actions"][0]["seat"] == (number + 1) % 4
        # An auction of 2 to 9 calls, then the 52 cards.
        assert len([a for a in written["actions"] if "play" in a]) == 52
        assert 2 <= len(written["actions"]) - 52 <= 9
    code, out, err = run("replay", *map(str, simulated))
    assert (code, err) == (0, "")
    results = [json.loads(line) for line in lines(out)]
    assert len(results) == 8
    for result in results:
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


def test_short_cycle_records_carry_their_option_and_replay(tmp_path):
    simulate("variety", deals=4, seed=23, records_dir=tmp_path, options={"cycle": "short"})
    paths = sorted(tmp_path.iterdir())
    assert [json.loads(p.read_text(encoding="utf-8"))["options"] for p in paths] == [
        {"cycle": "short"}
    ] * 4
    code, out, err = run("replay", *map(str, paths))
    assert (code, err) == (0, "")
    assert [json.loads(line) for line in lines(out)] == expected_results(
        "variety", 4, 23, {"cycle": "short"}
    )


# -- records written by hand -----------------------------------------------------------------


def test_a_hand_written_record_replays_to_its_exact_result(tmp_path):
    path = write(tmp_path / "hand.json", by_suit_contract_1())
    code, out, err = run("replay", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "contract": 1,
        "attackers": [0, 1],
        "defenders": [2, 3],
        "tricks": [0, 13, 0, 0],
        "points": [12, 0],
        "attackers_won": True,
        "scores": [12, 12, 0, 0],
        "complete": True,
    }


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
        "contract": 4,
        "attackers": [3, 2],
        "defenders": [0, 1],
        "tricks": [0, 0, 0, 0],
        "points": None,
        "attackers_won": None,
        "scores": None,
        "complete": False,
    }
    for result in (during_auction, before_auction):
        assert result["complete"] is False
        assert result["contract"] is None and result["attackers"] is None
        assert result["scores"] is None


def test_a_simulated_record_cut_before_its_last_card_counts_twelve_tricks_taken(
    tmp_path, simulated
):
    cut = read(simulated[0])
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
    "repeated_call": (record(calls(5, 1, 8, 4, 5)), 4, {"seat": 0, "call": 5}, "already called 5"),
    "call_in_play": (
        record(calls(2, 2) + [{"seat": 1, "call": 3, "say": "I lead"}]),
        2,
        {"seat": 1, "call": 3, "say": "I lead"},
        "auction is over",
    ),
    "card_in_auction": (
        record([{"seat": 0, "play": "2S"}]),
        0,
        {"seat": 0, "play": "2S"},
        "auction is not over",
    ),
    "out_of_turn": (record(calls(2, 3, first=1)), 0, {"seat": 1, "call": 2}, "not your turn"),
    "card_not_held": (
        record(calls(2, 2) + [{"seat": 1, "play": "2S"}]),
        2,
        {"seat": 1, "play": "2S"},
        "not in your hand",
    ),
    "long_announcement": (
        record([{"seat": 0, "call": 2, "say": "x" * 81}]),
        0,
        {"seat": 0, "call": 2, "say": "x" * 81},
        "at most 80",
    ),
}


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_an_illegal_action_is_named_with_file_index_action_and_reason_exit_1(tmp_path, name):
    document, index, action, reason = ILLEGAL[name]
    assert document["actions"][index] == action
    assert_illegal(write(tmp_path / f"{name}.json", document), index, action, reason)


def test_a_simulated_record_with_a_revoke_is_refused_at_that_card(tmp_path, simulated):
    for path in simulated:  # find a card played while holding the suit led elsewhere
        document = read(path)
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


# What is not a record for every game is checked in test_records.py; here Выборы's own cases.
INVALID = {
    "fourteen_cards": record(hands=hands_with(lambda h: h[0].append(h[1].pop()))),
    "card_twice": record(hands=hands_with(lambda h: h[1].__setitem__(0, h[0][0]))),
    "call_nine": record([{"seat": 0, "call": 9}]),
    "call_zero": record([{"seat": 0, "call": 0}]),
    "call_as_text": record([{"seat": 0, "call": "4"}]),
    "call_as_float": record([{"seat": 0, "call": 4.0}]),
    "call_as_list": record([{"seat": 0, "call": [4]}]),
    "say_not_text": record([{"seat": 0, "call": 4, "say": ["hi"]}]),
    "say_alone": record([{"seat": 0, "say": "I hold six clubs"}]),
    "say_with_a_card": record(calls(2, 2) + [{"seat": 1, "play": "3S", "say": "hi"}]),
    "call_and_play": record([{"seat": 0, "call": 2, "play": "2S"}]),
    "unknown_played_card": record(calls(2, 2) + [{"seat": 1, "play": "ZZ"}]),
    "unknown_cycle": {**record(), "options": {"cycle": "long"}},
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_a_document_that_is_not_a_variety_record_gets_one_line_and_exit_2(tmp_path, name):
    assert_not_a_record(write(tmp_path / f"{name}.json", INVALID[name]))


def test_bad_input_never_shows_a_traceback_in_a_real_process(tmp_path, simulated):
    invalid = [
        write(tmp_path / f"{name}.json", INVALID[name]) for name in ("card_twice", "call_as_text")
    ]
    invalid += [
        write(tmp_path / f"{name}.json", not_a_record("variety", name))
        for name in ("a_hand_one_card_short", "unknown_option")
    ]
    printed = assert_refused_in_a_real_process(
        invalid, write(tmp_path / "revoke.json", revoke()), 3, good=simulated[0]
    )
    assert [result["complete"] for result in printed] == [True]
