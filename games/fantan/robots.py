"""Фантан's robot players (pure Python): beginner, club and strong (see games/engine/robots.py).

The club robot plays as a good club player does: it lays the card that opens the way to its
own cards, and holds back the cards that only open the way to other players' cards (a seven
that would free six cards it does not hold is a wall: keep it as long as the rules allow).
The strong robot searches with the club robot as its play-out policy, over deals consistent
with what its seat has seen (the rows, every hand's size, and the cards each seat proved it
lacked by passing).
"""

import random

from games.engine.cards import CODES, card_index
from games.engine.robots import Beginner, MonteCarlo, Robot, deal_unseen

from .engine import RULES, FantanState

SUIT = [((1 << 13) - 1) << (13 * suit) for suit in range(4)]
BELOW = [(1 << card) - 1 for card in range(52)]  # the lower cards of the pack, as a mask


def mask(codes) -> int:
    return sum(1 << card_index(code) for code in codes)


def rows_of(view) -> tuple[int, list[int], list[int]]:
    """The cards on the table as a mask, and each row's lowest and highest rank (-1: none)."""
    table, lo, hi = 0, [-1] * 4, [-1] * 4
    for suit, row in enumerate(view["rows"]):
        if row["cards"]:
            table |= mask(row["cards"])
            lo[suit] = card_index(row["cards"][0]) % 13
            hi[suit] = card_index(row["cards"][-1]) % 13
    return table, lo, hi


def beyond(card: int, lo: int) -> int:
    """The cards of ``card``'s suit that laying it brings nearer: below it if it extends its
    row down (or opens it: then both ways), above it if it extends the row up."""
    suit, rank = divmod(card, 13)
    below = BELOW[card] & SUIT[suit]
    above = SUIT[suit] & ~below & ~(1 << card)
    if lo < 0:
        return below | above
    return below if rank < lo else above


def club_card(cards: int, hand: int, unseen: int, lo: list[int]) -> int:
    """The card a club player lays of the playable ``cards``: the one that brings most of
    his own cards nearer, and fewest of the others'."""
    best, best_score = -1, None
    while cards:
        low = cards & -cards
        card = low.bit_length() - 1
        cards ^= low
        ahead = beyond(card, lo[card // 13])
        mine = (ahead & hand).bit_count()
        theirs = (ahead & unseen).bit_count()
        # the nearest own card behind this one counts most: fewer cards to wait for
        score = 2.0 * mine - 0.6 * theirs + (0.5 if mine and not theirs else 0.0)
        if best_score is None or score > best_score:
            best, best_score = card, score
    return best


class Club(Robot):
    strength = "club"

    def choose(self, view, legal, rng):
        plays = [action for action in legal if "play" in action]
        if not plays:
            return legal[0]
        table, lo, _ = rows_of(view)
        hand = mask(view["hand"])
        pack = RULES_PACK[len(view["counts"])]
        card = club_card(mask(action["play"] for action in plays), hand,
                         pack & ~table & ~hand, lo)
        return {"seat": view["seat"], "play": CODES[card]}


RULES_PACK = {n: sum(1 << c for c in RULES.pack({"players": n})) for n in (3, 4)}


def sample_state(view, rng: random.Random) -> FantanState:
    """A whole deal consistent with ``view``: the unseen cards dealt at random to the other
    seats, as many as each holds, none to a seat that proved it lacks the card."""
    seat, counts = view["seat"], view["counts"]
    options = view["options"]
    table, lo, hi = rows_of(view)
    hand = mask(view["hand"])
    unseen = [card for card in range(52) if (RULES_PACK[len(counts)] & ~table & ~hand) >> card & 1]
    missing = [mask(codes) for codes in view["missing"]]
    hands = deal_unseen(unseen, counts, seat, hand, missing, rng)
    state = FantanState(options, view["dealer"], {"hands": [[] for _ in counts]})
    state.hands = hands
    state.lo, state.hi = lo, hi
    playable = 0
    start = card_index(view["start_rank"] + "S") % 13
    for suit in range(4):
        if lo[suit] < 0:
            playable |= 1 << (13 * suit + start)
        else:
            if lo[suit] > 0:
                playable |= 1 << (13 * suit + lo[suit] - 1)
            if hi[suit] < 12:
                playable |= 1 << (13 * suit + hi[suit] + 1)
    state.playable = playable
    state.to_act = view["to_act"]
    state.extra = view["extra"]
    state.finish_order = list(view["finish_order"])
    state.missing = missing
    return state


def value(state: FantanState, seat: int) -> float:
    """A play-out's worth to ``seat``: its score, and a little for each card fewer."""
    scores = state.scores() if state.is_over() else [0] * state.n
    return scores[seat] - 0.04 * state.hands[seat].bit_count()


def fast_club(state: FantanState) -> dict:
    """The club robot's action in a play-out, read from the state of a sampled deal rather
    than built into a view and read back (a play-out is the robot's own imagined deal)."""
    seat = state.to_act
    hand = state.hands[seat]
    cards = hand & state.playable
    if not cards:
        return {"seat": seat, "pass": True}
    unseen = state.pack_mask & ~state.rows_mask() & ~hand
    return {"seat": seat, "play": CODES[club_card(cards, hand, unseen, state.lo)]}


def finish_club(state: FantanState) -> None:
    """A play-out to the end of the deal with the club robot at every seat, on the state's
    masks directly (what :func:`fast_club` and ``apply`` do, without the actions)."""
    hands, pack, lo = state.hands, state.pack_mask, state.lo
    table = state.rows_mask()
    while state.to_act is not None:
        seat = state.to_act
        hand = hands[seat]
        cards = hand & state.playable
        if not cards:
            if not state.extra:
                state.missing[seat] |= state.playable
            state.extra = False
            state._advance()
            continue
        card = club_card(cards, hand, pack & ~table & ~hand, lo)
        table |= 1 << card
        state._lay(seat, card, 1 << card)


def strong(samples: int | None = None, budget: float | None = None) -> MonteCarlo:
    """The strong robot: ``samples`` deals a move, or as many as fit in ``budget`` seconds."""
    kwargs = {} if budget is None else {"budget": budget}
    return MonteCarlo(rules=RULES, sample=sample_state, policy=Club(), fast=fast_club, value=value,
                      samples=samples, prior=PRIOR, finish=finish_club, **kwargs)


# The search leaves the club player's card only when a tenth more of the sampled deals say so:
# most deals come out the same whichever card is laid, and the few that differ are noisy (200
# deals, one strong against three club at 40 samples a move: 32% won with it, 23.5% without).
PRIOR = 0.1


MEASURE = "won"  # what a duel counts: deals won, or points a deal
ROBOTS = {"beginner": Beginner, "club": Club, "strong": strong}
