"""Леопард (Robert Abbott's Leopard), as docs/rules/leopard.md specifies it.

Two packs: each card int 0..51 exists twice, and the two copies are interchangeable, so hands,
the stock and the discard pile are lists of card ints. Each seat has a square of nine places
(``A 2 3 / 4 5 6 / 7 8 9``, indices 0..8); a place is a stack, top last, of entries
``card`` (face up) or ``card | DOWN`` (face down).

A turn begins with the draw. At a table the draw is a step of its own (``{"seat": s,
"draw": true}``), so that the end can be declared only before the drawn card is seen; a
record joins it to the discard or lay that follows, which then begins with the draw.
"""

from itertools import chain, product
from typing import TypedDict

from games.engine.base import (
    AlreadyDone,
    Cycle,
    IllegalAction,
    InvalidAction,
    InvalidOption,
    InvalidRecord,
    Phrase,
    Rules,
    State,
    View,
    deal_out,
    gettext_noop,
    read_cards,
    read_hands,
    require_seat,
)
from games.engine.cards import CODES, RED_SUITS, CardError, card_index

SEATS = 2
HAND = 8
DOWN = 64
PLACES = ("A", "2", "3", "4", "5", "6", "7", "8", "9")
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12  # rank ints (cards.py: 0 is the two)
END_AT = 5  # the sum a player needs to declare the end
MOST_MATCH = 1000  # the most deals, or the highest target, a match may be agreed on
MATCH_RANGE = {
    "deals": gettext_noop("The number of deals must be a whole number from %(least)s to %(most)s."),
    "target": gettext_noop("The target score must be a whole number from %(least)s to %(most)s."),
}
DOUBLE_PACK = sorted(list(range(52)) * 2)
CARD_OF = tuple(entry & ~DOWN for entry in range(2 * DOWN))  # a square's entry: which card
FACE_RIGHT = tuple(
    (entry >= DOWN) == (entry % DOWN % 13 in (JACK, QUEEN)) and entry % DOWN < 52
    for entry in range(2 * DOWN)
)


# By rank: the place of an ace to nine (A is place 0, the two place 1 ...); None for 10 to K.
OWN_PLACE = tuple(rank + 1 if rank < TEN else (0 if rank == ACE else None) for rank in range(13))


