from django.utils.translation import gettext_lazy as _

from games.registry import Game

from .engine import RULES
from .forms import LeopardTableForm
from .moves import LeopardMoves
from .presenter import LeopardPresenter

GAME = Game(
    key="leopard",
    name="Леопард",
    english_name="Leopard",
    summary=_("two packs, two squares of lines of a colour or a suit, 2 players"),
    rules=RULES,
    form=LeopardTableForm,
    presenter=LeopardPresenter(),
    moves=LeopardMoves(),
    stylesheet="leopard/leopard.css",
)
