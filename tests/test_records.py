"""Deal records (../shared/rules/records.md) through the real ``simulate`` and ``replay``
commands: what they print, on which stream, and with which exit status."""

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine import get_rules
from games.engine.simulate import random_deal, simulate

ROOT = Path(__file__).resolve().parent.parent
RESULT_FIELDS = {"finish_order", "cards_left", "scores", "complete"}


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


def manage(*args, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The command as a user runs it: a separate ``python manage.py`` process."""
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def lines(text: str) -> list[str]:
    return text.splitlines()


def by_suit() -> list[list[str]]:
    return [[rank + suit for rank in "23456789TJQKA"] for suit in "SHDC"]


def write(path: Path, record) -> Path:
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return path


def expected_results(deals: int, seed: int, options: dict | None = None) -> list[dict]:
    """What the simulated deals ended with, by the engine's own random play from the seed
    (the loop of games.engine.simulate.simulate, keeping the final states)."""
    rules = get_rules("fantan")
    options = rules.parse_options(options or {})
    rng = random.Random(seed)
    results = []
    for number in range(deals):
        state, _ = random_deal(rules, options, number % rules.seats(options), rng)
        assert state.is_over()
        results.append({**state.result(), "complete": True})
    return results


@pytest.fixture
def simulated(tmp_path) -> list[Path]:
    folder = tmp_path / "records"
    code, out, err = run("simulate", "fantan", "--deals", "6", "--seed", "11",
                         "--records", str(folder))
    assert code == 0, err
    return sorted(folder.iterdir())


# -- simulate writes records that replay accepts ---------------------------------------------


def test_simulate_writes_one_record_per_deal_and_replay_accepts_them_all(simulated):
    assert len(simulated) == 6
    for number, path in enumerate(simulated):
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["game"] == "fantan"
        assert record["dealer"] == number % 4  # the deal passes clockwise
        assert sorted(c for hand in record["hands"] for c in hand) == sorted(
            rank + suit for rank in "23456789TJQKA" for suit in "SHDC")
        assert record["actions"]
    code, out, err = run("replay", *map(str, simulated))
    assert (code, err) == (0, "")
    results = [json.loads(line) for line in lines(out)]
    assert len(results) == 6
    for result in results:
        assert set(result) == RESULT_FIELDS
        assert result["complete"] is True
        assert len(result["finish_order"]) == 1
        assert result["cards_left"][result["finish_order"][0]] == []
        assert sorted(result["scores"]) == [0, 0, 0, 1]
    assert results == expected_results(6, 11)


def test_replay_prints_the_results_in_the_order_of_the_files(simulated):
    code, forward, _ = run("replay", *map(str, simulated))
    code_back, backward, _ = run("replay", *map(str, reversed(simulated)))
    assert code == code_back == 0
    assert lines(backward) == list(reversed(lines(forward)))
    assert len(set(lines(forward))) > 1  # the deals differ, so the order is visible


def test_replaying_twice_gives_the_same_results(simulated):
    first = run("replay", *map(str, simulated))
    second = run("replay", *map(str, simulated))
    assert first == second
    assert first[0] == 0


def test_the_same_seed_writes_identical_records(tmp_path):
    for name, seed in (("a", 5), ("b", 5), ("c", 6)):
        code, _, err = run("simulate", "fantan", "--deals", "4", "--seed", str(seed),
                           "--records", str(tmp_path / name))
        assert code == 0, err

    def contents(name):
        return [p.read_bytes() for p in sorted((tmp_path / name).iterdir())]

    assert contents("a") == contents("b")
    assert contents("a") != contents("c")


def test_simulate_json_prints_the_figures_as_one_object(tmp_path):
    folder = tmp_path / "records"
    code, out, err = run("simulate", "fantan", "--deals", "5", "--seed", "3", "--json",
                         "--records", str(folder))
    assert (code, err) == (0, "")
    assert len(lines(out)) == 1
    figures = json.loads(out)
    assert {"game", "deals", "actions", "seconds", "deals_per_second"} <= set(figures)
    assert figures["game"] == "fantan" and figures["deals"] == 5
    written = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.iterdir())]
    assert figures["actions"] == sum(len(r["actions"]) for r in written)
    assert figures["seconds"] >= 0 and figures["deals_per_second"] > 0


def test_simulate_prints_deals_per_second_and_refuses_no_deals():
    code, out, _ = run("simulate", "fantan", "--deals", "3", "--seed", "1")
    assert code == 0
    assert "3 deals" in out and "deals per second" in out
    with pytest.raises(CommandError, match="at least 1"):
        run("simulate", "fantan", "--deals", "0")


@pytest.mark.parametrize("options", [
    {"players": 3},
    {"until_out": 2},
    {"players": 3, "until_out": 2, "scoring": "cards", "ace_extra": True, "two_extra": True},
    {"start_rank": "A", "ace_extra": True, "until_out": 2, "premiums": [200, 125]},
])
def test_records_with_options_replay_to_the_simulated_results(tmp_path, options):
    simulate("fantan", deals=4, seed=21, records_dir=tmp_path, options=options)
    paths = sorted(tmp_path.iterdir())
    assert len(paths) == 4
    code, out, err = run("replay", *map(str, paths))
    assert (code, err) == (0, "")
    results = [json.loads(line) for line in lines(out)]
    assert results == expected_results(4, 21, options)
    players = options.get("players", 4)
    for result in results:
        assert result["complete"] is True
        assert len(result["cards_left"]) == players
        assert len(result["finish_order"]) == options.get("until_out", 1)
        assert all("2C" not in hand for hand in result["cards_left"]) or players == 4
        if options.get("scoring") == "cards":
            assert sum(result["scores"]) == 0
    if players == 3:
        record = json.loads(paths[0].read_text(encoding="utf-8"))
        assert [len(hand) for hand in record["hands"]] == [17, 17, 17]


# -- records written by hand -----------------------------------------------------------------


def ace_down_record(**extra) -> dict:
    """Each seat holds one suit; with start rank A each lays his suit downwards in turn, so
    seat 0 (left of dealer 3) goes out with 2S on the 49th action."""
    actions = []
    for rank in "AKQJT98765432":
        for seat, suit in enumerate("SHDC"):
            actions.append({"seat": seat, "play": rank + suit})
    return {"game": "fantan", "options": {"start_rank": "A"}, "dealer": 3,
            "hands": by_suit(), "actions": actions[:49], **extra}


def test_a_hand_written_record_replays_to_its_exact_result(tmp_path):
    path = write(tmp_path / "hand.json", ace_down_record())
    code, out, err = run("replay", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out) == {"finish_order": [0], "cards_left": [[], ["2H"], ["2D"], ["2C"]],
                               "scores": [1, 0, 0, 0], "complete": True}


def test_a_record_whose_actions_stop_early_is_not_complete(tmp_path, simulated):
    record = ace_down_record()
    record["actions"] = record["actions"][:6]
    path = write(tmp_path / "early.json", record)
    no_actions = write(tmp_path / "none.json", {k: v for k, v in record.items()
                                                if k != "actions"})
    cut = json.loads(simulated[0].read_text(encoding="utf-8"))
    cut["actions"] = cut["actions"][:-1]
    cut_path = write(tmp_path / "cut.json", cut)
    code, out, err = run("replay", str(path), str(no_actions), str(cut_path))
    assert (code, err) == (0, "")
    early, none, last_missing = (json.loads(line) for line in lines(out))
    laid = {"AS", "AH", "AD", "AC", "KS", "KH"}
    assert early == {"finish_order": [], "scores": None, "complete": False,
                     "cards_left": [[c for c in hand if c not in laid] for hand in by_suit()]}
    assert none == {"finish_order": [], "cards_left": by_suit(), "scores": None,
                    "complete": False}
    assert last_missing["complete"] is False and last_missing["scores"] is None


def test_cards_may_be_written_with_10_and_come_back_as_t(tmp_path):
    record = ace_down_record()
    record["hands"] = [[c.replace("T", "10") for c in hand] for hand in record["hands"]]
    record["actions"] = [{**a, "play": a["play"].replace("T", "10")} for a in record["actions"]]
    code, out, _ = run("replay", str(write(tmp_path / "tens.json", record)))
    assert code == 0
    assert json.loads(out)["cards_left"] == [[], ["2H"], ["2D"], ["2C"]]


def test_a_dash_reads_the_record_from_standard_input(monkeypatch):
    code, out, err = run("replay", "-", stdin=json.dumps(ace_down_record()),
                         monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert json.loads(out)["finish_order"] == [0]


def test_a_dash_reads_standard_input_in_a_real_process(tmp_path):
    other = write(tmp_path / "other.json", ace_down_record())
    early = ace_down_record()
    early["actions"] = early["actions"][:10]
    done = manage("replay", "-", str(other), stdin=json.dumps(early))
    assert done.returncode == 0, done.stderr
    from_stdin, from_file = (json.loads(line) for line in lines(done.stdout))
    assert from_stdin["complete"] is False and from_stdin["cards_left"][0][-1] == "JS"
    assert from_file["complete"] is True and from_file["finish_order"] == [0]


# -- illegal actions -------------------------------------------------------------------------


def test_an_illegal_action_is_named_on_stderr_and_the_other_files_still_print(tmp_path):
    good = write(tmp_path / "good.json", ace_down_record())
    record = ace_down_record()
    record["actions"][5] = {"seat": 1, "play": "QS"}  # seat 1 does not hold the queen
    bad = write(tmp_path / "bad.json", record)
    also_good = write(tmp_path / "also.json", ace_down_record())
    code, out, err = run("replay", str(good), str(bad), str(also_good))
    assert code == 1
    assert len(lines(out)) == 2
    assert all(json.loads(line)["complete"] for line in lines(out))
    assert len(lines(err)) == 1
    line = lines(err)[0]
    assert str(bad) in line
    assert "action 5 " in line
    assert '{"seat": 1, "play": "QS"}' in line
    assert "QS is not in your hand" in line
    assert "Traceback" not in out + err


@pytest.mark.parametrize("index, action, reason", [
    (0, {"seat": 0, "pass": True}, "may not pass"),
    (0, {"seat": 1, "play": "AH"}, "not your turn"),
    (4, {"seat": 0, "play": "QS"}, "cannot be laid now"),
    (49, {"seat": 1, "play": "2H"}, "The deal is over"),
])
def test_each_kind_of_illegal_action_is_reported_with_index_and_reason(
        tmp_path, index, action, reason):
    record = ace_down_record()
    if index == len(record["actions"]):
        record["actions"].append(action)
    else:
        record["actions"][index] = action
    path = write(tmp_path / "illegal.json", record)
    code, out, err = run("replay", str(path))
    assert (code, out) == (1, "")
    assert len(lines(err)) == 1
    assert lines(err)[0].startswith(f"{path}: illegal action {index} {json.dumps(action)}: ")
    assert reason in lines(err)[0]


def test_a_simulated_record_with_one_action_changed_is_refused_at_that_action(simulated):
    record = json.loads(simulated[2].read_text(encoding="utf-8"))
    index = next(i for i, a in enumerate(record["actions"]) if "play" in a and i > 10)
    record["actions"][index]["seat"] = (record["actions"][index]["seat"] + 1) % 4
    simulated[2].write_text(json.dumps(record), encoding="utf-8")
    code, out, err = run("replay", *map(str, simulated))
    assert code == 1
    assert len(lines(out)) == 5
    assert lines(err)[0].startswith(f"{simulated[2]}: illegal action {index} ")
    assert "not your turn" in err


# -- documents that are not records ----------------------------------------------------------


def hands_with(change) -> list[list[str]]:
    hands = by_suit()
    change(hands)
    return hands


INVALID = {
    "bad_json": '{"game": "fantan", "dealer": 0,',
    "empty_file": "",
    "not_an_object": json.dumps([1, 2, 3]),
    "unknown_game": {"game": "poker", "dealer": 0, "hands": by_suit()},
    "no_game": {"dealer": 0, "hands": by_suit()},
    "game_not_a_name": {"game": ["fantan"], "dealer": 0, "hands": by_suit()},
    "too_few_cards": {"game": "fantan", "dealer": 0,
                      "hands": hands_with(lambda h: h[2].pop())},
    "too_many_hands": {"game": "fantan", "dealer": 0, "hands": by_suit() + [by_suit()[0]]},
    "card_twice": {"game": "fantan", "dealer": 0,
                   "hands": hands_with(lambda h: h[1].__setitem__(0, "AS"))},
    "unknown_card": {"game": "fantan", "dealer": 0,
                     "hands": hands_with(lambda h: h[0].__setitem__(0, "1X"))},
    "card_not_text": {"game": "fantan", "dealer": 0,
                      "hands": hands_with(lambda h: h[0].__setitem__(0, 8))},
    "two_of_clubs_with_three": {
        "game": "fantan", "options": {"players": 3}, "dealer": 0,
        "hands": [by_suit()[0] + by_suit()[3][:4], by_suit()[1] + by_suit()[3][4:8],
                  by_suit()[2] + by_suit()[3][8:12]]},
    "bad_dealer": {"game": "fantan", "dealer": 4, "hands": by_suit()},
    "unknown_option": {"game": "fantan", "options": {"trumps": "S"}, "dealer": 0,
                       "hands": by_suit()},
    "players_as_float": {"game": "fantan", "options": {"players": 4.0}, "dealer": 0,
                         "hands": by_suit(), "actions": [{"seat": 1, "play": "8H"}]},
    "actions_not_a_list": {"game": "fantan", "dealer": 0, "hands": by_suit(),
                           "actions": {"seat": 1, "play": "8H"}},
    "action_unknown_key": {"game": "fantan", "dealer": 0, "hands": by_suit(),
                           "actions": [{"seat": 1, "lay": "8H"}]},
    "action_pass_false": {"game": "fantan", "dealer": 0, "hands": by_suit(),
                          "actions": [{"seat": 1, "pass": False}]},
    "action_no_seat": {"game": "fantan", "dealer": 0, "hands": by_suit(),
                       "actions": [{"play": "8H"}]},
    "action_seat_out_of_range": {"game": "fantan", "dealer": 0, "hands": by_suit(),
                                 "actions": [{"seat": 7, "play": "8H"}]},
    "action_unknown_card": {"game": "fantan", "dealer": 0, "hands": by_suit(),
                            "actions": [{"seat": 1, "play": "8H"}, {"seat": 2, "play": "ZZ"}]},
    "action_not_an_object": {"game": "fantan", "dealer": 0, "hands": by_suit(),
                             "actions": ["8H"]},
    "deeply_nested": "[" * 100_000 + "]" * 100_000,
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


def test_a_missing_file_gets_one_line_and_exit_2(tmp_path):
    code, out, err = run("replay", str(tmp_path / "nowhere.json"))
    assert (code, out) == (2, "")
    assert lines(err) == [lines(err)[0]] and str(tmp_path / "nowhere.json") in err


def test_invalid_illegal_and_good_files_together_exit_2_and_print_the_good(tmp_path):
    bad_json = write(tmp_path / "a.json", INVALID["bad_json"])
    illegal = ace_down_record()
    illegal["actions"][0] = {"seat": 0, "pass": True}
    illegal_path = write(tmp_path / "b.json", illegal)
    good = write(tmp_path / "c.json", ace_down_record())
    code, out, err = run("replay", str(bad_json), str(illegal_path), str(good))
    assert code == 2
    assert len(lines(out)) == 1 and json.loads(out)["complete"] is True
    assert [line.split(":")[0] for line in lines(err)] == [str(bad_json), str(illegal_path)]


def test_bad_input_never_shows_a_traceback_in_a_real_process(tmp_path):
    paths = [str(write(tmp_path / f"{name}.json", INVALID[name]))
             for name in ("bad_json", "game_not_a_name", "players_as_float", "deeply_nested")]
    done = manage("replay", *paths)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert [line.split(":")[0] for line in lines(done.stderr)] == paths
    illegal = ace_down_record()
    illegal["actions"][3] = {"seat": 3, "play": "KC"}
    done = manage("replay", str(write(tmp_path / "illegal.json", illegal)))
    assert done.returncode == 1 and "illegal action 3" in done.stderr
