"""The Леопард rules engine against docs/rules/leopard.md (pure Python, no database).

The Hypothesis properties play random legal deals and compare the engine, after every action,
with a small independent model of the rules written from the rules file: where each of the
104 cards lies, whose turn it is, which actions are legal, the lines, the sums and the scores.
The hand-built positions below them check the placement table, the lines and the scores one
rule at a time.
"""

import json
import random
from collections import Counter

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from games.engine import IllegalAction, InvalidAction, InvalidRecord
from games.engine.base import AlreadyDone
from games.engine.cards import CODES
from games.leopard.engine import DOWN, RULES
from tests.support.commands import (
    BOOK_SQUARE,
    assert_a_json_copy_plays_on_like_the_deal,
    assert_refused,
    discard,
    end,
    key,
    lay,
    lays_in_own_square,
    legal,
    leopard_record,
    play_some,
    property_settings,
    snapshot,
)

PROPERTY = property_settings(max_examples=40)

PLACES = ["A", "2", "3", "4", "5", "6", "7", "8", "9"]
LINES = [
    ("A", "2", "3"),
    ("4", "5", "6"),
    ("7", "8", "9"),
    ("A", "4", "7"),
    ("2", "5", "8"),
    ("3", "6", "9"),
    ("A", "5", "9"),
    ("3", "5", "7"),
]
RED = {"H", "D"}
EVERY_PLACE = {(square, place) for square in (0, 1) for place in PLACES}


def own_place(code: str) -> str | None:
    """The place an ace to nine belongs to (its rank); None for a 10, J, Q or K."""
    return code[0] if code[0] in PLACES else None


def copy_of(state):
    return RULES.from_json(json.loads(json.dumps(state.to_json())))


# -- an independent model of the rules file --------------------------------------------------


def line_score(tops: list) -> int:
    """Three tops, each a card code face up or None (empty or face down)."""
    if None in tops:
        return 0
    if len({c[1] for c in tops}) == 1:
        return 2
    return 1 if len({c[1] in RED for c in tops}) == 1 else 0


def square_score(tops: dict) -> tuple[list[int], int]:
    """The points of the eight lines of one square, and their sum; ``tops``: place -> code or
    None."""
    lines = [line_score([tops[p] for p in line]) for line in LINES]
    return lines, sum(lines)


class Model:
    """Леопард as leopard.md words it, with card codes (slow and obvious on purpose)."""

    def __init__(self, dealer: int, hands: list[list[str]], stock: list[str]):
        self.hands = [Counter(hand) for hand in hands]
        self.stock = list(stock)  # top card first, as records write it
        self.discards: list[str] = []
        # place -> stack of (code, face_down), top last
        self.squares = [{p: [] for p in PLACES} for _ in range(2)]
        self.to_act: int | None = (dealer + 1) % 2
        self.ender: int | None = None

    def tops(self, square: int) -> dict:
        return {
            p: (stack[-1][0] if stack and not stack[-1][1] else None)
            for p, stack in self.squares[square].items()
        }

    def sum(self, seat: int) -> int:
        return square_score(self.tops(seat))[1]

    def may_lay(self, seat: int, card: str, square: int, place: str) -> bool:
        stack = self.squares[square][place]
        laid = bool(stack)
        free = not stack or stack[-1][1]
        mine = square == seat
        rank = card[0]
        if rank in PLACES:
            return place == rank and free
        return {"T": mine and free, "J": laid, "Q": mine and laid, "K": mine}[rank]

    def legal(self) -> list[dict]:
        seat = self.to_act
        if seat is None:
            return []
        actions = [end(seat)] if self.sum(seat) >= 5 else []
        for card in set(self.hands[seat]) | {self.stock[0]}:
            actions.append(discard(seat, card))
            for square in (0, 1):
                for place in PLACES:
                    if self.may_lay(seat, card, square, place):
                        actions.append(lay(seat, card, square, None if own_place(card) else place))
        return sorted(actions, key=key)

    def apply(self, action: dict) -> None:
        seat = self.to_act
        assert action["seat"] == seat
        if "end" in action:
            self.ender, self.to_act = seat, None
            return
        self.hands[seat][self.stock.pop(0)] += 1
        card = action.get("discard") or action["lay"]
        self.hands[seat][card] -= 1
        assert self.hands[seat][card] >= 0
        self.hands[seat] += Counter()  # drop the zeros
        if "discard" in action:
            self.discards.append(card)
        else:
            place = action.get("place") or own_place(card)
            self.squares[action["square"]][place].append((card, card[0] in "JQ"))
        self.to_act = None if not self.stock else 1 - seat

    def scores(self) -> list[int]:
        sums = [self.sum(0), self.sum(1)]
        if self.ender is not None:
            s = sums[self.ender]
            sums[self.ender] = s + (s - 5) - 1
        return sums


