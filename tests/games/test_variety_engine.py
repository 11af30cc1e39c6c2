"""The Выборы (Variety) rules engine against docs/rules/variety.md (pure Python, no database).

The Hypothesis properties run random auctions (some forced to a chosen contract) and random
legal play, and compare the engine after every action with a small independent model written
from the rules file: the hands, the current trick, the tricks taken, whose turn it is, which
actions are legal, the trick winners, the sides' points and the scores.
"""

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import InvalidAction, InvalidRecord
from games.engine.cards import CODES, codes_of
from games.variety.engine import RULES
from tests.support.commands import (
    RANKS,
    assert_a_json_copy_plays_on_like_the_deal,
    assert_refused,
    assert_views_show_only_own_hands,
    by_suit,
    drawn_by,
    key,
    legal,
    play,
    play_some,
    property_settings,
    rank_of,
    round_robin,
    snapshot,
)

PROPERTY = property_settings(max_examples=40)
FEW = settings(PROPERTY, max_examples=15)
PER_CONTRACT = settings(PROPERTY, max_examples=10)  # run once for each of the 8 contracts
CONTRACTS = pytest.mark.parametrize("contract", range(1, 9))

# From the rules file's table, written out again here rather than read from the engine.
TRUMP = {1: None, 2: "C", 3: "H", 4: "D", 5: "S", 6: "C", 7: "S", 8: None}
FIXED_TOTAL = {1: 12, 2: 26, 3: 26, 4: 0, 5: 0, 6: 26, 7: -26, 8: -26}
BLACK_TEN_JACK = {"TS", "JS", "TC", "JC"}
RED_TEN_JACK = {"TH", "JH", "TD", "JD"}
FULL_PACK = set(CODES)


def call(seat: int, number: int, say: str | None = None) -> dict:
    action = {"seat": seat, "call": number}
    if say is not None:
        action["say"] = say
    return action


def position(hands, dealer: int = 3, calls=(), **options):
    """A deal from hand-written hands, after these calls (number, or (number, say))."""
    state = RULES.from_record(
        {"game": "variety", "options": options, "dealer": dealer, "hands": hands}
    )
    for number in calls:
        state.apply(call(state.to_act, number))
    return state


def hand(state, seat: int) -> list[str]:
    return state.view(seat)["hand"]


# -- an independent model of the rules file --------------------------------------------------


def expected_winner(contract: int, trick: list[tuple[int, str]]) -> int:
    """The highest trump, else the highest card of the suit led; contract 6: the lowest.
    A card that neither follows nor trumps is never even considered."""
    led = trick[0][1][1]
    trumps = [(seat, c) for seat, c in trick if c[1] == TRUMP[contract]]
    candidates = trumps or [(seat, c) for seat, c in trick if c[1] == led]
    pick = min if contract == 6 else max
    return pick(candidates, key=lambda play_: rank_of(play_[1]))[0]


def counted(contract: int, cards: set[str], tricks: int) -> int:
    """What a side's tricks hold under ``contract`` (contracts 2 to 8)."""
    if contract == 2:
        return 2 * tricks
    if contract == 3:
        return 2 * sum(c[1] == "S" for c in cards)
    if contract == 4:
        return sum(1 if c[1] in "HD" else -1 for c in cards)
    if contract == 5:
        return 5 * len(cards & BLACK_TEN_JACK) - 5 * len(cards & RED_TEN_JACK)
    if contract == 6:
        return sum(c[1] in "HD" for c in cards)
    if contract == 7:
        return -2 * sum(c[1] == "C" for c in cards)
    if contract == 8:
        return -2 * tricks
    raise AssertionError(contract)


