"""Helpers shared by the engine tests and the deal-record tests (docs/rules/records.md):
the ``simulate`` and ``replay`` management commands run in this process or as a real one,
what simulated deals end with, deals and actions written as records write them, and the
checks the engine tests make on a state. Plain functions; no tests here."""

import io
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, get_rules
from games.engine.cards import CODES
from games.engine.simulate import random_deal

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("fantan", "variety", "leopard")
RANKS = "23456789TJQKA"  # two low, ace high: written out here rather than read from the engine

# -- the commands ----------------------------------------------------------------------------


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
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def lines(text: str) -> list[str]:
    return text.splitlines()


def write(path: Path, record) -> Path:
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return path


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# -- simulated deals -------------------------------------------------------------------------

# How many deals each game's ``simulated`` records hold, and from which seed.
SIMULATED = {"fantan": (6, 11), "variety": (8, 17), "leopard": (8, 1)}


def simulate_records(folder: Path, game: str) -> list[Path]:
    """The records ``simulate`` writes for ``game`` (SIMULATED deals and seed), in order."""
    deals, seed = SIMULATED[game]
    code, out, err = run(
        "simulate", game, "--deals", str(deals), "--seed", str(seed), "--records", str(folder)
    )
    assert code == 0, err
    assert f"{deals} deals" in out
    return sorted(folder.iterdir())


def expected_results(game: str, deals: int, seed: int, options: dict | None = None) -> list[dict]:
    """What the simulated deals of ``game`` ended with, by the engine's own random play from
    the seed (the loop of games.engine.simulate.simulate, keeping the final states)."""
    rules = get_rules(game)
    options = rules.parse_options(options or {})
    rng = random.Random(seed)
    results = []
    for number in range(deals):
        state, _ = random_deal(rules, options, number % rules.seats(options), rng)
        assert state.is_over()
        results.append({**state.result(), "complete": True})
    return results


# -- what replay refuses ---------------------------------------------------------------------


def seats(game: str) -> int:
    """How many seats a deal of ``game`` has with the default options."""
    rules = get_rules(game)
    return rules.seats(rules.parse_options({}))


def valid_record(game: str) -> dict:
    """A record of a fresh deal of ``game`` with its first legal action: the document the
    shared invalid ones are made from."""
    rules = get_rules(game)
    state = rules.new_deal(rules.parse_options({}), 0, 1234)
    return {**state.record(), "actions": [state.legal_actions()[0]]}


def _changed(change):
    def make(game: str) -> dict:
        record = json.loads(json.dumps(valid_record(game)))  # a deep copy
        change(record, game)
        return record

    return make


# Documents that are not records in the same way for every game, with words of the reason
# replay gives: name -> (game -> document, reason).
NOT_A_RECORD = {
    "bad_json": (lambda game: f'{{"game": "{game}", "dealer": 0,', "not JSON"),
    "a_list_naming_the_game": (lambda game: json.dumps([game]), "must be a JSON object"),
    "unknown_game": (_changed(lambda r, game: r.update(game="poker")), "unknown game"),
    "misspelt_game": (_changed(lambda r, game: r.update(game=game + "s")), "unknown game"),
    "no_game": (_changed(lambda r, game: r.pop("game")), "unknown game"),
    "game_not_a_name": (_changed(lambda r, game: r.update(game=[game])), "unknown game"),
    "bad_dealer": (_changed(lambda r, game: r.update(dealer=seats(game))), "dealer must be"),
    "unknown_option": (
        _changed(lambda r, game: r.update(options={"trumps": "S"})),
        "option 'trumps'",
    ),
    "a_hand_one_card_short": (_changed(lambda r, game: r["hands"][1].pop()), "hand must hold"),
    "one_hand_too_many": (
        _changed(lambda r, game: r["hands"].append(r["hands"][0])),
        "hands must be a list of",
    ),
    "one_hand_too_few": (_changed(lambda r, game: r["hands"].pop()), "hands must be a list of"),
    "unknown_card": (
        _changed(lambda r, game: r["hands"][0].__setitem__(0, "1X")),
        "unknown card '1X'",
    ),
    "card_not_text": (_changed(lambda r, game: r["hands"][0].__setitem__(0, 8)), "not a card: 8"),
    "actions_not_a_list": (
        _changed(lambda r, game: r.update(actions=r["actions"][0])),
        "actions must be a list",
    ),
    "action_not_an_object": (
        _changed(lambda r, game: r.update(actions=["8H"])),
        "action 0: an action must be a JSON object",
    ),
    "action_unknown_key": (
        _changed(lambda r, game: r["actions"][0].update(shuffle=True)),
        "action 0: a ",
    ),
    "action_no_seat": (
        _changed(lambda r, game: r["actions"][0].pop("seat")),
        "action 0: seat must be",
    ),
    "action_seat_out_of_range": (
        _changed(lambda r, game: r["actions"][0].update(seat=seats(game))),
        "action 0: seat must be",
    ),
}


