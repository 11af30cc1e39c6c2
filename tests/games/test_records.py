"""Deal records (docs/rules/records.md) through the real ``simulate`` and ``replay``
commands: what they print, on which stream, and with which exit status.

First what holds alike for every game (Фантан, Выборы, Леопард), parametrized over the three;
then Фантан's own records. Выборы's and Леопард's own are in test_variety_records.py and
test_leopard_records.py; the helpers they share are in commands.py."""

import json
from pathlib import Path

import pytest
from django.core.management.base import CommandError
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import InvalidRecord
from games.engine.records import IllegalRecordAction, parse, replay
from games.engine.simulate import simulate
from tests.support.commands import (
    GAMES,
    NOT_A_RECORD,
    SIMULATED,
    assert_illegal,
    assert_not_a_record,
    assert_refused_in_a_real_process,
    by_suit,
    expected_results,
    lines,
    manage,
    not_a_record,
    read,
    run,
    seats,
    simulate_records,
    valid_record,
    write,
)

RESULT_FIELDS = {
    "fantan": {"finish_order", "cards_left", "scores", "complete"},
    "variety": {
        "contract",
        "attackers",
        "defenders",
        "tricks",
        "points",
        "attackers_won",
        "scores",
        "complete",
    },
    "leopard": {"sums", "ender", "scores", "complete"},
}
EVERY_GAME = pytest.mark.parametrize("game", GAMES)


# -- every game: simulate writes records that replay accepts ---------------------------------


@EVERY_GAME
def test_simulate_writes_one_record_per_deal_dealt_in_turn_and_replay_gives_the_engines_results(
    tmp_path, game
):
    paths = simulate_records(tmp_path / "records", game)
    deals, seed = SIMULATED[game]
    assert len(paths) == deals
    for number, path in enumerate(paths):
        record = read(path)
        assert record["game"] == game
        assert record["dealer"] == number % seats(game)  # the deal passes clockwise
        assert record["actions"]
    code, out, err = run("replay", *map(str, paths))
    assert (code, err) == (0, "")
    results = [json.loads(line) for line in lines(out)]
    assert results == expected_results(game, deals, seed)
    for result in results:
        assert set(result) == RESULT_FIELDS[game]
        assert result["complete"] is True


@EVERY_GAME
def test_replay_prints_the_results_in_the_order_of_the_files(tmp_path, game):
    paths = simulate_records(tmp_path / "records", game)
    code, forward, _ = run("replay", *map(str, paths))
    code_back, backward, _ = run("replay", *map(str, reversed(paths)))
    assert code == code_back == 0
    assert lines(backward) == list(reversed(lines(forward)))
    assert len(set(lines(forward))) > 1  # the deals differ, so the order is visible
    order = (5, 0, 4, 4, 1)  # any order, one file twice
    code, out, _ = run("replay", *(str(paths[i]) for i in order))
    assert code == 0
    expected = expected_results(game, *SIMULATED[game])
    assert [json.loads(line) for line in lines(out)] == [expected[i] for i in order]


@EVERY_GAME
def test_replaying_twice_gives_the_same_results(tmp_path, game):
    paths = simulate_records(tmp_path / "records", game)
    first = run("replay", *map(str, paths))
    second = run("replay", *map(str, paths))
    assert first == second
    assert first[0] == 0


@pytest.mark.parametrize(
    "game, deals, seed, other", [("fantan", 4, 5, 6), ("variety", 4, 9, 10), ("leopard", 3, 5, 6)]
)
def test_the_same_seed_writes_identical_records_and_another_seed_other_ones(
    tmp_path, game, deals, seed, other
):
    for name, each in (("a", seed), ("b", seed), ("c", other)):
        code, _, err = run(
            "simulate",
            game,
            "--deals",
            str(deals),
            "--seed",
            str(each),
            "--records",
            str(tmp_path / name),
        )
        assert code == 0, err

    def contents(name):
        return [p.read_bytes() for p in sorted((tmp_path / name).iterdir())]

    assert len(contents("a")) == deals
    assert contents("a") == contents("b")
    assert contents("a") != contents("c")


