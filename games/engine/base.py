"""The one interface every game's rules engine offers (pure Python, no Django).

A game's ``engine.py`` exposes ``RULES``, a :class:`Rules` (usually a subclass), whose
states are instances of a :class:`State` subclass. The shared parts (reading the options,
dealing, the dealer and hands of a record, the turn check, the record's header) are written
here once; a game writes only what is its own.

Actions are plain dicts in the record format of records.md, ``{"seat": 1, "play": "9H"}``.
A game may also have **steps**: moves of the seat to act that show it something (a draw
shows the drawn card), which a live table takes as screens of their own and a record joins
to the action that follows (see ``State.steps``).
"""

import random
from abc import ABC, abstractmethod
from typing import Protocol, TypedDict

from .cards import CODES, CardError, card_index, codes_of
from .messages import Phrase, Refusal, gettext_noop


class RulesError(Refusal):
    """Base of the engines' refusals.

    ``message`` is an English sentence with %(name)s placeholders, marked for translation;
    ``params`` fill them (``seat`` is a seat number, ``card`` a card code; a param may be a
    message itself, the reason of a refusal that names where it lies), so the web layer can
    show player names and card symbols in the reader's language, and ``str()`` reads well
    in a terminal.
    """


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow now."""


class AlreadyDone(IllegalAction):
    """A step or screen that has already been taken: the sign of a second click."""


class InvalidAction(RulesError):
    """Something that is not an action of this game at all (bad shape, unknown card)."""


class InvalidRecord(RulesError):
    """A document that is not a valid record, or options that are not the game's."""


class InvalidOption(InvalidRecord):
    """Options that break a rule of the game, ``option`` the one at fault (as records name
    it): a form shows the refusal at that option's field, in these words."""

    def __init__(self, option: str, message: str, **params):
        super().__init__(message, **params)
        self.option = option


class View(TypedDict):
    """What one seat (or a spectator, seat None) may see: the keys every game's view has.
    Each game's view adds its own (a ``TypedDict`` of its own)."""

    game: str
    seat: int | None
    dealer: int
    to_act: int | None
    over: bool
    counts: list[int]  # cards in each hand
    hand: list[str] | None  # the seat's own hand; None for a spectator
    scores: list[int] | None  # once the deal is over


class Cycle(TypedDict):
    """How deals are scored together: a cycle of ``length`` deals, or a match until a total
    reaches ``target`` (either may be None)."""

    length: int | None
    target: int | None


# -- the shared parts of reading and dealing --------------------------------------------------


def read_dealer(record: dict, seats: int) -> int:
    dealer = record.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < seats:
        raise InvalidRecord(
            gettext_noop("dealer must be a seat from 0 to %(last)s"), last=seats - 1
        )
    return dealer


def read_cards(cards, what: Phrase, size: int, counts: list[int], copies: int) -> list[str]:
    """A record's list of ``size`` cards as codes ("10h" becomes "TH"); InvalidRecord for
    anything else, or a card more often than the ``copies`` packs hold (``counts`` tallies
    the cards read so far). ``what``: the list's name, for the messages."""
    if not isinstance(cards, list) or len(cards) != size:
        raise InvalidRecord(gettext_noop("%(what)s must hold %(size)s cards"), what=what, size=size)
    codes = []
    for code in cards:
        try:
            card = card_index(code)
        except CardError as exc:
            raise InvalidRecord(
                gettext_noop("%(what)s: %(reason)s"), what=what, reason=exc
            ) from None
        counts[card] += 1
        if counts[card] > copies:
            raise InvalidRecord(
                gettext_noop("%(card)s is dealt twice")
                if copies == 1
                else gettext_noop("%(card)s is dealt three times: there are two packs"),
                card=CODES[card],
            )
        codes.append(CODES[card])
    return codes


def read_hands(
    record: dict, seats: int, size: int, counts: list[int], copies: int = 1
) -> list[list[str]]:
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != seats:
        raise InvalidRecord(gettext_noop("hands must be a list of %(count)s hands"), count=seats)
    return [
        read_cards(hand, Phrase(gettext_noop("%(seat)s's hand"), seat=seat), size, counts, copies)
        for seat, hand in enumerate(hands)
    ]


