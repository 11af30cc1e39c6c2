"""Выборы's robot players (pure Python): beginner, club and strong (see games/engine/robots.py).

The club robot calls the contract its hand suits, joins a contract another seat has named
when its hand suits it too, and says what it holds with each call (suit lengths and high-card
points, "♠4 ♥3 ♦3 ♣3, 11 HCP"); it reads such announcements from the others. In play it weighs
each card by what the trick is worth to whoever takes it under the contract, and by how
likely its side is to take it. The strong robot searches with the club robot as its play-out
policy, over deals consistent with what its seat has seen: the cards played, the suits a seat
proved void in by not following, and (preferring the likelier) the calls and announcements.
"""

import random
import re

from games.engine.cards import CODES, card_index
from games.engine.robots import Beginner, MonteCarlo, Robot, Target, deal_unseen

from .engine import (
    LOWEST_WINS,
    RULES,
    SEATS,
    SUIT_MASK,
    TRUMPS,
    VarietyState,
    side_points,
    trick_winner,
)

POINTS = {12: 4, 11: 3, 10: 2, 9: 1}  # high-card points: A, K, Q, J
SYMBOLS = "♠♥♦♣"
SAID = re.compile(r"♠(\d+) ♥(\d+) ♦(\d+) ♣(\d+), (\d+) HCP")
FULL = (1 << 52) - 1


def mask(codes) -> int:
    return sum(1 << card_index(code) for code in codes)


def cards(bits: int):
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def shape(hand: int) -> tuple[list[int], int, int]:
    """Suit lengths (♠♥♦♣), high-card points, and the low cards (two to six)."""
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    hcp = sum(POINTS.get(c % 13, 0) for c in cards(hand))
    low = sum(1 for c in cards(hand) if c % 13 <= 4)
    return lengths, hcp, low


def suits(lengths: list[int], hcp: int, low: int) -> dict[int, float]:
    """How well a hand of this shape suits each contract, as a rough count of points its side
    would gain (0: an ordinary hand)."""
    s, h, d, c = (length - 3.25 for length in lengths)
    strength = hcp - 10
    return {
        1: 1.2 * strength,
        2: 0.8 * strength + 2.0 * c,
        3: 0.5 * strength + 2.0 * h + 0.8 * s,
        4: 0.4 * strength + 2.0 * d + 0.5 * h,
        5: 0.4 * strength + 2.0 * s,
        6: 1.0 * (low - 5) + 0.8 * c - 0.3 * strength,
        7: 1.2 * s - 1.0 * c - 0.2 * strength,
        8: -1.0 * strength + 0.5 * (low - 5),
    }


def said(text: str):
    """An announcement in the robots' form, read: (lengths, hcp), or None."""
    found = SAID.search(text or "")
    if not found:
        return None
    numbers = [int(n) for n in found.groups()]
    return numbers[:4], numbers[4]


def announce(hand: int) -> str:
    lengths, hcp, _ = shape(hand)
    return " ".join(f"{SYMBOLS[s]}{lengths[s]}" for s in range(4)) + f", {hcp} HCP"


def club_call(hand: int, seat: int, calls: list[dict]) -> int:
    """The contract to call: one another seat named first, if it suits this hand too (its
    first namer becomes the partner), else the best the seat has not named."""
    fit = suits(*shape(hand))
    named_by = {}
    mine = set()
    for call in calls:
        if call["seat"] == seat:
            mine.add(call["call"])
        named_by.setdefault(call["call"], call)
    best_join, join_score = None, None
    for number, call in named_by.items():
        if call["seat"] == seat or number in mine:
            continue
        partner = said(call.get("say", ""))
        partner_fit = suits(partner[0], partner[1], 5)[number] if partner else 2.0
        score = fit[number] + partner_fit
        if join_score is None or score > join_score:
            best_join, join_score = number, score
    fresh = [n for n in range(1, 9) if n not in named_by and n not in mine]
    if best_join is not None and (join_score >= 4.0 or not fresh):
        return best_join
    if not fresh:
        return max((n for n in range(1, 9) if n not in mine), key=lambda n: fit[n])
    return max(fresh, key=lambda n: fit[n])


def worth(contract: int, taken: int) -> float:
    """What the cards of a trick are worth to the side that takes it."""
    if contract == 1:
        return 1.0
    return float(side_points(contract, taken, 1))