@pytest.mark.parametrize(
    "game, deals, seed", [("fantan", 5, 3), ("variety", 3, 2), ("leopard", 4, 2)]
)
def test_simulate_json_prints_one_object_counting_the_actions_of_the_records_it_writes(
    tmp_path, game, deals, seed
):
    folder = tmp_path / "records"
    code, out, err = run(
        "simulate",
        game,
        "--deals",
        str(deals),
        "--seed",
        str(seed),
        "--json",
        "--records",
        str(folder),
    )
    assert (code, err) == (0, "")
    assert len(lines(out)) == 1
    figures = json.loads(out)
    assert {"game", "deals", "actions", "seconds", "deals_per_second"} <= set(figures)
    assert figures["game"] == game and figures["deals"] == deals
    written = [read(p) for p in sorted(folder.iterdir())]
    assert len(written) == deals
    assert figures["actions"] == sum(len(r["actions"]) for r in written)
    assert figures["seconds"] >= 0 and figures["deals_per_second"] > 0


@EVERY_GAME
def test_simulate_prints_deals_per_second_and_refuses_no_deals(game):
    code, out, _ = run("simulate", game, "--deals", "3", "--seed", "1")
    assert code == 0
    assert "3 deals" in out and "deals per second" in out
    with pytest.raises(CommandError, match="at least 1"):
        run("simulate", game, "--deals", "0")


@EVERY_GAME
def test_a_record_cut_before_its_last_action_or_without_actions_is_not_complete(tmp_path, game):
    cut = read(simulate_records(tmp_path / "records", game)[0])
    cut["actions"] = cut["actions"][:-1]
    no_actions = {k: v for k, v in cut.items() if k != "actions"}
    paths = [write(tmp_path / "cut.json", cut), write(tmp_path / "none.json", no_actions)]
    code, out, err = run("replay", *map(str, paths))
    assert (code, err) == (0, "")
    for result in map(json.loads, lines(out)):
        assert result["complete"] is False and result["scores"] is None


@EVERY_GAME
def test_a_dash_reads_the_record_from_standard_input(tmp_path, game, monkeypatch):
    path = simulate_records(tmp_path / "records", game)[0]
    code, out, err = run(
        "replay", "-", stdin=path.read_text(encoding="utf-8"), monkeypatch=monkeypatch
    )
    assert (code, err) == (0, "")
    assert json.loads(out) == expected_results(game, *SIMULATED[game])[0]


# -- every game: an illegal action, and documents that are not records -----------------------


@EVERY_GAME
def test_a_simulated_record_with_a_card_given_to_another_seat_is_refused_there_and_others_print(
    tmp_path, game
):
    paths = simulate_records(tmp_path / "records", game)
    record = read(paths[2])
    index = next(
        i for i, a in enumerate(record["actions"]) if i > 10 and {"play", "discard", "lay"} & set(a)
    )
    moved = record["actions"][index]
    moved["seat"] = (moved["seat"] + 1) % seats(game)
    write(paths[2], record)
    code, out, err = run("replay", *map(str, paths))
    assert code == 1
    expected = expected_results(game, *SIMULATED[game])
    assert [json.loads(line) for line in lines(out)] == expected[:2] + expected[3:]
    assert len(lines(err)) == 1
    assert lines(err)[0].startswith(f"{paths[2]}: illegal action {index} {json.dumps(moved)}: ")
    assert "not your turn" in err
    assert "Traceback" not in err


@EVERY_GAME
@pytest.mark.parametrize("name", sorted(NOT_A_RECORD))
def test_a_document_that_is_not_a_record_gets_one_line_with_the_reason_and_exit_2(
    tmp_path, game, name
):
    line = assert_not_a_record(write(tmp_path / f"{name}.json", not_a_record(game, name)))
    assert NOT_A_RECORD[name][1] in line


@EVERY_GAME
def test_the_valid_record_the_invalid_ones_are_made_from_replays(tmp_path, game):
    code, out, err = run("replay", str(write(tmp_path / "valid.json", valid_record(game))))
    assert (code, err) == (0, "")
    assert json.loads(out)["complete"] is False


# == Фантан's own records ====================================================================


@pytest.fixture
def simulated(tmp_path) -> list[Path]:
    return simulate_records(tmp_path / "records", "fantan")