def engine_squares(state) -> list[dict]:
    """The engine's squares read back as the model keeps them (place -> (code, face_down))."""
    return [
        {
            PLACES[p]: [(CODES[e & ~DOWN], bool(e & DOWN)) for e in stack]
            for p, stack in enumerate(square)
        }
        for square in state.squares
    ]


def assert_all_cards_accounted_for(state) -> None:
    """Each of the 52 cards exactly twice across the hands, the stock, the discard pile and
    the squares (every card of every stack, not only the tops)."""
    everywhere = [CODES[c] for c in state.hands[0] + state.hands[1] + state.stock + state.discards]
    everywhere += [
        code for square in engine_squares(state) for stack in square.values() for code, _ in stack
    ]
    assert len(everywhere) == 104
    counts = Counter(everywhere)
    assert set(counts) == set(CODES), "a card is missing or one appeared from nowhere"
    assert [c for c, n in counts.items() if n != 2] == [], "a card is not there twice"


def assert_matches_model(state, model: Model) -> None:
    assert_all_cards_accounted_for(state)
    assert [Counter(CODES[c] for c in hand) for hand in state.hands] == model.hands
    assert [CODES[c] for c in reversed(state.stock)] == model.stock
    assert [CODES[c] for c in state.discards] == model.discards
    assert engine_squares(state) == model.squares
    assert state.to_act == model.to_act
    assert state.is_over() == (model.to_act is None)
    assert legal(state) == model.legal()
    spectator = state.view(None)
    for square in (0, 1):
        tops = model.tops(square)
        for shown in spectator["squares"][square]:
            stack = model.squares[square][shown["place"]]
            assert shown["top"] == tops[shown["place"]]
            assert shown["down"] == (bool(stack) and stack[-1][1])
            assert shown["under"] == max(len(stack) - 1, 0)
        lines, total = square_score(tops)
        assert spectator["lines"][square] == lines
        assert spectator["sums"][square] == total
    result = state.result()
    assert result["sums"] == [model.sum(0), model.sum(1)]
    assert result["ender"] == model.ender
    assert result["scores"] == (model.scores() if model.to_act is None else None)
    state.check_invariants()


# -- deals and positions ---------------------------------------------------------------------


@st.composite
def fresh_deals(draw):
    dealer = draw(st.integers(0, 1))
    return RULES.new_deal(RULES.parse_options({}), dealer, draw(st.integers(0, 2**62)))


def choose(state, data) -> dict:
    """A legal action: uniformly at random, or (to reach sums of five and declared ends,
    which uniform play seldom does) a builder's one: end when he may, else lay face up in
    his own square when he can."""
    actions = state.legal_actions()
    style = data.draw(st.sampled_from(["uniform", "builder"]), label="style")
    if style == "builder":
        seat = state.to_act
        if end(seat) in actions and data.draw(st.booleans(), label="end now"):
            return end(seat)
        building = [a for a in actions if a.get("square") == seat and a["lay"][0] not in "JQ"]
        actions = building or actions
    return actions[data.draw(st.integers(0, len(actions) - 1), label="action")]


def chooser(data):
    """``choose`` with Hypothesis' ``data`` bound: a chooser of actions for play_some."""
    return lambda state: choose(state, data)


def position(turns=(), *, hands=None, next_cards=(), dealer: int = 1, options=None):
    """A deal from a record whose stock is laid out so that each turn of ``turns`` plays the
    card it draws, then ``next_cards`` are the next cards drawn; the turns are applied. The
    other cards fill the hands (unless given) and the rest of the stock."""
    state = RULES.from_record(
        leopard_record(turns, hands=hands, next_cards=next_cards, dealer=dealer, options=options)
    )
    for action in turns:
        state.apply(action)
    return state


def where(state, card: str) -> set:
    """Every (square, place) where the seat to act may lay ``card``, by legal_actions()."""
    return {
        (a["square"], a.get("place") or own_place(card))
        for a in state.legal_actions()
        if a.get("lay") == card
    }


def accepted(state, card: str) -> set:
    """Every (square, place) where apply() lays ``card`` (tried on copies): an ace to nine
    without a place, a 10 to K with each place; an ace to nine named for a place other than
    its own must always be refused."""
    seat = state.to_act
    found = set()
    for square in (0, 1):
        for place in PLACES:
            if own_place(card) is None:
                attempt = lay(seat, card, square, place)
            elif place == own_place(card):
                attempt = lay(seat, card, square)
            else:
                attempt = lay(seat, card, square, place)
            trial = copy_of(state)
            try:
                trial.apply(attempt)
            except IllegalAction:
                assert snapshot(trial) == snapshot(state)
                continue
            assert place == own_place(card) or own_place(card) is None, attempt
            found.add((square, place))
    return found


def assert_may_lay(state, card: str, expected: set) -> None:
    assert where(state, card) == expected
    assert accepted(state, card) == expected
    assert discard(state.to_act, card) in state.legal_actions(), "he may always discard it"