class Model:
    """Выборы as variety.md words it, with sets of card codes (slow and obvious on purpose)."""

    def __init__(self, dealer: int, hands: list[list[str]]):
        self.held = [set(h) for h in hands]
        self.to_act = (dealer + 1) % 4
        self.named = [set() for _ in range(4)]
        self.first_namer: dict[int, int] = {}
        self.calls: list[dict] = []
        self.contract = None
        self.attackers = None
        self.trick: list[tuple[int, str]] = []
        self.won = [set() for _ in range(4)]
        self.tricks = [0] * 4

    def legal(self) -> list[dict]:
        seat = self.to_act
        if seat is None:
            return []
        if self.contract is None:
            actions = [call(seat, n) for n in range(1, 9) if n not in self.named[seat]]
        else:
            cards = self.held[seat]
            if self.trick:
                follow = {c for c in cards if c[1] == self.trick[0][1][1]}
                cards = follow or cards
            actions = [play(seat, c) for c in cards]
        return sorted(actions, key=key)

    def apply(self, action: dict) -> None:
        seat = self.to_act
        assert action["seat"] == seat
        if "call" in action:
            number = action["call"]
            self.calls.append({"seat": seat, "call": number, "say": action.get("say", "")})
            if number in self.first_namer:
                self.contract = number
                self.attackers = [self.first_namer[number], seat]
                self.to_act = (self.first_namer[number] + 1) % 4
            else:
                self.first_namer[number] = seat
                self.named[seat].add(number)
                self.to_act = (seat + 1) % 4
            return
        card = action["play"]
        self.held[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        winner = expected_winner(self.contract, self.trick)
        self.won[winner] |= {c for _, c in self.trick}
        self.tricks[winner] += 1
        self.trick = []
        self.to_act = winner if self.held[winner] else None

    @property
    def defenders(self) -> list[int]:
        return [s for s in range(4) if s not in self.attackers]

    def points(self) -> list[int]:
        sides = (self.attackers, self.defenders)
        tricks = [sum(self.tricks[s] for s in side) for side in sides]
        if self.contract == 1:
            return [12, 0] if tricks[0] > tricks[1] else [0, 12]
        cards = [self.won[a] | self.won[b] for a, b in sides]
        return [counted(self.contract, c, t) for c, t in zip(cards, tricks, strict=True)]

    def result(self) -> dict:
        attack, defence = self.points()
        won = attack > defence
        scores = [0] * 4
        for seat in self.attackers:
            scores[seat] = attack
        for seat in self.defenders:
            scores[seat] = defence if won else defence + 10
        return {
            "contract": self.contract,
            "attackers": self.attackers,
            "defenders": self.defenders,
            "tricks": self.tricks,
            "points": [attack, defence],
            "attackers_won": won,
            "scores": scores,
        }


def assert_matches_model(state, model: Model) -> None:
    spectator = state.view(None)
    hands = [hand(state, seat) for seat in range(4)]
    on_table = [p["card"] for p in spectator["trick"]]
    taken = [codes_of(state.won[seat]) for seat in range(4)]
    # Every card accounted for exactly once: hands, the current trick, the tricks taken.
    counts = Counter([c for h in hands for c in h] + on_table + [c for t in taken for c in t])
    assert set(counts) == FULL_PACK, "a card is missing from the deal or came from nowhere"
    assert all(n == 1 for n in counts.values()), (
        f"accounted for twice: {[c for c, n in counts.items() if n > 1]}"
    )
    # ... and each in the right place.
    for seat in range(4):
        assert set(hands[seat]) == model.held[seat]
        assert set(taken[seat]) == model.won[seat]
    assert spectator["counts"] == [len(h) for h in model.held]
    assert [(p["seat"], p["card"]) for p in spectator["trick"]] == model.trick
    assert state.tricks == model.tricks == spectator["tricks"]
    assert spectator["calls"] == model.calls
    assert len(model.calls) <= 9
    assert state.to_act == model.to_act == spectator["to_act"]
    assert state.is_over() == (model.to_act is None)
    assert state.contract == model.contract
    if model.attackers is not None:
        assert list(state.attackers) == model.attackers
        assert sorted(spectator["defenders"]) == model.defenders
    assert legal(state) == model.legal()
    if state.is_over():
        assert state.result() == model.result()
    else:
        assert state.result()["scores"] is None
    state.check_invariants()


# -- strategies ------------------------------------------------------------------------------


@st.composite
def fresh_deals(draw):
    options = RULES.parse_options({"cycle": draw(st.sampled_from(["full", "short"]))})
    dealer = draw(st.integers(0, 3))
    return RULES.new_deal(options, dealer, draw(st.integers(0, 2**62)))


@st.composite
def forcing_calls(draw, contract: int) -> list[int]:
    """Calls that make ``contract`` the one played: some other numbers, all different (so the
    auction goes on), ``contract``, more different numbers, and ``contract`` again, by a seat
    that did not name it first."""
    others = draw(st.permutations([n for n in range(1, 9) if n != contract]))
    before = draw(st.integers(0, 7))
    between = draw(st.sampled_from([j for j in range(8 - before) if j % 4 != 3]))
    return [*others[:before], contract, *others[before : before + between], contract]


@st.composite
def contracted_deals(draw, contract: int | None = None):
    """(state right after the auction, the model, the contract), the contract forced."""
    state = draw(fresh_deals())
    if contract is None:
        contract = draw(st.sampled_from(range(1, 9)))
    model = Model(state.dealer, state.dealt["hands"])
    for number in draw(forcing_calls(contract)):
        action = call(state.to_act, number)
        assert action in state.legal_actions()
        state.apply(action)
        model.apply(action)
    assert state.contract == contract
    return state, model, contract


def random_step(state, data, model: Model | None = None) -> dict:
    action = drawn_by(data)(state)
    state.apply(action)
    if model is not None:
        model.apply(action)
    return action


# -- properties of random legal play ---------------------------------------------------------


@PROPERTY
@given(state=fresh_deals(), data=st.data())
def test_random_legal_play_follows_the_rules_file_after_every_action(state, data):
    model = Model(state.dealer, state.dealt["hands"])
    assert_matches_model(state, model)
    steps = 0
    while not state.is_over():
        random_step(state, data, model)
        assert_matches_model(state, model)
        steps += 1
        assert steps <= 9 + 52
    assert sum(state.tricks) == 13


@CONTRACTS
@PER_CONTRACT
@given(data=st.data())
def test_every_contract_gives_both_sides_together_its_fixed_total(contract, data):
    state, model, _ = data.draw(contracted_deals(contract))
    while not state.is_over():
        random_step(state, data, model)
        assert_matches_model(state, model)
    result = state.result()
    assert result["contract"] == contract
    assert sum(result["points"]) == FIXED_TOTAL[contract]
    assert result["points"] == model.points()  # counted independently from the tricks taken


@CONTRACTS
@PER_CONTRACT
@given(data=st.data())
def test_the_lead_passes_to_the_winner_of_each_trick(contract, data):
    state, _, _ = data.draw(contracted_deals(contract))
    first_namer = state.attackers[0]
    assert state.to_act == (first_namer + 1) % 4
    while not state.is_over():
        leader = state.to_act
        trick = []
        for turn in range(4):
            assert state.to_act == (leader + turn) % 4, "play goes clockwise from the leader"
            action = random_step(state, data)
            trick.append((action["seat"], action["play"]))
        winner = expected_winner(contract, trick)
        winning_card = dict(trick)[winner]
        assert winning_card[1] in (trick[0][1][1], TRUMP[contract]), (
            "a card that neither follows nor trumps never wins"
        )
        spectator = state.view(None)
        assert spectator["last_winner"] == winner
        assert [(p["seat"], p["card"]) for p in spectator["last_trick"]] == trick
        assert spectator["trick"] == []
        if not state.is_over():
            assert state.to_act == winner
            assert all(a["seat"] == winner for a in state.legal_actions())
    assert sum(state.tricks) == 13


@PROPERTY
@given(deal=contracted_deals(), data=st.data())
def test_a_revoke_is_never_accepted_and_a_void_seat_may_play_any_card(deal, data):
    state, _, _ = deal
    while not state.is_over():
        seat = state.to_act
        held = hand(state, seat)
        trick = state.view(None)["trick"]
        playable = {a["play"] for a in state.legal_actions()}
        if trick:
            led = trick[0]["card"][1]
            following = {c for c in held if c[1] == led}
            if following:
                assert playable == following
                for card in set(held) - following:
                    assert_refused(state, play(seat, card), "follow suit")
            else:  # need not trump, need not try to win
                assert playable == set(held)
        else:
            assert playable == set(held)  # the leader may lead anything
        random_step(state, data)


@PROPERTY
@given(state=fresh_deals(), numbers=st.lists(st.integers(1, 8), min_size=40, max_size=40))
def test_the_auction_ends_when_a_number_is_named_twice_and_makes_the_partnerships(state, numbers):
    first_caller = (state.dealer + 1) % 4
    assert state.to_act == first_caller
    named = [set() for _ in range(4)]
    first_namer: dict[int, int] = {}
    accepted = []
    for number in numbers:
        seat = state.to_act
        if number in named[seat]:  # nobody may repeat his own number
            assert call(seat, number) not in state.legal_actions()
            assert_refused(state, call(seat, number), f"already called {number}")
            continue
        assert call(seat, number) in state.legal_actions()
        state.apply(call(seat, number))
        accepted.append((seat, number))
        assert seat == (first_caller + len(accepted) - 1) % 4, "calls go clockwise"
        if number in first_namer:
            break
        first_namer[number] = seat
        named[seat].add(number)
        assert state.contract is None and state.attackers is None
    if state.contract is None:  # the drawn numbers ran out first: finish with any call
        while state.contract is None:
            seat, number = state.to_act, state.legal_actions()[0]["call"]
            state.apply(call(seat, number))
            accepted.append((seat, number))
            first_namer.setdefault(number, seat)
            named[seat].add(number)
    assert len(accepted) <= 9, "the auction always ends by the ninth call"
    seat, number = accepted[-1]
    assert [n for _, n in accepted].count(number) == 2
    assert len({n for _, n in accepted[:-1]}) == len(accepted) - 1, "ended at the first repeat"
    assert state.contract == number
    assert list(state.attackers) == [first_namer[number], seat]
    assert sorted(state.view(None)["defenders"]) == sorted(
        set(range(4)) - {first_namer[number], seat}
    )
    assert state.to_act == (first_namer[number] + 1) % 4, "the first namer's left leads"
    assert state.phase == "play"
    assert all("play" in a for a in state.legal_actions())


@CONTRACTS
@PER_CONTRACT
@given(data=st.data())
def test_scores_give_both_partners_the_sides_points_and_defenders_ten_when_attackers_lose(
    contract, data
):
    state, model, _ = data.draw(contracted_deals(contract))
    while not state.is_over():
        random_step(state, data, model)
    result = state.result()
    attackers, defenders = result["attackers"], result["defenders"]
    attack, defence = result["points"]
    assert [attack, defence] == model.points()
    assert result["attackers_won"] is (attack > defence)  # equal points are a loss
    scores = result["scores"]
    assert scores[attackers[0]] == scores[attackers[1]] == attack
    bonus = 0 if attack > defence else 10
    assert scores[defenders[0]] == scores[defenders[1]] == defence + bonus
    assert state.view(2)["scores"] == scores


@FEW
@given(state=fresh_deals(), rng=st.randoms(use_true_random=False))
def test_apply_accepts_exactly_the_legal_actions_and_refusals_change_nothing(state, rng):
    while True:
        legal_now = state.legal_actions()
        seat = state.to_act if state.to_act is not None else rng.randrange(4)
        attempts = [call(seat, n) for n in range(1, 9)] + [play(seat, c) for c in CODES]
        other = rng.choice([s for s in range(4) if s != seat])
        attempts += [call(other, rng.randint(1, 8)), play(other, rng.choice(CODES))]
        for attempt in attempts:
            if attempt in legal_now:
                copy = RULES.from_json(state.to_json())
                copy.apply(attempt)
                assert snapshot(copy) != snapshot(state)
            else:  # tried on the deal itself: a refusal must leave it as it was
                assert_refused(state, attempt)
        if state.is_over():
            assert legal_now == []
            break
        state.apply(rng.choice(legal_now))


@PROPERTY
@given(state=fresh_deals(), data=st.data(), stop=st.integers(0, 61))
def test_json_snapshot_round_trips_mid_deal_and_plays_on_identically(state, data, stop):
    play_some(state, stop, drawn_by(data))
    assert_a_json_copy_plays_on_like_the_deal(RULES, state, drawn_by(data))


@PROPERTY
@given(state=fresh_deals(), data=st.data(), stop=st.integers(0, 61))
def test_a_view_shows_only_that_seats_own_hand_and_a_spectator_none(state, data, stop):
    play_some(state, stop, drawn_by(data))
    assert_views_show_only_own_hands(state, [codes_of(state.hands[seat]) for seat in range(4)])
    for seat in range(4):
        view = state.view(seat)
        if seat == state.to_act and state.phase == "play":
            assert sorted(view["playable"]) == sorted(a["play"] for a in state.legal_actions())
        else:
            assert view["playable"] == []


# -- the auction: the rules file's examples --------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_rules_example_one_a2_b3_c6_d2_is_contract_2_for_a_and_d(dealer):
    a, b, c, d = ((dealer + 1 + i) % 4 for i in range(4))
    state = position(round_robin(), dealer=dealer)
    for seat, number in ((a, 2), (b, 3), (c, 6)):
        state.apply(call(seat, number))
        assert state.contract is None
    state.apply(call(d, 2))
    assert state.contract == 2
    assert list(state.attackers) == [a, d]
    assert sorted(state.view(None)["defenders"]) == sorted([b, c])
    assert state.to_act == b, "A named 2 first: A's left neighbour B leads"


@pytest.mark.parametrize("dealer", range(4))
def test_rules_example_two_ends_on_cs_4_with_d_and_c_attacking_d_first(dealer):
    a, b, c, d = ((dealer + 1 + i) % 4 for i in range(4))
    state = position(round_robin(), dealer=dealer)
    for seat, number in ((a, 5), (b, 1), (c, 8), (d, 4)):
        state.apply(call(seat, number))
    assert state.to_act == a
    assert call(a, 5) not in state.legal_actions()
    assert_refused(state, call(a, 5), "already called 5")
    for seat, number in ((a, 7), (b, 3)):
        state.apply(call(seat, number))
        assert state.contract is None
    state.apply(call(c, 4))
    assert state.contract == 4
    assert list(state.attackers) == [d, c]
    assert state.result()["attackers"] == [d, c]
    assert sorted(state.result()["defenders"]) == sorted([a, b])
    assert state.to_act == a, "D named 4 first: D's left neighbour A leads"


@pytest.mark.parametrize("ninth", [2, 3, 4, 6, 7, 8])
def test_after_eight_different_numbers_the_ninth_call_always_ends_the_auction(ninth):
    state = position(round_robin(), dealer=3, calls=range(1, 9))  # seat 0 named 1 and 5
    assert state.contract is None and len(state.view(None)["calls"]) == 8
    assert legal(state) == sorted((call(0, n) for n in (2, 3, 4, 6, 7, 8)), key=key)
    state.apply(call(0, ninth))
    namer = (ninth - 1) % 4
    assert state.contract == ninth and list(state.attackers) == [namer, 0]
    assert state.to_act == (namer + 1) % 4


def test_a_player_may_name_a_number_someone_else_named_but_not_his_own():
    state = position(round_robin(), dealer=3, calls=[3, 5, 6, 7])
    assert_refused(state, call(0, 3), "already called 3")
    state.apply(call(0, 5))  # seat 1's number: that ends the auction
    assert state.contract == 5 and list(state.attackers) == [1, 0]


# -- announcements ---------------------------------------------------------------------------


def test_an_announcement_is_kept_with_its_call_in_the_auction_log():
    state = position(round_robin(), dealer=3)
    state.apply(call(0, 2, say="I have six high clubs"))
    state.apply(call(1, 8, say="not a single face card, I cannot lose"))
    state.apply(call(2, 3))
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat)["calls"] == [
            {"seat": 0, "call": 2, "say": "I have six high clubs"},
            {"seat": 1, "call": 8, "say": "not a single face card, I cannot lose"},
            {"seat": 2, "call": 3, "say": ""},
        ]
    copy = RULES.from_json(json.loads(json.dumps(state.to_json())))
    assert copy.view(None)["calls"] == state.view(None)["calls"]


