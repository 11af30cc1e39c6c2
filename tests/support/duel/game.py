from games.registry import Game

from .engine import RULES
from .forms import DuelTableForm
from .moves import DuelMoves
from .presenter import DuelPresenter

GAME = Game(
    key="duel",
    name="Дуэль",
    english_name="Duel",
    summary="a throw-away game of the test suite, 2 players",
    rules=RULES,
    form=DuelTableForm,
    presenter=DuelPresenter(),
    moves=DuelMoves(),
)
