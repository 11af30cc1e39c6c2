"""The Фантан rules engine against docs/rules/fantan.md (pure Python, no database).

The Hypothesis properties play random legal deals and compare the engine, after every action,
with a small independent model of the rules written from the rules file: the cards in each
hand and on the table, whose turn it is, which actions are legal, who went out and the scores.
"""

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import IllegalAction, InvalidAction, InvalidRecord
from games.engine.cards import CODES, RANKS, SUITS, codes_of
from games.fantan.engine import RULES, SCORINGS
from tests.support.commands import (
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
    snapshot,
)

PROPERTY = property_settings(max_examples=150)

FULL_PACK = set(CODES)
THREE_PLAYER_PACK = FULL_PACK - {"2C"}


def swap(hands: list[list[str]], a: str, b: str) -> list[list[str]]:
    """The same hands with cards ``a`` and ``b`` exchanged between their holders."""
    out = []
    for hand in hands:
        out.append([b if c == a else a if c == b else c for c in hand])
    return out


def position(hands, dealer: int = 3, **options):
    return RULES.from_record(
        {"game": "fantan", "options": options, "dealer": dealer, "hands": hands}
    )


def pass_(seat: int) -> dict:
    return {"seat": seat, "pass": True}


def plays(*cards_by_seat) -> list[dict]:
    """The legal-action list the rules expect: these plays (seat, card), then nothing else."""
    return sorted((play(s, c) for s, c in cards_by_seat), key=key)


def table_cards(state) -> list[str]:
    """Every card on the table, read from the spectator's view of the rows."""
    return [c for row in state.view(None)["rows"] for c in row["cards"]]


def hand_cards(state, seat: int) -> list[str]:
    return codes_of(state.hands[seat])


# -- an independent model of the rules file --------------------------------------------------


class Model:
    """Фантан as fantan.md words it, with sets of card codes (slow and obvious on purpose)."""

    def __init__(self, options: dict, dealer: int, hands: list[list[str]]):
        self.options = options
        self.n = options["players"]
        self.start = rank_of(options["start_rank"])
        self.held = [set(h) for h in hands]
        self.rows = {suit: set() for suit in SUITS}  # ranks on the table, by suit
        self.to_act = (dealer + 1) % self.n
        self.extra = False
        self.finish_order: list[int] = []
        self.extra_ranks = ({12} if options["ace_extra"] else set()) | (
            {0} if options["two_extra"] else set()
        )

    def playable(self, code: str) -> bool:
        row = self.rows[code[1]]
        rank = rank_of(code)
        if not row:
            return rank == self.start
        return rank in (min(row) - 1, max(row) + 1)  # ranks 0..12: no wrapping

    def legal(self) -> list[dict]:
        if self.to_act is None:
            return []
        seat = self.to_act
        actions = [play(seat, c) for c in self.held[seat] if self.playable(c)]
        if self.extra or not actions:
            actions.append(pass_(seat))
        return sorted(actions, key=key)

    def apply(self, action: dict) -> None:
        seat = self.to_act
        assert action["seat"] == seat
        if "pass" in action:
            self.extra = False
            self._next()
            return
        card = action["play"]
        self.held[seat].remove(card)
        self.rows[card[1]].add(rank_of(card))
        if not self.held[seat]:
            self.finish_order.append(seat)
            if len(self.finish_order) == self.options["until_out"]:
                self.to_act = None
                self.extra = False
                return
        elif rank_of(card) in self.extra_ranks:
            self.extra = True
            return
        self.extra = False
        self._next()

    def _next(self) -> None:
        seat = self.to_act
        for _ in range(self.n):
            seat = (seat + 1) % self.n
            if self.held[seat]:
                self.to_act = seat
                return
        raise AssertionError("the model found nobody to act")

    def scores(self) -> list[int]:
        scoring = self.options["scoring"]
        first = self.finish_order[0]
        if scoring == "win":
            return [1 if s == first else 0 for s in range(self.n)]
        if scoring == "premiums":
            scores = [0] * self.n
            for place, seat in enumerate(self.finish_order):
                scores[seat] = self.options["premiums"][place]
            return scores
        scores = [-len(self.held[s]) for s in range(self.n)]
        scores[first] = sum(len(self.held[s]) for s in range(self.n) if s != first)
        return scores


