"""Фантан (Fan-Tan, card dominoes), as docs/rules/fantan.md specifies it.

Hands and the table are bit masks of card ints (see games/engine/cards.py); ``playable`` is
the mask of every card that may be laid next (the start-rank card of each unopened suit and
the cards just outside each row), so a seat's legal cards are one AND away.
"""

from games.engine.base import (
    HiddenHands,
    IllegalAction,
    InvalidAction,
    InvalidOption,
    InvalidRecord,
    Rules,
    View,
    deal_out,
    gettext_noop,
    read_hands,
    require_seat,
)
from games.engine.cards import CODES, RANKS, CardError, card_index, cards_of, codes_of, rank_index

TWO_OF_CLUBS = card_index("2C")
SCORINGS = ("win", "premiums", "cards")
MOST_PREMIUM = 10_000  # either way: far beyond Кинг's 800, and a sheet's points stay small
PREMIUM_RANGE = (
    gettext_noop("The first premium must be a whole number from %(least)s to %(most)s."),
    gettext_noop("The second premium must be a whole number from %(least)s to %(most)s."),
)


class FantanView(View):
    extra: bool  # the seat may lay one more card, or stop
    rows: list[dict]  # per suit: {"suit": "S", "cards": [codes, low to high]}
    start_rank: str
    finish_order: list[int]
    playable: list[str]
    can_pass: bool
    options: dict  # the table's options, agreed before the deal
    missing: list[list[str]]  # per seat: cards it proved not to hold by passing (public)
    history: list[dict]  # every action so far, as a record writes it (the log shows them all)