def tops(state, square: int) -> dict:
    return {p["place"]: p["top"] for p in state.view(None)["squares"][square]}


# -- properties of random legal play ---------------------------------------------------------


@PROPERTY
@given(state=fresh_deals(), data=st.data())
def test_random_legal_play_follows_the_rules_file_after_every_action(state, data):
    model = Model(state.dealer, state.dealt["hands"], state.dealt["stock"])
    assert state.to_act == (state.dealer + 1) % 2, "the dealer's opponent acts first"
    assert [len(h) for h in state.dealt["hands"]] == [8, 8] and len(state.dealt["stock"]) == 88
    assert_matches_model(state, model)
    turns = 0
    while not state.is_over():
        seat = state.to_act
        before = state.view(None)
        my_sum = before["sums"][seat]
        action = choose(state, data)
        state.apply(action)
        model.apply(action)
        after = state.view(None)
        turns += 1
        if "end" in action:
            assert my_sum >= 5, "the end was declared with less than five"
            assert after["stock"] == before["stock"], "declaring the end draws no card"
            assert state.is_over() and state.result()["ender"] == seat
        else:
            assert after["stock"] == before["stock"] - 1, "a turn draws exactly one card"
            assert after["counts"] == [8, 8], "a hand holds eight cards between turns"
            # The player who draws the last card completes his turn; then the deal is over.
            assert state.is_over() == (after["stock"] == 0)
            if not state.is_over():
                assert state.to_act == 1 - seat, "turns alternate"
        assert_matches_model(state, model)
        assert turns <= 88
    event("declared end" if model.ender is not None else "stock ran out")
    if model.ender is None:
        assert turns == 88 and state.view(None)["stock"] == 0
    assert state.legal_actions() == []


@PROPERTY
@given(state=fresh_deals(), data=st.data(), rng=st.randoms(use_true_random=False))
def test_apply_accepts_exactly_the_legal_actions_and_refusals_change_nothing(state, data, rng):
    while True:
        legal_now = [key(a) for a in state.legal_actions()]
        before = snapshot(state)
        for _ in range(4):
            seat = rng.randrange(2)
            card = rng.choice(CODES)
            kind = rng.choice(["end", "discard", "lay", "lay", "lay"])
            if kind == "end":
                attempt = end(seat)
            elif kind == "discard":
                attempt = discard(seat, card)
            else:
                place = rng.choice(PLACES + [None])
                attempt = lay(seat, card, rng.randrange(2), place)
            if attempt.get("place") is not None and attempt["place"] == own_place(card):
                del attempt["place"]  # the same lay as a record writes it
            if key(attempt) in legal_now:
                trial = copy_of(state)
                trial.apply(attempt)
                assert snapshot(trial) != before
            else:  # tried on the deal itself: a refusal must leave it as it was
                assert_refused(state, attempt)
        # ... and every legal action is accepted
        for action in rng.sample(state.legal_actions(), min(5, len(legal_now))):
            trial = copy_of(state)
            trial.apply(action)
            trial.check_invariants()
        if state.is_over():
            break
        state.apply(choose(state, data))
    with pytest.raises(IllegalAction, match="over"):
        state.apply(discard(0, CODES[0]))


def hidden_scrambled(state, seat, rng: random.Random):
    """The same deal with everything ``seat`` may not see dealt anew at random: the other
    hand(s) (with the card drawn, if the other has drawn), the stock's order, and which jack
    or queen lies under each face-down back."""
    data = json.loads(json.dumps(state.to_json()))
    stock = data["stock"]  # top card last
    hidden_hands = [s for s in (0, 1) if s != seat]
    hidden = list(stock) + [c for s in hidden_hands for c in data["hands"][s]]
    backs = [
        (q, p, i)
        for q, square in enumerate(data["squares"])
        for p, stack in enumerate(square)
        for i, entry in enumerate(stack)
        if entry & DOWN
    ]
    hidden += [data["squares"][q][p][i] & ~DOWN for q, p, i in backs]
    rng.shuffle(hidden)
    for q, p, i in backs:
        face = next(c for c in hidden if CODES[c][0] in "JQ")
        hidden.remove(face)
        data["squares"][q][p][i] = face | DOWN
    for s in hidden_hands:
        size = len(data["hands"][s])
        data["hands"][s], hidden = hidden[:size], hidden[size:]
    data["stock"] = hidden
    return RULES.from_json(data)


@PROPERTY
@given(
    state=fresh_deals(),
    data=st.data(),
    stop=st.integers(0, 88),
    rng=st.randoms(use_true_random=False),
)
def test_a_view_shows_nothing_a_seat_may_not_see(state, data, stop, rng):
    play_some(state, stop, chooser(data))
    if state.steps() and data.draw(st.booleans(), label="draw"):
        state.apply(state.steps()[0])
    for seat in (None, 0, 1):
        view = state.view(seat)
        for _ in range(2):
            other = hidden_scrambled(state, seat, rng)
            assert other.view(seat) == view, (
                "the view shows another hand, the stock's order or a face-down card"
            )
        for square in view["squares"]:
            for place in square:
                if place["down"]:
                    assert place["top"] is None
        assert state.hidden_from(seat) == hidden_by_the_rules(state, seat)
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["drawn"] is None
    assert spectator["counts"] == [len(h) for h in state.hands]
    assert spectator["stock"] == len(state.stock)


