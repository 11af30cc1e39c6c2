"""Reads for the directors' and scorers' pages: a round's tables with their state, the columns
of a table's sheet (from the game's ``row_layout``) and how many rows a complete sheet has.
Each at a fixed number of queries however many rounds and tables there are."""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from django.urls import reverse

from games import registry
from games.models import Table as HotseatTable

from . import selectors
from .models import Adjustment, Entrant, RoundTable, TableSeat, Tournament

ROOM = 10  # the rows offered for a sheet of no fixed length (a match to a target score)
PROBE = 200  # a sheet not complete after this many rows has no fixed length


# -- a table's sheet: its columns and length ----------------------------------------------

@dataclass(frozen=True)
class Layout:
    """The columns of a table's sheet: the game's field specs, the seats' names (the
    column heads of per-seat fields) and the rows of a complete sheet."""

    fields: list[dict]
    names: list[str]
    length: int

    @property
    def width(self) -> int:
        return sum(span(spec, len(self.names)) for spec in self.fields)

    def heads(self) -> tuple[list[dict], list[dict]]:
        """The two rows of column heads: each field's label (``marked``: the template
        translates it) over its columns, then the seats' names or the places in order."""
        top, bottom = [], []
        for spec in self.fields:
            subs = sub_heads(spec, self.names)
            if subs:
                top.append({"label": spec["label"], "marked": True, "colspan": len(subs),
                            "rowspan": 1})
                bottom += [{"label": sub, "marked": False, "colspan": 1, "rowspan": 1}
                           for sub in subs]
            else:
                top.append({"label": spec["label"], "marked": True, "colspan": 1,
                            "rowspan": 2})
        return top, bottom


def span(spec: dict, seats: int) -> int:
    """How many inputs (columns) a field takes in one row."""
    if spec["kind"] == "per_seat":
        return seats
    if spec["kind"] == "seats":
        return spec["count"]
    return 1


def sub_heads(spec: dict, names: list[str]) -> list[str]:
    """The heads under a field's label: the seats' names, the places 1, 2, …; none for a
    field of one column."""
    if spec["kind"] == "per_seat":
        return list(names)
    if spec["kind"] == "seats" and spec["count"] > 1:
        return [str(place) for place in range(1, spec["count"] + 1)]
    return []


def blank_row(fields: list[dict], seats: int) -> dict:
    """A row of the layout's shape holding the least values (for counting rows only)."""
    row = {}
    for spec in fields:
        kind = spec["kind"]
        if kind == "choice":
            row[spec["key"]] = spec["choices"][0][0]
        elif kind == "seats":
            row[spec["key"]] = list(range(spec["count"]))
        elif kind == "per_seat":
            row[spec["key"]] = [0] * seats
        else:
            row[spec["key"]] = None
    return row


def sheet_length(parts, fields: list[dict], *, seats: int, options: dict,
                 settings: dict) -> int:
    """The rows of a complete sheet: the first count of rows the game calls complete; a
    sheet that rows of nothing never complete (a match to a target) offers ``ROOM``."""
    blank = blank_row(fields, seats)
    for count in range(1, PROBE + 1):
        if parts.complete([blank] * count, seats=seats, options=options, settings=settings):
            return count
    return ROOM


def layout(tournament: Tournament, names: list[str]) -> Layout:
    """The sheet of a table of these players (in seat order) in this tournament."""
    parts = registry.tournament(tournament.game)
    seats = len(names)
    options = parts.table_options(tournament.options, seats)
    fields = parts.row_layout(seats=seats, options=options, settings=tournament.game_settings)
    return Layout(fields, names, sheet_length(parts, fields, seats=seats, options=options,
                                              settings=tournament.game_settings))


# -- the director's page -------------------------------------------------------------------

@dataclass
class TableState:
    model: RoundTable
    number: int
    names: list[str]
    rows: int  # rows on its sheet
    length: int  # rows of a complete sheet
    complete: bool
    counts: bool  # complete, and confirmed where the tournament asks for it
    points: list[int]
    hotseat_url: str | None = None
    watch_url: str | None = None  # its spectators' page
    entered_by: str | None = None
    confirmed_by: str | None = None

    @property
    def seats(self) -> list[tuple[int, str, int]]:
        return list(zip(range(len(self.names)), self.names, self.points, strict=True))

    @property
    def awaiting_confirmation(self) -> bool:
        return self.entered_by is not None and self.confirmed_by is None and not self.counts \
            and self.complete