def test_simulated_fantan_deals_hold_the_whole_pack_and_end_with_one_seat_out_scoring_1(simulated):
    for path in simulated:
        assert sorted(c for hand in read(path)["hands"] for c in hand) == sorted(
            rank + suit for rank in "23456789TJQKA" for suit in "SHDC"
        )
    code, out, err = run("replay", *map(str, simulated))
    assert (code, err) == (0, "")
    for result in map(json.loads, lines(out)):
        assert len(result["finish_order"]) == 1
        assert result["cards_left"][result["finish_order"][0]] == []
        assert sorted(result["scores"]) == [0, 0, 0, 1]


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},
        {"until_out": 2},
        {"players": 3, "until_out": 2, "scoring": "cards", "ace_extra": True, "two_extra": True},
        {"start_rank": "A", "ace_extra": True, "until_out": 2, "premiums": [200, 125]},
    ],
)
def test_records_with_options_replay_to_the_simulated_results(tmp_path, options):
    simulate("fantan", deals=4, seed=21, records_dir=tmp_path, options=options)
    paths = sorted(tmp_path.iterdir())
    assert len(paths) == 4
    code, out, err = run("replay", *map(str, paths))
    assert (code, err) == (0, "")
    results = [json.loads(line) for line in lines(out)]
    assert results == expected_results("fantan", 4, 21, options)
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
    return {
        "game": "fantan",
        "options": {"start_rank": "A"},
        "dealer": 3,
        "hands": by_suit(),
        "actions": actions[:49],
        **extra,
    }


def test_a_hand_written_record_replays_to_its_exact_result(tmp_path):
    path = write(tmp_path / "hand.json", ace_down_record())
    code, out, err = run("replay", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "finish_order": [0],
        "cards_left": [[], ["2H"], ["2D"], ["2C"]],
        "scores": [1, 0, 0, 0],
        "complete": True,
    }


def test_a_record_whose_actions_stop_early_is_not_complete(tmp_path):
    record = ace_down_record()
    record["actions"] = record["actions"][:6]
    path = write(tmp_path / "early.json", record)
    no_actions = write(tmp_path / "none.json", {k: v for k, v in record.items() if k != "actions"})
    code, out, err = run("replay", str(path), str(no_actions))
    assert (code, err) == (0, "")
    early, none = (json.loads(line) for line in lines(out))
    laid = {"AS", "AH", "AD", "AC", "KS", "KH"}
    assert early == {
        "finish_order": [],
        "scores": None,
        "complete": False,
        "cards_left": [[c for c in hand if c not in laid] for hand in by_suit()],
    }
    assert none == {"finish_order": [], "cards_left": by_suit(), "scores": None, "complete": False}


def test_cards_may_be_written_with_10_and_come_back_as_t(tmp_path):
    record = ace_down_record()
    record["hands"] = [[c.replace("T", "10") for c in hand] for hand in record["hands"]]
    record["actions"] = [{**a, "play": a["play"].replace("T", "10")} for a in record["actions"]]
    code, out, _ = run("replay", str(write(tmp_path / "tens.json", record)))
    assert code == 0
    assert json.loads(out)["cards_left"] == [[], ["2H"], ["2D"], ["2C"]]


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


@pytest.mark.parametrize(
    "index, action, reason",
    [
        (0, {"seat": 0, "pass": True}, "may not pass"),
        (0, {"seat": 1, "play": "AH"}, "not your turn"),
        (4, {"seat": 0, "play": "QS"}, "cannot be laid now"),
        (49, {"seat": 1, "play": "2H"}, "The deal is over"),
    ],
)
def test_each_kind_of_illegal_action_is_reported_with_index_and_reason(
    tmp_path, index, action, reason
):
    record = ace_down_record()
    if index == len(record["actions"]):
        record["actions"].append(action)
    else:
        record["actions"][index] = action
    assert_illegal(write(tmp_path / "illegal.json", record), index, action, reason)


# -- documents that are not records ----------------------------------------------------------


def hands_with(change) -> list[list[str]]:
    hands = by_suit()
    change(hands)
    return hands