@PROPERTY
@given(state=fresh_deals(), data=st.data(), stop=st.integers(0, 88))
def test_a_seat_sees_its_own_hand_and_only_the_seat_to_act_sees_the_drawn_card(state, data, stop):
    play_some(state, stop, chooser(data))
    if state.is_over():
        return
    top = CODES[state.stock[-1]]
    me = state.to_act
    for seat in (0, 1):
        view = state.view(seat)
        assert sorted(view["hand"]) == sorted(CODES[c] for c in state.hands[seat])
        assert view["drawn"] is None, "nobody sees the top of the stock before drawing it"
        assert view["may_draw"] == (seat == me)
        assert view["may_end"] == (seat == me and view["sums"][seat] >= 5)
    state.apply(state.steps()[0])  # the draw
    drawn = state.view(me)
    assert drawn["drawn"] == top and drawn["hand"][-1] == top and len(drawn["hand"]) == 9
    assert drawn["may_end"] is False, "the end is declared before drawing, not after"
    assert drawn["may_draw"] is False and state.steps() == []
    assert state.view(1 - me)["drawn"] is None and state.view(None)["drawn"] is None


@PROPERTY
@given(state=fresh_deals(), data=st.data(), stop=st.integers(0, 88))
def test_a_draw_step_then_an_action_is_the_records_action_that_begins_with_the_draw(
    state, data, stop
):
    """A live table draws first (a step), a record joins the draw to the action: the same
    deal either way, and only the action is the record's."""
    play_some(state, stop, chooser(data))
    if state.is_over():
        return
    joined = copy_of(state)
    action = chooser(data)(joined)
    joined.apply(action)
    if "end" in action:
        return
    step = state.steps()[0]
    state.apply(step)
    with pytest.raises(AlreadyDone):
        state.apply(step)
    assert action in state.legal_actions() and not any("end" in a for a in state.legal_actions())
    state.apply(action)
    assert snapshot(state) == snapshot(joined)
    assert state.is_step(step) and not state.is_step(action)


def hidden_by_the_rules(state, seat) -> set[str]:
    """What the rules keep from ``seat``: the other hand, the stock and the faces of
    face-down cards, less the cards of which a copy lies open (or in its own hand)."""
    laid = [entry for square in state.squares for stack in square for entry in stack]
    hidden = {CODES[c] for s, hand in enumerate(state.hands) if s != seat for c in hand}
    hidden |= {CODES[c] for c in state.stock} | {CODES[e & ~DOWN] for e in laid if e & DOWN}
    public = {CODES[e] for e in laid if not e & DOWN} | {CODES[c] for c in state.discards}
    if seat is not None:
        public |= {CODES[c] for c in state.hands[seat]}
    return hidden - public


@PROPERTY
@given(state=fresh_deals(), data=st.data(), stop=st.integers(0, 88))
def test_a_json_snapshot_plays_on_exactly_like_the_deal_it_was_taken_from(state, data, stop):
    play_some(state, stop, chooser(data))
    assert_a_json_copy_plays_on_like_the_deal(RULES, state, chooser(data))


# -- setup -----------------------------------------------------------------------------------


def test_a_new_deal_gives_eight_cards_each_and_the_rest_to_the_stock_the_same_for_a_seed():
    options = RULES.parse_options({})
    one, two, other = (RULES.new_deal(options, 0, seed) for seed in (7, 7, 8))
    assert one.to_json() == two.to_json()
    assert one.dealt != other.dealt
    assert [len(h) for h in one.dealt["hands"]] == [8, 8] and len(one.dealt["stock"]) == 88
    assert Counter(c for h in one.dealt["hands"] for c in h) + Counter(
        one.dealt["stock"]
    ) == Counter({code: 2 for code in CODES})
    assert one.record()["stock"] == one.dealt["stock"]


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_dealers_opponent_acts_first_and_draws_the_top_of_the_stock(dealer):
    first = 1 - dealer
    state = position(dealer=dealer, next_cards=["5H"])
    assert state.to_act == first
    assert {a["seat"] for a in state.legal_actions()} == {first}
    assert_refused(state, discard(dealer, state.dealt["hands"][dealer][0]), "not your turn")
    state.apply(lay(first, "5H", first))
    assert tops(state, first)["5"] == "5H"
    assert state.to_act == dealer