def club_card(
    contract: int,
    seat: int,
    side: tuple,
    hand: int,
    legal: int,
    trick: list[tuple[int, int]],
    unseen: int,
) -> int:
    """The card to play: the best by the trick's worth and the odds of taking it."""
    trump = TRUMPS[contract]
    lowest = contract == LOWEST_WINS
    partner_after = any(s in side for s in ((seat + k) % SEATS for k in range(1, 4 - len(trick))))
    best, best_score = -1, None
    for card in cards(legal):
        after = trick + [(seat, card)]
        winner = trick_winner(contract, after)
        taken = sum(1 << c for _, c in after)
        if len(after) == SEATS:
            ours = 1.0 if winner in side else 0.0
        else:
            win_card = next(c for s, c in after if s == winner)
            lead = after[0][1] // 13
            suit = win_card // 13
            rank = win_card % 13
            better = 0
            for other in cards(unseen & SUIT_MASK[suit]):
                if (other % 13 < rank) if lowest else (other % 13 > rank):
                    better += 1
            trumps_out = trump is not None and suit != trump and unseen & SUIT_MASK[trump]
            if winner in side:
                ours = 0.9 if not better and not trumps_out else (0.65 if not better else 0.45)
                if suit != lead and suit != trump:
                    ours = 0.0
            else:
                ours = 0.35 if partner_after else 0.05
        score = (2 * ours - 1) * worth(contract, taken)
        strength = (12 - card % 13) if lowest else card % 13
        if card // 13 == trump:
            strength += 6
        score -= 0.03 * strength  # keep the high cards for later
        if best_score is None or score > best_score:
            best, best_score = card, score
    return best


class Club(Robot):
    strength = "club"

    def choose(self, view, legal, rng):
        seat = view["seat"]
        hand = mask(view["hand"])
        if view["phase"] == "auction":
            return {"seat": seat, "call": club_call(hand, seat, view["calls"])}
        played = 0
        for trick in view["played"]:
            played |= mask(play["card"] for play in trick)
        trick = [(play["seat"], card_index(play["card"])) for play in view["trick"]]
        for _, card in trick:
            played |= 1 << card
        side = tuple(view["attackers"] if seat in view["attackers"] else view["defenders"])
        card = club_card(
            view["contract"],
            seat,
            side,
            hand,
            mask(action["play"] for action in legal),
            trick,
            FULL & ~played & ~hand,
        )
        return {"seat": seat, "play": CODES[card]}

    def say(self, view, action):
        if "call" in action and "say" not in action:
            return {**action, "say": announce(mask(view["hand"]))}
        return action


def fast_club(state: VarietyState) -> dict:
    """The club robot's action in a play-out, read from a sampled deal's state."""
    seat = state.to_act
    hand = state.hands[seat]
    if state.contract is None:
        calls = [{"seat": s, "call": n, "say": say} for s, n, say in state.calls]
        return {"seat": seat, "call": club_call(hand, seat, calls), "say": announce(hand)}
    side = state.attackers if seat in state.attackers else state.defenders()
    unseen = 0
    for other in range(SEATS):
        if other != seat:
            unseen |= state.hands[other]
    card = club_card(state.contract, seat, side, hand, state.playable(seat), state.trick, unseen)
    return {"seat": seat, "play": CODES[card]}


def voids(view) -> list[int]:
    """By seat, the suits (as a mask of cards) it proved it lacks by not following."""
    missing = [0] * SEATS
    for trick in view["played"] + [view["trick"]]:
        if not trick:
            continue
        lead = card_index(trick[0]["card"]) // 13
        for play in trick[1:]:
            if card_index(play["card"]) // 13 != lead:
                missing[play["seat"]] |= SUIT_MASK[lead]
    return missing


def likelihood(hands: list[int], calls: list[dict], seat: int) -> float:
    """How well the other seats' sampled hands fit their calls and announcements (higher:
    likelier)."""
    score = 0.0
    seen = set()
    for call in calls:
        who = call["seat"]
        if who == seat:
            continue
        hand = hands[who]
        told = said(call.get("say", ""))
        if told:
            lengths, hcp, _ = shape(hand)
            score -= 2.0 * sum(abs(a - b) for a, b in zip(lengths, told[0], strict=True))
            score -= 0.5 * abs(hcp - told[1])
        if call["call"] not in seen:  # a first naming: the hand suits the contract
            fit = suits(*shape(hand))
            score += 0.3 * (fit[call["call"]] - max(fit.values()))
        seen.add(call["call"])
    return score


