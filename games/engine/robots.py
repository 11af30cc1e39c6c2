"""Robot players (pure Python, no Django): the interface every game's robots share.

A robot decides from what its seat may see — the seat's view (``State.view(seat)``, the same
the page shows) and the seat's choices — never from the state, so it cannot peek. A game
with robots has ``games/<key>/robots.py`` (a :class:`RobotPlayers`) exposing ``ROBOTS``: a
strength's name ("beginner", "club", "strong") to a factory of robots
(``ROBOTS["strong"](samples=8)``), ``MEASURE`` (what a duel counts: "won" deals or "points" a
deal), ``sample_state(view, rng)``, a whole state consistent with a seat's view, and the
figures its robots are measured against (``TARGETS``, ``BENCH_SAMPLES``: ``python -m
bench.robots``); found through ``games.registry.robots``.

A seat's **choices** are its legal actions as a person at the table has them: when the seat
has a step to take first (Леопард's draw), the step and the actions that need no step (the
end), never an action that begins with a step, which would show it a card it has not seen.

The strong robots search: :class:`MonteCarlo` samples whole deals consistent with the view
(the game's ``sample_state``), plays each choice out in each sample with the game's club
robot at every seat, and takes the choice that did best for its seat on average.
"""

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from .. import registry
from .base import IllegalAction, State, View

STRENGTHS = ("beginner", "club", "strong")
MEASURES = ("won", "points")
BUDGET = 0.3  # seconds a move, by default, for the strong robots' search


@dataclass(frozen=True)
class Target:
    """A duel the robots are measured by and what must hold of it: ``("won", strength,
    share)``, that strength wins at least that share of the deals, or ``("above", first,
    second)``, the first's points a deal less the second's, its whole 95% confidence interval
    above zero."""

    robots: tuple[str, ...]  # a strength a seat
    deals: int
    holds: tuple


class RobotPlayers(Protocol):
    """A game's ``robots`` module (optional: a game without it offers no robots), as the
    registry checks it."""

    ROBOTS: Mapping[str, Callable[..., "Robot"]]  # a strength of STRENGTHS: its factory
    MEASURE: str  # one of MEASURES: what a duel counts, deals "won" or "points" a deal
    TARGETS: Sequence[Target]
    # the strong robot's samples a move in the measuring duels: about what the default budget
    # allows on a quiet machine (the budget itself makes the duels last hours)
    BENCH_SAMPLES: int

    def sample_state(self, view: View, rng: random.Random) -> State:
        """A whole state consistent with everything the seat of ``view`` has seen."""
        ...


def robot(game: str, strength: str, **settings) -> "Robot":
    """A robot of the game at a strength; KeyError if the game has no such strength.
    ``settings``: ``samples`` and ``budget`` for a searching robot."""
    module = registry.robots(game)
    if module is None:
        raise KeyError(strength)
    return module.ROBOTS[strength](**settings)


def choices(state: State) -> list[dict]:
    """What the seat to act may choose now, seeing only what it has seen: its steps, then
    the legal actions that do not begin with a step."""
    steps = state.steps()
    if not steps:
        return state.legal_actions()
    rest = []
    for action in state.legal_actions():
        try:
            state.check_steps(action)
        except IllegalAction:
            continue
        rest.append(action)
    return steps + rest


class Robot(ABC):
    """A player: ``choose`` one of ``legal`` (the seat's choices) from its ``view``."""

    strength: str = ""

    def __init__(self, **settings):  # noqa: B027 (a robot may have no settings)
        """Settings a strength has no use for (a search's ``samples``) are ignored."""

    @abstractmethod
    def choose(self, view: View, legal: list[dict], rng: random.Random) -> dict:
        """One of ``legal``; ``rng`` is its only source of chance (the same view, choices and
        generator state give the same choice)."""

    def say(self, view: View, action: dict) -> dict:
        """The action as the robot takes it (a game may add an announcement to a call)."""
        return action


class Beginner(Robot):
    """A uniformly random legal action."""

    strength = "beginner"

    def choose(self, view, legal, rng):
        return rng.choice(legal)


def act(state: State, robot: Robot, rng: random.Random) -> dict:
    """Let ``robot`` take the turn of the seat to act in ``state`` (its steps too): apply it
    and return the action as a record writes it (a step joined to the action after it)."""
    while True:
        view = state.view(state.to_act)
        legal = choices(state)
        action = robot.say(view, legal[0] if len(legal) == 1 else robot.choose(view, legal, rng))
        state.apply(action)
        if not state.is_step(action):
            return action


def play_out(state: State, robots: list[Robot], rng: random.Random) -> list[dict]:
    """Play the deal to its end, each seat by its robot; the actions in record order."""
    actions = []
    while not state.is_over():
        actions.append(act(state, robots[state.to_act], rng))
    return actions