def test_the_card_drawn_may_be_played_at_once_or_kept_and_a_card_not_held_is_refused():
    hands = [
        ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"],
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"],
    ]
    state = position(hands=hands, next_cards=["KD", "QC"])
    assert_refused(state, discard(0, "2H"), "not in your hand")
    assert_refused(state, lay(0, "QC", 0, "5"), "not in your hand")  # the second card down
    state.apply(discard(0, "2S"))  # he keeps the king he drew
    assert sorted(state.view(0)["hand"]) == sorted(hands[0][1:] + ["KD"])
    assert state.view(None)["discard_top"] == "2S"
    state.apply(discard(1, "QC"))  # seat 1 throws away the queen he just drew
    assert sorted(state.view(1)["hand"]) == sorted(hands[1])
    assert state.view(None)["discards"] == 2


# -- where a card may be laid ----------------------------------------------------------------


@pytest.mark.parametrize("me", [0, 1])
@pytest.mark.parametrize("card", ["AH", "2C", "3D", "4S", "5H", "6C", "7D", "8S", "9H"])
def test_an_ace_to_nine_goes_on_its_own_place_in_either_square_while_that_place_is_free(me, card):
    other = 1 - me
    place = own_place(card)
    state = position(dealer=other, next_cards=[card])
    assert_may_lay(state, card, {(me, place), (other, place)})
    # Once the place of his own square holds a face-up card, only the opponent's is left.
    twin = card[0] + ("S" if card[1] != "S" else "H")
    state = position([lay(me, twin, me), discard(other, "KD")], dealer=other, next_cards=[card])
    assert_may_lay(state, card, {(other, place)})
    state = position([discard(me, "KD"), lay(other, twin, me)], dealer=other, next_cards=[card])
    assert_may_lay(state, card, {(other, place)})
    # Both taken: he may only discard it (or keep it).
    state = position([lay(me, twin, me), lay(other, twin, other)], dealer=other, next_cards=[card])
    assert_may_lay(state, card, set())
    assert_refused(state, lay(me, card, me), "may not be laid there")
    assert_refused(state, lay(me, card, other), "may not be laid there")


@pytest.mark.parametrize("me", [0, 1])
def test_an_ace_to_nine_named_for_another_place_is_refused(me):
    state = position(dealer=1 - me, next_cards=["5H"])
    assert_refused(state, lay(me, "5H", me, "4"), "may not be laid there")
    assert_refused(state, lay(me, "5H", 1 - me, "9"), "may not be laid there")
    assert where(state, "5H") == {(me, "5"), (1 - me, "5")}


@pytest.mark.parametrize("me", [0, 1])
def test_a_ten_goes_face_up_on_any_free_place_of_his_own_square_only(me):
    other = 1 - me
    state = position(dealer=other, next_cards=["TH"])
    assert_may_lay(state, "TH", {(me, p) for p in PLACES})
    # 7 face up in his square; 5 holds a jack face down (free again); 3 in the opponent's.
    turns = [
        lay(me, "7S", me),
        lay(other, "5C", me),
        lay(me, "JC", me, "5"),
        lay(other, "3D", other),
    ]
    state = position(turns, dealer=other, next_cards=["TH"])
    assert_may_lay(state, "TH", {(me, p) for p in PLACES if p != "7"})
    assert_refused(state, lay(me, "TH", other, "4"), "may not be laid there")
    assert_refused(state, lay(me, "TH", me), "Name the place")
    state.apply(lay(me, "TH", me, "5"))
    shown = state.view(None)["squares"][me][4]
    assert (shown["top"], shown["down"], shown["under"]) == ("TH", False, 2)


@pytest.mark.parametrize("me", [0, 1])
def test_a_jack_goes_face_down_on_any_laid_card_in_either_square_never_on_an_empty_place(me):
    other = 1 - me
    state = position(dealer=other, next_cards=["JH"])
    assert_may_lay(state, "JH", set())
    assert_refused(state, lay(me, "JH", me, "5"), "may not be laid there")
    # A card in each square, and a face-down jack on a third place: all three take a jack.
    turns = [
        lay(me, "5S", me),
        lay(other, "3H", other),
        lay(me, "JC", other, "3"),
        lay(other, "9D", me),
    ]
    state = position(turns, dealer=other, next_cards=["JH"])
    assert_may_lay(state, "JH", {(me, "5"), (me, "9"), (other, "3")})
    state.apply(lay(me, "JH", other, "3"))
    shown = state.view(None)["squares"][other][2]
    assert (shown["top"], shown["down"], shown["under"]) == (None, True, 2)


@pytest.mark.parametrize("me", [0, 1])
def test_a_queen_goes_face_down_on_a_laid_card_of_his_own_square_only(me):
    other = 1 - me
    state = position(dealer=other, next_cards=["QD"])
    assert_may_lay(state, "QD", set())
    turns = [
        lay(me, "5S", me),
        lay(other, "3H", other),
        lay(me, "JC", me, "5"),
        lay(other, "7H", me),
    ]
    state = position(turns, dealer=other, next_cards=["QD"])
    assert_may_lay(state, "QD", {(me, "5"), (me, "7")})
    assert_refused(state, lay(me, "QD", other, "3"), "may not be laid there")
    assert_refused(state, lay(me, "QD", me, "A"), "may not be laid there")
    state.apply(lay(me, "QD", me, "7"))
    assert tops(state, me)["7"] is None
    assert state.view(None)["squares"][me][6]["down"] is True


