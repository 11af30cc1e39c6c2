"""Фантан's robot players (pure Python): beginner, club and strong (see games/engine/robots.py).

The club robot plays as a good club player does: it lays the card that opens the way to its
own cards, and holds back the cards that only open the way to other players' cards (a seven
that would free six cards it does not hold is a wall: keep it as long as the rules allow).
The strong robot searches with the club robot as its play-out policy, over deals consistent
with what its seat has seen (the rows, every hand's size, and the cards each seat proved it
lacked by passing).
"""

import math
import random

from games.engine.cards import CODES, card_index, cards_of
from games.engine.robots import Beginner, MonteCarlo, Robot, Target, deal_unseen

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


def club_score(mine: int, theirs: int) -> float:
    """How much a club player likes a card that brings ``mine`` of his own cards and
    ``theirs`` of the others' nearer."""
    return 2.0 * mine - 0.6 * theirs + (0.5 if mine and not theirs else 0.0)


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
        score = club_score(mine, theirs)
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
        card = club_card(mask(action["play"] for action in plays), hand, pack & ~table & ~hand, lo)
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
    state.history = [
        (entry["seat"], card_index(entry["play"]) if "play" in entry else -1)
        for entry in view["history"]
    ]
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
            state.history.append((seat, -1))
            state.extra = False
            state._advance()
            continue
        card = club_card(cards, hand, pack & ~table & ~hand, lo)
        state.history.append((seat, card))
        table |= 1 << card
        state._lay(seat, card, 1 << card)


def strong(samples: int | None = None, budget: float | None = None) -> MonteCarlo:
    """The strong robot: ``samples`` deals a move, or as many as fit in ``budget`` seconds."""
    kwargs = {} if budget is None else {"budget": budget}
    return Strong(samples=samples, **kwargs)


# The search leaves the club player's card only when a tenth more of the sampled deals say so:
# most deals come out the same whichever card is laid, and the few that differ are noisy (200
# deals, one strong against three club at 40 samples a move: 32% won with it, 23.5% without).
PRIOR = 0.1


MEASURE = "won"  # what a duel counts: deals won, or points a deal
TARGETS = (Target(("strong", "club", "club", "club"), 1000, ("won", "strong", 0.33)),)
BENCH_SAMPLES = 150
ROBOTS = {"beginner": Beginner, "club": Club, "strong": strong}


# -- reading the other seats' plays -----------------------------------------------------------

TEMPERATURE = 0.25  # how firmly a sensible player takes the card the club rule scores best


