"""A duplicate round's deals, pure Python: deal k of a group of tables of n seats follows from
the tournament's seed, the round, n and k alone, never from who sits where, so a round's
deals are known before it is seated and are the same on any machine. Deal k is dealt by seat
(k − 1) mod n, and the game's own ``Rules.deal`` gives out the cards."""

import hashlib
from dataclasses import dataclass

from games import registry

SUITS = "SHDC"  # a hand record's order: ♠ ♥ ♦ ♣, each high to low
RANKS = "AKQJT98765432"


@dataclass(frozen=True)
class DuplicateDeal:
    """Deal ``number`` (from 1) of a group: its dealer and what it gives out, as a record
    writes it (``hands``, and Леопард's ``stock``, top card first)."""

    number: int
    dealer: int
    dealt: dict


def deal_seed(seed: int, round_number: int, seats: int, number: int) -> int:
    """The shuffle's seed of one deal: a digest, so that neighbouring rounds, sizes and
    deals get unrelated packs; of 62 bits, as a table's own seeds, which a deal stores in a
    signed 64-bit field."""
    text = f"duplicate:{seed}:{round_number}:{seats}:{number}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 2


def round_deals(
    game: str, options: dict, *, seed: int, round_number: int, seats: int, count: int
) -> list[DuplicateDeal]:
    """The ``count`` deals of a round's group of tables of ``seats`` seats, with the table
    options of that size: what a table dealt ``deal_seeds`` of them is dealt."""
    rules = registry.rules(game)
    options = rules.parse_options(options)
    return [
        DuplicateDeal(
            number,
            (number - 1) % seats,
            rules.deal(options, (number - 1) % seats, deal_seed(seed, round_number, seats, number)),
        )
        for number in range(1, count + 1)
    ]


def deal_seeds(seed: int, round_number: int, seats: int, count: int) -> list[int]:
    """The seeds of a group's ``count`` deals, as a table played here is given them."""
    return [deal_seed(seed, round_number, seats, number) for number in range(1, count + 1)]


def by_suit(hand: list[str]) -> dict[str, list[str]]:
    """A hand as a hand record shows it: its cards by suit, each suit high to low."""
    return {
        suit: sorted((c for c in hand if c[1] == suit), key=lambda c: RANKS.index(c[0]))
        for suit in SUITS
    }