# What is not a record for every game is checked above; here Фантан's own cases, and the
# documents of no game at all.
INVALID = {
    "empty_file": "",
    "not_an_object": json.dumps([1, 2, 3]),
    "deeply_nested": "[" * 100_000 + "]" * 100_000,
    "card_twice": {
        "game": "fantan",
        "dealer": 0,
        "hands": hands_with(lambda h: h[1].__setitem__(0, "AS")),
    },
    "two_of_clubs_with_three": {
        "game": "fantan",
        "options": {"players": 3},
        "dealer": 0,
        "hands": [
            by_suit()[0] + by_suit()[3][:4],
            by_suit()[1] + by_suit()[3][4:8],
            by_suit()[2] + by_suit()[3][8:12],
        ],
    },
    "players_as_float": {
        "game": "fantan",
        "options": {"players": 4.0},
        "dealer": 0,
        "hands": by_suit(),
        "actions": [{"seat": 1, "play": "8H"}],
    },
    "action_of_another_game": {
        "game": "fantan",
        "dealer": 0,
        "hands": by_suit(),
        "actions": [{"seat": 1, "lay": "8H"}],
    },
    "action_pass_false": {
        "game": "fantan",
        "dealer": 0,
        "hands": by_suit(),
        "actions": [{"seat": 1, "pass": False}],
    },
    "action_seat_far_out_of_range": {
        "game": "fantan",
        "dealer": 0,
        "hands": by_suit(),
        "actions": [{"seat": 7, "play": "8H"}],
    },
    "action_unknown_card": {
        "game": "fantan",
        "dealer": 0,
        "hands": by_suit(),
        "actions": [{"seat": 1, "play": "8H"}, {"seat": 2, "play": "ZZ"}],
    },
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_a_document_that_is_not_a_fantan_record_gets_one_line_and_exit_2(tmp_path, name):
    assert_not_a_record(write(tmp_path / f"{name}.json", INVALID[name]))


def test_a_missing_file_gets_one_line_and_exit_2(tmp_path):
    code, out, err = run("replay", str(tmp_path / "nowhere.json"))
    assert (code, out) == (2, "")
    assert lines(err) == [lines(err)[0]] and str(tmp_path / "nowhere.json") in err


def test_invalid_illegal_and_good_files_together_exit_2_and_print_the_good(tmp_path):
    bad_json = write(tmp_path / "a.json", not_a_record("fantan", "bad_json"))
    illegal = ace_down_record()
    illegal["actions"][0] = {"seat": 0, "pass": True}
    illegal_path = write(tmp_path / "b.json", illegal)
    good = write(tmp_path / "c.json", ace_down_record())
    code, out, err = run("replay", str(bad_json), str(illegal_path), str(good))
    assert code == 2
    assert len(lines(out)) == 1 and json.loads(out)["complete"] is True
    assert [line.split(":")[0] for line in lines(err)] == [str(bad_json), str(illegal_path)]


def test_bad_input_never_shows_a_traceback_in_a_real_process(tmp_path):
    invalid = [
        write(tmp_path / f"{name}.json", not_a_record("fantan", name))
        for name in ("bad_json", "game_not_a_name")
    ]
    invalid += [
        write(tmp_path / f"{name}.json", INVALID[name])
        for name in ("players_as_float", "deeply_nested")
    ]
    illegal = ace_down_record()
    illegal["actions"][3] = {"seat": 3, "play": "KC"}
    printed = assert_refused_in_a_real_process(
        invalid, write(tmp_path / "illegal.json", illegal), 3
    )
    assert printed == []


# -- whatever a file holds, replay answers in one line ---------------------------------------

ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def places(value, path=()):
    """Every path into a JSON document, to the document itself included."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*path, index))


def replaced(document, path, value):
    if not path:
        return value
    copy = json.loads(json.dumps(document))
    inner = copy
    for step in path[:-1]:
        inner = inner[step]
    inner[path[-1]] = value
    return copy


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_record_with_any_value_of_any_type_anywhere_is_refused_in_one_line(game, data):
    """An option of the wrong type, a list for a card, a float for a seat, a huge number:
    replay refuses the record as invalid or the action as illegal, never a traceback."""
    record = valid_record(game)  # its options are written out, so each can be broken
    path = data.draw(st.sampled_from(list(places(record))), label="path")
    broken = replaced(record, path, data.draw(ODD_VALUES, label="value"))
    try:
        replay(parse(json.dumps(broken)))
    except (InvalidRecord, IllegalRecordAction):
        pass


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"game": "fantan", "dealer": ' + b"9" * 5000 + b"}", "not JSON"),
    ],
)
def test_a_file_that_is_not_utf8_or_holds_a_huge_number_is_refused_in_one_line(
    tmp_path, content, reason
):
    path = tmp_path / "record.json"
    path.write_bytes(content)
    line = assert_not_a_record(path)
    assert reason in line


def test_a_file_beyond_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr("core.documents.LIMIT", 1000)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({**valid_record("fantan"), "padding": "x" * 2000}))
    code, out, err = run("replay", str(path))
    assert code == 2 and "larger than" in err and "Traceback" not in err