def assert_matches_model(state, model: Model) -> None:
    pack = THREE_PLAYER_PACK if model.n == 3 else FULL_PACK
    # Every card accounted for exactly once, read from the hands and the rows themselves.
    on_table = table_cards(state)
    in_hands = [c for seat in range(model.n) for c in hand_cards(state, seat)]
    counts = Counter(on_table + in_hands)
    assert set(counts) == pack, "a card is missing from the deal or one appeared from nowhere"
    assert all(n == 1 for n in counts.values()), (
        f"accounted for twice: {[c for c, n in counts.items() if n > 1]}"
    )
    assert sum(state.view(None)["counts"]) == len(in_hands)
    # ... and in the right place: each hand is what was dealt minus what that seat laid.
    for seat in range(model.n):
        assert set(hand_cards(state, seat)) == model.held[seat]
    for row in state.view(None)["rows"]:
        ranks = [rank_of(c) for c in row["cards"]]
        assert ranks == sorted(model.rows[row["suit"]])
        assert all(c[1] == row["suit"] for c in row["cards"])
        if ranks:  # a row is unbroken and holds its start card
            assert ranks == list(range(ranks[0], ranks[-1] + 1))
            assert model.start in ranks
    assert state.to_act == model.to_act
    assert state.is_over() == (model.to_act is None)
    assert state.finish_order == model.finish_order
    assert legal(state) == model.legal()
    if state.is_over():
        assert state.result()["scores"] == model.scores()
    else:
        assert state.result()["scores"] is None
    state.check_invariants()


@st.composite
def fantan_options(draw) -> dict:
    players = draw(st.sampled_from([3, 4]))
    # "2" is refused with three players: the two of clubs, a start card, is out of the pack.
    ranks = [r for r in RANKS if not (players == 3 and r == "2")] + ["10"]
    options = {
        "players": players,
        "start_rank": draw(st.sampled_from(ranks)),
        "ace_extra": draw(st.booleans()),
        "two_extra": draw(st.booleans()),
        "until_out": draw(st.sampled_from([1, 2])),
    }
    if draw(st.booleans()):
        options["scoring"] = draw(st.sampled_from(SCORINGS))
    if draw(st.booleans()):
        options["premiums"] = draw(st.lists(st.integers(-1000, 1000), min_size=2, max_size=2))
    return RULES.parse_options(options)


@st.composite
def fresh_deals(draw):
    options = draw(fantan_options())
    dealer = draw(st.integers(0, options["players"] - 1))
    seed = draw(st.integers(0, 2**62))
    return RULES.new_deal(options, dealer, seed)


def max_actions(n: int) -> int:
    # Every action lays a card or passes, and at most n passes follow one another (a stop
    # after an extra card, then the others): a bound that a stuck deal would break.
    return 52 * (n + 1)


# -- properties of random legal play ---------------------------------------------------------


@PROPERTY
@given(state=fresh_deals(), data=st.data())
def test_random_legal_play_follows_the_rules_file_after_every_action(state, data):
    model = Model(state.options, state.dealer, state.dealt["hands"])
    assert_matches_model(state, model)
    steps = 0
    passes_in_a_row = 0
    while not state.is_over():
        actions = state.legal_actions()
        action = actions[data.draw(st.integers(0, len(actions) - 1), label="action")]
        state.apply(action)
        model.apply(action)
        assert_matches_model(state, model)
        passes_in_a_row = passes_in_a_row + 1 if "pass" in action else 0
        assert passes_in_a_row <= model.n, "everybody passed round the table: a stuck deal"
        steps += 1
        assert steps <= max_actions(model.n)
    assert len(state.finish_order) == state.options["until_out"]
    assert len(set(state.finish_order)) == len(state.finish_order)


@PROPERTY
@given(state=fresh_deals(), rng=st.randoms(use_true_random=False))
def test_apply_accepts_exactly_the_legal_actions_and_refusals_change_nothing(state, rng):
    pack = sorted(THREE_PLAYER_PACK if state.n == 3 else FULL_PACK)
    while not state.is_over():
        legal_now = state.legal_actions()
        before = snapshot(state)
        # A few arbitrary well-formed actions: any seat, any card or a pass. A refusal is
        # tried on the deal itself: it must leave the deal as it was.
        for _ in range(3):
            seat = rng.randrange(state.n)
            attempt = pass_(seat) if rng.random() < 0.3 else play(seat, rng.choice(pack))
            if attempt in legal_now:
                copy = RULES.from_json(json.loads(before))
                copy.apply(attempt)
                assert snapshot(copy) != before
            else:
                assert_refused(state, attempt)
        state.apply(rng.choice(legal_now))
    with pytest.raises(IllegalAction, match="over"):
        state.apply(pass_(0))


