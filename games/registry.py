"""The one list of the club's games. Everything else asks here; nothing else names a game.

A game is a package (``games/<key>/``) that is also a Django app (so its templates and static
files are found as any app's are). It holds:

- ``engine.py``: the rules, pure Python, exposing ``RULES`` (see ``games.engine.base``);
- ``robots.py``: its robot players, pure Python, exposing ``ROBOTS`` (see
  ``games.engine.robots``); a game without robots offers none;
- ``tournament.py``: its parts of a tournament, pure Python, exposing ``TOURNAMENT``: table
  sizes, the sheet's rows and their checks, game points (see ``tournaments.parts``);
- ``game.py``: ``GAME``, a :class:`Game` naming its web parts (options form, presenter,
  move parsing) — imported only where Django is set up;
- ``templates/<key>/`` and ``static/<key>/``.

This module imports no Django, so that records and simulations can find the rules alone.
"""

from dataclasses import dataclass
from importlib import import_module

# The registry: one line per game, its key (as records write it) and its package.
GAMES: dict[str, str] = {
    "fantan": "games.fantan",
    "variety": "games.variety",
    "leopard": "games.leopard",
}


class UnknownGame(KeyError):
    pass


def package(key) -> str:
    try:
        return GAMES[key]
    except (KeyError, TypeError):  # TypeError: a list or an object given as the key
        raise UnknownGame(key) from None


def rules(key):
    """The rules engine of the game ``key`` (``UnknownGame`` if there is none)."""
    return import_module(f"{package(key)}.engine").RULES


def tournament(key):
    """The tournament parts of the game ``key`` (``UnknownGame`` if there is none)."""
    return import_module(f"{package(key)}.tournament").TOURNAMENT


def robots(key):
    """The robot players of the game ``key``, its ``robots`` module: ``ROBOTS`` (strength
    to a factory of robots, see ``games.engine.robots``), ``MEASURE`` (what a duel counts:
    "won" deals or "points") and ``sample_state``; None if the game has no robots
    (``UnknownGame`` if there is no such game)."""
    name = f"{package(key)}.robots"
    try:
        return import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def game(key) -> "Game":
    """The game ``key`` with its web parts (Django must be set up)."""
    return import_module(f"{package(key)}.game").GAME


def games() -> list["Game"]:
    return [game(key) for key in GAMES]


def choices() -> list[tuple[str, str]]:
    """(key, name) for a model field's choices."""
    return [(g.key, g.title) for g in games()]


def register(key: str, package_name: str) -> None:
    """Add a game at run time (the tests' throw-away game); ``unregister`` removes it."""
    GAMES[key] = package_name


def unregister(key: str) -> None:
    GAMES.pop(key, None)


@dataclass(frozen=True)
class Game:
    """What the shared layers need of a game beyond its rules.

    ``name`` is the game's proper name as the club writes it (not translated), shown with
    ``english_name`` beside it;
    ``summary`` a translatable line for the front page; ``form`` the options form (a
    ``games.forms.TableForm``); ``presenter`` turns views and results into what the
    templates show (a ``games.presenters.Presenter``); ``moves`` reads an action from a
    POST and writes the form fields of an action (a ``games.moves.Moves``).
    """

    key: str
    name: str  # as the club writes it: "Фантан"
    english_name: str  # shown beside it: "Fan-Tan"
    summary: str
    rules: object
    form: type
    presenter: object
    moves: object
    stylesheet: str | None = None

    @property
    def title(self) -> str:
        return f"{self.name} ({self.english_name})"

    @property
    def templates(self) -> dict[str, str]:
        """The game's own parts of the table page and of the score sheet page."""
        return {part: f"{self.key}/{part}.html"
                for part in ("board", "turn", "result", "score_sheet")}

    def rules_templates(self, language: str) -> list[str]:
        """The game's rules page for players, written in each language
        (``templates/<key>/rules/<language>.html``): the reader's, else the English one."""
        return [f"{self.key}/rules/{language}.html", f"{self.key}/rules/en.html"]