def deal_unseen(
    unseen: list[int],
    counts: list[int],
    seat: int,
    hand: int,
    missing: list[int],
    rng: random.Random,
) -> list[int]:
    """For one-pack games whose hands are masks of card ints. The hands: ``seat``'s own,
    and ``unseen`` dealt to the others by their ``counts``, keeping each seat's ``missing``
    cards out of its hand (tried a few times; then as it may)."""
    others = [s for s in range(len(counts)) if s != seat]
    for attempt in range(30):
        strict = attempt < 29
        room = {s: counts[s] for s in others}
        hands = [0] * len(counts)
        hands[seat] = hand
        cards = unseen[:]
        rng.shuffle(cards)
        if strict:  # the most constrained cards first
            cards.sort(key=lambda c: sum(1 for s in others if not missing[s] >> c & 1))
        for card in cards:
            open_seats = [
                s for s in others if room[s] and (not strict or not missing[s] >> card & 1)
            ]
            if not open_seats:
                break
            weights = [room[s] for s in open_seats]
            chosen = rng.choices(open_seats, weights)[0]
            hands[chosen] |= 1 << card
            room[chosen] -= 1
        else:
            return hands
    raise AssertionError("the unseen cards do not fit the hands")


class MonteCarlo(Robot):
    """Determinized Monte Carlo search.

    ``rules``: the game's rules; ``sample(view, rng)``: a whole state consistent with
    everything the seat has seen; ``policy``: the robot that plays every seat in the
    play-outs (the club robot); ``fast(state)``: the policy's action read from a play-out's
    state (quicker than building views; a play-out is the robot's own imagined deal, so it
    may look at it), used instead of ``policy`` when given; ``value(state, seat)``: how good
    a finished (or cut-off) play-out is for the seat; ``samples``: sampled deals a move, or
    None for as many as fit in ``budget`` seconds (at least ``least``);
    ``shortlist(view, legal)``: the choices worth searching (default: all); ``horizon``:
    actions a play-out runs before ``value`` judges it (None: to the end of the deal);
    ``prior``: what the policy's own choice gains a sample, so that the search leaves the
    club player's choice only when enough sampled deals say so (few samples are noisy);
    ``finish(state)``: plays a play-out to its end with the policy at every seat itself
    (quicker still: no actions built and checked), used instead of ``fast`` when given and
    there is no ``horizon``.
    """

    strength = "strong"

    def __init__(
        self,
        *,
        rules,
        sample: Callable,
        policy: Robot,
        value: Callable,
        fast: Callable | None = None,
        samples: int | None = None,
        budget: float = BUDGET,
        least: int = 2,
        shortlist: Callable | None = None,
        horizon: int | None = None,
        prior: float = 0.0,
        finish: Callable | None = None,
    ):
        self.rules = rules
        self.sample = sample
        self.policy = policy
        self.fast = fast
        self.value = value
        self.samples = samples
        self.budget = budget
        self.least = least
        self.shortlist = shortlist
        self.horizon = horizon
        self.prior = prior
        self.finish = finish if horizon is None else None
        self.last_samples = 0  # how many samples the last search used (for the benchmarks)

    def choose(self, view, legal, rng):
        if len(legal) == 1:
            return legal[0]
        candidates = self.shortlist(view, legal) if self.shortlist else legal
        if len(candidates) == 1:
            return candidates[0]
        seat = view["seat"]
        totals = [0.0] * len(candidates)
        favourite = (
            candidates.index(self.policy.choose(view, candidates, rng)) if self.prior else None
        )
        # the play-outs take each choice as the robot would say it (Выборы: a call with its
        # announcement, which the other seats read and answer)
        said = [self.say(view, action) for action in candidates]
        deadline = time.perf_counter() + self.budget
        done = 0
        while True:
            if self.samples is not None:
                if done >= self.samples:
                    break
            elif done >= self.least and time.perf_counter() >= deadline:
                break
            world = self.sample(view, rng)
            seed = rng.getrandbits(32)  # common random numbers: each choice, the same luck
            snapshot = world.to_json()
            rules = self.rules
            for index, action in enumerate(said):
                state = rules.from_json(snapshot) if index else world
                state.apply(action)
                self._play_out(state, random.Random(seed))
                totals[index] += self.value(state, seat)
            if favourite is not None:
                totals[favourite] += self.prior
            done += 1
        self.last_samples = done
        best = max(range(len(candidates)), key=lambda i: totals[i])
        return candidates[best]

    def say(self, view, action):
        return self.policy.say(view, action)

    def _play_out(self, state: State, rng: random.Random) -> None:
        if self.finish is not None:
            self.finish(state)
            return
        limit = self.horizon
        count = 0
        fast = self.fast
        while not state.is_over() and (limit is None or count < limit):
            if fast is not None:
                state.apply(fast(state))
            else:
                act(state, self.policy, rng)
            count += 1
