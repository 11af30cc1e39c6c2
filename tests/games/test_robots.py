"""Robot players, the pure part: what a robot may know, that it plays only legal
actions, and the ``duel`` command. Parametrized over every game that has robots."""

import json
import random

import pytest
from django.core.management.base import CommandError

from games import registry
from games.engine import get_rules
from games.engine.records import parse, replay
from games.engine.robots import STRENGTHS, choices, play_out, robot
from tests.support.commands import run

GAMES = [key for key in registry.GAMES if registry.robots(key) is not None]


def test_every_game_has_robots_of_every_strength():
    assert GAMES == list(registry.GAMES)
    for game in GAMES:
        assert set(registry.robots(game).ROBOTS) == set(STRENGTHS)


def positions(game: str, deals: int, seed: int, options: dict | None = None):
    """States met in random deals (every seat choosing a random choice), and the seat to
    act's view, at every turn; the game's default options unless ``options`` are given."""
    rules = get_rules(game)
    options = rules.parse_options(options or {})
    rng = random.Random(seed)
    for number in range(deals):
        state = rules.new_deal(options, number % rules.seats(options), rng.getrandbits(32))
        while not state.is_over():
            yield state
            state.apply(rng.choice(choices(state)))


@pytest.mark.parametrize("game", GAMES)
def test_a_sampled_deal_shows_the_seat_exactly_what_it_saw(game):
    """The strong robot's samples are deals the seat could be in: the same view, the same
    choices, the rules' invariants hold, and play goes on from them to the end."""
    sample_state = registry.robots(game).sample_state
    rng = random.Random(5)
    differs = 0
    for state in positions(game, 4, seed=1):
        seat = state.to_act
        view = state.view(seat)
        sample = sample_state(view, rng)
        sample.check_invariants()
        assert sample.view(seat) == view
        assert choices(sample) == choices(state)
        differs += sample.to_json()["hands"] != state.to_json()["hands"]
    assert differs > 20, "the samples are the real deal: they prove nothing"


@pytest.mark.parametrize("strength", STRENGTHS)
@pytest.mark.parametrize("game", GAMES)
def test_a_robot_does_not_peek(game, strength):
    """A robot's choice does not change when the cards it cannot see are replaced by other
    cards consistent with all it knows: it decides from its seat's view alone."""
    sample_state = registry.robots(game).sample_state
    rng = random.Random(11)
    player = robot(game, strength, samples=2)
    checked = 0
    for number, state in enumerate(positions(game, 2, seed=2)):
        legal = choices(state)
        if len(legal) < 2 or number % (9 if strength == "strong" else 1):
            continue
        seat = state.to_act
        chosen = player.choose(state.view(seat), legal, random.Random(number))
        assert chosen in legal
        for _ in range(2):
            other = sample_state(state.view(seat), rng)  # the other hands dealt anew
            assert other.to_json() != state.to_json()
            again = player.choose(other.view(seat), choices(other), random.Random(number))
            assert again == chosen
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("game", GAMES)
def test_robots_play_only_legal_actions_and_their_records_replay(game):
    """500 deals of club and beginner robots: every action goes through the engine (which
    refuses an illegal one), the invariants hold at the end, and each deal's record, with
    the robots named in it, replays to the same result."""
    rules = get_rules(game)
    options = rules.parse_options({})
    seats = rules.seats(options)
    rng = random.Random(3)
    for number in range(500):
        names = [("club", "beginner")[(seat + number) % 2] for seat in range(seats)]
        robots = [robot(game, name) for name in names]
        state = rules.new_deal(options, number % seats, rng.getrandbits(32))
        actions = play_out(state, robots, rng)
        state.check_invariants()
        assert state.is_over()
        if number % 25 == 0:
            record = {**state.record(), "actions": actions, "robots": names}
            replayed = replay(parse(json.dumps(record)))
            assert replayed.complete and replayed.state.result() == state.result()