class FantanRules(Rules):
    key = "fantan"
    option_names = (
        "players",
        "start_rank",
        "ace_extra",
        "two_extra",
        "until_out",
        "premiums",
        "scoring",
    )
    snapshot_format = 3  # ``history`` joined the state

    def seats(self, options) -> int:
        return options["players"]

    def read_options(self, raw: dict) -> dict:
        players = raw.get("players", 4)
        if type(players) is not int or players not in (3, 4):  # not 4.0, not true
            raise InvalidRecord(gettext_noop("players must be 3 or 4"))
        try:
            start_rank = RANKS[rank_index(raw.get("start_rank", "8"))]
        except CardError as exc:
            raise InvalidRecord(gettext_noop("start_rank: %(reason)s"), reason=exc) from None
        if players == 3 and start_rank == "2":  # the clubs row could never open: no end
            raise InvalidOption(
                "start_rank",
                gettext_noop(
                    "Three players play without the two of clubs, so the rows cannot start with "
                    "a two."
                ),
            )
        flags = {}
        for name in ("ace_extra", "two_extra"):
            flags[name] = raw.get(name, False)
            if not isinstance(flags[name], bool):
                raise InvalidRecord(gettext_noop("%(name)s must be true or false"), name=name)
        until_out = raw.get("until_out", 1)
        if type(until_out) is not int or until_out not in (1, 2):
            raise InvalidRecord(gettext_noop("until_out must be 1 or 2"))
        premiums = raw.get("premiums", [800, 500])
        if (
            not isinstance(premiums, list)
            or len(premiums) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in premiums)
        ):
            raise InvalidRecord(gettext_noop("premiums must be a list of two whole numbers"))
        for premium, refusal in zip(premiums, PREMIUM_RANGE, strict=True):
            if not -MOST_PREMIUM <= premium <= MOST_PREMIUM:
                raise InvalidOption("premiums", refusal, least=-MOST_PREMIUM, most=MOST_PREMIUM)
        scoring = raw.get("scoring", "win" if until_out == 1 else "premiums")
        if scoring not in SCORINGS:
            raise InvalidRecord(
                gettext_noop("scoring must be one of %(names)s"), names=", ".join(SCORINGS)
            )
        return {
            "players": players,
            "start_rank": start_rank,
            **flags,
            "until_out": until_out,
            "premiums": list(premiums),
            "scoring": scoring,
        }

    def pack(self, options) -> list[int]:
        cards = list(range(52))
        if options["players"] == 3:
            cards.remove(TWO_OF_CLUBS)
        return cards

    def deal(self, options, dealer: int, seed: int) -> dict:
        hands, _ = deal_out(self.pack(options), options["players"], dealer, seed)
        return {"hands": [[CODES[c] for c in sorted(hand)] for hand in hands]}

    def read_dealt(self, record: dict, options: dict) -> dict:
        n = options["players"]
        counts = [0] * 52
        hands = read_hands(record, n, len(self.pack(options)) // n, counts)
        if n == 3 and counts[TWO_OF_CLUBS]:
            raise InvalidRecord(gettext_noop("the two of clubs is out of a three-player pack"))
        return {"hands": hands}

    def start(self, options, dealer: int, dealt: dict) -> "FantanState":
        return FantanState(options, dealer, dealt)

    def from_json(self, data: dict) -> "FantanState":
        state = FantanState(data["options"], data["dealer"], data["dealt"])
        state.hands = list(data["hands"])
        state.lo = list(data["lo"])
        state.hi = list(data["hi"])
        state.playable = data["playable"]
        state.to_act = data["to_act"]
        state.extra = data["extra"]
        state.finish_order = list(data["finish_order"])
        state.missing = list(data["missing"])
        state.history = [tuple(entry) for entry in data["history"]]
        return state


class FantanState(HiddenHands):
    key = "fantan"
    snapshot_keys = (
        "hands",
        "lo",
        "hi",
        "playable",
        "to_act",
        "extra",
        "finish_order",
        "missing",
        "history",
    )
    # the snapshot's attributes, and what is read again from the options, the deal or them
    __slots__ = (
        "options",
        "n",
        "dealer",
        "dealt",
        *snapshot_keys,
        "start",
        "extra_ranks",
        "until_out",
        "pack_mask",
    )

    def __init__(self, options: dict, dealer: int, dealt: dict):
        self.options = options
        self.n = options["players"]
        self.dealer = dealer
        self.dealt = dealt
        self.hands = [sum(1 << card_index(c) for c in hand) for hand in dealt["hands"]]
        self.pack_mask = sum(1 << c for c in RULES.pack(options))
        self.start = RANKS.index(options["start_rank"])
        self.extra_ranks = frozenset(
            rank for rank, on in ((12, options["ace_extra"]), (0, options["two_extra"])) if on
        )
        self.until_out = options["until_out"]
        self.lo = [-1, -1, -1, -1]
        self.hi = [-1, -1, -1, -1]
        self.playable = sum(1 << (suit * 13 + self.start) for suit in range(4))
        self.to_act = (dealer + 1) % self.n
        self.extra = False
        self.finish_order: list[int] = []
        # by seat, the cards it has proved it does not hold: every card that was playable when
        # it passed without an extra card to stop (it can never get one later)
        self.missing = [0] * self.n
        self.history: list[tuple[int, int]] = []  # (seat, card), card -1 for a pass

    # -- the interface -------------------------------------------------------------------

    def legal_actions(self) -> list[dict]:
        seat = self.to_act
        if seat is None:
            return []
        actions = [
            {"seat": seat, "play": CODES[c]} for c in cards_of(self.hands[seat] & self.playable)
        ]
        if self.extra or not actions:
            actions.append({"seat": seat, "pass": True})
        return actions

    def parse_action(self, raw) -> tuple[int, int | None]:
        """(seat, card) for a play, (seat, None) for a pass; InvalidAction if malformed."""
        seat = require_seat(raw, self.n)
        keys = set(raw) - {"seat"}
        if keys == {"pass"} and raw["pass"] is True:
            return seat, None
        if keys == {"play"}:
            try:
                return seat, card_index(raw["play"])
            except CardError as exc:
                raise InvalidAction(exc.message, **exc.params) from None
        raise InvalidAction(
            gettext_noop(
                'a fantan action is {"seat": s, "play": card} or {"seat": s, "pass": true}'
            )
        )

    def canonical(self, raw) -> dict:
        """The action as a record writes it ("9h" becomes "9H")."""
        seat, card = self.parse_action(raw)
        return {"seat": seat, "pass": True} if card is None else {"seat": seat, "play": CODES[card]}

    def play(self, parsed: tuple[int, int | None]) -> None:
        seat, card = parsed
        hand = self.hands[seat]
        if card is None:
            if not self.extra and hand & self.playable:
                raise IllegalAction(
                    gettext_noop("You have a card you can play, so you may not pass.")
                )
            if not self.extra:
                self.missing[seat] |= self.playable
            self.history.append((seat, -1))
            self.extra = False
            self._advance()
            return
        bit = 1 << card
        if not hand & bit:
            raise IllegalAction(gettext_noop("%(card)s is not in your hand."), card=CODES[card])
        if not self.playable & bit:
            raise IllegalAction(gettext_noop("%(card)s cannot be laid now."), card=CODES[card])
        self.history.append((seat, card))
        self._lay(seat, card, bit)

    def _lay(self, seat: int, card: int, bit: int) -> None:
        self.hands[seat] ^= bit
        self.playable ^= bit
        suit, rank = divmod(card, 13)
        lo = self.lo[suit]
        if lo < 0 or rank < lo:
            self.lo[suit] = rank
            if rank > 0:
                self.playable |= bit >> 1
        if lo < 0 or rank > self.hi[suit]:
            self.hi[suit] = rank
            if rank < 12:
                self.playable |= bit << 1
        if not self.hands[seat]:
            self.finish_order.append(seat)
            if len(self.finish_order) >= self.until_out:
                self.to_act = None
                self.extra = False
                return
        elif rank in self.extra_ranks:
            self.extra = True  # the same seat may lay one more card, or stop
            return
        self.extra = False
        self._advance()

    def _advance(self) -> None:
        seat = self.to_act
        assert seat is not None, "the turn passes on only while the deal goes on"
        for _ in range(self.n):
            seat = (seat + 1) % self.n
            if self.hands[seat]:
                self.to_act = seat
                return
        raise AssertionError("nobody holds a card but the deal is not over")

    def rows_mask(self) -> int:
        mask = 0
        for suit in range(4):
            lo = self.lo[suit]
            if lo >= 0:
                mask |= ((1 << (self.hi[suit] - lo + 1)) - 1) << (suit * 13 + lo)
        return mask

    def check_invariants(self) -> None:
        """Every card of the pack is in exactly one hand or on the table; scores add up."""
        rows = self.rows_mask()
        union = rows
        count = rows.bit_count()
        for hand in self.hands:
            union |= hand
            count += hand.bit_count()
        assert union == self.pack_mask and count == self.pack_mask.bit_count(), (
            "a card is missing or accounted for twice"
        )
        for seat in self.finish_order:
            assert not self.hands[seat], "a seat that went out still holds cards"
        if self.to_act is not None:
            assert self.hands[self.to_act], "the seat to act has no cards"
            assert len(self.finish_order) < self.until_out
        else:
            assert len(self.finish_order) == self.until_out
            scores = self.scores()
            if self.options["scoring"] == "win":
                assert sorted(scores) == [0] * (self.n - 1) + [1]
            elif self.options["scoring"] == "cards":
                assert sum(scores) == 0 and scores[self.finish_order[0]] >= 0

    def scores(self) -> list[int]:
        order = self.finish_order
        scoring = self.options["scoring"]
        scores = [0] * self.n
        if scoring == "win":
            scores[order[0]] = 1
        elif scoring == "premiums":
            for seat, premium in zip(order, self.options["premiums"], strict=False):
                scores[seat] = premium
        else:
            for seat in range(self.n):
                if seat != order[0]:
                    scores[seat] = -self.hands[seat].bit_count()
            scores[order[0]] = -sum(scores)
        return scores

    def result(self) -> dict:
        return {
            "finish_order": list(self.finish_order),
            "cards_left": [codes_of(hand) for hand in self.hands],
            "scores": self.scores() if self.to_act is None else None,
        }

    def view(self, seat: int | None) -> FantanView:
        """What ``seat`` may see (its own hand only); ``None`` is a spectator: no hand."""
        to_act = self.to_act
        own = seat is not None and seat == to_act
        hand = codes_of(self.hands[seat]) if seat is not None else None
        legal = codes_of(self.hands[seat] & self.playable) if seat is not None and own else []
        return {
            "game": "fantan",
            "seat": seat,
            "dealer": self.dealer,
            "to_act": to_act,
            "over": to_act is None,
            "extra": self.extra and own,
            "rows": [
                {
                    "suit": "SHDC"[suit],
                    "cards": [CODES[suit * 13 + r] for r in range(self.lo[suit], self.hi[suit] + 1)]
                    if self.lo[suit] >= 0
                    else [],
                }
                for suit in range(4)
            ],
            "start_rank": self.options["start_rank"],
            "counts": [hand.bit_count() for hand in self.hands],
            "finish_order": list(self.finish_order),
            "hand": hand,
            "playable": legal,
            "can_pass": own and (self.extra or not legal),
            "missing": [codes_of(mask) for mask in self.missing],
            "history": [
                {"seat": s, "pass": True} if c < 0 else {"seat": s, "play": CODES[c]}
                for s, c in self.history
            ],
            "options": self.options,
            "scores": self.scores() if to_act is None else None,
        }


RULES = FantanRules()