def not_a_record(game: str, name: str):
    """The document NOT_A_RECORD[name] for ``game``."""
    return NOT_A_RECORD[name][0](game)


def assert_not_a_record(path: Path) -> str:
    """replay refuses the file: exit 2, nothing printed, one line on stderr naming the file
    and no traceback. The line."""
    code, out, err = run("replay", str(path))
    assert code == 2
    assert out == ""
    assert len(lines(err)) == 1
    assert lines(err)[0].startswith(f"{path}: not a valid record: ")
    assert "Traceback" not in err
    return lines(err)[0]


def assert_illegal(path: Path, index: int, action: dict, reason: str) -> None:
    """replay refuses the file's action ``index``: exit 1, nothing printed, one line on stderr
    naming the file, the index, the action as written and ``reason``, and no traceback."""
    code, out, err = run("replay", str(path))
    assert (code, out) == (1, "")
    assert len(lines(err)) == 1
    line = lines(err)[0]
    assert line.startswith(f"{path}: illegal action {index} {json.dumps(action)}: ")
    assert reason in line
    assert "Traceback" not in err


def assert_refused_in_a_real_process(
    invalid: list[Path], illegal: Path, index: int, good: Path | None = None
) -> list[dict]:
    """In a real ``manage.py replay`` process: the ``invalid`` files (then ``good``) exit 2
    with one line each on stderr, in order; ``illegal`` alone exits 1 naming its action
    ``index``; never a traceback. The results printed for ``good``."""
    paths = [str(p) for p in invalid]
    done = manage("replay", *paths, *([str(good)] if good is not None else []))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert [line.split(":")[0] for line in lines(done.stderr)] == paths
    printed = [json.loads(line) for line in lines(done.stdout)]
    done = manage("replay", str(illegal))
    assert done.returncode == 1 and f"illegal action {index}" in done.stderr
    assert "Traceback" not in done.stderr
    return printed


# -- cards and actions as records write them -------------------------------------------------


def by_suit(order: str = "SHDC") -> list[list[str]]:
    """Seat 0 holds the whole first suit of ``order``, seat 1 the second, and so on."""
    return [[rank + suit for rank in RANKS] for suit in order]


def round_robin() -> list[list[str]]:
    """The sorted pack dealt one card at a time: every seat holds cards of every suit."""
    return [[CODES[i] for i in range(seat, 52, 4)] for seat in range(4)]


def play(seat: int, card: str) -> dict:
    return {"seat": seat, "play": card}


def end(seat: int) -> dict:
    return {"seat": seat, "end": True}


def discard(seat: int, card: str) -> dict:
    return {"seat": seat, "discard": card}


def lay(seat: int, card: str, square: int, place: str | None = None) -> dict:
    action = {"seat": seat, "lay": card, "square": square}
    if place is not None:
        action["place"] = place
    return action


# Леопард: the rules file's example square, spades A to 8 with place 9 empty (sum 10).
BOOK_SQUARE = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]
FILLER = ["6D", "6H", "8D", "8H", "4D", "4H", "6D", "6H", "8D", "8H"]


