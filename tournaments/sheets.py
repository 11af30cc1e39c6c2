"""A table's sheet checked row by row (pure Python, no Django) with the game's tournament
parts (``games.engine.tournament``).

``check_sheet`` checks every row with the game's parts and stops at the first bad one
(``SheetError``: its row, counted from 1, and the ``RowError``); a row after the sheet is
complete is an error at that row.
"""

from dataclasses import dataclass

from core.refusals import Refusal
from games import registry
from games.engine.base import RulesError
from games.engine.tournament import RowError, TournamentParts, gettext_noop


@dataclass(frozen=True)
class Sheet:
    rows: list[dict]  # as the sheet keeps them (each game's canonical row)
    points: list[int]  # each seat's game points over the rows
    complete: bool  # the table counts


class SheetError(Refusal):
    """The first bad row of a sheet: ``row`` counted from 1 (None: the rows are not a list),
    ``error`` the RowError saying why."""

    def __init__(self, row: int | None, error: RowError):
        super().__init__(error.message, **error.params)
        self.row = row
        self.error = error

    def __str__(self) -> str:
        return str(self.error) if self.row is None else f"row {self.row}: {self.error}"


def check_sheet(
    parts: TournamentParts, rows, *, seats: int, options: dict, settings: dict
) -> Sheet:
    """The rows of a table of ``seats`` checked in order; ``options`` are the tournament's
    (the game's ``table_options`` adjusts them to the table)."""
    if not isinstance(rows, list):
        raise SheetError(None, RowError(gettext_noop("The rows must be a list.")))
    options = parts.table_options(options, seats)
    try:
        parts.complete([], seats=seats, options=options, settings=settings)
    except RulesError as exc:  # e.g. Фантан's start at the two, at a table of three
        raise SheetError(
            None,
            RowError(
                gettext_noop(
                    "The tournament's options do not fit a table of %(seats)s: %(reason)s"
                ),
                seats=seats,
                reason=str(exc),
            ),
        ) from None
    kept: list[dict] = []
    points = [0] * seats
    for number, row in enumerate(rows, start=1):
        if parts.complete(kept, seats=seats, options=options, settings=settings):
            raise SheetError(
                number,
                RowError(
                    gettext_noop("The sheet is already complete: no row may follow its last deal.")
                ),
            )
        try:
            checked = parts.check_row(row, seats=seats, options=options, settings=settings)
        except RowError as error:
            raise SheetError(number, error) from None
        kept.append(checked)
        for seat, figure in enumerate(
            parts.row_points(checked, seats=seats, options=options, settings=settings)
        ):
            points[seat] += figure
    done = parts.complete(kept, seats=seats, options=options, settings=settings)
    return Sheet(rows=kept, points=points, complete=done)


def sum_sheet(
    parts: TournamentParts, rows: list[dict], *, seats: int, options: dict, settings: dict
) -> Sheet:
    """The figures of rows already checked (as saved): their points, and whether the sheet
    is complete — without checking them again."""
    options = parts.table_options(options, seats)
    points = [0] * seats
    for row in rows:
        for seat, figure in enumerate(
            parts.row_points(row, seats=seats, options=options, settings=settings)
        ):
            points[seat] += figure
    return Sheet(
        rows=rows,
        points=points,
        complete=parts.complete(rows, seats=seats, options=options, settings=settings),
    )


def planned_deals(tournament, seats: int) -> int | None:
    """The deals of a complete sheet at a table of ``seats`` of ``tournament`` (its game,
    options and settings); None for a match to a target score."""
    parts = registry.tournament(tournament.game)
    return parts.sheet_length(
        seats=seats,
        options=parts.table_options(tournament.options, seats),
        settings=tournament.game_settings,
    )
