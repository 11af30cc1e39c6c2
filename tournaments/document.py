"""The tournament document (docs/rules/tournaments.md): read and check one, write one.

Pure Python: ``read`` gives a :class:`Document` whose every sheet row is checked by the
game's own tournament parts, or raises ``NotADocument`` (not a tournament document at all:
exit status 2) or ``BrokenRule`` (the first rule broken, in document order, with where:
exit status 1).
"""

import datetime
import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction

from core.refusals import Refusal, gettext_noop
from games import registry
from games.engine.base import RulesError
from games.engine.tournament import RowError

from .duplicate.scoring import check_ruling
from .sheets import SheetError, check_sheet
from .standings import DUPLICATE_KEYS, KEYS

ORDER_KEYS = KEYS
DUPLICATE_ORDER = ["percent", "field"]
SEATINGS = ("mixing", "swiss")
# What the database holds (the tests compare them with the columns): checked here, so that
# what passes is stored as it was written.
TOURNAMENT_NAME_LENGTH = 200
PLAYER_NAME_LENGTH = 60  # the name, and its case-folded key
MOST_ROUNDS = 100
SEEDS = range(-(2**63), 2**63)
MOST_BYE_POINTS = Fraction(999999, 100)  # four digits before the point, two after
FIELDS = (
    "tournament",
    "date",
    "game",
    "options",
    "rounds_planned",
    "seating",
    "seed",
    "bye_points",
    "order",
    "duplicate",
    "players",
    "rounds",
    "rulings",
)
RULING_FIELDS = {"round", "table", "deal", "seat", "ruling", "reason"}
REASON_LENGTH = 300


class NotADocument(Exception):
    """Bad JSON, a missing, mistyped or out of range top-level field, an unknown game or
    option; the message begins with the field's name."""


class OptionsRefused(NotADocument):
    """Options the game's rules refuse; ``refusal`` is the rules' (a ``RulesError``)."""

    def __init__(self, refusal):
        super().__init__(f"options: {refusal}")
        self.refusal = refusal


class DuplicateRefused(NotADocument):
    """A duplicate setting the rules refuse; ``refusal`` says why, for the form's page."""

    def __init__(self, field: str, message: str, **params):
        self.refusal = Refusal(message, **params)
        super().__init__(f"{field}: {message % params if params else message}")


class Unplayable(NotADocument):
    """Options that a table of ``size`` players, which a round may need, cannot play."""

    def __init__(self, size: int, reason: str):
        super().__init__(f"options: not playable at a table of {size}: {reason}")
        self.size = size


class BrokenRule(Refusal):
    """The first rule a document breaks: ``where`` is "round R, table T, row K" (or
    shorter); ``message`` and ``params`` say why (translatable, as RowError's)."""

    def __init__(self, where: str, message: str, **params):
        super().__init__(message, **params)
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message % self.params if self.params else self.message}"


@dataclass
class Table:
    players: list[str]  # in seat order
    rows: list[dict]  # checked, as the sheet keeps them
    points: list[int]  # each seat's game points so far
    complete: bool


@dataclass
class Round:
    tables: list[Table]
    byes: list[str]


@dataclass
class Document:
    name: str
    game: str
    options: dict
    settings: dict  # the game's own tournament settings (Фантан's deals per round)
    rounds_planned: int
    seating: str
    seed: int
    bye_points: Fraction
    order: list[str]
    players: list[str]  # in entry order
    rounds: list[Round] = field(default_factory=list)
    date: datetime.date | None = None  # optional: an import without one is dated today
    duplicate: bool = False  # every table of a round's group plays the same deals
    # the directors' rulings on its deals: {"round", "table" (both from 1), "deal" (from 1),
    # "seat" (from 0; null for a fouled deal), "ruling", "reason"}
    rulings: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        """The document as the rules write it; reading it again gives the same document."""
        return {
            "tournament": self.name,
            **({"date": self.date.isoformat()} if self.date else {}),
            "game": self.game,
            "options": self.options,
            "rounds_planned": self.rounds_planned,
            "seating": self.seating,
            "seed": self.seed,
            **self.settings,
            "bye_points": number(self.bye_points),
            "order": self.order,
            **({"duplicate": True} if self.duplicate else {}),
            "players": self.players,
            "rounds": [
                {
                    "tables": [{"players": t.players, "rows": t.rows} for t in r.tables],
                    "byes": r.byes,
                }
                for r in self.rounds
            ],
            **({"rulings": self.rulings} if self.rulings else {}),
        }