def test_an_announcement_may_be_80_characters_and_not_81():
    state = position(round_robin(), dealer=3)
    assert_refused(state, call(0, 2, say="x" * 81), "at most 80")
    state.apply(call(0, 2, say="я" * 80))
    assert state.view(None)["calls"][0]["say"] == "я" * 80


def test_an_announcement_with_a_card_is_not_an_action_and_a_call_in_play_is_refused():
    state = position(round_robin(), dealer=3, calls=[2, 2])
    assert state.phase == "play" and state.to_act == 1
    assert all(set(a) == {"seat", "play"} for a in state.legal_actions())
    card = state.legal_actions()[0]["play"]
    assert_refused(state, {"seat": 1, "play": card, "say": "a strong club"}, error=InvalidAction)
    assert_refused(state, call(1, 3), "auction is over")
    assert_refused(state, call(1, 3, say="hello"), "auction is over")
    state.apply(play(1, card))
    assert state.view(None)["calls"] == [
        {"seat": 0, "call": 2, "say": ""},
        {"seat": 1, "call": 2, "say": ""},
    ]


@pytest.mark.parametrize(
    "raw",
    [
        {"seat": 0, "call": 9},
        {"seat": 0, "call": 0},
        {"seat": 0, "call": "4"},
        {"seat": 0, "call": 4.0},
        {"seat": 0, "call": True},
        {"seat": 0, "call": 4, "say": 7},
        {"seat": 0, "call": 4, "play": "2S"},
        {"seat": 0, "say": "hello"},
        {"seat": 0},
        {"seat": 4, "call": 4},
        {"call": 4},
        {"seat": 0, "play": "1X"},
        "4",
    ],
)
def test_actions_of_the_wrong_shape_are_not_actions(raw):
    state = position(round_robin(), dealer=3)
    assert_refused(state, raw, error=InvalidAction)


