from django.utils.translation import gettext_lazy as _

from games.registry import Game

from .engine import RULES
from .forms import VarietyTableForm
from .moves import VarietyMoves
from .presenter import VarietyPresenter

GAME = Game(
    key="variety",
    name="Выборы",
    english_name="Variety",
    summary=_("an auction of eight contracts that makes new partners every deal, 4 players"),
    rules=RULES,
    form=VarietyTableForm,
    presenter=VarietyPresenter(),
    moves=VarietyMoves(),
    stylesheet="variety/variety.css",
)