@pytest.mark.parametrize("me", [0, 1])
def test_a_king_goes_face_up_anywhere_in_his_own_square_free_or_on_top(me):
    other = 1 - me
    state = position(dealer=other, next_cards=["KC"])
    assert_may_lay(state, "KC", {(me, p) for p in PLACES})
    turns = [
        lay(me, "5S", me),
        lay(other, "3H", other),
        lay(me, "JC", me, "5"),
        lay(other, "7H", me),
    ]
    state = position(turns, dealer=other, next_cards=["KC"])
    assert_may_lay(state, "KC", {(me, p) for p in PLACES})
    assert_refused(state, lay(me, "KC", other, "3"), "may not be laid there")
    assert_refused(state, lay(me, "KC", other, "A"), "may not be laid there")
    state.apply(lay(me, "KC", me, "7"))
    shown = state.view(None)["squares"][me][6]
    assert (shown["top"], shown["down"], shown["under"]) == ("KC", False, 1)


@pytest.mark.parametrize("me", [0, 1])
def test_a_place_under_a_face_down_card_is_free_again_for_its_ace_to_nine(me):
    other = 1 - me
    turns = [
        lay(me, "5S", me),
        lay(other, "5D", other),
        lay(me, "QS", me, "5"),
        lay(other, "JD", other, "5"),
    ]
    state = position(turns, dealer=other, next_cards=["5H", "5C"])
    assert_may_lay(state, "5H", {(me, "5"), (other, "5")})
    state.apply(lay(me, "5H", other))
    shown = state.view(None)["squares"][other][4]
    assert (shown["top"], shown["down"], shown["under"]) == ("5H", False, 2)
    assert where(state, "5C") == {(me, "5")}


@pytest.mark.parametrize("me", [0, 1])
def test_cards_stack_and_only_the_top_one_counts_in_the_line(me):
    other = 1 - me
    state = position(
        lays_in_own_square(me, ["AS", "2S", "3S"]),
        dealer=other,
        next_cards=["KH", "2D", "JS", "2C", "2S"],
    )
    assert state.view(None)["sums"][me] == 2
    state.apply(lay(me, "KH", me, "2"))  # a red king on the 2S breaks the suit and colour
    assert tops(state, me)["2"] == "KH" and state.view(None)["sums"][me] == 0
    state.apply(discard(other, "2D"))
    state.apply(lay(me, "JS", me, "2"))  # face down: the place scores nothing, and is free
    assert tops(state, me)["2"] is None and state.view(None)["sums"][me] == 0
    state.apply(discard(other, "2C"))
    state.apply(lay(me, "2S", me))  # the second 2S on top of the jack: the line is back
    assert tops(state, me)["2"] == "2S" and state.view(None)["sums"][me] == 2
    assert state.view(None)["squares"][me][1]["under"] == 3


# -- lines and sums --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, points",
    [
        (["AS", "2S", "3S"], 2),
        (["AD", "2D", "3D"], 2),
        (["AS", "2C", "3S"], 1),
        (["AH", "2D", "3H"], 1),
        (["AH", "2S", "3H"], 0),
        (["AC", "2C", "3D"], 0),
        (["KS@A", "KS@2", "KC@3"], 1),
        (["TH@A", "2H", "KH@3"], 2),
    ],
)
def test_a_line_of_three_face_up_tops_scores_2_for_a_suit_1_for_a_colour_else_0(cards, points):
    state = position(lays_in_own_square(0, cards))
    view = state.view(None)
    assert view["lines"][0] == [points] + [0] * 7
    assert view["sums"] == [points, 0]


@pytest.mark.parametrize("line", range(8))
def test_each_of_the_eight_lines_of_his_square_counts_and_only_there(line):
    cards = [place + "S" for place in LINES[line]]
    state = position(lays_in_own_square(0, cards))
    assert state.view(None)["lines"] == [[2 if i == line else 0 for i in range(8)], [0] * 8]
    # The same three cards laid by seat 0 in seat 1's square count for seat 1.
    turns = [t if t["seat"] == 1 else {**t, "square": 1} for t in lays_in_own_square(0, cards)]
    state = position(turns)
    assert state.view(None)["sums"] == [0, 2]


def test_a_face_down_top_or_an_empty_place_scores_nothing():
    state = position(lays_in_own_square(0, ["AS", "2S"]), next_cards=["3S", "2D", "JH"])
    assert state.view(None)["sums"][0] == 0  # place 3 is empty
    state.apply(lay(0, "3S", 0))
    assert state.view(None)["sums"][0] == 2
    state.apply(discard(1, "2D"))
    state.apply(lay(0, "JH", 0, "3"))
    assert state.view(None)["sums"][0] == 0  # place 3 shows a back