@PROPERTY
@given(state=fresh_deals(), data=st.data())
def test_a_seat_holding_a_playable_card_can_never_pass(state, data):
    while not state.is_over():
        seat = state.to_act
        holds_playable = bool(state.hands[seat] & state.playable)
        if holds_playable and not state.extra:
            assert_refused(state, pass_(seat), "may not pass")
            assert pass_(seat) not in state.legal_actions()
        else:
            assert pass_(seat) in state.legal_actions()
        actions = state.legal_actions()
        state.apply(actions[data.draw(st.integers(0, len(actions) - 1))])


@PROPERTY
@given(state=fresh_deals(), data=st.data())
def test_before_the_first_start_card_only_start_rank_cards_may_be_laid(state, data):
    start = state.options["start_rank"]
    first = (state.dealer + 1) % state.n
    assert state.to_act == first
    seen_seats = []
    while not table_cards(state):
        seat = state.to_act
        seen_seats.append(seat)
        actions = state.legal_actions()
        for action in actions:
            assert "pass" in action or action["play"][0] == start
        has_start_card = any(c[0] == start for c in hand_cards(state, seat))
        if not has_start_card:
            assert actions == [pass_(seat)], "a seat without a start card must pass"
        else:
            assert pass_(seat) not in actions
        state.apply(actions[data.draw(st.integers(0, len(actions) - 1))])
    # The duty went round clockwise from the dealer's left until somebody opened.
    assert seen_seats == [(first + i) % state.n for i in range(len(seen_seats))]
    assert len(seen_seats) <= state.n


@PROPERTY
@given(state=fresh_deals(), data=st.data(), stop=st.integers(0, 120))
def test_json_snapshot_round_trips_mid_deal_and_plays_on_identically(state, data, stop):
    play_some(state, stop, drawn_by(data))
    assert_a_json_copy_plays_on_like_the_deal(RULES, state, drawn_by(data))


@PROPERTY
@given(state=fresh_deals(), data=st.data(), stop=st.integers(0, 120))
def test_a_view_shows_only_that_seats_own_hand(state, data, stop):
    play_some(state, stop, drawn_by(data))
    hands = [hand_cards(state, seat) for seat in range(state.n)]
    assert_views_show_only_own_hands(state, hands)
    for seat in range(state.n):
        view = state.view(seat)
        assert view["counts"] == [len(h) for h in hands]
        if seat == state.to_act:
            assert sorted(view["playable"]) == sorted(
                a["play"] for a in state.legal_actions() if "play" in a
            )
        else:
            assert view["playable"] == [] and view["can_pass"] is False


# -- setup and dealing -----------------------------------------------------------------------


@pytest.mark.parametrize("players, size", [(4, 13), (3, 17)])
def test_new_deal_with_the_same_seed_deals_the_same_hands(players, size):
    options = RULES.parse_options({"players": players})
    one = RULES.new_deal(options, 0, 12345)
    two = RULES.new_deal(options, 0, 12345)
    other = RULES.new_deal(options, 0, 54321)
    assert one.dealt == two.dealt
    assert one.to_json() == two.to_json()
    assert one.dealt != other.dealt
    assert [len(h) for h in one.dealt["hands"]] == [size] * players


@pytest.mark.parametrize("players", [3, 4])
def test_the_seat_left_of_the_dealer_acts_first(players):
    options = RULES.parse_options({"players": players})
    for dealer in range(players):
        state = RULES.new_deal(options, dealer, 99)
        assert state.to_act == (dealer + 1) % players
        assert all(a["seat"] == state.to_act for a in state.legal_actions())


def test_three_players_play_without_the_two_of_clubs_seventeen_cards_each():
    options = RULES.parse_options({"players": 3})
    assert RULES.seats(options) == 3
    for seed in range(20):
        state = RULES.new_deal(options, seed % 3, seed)
        assert [len(h) for h in state.dealt["hands"]] == [17, 17, 17]
        dealt = [c for h in state.dealt["hands"] for c in h]
        assert len(set(dealt)) == 51 and set(dealt) == THREE_PLAYER_PACK
        rng = random.Random(seed)
        while not state.is_over():
            assert play(state.to_act, "2C") not in state.legal_actions()
            state.apply(rng.choice(state.legal_actions()))
        assert all("2C" not in hand for hand in state.result()["cards_left"])
        assert "2C" not in table_cards(state)


