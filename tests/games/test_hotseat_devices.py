"""The shared screen at a table whose seats are played at it, on their own devices and by
robots, for every game: the screen is handed on only between its own seats and never shows a
device seat's hand; a device seat's turn needs no reveal; a device player takes his last
move back until the next player has acted; the log rebuilt equals the snapshot."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import registry
from games.engine.base import IllegalAction
from games.hotseat import ACTION, REVEAL, ROBOT, TAKE_BACK, Event, Hotseat
from tests.support.commands import property_settings

PROPERTY = property_settings(max_examples=30)
GAMES = sorted(registry.GAMES)


def new_hotseat(game: str, seed: int, dealer: int, devices: frozenset[int]) -> Hotseat:
    rules = registry.rules(game)
    options = rules.parse_options({})
    seats = rules.seats(options)
    return Hotseat(rules, rules.new_deal(options, dealer % seats, seed), devices=devices)


@st.composite
def mixed_tables(draw):
    """A fresh deal of any game, each seat at the screen, on a device or a robot's."""
    game = draw(st.sampled_from(GAMES))
    rules = registry.rules(game)
    seats = rules.seats(rules.parse_options({}))
    places = draw(
        st.lists(st.sampled_from(["screen", "device", "robot"]), min_size=seats, max_size=seats)
    )
    devices = frozenset(i for i, p in enumerate(places) if p == "device")
    robots = frozenset(i for i, p in enumerate(places) if p == "robot")
    hotseat = new_hotseat(game, draw(st.integers(0, 2**62)), draw(st.integers(0, 3)), devices)
    return hotseat, robots


def step_or(state, action: dict) -> dict:
    """``action``, or the step due before it (Леопард's draw), without its seat."""
    try:
        state.check_steps(action)
    except IllegalAction:
        action = state.steps()[0]
    return {k: v for k, v in action.items() if k != "seat"}


def play_mixed(hotseat: Hotseat, robots, data, limit=400):
    """Play on at random as the pages would, checking the screen after every event; the
    events, as the database would keep them."""
    kept = []

    def apply(event):
        logged = hotseat.apply(event)
        kept.append(Event(event.kind, logged.seat, event.data))
        shown = hotseat.shown_seat
        assert shown is None or (shown not in hotseat.devices and shown not in robots)

    for _ in range(limit):
        state = hotseat.state
        if state.is_over():
            break
        seat = state.to_act
        taker = hotseat.take_back_seat()
        if taker is not None and taker not in robots and data.draw(st.integers(0, 5)) == 0:
            apply(Event(TAKE_BACK, taker))
            continue
        if seat in robots:
            kind = ROBOT
        elif seat in hotseat.devices:
            assert not hotseat.handoff  # nothing to hand over: he plays on his own device
            kind = ACTION
        else:
            if hotseat.handoff:
                apply(Event(REVEAL, seat))
            kind = ACTION
        action = step_or(state, data.draw(st.sampled_from(state.legal_actions())))
        apply(Event(kind, seat, action))
    return kept


@PROPERTY
@given(table=mixed_tables(), data=st.data())
def test_the_screen_shows_only_its_own_seats_hands_and_the_log_rebuilds_the_snapshot(table, data):
    hotseat, robots = table
    dealt = hotseat.state.to_json()
    kept = play_mixed(hotseat, robots, data)
    rules = hotseat.rules
    rebuilt = Hotseat.rebuild(rules, rules.from_json(dealt), kept, hotseat.devices)
    assert rebuilt.to_json() == hotseat.to_json()
    again = Hotseat.from_json(rules, hotseat.to_json(), hotseat.devices)
    assert again.to_json() == hotseat.to_json()


@PROPERTY
@given(table=mixed_tables(), data=st.data())
def test_the_screen_is_handed_on_only_between_its_own_seats(table, data):
    hotseat, robots = table
    kept = play_mixed(hotseat, robots, data)
    revealed = [event.seat for event in kept if event.kind == REVEAL]
    assert not set(revealed) & (hotseat.devices | robots)


@pytest.mark.parametrize("game", GAMES)
def test_a_device_seat_cannot_be_shown_on_the_screen(game):
    hotseat = new_hotseat(game, 5, 0, frozenset())
    seat = hotseat.state.to_act
    hotseat = new_hotseat(game, 5, 0, frozenset({seat}))
    with pytest.raises(IllegalAction):
        hotseat.apply(Event(REVEAL, seat))
    assert hotseat.revealed is None and hotseat.log == []
    assert not hotseat.handoff and hotseat.shown_seat is None and hotseat.on_device


@pytest.mark.parametrize("game", GAMES)
def test_a_device_seats_move_needs_no_reveal_and_leaves_the_screen_with_whoever_has_it(game):
    probe = new_hotseat(game, 9, 1, frozenset())
    first = probe.state.to_act
    seats = probe.rules.seats(probe.state.options)
    # the seat after the first is on a device; the first plays at the screen
    hotseat = new_hotseat(game, 9, 1, frozenset(set(range(seats)) - {first}))
    hotseat.apply(Event(REVEAL, first))
    while not hotseat.state.is_over() and hotseat.state.to_act == first:
        hotseat.apply(Event(ACTION, first, first_move(hotseat)))
    if hotseat.state.is_over():
        return
    device = hotseat.state.to_act
    assert device != first and hotseat.on_device and hotseat.shown_seat is None
    hotseat.apply(Event(ACTION, device, first_move(hotseat)))
    assert hotseat.revealed == first  # the screen is still his


def fantan(devices, dealer=0, seed=3) -> Hotseat:
    return new_hotseat("fantan", seed, dealer, frozenset(devices))


def first_move(hotseat: Hotseat) -> dict:
    return step_or(hotseat.state, hotseat.state.legal_actions()[0])


def end_turn(hotseat: Hotseat, kind=ACTION) -> int:
    """The seat to act plays his whole turn (Фантан's extra cards too); who it was."""
    seat = hotseat.state.to_act
    if kind == ACTION and hotseat.handoff:
        hotseat.apply(Event(REVEAL, seat))
    while not hotseat.state.is_over() and hotseat.state.to_act == seat:
        hotseat.apply(Event(kind, seat, first_move(hotseat)))
    return seat


def test_a_device_player_takes_his_move_back_until_the_next_player_has_acted():
    probe = fantan(())
    seat = probe.state.to_act
    hotseat = fantan(range(4))  # every seat on a device
    hotseat.apply(Event(ACTION, seat, first_move(hotseat)))
    mover = hotseat.actions[-1]["seat"]
    assert hotseat.take_back_seat() == mover
    hotseat.apply(Event(TAKE_BACK, mover))
    assert hotseat.actions == [] and [kind for kind, *_ in hotseat.log] == [ACTION, TAKE_BACK]
    end_turn(hotseat)
    last = hotseat.actions[-1]["seat"]
    assert hotseat.take_back_seat() == last
    end_turn(hotseat)  # the next player has acted: too late
    assert hotseat.take_back_seat() != last


def test_a_player_at_the_screen_takes_back_until_the_next_one_at_the_screen_reveals():
    probe = fantan(())
    first = probe.state.to_act
    nxt = (first + 1) % 4
    others = set(range(4)) - {first, nxt}
    hotseat = fantan(others)  # the first and the next play at the screen
    end_turn(hotseat)
    assert hotseat.take_back_seat() == hotseat.actions[-1]["seat"] == first
    hotseat.apply(Event(REVEAL, nxt))
    assert hotseat.take_back_seat() is None