def test_the_sum_adds_every_line_of_his_square():
    # Spades on A to 8, place 9 empty: A-2-3, 4-5-6, A-4-7, 2-5-8 and 3-5-7 score 2 each.
    cards = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]
    state = position(lays_in_own_square(0, cards))
    assert state.view(None)["lines"][0] == [2, 2, 0, 2, 2, 0, 0, 2]
    assert state.result()["sums"] == [10, 0]
    # A club on 9: 7-8-9 and 3-6-9 and A-5-9 are black but not one suit: 1 each.
    state = position(lays_in_own_square(0, cards + ["9C"]))
    assert state.result()["sums"] == [13, 0]


# -- the end of the deal and the scores ------------------------------------------------------


@pytest.mark.parametrize("me", [0, 1])
def test_the_books_example_a_declarer_with_10_scores_14_and_the_opponent_his_own_sum(me):
    other = 1 - me
    turns = lays_in_own_square(me, BOOK_SQUARE, other_cards=["AH", "2H", "3H"])
    state = position(turns, dealer=other)
    assert state.to_act == me and state.view(None)["sums"] == ([10, 2] if me == 0 else [2, 10])
    view = state.view(me)
    assert view["may_end"] is True and view["end_score"] == 14
    assert end(me) in state.legal_actions()
    stock = state.view(None)["stock"]
    state.apply(end(me))
    assert state.is_over() and state.legal_actions() == []
    assert state.view(None)["stock"] == stock
    result = state.result()
    assert result["ender"] == me
    assert result["sums"][me] == 10 and result["scores"][me] == 14
    assert result["scores"][other] == 2
    assert_refused(state, discard(other, state.dealt["hands"][other][0]), "The deal is over")


def test_a_declarer_with_exactly_5_scores_4():
    # A-2-3 spades (2), 4C 5S 6S black (1), A-4-7 AS 4C 7C black (1), 3-5-7 black (1).
    state = position(lays_in_own_square(0, ["AS", "2S", "3S", "4C", "5S", "6S", "7C"]))
    assert state.view(None)["sums"][0] == 5
    state.apply(end(0))
    assert state.result() == {"sums": [5, 0], "ender": 0, "scores": [4, 0]}


def test_ending_with_less_than_5_is_refused_and_he_may_play_on_with_5_or_more():
    state = position()
    assert_refused(state, end(0), "at least 5")
    assert end(0) not in state.legal_actions()
    state = position(lays_in_own_square(0, ["AS", "2S", "3S", "4C", "5C", "6C"]))
    assert state.view(None)["sums"][0] == 4
    assert end(0) not in state.legal_actions()
    assert_refused(state, end(0), "at least 5")
    assert state.view(0)["may_end"] is False and state.view(0)["end_score"] is None
    state = position(lays_in_own_square(0, BOOK_SQUARE))
    assert end(1) not in state.legal_actions()
    assert_refused(state, end(1), "not your turn")
    state.apply(state.legal_actions()[-1])  # he need not end: he plays on
    assert not state.is_over()


@pytest.mark.parametrize("me", [0, 1])
def test_the_opponent_may_not_end_on_the_declarers_sum(me):
    other = 1 - me
    turns = lays_in_own_square(me, BOOK_SQUARE) + [discard(me, "2S")]
    state = position(turns, dealer=other)
    assert state.to_act == other and state.view(None)["sums"][me] == 10
    assert_refused(state, end(other), "at least 5")


def test_when_the_stock_runs_out_the_last_drawer_completes_his_turn_and_each_scores_his_sum():
    me, other = 0, 1
    turns = lays_in_own_square(me, BOOK_SQUARE, other_cards=["AH", "2H", "3H"])
    used = Counter(t.get("lay") or t.get("discard") for t in turns)
    hands = [
        ["KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC"],
        ["QS", "QS", "QH", "QH", "QD", "QD", "QC", "QC"],
    ]
    for hand in hands:
        used.update(hand)
    rest = [c for c in CODES for _ in range(2 - used[c]) if c not in ("9D",)] + ["9D", "9D"]
    seat = me
    for card in rest[:-1]:
        turns.append(discard(seat, card))
        seat = 1 - seat
    assert len(turns) == 87
    state = position(turns, hands=hands, next_cards=[rest[-1]])
    assert not state.is_over() and state.view(None)["stock"] == 1
    assert state.to_act == other
    state.apply({"seat": other, "draw": True})
    assert state.view(other)["drawn"] == "9D" and state.view(None)["stock"] == 0
    assert not state.is_over()  # he draws the last card and may still lay it
    state.apply(lay(other, "9D", other))
    assert state.is_over() and state.view(None)["stock"] == 0
    assert state.result() == {"sums": [10, 2], "ender": None, "scores": [10, 2]}
    assert tops(state, other)["9"] == "9D"
    assert_refused(state, end(me), "The deal is over")