def test_a_card_before_the_auction_ends_and_out_of_turn_actions_are_refused():
    state = position(round_robin(), dealer=3)
    assert_refused(state, play(0, "2S"), "auction is not over")
    assert_refused(state, call(1, 2), "not your turn")
    state = position(round_robin(), dealer=3, calls=[2, 2])
    assert_refused(state, play(0, "2S"), "not your turn")
    assert_refused(state, play(1, "2S"), "not in your hand")


# -- tricks and points: hand-made deals ------------------------------------------------------


def play_out(state, cards: str) -> None:
    """Play these cards in order, each by the seat to act."""
    for card in cards.split():
        state.apply(play(state.to_act, card))


def voids_in_hearts() -> list[list[str]]:
    """Seat 1 holds every heart; seats 2, 3 and 0 hold none: 2S, 3C and 5C can be thrown."""
    return [
        ["AD", *(r + "C" for r in RANKS if r != "3")],
        by_suit()[1],
        by_suit()[0],
        ["3C", *(r + "D" for r in RANKS[:-1])],
    ]


def three_follow_hearts() -> list[list[str]]:
    """QH (seat 1), KH (seat 3) and AH (seat 0) can follow a heart lead; seat 2 holds none."""
    return [
        ["AH", *(r + "C" for r in RANKS[:-1])],
        ["QH", "AC", *(r + "D" for r in RANKS[:11])],
        by_suit()[0],
        ["KH", *(r + "H" for r in RANKS[:10]), "KD", "AD"],
    ]


