"""Леопард's robot players (pure Python): beginner, club and strong (see games/engine/robots.py).

The club robot builds lines of one suit in its own square (a line whose open cards share a
suit is worth something before it is full), spoils the opponent's lines (a jack face down on
his best card, an odd card on his empty places), discards what it needs least, and ends the
deal as soon as ending wins it. The strong robot searches, over deals consistent with what
its seat has seen (every card laid face up, buried or not, and the discard pile; face-down
cards are unknown even to the one who laid them, as the screen shows them), with the club
robot as its play-out policy, every play-out to the end of the deal (:func:`finish_club`:
on the state's lists, several times quicker than the club robot's actions through the rules,
so that the 300 ms budget buys whole deals rather than play-outs cut off and guessed at).
"""

import random

from games.engine.cards import card_index
from games.engine.robots import Beginner, MonteCarlo, Robot, Target

from .engine import (
    ALL_PLACES,
    DOUBLE_PACK,
    DOWN,
    END_AT,
    JACK,
    KING,
    LINES,
    OWN_BIT,
    OWN_PLACE,
    PLACES,
    QUEEN,
    RULES,
    TEN,
    LeopardState,
    square_sum,
)

COLOUR = tuple(card // 13 in (1, 2) for card in range(52))  # hearts and diamonds are red
KEEP = {JACK: 0.5, QUEEN: 0.1, 8: 0.45, 11: 0.6}  # a ten, a king: laid anywhere of one's own


def line_worth(a: int, b: int, c: int, hope: float) -> float:
    """A line of three tops (-1: a place still free) as points, and as a hope of points
    while places are free (``hope``: how much of the deal is left to fill them)."""
    points, hoped = LINE_WORTH.get((a, b, c)) or line_parts(a, b, c)
    return points + hope * hoped


LINE_WORTH: dict[tuple[int, int, int], tuple[float, float]] = {}


def line_parts(a: int, b: int, c: int) -> tuple[float, float]:
    """:func:`line_worth` as its points and what ``hope`` multiplies (kept: the play-outs
    ask about the same lines over and over)."""
    tops = [t for t in (a, b, c) if t >= 0]
    suits = {t // 13 for t in tops}
    colours = {COLOUR[t] for t in tops}
    if not tops:
        parts = (0.0, 0.15)
    elif len(tops) == 3:
        parts = (2.0 if len(suits) == 1 else (1.0 if len(colours) == 1 else 0.0), 0.0)
    elif len(colours) > 1:
        parts = (0.0, 0.0)
    elif len(suits) == 1:  # one or two of three
        parts = (0.0, 0.55 if len(tops) == 2 else 0.3)
    else:
        parts = (0.0, 0.3 if len(tops) == 2 else 0.15)
    LINE_WORTH[a, b, c] = parts
    return parts


# A line's worth depends only on the suits of its tops: by suit (4: no face-up top), a top
# card as its suit (index top + 1), a line of suits x, y, z at 25x + 5y + z as its points and
# its hope (line_parts is symmetric, so the order of the places does not matter).
SUIT = (4,) + tuple(card // 13 for card in range(52))
BY_SUITS = [
    line_parts(*(13 * suit if suit < 4 else -1 for suit in (x, y, z)))
    for x in range(5)
    for y in range(5)
    for z in range(5)
]
POINTS_BY = tuple(points for points, _ in BY_SUITS)
HOPE_BY = tuple(hoped for _, hoped in BY_SUITS)
# by place, the other two places of each line through it
OTHERS = tuple(
    tuple(tuple(q for q in line if q != place) for line in LINES if place in line)
    for place in range(9)
)


def change(tops: list[int], place: int, top: int, hope: float) -> float:
    """What a square's lines gain when ``place`` shows ``top`` (-1: nothing face up)."""
    points, hoped = change_parts(tops, place, SUIT[top + 1])
    return points + hope * hoped


def change_parts(tops: list[int], place: int, suit: int) -> tuple[float, float]:
    """:func:`change` as the points and the hope it gains, by the suit the place shows."""
    new, old = 25 * suit, 25 * SUIT[tops[place] + 1]
    if new == old:
        return 0.0, 0.0
    points = hoped = 0
    for q, r in OTHERS[place]:
        rest = 5 * SUIT[tops[q] + 1] + SUIT[tops[r] + 1]
        points += POINTS_BY[new + rest] - POINTS_BY[old + rest]
        hoped += HOPE_BY[new + rest] - HOPE_BY[old + rest]
    return points, hoped


def keep(card: int) -> float:
    """How much a card is worth holding on to (what its discard gives up)."""
    return KEEP.get(card % 13, 0.2)


def club_pick(seat: int, tops: list[list[int]], legal: list[dict], stock: int) -> dict:
    """The best of ``legal`` (discards and lays, after the draw) for a club player."""
    hope = min(1.0, stock / 30)
    best, best_score = None, None
    for action in legal:
        code = action.get("discard") or action.get("lay")
        card = card_index(code)
        score = -keep(card)
        if "lay" in action:
            square = action["square"]
            place = OWN_PLACE[card % 13]
            place = PLACES.index(action["place"]) if place is None else place
            gain = change(tops[square], place, -1 if card % 13 in (JACK, QUEEN) else card, hope)
            score += gain if square == seat else -gain
        if best_score is None or score > best_score + 1e-9:
            best, best_score = action, score
    return best


def ends(sums: list[int], seat: int) -> bool:
    """End the deal when ending wins it: what the ender scores beats the other's sum."""
    mine = sums[seat]
    return mine >= END_AT and 2 * mine - END_AT - 1 > sums[1 - seat]


def tops_of(view) -> list[list[int]]:
    return [
        [card_index(stack[-1]) if stack and stack[-1] is not None else -1 for stack in square]
        for square in view["laid"]
    ]


class Club(Robot):
    strength = "club"

    def choose(self, view, legal, rng):
        seat = view["seat"]
        if view["may_draw"]:  # the start of the turn: end it now, or draw
            end = [action for action in legal if "end" in action]
            if end and ends(view["sums"], seat):
                return end[0]
            return next(action for action in legal if "draw" in action)
        return club_pick(seat, tops_of(view), legal, view["stock"])


def fast_club(state: LeopardState) -> dict:
    """The club robot's action in a play-out, read from a sampled deal's state (it takes the
    draw on the state first, then names the discard or the lay)."""
    seat = state.to_act
    if not state.drawn:
        if ends(state.sums(), seat):
            return {"seat": seat, "end": True}
        state.apply({"seat": seat, "draw": True})
    tops = [
        [stack[-1] if stack and not stack[-1] & DOWN else -1 for stack in square]
        for square in state.squares
    ]
    return club_pick(seat, tops, state.legal_actions(), len(state.stock))


PLACES_IN = tuple(tuple(place for place in range(9) if mask >> place & 1) for mask in range(512))


def finish_club(state: LeopardState) -> None:
    """A play-out to the end of the deal with the club robot at every seat, on the state's
    lists directly: :func:`fast_club` and ``apply`` without the actions (the same choices,
    ties broken in the same order: a card's discard, then its lays in square 0, square 1)."""
    squares, hands, stock = state.squares, state.hands, state.stock
    tops = [
        [stack[-1] if stack and not stack[-1] & DOWN else -1 for stack in square]
        for square in squares
    ]
    laid = [sum(1 << place for place, stack in enumerate(square) if stack) for square in squares]
    # by square, what a place showing a suit gains (5 * place + suit): kept until a card is
    # laid in the square (most of a play-out's choices weigh the same lays again)
    gains: list[dict] = [{}, {}]
    while state.to_act is not None:
        seat = state.to_act
        hand = hands[seat]
        if not state.drawn:
            if ends([square_sum(squares[0]), square_sum(squares[1])], seat):
                state.ender, state.to_act = seat, None
                break
            hand.append(stock.pop())
        hope = min(1.0, len(stock) / 30)
        free = [sum(1 << place for place, t in enumerate(square) if t < 0) for square in tops]
        best = best_score = None
        for card in sorted(set(hand)):
            rank = card % 13
            base = -KEEP.get(rank, 0.2)
            if best_score is None or base > best_score + 1e-9:
                best, best_score = (card, -1, 0), base
            suit = 4 if rank in (JACK, QUEEN) else card // 13
            for square in (0, 1):
                if rank == JACK:
                    mask = laid[square]
                elif square != seat and OWN_PLACE[rank] is None:
                    continue
                elif rank == QUEEN:
                    mask = laid[square]
                elif rank == KING:
                    mask = ALL_PLACES
                else:
                    mask = free[square] if rank == TEN else free[square] & OWN_BIT[rank]
                if not mask:
                    continue
                sign = 1 if square == seat else -1
                known, square_tops = gains[square], tops[square]
                for place in PLACES_IN[mask]:
                    parts = known.get(5 * place + suit)
                    if parts is None:
                        parts = known[5 * place + suit] = change_parts(square_tops, place, suit)
                    score = base + sign * (parts[0] + hope * parts[1])
                    if score > best_score + 1e-9:
                        best, best_score = (card, square, place), score
        card, square, place = best
        hand.remove(card)
        if square < 0:
            state.discards.append(card)
        else:
            down = card % 13 in (JACK, QUEEN)
            squares[square][place].append(card | DOWN if down else card)
            tops[square][place] = -1 if down else card
            laid[square] |= 1 << place
            gains[square] = {}
        state.drawn = False
        state.to_act = 1 - seat if stock else None
    state.masks = [None, None]


def sample_state(view, rng: random.Random) -> LeopardState:
    """A whole deal consistent with ``view``: the cards it has not seen (two of each, less
    its hand, the discard pile and every card laid face up) dealt at random to the other
    hand, the stock and the face-down cards (jacks and queens where it can)."""
    seat = view["seat"]
    unseen = list(DOUBLE_PACK)
    seen = [card_index(c) for c in view["hand"] + view["discard_pile"]]
    seen += [
        card_index(c) for square in view["laid"] for stack in square for c in stack if c is not None
    ]
    for card in seen:
        unseen.remove(card)
    rng.shuffle(unseen)
    squares = []
    for square in view["laid"]:
        rows = []
        for stack in square:
            entries = []
            for code in stack:
                if code is None:
                    faces = [i for i, c in enumerate(unseen) if c % 13 in (JACK, QUEEN)]
                    card = unseen.pop(rng.choice(faces) if faces else -1)
                    entries.append(card | DOWN)
                else:
                    entries.append(card_index(code))
            rows.append(entries)
        squares.append(rows)
    other = 1 - seat
    state = LeopardState(RULES.parse_options({}), view["dealer"], {"hands": [[], []], "stock": []})
    state.hands = [[], []]
    state.hands[seat] = [card_index(c) for c in view["hand"]]
    state.hands[other] = unseen[: view["counts"][other]]
    state.stock = unseen[view["counts"][other] :]
    assert len(state.stock) == view["stock"], "the unseen cards do not fit"
    state.discards = [card_index(c) for c in view["discard_pile"]]
    state.squares = squares
    state.to_act = view["to_act"]
    state.ender = view["ender"]
    state.drawn = view["drawn"] is not None
    return state


def value(state: LeopardState, seat: int) -> float:
    """A play-out's worth to ``seat``: a won deal, and a little for the margin."""
    scores = state.scores()
    margin = scores[seat] - scores[1 - seat]
    return (margin > 0) + 0.5 * (margin == 0) + 0.02 * margin


def shortlist(view, legal: list[dict], size: int = 6) -> list[dict]:
    """The club robot's best few choices, for the search to weigh (every choice at the start
    of a turn: the end, or the draw)."""
    if view["may_draw"]:
        return legal
    seat = view["seat"]
    tops = tops_of(view)
    ranked = []
    rest = list(legal)
    while rest and len(ranked) < size:
        pick = club_pick(seat, tops, rest, view["stock"])
        ranked.append(pick)
        rest.remove(pick)
    return ranked


def strong(samples: int | None = None, budget: float | None = None) -> MonteCarlo:
    """The strong robot: ``samples`` deals a move, or as many as fit in ``budget`` seconds."""
    kwargs = {} if budget is None else {"budget": budget}
    return MonteCarlo(
        rules=RULES,
        sample=sample_state,
        policy=Club(),
        fast=fast_club,
        finish=finish_club,
        value=value,
        samples=samples,
        shortlist=shortlist,
        prior=PRIOR,
        **kwargs,
    )


# The search leaves the club player's choice only when a tenth of a deal more of the sampled
# deals say so: with few samples the play-outs are noisy, and without it the search did worse
# than the club robot it searches with (strong vs club, 200 deals at 4 samples, play-outs cut
# off after 24 turns: 44.5% won against 50.0%).
PRIOR = 0.1


MEASURE = "won"  # what a duel counts: deals won, or points a deal
TARGETS = (
    Target(("strong", "club"), 400, ("won", "strong", 0.60)),
    Target(("club", "beginner"), 400, ("won", "club", 0.70)),
)
BENCH_SAMPLES = 40
ROBOTS = {"beginner": Beginner, "club": Club, "strong": strong}
