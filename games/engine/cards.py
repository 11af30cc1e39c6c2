"""Cards as the rules write them: rank then suit, "TD" is the ten of diamonds.

Inside the engines a card of one pack is an int 0..51, ``suit * 13 + rank``, where rank 0 is
the two and 12 the ace, so that sets of cards are bit masks and comparisons are integer ones.
"""

from .messages import Refusal, gettext_noop

RANKS = "23456789TJQKA"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

CODES = tuple(rank + suit for suit in SUITS for rank in RANKS)
INDEX = {code: i for i, code in enumerate(CODES)}
FULL_PACK = (1 << 52) - 1


class CardError(Refusal, ValueError):
    """Not a card: ``message`` and ``params`` as the engines' refusals carry them."""


def card_index(code) -> int:
    """The int of a card written "9H" (or "10H", any case); CardError for anything else."""
    card = INDEX.get(code) if type(code) is str else None
    if card is not None:  # written as the records write it: the usual case, made quick
        return card
    if not isinstance(code, str):
        raise CardError(gettext_noop("not a card: %(value)s"), value=repr(code))
    text = code.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    try:
        return INDEX[text]
    except KeyError:
        raise CardError(gettext_noop("unknown card %(value)s"), value=repr(code)) from None


def rank_index(rank) -> int:
    """The int of a rank written "8", "T" or "10"; CardError for anything else."""
    text = str(rank).strip().upper()
    if text == "10":
        text = "T"
    if len(text) != 1 or text not in RANKS:
        raise CardError(gettext_noop("unknown rank %(value)s"), value=repr(rank))
    return RANKS.index(text)


def cards_of(mask: int) -> list[int]:
    """The cards of a bit mask, lowest int first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def codes_of(mask: int) -> list[str]:
    return [CODES[c] for c in cards_of(mask)]


def sort_for_hand(codes) -> list[str]:
    """Suits in the order S H C D (colours alternate), high rank first, as a hand is held."""
    order = {"S": 0, "H": 1, "C": 2, "D": 3}
    return sorted(codes, key=lambda c: (order[c[1]], -RANKS.index(c[0])))
