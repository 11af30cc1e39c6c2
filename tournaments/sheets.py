"""A table's sheet checked row by row (pure Python, no Django), and the small readers the
games' ``check_row`` share for a row's shape (see ``tournaments.parts``).

``check_sheet`` checks every row with the game's parts and stops at the first bad one
(``SheetError``: its row, counted from 1, and the ``RowError``); a row after the sheet is
complete is an error at that row.
"""

from dataclasses import dataclass

from games.engine.base import RulesError
from tournaments.parts import RowError, TournamentParts, gettext_noop


@dataclass(frozen=True)
class Sheet:
    rows: list[dict]  # as the sheet keeps them (each game's canonical row)
    points: list[int]  # each seat's game points over the rows
    complete: bool  # the table counts


class SheetError(Exception):
    """The first bad row of a sheet: ``row`` counted from 1 (None: the rows are not a list),
    ``error`` the RowError saying why."""

    def __init__(self, row: int | None, error: RowError):
        super().__init__(str(error))
        self.row = row
        self.error = error
        self.message = error.message
        self.params = error.params

    def __str__(self) -> str:
        return str(self.error) if self.row is None else f"row {self.row}: {self.error}"


def check_sheet(parts: TournamentParts, rows, *, seats: int, options: dict,
                settings: dict) -> Sheet:
    """The rows of a table of ``seats`` checked in order; ``options`` are the tournament's
    (the game's ``table_options`` adjusts them to the table)."""
    if not isinstance(rows, list):
        raise SheetError(None, RowError(gettext_noop("The rows must be a list.")))
    options = parts.table_options(options, seats)
    try:
        parts.complete([], seats=seats, options=options, settings=settings)
    except RulesError as exc:  # e.g. Фантан's start at the two, at a table of three
        raise SheetError(None, RowError(gettext_noop(
            "The tournament's options do not fit a table of %(seats)s: %(reason)s"),
            seats=seats, reason=str(exc))) from None
    kept: list[dict] = []
    points = [0] * seats
    for number, row in enumerate(rows, start=1):
        if parts.complete(kept, seats=seats, options=options, settings=settings):
            raise SheetError(number, RowError(gettext_noop(
                "The sheet is already complete: no row may follow its last deal.")))
        try:
            checked = parts.check_row(row, seats=seats, options=options, settings=settings)
        except RowError as error:
            raise SheetError(number, error) from None
        kept.append(checked)
        for seat, figure in enumerate(parts.row_points(checked, seats=seats, options=options,
                                                       settings=settings)):
            points[seat] += figure
    done = parts.complete(kept, seats=seats, options=options, settings=settings)
    return Sheet(rows=kept, points=points, complete=done)


def sum_sheet(parts: TournamentParts, rows: list[dict], *, seats: int, options: dict,
              settings: dict) -> Sheet:
    """The figures of rows already checked (as saved): their points, and whether the sheet
    is complete — without checking them again."""
    options = parts.table_options(options, seats)
    points = [0] * seats
    for row in rows:
        for seat, figure in enumerate(parts.row_points(row, seats=seats, options=options,
                                                       settings=settings)):
            points[seat] += figure
    return Sheet(rows=rows, points=points,
                 complete=parts.complete(rows, seats=seats, options=options,
                                         settings=settings))


# -- reading a row's shape (shared by the games' check_row) ----------------------------------

def is_whole(value) -> bool:
    """A JSON whole number: an int, not a bool (nor 4.0)."""
    return type(value) is int


def read_object(row, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    """The row as a dict holding every ``required`` key and nothing but those and
    ``optional``; RowError naming the first key missing or unknown."""
    if not isinstance(row, dict):
        raise RowError(gettext_noop("A row must be a JSON object."))
    for key in required:
        if key not in row:
            raise RowError(gettext_noop("The row has no “%(key)s”."), key=key)
    for key in row:
        if key not in required and key not in optional:
            raise RowError(gettext_noop("The row has an unknown key “%(key)s”."), key=str(key))
    return row


def read_whole(value, name: str) -> int:
    if not is_whole(value):
        raise RowError(gettext_noop("“%(name)s” must be a whole number."), name=name)
    return value


def read_seat(value, name: str, seats: int) -> int:
    if not is_whole(value) or not 0 <= value < seats:
        raise RowError(gettext_noop("“%(name)s” must be a seat from 0 to %(last)s."),
                       name=name, last=seats - 1)
    return value


def read_wholes(value, name: str, length: int) -> list[int]:
    """A list of ``length`` whole numbers."""
    if (not isinstance(value, list) or len(value) != length
            or not all(is_whole(item) for item in value)):
        raise RowError(gettext_noop("“%(name)s” must be a list of %(count)s whole numbers."),
                       name=name, count=length)
    return list(value)


def read_seats(value, name: str, length: int, seats: int) -> list[int]:
    """A list of ``length`` different seats."""
    if (not isinstance(value, list) or len(value) != length
            or not all(is_whole(item) and 0 <= item < seats for item in value)):
        raise RowError(gettext_noop(
            "“%(name)s” must be a list of %(count)s seats, each from 0 to %(last)s."),
            name=name, count=length, last=seats - 1)
    for seat in value:
        if value.count(seat) > 1:
            raise RowError(gettext_noop("“%(name)s” names seat %(seat)s twice."),
                           name=name, seat=seat)
    return list(value)