def require_seat(raw, seats: int) -> int:
    seat = raw.get("seat") if isinstance(raw, dict) else None
    if not isinstance(raw, dict):
        raise InvalidAction(gettext_noop("an action must be a JSON object"))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise InvalidAction(
            gettext_noop("seat must be a number from 0 to %(last)s"), last=seats - 1
        )
    return seat


def deal_out(
    pack: list[int], seats: int, dealer: int, seed: int, per_seat: int | None = None
) -> tuple[list[list[int]], list[int]]:
    """Shuffle ``pack`` by the seed and deal it one card at a time, starting left of the
    dealer: ``per_seat`` cards each (all of them when None). The hands and what is left."""
    random.Random(seed).shuffle(pack)
    dealt = len(pack) if per_seat is None else per_seat * seats
    hands: list[list[int]] = [[] for _ in range(seats)]
    for i in range(dealt):
        hands[(dealer + 1 + i) % seats].append(pack[i])
    return hands, pack[dealt:]


# -- the interface ------------------------------------------------------------------------


class Rules(Protocol):
    """A game's rules: its options, how a deal starts, and its states. The registry checks
    a game's ``RULES`` against it; subclassing it gives the shared parts written here."""

    key: str  # the game as records name it
    option_names: tuple[str, ...] = ()
    # Bumped when ``State.to_json`` changes shape: older snapshots are rebuilt from the log.
    snapshot_format: int = 1

    @abstractmethod
    def seats(self, options: dict) -> int:
        """The number of seats at the table."""

    def parse_options(self, raw) -> dict:
        """The options with every default filled in; InvalidRecord if they are not the
        game's (an omitted or null options object takes every default)."""
        raw = {} if raw is None else raw
        if not isinstance(raw, dict):
            raise InvalidRecord(gettext_noop("options must be a JSON object"))
        unknown = sorted(set(raw) - set(self.option_names))
        if unknown:
            raise InvalidRecord(
                gettext_noop("unknown %(game)s option %(option)s"),
                game=self.key,
                option=repr(unknown[0]),
            )
        return self.read_options(raw)

    @abstractmethod
    def read_options(self, raw: dict) -> dict:
        """``parse_options`` for a dict holding only the game's option names."""

    def cycle(self, options: dict) -> Cycle | None:
        """How the deals are scored together; None: deal after deal, with a running total."""
        return None

    @abstractmethod
    def deal(self, options: dict, dealer: int, seed: int) -> dict:
        """What a shuffled deal gives out, as a record writes it (``{"hands": [...]}`` and
        anything else the game deals); the same for the same seed."""

    @abstractmethod
    def read_dealt(self, record: dict, options: dict) -> dict:
        """``deal``'s part of a record, checked (InvalidRecord)."""

    @abstractmethod
    def start(self, options: dict, dealer: int, dealt: dict) -> "State":
        """The state before the first action."""

    @abstractmethod
    def from_json(self, data: dict) -> "State":
        """A state back from ``State.to_json()`` (the snapshot cache)."""

    def new_deal(self, options: dict, dealer: int, seed: int) -> "State":
        return self.start(options, dealer, self.deal(options, dealer, seed))

    def from_record(self, record: dict) -> "State":
        """The state before the first action of a deal record (checked)."""
        options = self.parse_options(record.get("options"))
        dealer = read_dealer(record, self.seats(options))
        return self.start(options, dealer, self.read_dealt(record, options))


