from django.utils.translation import gettext_lazy as _

from games.registry import Game

from .engine import RULES
from .forms import FantanTableForm
from .moves import FantanMoves
from .presenter import FantanPresenter

GAME = Game(
    key="fantan",
    name="Фантан",
    english_name="Fan-Tan",
    summary=_("card dominoes, 3 or 4 players"),
    rules=RULES,
    form=FantanTableForm,
    presenter=FantanPresenter(),
    moves=FantanMoves(),
    stylesheet="fantan/fantan.css",
)
