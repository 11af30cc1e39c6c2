"""Reads of a table's results, at a fixed number of queries: for correcting a typed sheet
(the club's pages and the admin's), a table's rows and one row with its history (who, when,
why, old → new), each worded as a person reads it — a seat numbered from 1 with its player,
a contract with what it counts; for a table's entry link, the table of a key and its report
as the players' phones show it (its confirmed rows in words, the row awaiting
confirmation)."""

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Prefetch
from django.utils.translation import gettext

from core.numbers import figure
from games import registry

from .. import selectors
from ..models import ReportedRow, RoundTable, SheetRow, TableSeat, Tournament
from ..run.selectors import Layout, round_table, table_names
from .services import FIRST_REASON


def columns(tournament: Tournament, names: list[str]) -> Layout:
    """The columns of one row of a table of these players (in seat order): the typed
    sheet's layout, without counting the rows of a complete sheet."""
    parts = registry.tournament(tournament.game)
    options = parts.table_options(tournament.options, len(names))
    return Layout(
        parts.row_layout(seats=len(names), options=options, settings=tournament.game_settings),
        names,
        1,
    )


def seat_words(seat, names: list[str]) -> str:
    """A seat as the typed sheet offers it: its number from 1 and its player."""
    if type(seat) is int and 0 <= seat < len(names):
        return f"{seat + 1} · {names[seat]}"
    return str(seat)


def value_words(spec: dict, value, names: list[str]) -> str:
    """One column's value of a row (a field of the game's ``row_layout``) in words."""
    kind = spec["kind"]
    if kind == "seat_or_none":
        return gettext(spec["none_label"]) if value is None else seat_words(value, names)
    if value is None:
        return "—"
    if kind == "choice":
        label = {choice: text for choice, text in spec["choices"]}.get(value)
        return f"{value} · {gettext(label)}" if label else str(value)
    if not isinstance(value, list):
        return str(figure(value))
    if kind == "seats":
        return ", ".join(seat_words(seat, names) for seat in value)
    if kind == "per_seat" and len(value) == len(names):
        return ", ".join(
            f"{name} {figure(number)}" for name, number in zip(names, value, strict=True)
        )
    return ", ".join(str(figure(item)) for item in value)


def row_words(layout_: Layout, data) -> list[tuple[str, str]]:
    """(label, value) of each column of a row, in the reader's language."""
    data = data if isinstance(data, dict) else {}
    return [
        (gettext(spec["label"]), value_words(spec, data.get(spec["key"]), layout_.names))
        for spec in layout_.fields
    ]


def reporters_words(row: SheetRow, names: list[str]) -> str:
    """Who reported a row from the table's phones: the player who entered it and the one who
    confirmed it; "" for a row typed in or played here."""
    seats = (row.entered_by_seat, row.confirmed_by_seat)
    if not all(type(seat) is int and 0 <= seat < len(names) for seat in seats):
        return ""
    entered, confirmed = (names[seat] for seat in seats)
    return gettext("entered by %(entered)s, confirmed by %(confirmed)s") % {
        "entered": entered,
        "confirmed": confirmed,
    }


def reason_words(reason: str | None) -> str:
    """A version's reason; the first version's, which the services write, translated."""
    return gettext(FIRST_REASON) if reason == FIRST_REASON else (reason or "")


@dataclass
class Change:
    label: str
    old: str
    new: str


def changes(layout_: Layout, old, new) -> list[Change]:
    """The columns that differ between two versions of a row, in words."""
    return [
        Change(label, before, after)
        for (label, before), (_, after) in zip(
            row_words(layout_, old), row_words(layout_, new), strict=True
        )
        if before != after
    ]


@dataclass
class Version:
    """One version of a row, as its history keeps it: ``history_id`` None for a row never
    changed (its history begins with its first correction)."""

    history_id: int | None
    when: datetime
    who: str
    why: str
    values: list[tuple[str, str]]
    changes: list[Change] = field(default_factory=list)  # from the version before
    current: bool = False


@dataclass
class RowPage:
    tournament: Tournament
    table: RoundTable
    layout: Layout
    row: SheetRow
    versions: list[Version]  # the newest first

    @property
    def played_here(self) -> bool:
        return self.table.hotseat_id is not None

    @property
    def names(self) -> list[str]:
        return self.layout.names


def table_of(tournament: Tournament, pk: int) -> tuple[RoundTable, Layout]:
    """A table of the tournament with its seats and rows, and its sheet's layout
    (RoundTable.DoesNotExist) (3 queries)."""
    table = round_table(tournament, pk)
    return table, columns(tournament, table_names(table))


def row_page(tournament: Tournament, pk: int, index: int) -> RowPage:
    """Row ``index`` (from 1) of a table with every version of it, the newest first
    (RoundTable.DoesNotExist, SheetRow.DoesNotExist) (5 queries)."""
    table, layout_ = table_of(tournament, pk)
    row = next((row for row in table.rows.all() if row.index == index), None)
    if row is None:
        raise SheetRow.DoesNotExist
    records = list(
        SheetRow.history.filter(id=row.pk, history_type__in=("+", "~"))
        .select_related("history_user")
        .order_by("history_id")
    )
    versions, before = [], None
    for record in records:
        versions.append(
            Version(
                record.history_id,
                record.history_date,
                record.history_user.get_username() if record.history_user else "",
                reason_words(record.history_change_reason),
                row_words(layout_, record.data),
                changes(layout_, before, record.data) if before is not None else [],
            )
        )
        before = record.data
    if not versions:  # never corrected: the row as it was typed in
        entered = (
            RoundTable.objects.filter(pk=table.pk)
            .values_list("entered_by__username", flat=True)
            .first()
        )
        versions.append(
            Version(
                None,
                row.created_at,
                entered or "",
                reason_words(FIRST_REASON),
                row_words(layout_, row.data),
            )
        )
    if not versions[0].who:  # as it was first saved: by its players, if they reported it
        versions[0].who = reporters_words(row, layout_.names)
    versions[-1].current = True
    return RowPage(tournament, table, layout_, row, versions[::-1])


@dataclass
class RowLine:
    row: SheetRow
    words: list[tuple[str, str]]
    corrections: int


def table_rows(table: RoundTable, layout_: Layout) -> list[RowLine]:
    """The table's rows in words, each with how often it has been corrected (1 query)."""
    rows = sorted(table.rows.all(), key=lambda row: row.index)
    counted = dict(
        SheetRow.history.filter(id__in=[row.pk for row in rows], history_type="~")
        .values("id")
        .annotate(n=Count("history_id"))
        .values_list("id", "n")
    )
    return [RowLine(row, row_words(layout_, row.data), counted.get(row.pk, 0)) for row in rows]


# -- a table's entry link: the table of a key, its report as the players' phones show it --


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