def plays_read(view) -> list[list[tuple]]:
    """By seat, each play another seat made (from the public history): its card, the cards
    then playable with the cards each would have brought nearer, and the cards the seat laid
    from then on (its hand then was its hand now and those)."""
    n = len(view["counts"])
    pack = RULES_PACK[n]
    start = card_index(view["start_rank"] + "S") % 13
    lo, hi = [-1] * 4, [-1] * 4
    playable = sum(1 << (13 * suit + start) for suit in range(4))
    plays: list[list[tuple]] = [[] for _ in range(n)]
    for entry in view["history"]:
        if "play" not in entry:
            continue
        seat, card = entry["seat"], card_index(entry["play"])
        if seat != view["seat"]:
            options = []
            rest = playable
            while rest:
                low = rest & -rest
                rest ^= low
                other = low.bit_length() - 1
                ahead = beyond(other, lo[other // 13]) & pack
                options.append((low, ahead, ahead.bit_count()))
            plays[seat].append([card, options, 0])
        for earlier in plays[seat]:
            earlier[2] |= 1 << card
        suit, rank = divmod(card, 13)
        playable &= ~(1 << card)
        if lo[suit] < 0 or rank < lo[suit]:
            lo[suit] = rank
            if rank > 0:
                playable |= 1 << (card - 1)
        if hi[suit] < 0 or rank > hi[suit]:
            hi[suit] = rank
            if rank < 12:
                playable |= 1 << (card + 1)
    return plays


def likelihood(plays: list[tuple], hand: int) -> float:
    """The log-likelihood that a sensible player holding ``hand`` now made ``plays``: at each,
    the club rule's scores of its playable cards, softened (the chosen one need not be the
    best scored, but the better scored the likelier)."""
    total = 0.0
    for card, options, later in plays:
        held = hand | later
        weights = 0.0
        chosen = 0.0
        count = 0
        for bit, ahead, size in options:
            if held & bit:
                mine = (ahead & held).bit_count()
                # the others' cards: what is ahead, less its own
                weight = math.exp(club_score(mine, size - mine) / TEMPERATURE)
                weights += weight
                count += 1
                if bit >> card & 1:
                    chosen = weight
        if count > 1:
            total += math.log(chosen / weights)
    return total


class Reading:
    """Deals consistent with the view, drawn in proportion to how likely sensible players
    holding them would have made the other seats' plays: a Markov chain that swaps two
    cards between two other seats' hands (never one into a hand that proved it lacks it)
    and keeps the swap as the likelihoods say (Metropolis)."""

    def __init__(self, view, rng: random.Random, burn: int, thin: int):
        world = sample_state(view, rng)
        self.snapshot = world.to_json()
        self.plays = plays_read(view)
        self.thin = thin
        self.hands = list(world.hands)
        self.cards = [cards_of(hand) for hand in world.hands]
        self.missing = world.missing
        self.logs = [
            likelihood(plays, hand) for plays, hand in zip(self.plays, self.hands, strict=True)
        ]
        self.others = [s for s in range(len(self.hands)) if s != view["seat"] and self.cards[s]]
        self.fresh = True
        if any(self.plays[s] for s in self.others):
            self.walk(rng, burn)
        else:
            self.others = []  # nothing to read: every deal as likely as the next

    def walk(self, rng: random.Random, steps: int) -> None:
        hands, cards, missing, logs, plays = (
            self.hands,
            self.cards,
            self.missing,
            self.logs,
            self.plays,
        )
        others = self.others
        if len(others) < 2:
            return
        for _ in range(steps):
            s, t = rng.sample(others, 2)
            i, j = rng.randrange(len(cards[s])), rng.randrange(len(cards[t]))
            a, b = cards[s][i], cards[t][j]
            if missing[t] >> a & 1 or missing[s] >> b & 1:
                continue
            swap = 1 << a | 1 << b
            hand_s, hand_t = hands[s] ^ swap, hands[t] ^ swap
            log_s, log_t = likelihood(plays[s], hand_s), likelihood(plays[t], hand_t)
            change = log_s + log_t - logs[s] - logs[t]
            if change >= 0 or rng.random() < math.exp(change):
                hands[s], hands[t], logs[s], logs[t] = hand_s, hand_t, log_s, log_t
                cards[s][i], cards[t][j] = b, a

    def deal(self, view, rng: random.Random) -> FantanState:
        """The next deal of the chain (a fresh deal when there is nothing to read)."""
        if not self.others:
            return sample_state(view, rng)
        if self.fresh:
            self.fresh = False
        else:
            self.walk(rng, self.thin)
        state = RULES.from_json(self.snapshot)
        state.hands = list(self.hands)
        return state


class Strong(MonteCarlo):
    """The search over deals drawn as :class:`Reading` reads the other seats' plays."""

    def __init__(self, **settings):
        super().__init__(
            rules=RULES,
            sample=self.read_deal,
            policy=Club(),
            fast=fast_club,
            value=value,
            prior=PRIOR,
            finish=finish_club,
            **settings,
        )
        self.reading = None

    def choose(self, view, legal, rng):
        self.reading = None  # a new view: read it afresh at the first sample
        return super().choose(view, legal, rng)

    def read_deal(self, view, rng):
        if self.reading is None:
            self.reading = Reading(view, rng, BURN, THIN)
        return self.reading.deal(view, rng)


BURN, THIN = 200, 10  # the chain's swaps before its first deal, and between two deals
