"""The one list of the club's games. Everything else asks here; nothing else names a game.

A game is a package (``games/<key>/``) that is also a Django app (so its templates and static
files are found as any app's are). Its parts, as ``PARTS`` declares them (each typed as a
``typing.Protocol``) and ``register`` checks them:

- ``engine.py`` (required): the rules, pure Python, exposing ``RULES``, a
  ``games.engine.base.Rules``;
- ``robots.py`` (optional): its robot players, pure Python, a
  ``games.engine.robots.RobotPlayers`` (``ROBOTS``, ``MEASURE``, ``sample_state``); a game
  without it offers no robots;
- ``tournament.py`` (optional): its parts of a tournament, pure Python, exposing
  ``TOURNAMENT``, a ``games.engine.tournament.TournamentParts`` (table sizes, the sheet's
  rows and their checks, game points); a game without it is not offered for tournaments;
- ``game.py``: ``GAME``, a :class:`Game` naming its web parts (options form, presenter,
  move parsing) — imported only where Django is set up;
- ``templates/<key>/`` and ``static/<key>/``.

A part that exists but lacks what its Protocol asks is an error (``BrokenGame``) when the game
is registered, or, for the games listed here, when its parts are first asked for; an
optional module that does not exist is simply absent.

This module imports no Django, so that records and simulations can find the rules alone.
"""

import typing
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Protocol

from .engine.base import Rules
from .engine.robots import MEASURES, STRENGTHS, RobotPlayers
from .engine.tournament import TournamentParts

# The registry: one line per game, its key (as records write it) and its package.
GAMES: dict[str, str] = {
    "fantan": "games.fantan",
    "variety": "games.variety",
    "leopard": "games.leopard",
}


class UnknownGame(KeyError):
    pass


class NoTournaments(UnknownGame):
    """The game exists but has no tournament parts: it is not played in tournaments."""


class BrokenGame(TypeError):
    """A game's package whose parts break their Protocol: ``str()`` says which and how."""


class EngineModule(Protocol):
    RULES: Rules


class TournamentModule(Protocol):
    TOURNAMENT: TournamentParts


@dataclass(frozen=True)
class Part:
    module: str  # the module of the game's package
    required: bool
    protocol: type  # what the module must offer
    check: Callable[[str, ModuleType], list[str]] | None = None  # more: a value's own rules


def check_engine(key: str, module) -> list[str]:
    found = module.RULES.key
    return [] if found == key else [f"RULES.key is {found!r}, not the game's key {key!r}"]


def check_robots(key: str, module) -> list[str]:
    problems = [
        f"ROBOTS has an unknown strength {strength!r} (one of {', '.join(STRENGTHS)})"
        for strength in module.ROBOTS
        if strength not in STRENGTHS
    ]
    if module.MEASURE not in MEASURES:
        problems.append(f"MEASURE is {module.MEASURE!r}, not one of {', '.join(MEASURES)}")
    return problems


def check_tournament(key: str, module) -> list[str]:
    found = module.TOURNAMENT.key
    return [] if found == key else [f"TOURNAMENT.key is {found!r}, not the game's key {key!r}"]


PARTS = (
    Part("engine", required=True, protocol=EngineModule, check=check_engine),
    Part("robots", required=False, protocol=RobotPlayers, check=check_robots),
    Part("tournament", required=False, protocol=TournamentModule, check=check_tournament),
)


@dataclass(frozen=True)
class Parts:
    """A registered game's pure-Python parts, checked."""

    rules: Rules
    robots: ModuleType | None  # a RobotPlayers module
    tournament: TournamentParts | None


_checked: dict[str, tuple[str, Parts]] = {}  # key: its package and its parts, once checked


def package(key) -> str:
    try:
        return GAMES[key]
    except (KeyError, TypeError):  # TypeError: a list or an object given as the key
        raise UnknownGame(key) from None


def parts(key) -> Parts:
    """The game's parts, checked the first time they are asked for (``UnknownGame`` if
    there is no such game, ``BrokenGame`` if they break their Protocols)."""
    name = package(key)
    known = _checked.get(key)
    if known is None or known[0] != name:
        known = _checked[key] = (name, load(key, name))
    return known[1]


def rules(key) -> Rules:
    """The rules engine of the game ``key`` (``UnknownGame`` if there is none)."""
    return parts(key).rules


def tournament(key) -> TournamentParts:
    """The tournament parts of the game ``key`` (``UnknownGame`` if there is no such game,
    ``NoTournaments`` if it is not played in tournaments)."""
    found = parts(key).tournament
    if found is None:
        raise NoTournaments(key)
    return found


def has_tournaments(key) -> bool:
    return parts(key).tournament is not None


def robots(key) -> ModuleType | None:
    """The robot players of the game ``key``, its ``robots`` module (a
    ``games.engine.robots.RobotPlayers``); None if the game has no robots (``UnknownGame``
    if there is no such game)."""
    return parts(key).robots