def number(value: Fraction) -> int | float:
    """A JSON number: whole when it is whole, else a float (4.5)."""
    return int(value) if value.denominator == 1 else float(value)


def is_int(value) -> bool:
    return type(value) is int  # not bool


def not_a_number(constant: str):
    raise NotADocument(f"not JSON: {constant} is not a number")


def read(text: str) -> Document:
    try:
        data = json.loads(text, parse_constant=not_a_number)  # no NaN, no Infinity
    except ValueError as exc:  # bad JSON, or a number of thousands of digits
        raise NotADocument(f"not JSON: {exc}") from None
    except RecursionError:
        raise NotADocument("not JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise NotADocument("a tournament document is a JSON object")
    doc = read_header(data)
    doc.rounds = [read_round(index, raw, doc) for index, raw in enumerate(data["rounds"], start=1)]
    doc.rulings = read_rulings(data.get("rulings", []), doc)
    return doc


def read_header(data: dict) -> Document:
    """Everything but the rounds' contents; NotADocument for any field that is wrong."""
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not players
        or not all(isinstance(p, str) and p.strip() and p.isprintable() for p in players)
    ):
        raise NotADocument("players must be a list of names (printable text)")
    seen: dict[str, str] = {}
    for name in players:
        stored = " ".join(name.split())  # as the club keeps it, and its key folded
        if max(len(stored), len(stored.casefold())) > PLAYER_NAME_LENGTH:
            raise NotADocument(
                f"players: a name may be at most {PLAYER_NAME_LENGTH} characters long "
                f"({name[:20]!r}…)"
            )
        key = player_key(name)
        if key in seen:
            raise NotADocument(
                f"players must name each entrant once: {seen[key]!r} and {name!r} are one player"
            )
        seen[key] = name
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise NotADocument("rounds must be a list")
    if len(rounds) > MOST_ROUNDS:
        raise NotADocument(f"rounds: at most {MOST_ROUNDS} rounds")
    return Document(**read_settings(data, rounds_held=len(rounds)), players=players)