def leopard_record(
    turns=(), *, then=(), hands=None, next_cards=(), dealer: int = 1, options=None
) -> dict:
    """A Леопард record whose stock is laid out so that each of ``turns`` plays the card it
    draws; ``then`` are actions appended as written (their cards are not arranged for); then
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
    out = {
        "game": "leopard",
        "dealer": dealer,
        "hands": hands,
        "stock": drawn + list(next_cards) + rest,
        "actions": list(turns) + list(then),
    }
    if options is not None:
        out["options"] = options
    return out


def lays_in_own_square(seat: int, cards: list[str], other_cards=()) -> list[dict]:
    """Леопард turns in which ``seat`` (who acts first) lays ``cards`` in his own square, one
    a turn (a 10 or K on the place written after it, "KS@5"), while the other seat lays
    ``other_cards`` in his own square, then discards."""
    other = 1 - seat
    filler = list(FILLER)
    turns = []
    for i, card in enumerate(cards):
        code, _, place = card.partition("@")
        turns.append(lay(seat, code, seat, place or None))
        if i < len(other_cards):
            code, _, place = other_cards[i].partition("@")
            turns.append(lay(other, code, other, place or None))
        else:
            turns.append(discard(other, filler.pop()))
    return turns


# -- engine states ---------------------------------------------------------------------------


def rank_of(code: str) -> int:
    return RANKS.index(code[0])


def key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def legal(state) -> list[dict]:
    return sorted(state.legal_actions(), key=key)


def snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def assert_refused(state, action: dict, reason: str = "", error=IllegalAction) -> None:
    """``action`` raises ``error`` (mentioning ``reason``) and changes nothing at all."""
    before = snapshot(state)
    legal_before = state.legal_actions()
    with pytest.raises(error) as caught:
        state.apply(action)
    assert reason in str(caught.value)
    assert snapshot(state) == before
    assert state.legal_actions() == legal_before


def property_settings(max_examples: int) -> settings:
    """Settings for the engines' Hypothesis properties: whole deals are slow and large."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def drawn_by(data):
    """A chooser of actions: any legal action, drawn by Hypothesis' ``data``."""

    def choose(state) -> dict:
        actions = state.legal_actions()
        return actions[data.draw(st.integers(0, len(actions) - 1), label="action")]

    return choose


def play_some(state, steps: int, choose):
    """Apply up to ``steps`` actions picked by ``choose(state)``, stopping when the deal is
    over."""
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(choose(state))
    return state


def assert_a_json_copy_plays_on_like_the_deal(rules, state, choose) -> None:
    """A copy of ``state`` through JSON is the same deal, shows every seat the same view and,
    given the same actions (picked by ``choose``), stays the same to the end."""
    copy = rules.from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json()
    assert copy.legal_actions() == state.legal_actions()
    assert copy.result() == state.result()
    for seat in [None, *range(len(state.hands))]:
        assert copy.view(seat) == state.view(seat)
    while not state.is_over():
        action = choose(state)
        state.apply(action)
        copy.apply(action)
        assert copy.to_json() == state.to_json()
    assert copy.result() == state.result()


def assert_views_show_only_own_hands(state, held: list[list[str]]) -> None:
    """A spectator sees no hand and nothing playable; each seat sees its own hand (``held``)
    and no card of another's."""
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["playable"] == []
    text = json.dumps({key: value for key, value in spectator.items() if key != "missing"})
    assert [c for h in held for c in h if f'"{c}"' in text] == [], "a spectator sees a card"
    for seat, hand in enumerate(held):
        view = state.view(seat)
        assert sorted(view["hand"]) == sorted(hand)
        # (Фантан's "missing" names the cards each seat proved by passing that it lacks, as
        # every player saw: it says where a card is not, never who holds it)
        text = json.dumps({key: value for key, value in view.items() if key != "missing"})
        others = [c for s, h in enumerate(held) if s != seat for c in h]
        assert [c for c in others if f'"{c}"' in text] == [], "another seat's card is shown"