def is_red(card: int) -> bool:
    return "SHDC"[card // 13] in RED_SUITS


COLOUR = tuple(is_red(card) for card in range(52))


def line_points(a: int, b: int, c: int) -> int:
    """A line of three top cards (-1: no face-up card): 2 for one suit, 1 for one colour."""
    if a < 0 or b < 0 or c < 0:
        return 0
    if a // 13 == b // 13 == c // 13:
        return 2
    return 1 if COLOUR[a] == COLOUR[b] == COLOUR[c] else 0


def face_up_tops(square: list[list[int]]) -> list[int]:
    return [stack[-1] if stack and not stack[-1] & DOWN else -1 for stack in square]


def square_lines(square: list[list[int]]) -> list[int]:
    tops = face_up_tops(square)
    return [line_points(tops[a], tops[b], tops[c]) for a, b, c in LINES]


# The sum's fast path (legal_actions needs it every turn): a top as its suit, 4 for none
# (an empty place or a face-down card), and line_points by the suits of a line's three tops.
SUIT_OF_TOP = tuple(entry // 13 if entry < 52 else 4 for entry in range(2 * DOWN))
LINE_BY_SUITS = tuple(
    line_points(*(13 * suit if suit < 4 else -1 for suit in suits))
    for suits in product(range(5), repeat=3)
)


def square_sum(square: list[list[int]]) -> int:
    a, b, c, d, e, f, g, h, i = [SUIT_OF_TOP[stack[-1]] if stack else 4 for stack in square]
    by = LINE_BY_SUITS  # the eight LINES written out: a loop over them costs twice as much
    return (
        by[25 * a + 5 * b + c]
        + by[25 * d + 5 * e + f]
        + by[25 * g + 5 * h + i]
        + by[25 * a + 5 * d + g]
        + by[25 * b + 5 * e + h]
        + by[25 * c + 5 * f + i]
        + by[25 * a + 5 * e + i]
        + by[25 * c + 5 * e + g]
    )


assert LINES == (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
), "square_sum writes the lines out"


ALL_PLACES = (1 << 9) - 1  # a square's places as a mask: bit p for place p
OWN_BIT = tuple(0 if own is None else 1 << own for own in OWN_PLACE)  # by rank
# check_invariants reads the laid entries with bytes.translate (at C speed): an entry's card,
# or 255 for a card lying the wrong way up
LAID_CARD = bytes(
    CARD_OF[entry] if entry < 2 * DOWN and FACE_RIGHT[entry] else 255 for entry in range(256)
)

# Every action there can be, made once: legal_actions hands out these (do not mutate them).
END_ACTIONS = [{"seat": seat, "end": True} for seat in range(SEATS)]
DRAW_ACTIONS = [{"seat": seat, "draw": True} for seat in range(SEATS)]
DISCARD_ACTIONS = [
    [{"seat": seat, "discard": CODES[card]} for card in range(52)] for seat in range(SEATS)
]
LAY_ACTIONS = [
    [
        [
            [
                {"seat": seat, "lay": CODES[card], "square": square}
                if OWN_PLACE[card % 13] is not None
                else {"seat": seat, "lay": CODES[card], "square": square, "place": PLACES[place]}
                for place in range(9)
            ]
            for square in range(SEATS)
        ]
        for card in range(52)
    ]
    for seat in range(SEATS)
]


class LaysByMask(dict):
    """One card's lays in one square, by the mask of the places it may go to there; each
    list made when first asked for (at most 512), in the order of the places."""

    __slots__ = ("lays",)

    def __init__(self, lays: list[dict]):
        super().__init__()
        self.lays = lays

    def __missing__(self, mask: int) -> list[dict]:
        lays = self[mask] = [lay for place, lay in enumerate(self.lays) if mask >> place & 1]
        return lays


LAYS = [
    [[LaysByMask(LAY_ACTIONS[seat][card][square]) for square in range(SEATS)] for card in range(52)]
    for seat in range(SEATS)
]


class Place(TypedDict):
    place: str  # "A", "2" … "9"
    top: str | None  # the top card, if it lies face up
    down: bool  # the top card lies face down: everyone sees its back
    under: int  # how many cards lie under the top one


class LeopardView(View):
    squares: list[list[Place]]
    sums: list[int]
    lines: list[list[int]]  # each square's eight lines, as LINES orders them: their points
    stock: int
    discards: int
    discard_top: str | None
    drawn: str | None  # the card the seat to act has drawn, shown to him alone
    may_draw: bool
    may_end: bool
    end_score: int | None  # what ending now would score
    ender: int | None
    # what every player has seen laid: by square and place, the stack bottom first, a
    # face-down card as None; and the discard pile, bottom first
    laid: list[list[list[str | None]]]
    discard_pile: list[str]


class LeopardRules(Rules):
    key = "leopard"
    option_names = ("deals", "target")
    snapshot_format = 2  # the draw became a step: ``drawn`` joined the state

    def seats(self, options) -> int:
        return SEATS

    def cycle(self, options) -> Cycle:
        """A match: an agreed number of deals, or play until a total reaches the target."""
        return {"length": options["deals"], "target": options["target"]}

    def read_options(self, raw: dict) -> dict:
        target = raw.get("target")
        deals = raw.get("deals")
        if deals is None and target is None:  # a null is an omitted option: the default
            deals = 4
        for name, value in (("deals", deals), ("target", target)):
            if value is not None and (type(value) is not int or not 1 <= value <= MOST_MATCH):
                raise InvalidOption(name, MATCH_RANGE[name], least=1, most=MOST_MATCH)
        if deals is not None and target is not None:
            raise InvalidRecord(gettext_noop("a match is agreed by deals or by a target, not both"))
        return {"deals": deals, "target": target}

    def deal(self, options, dealer: int, seed: int) -> dict:
        pack = [card for card in range(52) for _ in range(2)]
        hands, stock = deal_out(pack, SEATS, dealer, seed, per_seat=HAND)
        return {
            "hands": [[CODES[c] for c in hand] for hand in hands],
            "stock": [CODES[c] for c in stock],
        }  # top card first, as records write it

    def read_dealt(self, record: dict, options: dict) -> dict:
        counts = [0] * 52  # two packs: each card at most twice, hands and stock together
        hands = read_hands(record, SEATS, HAND, counts, copies=2)
        stock = read_cards(
            record.get("stock"), Phrase(gettext_noop("the stock")), 104 - 2 * HAND, counts, copies=2
        )
        return {"hands": hands, "stock": stock}

    def start(self, options, dealer: int, dealt: dict) -> "LeopardState":
        return LeopardState(options, dealer, dealt)

    def from_json(self, data: dict) -> "LeopardState":
        state = LeopardState(data["options"], data["dealer"], data["dealt"])
        state.drawn = data["drawn"]
        state.masks = [None, None]
        state.hands = [list(hand) for hand in data["hands"]]
        state.stock = list(data["stock"])
        state.discards = list(data["discards"])
        state.squares = [[list(stack) for stack in square] for square in data["squares"]]
        state.to_act = data["to_act"]
        state.ender = data["ender"]
        return state


class LeopardState(State):
    key = "leopard"
    card_keys = ("discard", "lay")
    __slots__ = (
        "options",
        "dealer",
        "dealt",
        "hands",
        "stock",
        "discards",
        "squares",
        "to_act",
        "ender",
        "drawn",
        "masks",
    )

    def __init__(self, options: dict, dealer: int, dealt: dict):
        self.options = options
        self.dealer = dealer
        self.dealt = dealt
        self.hands = [[card_index(c) for c in hand] for hand in dealt["hands"]]
        self.stock = [card_index(c) for c in reversed(dealt["stock"])]  # top card last
        self.discards: list[int] = []
        self.squares: list[list[list[int]]] = [[[] for _ in PLACES] for _ in range(SEATS)]
        self.to_act: int | None = (dealer + 1) % SEATS
        self.ender: int | None = None
        self.drawn = False  # the seat to act has drawn: the card is the last of his hand
        # by square: ``targets``, until a lay
        self.masks: list[tuple[list[int], list[int]] | None] = [None, None]

    # -- the interface -------------------------------------------------------------------

    def sums(self) -> list[int]:
        return [square_sum(square) for square in self.squares]

    def may_end(self, seat: int) -> bool:
        return square_sum(self.squares[seat]) >= END_AT

    def places_for(self, seat: int, card: int) -> list[tuple[int, int]]:
        """Every (square, place) where ``seat`` may lay ``card`` now."""
        rank = card % 13
        return [
            (square, place)
            for square in range(SEATS)
            for place in range(9)
            if self.targets(square)[square != seat][rank] >> place & 1
        ]

    def targets(self, square: int) -> tuple[list[int], list[int]]:
        """The rules' table of where a card may be laid, as masks of one square's places by
        rank: when it is the player's own square, and when it is his opponent's. A place is
        free when it is empty or its top card lies face down. An ace to nine: its own place,
        if free, in either square; a 10: any free place of his own square; a jack: face down
        on any laid card, in either square; a queen: the same in his own square only; a
        king: anywhere in his own square. Kept until a card is laid in the square."""
        masks = self.masks[square]
        if masks is None:
            free = laid = 0
            for place, stack in enumerate(self.squares[square]):
                if stack:
                    laid |= 1 << place
                if not stack or stack[-1] & DOWN:
                    free |= 1 << place
            theirs = [free & bit for bit in OWN_BIT]  # an ace to nine: its place, if free
            theirs[JACK] = laid
            own = theirs.copy()
            own[TEN], own[QUEEN], own[KING] = free, laid, ALL_PLACES
            masks = self.masks[square] = (own, theirs)
        return masks

    def legal_actions(self) -> list[dict]:
        seat = self.to_act
        if seat is None:
            return []
        actions: list[dict]
        if self.drawn:  # the drawn card is in his hand: discard or lay one of nine
            actions, cards = [], set(self.hands[seat])
        else:  # a discard or a lay begins with the draw: the top card is his too
            actions = [END_ACTIONS[seat]] if self.may_end(seat) else []
            cards = set(self.hands[seat]) | {self.stock[-1]}
        by_square = [self.targets(square)[square != seat] for square in range(SEATS)]
        discard, lays = DISCARD_ACTIONS[seat], LAYS[seat]
        for card in sorted(cards):  # its discard, then its lays: square 0's, square 1's
            rank = card % 13
            actions.append(discard[card])
            actions += lays[card][0][by_square[0][rank]]
            actions += lays[card][1][by_square[1][rank]]
        return actions

    def parse_action(self, raw) -> tuple:
        """(seat, "end") / (seat, "draw") / (seat, "discard", card) /
        (seat, "lay", card, square, place|None)."""
        seat = require_seat(raw, SEATS)
        keys = set(raw) - {"seat"}
        try:
            if keys == {"end"} and raw["end"] is True:
                return seat, "end"
            if keys == {"draw"} and raw["draw"] is True:
                return seat, "draw"
            if keys == {"discard"}:
                return seat, "discard", card_index(raw["discard"])
            if keys in ({"lay", "square"}, {"lay", "square", "place"}):
                square, place = raw["square"], raw.get("place")
                if type(square) is not int or square not in (0, 1):
                    raise InvalidAction(gettext_noop("square must be 0 or 1"))
                if place is not None and place not in PLACES:
                    raise InvalidAction(gettext_noop("place must be one of A, 2 … 9"))
                return (
                    seat,
                    "lay",
                    card_index(raw["lay"]),
                    square,
                    None if place is None else PLACES.index(place),
                )
        except CardError as exc:
            raise InvalidAction(exc.message, **exc.params) from None
        raise InvalidAction(
            gettext_noop(
                'a leopard action is {"seat": s, "end": true}, {"seat": s, "draw": true}, '
                '{"seat": s, "discard": card} or {"seat": s, "lay": card, "square": q[, "place": '
                "p]}"
            )
        )

    def canonical(self, raw) -> dict:
        """The action as a record writes it: a place only for a 10, J, Q or K. An ace to nine
        named for a place other than its own is refused, not moved to its own."""
        parsed = self.parse_action(raw)
        seat, kind = parsed[0], parsed[1]
        if kind in ("end", "draw"):
            return {"seat": seat, kind: True}
        if kind == "discard":
            return {"seat": seat, "discard": CODES[parsed[2]]}
        card, square, place = parsed[2], parsed[3], parsed[4]
        own = OWN_PLACE[card % 13]
        if own is not None:
            if place not in (None, own):
                raise IllegalAction(
                    gettext_noop("%(card)s may not be laid there."), card=CODES[card]
                )
            return {"seat": seat, "lay": CODES[card], "square": square}
        place = PLACES[place] if place is not None else None
        return {
            "seat": seat,
            "lay": CODES[card],
            "square": square,
            **({"place": place} if place else {}),
        }

    def steps(self) -> list[dict]:
        if self.to_act is None or self.drawn:
            return []
        return [DRAW_ACTIONS[self.to_act]]

    def is_step(self, action: dict) -> bool:
        return "draw" in action

    def check_steps(self, action: dict) -> None:
        if not self.drawn and ("discard" in action or "lay" in action):
            raise IllegalAction(gettext_noop("Draw a card first."))

    def play(self, parsed: tuple) -> None:
        seat, kind = parsed[0], parsed[1]
        if kind == "draw":
            if self.drawn:
                raise AlreadyDone(gettext_noop("You have already drawn."))
            self.hands[seat].append(self.stock.pop())
            self.drawn = True
            return
        if kind == "end":
            if self.drawn:
                raise IllegalAction(gettext_noop("You have drawn: now discard a card or lay one."))
            points = square_sum(self.squares[seat])
            if points < END_AT:
                raise IllegalAction(
                    gettext_noop(
                        "You may end the deal with at least 5 points; you have %(points)s."
                    ),
                    points=points,
                )
            self.ender = seat
            self.to_act = None
            return
        card = parsed[2]
        hand = self.hands[seat]
        if card not in hand and (self.drawn or card != self.stock[-1]):
            raise IllegalAction(gettext_noop("%(card)s is not in your hand."), card=CODES[card])
        if parsed[1] == "lay":
            square, place = parsed[3], parsed[4]
            own = OWN_PLACE[card % 13]
            if own is None and place is None:
                raise IllegalAction(gettext_noop("Name the place for %(card)s."), card=CODES[card])
            target = own if place is None else place
            if not self.targets(square)[square != seat][card % 13] >> target & 1:
                raise IllegalAction(
                    gettext_noop("%(card)s may not be laid there."), card=CODES[card]
                )
        if not self.drawn:  # a record's discard or lay: the draw comes first
            hand.append(self.stock.pop())
        self.drawn = False
        hand.remove(card)
        if parsed[1] == "discard":
            self.discards.append(card)
        else:
            face_down = card % 13 in (JACK, QUEEN)
            self.squares[square][target].append(card | DOWN if face_down else card)
            self.masks[square] = None
        # the deal ends when the last card of the stock has been drawn and played
        self.to_act = None if not self.stock else 1 - seat

    def check_invariants(self) -> None:
        """All 104 cards, each card twice, in the hands, stock, discards or squares; jacks
        and queens lie face down, every other card face up; eight cards in each hand."""
        squares = self.squares
        laid = bytes(chain.from_iterable(squares[0] + squares[1])).translate(LAID_CARD)
        assert 255 not in laid, "only jacks and queens lie face down"
        cards = self.hands[0] + self.hands[1] + self.stock + self.discards
        cards += laid
        cards.sort()
        assert cards == DOUBLE_PACK, "a card is missing or accounted for more than twice"
        drawn = self.to_act if self.drawn else None  # his hand holds the card he drew
        assert len(self.hands[0]) == HAND + (drawn == 0)
        assert len(self.hands[1]) == HAND + (drawn == 1)
        if self.to_act is None and self.ender is None:
            assert not self.stock

    def scores(self) -> list[int] | None:
        if self.to_act is not None:
            return None
        sums = self.sums()
        if self.ender is not None:
            s = sums[self.ender]
            sums[self.ender] = s + (s - END_AT) - 1  # points above five count double
        return sums

    def result(self) -> dict:
        return {"sums": self.sums(), "ender": self.ender, "scores": self.scores()}

    def view(self, seat: int | None) -> LeopardView:
        """What ``seat`` may see: its own hand (with the card it drew, once it has drawn);
        face-down cards show their backs to everyone. ``None``: a spectator."""
        own = seat is not None and seat == self.to_act
        squares: list[list[Place]] = []
        for square in self.squares:
            squares.append(
                [
                    {
                        "place": PLACES[p],
                        "top": None
                        if not stack
                        else (None if stack[-1] & DOWN else CODES[stack[-1]]),
                        "down": bool(stack) and bool(stack[-1] & DOWN),
                        "under": max(len(stack) - 1, 0),
                    }
                    for p, stack in enumerate(square)
                ]
            )
        sums = self.sums()
        hand = [CODES[c] for c in self.hands[seat]] if seat is not None else None
        return {
            "game": "leopard",
            "seat": seat,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "over": self.to_act is None,
            "squares": squares,
            "sums": sums,
            "lines": [square_lines(square) for square in self.squares],
            "counts": [len(h) for h in self.hands],
            "stock": len(self.stock),
            "discards": len(self.discards),
            "discard_top": CODES[self.discards[-1]] if self.discards else None,
            "hand": hand,
            "drawn": hand[-1] if hand is not None and own and self.drawn else None,
            "may_draw": own and not self.drawn,
            "may_end": own and not self.drawn and seat is not None and sums[seat] >= END_AT,
            "end_score": 2 * sums[seat] - END_AT - 1
            if seat is not None and own and sums[seat] >= END_AT
            else None,
            "ender": self.ender,
            "scores": self.scores(),
            "laid": [
                [[None if entry & DOWN else CODES[entry] for entry in stack] for stack in square]
                for square in self.squares
            ],
            "discard_pile": [CODES[c] for c in self.discards],
        }

    def hidden_from(self, seat: int | None) -> set[str]:
        """The other hand, the stock and the faces of face-down cards, less any card of
        which a copy lies open (two packs: a card's twin may be on the table)."""
        laid = [entry for square in self.squares for stack in square for entry in stack]
        hidden = {CODES[c] for other, hand in enumerate(self.hands) if other != seat for c in hand}
        hidden |= {CODES[c] for c in self.stock}
        hidden |= {CODES[e & ~DOWN] for e in laid if e & DOWN}
        public = {CODES[e] for e in laid if not e & DOWN} | {CODES[c] for c in self.discards}
        if seat is not None:
            public |= {CODES[c] for c in self.hands[seat]}
        return hidden - public

    def to_json(self) -> dict:
        return {
            "options": self.options,
            "dealer": self.dealer,
            "dealt": self.dealt,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "discards": list(self.discards),
            "squares": [[list(stack) for stack in square] for square in self.squares],
            "to_act": self.to_act,
            "ender": self.ender,
            "drawn": self.drawn,
        }


RULES = LeopardRules()