@pytest.mark.parametrize("contract, winner", [(6, 3), (2, 0), (1, 1), (8, 1)])
def test_the_trick_goes_to_the_right_trump_or_lead_card_and_its_taker_leads(contract, winner):
    # Seat 1 leads QH; seat 2 throws 2S (neither follows nor trumps: it never wins), seat 3
    # 3C and seat 0 5C. Contract 6: the lowest trump, 3C; contract 2: the highest, 5C;
    # no trumps (1, 8): QH, the only card of the suit led.
    state = position(voids_in_hearts(), dealer=3, calls=[contract, contract])
    assert state.to_act == 1  # seat 0 named it first: seat 1 leads
    play_out(state, "QH 2S 3C 5C")
    expected = [0, 0, 0, 0]
    expected[winner] = 1
    assert state.tricks == expected
    assert state.to_act == winner
    assert state.view(None)["last_winner"] == winner
    assert set(codes_of(state.won[winner])) == {"QH", "2S", "3C", "5C"}


@pytest.mark.parametrize("contract, winner", [(6, 1), (1, 0), (3, 0), (4, 0)])
def test_without_a_trump_the_suit_led_decides_lowest_in_contract_6_else_highest(contract, winner):
    # 2S is the lowest card of the trick but neither follows nor trumps: it never wins.
    state = position(three_follow_hearts(), dealer=3, calls=[contract, contract])
    play_out(state, "QH 2S KH AH")
    assert state.to_act == winner and state.tricks[winner] == 1


