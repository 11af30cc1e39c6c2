"""Reads for a table's entry link: the table of a key, and its report as the players' phones
show it (its confirmed rows in words, the row awaiting confirmation), at a fixed number of
queries."""

from dataclasses import dataclass

from django.db.models import Prefetch

from games import registry

from . import selectors
from .models import ReportedRow, RoundTable, TableSeat, Tournament
from .run.selectors import Layout, table_names
from .selectors_corrections import columns, row_words


def entry_table(key: str) -> RoundTable | None:
    """The table of this entry key, with its round, tournament and seats (2 queries)."""
    if not isinstance(key, str) or not key:
        return None
    return (
        RoundTable.objects.select_related("round__tournament")
        .prefetch_related(
            Prefetch(
                "seats", TableSeat.objects.order_by("position").select_related("entrant__player")
            )
        )
        .filter(entry_key=key)
        .first()
    )


@dataclass(frozen=True)
class Line:
    index: int  # the deal, from 1
    words: list[tuple[str, str]]  # (label, value) of each column


@dataclass(frozen=True)
class Report:
    tournament: Tournament
    table: RoundTable
    layout: Layout  # one row's columns
    rows: list[Line]  # the confirmed rows
    pending: ReportedRow | None
    pending_words: list[tuple[str, str]]
    complete: bool
    counts: bool

    @property
    def names(self) -> list[str]:
        return self.layout.names

    @property
    def next_index(self) -> int:
        return len(self.rows) + 1

    def entered_by(self) -> str:
        return self.names[self.pending.seat] if self.pending else ""


def report(table: RoundTable) -> Report:
    """The table's report: its rows as its sheet keeps them and the row awaiting
    confirmation, both in words (2 queries)."""
    tournament = table.round.tournament
    names = table_names(table)
    layout = columns(tournament, names)
    rows = list(table.rows.order_by("index").values_list("index", "data"))
    pending = ReportedRow.objects.filter(table=table).first()
    sheet = selectors.table_sheet(
        registry.tournament(tournament.game), tournament, names, [data for _, data in rows]
    )
    return Report(
        tournament,
        table,
        layout,
        [Line(index, row_words(layout, data)) for index, data in rows],
        pending,
        row_words(layout, pending.data) if pending else [],
        sheet.complete,
        selectors.counts(tournament, table, sheet),
    )