@pytest.mark.parametrize("game", GAMES)
def test_strong_robots_play_whole_deals_legally(game):
    rules = get_rules(game)
    options = rules.parse_options({})
    seats = rules.seats(options)
    rng = random.Random(4)
    for number in range(2):
        robots = [
            robot(game, "strong" if seat == number % seats else "club", samples=1)
            for seat in range(seats)
        ]
        state = rules.new_deal(options, number, rng.getrandbits(32))
        actions = play_out(state, robots, rng)
        state.check_invariants()
        record = {**state.record(), "actions": actions}
        assert replay(parse(json.dumps(record))).state.result() == state.result()


def test_a_strong_robots_search_is_bounded_by_its_time_budget():
    """Without a fixed number of samples, the strong robot searches as long as its budget."""
    import time

    game = GAMES[0]
    player = robot(game, "strong", budget=0.05)
    for state in positions(game, 1, seed=6):
        legal = choices(state)
        if len(legal) > 1:
            started = time.perf_counter()
            player.choose(state.view(state.to_act), legal, random.Random(0))
            assert time.perf_counter() - started < 1.0
            assert player.last_samples >= 2
            return


def test_variety_robots_announce_their_calls():
    """A robot's call in Выборы carries a short announcement, as people's may."""
    rules = get_rules("variety")
    state = rules.new_deal(rules.parse_options({}), 0, 7)
    actions = play_out(state, [robot("variety", "club") for _ in range(4)], random.Random(0))
    calls = [action for action in actions if "call" in action]
    assert calls and all(0 < len(action["say"]) <= 80 for action in calls)
    hand = state.dealt["hands"][calls[0]["seat"]]
    spades = sum(1 for code in hand if code.endswith("S"))
    assert calls[0]["say"].startswith(f"♠{spades} ")


# -- the duel command ------------------------------------------------------------------------


def test_duel_prints_each_robots_figures_with_a_confidence_interval():
    code, out, _ = run(
        "duel", "variety", "--robots", "club,club,beginner,beginner", "--deals", "12", "--seed", "1"
    )
    assert code == 0
    assert "club (2 seats):" in out and "points a deal (95% CI" in out
    assert "club − beginner:" in out


def test_duel_json_and_records(tmp_path):
    code, out, _ = run(
        "duel",
        "leopard",
        "--robots",
        "strong,club",
        "--deals",
        "4",
        "--seed",
        "2",
        "--samples",
        "1",
        "--json",
        "--records",
        str(tmp_path),
    )
    assert code == 0
    figures = json.loads(out)
    assert figures["deals"] == 4 and figures["measure"] == "won"
    rows = {row["robot"]: row for row in figures["robots"]}
    assert set(rows) == {"strong", "club"}
    for row in rows.values():
        low, high = row["ci95"]
        assert low <= row["won"] <= high
    won = rows["strong"]["won"] + rows["club"]["won"]
    assert won <= 1  # a drawn deal is won by neither
    files = sorted(tmp_path.iterdir())
    assert len(files) == 4
    seatings = [json.loads(path.read_text())["robots"] for path in files]
    assert seatings[0] != seatings[1] and sorted(seatings[0]) == ["club", "strong"]
    code, out, err = run("replay", *map(str, files))
    assert code == 0 and err == "" and len(out.splitlines()) == 4


def test_duel_seats_every_robot_everywhere_equally(tmp_path):
    code, _, _ = run(
        "duel",
        "fantan",
        "--robots",
        "club,beginner,beginner,beginner",
        "--deals",
        "8",
        "--records",
        str(tmp_path),
    )
    assert code == 0
    seats = [
        json.loads(path.read_text())["robots"].index("club") for path in sorted(tmp_path.iterdir())
    ]
    assert sorted(seats) == [0, 0, 1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--robots", "club,nobody"], "unknown robot 'nobody'"),
        (["--robots", "club,club,club"], "the table has 2 seats"),
        (["--robots", "club,club", "--deals", "0"], "--deals must be at least 1"),
        (["--robots", "club,club", "--samples", "0"], "--samples must be at least 1"),
        (["--robots", "club,club", "--options", '{"deals": 0}'], "--options"),
    ],
)
def test_duel_refuses_bad_arguments_clearly(args, message):
    with pytest.raises(CommandError, match=message):
        run("duel", "leopard", *args)