@dataclass
class RoundState:
    number: int
    released: bool
    model: object
    tables: list[TableState]
    byes: list[str]
    entrants: list[Entrant] = field(default_factory=list)  # everyone seated or with a bye


@dataclass
class RunPage:
    tournament: Tournament
    entrants: list[Entrant]
    rounds: list[RoundState]
    adjustments: list[Adjustment]

    @property
    def draft(self) -> RoundState | None:
        return self.rounds[-1] if self.rounds and not self.rounds[-1].released else None

    @property
    def can_draw(self) -> bool:
        return self.draft is None and len(self.rounds) < self.tournament.rounds_planned

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1


def run_page(tournament: Tournament) -> RunPage:
    """The tournament as its director runs it (9 queries)."""
    played = selectors.played(tournament)
    entrants = played.entrants
    by_name = {entrant.player.name: entrant for entrant in entrants}
    models = [table for tables in played.tables for table in tables]
    users = dict(get_user_model().objects.filter(
        pk__in={pk for table in models for pk in (table.entered_by_id, table.confirmed_by_id)
                if pk is not None}).values_list("pk", "username"))
    tokens = dict(HotseatTable.objects.filter(
        pk__in=[table.hotseat_id for table in models if table.hotseat_id]).values_list(
        "pk", "token"))
    lengths: dict[int, int] = {}
    rounds = []
    for round_, tables, shown in zip(tournament.rounds.order_by("number"), played.tables,
                                     played.rounds, strict=True):
        states = []
        seated = []
        for table, sheet in zip(tables, shown.tables, strict=True):
            seated += [by_name[name] for name in sheet.players]
            size = len(sheet.players)
            if size not in lengths:
                lengths[size] = layout(tournament, sheet.players).length
            states.append(TableState(
                model=table, number=table.number, names=sheet.players, rows=len(sheet.rows),
                length=lengths[size], complete=sheet.complete,
                counts=selectors.counts(tournament, table, sheet), points=sheet.points,
                hotseat_url=(reverse("table", args=[tokens[table.hotseat_id]])
                             if table.hotseat_id in tokens else None),
                watch_url=reverse("watch", args=[table.watch_key]) if table.watch_key else None,
                entered_by=users.get(table.entered_by_id),
                confirmed_by=users.get(table.confirmed_by_id)))
        byes = [by_name[name] for name in shown.byes]
        rounds.append(RoundState(
            number=round_.number, released=round_.released, model=round_, tables=states,
            byes=list(shown.byes),
            entrants=sorted(seated + byes, key=lambda entrant: entrant.number)))
    adjustments = list(Adjustment.objects.filter(round__tournament=tournament).select_related(
        "round", "entrant__player", "by").order_by("round__number", "pk"))
    return RunPage(tournament, entrants, rounds, adjustments)


# -- a round's tables and one table -------------------------------------------------------

def round_tables(tournament: Tournament, number: int) -> list[tuple[RoundTable, Layout]]:
    """The tables of round ``number`` with their sheets' layouts (RoundTable.DoesNotExist
    if there is no such round) (3 queries)."""
    round_ = tournament.rounds.filter(number=number).first()
    if round_ is None:
        raise RoundTable.DoesNotExist
    tables = list(round_.tables.order_by("number").prefetch_related(
        Prefetch("seats", TableSeat.objects.order_by("position").select_related(
            "entrant__player"))))
    return [(table, layout(tournament, [str(seat.entrant.player) for seat in
                                        table.seats.all()])) for table in tables]


def round_table(tournament: Tournament, pk: int) -> RoundTable:
    """A table of this tournament with its round, seats and rows (RoundTable.DoesNotExist)."""
    return (RoundTable.objects.select_related("round").prefetch_related(
        Prefetch("seats", TableSeat.objects.order_by("position").select_related(
            "entrant__player")), "rows")
        .get(pk=pk, round__tournament=tournament))


def table_names(table: RoundTable) -> list[str]:
    return [str(seat.entrant.player) for seat in table.seats.all()]


def saved_rows(table: RoundTable) -> list[dict]:
    return [row.data for row in sorted(table.rows.all(), key=lambda row: row.index)]
