"""What a game brings to a tournament (pure Python, no Django): the interface each game's
``games/<game>/tournament.py`` implements as ``TOURNAMENT``, found through
``games.registry.tournament(key)``. The tournament code itself names no game.

A table's **sheet** is its list of rows, one per deal, as ../shared/rules/tournaments.md
writes them for typed-in sheets; a table played in the hotseat gets the same rows from its
deals' results. ``settings`` are the tournament's own settings a game may read (Фантан's
``deals`` per round).
"""

from abc import ABC, abstractmethod


def gettext_noop(message: str) -> str:
    """Marks a message for translation; the web layer translates."""
    return message


class RowError(Exception):
    """A sheet row that breaks a rule: ``message`` (English, %(name)s placeholders, marked
    for translation) and ``params`` say why."""

    def __init__(self, message: str, **params):
        super().__init__(message)
        self.message = message
        self.params = params

    def __str__(self) -> str:
        return self.message % self.params if self.params else self.message


class TournamentParts(ABC):
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
