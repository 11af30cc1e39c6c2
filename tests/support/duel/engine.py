"""Duel, the test suite's throw-away game (pure Python).

The pack is the twelve cards 2 to 7 of spades and hearts. Two players; the pack is shuffled by
the seed and dealt out, six cards each, from the dealer's left. Starting left of the dealer,
the players take turns: a turn is ``{"seat": s, "play": card}`` with any card of the seat's
hand, laid face up in front of it. The deal is over when both hands are empty.

Scoring: each seat scores the ranks (2 to 7) of the spades it played less the ranks of the
hearts it played. The result is ``{"played": [cards of seat 0, of seat 1], "scores": [...]}``
(``scores`` None until the deal is over).
"""

from games.engine.base import (
    IllegalAction,
    InvalidAction,
    InvalidRecord,
    Rules,
    State,
    View,
    deal_out,
    gettext_noop,
    read_hands,
    require_seat,
)
from games.engine.cards import CODES, CardError, card_index

SEATS = 2
PACK = tuple(card_index(rank + suit) for suit in "SH" for rank in "234567")
HAND_SIZE = len(PACK) // SEATS


def value(code: str) -> int:
    """What a played card scores: its rank for a spade, less its rank for a heart."""
    rank = int(code[0])
    return rank if code[1] == "S" else -rank


class DuelView(View):
    played: list[list[str]]  # each seat's cards laid face up, in order
    playable: list[str]  # the cards the seat at the screen may lay now


class DuelRules(Rules):
    key = "duel"
    option_names = ()

    def seats(self, options) -> int:
        return SEATS

    def read_options(self, raw: dict) -> dict:
        return {}

    def deal(self, options, dealer: int, seed: int) -> dict:
        hands, _ = deal_out(list(PACK), SEATS, dealer, seed)
        return {"hands": [[CODES[c] for c in sorted(hand)] for hand in hands]}

    def read_dealt(self, record: dict, options: dict) -> dict:
        counts = [0] * 52
        hands = read_hands(record, SEATS, HAND_SIZE, counts)
        stray = [CODES[c] for c, n in enumerate(counts) if n and c not in PACK]
        if stray:
            raise InvalidRecord(f"{stray[0]} is not in the duel pack")
        return {"hands": hands}

    def start(self, options, dealer: int, dealt: dict) -> "DuelState":
        return DuelState(options, dealer, dealt)

    def from_json(self, data: dict) -> "DuelState":
        state = DuelState(data["options"], data["dealer"], data["dealt"])
        state.hands = [list(hand) for hand in data["hands"]]
        state.played = [list(cards) for cards in data["played"]]
        state.to_act = data["to_act"]
        return state


class DuelState(State):
    key = "duel"
    __slots__ = ("options", "dealer", "dealt", "hands", "played", "to_act")

    def __init__(self, options: dict, dealer: int, dealt: dict):
        self.options = options
        self.dealer = dealer
        self.dealt = dealt
        self.hands = [list(hand) for hand in dealt["hands"]]
        self.played: list[list[str]] = [[] for _ in range(SEATS)]
        self.to_act = (dealer + 1) % SEATS

    def parse_action(self, raw) -> tuple[int, str]:
        seat = require_seat(raw, SEATS)
        if set(raw) != {"seat", "play"}:
            raise InvalidAction('a duel action is {"seat": s, "play": card}')
        try:
            return seat, CODES[card_index(raw["play"])]
        except CardError as exc:
            raise InvalidAction(str(exc)) from None

    def canonical(self, raw) -> dict:
        seat, card = self.parse_action(raw)
        return {"seat": seat, "play": card}

    def play(self, parsed: tuple[int, str]) -> None:
        seat, card = parsed
        if card not in self.hands[seat]:
            raise IllegalAction(gettext_noop("%(card)s is not in your hand."), card=card)
        self.hands[seat].remove(card)
        self.played[seat].append(card)
        other = (seat + 1) % SEATS
        self.to_act = other if self.hands[other] else seat if self.hands[seat] else None

    def legal_actions(self) -> list[dict]:
        if self.to_act is None:
            return []
        return [{"seat": self.to_act, "play": card} for card in self.hands[self.to_act]]

    def scores(self) -> list[int]:
        return [sum(value(card) for card in cards) for cards in self.played]

    def view(self, seat: int | None) -> DuelView:
        over = self.to_act is None
        return {
            "game": self.key,
            "seat": seat,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "over": over,
            "counts": [len(hand) for hand in self.hands],
            "hand": list(self.hands[seat]) if seat is not None else None,
            "scores": self.scores() if over else None,
            "played": [list(cards) for cards in self.played],
            "playable": list(self.hands[seat]) if seat is not None and seat == self.to_act else [],
        }

    def hidden_from(self, seat: int | None) -> set[str]:
        return {card for other, hand in enumerate(self.hands) if other != seat for card in hand}

    def result(self) -> dict:
        return {
            "played": [list(cards) for cards in self.played],
            "scores": self.scores() if self.to_act is None else None,
        }

    def check_invariants(self) -> None:
        cards = [card for hand in self.hands for card in hand]
        cards += [card for played in self.played for card in played]
        assert sorted(cards) == sorted(CODES[c] for c in PACK), "a card lost or doubled"
        assert (self.to_act is None) == (not any(self.hands))
        if self.to_act is not None:
            assert self.hands[self.to_act], "the seat to act has no cards"
        assert abs(len(self.played[0]) - len(self.played[1])) <= 1, "a seat played twice"

    def to_json(self) -> dict:
        return {
            "options": self.options,
            "dealer": self.dealer,
            "dealt": self.dealt,
            "hands": [list(hand) for hand in self.hands],
            "played": [list(cards) for cards in self.played],
            "to_act": self.to_act,
        }


RULES = DuelRules()
