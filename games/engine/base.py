"""The one interface every game's rules engine offers (pure Python, no Django).

A game module exposes ``RULES``, an object with:

- ``name``: "fantan", "variety" or "leopard";
- ``seats(options)``: the number of seats;
- ``parse_options(raw)``: the options with every default filled in; ``InvalidRecord`` if bad;
- ``cycle(options)``: how the deals scored together end, ``{"length": n, "target": t}``
  (Выборы' cycle, Леопард's match; either may be None), or None: deal after deal;
- ``new_deal(options, dealer, seed)``: a shuffled deal, the same for the same seed;
- ``from_record(record)``: the state before the first action of a deal record (checked);
- ``from_json(data)``: a state back from ``state.to_json()`` (the snapshot cache).

A state offers ``to_act`` (the seat to act, or None once the deal is over), ``is_over()``,
``legal_actions()``, ``parse_action(raw)`` (shape only), ``canonical(raw)`` (the action as a
record writes it), ``has_stock`` and ``draws(action)`` (the action begins by drawing from
the stock, so the screen shows the drawn card before the rest of the turn), ``apply(action)``
(rules; mutates), ``view(seat, drawn=False)`` (what one seat, or a spectator for None, may
see; ``drawn``: the seat has drawn and may see that card), ``result()``,
``check_invariants()``, ``record()`` (the record header without actions) and ``to_json()``.

Actions are plain dicts in the record format of records.md, ``{"seat": 1, "play": "9H"}``.
"""

from .cards import CODES, CardError, card_index


def gettext_noop(message: str) -> str:
    """Marks a message for translation (makemessages finds it); the web layer translates."""
    return message


class RulesError(Exception):
    """Base of the engines' refusals.

    ``message`` is an English sentence with %(name)s placeholders, marked for translation;
    ``params`` fill them (``seat`` is a seat number, ``card`` a card code), so the web layer
    can show player names and card symbols in the reader's language, and ``str()`` reads well
    in a terminal.
    """

    def __init__(self, message: str, **params):
        super().__init__(message)
        self.message = message
        self.params = params

    def __str__(self) -> str:
        shown = {k: f"seat {v}" if k == "seat" else v for k, v in self.params.items()}
        return self.message % shown if shown else self.message


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow now."""


class InvalidAction(RulesError):
    """Something that is not an action of this game at all (bad shape, unknown card)."""


class InvalidRecord(RulesError):
    """A document that is not a valid record, or options that are not the game's."""


def read_dealer(record: dict, seats: int) -> int:
    dealer = record.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < seats:
        raise InvalidRecord(f"dealer must be a seat from 0 to {seats - 1}")
    return dealer


def read_cards(cards, what: str, size: int, counts: list[int], copies: int) -> list[str]:
    """A record's list of ``size`` cards as codes ("10h" becomes "TH"); InvalidRecord for
    anything else, or a card more often than the ``copies`` packs hold (``counts`` tallies
    the cards read so far)."""
    if not isinstance(cards, list) or len(cards) != size:
        raise InvalidRecord(f"{what} must hold {size} cards")
    codes = []
    for code in cards:
        try:
            card = card_index(code)
        except CardError as exc:
            raise InvalidRecord(f"{what}: {exc}") from None
        counts[card] += 1
        if counts[card] > copies:
            raise InvalidRecord(f"{CODES[card]} is dealt twice" if copies == 1 else
                                f"{CODES[card]} is dealt three times: there are two packs")
        codes.append(CODES[card])
    return codes


def read_hands(record: dict, seats: int, size: int, counts: list[int],
               copies: int = 1) -> list[list[str]]:
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != seats:
        raise InvalidRecord(f"hands must be a list of {seats} hands")
    return [read_cards(hand, f"seat {seat}'s hand", size, counts, copies)
            for seat, hand in enumerate(hands)]


def require_seat(raw, seats: int) -> int:
    seat = raw.get("seat") if isinstance(raw, dict) else None
    if not isinstance(raw, dict):
        raise InvalidAction("an action must be a JSON object")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise InvalidAction(f"seat must be a number from 0 to {seats - 1}")
    return seat