def test_fantans_strong_robot_takes_the_sure_win_over_the_sure_loss():
    """The search judges play-outs from its own seat: holding 5♥ and A♠ (both playable) with
    2♥ 3♥ 4♥ the only other cards out, one in each other hand, laying A♠ keeps the hearts
    shut (everyone passes, then 5♥ goes out: a sure win), laying 5♥ lets whoever holds 4♥ go
    out first (a sure loss). Every sample count, every sampled world agrees."""
    from games.engine.cards import card_index

    rules = get_rules("fantan")
    options = rules.parse_options({})
    others = [card_index(code) for code in ("2H", "3H", "4H")]
    rows = {"S": ("2", "K"), "H": ("6", "A"), "D": ("2", "A"), "C": ("2", "A")}
    ranks = "23456789TJQKA"
    lo = [ranks.index(rows[suit][0]) for suit in "SHDC"]
    hi = [ranks.index(rows[suit][1]) for suit in "SHDC"]
    for dealer in range(4):
        seat = (dealer + 1) % 4
        hands = [0] * 4
        hands[seat] = 1 << card_index("5H") | 1 << card_index("AS")
        for offset, card in enumerate(others, 1):
            hands[(seat + offset) % 4] = 1 << card
        state = rules.from_json(
            {
                "options": options,
                "dealer": dealer,
                "dealt": {"hands": [[], [], [], []]},
                "hands": hands,
                "lo": lo,
                "hi": hi,
                "playable": 1 << card_index("5H") | 1 << card_index("AS"),
                "to_act": seat,
                "extra": False,
                "finish_order": [],
                "missing": [0] * 4,
                "history": [],
            }
        )
        state.check_invariants()
        legal = choices(state)
        assert sorted(action["play"] for action in legal) == ["5H", "AS"]
        for samples in (1, 3):
            chosen = robot("fantan", "strong", samples=samples).choose(
                state.view(seat), legal, random.Random(samples)
            )
            assert chosen == {"seat": seat, "play": "AS"}, (dealer, samples)


def variety_position(seed: int, actions: int):
    """A Выборы deal between club robots, ``actions`` actions in (the auction over)."""
    rules = get_rules("variety")
    state = rules.new_deal(rules.parse_options({}), 0, seed)
    club, rng = robot("variety", "club"), random.Random(seed)
    from games.engine.robots import act

    for _ in range(actions):
        act(state, club, rng)
    assert state.contract is not None and not state.is_over()
    return state


def test_variety_samples_hold_the_suit_lengths_the_seats_announced():
    """Club robots announce their suit lengths with their calls: the strong robot's sampled
    deals give every seat that announced exactly the lengths it holds (what it said, less
    the cards it has played since), not just hands near them."""
    from games.variety.robots import sample_state, shape

    state = variety_position(7, 12)
    announced = {action[0] for action in state.calls if action[2]}
    seat = state.to_act
    view = state.view(seat)
    rng = random.Random(1)
    assert announced - {seat}
    for _ in range(20):
        world = sample_state(view, rng)
        assert world.view(seat) == view
        for other in announced - {seat}:
            assert shape(world.hands[other])[0] == shape(state.hands[other])[0]


def test_variety_samples_survive_an_announcement_that_cannot_be_true():
    """A person may announce anything: lengths his hand cannot hold are not believed, and the
    sampled deals still fit everything the seat has seen."""
    from games.variety.robots import sample_state

    rules = get_rules("variety")
    state = rules.new_deal(rules.parse_options({}), 0, 3)
    state.apply({"seat": 1, "call": 5, "say": "♠13 ♥0 ♦0 ♣0, 10 HCP"})
    state.apply({"seat": 2, "call": 5, "say": "♠9 ♥9 ♦0 ♣0, 37 HCP"})
    view = state.view(3)
    rng = random.Random(2)
    for _ in range(5):
        world = sample_state(view, rng)
        assert world.view(3) == view
        assert sum(hand.bit_count() for hand in world.hands) == 52