def one_seat_takes_every_trick(contract: int, trump: str):
    """Seat 0 holds the whole trump suit, seats 1 to 3 one other suit each; attackers 0 and 1.
    Nobody but seat 0 can ever follow or trump, so seat 0 takes all 13 tricks."""
    hands = by_suit(trump + "".join(s for s in "SHDC" if s != trump))
    state = position(hands, dealer=3, calls=[contract, contract])
    while not state.is_over():
        play_out(state, hand(state, state.to_act)[0])
    return state


@pytest.mark.parametrize("contract, trump", [(4, "D"), (5, "S")])
def test_equal_points_are_a_loss_for_the_attackers_and_the_defenders_get_ten(contract, trump):
    state = one_seat_takes_every_trick(contract, trump)
    assert state.tricks == [13, 0, 0, 0]
    assert state.result() == {
        "contract": contract,
        "attackers": [0, 1],
        "defenders": [2, 3],
        "tricks": [13, 0, 0, 0],
        "points": [0, 0],
        "attackers_won": False,
        "scores": [0, 0, 10, 10],
    }


CONTRACT_6_TIE_HANDS = [
    "2S 7S QS KS 5H 9D JD QD KD 5C 8C 9C JC",
    "4S 8S JS 3H 6H JH 7D AD 4C 6C 7C TC AC",
    "3S 5S 9S TS 8H 9H QH 4D 5D 6D 8D 2C 3C",
    "6S AS 2H 4H 7H TH KH AH 2D 3D TD QC KC",
]
CONTRACT_6_TIE_PLAY = (
    "3H 9H 2H 5H 2D JD 7D 4D 6S KS JS 9S AS 2S 8S 5S 9D AD 6D 3D 4H 5C JH 8H QS 4S TS QC "
    "KC 9C 4C 3C 8D TD QD 6C AC 2C 7H JC 3S KH 7S TC 6H QH AH 8C KD 7C 5D TH"
)