def test_a_three_player_record_with_the_two_of_clubs_is_refused():
    hands = [[c for c in sorted(THREE_PLAYER_PACK)][i::3] for i in range(3)]
    position(hands, dealer=0, players=3)  # the 51-card pack is accepted
    hands[0][0] = "2C"
    with pytest.raises(InvalidRecord):
        position(hands, dealer=0, players=3)


def test_start_rank_two_is_refused_for_three_players_whose_deal_could_never_end():
    with pytest.raises(InvalidRecord, match="without the two of clubs") as refused:
        RULES.parse_options({"players": 3, "start_rank": "2"})
    assert refused.value.option == "start_rank"  # where a form shows it
    assert RULES.parse_options({"players": 4, "start_rank": "2"})["start_rank"] == "2"


@pytest.mark.parametrize(
    "options",
    [
        {"players": 5},
        {"players": 4.0},
        {"players": True},
        {"players": "4"},
        {"start_rank": "1"},
        {"start_rank": "11"},
        {"ace_extra": 1},
        {"two_extra": "yes"},
        {"until_out": 3},
        {"until_out": 2.0},
        {"until_out": True},
        {"premiums": [800]},
        {"premiums": [800, "500"]},
        {"scoring": "chips"},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidRecord):
        RULES.parse_options(options)


def test_omitted_options_take_the_rules_files_defaults():
    assert RULES.parse_options({}) == {
        "players": 4,
        "start_rank": "8",
        "ace_extra": False,
        "two_extra": False,
        "until_out": 1,
        "premiums": [800, 500],
        "scoring": "win",
    }
    assert RULES.parse_options({"until_out": 2})["scoring"] == "premiums"
    assert RULES.parse_options({"until_out": 2, "scoring": "cards"})["scoring"] == "cards"


# -- opening and compulsion ------------------------------------------------------------------


def test_the_first_player_without_a_start_card_must_pass_and_the_duty_moves_on():
    # Seat 0 (left of dealer 3) holds no eight: his 8S went to seat 1 for the 2H.
    state = position(swap(by_suit(), "8S", "2H"))
    assert state.legal_actions() == [pass_(0)]
    assert_refused(state, play(0, "7S"), "cannot be laid now")
    assert_refused(state, play(0, "2H"), "cannot be laid now")
    state.apply(pass_(0))
    assert state.to_act == 1
    assert legal(state) == plays((1, "8H"), (1, "8S"))  # start cards only, no pass
    assert_refused(state, pass_(1), "may not pass")
    state.apply(play(1, "8S"))
    assert legal(state) == plays((2, "8D"))
    state.apply(play(2, "8D"))
    state.apply(play(3, "8C"))
    assert legal(state) == plays((0, "7S"), (0, "9S"))  # the spade row grows both ways


def test_a_player_with_a_playable_card_may_not_pass():
    state = position(by_suit())
    assert_refused(state, pass_(0), "may not pass")
    state.apply(play(0, "8S"))
    assert_refused(state, pass_(1), "may not pass")


def test_a_player_with_no_playable_card_passes_and_the_turn_moves_clockwise():
    state = position(swap(by_suit(), "8H", "2S"))  # seat 1 has no eight
    state.apply(play(0, "8S"))
    assert state.legal_actions() == [pass_(1)]
    state.apply(pass_(1))
    assert state.to_act == 2


def test_an_action_out_of_turn_is_refused_and_changes_nothing():
    state = position(by_suit())
    assert_refused(state, play(1, "8H"), "not your turn")
    assert_refused(state, pass_(2), "not your turn")
    state.apply(play(0, "8S"))
    assert_refused(state, play(0, "9S"), "not your turn")


def test_a_card_not_in_hand_is_refused_and_changes_nothing():
    state = position(by_suit())
    assert_refused(state, play(0, "8H"), "not in your hand")
    state.apply(play(0, "8S"))
    assert_refused(state, play(1, "9S"), "not in your hand")


def test_a_card_that_does_not_continue_a_row_is_refused_and_changes_nothing():
    state = position(by_suit())
    assert_refused(state, play(0, "9S"), "cannot be laid now")
    state.apply(play(0, "8S"))
    state.apply(play(1, "8H"))
    state.apply(play(2, "8D"))
    state.apply(play(3, "8C"))
    assert_refused(state, play(0, "6S"), "cannot be laid now")  # a gap below 8S
    assert_refused(state, play(0, "TS"), "cannot be laid now")  # a gap above 8S
    state.apply(play(0, "9S"))
    assert [c for c in table_cards(state) if c[1] == "S"] == ["8S", "9S"]


def test_actions_of_the_wrong_shape_are_not_actions():
    state = position(by_suit())
    before = state.to_json()
    for raw in [
        {"seat": 0},
        {"seat": 0, "pass": False},
        {"seat": 0, "play": "8S", "pass": True},
        {"seat": 4, "pass": True},
        {"seat": "0", "play": "8S"},
        {"play": "8S"},
        {"seat": 0, "play": "1X"},
        {"seat": 0, "lay": "8S"},
        ["seat", 0],
        "8S",
    ]:
        with pytest.raises(InvalidAction):
            state.apply(raw)
    assert state.to_json() == before


def test_the_first_seat_to_empty_his_hand_wins_and_the_deal_ends():
    state = position(by_suit(), start_rank="A")
    for _ in range(12):  # each seat lays his own suit down from the ace
        for seat in range(4):
            state.apply(play(seat, state.legal_actions()[0]["play"]))
    assert not state.is_over()
    state.apply(play(0, "2S"))
    assert state.is_over() and state.to_act is None
    assert state.legal_actions() == []
    assert state.result() == {
        "finish_order": [0],
        "scores": [1, 0, 0, 0],
        "cards_left": [[], ["2H"], ["2D"], ["2C"]],
    }
    assert_refused(state, play(1, "2H"), "over")


# -- the options -----------------------------------------------------------------------------


def test_start_rank_ace_rows_grow_down_only():
    # Seat 0 holds the whole spade suit: after AS only KS follows, never the two.
    state = position(by_suit(), start_rank="A")
    assert legal(state) == plays((0, "AS"))
    state.apply(play(0, "AS"))
    for seat, card in ((1, "AH"), (2, "AD"), (3, "AC")):
        state.apply(play(seat, card))
    assert legal(state) == plays((0, "KS"))
    assert_refused(state, play(0, "2S"), "cannot be laid now")


def test_start_rank_two_rows_grow_up_only():
    state = position(by_suit(), start_rank="2")
    assert legal(state) == plays((0, "2S"))
    for seat, card in ((0, "2S"), (1, "2H"), (2, "2D"), (3, "2C")):
        state.apply(play(seat, card))
    assert legal(state) == plays((0, "3S"))
    assert_refused(state, play(0, "AS"), "cannot be laid now")


@pytest.mark.parametrize("written", ["10", "T", "t", 10])
def test_start_rank_ten_may_be_written_10_or_t(written):
    assert RULES.parse_options({"start_rank": written})["start_rank"] == "T"
    hands = [[c.replace("T", "10") for c in hand] for hand in by_suit()]
    state = position(hands, start_rank=written)
    assert legal(state) == plays((0, "TS"))
    state.apply(play(0, "10S"))
    assert table_cards(state) == ["TS"]


def test_without_ace_extra_an_ace_ends_the_turn():
    state = position(swap(by_suit(), "AH", "2S"), start_rank="A")
    state.apply(play(0, "AS"))
    assert state.to_act == 1


def test_ace_extra_lets_the_player_lay_one_more_card_or_stop():
    hands = swap(by_suit(), "AH", "2S")  # seat 0 holds two aces
    state = position(hands, start_rank="A", ace_extra=True)
    state.apply(play(0, "AS"))
    assert state.to_act == 0
    assert legal(state) == sorted([play(0, "AH"), play(0, "KS"), pass_(0)], key=key)
    assert state.view(0)["extra"] is True and state.view(0)["can_pass"] is True
    stopped = RULES.from_json(state.to_json())
    stopped.apply(pass_(0))  # the extra card is optional: a pass stops
    assert stopped.to_act == 1 and "KS" in hand_cards(stopped, 0)
    state.apply(play(0, "AH"))  # an extra ace grants another extra card
    assert state.to_act == 0
    assert legal(state) == sorted([play(0, "KS"), pass_(0)], key=key)
    state.apply(play(0, "KS"))  # a king grants nothing more
    assert state.to_act == 1
    assert_refused(state, pass_(1), "may not pass")


def test_ace_extra_with_no_playable_card_may_pass_which_ends_the_turn():
    state = position(swap(by_suit(), "KS", "2H"), start_rank="A", ace_extra=True)
    state.apply(play(0, "AS"))
    assert state.legal_actions() == [pass_(0)]
    assert_refused(state, play(0, "QS"), "cannot be laid now")
    state.apply(pass_(0))
    assert state.to_act == 1 and not state.extra


def test_two_extra_grants_the_privilege_for_twos_and_not_for_aces():
    hands = swap(by_suit(), "2H", "AS")  # seat 0 holds 2S and 2H
    state = position(hands, start_rank="2", two_extra=True)
    state.apply(play(0, "2S"))
    assert legal(state) == sorted([play(0, "2H"), play(0, "3S"), pass_(0)], key=key)
    state.apply(play(0, "2H"))  # another two, another extra card
    assert legal(state) == sorted([play(0, "3S"), pass_(0)], key=key)
    state.apply(pass_(0))
    assert state.to_act == 1
    aces = position(swap(by_suit(), "AH", "2S"), start_rank="A", two_extra=True)
    aces.apply(play(0, "AS"))
    assert aces.to_act == 1, "two_extra alone gives nothing for an ace"


def test_without_two_extra_a_two_ends_the_turn():
    state = position(swap(by_suit(), "2H", "AS"), start_rank="2", ace_extra=True)
    state.apply(play(0, "2S"))
    assert state.to_act == 1


def finished(options: dict, seed: int):
    """A deal played to its end by random legal choices."""
    rng = random.Random(seed)
    state = RULES.new_deal(RULES.parse_options(options), seed % options.get("players", 4), seed)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("seed", range(10))
def test_until_out_two_plays_on_until_two_are_out_and_pays_the_premiums(seed):
    state = finished({"until_out": 2, "premiums": [200, 125]}, seed)
    first, second = state.finish_order
    assert first != second
    assert hand_cards(state, first) == [] and hand_cards(state, second) == []
    assert all(hand_cards(state, s) for s in range(4) if s not in (first, second))
    expected = [0, 0, 0, 0]
    expected[first], expected[second] = 200, 125
    assert state.result()["scores"] == expected


@pytest.mark.parametrize("seed", range(10))
def test_a_seat_that_went_out_is_skipped(seed):
    rng = random.Random(seed)
    state = RULES.new_deal(RULES.parse_options({"until_out": 2}), 0, seed)
    while not state.is_over():
        assert state.to_act not in state.finish_order
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.finish_order) == 2