class State(ABC):
    """One deal as it stands. ``to_act`` is the seat to act, None once the deal is over."""

    __slots__ = ()
    key: str  # the game as records name it
    card_keys: tuple[str, ...] = ("play",)  # the keys of an action whose values are cards
    # What a snapshot keeps beside the options, the dealer and the deal: the attributes
    # ``to_json`` writes, in its order (``Rules.from_json`` reads them back).
    snapshot_keys: tuple[str, ...] = ()
    options: dict
    dealer: int
    dealt: dict
    to_act: int | None

    def is_over(self) -> bool:
        return self.to_act is None

    def check_turn(self, seat: int) -> None:
        if self.to_act is None:
            raise IllegalAction(gettext_noop("The deal is over."))
        if seat != self.to_act:
            raise IllegalAction(
                gettext_noop("It is not your turn: %(seat)s is to act."), seat=self.to_act
            )

    def apply(self, action: dict) -> None:
        """Apply an action or a step, or refuse it (IllegalAction, InvalidAction) and change
        nothing."""
        parsed = self.parse_action(action)
        self.check_turn(parsed[0])
        self.play(parsed)

    @abstractmethod
    def parse_action(self, raw) -> tuple:
        """The action checked for shape only, as a tuple whose first item is the seat;
        InvalidAction if it is not an action of this game."""

    @abstractmethod
    def play(self, parsed: tuple) -> None:
        """Apply a parsed action of the seat to act (the rules; mutates)."""

    @abstractmethod
    def legal_actions(self) -> list[dict]:
        """Every action of the seat to act, as a record writes it (a step's action too:
        before the step, such an action begins with it); after a step, what may follow."""

    @abstractmethod
    def canonical(self, raw) -> dict:
        """The action as a record writes it ("9h" becomes "9H")."""

    def steps(self) -> list[dict]:
        """The steps the seat to act may take now (most games have none)."""
        return []

    def is_step(self, action: dict) -> bool:
        """A step shows its seat something: the log keeps it, a take-back never undoes it,
        and a record leaves it out (the action after it begins with it)."""
        return False

    def check_steps(self, action: dict) -> None:
        """At a table each step is a screen of its own: IllegalAction for an action that
        begins with a step not yet taken. (A record joins them: replay does not ask.)"""
        return None  # most games have no steps

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (its own hand only); None is a spectator: no hand."""

    @abstractmethod
    def hidden_from(self, seat: int | None) -> set[str]:
        """The cards ``seat`` (None: a spectator) must not be shown: the other hands and
        anything face down, less any card of which a copy lies in its view."""

    def held_from(self, seat: int | None) -> set[str]:
        """The cards of which ``seat`` (None: a spectator) must not learn that another seat
        holds one: those hidden from it, and every card of another hand (a copy in view
        does not tell whether its twin is held). A take-back puts a card back into its
        hand: the log may name it only to whom it is not held from."""
        seats = len(self.view(None)["counts"])
        others = (self.view(other)["hand"] or () for other in range(seats) if other != seat)
        return self.hidden_from(seat).union(*others)

    @abstractmethod
    def result(self) -> dict:
        """The result as records.md lists it for the game (``scores`` once it is over)."""

    @abstractmethod
    def check_invariants(self) -> None:
        """AssertionError if the state breaks a rule that must always hold."""

    def to_json(self) -> dict:
        """Everything needed to carry on: ``Rules.from_json`` reads it back. The options, the
        dealer, the deal and each attribute of ``snapshot_keys``, its tuples and lists (at any
        depth) written as lists; a state that keeps anything else writes its own."""
        if not self.snapshot_keys:
            raise NotImplementedError(f"{type(self).__name__} names no snapshot_keys")
        kept = {name: as_json(getattr(self, name)) for name in self.snapshot_keys}
        return {"options": self.options, "dealer": self.dealer, "dealt": self.dealt, **kept}

    def record(self) -> dict:
        """The deal's record without its actions."""
        return {"game": self.key, "options": self.options, "dealer": self.dealer, **self.dealt}


class HiddenHands(State):
    """A state of one pack whose hands are bit masks (bit n: the card ``CODES[n]``) and
    whose only hidden cards are the other seats' hands: nothing lies face down, and no card
    has a twin that a seat could see."""

    __slots__ = ()
    hands: list[int]

    def hidden_from(self, seat: int | None) -> set[str]:
        return {
            code
            for other, hand in enumerate(self.hands)
            if other != seat
            for code in codes_of(hand)
        }


def as_json(value):
    """A snapshot's value as JSON reads back: a tuple or a list a list, all the way down."""
    if isinstance(value, tuple | list):
        return [as_json(item) for item in value]
    return value