def player_key(name: str) -> str:
    """Names that are one player: spaces collapsed, compatibility forms and case folded
    ("Frank", "frank" and "ｆｒａｎｋ")."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


def read_settings(data: dict, rounds_held: int = 0) -> dict:
    """A tournament's name, game, options and settings (the document's fields but its
    players and rounds), checked; NotADocument for any that is wrong."""
    try:
        parts = registry.tournament(data.get("game"))
    except registry.NoTournaments:
        raise NotADocument(f"the game {data.get('game')!r} is not played in tournaments") from None
    except registry.UnknownGame:
        raise NotADocument(f"unknown game {data.get('game')!r}") from None
    unknown = sorted(set(data) - set(FIELDS) - set(parts.setting_names))
    if unknown:
        raise NotADocument(f"unknown field {unknown[0]!r}")
    name = data.get("tournament")
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise NotADocument("tournament must be the tournament's name (printable text)")
    if len(name.strip()) > TOURNAMENT_NAME_LENGTH:
        raise NotADocument(
            f"tournament: a name may be at most {TOURNAMENT_NAME_LENGTH} characters long"
        )
    try:
        options = registry.rules(parts.key).parse_options(data.get("options"))
    except RulesError as exc:
        raise OptionsRefused(exc) from None
    fit_every_table(parts, options)
    try:
        settings = parts.read_settings(
            {key: data[key] for key in parts.setting_names if key in data}
        )
    except ValueError as exc:
        raise NotADocument(str(exc)) from None
    least = max(rounds_held, 1)
    planned = data.get("rounds_planned", least)
    if not is_int(planned) or not least <= planned <= MOST_ROUNDS:
        raise NotADocument(
            f"rounds_planned must be a whole number from {least} (the rounds held) to {MOST_ROUNDS}"
        )
    seating = data.get("seating", parts.seating)
    if not isinstance(seating, str) or seating not in SEATINGS:
        raise NotADocument('seating must be "mixing" or "swiss"')
    seed = data.get("seed", 0)
    if not is_int(seed) or seed not in SEEDS:
        raise NotADocument(f"seed must be a whole number from {SEEDS.start} to {SEEDS.stop - 1}")
    bye_points = read_bye_points(data.get("bye_points", 3))
    duplicate = read_duplicate(parts, options, settings, data.get("duplicate", False))
    keys = ORDER_KEYS + DUPLICATE_KEYS
    order = data.get("order", DUPLICATE_ORDER if duplicate else list(ORDER_KEYS))
    if (
        not isinstance(order, list)
        or not order
        or len(set(map(str, order))) != len(order)
        or not all(key in keys for key in order)
    ):
        raise NotADocument(f"order must list some of {', '.join(keys)}, each once")
    if not duplicate and set(order) & set(DUPLICATE_KEYS):
        raise DuplicateRefused(
            "order",
            gettext_noop(
                "Percentages, the field figure and scored deals rank a duplicate tournament only."
            ),
        )
    date = data.get("date")
    if date is not None:
        date = read_date(date)
    return {
        "name": name.strip(),
        "date": date,
        "game": parts.key,
        "options": options,
        "settings": settings,
        "rounds_planned": planned,
        "seating": seating,
        "seed": seed,
        "bye_points": bye_points,
        "order": order,
        "duplicate": duplicate,
    }


def read_duplicate(parts, options: dict, settings: dict, value) -> bool:
    """The duplicate setting, checked: every size of table must play a fixed number of
    deals, the same deals at every table of its group."""
    if type(value) is not bool:
        raise NotADocument("duplicate must be true or false")
    if value and any(
        parts.sheet_length(
            seats=size, options=parts.table_options(options, size), settings=settings
        )
        is None
        for size in parts.allowed_sizes()
    ):
        raise DuplicateRefused(
            "duplicate",
            gettext_noop(
                "A duplicate tournament plays the same number of deals at every table: a "
                "match to a target score cannot be duplicate."
            ),
        )
    return value


def fit_every_table(parts, options: dict) -> None:
    """The options must be playable at every size of table a round may need (Фантан's start
    at the two has no table of three); ``Unplayable`` names the first size that is not."""
    rules = registry.rules(parts.key)
    for size in parts.allowed_sizes():
        try:
            rules.parse_options(parts.table_options(options, size))
        except RulesError as exc:
            raise Unplayable(size, str(exc)) from None


def read_bye_points(value) -> Fraction:
    """Bye points from 0 to MOST_BYE_POINTS, in hundredths at most, exactly."""
    if type(value) in (int, float) and math.isfinite(value):
        exact = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
        if 0 <= exact <= MOST_BYE_POINTS and (exact * 100).denominator == 1:
            return exact
    raise NotADocument(
        f"bye_points must be a number from 0 to {float(MOST_BYE_POINTS)}, in hundredths at most"
    )


def read_date(value) -> datetime.date:
    """A day as YYYY-MM-DD; NotADocument for anything else."""
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    raise NotADocument("date must be a day written YYYY-MM-DD")


def read_round(index: int, raw, doc: Document) -> Round:
    parts = registry.tournament(doc.game)
    where = f"round {index}"
    if (
        not isinstance(raw, dict)
        or not isinstance(raw.get("tables", []), list)
        or not isinstance(raw.get("byes", []), list)
        or set(raw) - {"tables", "byes"}
    ):
        raise BrokenRule(
            where, gettext_noop("a round is an object with a list of tables and a list of byes")
        )
    entrants = set(doc.players)
    seated: set[str] = set()

    def take(name, place: str) -> str:
        if not isinstance(name, str) or name not in entrants:
            raise BrokenRule(place, gettext_noop("%(name)s is not an entrant"), name=repr(name))
        if name in seated:
            raise BrokenRule(
                place, gettext_noop("%(name)s is seated twice in this round"), name=name
            )
        seated.add(name)
        return name

    tables = []
    for index, table in enumerate(raw.get("tables", []), start=1):
        place = f"{where}, table {index}"
        if (
            not isinstance(table, dict)
            or not isinstance(table.get("players"), list)
            or not isinstance(table.get("rows", []), list)
            or set(table) - {"players", "rows"}
        ):
            raise BrokenRule(
                place,
                gettext_noop("a table is an object with a list of players and a list of rows"),
            )
        players = [take(name, place) for name in table["players"]]
        if len(players) not in parts.allowed_sizes():
            raise BrokenRule(
                place,
                gettext_noop(
                    "a table of %(size)s players: this game is played at tables of %(sizes)s"
                ),
                size=len(players),
                sizes=" or ".join(map(str, parts.allowed_sizes())),
            )
        try:
            sheet = check_sheet(
                parts,
                table.get("rows", []),
                seats=len(players),
                options=doc.options,
                settings=doc.settings,
            )
        except SheetError as exc:
            error: RowError = exc.error
            raise BrokenRule(f"{place}, row {exc.row}", error.message, **error.params) from None
        tables.append(Table(players, sheet.rows, sheet.points, sheet.complete))
    byes = [take(name, where) for name in raw.get("byes", [])]
    return Round(tables, byes)


def read_rulings(raw, doc: Document) -> list[dict]:
    """The directors' rulings on a duplicate tournament's deals, checked against its rounds:
    a fouled deal the whole table's, an adjusted result one seat's, once each."""
    if not isinstance(raw, list):
        raise NotADocument("rulings must be a list")
    if raw and not doc.duplicate:
        raise BrokenRule(
            "rulings", gettext_noop("only a duplicate tournament's deals are ruled on")
        )
    parts = registry.tournament(doc.game)
    rulings, seen = [], set()
    for index, ruling in enumerate(raw, start=1):
        where = f"ruling {index}"
        if not isinstance(ruling, dict) or set(ruling) != RULING_FIELDS:
            raise BrokenRule(
                where,
                gettext_noop("a ruling is an object of round, table, deal, seat, ruling, reason"),
            )
        number, table, deal, seat = (ruling[k] for k in ("round", "table", "deal", "seat"))
        if not all(map(is_int, (number, table, deal))) or not (
            1 <= number <= len(doc.rounds) and 1 <= table <= len(doc.rounds[number - 1].tables)
        ):
            raise BrokenRule(where, gettext_noop("there is no such round or table"))
        seats = len(doc.rounds[number - 1].tables[table - 1].players)
        options = parts.table_options(doc.options, seats)
        deals = parts.sheet_length(seats=seats, options=options, settings=doc.settings) or 0
        try:  # as the directors' page checks it
            check_ruling(kind=ruling["ruling"], deal=deal, seat=seat, seats=seats, deals=deals)
        except Refusal as refused:
            raise BrokenRule(where, refused.message, **refused.params) from None
        reason = ruling["reason"]
        if not isinstance(reason, str) or not reason.strip() or len(reason) > REASON_LENGTH:
            raise BrokenRule(
                where, gettext_noop("a ruling gives its reason, at most 300 characters")
            )
        if (number, table, deal, seat) in seen:
            raise BrokenRule(where, gettext_noop("a second ruling on the same deal and seat"))
        seen.add((number, table, deal, seat))
        rulings.append({**ruling, "reason": " ".join(reason.split())})
    return rulings