@pytest.mark.parametrize("seed", range(10))
def test_scoring_win_gives_one_to_the_first_out(seed):
    state = finished({}, seed)
    scores = state.result()["scores"]
    assert scores[state.finish_order[0]] == 1 and sorted(scores) == [0, 0, 0, 1]


@pytest.mark.parametrize("until_out", [1, 2])
@pytest.mark.parametrize("seed", range(5))
def test_scoring_cards_charges_each_card_left_to_the_winner_total_zero(seed, until_out):
    state = finished({"scoring": "cards", "until_out": until_out, "players": 3 + seed % 2}, seed)
    left = [len(hand) for hand in state.result()["cards_left"]]
    winner = state.finish_order[0]
    scores = state.result()["scores"]
    assert scores[winner] == sum(left) > 0
    assert all(scores[s] == -left[s] for s in range(len(left)) if s != winner)
    assert sum(scores) == 0


def test_scoring_premiums_with_one_out_pays_only_the_first_premium():
    state = finished({"scoring": "premiums", "premiums": [800, 500]}, 3)
    expected = [0, 0, 0, 0]
    expected[state.finish_order[0]] = 800
    assert state.result()["scores"] == expected


# -- views and snapshots ---------------------------------------------------------------------


def test_a_spectator_view_holds_no_hand_and_a_seat_view_only_its_own():
    state = position(by_suit())
    state.apply(play(0, "8S"))
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["playable"] == []
    assert spectator["to_act"] == 1 and spectator["counts"] == [12, 13, 13, 13]
    assert spectator["rows"][0] == {"suit": "S", "cards": ["8S"]}
    own = state.view(1)
    assert sorted(own["hand"]) == sorted(by_suit()[1])
    assert own["playable"] == ["8H"] and own["can_pass"] is False
    other = state.view(2)
    assert sorted(other["hand"]) == sorted(by_suit()[2]) and other["playable"] == []
    assert not any(c in json.dumps(other) for c in by_suit()[1])


def test_the_snapshot_survives_json_mid_deal():
    state = position(swap(by_suit(), "AH", "2S"), start_rank="A", ace_extra=True)
    state.apply(play(0, "AS"))  # mid-turn, holding the extra-card privilege
    copy = RULES.from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json()
    assert copy.extra and copy.to_act == 0
    assert legal(copy) == legal(state)
    copy.apply(play(0, "AH"))
    assert copy.to_act == 0
