"""Выборы (Robert Abbott's Variety), as docs/rules/variety.md specifies it.

An auction of the eight contracts makes the partnerships; then thirteen tricks. Hands and the
cards each seat has won are bit masks of card ints (see games/engine/cards.py).
"""

from typing import Literal

from games.engine.base import (
    Cycle,
    HiddenHands,
    IllegalAction,
    InvalidAction,
    InvalidRecord,
    Rules,
    View,
    deal_out,
    gettext_noop,
    read_hands,
    require_seat,
)
from games.engine.cards import CODES, FULL_PACK, SUITS, CardError, card_index, cards_of, codes_of

SEATS = 4
SUIT_MASK = [((1 << 13) - 1) << (13 * suit) for suit in range(4)]
S, H, D, C = (SUITS.index(s) for s in "SHDC")
SPADES, HEARTS, DIAMONDS, CLUBS = (SUIT_MASK[s] for s in (S, H, D, C))
RED, BLACK = HEARTS | DIAMONDS, SPADES | CLUBS
BLACK_TEN_JACK = sum(1 << card_index(c) for c in ("TS", "JS", "TC", "JC"))
RED_TEN_JACK = sum(1 << card_index(c) for c in ("TH", "JH", "TD", "JD"))
TRUMPS = {1: None, 2: C, 3: H, 4: D, 5: S, 6: C, 7: S, 8: None}
TOTALS = {1: 12, 2: 26, 3: 26, 4: 0, 5: 0, 6: 26, 7: -26, 8: -26}  # both sides together
LOWEST_WINS = 6
BONUS = 10
SAY_LENGTH = 80
CYCLES = {"full": 8, "short": 4}

# A parsed action: (seat, "call", (number, say)) or (seat, "play", card).
VarietyAction = tuple[int, Literal["call"], tuple[int, str]] | tuple[int, Literal["play"], int]


def side_points(contract: int, won: int, tricks: int) -> int:
    """What the cards ``won`` in ``tricks`` tricks count under ``contract`` (not contract 1,
    which compares the two sides' tricks)."""
    if contract == 2:
        return 2 * tricks
    if contract == 3:
        return 2 * (won & SPADES).bit_count()
    if contract == 4:
        return (won & RED).bit_count() - (won & BLACK).bit_count()
    if contract == 5:
        return 5 * ((won & BLACK_TEN_JACK).bit_count() - (won & RED_TEN_JACK).bit_count())
    if contract == 6:
        return (won & RED).bit_count()
    if contract == 7:
        return -2 * (won & CLUBS).bit_count()
    if contract == 8:
        return -2 * tricks
    raise ValueError(contract)


def trick_winner(contract: int, trick: list[tuple[int, int]]) -> int:
    """The seat that wins a full trick of (seat, card) pairs."""
    lead = trick[0][1] // 13
    trump = TRUMPS[contract]
    lowest = contract == LOWEST_WINS
    best_seat: int | None = None
    best_key: tuple[int, int] | None = None
    for seat, card in trick:
        suit, rank = divmod(card, 13)
        if suit == trump:
            key = (2, -rank if lowest else rank)
        elif suit == lead:
            key = (1, -rank if lowest else rank)
        else:
            continue  # neither follows nor trumps: never wins
        if best_key is None or key > best_key:
            best_seat, best_key = seat, key
    assert best_seat is not None, "the leader follows his own suit"
    return best_seat


class VarietyView(View):
    phase: str  # "auction", "play" or "over"
    calls: list[dict]  # {"seat", "call", "say"}, in order
    called: list[int]  # the numbers this seat has called
    contract: int | None
    attackers: list[int] | None
    defenders: list[int] | None
    trick: list[dict]  # {"seat", "card"}, the leader first
    last_trick: list[dict] | None
    last_winner: int | None
    tricks: list[int]
    points: list[int] | None  # [attackers, defenders] so far
    playable: list[str]
    played: list[list[dict]]  # every finished trick, {"seat", "card"}, the leader first