def test_a_search_plays_its_choices_out_as_it_would_say_them():
    """The play-outs take the robot's call with its announcement, which the club robots at
    the other seats read and answer, as they will at the table (without it they would answer
    a call that said nothing)."""
    from games.engine.robots import MonteCarlo
    from games.variety import robots as variety

    rules = get_rules("variety")
    state = rules.new_deal(rules.parse_options({}), 0, 5)
    seat = state.to_act
    seen = []

    def value(world, who):
        seen.append([call for call in world.calls if call[0] == seat][0])
        return 0.0

    search = MonteCarlo(
        rules=rules,
        sample=variety.sample_state,
        policy=variety.Club(),
        fast=variety.fast_club,
        value=value,
        samples=2,
    )
    search.choose(state.view(seat), choices(state), random.Random(0))
    assert len(seen) == 2 * 8
    assert all(call[2] == variety.announce(state.hands[seat]) for call in seen)


def play_outs_agree(game: str, states, finish, fast) -> list:
    """Each state played to its end by ``finish`` (on the state's own data) and by ``fast``'s
    actions through the rules: the same deal at the end, the same result. The finished
    states."""
    rules = get_rules(game)
    finished = []
    for state in states:
        quick = rules.from_json(state.to_json())
        finish(quick)
        slow = rules.from_json(state.to_json())
        while not slow.is_over():
            slow.apply(fast(slow))
        assert quick.to_json() == slow.to_json()
        assert quick.result() == slow.result()
        finished.append(quick)
    return finished


def test_fantans_quick_play_out_plays_as_the_club_robot_does():
    """The strong robot's play-outs run on the state's masks for speed: they must end every
    deal exactly as the club robot's actions through the rules would."""
    from games.fantan.robots import fast_club, finish_club

    for options in ({}, {"ace_extra": True, "two_extra": True, "until_out": 2}):
        states = [
            state
            for number, state in enumerate(positions("fantan", 3, 11, options))
            if not number % 7
        ]
        assert play_outs_agree("fantan", states, finish_club, fast_club)


def test_leopards_quick_play_out_plays_as_the_club_robot_does():
    """The strong robot's play-outs run on the state's lists for speed, remembering what a
    lay gains: they must end every deal exactly as the club robot's actions through the
    rules would (the end declared at the same turn, every card where the club lays it)."""
    from games.leopard.robots import fast_club, finish_club

    states = [state for number, state in enumerate(positions("leopard", 6, 3)) if not number % 5]
    finished = play_outs_agree("leopard", states, finish_club, fast_club)
    # some play-outs end by a declaration, not only by the stock
    assert any(state.ender is not None for state in finished)


def test_leopards_line_worth_is_the_same_when_remembered():
    """The club robot's worth of a line is remembered for speed: asked again, with another
    hope, it must still be the line's points plus its hope of points."""
    from games.engine.cards import card_index
    from games.leopard.robots import line_worth

    spades = [card_index(code) for code in ("2S", "5S", "9S")]
    red = [card_index(code) for code in ("2H", "5D")]
    for _ in range(2):
        assert line_worth(*spades, 0.5) == 2.0  # one suit, full
        assert line_worth(spades[0], spades[1], card_index("7C"), 1.0) == 1.0  # one colour
        assert line_worth(spades[0], red[0], card_index("7C"), 1.0) == 0.0
        assert line_worth(-1, -1, -1, 0.5) == 0.075
        assert line_worth(spades[0], -1, spades[1], 1.0) == 0.55
        assert line_worth(spades[0], -1, spades[1], 0.5) == 0.275
        assert line_worth(red[0], red[1], -1, 0.5) == 0.15
        assert line_worth(red[0], spades[0], -1, 1.0) == 0.0