def test_contract_6_thirteen_red_cards_each_is_a_loss_for_the_attackers():
    state = position([h.split() for h in CONTRACT_6_TIE_HANDS], dealer=3, calls=[6, 6])
    model = Model(3, [h.split() for h in CONTRACT_6_TIE_HANDS])
    model.apply(call(0, 6))
    model.apply(call(1, 6))
    for card in CONTRACT_6_TIE_PLAY.split():
        action = play(state.to_act, card)
        state.apply(action)
        model.apply(action)
        assert_matches_model(state, model)
    assert state.result() == {
        "contract": 6,
        "attackers": [0, 1],
        "defenders": [2, 3],
        "tricks": [3, 3, 2, 5],
        "points": [13, 13],
        "attackers_won": False,
        "scores": [13, 13, 23, 23],
    }


@pytest.mark.parametrize(
    "calls, scores",
    [
        ([1, 1], [12, 12, 0, 0]),  # attackers 0 and 1; seat 1 leads and takes every trick
        ([1, 2, 1], [0, 22, 0, 22]),  # attackers 0 and 2; seat 1, a defender, takes them all
    ],
)
def test_contract_1_the_side_with_more_tricks_scores_12_and_the_other_nothing(calls, scores):
    state = position(by_suit(), dealer=3, calls=calls)
    while not state.is_over():  # each holds one suit, nobody can follow: the leader wins
        play_out(state, hand(state, state.to_act)[0])
    assert state.tricks == [0, 13, 0, 0]
    attackers_won = 1 in state.attackers
    assert state.result()["points"] == ([12, 0] if attackers_won else [0, 12])
    assert state.result()["attackers_won"] is attackers_won
    assert state.result()["scores"] == scores


# -- records and options ---------------------------------------------------------------------


def test_the_same_seed_deals_the_same_hands_and_the_dealers_left_calls_first():
    options = RULES.parse_options({})
    one, two = RULES.new_deal(options, 2, 777), RULES.new_deal(options, 2, 777)
    assert one.to_json() == two.to_json()
    assert one.dealt != RULES.new_deal(options, 2, 778).dealt
    assert [len(h) for h in one.dealt["hands"]] == [13] * 4
    assert set(c for h in one.dealt["hands"] for c in h) == FULL_PACK
    assert one.to_act == 3


@pytest.mark.parametrize(
    "raw, cycle, length",
    [
        ({}, "full", 8),
        (None, "full", 8),
        ({"cycle": "full"}, "full", 8),
        ({"cycle": "short"}, "short", 4),
    ],
)
def test_the_cycle_option_is_full_by_default_or_short(raw, cycle, length):
    options = RULES.parse_options(raw)
    assert options == {"cycle": cycle}
    assert RULES.cycle(options) == {"length": length, "target": None}  # no target score


@pytest.mark.parametrize("raw", [{"cycle": "long"}, {"cycle": 4}, {"trumps": "S"}, [1]])
def test_bad_options_are_refused(raw):
    with pytest.raises(InvalidRecord):
        RULES.parse_options(raw)