class VarietyRules(Rules):
    key = "variety"
    option_names = ("cycle",)
    snapshot_format = 2  # ``played`` (the finished tricks) joined the state

    def seats(self, options) -> int:
        return SEATS

    def read_options(self, raw: dict) -> dict:
        cycle = raw.get("cycle", "full")
        if not isinstance(cycle, str) or cycle not in CYCLES:
            raise InvalidRecord(gettext_noop('cycle must be "full" or "short"'))
        return {"cycle": cycle}

    def cycle(self, options) -> Cycle:
        return {"length": CYCLES[options["cycle"]], "target": None}

    def deal(self, options, dealer: int, seed: int) -> dict:
        hands, _ = deal_out(list(range(52)), SEATS, dealer, seed)
        return {"hands": [[CODES[c] for c in sorted(hand)] for hand in hands]}

    def read_dealt(self, record: dict, options: dict) -> dict:
        return {"hands": read_hands(record, SEATS, 13, [0] * 52)}

    def start(self, options, dealer: int, dealt: dict) -> "VarietyState":
        return VarietyState(options, dealer, dealt)

    def from_json(self, data: dict) -> "VarietyState":
        state = VarietyState(data["options"], data["dealer"], data["dealt"])
        for name in ("hands", "won", "tricks", "named", "first_namer"):
            setattr(state, name, list(data[name]))
        state.calls = [list(call) for call in data["calls"]]
        state.contract = data["contract"]
        state.attackers = tuple(data["attackers"]) if data["attackers"] else None
        state.to_act = data["to_act"]
        state.trick = [tuple(play) for play in data["trick"]]
        state.played = [[tuple(play) for play in trick] for trick in data["played"]]
        state.last_trick = state.played[-1] if state.played else None
        return state