def load(key: str, name: str) -> Parts:
    """The parts of the package ``name`` as the game ``key``, each checked against its
    Protocol; ``BrokenGame`` saying every part at fault."""
    modules: dict[str, ModuleType | None] = {}
    problems = []
    for part in PARTS:
        module_name = f"{name}.{part.module}"
        try:
            module = import_module(module_name)
        except ModuleNotFoundError as exc:
            if not exc.name or not (
                module_name == exc.name or module_name.startswith(f"{exc.name}.")
            ):
                raise  # the part exists but imports something missing: its own error
            if part.required:
                problems.append(f"there is no module {module_name}")
            modules[part.module] = None
            continue
        found = [f"{part.module}.{problem}" for problem in lacks(module, part.protocol)]
        if not found and part.check:
            found = [f"{part.module}.{problem}" for problem in part.check(key, module)]
        problems += found
        modules[part.module] = module
    if problems:
        raise BrokenGame(
            f"the game {key!r} ({name}) breaks its parts' Protocols: " + "; ".join(problems)
        )
    return Parts(
        rules=modules["engine"].RULES,
        robots=modules["robots"],
        tournament=getattr(modules["tournament"], "TOURNAMENT", None),
    )


def lacks(value, protocol: type, prefix: str = "") -> list[str]:
    """What ``value`` lacks of ``protocol``: its attributes (of the declared type; one typed
    by a Protocol checked in turn) and its methods, each named as ``prefix`` + its name."""
    problems = []
    for member, kind in typing.get_type_hints(protocol).items():
        where = f"{prefix}{member}"
        if not hasattr(value, member):
            problems.append(
                f"{where} is missing (see {protocol.__module__}.{protocol.__qualname__})"
            )
            continue
        found = getattr(value, member)
        kind = typing.get_origin(kind) or kind
        if getattr(kind, "_is_protocol", False):
            problems += lacks(found, kind, f"{where}.")
        elif isinstance(kind, type) and not isinstance(found, kind):
            problems.append(f"{where} is a {type(found).__name__}, not a {kind.__name__}")
    for member in methods(protocol):
        where = f"{prefix}{member}"
        if not callable(getattr(value, member, None)):
            problems.append(
                f"{where}() is missing (see {protocol.__module__}.{protocol.__qualname__})"
            )
    return problems


def methods(protocol: type) -> list[str]:
    """The public methods a Protocol asks for, its bases' too."""
    names: dict[str, None] = {}
    for cls in protocol.__mro__:
        if cls in (Protocol, typing.Generic, object) or not getattr(cls, "_is_protocol", False):
            continue
        names.update(
            (name, None)
            for name, member in vars(cls).items()
            if callable(member) and not name.startswith("_")
        )
    return list(names)


def game(key) -> "Game":
    """The game ``key`` with its web parts (Django must be set up)."""
    return import_module(f"{package(key)}.game").GAME


def games() -> list["Game"]:
    return [game(key) for key in GAMES]


def tournament_keys() -> list[str]:
    """The games played in tournaments: those with tournament parts."""
    return [key for key in GAMES if has_tournaments(key)]


def tournament_games() -> list["Game"]:
    return [game(key) for key in tournament_keys()]


def choices() -> list[tuple[str, str]]:
    """(key, name) for a model field's choices. A field given this function itself calls it
    at each use, so that the names follow the reader's language."""
    return [(g.key, g.title) for g in games()]


def register(key: str, package_name: str) -> None:
    """Add a game at run time (the tests' throw-away game), its parts checked first:
    ``BrokenGame`` and nothing added if they break their Protocols. ``unregister`` removes
    it."""
    checked = load(key, package_name)
    GAMES[key] = package_name
    _checked[key] = (package_name, checked)


def unregister(key: str) -> None:
    GAMES.pop(key, None)
    _checked.pop(key, None)


@dataclass(frozen=True)
class Game:
    """What the shared layers need of a game beyond its rules.

    ``name`` is the game's name in Russian, ``english_name`` its name in English; ``title``
    the one of the two a page shows, by the reader's language;
    ``summary`` a translatable line for the front page; ``form`` the options form (a
    ``games.forms.TableForm``); ``presenter`` turns views and results into what the
    templates show (a ``games.page_data.Presenter``); ``moves`` reads an action from a
    POST and writes the form fields of an action (a ``games.move_forms.Moves``).
    """

    key: str
    name: str  # in Russian: "Фантан"
    english_name: str  # in English: "Fan-Tan"
    summary: str
    rules: object
    form: type
    presenter: object
    moves: object
    stylesheet: str | None = None

    @property
    def title(self) -> str:
        """The game's name in the active language: Russian pages name it in Russian, any
        other page in English. Read at each use, never kept, so that it follows the page."""
        from django.utils.translation import get_language  # this module imports no Django

        language = get_language() or ""
        return self.name if language.split("-")[0] == "ru" else self.english_name

    @property
    def templates(self) -> dict[str, str]:
        """The game's own parts of the table page and of the score sheet page."""
        return {
            part: f"{self.key}/{part}.html" for part in ("board", "turn", "result", "score_sheet")
        }

    def rules_templates(self, language: str) -> list[str]:
        """The game's rules page for players, written in each language
        (``templates/<key>/rules/<language>.html``): the reader's, else the English one."""
        return [f"{self.key}/rules/{language}.html", f"{self.key}/rules/en.html"]
