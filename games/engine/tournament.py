"""What a game brings to a tournament (pure Python, no Django): the interface a game's
``games/<game>/tournament.py`` implements as ``TOURNAMENT`` (optional: a game without it is
not played in tournaments), found through ``games.registry.tournament(key)``, and the small
readers its ``check_row`` shares for a row's shape. Games and the tournaments app both import
it from here, so that a game's parts need nothing of the tournaments app.

A table's **sheet** is its list of rows, one per deal, as docs/rules/tournaments.md
writes them for typed-in sheets; a table played in the hotseat gets the same rows from its
deals' results. ``settings`` are the tournament's own settings a game may read (Фантан's
``deals`` per round).
"""

from abc import abstractmethod
from typing import Protocol

from core.refusals import Refusal, gettext_noop

__all__ = [
    "RowError",
    "TournamentParts",
    "gettext_noop",
    "is_whole",
    "read_object",
    "read_seat",
    "read_seats",
    "read_whole",
    "read_wholes",
]


class RowError(Refusal):
    """A sheet row that breaks a rule: ``message`` (English, %(name)s placeholders, marked
    for translation) and ``params`` say why."""

    def __str__(self) -> str:
        return self.message % self.params if self.params else self.message


class TournamentParts(Protocol):
    """A game's parts of a tournament. A game may subclass it for the defaults of
    ``read_settings``, ``allowed_sizes`` and ``table_options``."""

    key: str  # the game, as records and tournament documents name it
    seating: str  # the default seating method: "mixing" or "swiss"
    setting_names: tuple[str, ...] = ()  # the tournament settings the game reads

    @abstractmethod
    def table_sizes(self, entrants: int) -> list[int]:
        """The sizes of a round's tables for this many entrants, largest first (the rest
        have a bye); [] when they are too few for one table."""

    def read_settings(self, raw: dict) -> dict:
        """The game's tournament settings (keys of ``setting_names``) with the defaults
        filled in; ValueError saying which one is wrong."""
        return {}

    def allowed_sizes(self) -> tuple[int, ...]:
        """The table sizes a director may seat (an imported round may differ from
        ``table_sizes``)."""
        return (max(self.table_sizes(64)),)

    def table_options(self, options: dict, seats: int) -> dict:
        """The options of a table of ``seats`` players (a game may adjust them to the size)."""
        return dict(options)

    @abstractmethod
    def check_row(self, row, *, seats: int, options: dict, settings: dict) -> dict:
        """The row as the sheet keeps it, checked; RowError naming the rule it breaks."""

    @abstractmethod
    def row_points(self, row: dict, *, seats: int, options: dict, settings: dict) -> list[int]:
        """Each seat's game points for a checked row."""

    @abstractmethod
    def sheet_length(self, *, seats: int, options: dict, settings: dict) -> int | None:
        """How many rows a complete sheet holds, or None when it is complete at a score
        rather than after a number of deals (a duplicate tournament needs the number)."""

    @abstractmethod
    def complete(self, rows: list[dict], *, seats: int, options: dict, settings: dict) -> bool:
        """The sheet is complete: the table counts. A row after that is an error."""

    @abstractmethod
    def rows_from_results(self, results: list[dict]) -> list[dict]:
        """A hotseat table's finished deals (their engine results, in order) as sheet rows."""

    @abstractmethod
    def row_layout(self, *, seats: int, options: dict, settings: dict) -> list[dict]:
        """The columns of one row of a table's sheet, for pages that type it in or print it:
        one field spec per key of the row ``check_row`` reads, in order. ``options`` are the
        table's (as ``check_row`` gets them). Each spec has ``key``, ``label`` (English,
        marked with ``gettext_noop``; the web layer translates) and ``kind``:

        - ``"choice"``: one of ``choices``, a list of ``[value, label]`` (labels marked);
        - ``"seats"``: a list of ``count`` different seats, in order;
        - ``"per_seat"``: a list of one whole number per seat;
        - ``"seat_or_none"``: one seat, or null (``none_label`` says what null means).

        Pure: the same arguments give the same layout.
        """


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
        raise RowError(
            gettext_noop("“%(name)s” must be a seat from 0 to %(last)s."), name=name, last=seats - 1
        )
    return value


def read_wholes(value, name: str, length: int) -> list[int]:
    """A list of ``length`` whole numbers."""
    if (
        not isinstance(value, list)
        or len(value) != length
        or not all(is_whole(item) for item in value)
    ):
        raise RowError(
            gettext_noop("“%(name)s” must be a list of %(count)s whole numbers."),
            name=name,
            count=length,
        )
    return list(value)


def read_seats(value, name: str, length: int, seats: int) -> list[int]:
    """A list of ``length`` different seats."""
    if (
        not isinstance(value, list)
        or len(value) != length
        or not all(is_whole(item) and 0 <= item < seats for item in value)
    ):
        raise RowError(
            gettext_noop("“%(name)s” must be a list of %(count)s seats, each from 0 to %(last)s."),
            name=name,
            count=length,
            last=seats - 1,
        )
    for seat in value:
        if value.count(seat) > 1:
            raise RowError(
                gettext_noop("“%(name)s” names seat %(seat)s twice."), name=name, seat=seat
            )
    return list(value)