class VarietyState(HiddenHands):
    key = "variety"
    snapshot_keys = (
        "hands",
        "won",
        "tricks",
        "named",
        "first_namer",
        "calls",
        "contract",
        "attackers",
        "to_act",
        "trick",
        "played",
    )
    # the snapshot's attributes, and what is read again from the options, the deal or them
    __slots__ = ("options", "dealer", "dealt", *snapshot_keys, "last_trick")

    def __init__(self, options: dict, dealer: int, dealt: dict):
        self.options = options
        self.dealer = dealer
        self.dealt = dealt
        self.hands = [sum(1 << card_index(c) for c in hand) for hand in dealt["hands"]]
        self.won = [0] * SEATS  # the cards of the tricks each seat took
        self.tricks = [0] * SEATS
        self.named = [0] * SEATS  # bit n: this seat has called n
        self.first_namer = [-1] * 9  # by contract number, the seat that named it first
        self.calls: list[list] = []  # [seat, number, say]
        self.contract: int | None = None
        self.attackers: tuple[int, int] | None = None  # first namer, second namer
        self.to_act: int | None = (dealer + 1) % SEATS
        self.trick: list[tuple[int, int]] = []  # (seat, card), the leader first
        self.last_trick: list[tuple[int, int]] | None = None
        self.played: list[list[tuple[int, int]]] = []  # the finished tricks, in order

    # -- the interface -------------------------------------------------------------------

    @property
    def phase(self) -> str:
        if self.to_act is None:
            return "over"
        return "auction" if self.contract is None else "play"

    def legal_actions(self) -> list[dict]:
        seat = self.to_act
        if seat is None:
            return []
        if self.contract is None:
            return [{"seat": seat, "call": n} for n in range(1, 9) if not self.named[seat] >> n & 1]
        return [{"seat": seat, "play": CODES[c]} for c in cards_of(self.playable(seat))]

    def playable(self, seat: int) -> int:
        hand = self.hands[seat]
        if self.trick:
            follow = hand & SUIT_MASK[self.trick[0][1] // 13]
            if follow:
                return follow
        return hand

    def parse_action(self, raw) -> VarietyAction:
        """(seat, "call", (number, say)) or (seat, "play", card); InvalidAction if malformed."""
        seat = require_seat(raw, SEATS)
        keys = set(raw) - {"seat"}
        if keys in ({"call"}, {"call", "say"}):
            number, say = raw["call"], raw.get("say", "")
            if type(number) is not int or not 1 <= number <= 8:
                raise InvalidAction(gettext_noop("a call names a contract from 1 to 8"))
            if not isinstance(say, str):
                raise InvalidAction(gettext_noop("an announcement is text"))
            return seat, "call", (number, say)
        if keys == {"play"}:
            try:
                return seat, "play", card_index(raw["play"])
            except CardError as exc:
                raise InvalidAction(exc.message, **exc.params) from None
        raise InvalidAction(
            gettext_noop(
                'a variety action is {"seat": s, "call": n, "say": '
                'text} or {"seat": s, "play": card}'
            )
        )

    def canonical(self, raw) -> dict:
        """The action as a record writes it: card codes in capitals, an announcement with
        its spaces tidied, and none when it is empty."""
        parsed = self.parse_action(raw)
        seat = parsed[0]
        if parsed[1] == "play":
            return {"seat": seat, "play": CODES[parsed[2]]}
        number, say = parsed[2]
        say = " ".join(say.split())
        return {"seat": seat, "call": number, **({"say": say} if say else {})}

    def play(self, parsed: VarietyAction) -> None:
        seat = parsed[0]
        if parsed[1] == "call":
            self._call(seat, *parsed[2])
        else:
            self._play(seat, parsed[2])

    def _call(self, seat: int, number: int, say: str) -> None:
        if self.contract is not None:
            raise IllegalAction(gettext_noop("The auction is over: play a card."))
        if self.named[seat] >> number & 1:
            raise IllegalAction(gettext_noop("You have already called %(number)s."), number=number)
        if any(not character.isprintable() for character in " ".join(say.split())):
            raise IllegalAction(gettext_noop("An announcement may hold only printable text."))
        if len(" ".join(say.split())) > SAY_LENGTH:
            raise IllegalAction(
                gettext_noop("An announcement may be at most %(length)s characters long."),
                length=SAY_LENGTH,
            )
        self.calls.append([seat, number, " ".join(say.split())])
        first = self.first_namer[number]
        if first >= 0:  # named a second time: this contract is played
            self.contract = number
            self.attackers = (first, seat)
            self.to_act = (first + 1) % SEATS  # the first namer's left neighbour leads
        else:
            self.first_namer[number] = seat
            self.named[seat] |= 1 << number
            self.to_act = (seat + 1) % SEATS

    def _play(self, seat: int, card: int) -> None:
        if self.contract is None:
            raise IllegalAction(gettext_noop("The auction is not over: call a contract."))
        bit = 1 << card
        if not self.hands[seat] & bit:
            raise IllegalAction(gettext_noop("%(card)s is not in your hand."), card=CODES[card])
        if not self.playable(seat) & bit:
            raise IllegalAction(
                gettext_noop("You must follow suit (%(suit)s)."), suit=SUITS[self.trick[0][1] // 13]
            )
        self.hands[seat] ^= bit
        self.trick.append((seat, card))
        if len(self.trick) < SEATS:
            self.to_act = (seat + 1) % SEATS
            return
        winner = trick_winner(self.contract, self.trick)
        self.won[winner] |= sum(1 << c for _, c in self.trick)
        self.tricks[winner] += 1
        self.last_trick = self.trick
        self.played.append(self.trick)
        self.trick = []
        self.to_act = winner if self.hands[winner] else None

    def defenders(self) -> tuple[int, int] | None:
        if self.attackers is None:
            return None
        first, second = (s for s in range(SEATS) if s not in self.attackers)
        return first, second

    def points(self) -> list[int] | None:
        """[attackers, defenders] as their tricks count so far (contract 1: at the end)."""
        if self.contract is None:
            return None
        attackers, defenders = self.attackers, self.defenders()
        assert attackers is not None and defenders is not None, "a contract has its sides"
        sides = (attackers, defenders)
        won = [self.won[a] | self.won[b] for a, b in sides]
        tricks = [self.tricks[a] + self.tricks[b] for a, b in sides]
        if self.contract == 1:
            if self.to_act is not None:
                return None
            return [12, 0] if tricks[0] > tricks[1] else [0, 12]
        return [side_points(self.contract, w, t) for w, t in zip(won, tricks, strict=True)]

    def scores(self) -> list[int] | None:
        if self.to_act is not None:
            return None
        points, attackers, defenders = self.points(), self.attackers, self.defenders()
        assert points is not None and attackers is not None and defenders is not None, (
            "an ended deal was played under a contract"
        )
        attack, defence = points
        won = attack > defence  # equal points lose
        scores = [0] * SEATS
        for seat in attackers:
            scores[seat] = attack
        for seat in defenders:
            scores[seat] = defence + (0 if won else BONUS)
        return scores

    def last_winner(self) -> int | None:
        """The seat that took the last finished trick; None before the first."""
        if not self.last_trick:
            return None
        assert self.contract is not None, "tricks are played under a contract"
        return trick_winner(self.contract, self.last_trick)

    def check_invariants(self) -> None:
        """Every card once (hands, the trick, the tricks taken); the sides' points add up."""
        union, count, won_cards = 0, len(self.trick), 0
        for _, card in self.trick:
            union |= 1 << card
        for hand in self.hands:
            union |= hand
            count += hand.bit_count()
        for won in self.won:
            union |= won
            won_cards += won.bit_count()
        assert union == FULL_PACK and count + won_cards == 52, (
            "a card is missing or accounted for twice"
        )
        assert sum(self.tricks) * SEATS == won_cards
        assert len(self.calls) <= 9, "the auction always ends by the ninth call"
        if self.to_act is None:
            assert sum(self.tricks) == 13 and not any(self.hands)
            points, scores, contract = self.points(), self.scores(), self.contract
            assert points is not None and scores is not None and contract is not None
            attack, defence = points
            assert attack + defence == TOTALS[contract]
            bonus = 0 if attack > defence else 2 * BONUS
            assert sum(scores) == 2 * TOTALS[contract] + bonus

    def result(self) -> dict:
        points = self.points() if self.to_act is None else None  # over: never None
        defenders = self.defenders()
        return {
            "contract": self.contract,
            "attackers": list(self.attackers) if self.attackers else None,
            "defenders": list(defenders) if defenders else None,
            "tricks": list(self.tricks),
            "points": points,
            "attackers_won": points[0] > points[1] if points is not None else None,
            "scores": self.scores(),
        }

    def view(self, seat: int | None) -> VarietyView:
        """What ``seat`` may see (its own hand only); ``None`` is a spectator: no hand."""
        own = seat is not None and seat == self.to_act
        phase = self.phase
        defenders = self.defenders()
        return {
            "game": "variety",
            "seat": seat,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "over": self.to_act is None,
            "phase": phase,
            "calls": [{"seat": s, "call": n, "say": say} for s, n, say in self.calls],
            "called": [n for n in range(1, 9) if self.named[seat] >> n & 1]
            if seat is not None
            else [],
            "contract": self.contract,
            "attackers": list(self.attackers) if self.attackers else None,
            "defenders": list(defenders) if defenders else None,
            "trick": [{"seat": s, "card": CODES[c]} for s, c in self.trick],
            "last_trick": [{"seat": s, "card": CODES[c]} for s, c in self.last_trick]
            if self.last_trick
            else None,
            "last_winner": self.last_winner(),
            "tricks": list(self.tricks),
            "points": self.points(),
            "counts": [hand.bit_count() for hand in self.hands],
            "hand": codes_of(self.hands[seat]) if seat is not None else None,
            "playable": codes_of(self.playable(seat))
            if seat is not None and own and phase == "play"
            else [],
            "played": [[{"seat": s, "card": CODES[c]} for s, c in trick] for trick in self.played],
            "scores": self.scores(),
        }


RULES = VarietyRules()
