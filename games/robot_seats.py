"""The seats of a table that robots play: the strengths a seat may be given and their names on
the page, and a robot's turn, decided from its seat's view (``State.view(seat)``, what the
page would show that seat) and nothing else. The robots themselves are pure Python
(``games/engine/robots.py``, each game's ``robots.py``); the server's thread that takes their
turns is ``games.robot_turns``."""

import random
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext, pgettext_lazy

from . import registry
from .engine.base import State
from .engine.robots import STRENGTHS, choices, robot

LABELS = {
    "beginner": pgettext_lazy("robot", "beginner"),
    "club": pgettext_lazy("robot", "club player"),
    "strong": pgettext_lazy("robot", "strong"),
}
CHOICES = [(strength, LABELS[strength]) for strength in STRENGTHS]


@dataclass(frozen=True)
class RobotSeat:
    """A seat the new-table form gives to a robot, at a strength."""

    strength: str


def name(position: int, strength: str) -> str:
    """A robot's name at the table: its seat and strength ("Robot 3 (strong)")."""
    return gettext("Robot %(n)s (%(strength)s)") % {"n": position + 1, "strength": LABELS[strength]}


def has_robots(game: str) -> bool:
    return registry.robots(game) is not None


def turn(game: str, state: State, strength: str, seed: int) -> list[dict]:
    """The robot's turn at the seat to act: its steps (a draw, say) and then its
    action, as the seat's events, worked out on a copy of ``state``. The strong robot
    searches for ``ROBOT_BUDGET`` seconds a move, or ``ROBOT_SAMPLES`` sampled deals."""
    state = registry.rules(game).from_json(state.to_json())
    player = robot(game, strength, budget=settings.ROBOT_BUDGET, samples=settings.ROBOT_SAMPLES)
    rng = random.Random(seed)  # the same deal and version: the same move
    seat = state.to_act
    actions = []
    while True:
        view = state.view(seat)
        legal = choices(state)
        action = player.say(view, legal[0] if len(legal) == 1 else player.choose(view, legal, rng))
        state.apply(action)
        actions.append(action)
        if state.is_over() or not state.is_step(action):
            return actions