def told_lengths(view) -> dict[int, list[int]]:
    """By seat (not the view's own), the suit lengths it holds now as its announcement in
    the robots' form told them (less the cards it has played since), where they fit what
    the seat has shown (a person may say anything: then nothing is known)."""
    seat, counts = view["seat"], view["counts"]
    told = {}
    for call in view["calls"]:
        found = said(call.get("say", ""))
        if found and call["seat"] != seat:
            told[call["seat"]] = list(found[0])
    missing = voids(view)
    for trick in view["played"] + [view["trick"]]:
        for play in trick:
            if play["seat"] in told:
                told[play["seat"]][card_index(play["card"]) // 13] -= 1
    for who, lengths in list(told.items()):
        if (
            min(lengths) < 0
            or sum(lengths) != counts[who]
            or any(lengths[s] and missing[who] & SUIT_MASK[s] for s in range(4))
        ):
            del told[who]
    return told


def deal_told(
    unseen: list[int], view, told: dict[int, list[int]], missing: list[int], rng: random.Random
) -> list[int] | None:
    """The other seats' hands with the told seats holding exactly their told suit lengths,
    the rest dealt as :func:`deal_unseen` does; None when they do not fit together."""
    seat, counts = view["seat"], view["counts"]
    hands = [0] * SEATS
    hands[seat] = mask(view["hand"])
    rest = []
    for suit in range(4):
        pile = [c for c in unseen if c // 13 == suit]
        rng.shuffle(pile)
        for who, lengths in told.items():
            if lengths[suit] > len(pile):
                return None
            for _ in range(lengths[suit]):
                hands[who] |= 1 << pile.pop()
        rest += pile
    others = [s for s in range(SEATS) if s != seat and s not in told]
    if not others:
        return hands if not rest else None
    if len(rest) != sum(counts[s] for s in others):
        return None
    shares = [counts[s] if s in others else 0 for s in range(SEATS)]
    shares[seat] = 0
    try:
        dealt = deal_unseen(rest, shares, seat, 0, missing, rng)
    except AssertionError:
        return None
    return [hands[s] | (dealt[s] if s != seat else 0) for s in range(SEATS)]


def sample_state(view, rng: random.Random, tries: int = 6) -> VarietyState:
    """A whole deal consistent with ``view``: the unseen cards dealt to the other seats by
    their counts, none in a suit a seat proved void in, a seat that announced its suit
    lengths in the robots' form holding them; of a few such deals, the one whose hands best
    fit the calls and announcements (the high-card points)."""
    seat, counts = view["seat"], view["counts"]
    hand = mask(view["hand"])
    played = 0
    for trick in view["played"] + [view["trick"]]:
        played |= mask(play["card"] for play in trick)
    unseen = [c for c in range(52) if not (played | hand) >> c & 1]
    missing = voids(view)
    told = told_lengths(view) if view["calls"] else {}
    shown = [0] * SEATS  # the cards each seat has played: its hand at the calls held them
    for trick in view["played"] + [view["trick"]]:
        for play in trick:
            shown[play["seat"]] |= 1 << card_index(play["card"])
    best, best_score = None, None
    for _ in range(tries if view["calls"] else 1):
        hands = deal_told(unseen, view, told, missing, rng) if told else None
        if hands is None:
            hands = deal_unseen(unseen, counts, seat, hand, missing, rng)
        score = likelihood([h | shown[s] for s, h in enumerate(hands)], view["calls"], seat)
        if best_score is None or score > best_score:
            best, best_score = hands, score
    return state_of(view, best)


def state_of(view, hands: list[int]) -> VarietyState:
    state = VarietyState(RULES.parse_options({}), view["dealer"], {"hands": [[]] * SEATS})
    state.hands = hands
    for trick in view["played"]:
        plays = [(play["seat"], card_index(play["card"])) for play in trick]
        winner = trick_winner(view["contract"], plays)
        state.won[winner] |= sum(1 << c for _, c in plays)
        state.tricks[winner] += 1
        state.played.append(plays)
    state.last_trick = state.played[-1] if state.played else None
    state.calls = [[call["seat"], call["call"], call["say"]] for call in view["calls"]]
    first = {}
    for s, number, _ in state.calls:
        if number not in first:
            first[number] = s
            state.named[s] |= 1 << number
            state.first_namer[number] = s
    state.contract = view["contract"]
    state.attackers = tuple(view["attackers"]) if view["attackers"] else None
    state.to_act = view["to_act"]
    state.trick = [(play["seat"], card_index(play["card"])) for play in view["trick"]]
    return state


def value(state: VarietyState, seat: int) -> float:
    """A play-out's worth to ``seat``: its score."""
    return state.scores()[seat]


def strong(samples: int | None = None, budget: float | None = None) -> MonteCarlo:
    """The strong robot: ``samples`` deals a move, or as many as fit in ``budget`` seconds."""
    kwargs = {} if budget is None else {"budget": budget}
    return MonteCarlo(
        rules=RULES,
        sample=sample_state,
        policy=Club(),
        fast=fast_club,
        value=value,
        samples=samples,
        **kwargs,
    )


MEASURE = "points"  # what a duel counts: deals won, or points a deal
TARGETS = (
    Target(("strong", "strong", "club", "club"), 1000, ("above", "strong", "club")),
    Target(("club", "club", "beginner", "beginner"), 1000, ("above", "club", "beginner")),
)
BENCH_SAMPLES = 30
ROBOTS = {"beginner": Beginner, "club": Club, "strong": strong}