# -- options and actions' shape --------------------------------------------------------------


def test_a_match_is_agreed_by_a_number_of_deals_or_a_target_not_both():
    assert RULES.parse_options({}) == {"deals": 4, "target": None}
    assert RULES.cycle(RULES.parse_options({})) == {"length": 4, "target": None}
    assert RULES.cycle(RULES.parse_options({"deals": 6})) == {"length": 6, "target": None}
    assert RULES.cycle(RULES.parse_options({"target": 33})) == {"length": None, "target": 33}
    with pytest.raises(InvalidRecord, match="not both"):
        RULES.parse_options({"deals": 4, "target": 33})


@pytest.mark.parametrize(
    "options", [{"deals": None}, {"deals": None, "target": None}, {"target": None}]
)
def test_a_match_written_with_nulls_still_ends_after_the_default_four_deals(options):
    # A null is an omitted option: a match agreed by neither deals nor target never ends.
    assert RULES.cycle(RULES.parse_options(options)) == {"length": 4, "target": None}
    # ... while the stored form of a match to a target reads back unchanged.
    stored = RULES.parse_options({"target": 33})
    assert RULES.parse_options(stored) == stored == {"deals": None, "target": 33}


@pytest.mark.parametrize(
    "options",
    [
        {"deals": 0},
        {"deals": 4.0},
        {"deals": True},
        {"target": "33"},
        {"target": -1},
        {"rounds": 3},
        [4],
    ],
)
def test_bad_match_options_are_refused(options):
    with pytest.raises(InvalidRecord):
        RULES.parse_options(options)


@pytest.mark.parametrize(
    "action",
    [
        {"seat": 0, "end": False},
        {"seat": 0, "lay": "5H"},
        {"seat": 0, "lay": "5H", "square": 2},
        {"seat": 0, "lay": "5H", "square": True},
        {"seat": 0, "lay": "TH", "square": 0, "place": "10"},
        {"seat": 0, "lay": "TH", "square": 0, "place": 5},
        {"seat": 0, "discard": "1X"},
        {"seat": 0, "discard": "5H", "lay": "5H", "square": 0},
        {"seat": 2, "discard": "5H"},
        {"seat": 0, "play": "5H"},
    ],
)
def test_malformed_actions_are_not_leopard_actions(action):
    state = position()
    before = snapshot(state)
    with pytest.raises(InvalidAction):
        state.apply(action)
    assert snapshot(state) == before


def test_canonical_names_a_place_only_for_a_ten_to_king_and_a_lay_or_discard_needs_the_draw():
    state = position()
    assert state.canonical({"seat": 0, "lay": "5h", "square": 1, "place": "5"}) == {
        "seat": 0,
        "lay": "5H",
        "square": 1,
    }
    assert state.canonical({"seat": 0, "lay": "10H", "square": 0, "place": "3"}) == {
        "seat": 0,
        "lay": "TH",
        "square": 0,
        "place": "3",
    }
    assert state.canonical(end(1)) == end(1)
    assert state.canonical({"seat": 1, "discard": "10c"}) == discard(1, "TC")
    # a discard or a lay begins with the draw: at a table it must be taken first
    assert state.steps() == [{"seat": 0, "draw": True}] and state.is_step({"seat": 0, "draw": True})
    for action in (discard(0, "5H"), lay(0, "5H", 0)):
        with pytest.raises(IllegalAction, match="Draw a card first"):
            state.check_steps(action)
    state.check_steps(end(0))


def test_a_card_in_the_other_hand_is_held_from_a_viewer_though_its_twin_lies_open():
    """What a take-back may not name to a viewer: with a five of hearts open in a square,
    the five is not hidden from anyone, yet that the other hand holds its twin is."""
    hands = [
        ["2S", "3S", "4S", "6S", "7S", "8S", "9S", "TS"],
        ["5H", "2D", "3D", "4D", "6D", "7D", "8D", "9D"],
    ]
    state = position([lay(0, "5H", 0)], hands=hands)
    assert "5H" not in state.hidden_from(0) and "5H" not in state.hidden_from(None)
    assert "5H" in state.held_from(0) and "5H" in state.held_from(None)
    assert "5H" not in state.held_from(1), "his own hand is not held from him"
    assert state.hidden_from(0) <= state.held_from(0)


@pytest.mark.parametrize("place", [p for p in PLACES if p != "5"])
def test_canonical_refuses_an_ace_to_nine_named_for_a_place_not_its_own(place):
    """The action as a page or a record names it is refused, not laid on the card's own
    place instead."""
    state = position()
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="may not be laid there"):
        state.canonical({"seat": 0, "lay": "5H", "square": 0, "place": place})
    assert snapshot(state) == before
