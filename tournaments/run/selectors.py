"""Reads for the directors' and scorers' pages: a round's tables with their state, the columns
of a table's sheet (from the game's ``row_layout``), how many rows a complete sheet has, and
a round's printed sheets. Each at a fixed number of queries however many rounds and tables
there are."""

from dataclasses import dataclass, field
from functools import cached_property

from django.contrib.auth import get_user_model
from django.db.models import Count, Prefetch
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from games import registry
from games.engine.base import RulesError
from games.models import Deal
from games.models import Table as HotseatTable

from .. import selectors
from ..document import MOST_ROUNDS
from ..models import (
    Adjustment,
    DealRuling,
    Entrant,
    ReportedRow,
    RoundTable,
    SheetRow,
    TableSeat,
    Tournament,
)
from ..sheets import planned_deals

ROOM = 10  # the rows offered for a sheet of no fixed length (a match to a target score)


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
        translates it; ``kind``, ``count`` and ``none_label`` let a printed sheet say what to
        write) over its columns, then the seats' names (``seat``: its number, from 1) or the
        places in order."""
        top, bottom = [], []
        for spec in self.fields:
            subs = sub_heads(spec, self.names)
            head = {
                "label": spec["label"],
                "marked": True,
                "kind": spec["kind"],
                "count": spec.get("count", 1),
                "none_label": spec.get("none_label", ""),
                "seats": len(self.names),
            }
            if subs:
                top.append({**head, "colspan": len(subs), "rowspan": 1})
                per_seat = spec["kind"] == "per_seat"
                bottom += [
                    {
                        "label": sub,
                        "marked": False,
                        "colspan": 1,
                        "rowspan": 1,
                        "seat": number if per_seat else None,
                    }
                    for number, sub in enumerate(subs, start=1)
                ]
            else:
                top.append({**head, "colspan": 1, "rowspan": 2})
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


def sheet_length(tournament: Tournament, seats: int) -> int:
    """The rows a typed sheet of a table of ``seats`` offers: a complete sheet's, or
    ``ROOM`` for a match to a target score."""
    return planned_deals(tournament, seats) or ROOM


def layout(tournament: Tournament, names: list[str]) -> Layout:
    """The sheet of a table of these players (in seat order) in this tournament."""
    parts = registry.tournament(tournament.game)
    seats = len(names)
    options = parts.table_options(tournament.options, seats)
    fields = parts.row_layout(seats=seats, options=options, settings=tournament.game_settings)
    return Layout(fields, names, sheet_length(tournament, seats))


# -- the director's page -------------------------------------------------------------------


@dataclass
class TableState:
    model: RoundTable
    number: int
    names: list[str]
    rows: int  # rows on its sheet
    length: int | None  # rows of a complete sheet; None for a match to a target
    complete: bool
    counts: bool  # complete, and confirmed where the tournament asks for it
    points: list[int]
    hotseat_url: str | None = None
    watch_url: str | None = None  # its spectators' page
    entered_by: str | None = None  # the scorer who typed it; its players who entered rows
    confirmed_by: str | None = None  # ...and the scorer or the players who confirmed them
    stopped: bool = False  # played here, its hotseat table finished or abandoned
    reported: bool = False  # its players report its rows through its entry link
    repeats: list = field(default_factory=list)  # a draft's: who met before (run.draft_selectors)

    @property
    def seats(self) -> list[tuple[int, str, int]]:
        """(seat, player, points), the seats numbered from 1 as the room calls them."""
        return list(zip(range(1, len(self.names) + 1), self.names, self.points, strict=True))

    @property
    def state(self) -> str:
        """Where the table stands, the same for a table played here and a typed one:
        ``not_started``, ``playing``, ``stopped`` (left before its sheet was complete),
        ``awaiting`` (a complete typed sheet awaiting its confirmation) or ``counted``."""
        if self.counts:
            return "counted"
        if self.complete:
            return "awaiting"
        if self.stopped:
            return "stopped"
        return "playing" if self.rows or self.hotseat_url else "not_started"

    @property
    def state_words(self) -> str:
        """The state as the page says it, in the reader's language."""
        state, rows, n = self.state, self.rows, self.length
        if state == "playing":
            if n is None:
                return ngettext(
                    "playing: %(rows)s deal so far", "playing: %(rows)s deals so far", rows
                ) % {"rows": rows}
            return ngettext(
                "playing: %(rows)s of %(n)s deal", "playing: %(rows)s of %(n)s deals", n
            ) % {"rows": rows, "n": n}
        if state == "stopped":
            if n is None:
                return ngettext(
                    "stopped after %(rows)s deal", "stopped after %(rows)s deals", rows
                ) % {"rows": rows}
            return ngettext(
                "stopped after %(rows)s of %(n)s deal", "stopped after %(rows)s of %(n)s deals", n
            ) % {"rows": rows, "n": n}
        return {
            "not_started": gettext("not started"),
            "awaiting": gettext("typed, awaiting confirmation"),
            "counted": gettext("counted"),
        }[state]


@dataclass(frozen=True)
class RulingLine:
    """A ruling on a deal as the director's page lists it."""

    ruling: DealRuling
    table: int  # its number in the round
    player: str | None  # the adjusted seat's; None for a fouled table

    @property
    def seat_number(self) -> int | None:
        """The seat as the room calls it, from 1."""
        return None if self.ruling.seat is None else self.ruling.seat + 1


@dataclass
class RoundState:
    number: int
    released: bool
    model: object
    tables: list[TableState]
    byes: list[str]
    entrants: list[Entrant] = field(default_factory=list)  # everyone seated or with a bye
    rulings: list[RulingLine] = field(default_factory=list)  # a duplicate round's
    ruling_form: object = None  # a director's, for a released duplicate round

    @property
    def ruling_tables(self) -> list[tuple[int, int, int, int]]:
        """Its tables as the ruling form offers them: (id, number, seats, deals)."""
        return [
            (table.model.pk, table.number, len(table.names), table.length or 0)
            for table in self.tables
        ]

    @property
    def rulings_version(self) -> str:
        """As ``tournaments.duplicate.services.rulings_version`` counts the round's."""
        newest = max((line.ruling.pk for line in self.rulings), default=0)
        return f"{len(self.rulings)}.{newest}"


@dataclass
class RunPage:
    tournament: Tournament
    entrants: list[Entrant]
    rounds: list[RoundState]
    adjustments: list[Adjustment]
    finished: bool = False  # selectors.finished

    @property
    def draft(self) -> RoundState | None:
        return self.rounds[-1] if self.rounds and not self.rounds[-1].released else None

    @property
    def planned_seated(self) -> bool:
        """Every planned round has been drawn: no late entrant has a round left to play."""
        return len(self.rounds) >= self.tournament.rounds_planned

    @property
    def can_draw(self) -> bool:
        return self.draft is None and not self.planned_seated

    @property
    def can_plan_round(self) -> bool:
        return self.planned_seated and self.tournament.rounds_planned < MOST_ROUNDS

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    @cached_property
    def removable(self) -> set[int]:
        """The entrants in no round yet (a draft's included) and not adjusted: their entry
        is removed rather than withdrawn."""
        placed = {entrant.pk for round_ in self.rounds for entrant in round_.entrants}
        placed |= {adjustment.entrant_id for adjustment in self.adjustments}
        return {entrant.pk for entrant in self.entrants} - placed


def has_played(entrant: Entrant) -> bool:
    """Seated or given a bye in a round (a draft's too), or adjusted: his entry stays, and
    he may only withdraw (3 queries)."""
    return entrant.seats.exists() or entrant.byes.exists() or entrant.adjustments.exists()


@dataclass(frozen=True)
class Withdrawal:
    """What withdrawing an entrant would do, as its confirmation page asks it."""

    entrant: Entrant
    rounds: int  # seated so far, a draft included: the confirmation carries it
    removes: bool  # he has not played: his entry is removed instead


def withdrawal(tournament: Tournament, entrant: Entrant) -> Withdrawal:
    return Withdrawal(entrant, tournament.rounds.count(), not has_played(entrant))


def run_page(tournament: Tournament) -> RunPage:
    """The tournament as its director runs it (10 queries; 11 once its players report a
    table's rows; 2 more for a duplicate tournament, its rulings on deals)."""
    played = selectors.played(tournament)
    entrants = played.entrants
    by_name = {entrant.player.name: entrant for entrant in entrants}
    models = [table for tables in played.tables for table in tables]
    users = dict(
        get_user_model()
        .objects.filter(
            pk__in={
                pk
                for table in models
                for pk in (table.entered_by_id, table.confirmed_by_id)
                if pk is not None
            }
        )
        .values_list("pk", "username")
    )
    hotseats = {
        pk: (token, state)
        for pk, token, state in HotseatTable.objects.filter(
            pk__in=[table.hotseat_id for table in models if table.hotseat_id]
        ).values_list("pk", "token", "state")
    }
    # a row awaiting confirmation makes a table reported, before its first row is confirmed
    reporting = set(
        ReportedRow.objects.filter(table__in=[table.pk for table in models]).values_list(
            "table_id", flat=True
        )
    )
    reporters: dict[int, tuple[set[int], set[int]]] = {}  # the seats who entered, confirmed
    for table_id, entered, confirmed in SheetRow.objects.filter(
        table__in=[table.pk for table in models if table.reported]
    ).values_list("table_id", "entered_by_seat", "confirmed_by_seat"):
        seats = reporters.setdefault(table_id, (set(), set()))
        seats[0].add(entered)
        seats[1].add(confirmed)
    lengths: dict[int, int | None] = {}
    rounds = []
    for round_, tables, shown in zip(
        tournament.rounds.order_by("number"), played.tables, played.rounds, strict=True
    ):
        states = []
        seated = []
        for table, sheet in zip(tables, shown.tables, strict=True):
            seated += [by_name[name] for name in sheet.players]
            size = len(sheet.players)
            if size not in lengths:
                lengths[size] = planned_deals(tournament, size)
            token, state = hotseats.get(table.hotseat_id, (None, None))
            if table.pk in reporters:
                entered_by, confirmed_by = (
                    seat_names(sheet.players, seats) for seats in reporters[table.pk]
                )
            else:
                entered_by = users.get(table.entered_by_id)
                confirmed_by = users.get(table.confirmed_by_id)
            states.append(
                TableState(
                    model=table,
                    number=table.number,
                    names=sheet.players,
                    rows=len(sheet.rows),
                    length=lengths[size],
                    complete=sheet.complete,
                    counts=selectors.counts(tournament, table, sheet),
                    points=sheet.points,
                    hotseat_url=reverse("table", args=[token]) if token else None,
                    stopped=state not in (None, HotseatTable.State.PLAYING),
                    watch_url=reverse("watch", args=[table.watch_key]) if table.watch_key else None,
                    entered_by=entered_by,
                    confirmed_by=confirmed_by,
                    reported=table.reported or table.pk in reporting,
                )
            )
        byes = [by_name[name] for name in shown.byes]
        rounds.append(
            RoundState(
                number=round_.number,
                released=round_.released,
                model=round_,
                tables=states,
                byes=list(shown.byes),
                entrants=sorted(seated + byes, key=lambda entrant: entrant.number),
            )
        )
    if tournament.duplicate:
        add_rulings(tournament, rounds)
    adjustments = list(
        Adjustment.objects.filter(round__tournament=tournament)
        .select_related("round", "entrant__player", "by")
        .order_by("round__number", "pk")
    )
    return RunPage(tournament, entrants, rounds, adjustments, selectors.finished(played))


def add_rulings(tournament: Tournament, rounds: list[RoundState]) -> None:
    """Each round's rulings on deals, by table, deal and seat (1 query)."""
    tables = {table.model.pk: (round_, table) for round_ in rounds for table in round_.tables}
    for ruling in (
        DealRuling.objects.filter(table__round__tournament=tournament)
        .select_related("by")
        .order_by("table__number", "deal", "seat", "pk")
    ):
        if ruling.table_id not in tables:
            continue
        round_, table = tables[ruling.table_id]
        seated = ruling.seat is not None and ruling.seat < len(table.names)
        player = table.names[ruling.seat] if seated else None
        round_.rulings.append(RulingLine(ruling, table.number, player))


def ruling_tables(tournament: Tournament, round_) -> list[tuple[int, int, int, int]]:
    """A round's tables as the ruling form offers them: (id, number, seats, deals) (1
    query)."""
    tables = (
        RoundTable.objects.filter(round=round_)
        .annotate(size=Count("seats"))
        .order_by("number")
        .values_list("pk", "number", "size")
    )
    lengths: dict[int, int] = {}
    found = []
    for pk, number, size in tables:
        if size not in lengths:
            lengths[size] = planned_deals(tournament, size) or 0
        found.append((pk, number, size, lengths[size]))
    return found


def seat_names(names: list[str], seats: set) -> str:
    """The players of these seats (from 0), in seat order."""
    return ", ".join(name for seat, name in enumerate(names) if seat in seats)


# -- a round's tables and one table -------------------------------------------------------


def round_tables(tournament: Tournament, number: int) -> list[tuple[RoundTable, Layout]]:
    """The tables of round ``number`` with their sheets' layouts (RoundTable.DoesNotExist
    if there is no such round) (3 queries)."""
    round_ = tournament.rounds.filter(number=number).first()
    if round_ is None:
        raise RoundTable.DoesNotExist
    tables = list(
        round_.tables.order_by("number").prefetch_related(
            Prefetch(
                "seats", TableSeat.objects.order_by("position").select_related("entrant__player")
            )
        )
    )
    return [
        (table, layout(tournament, [str(seat.entrant.player) for seat in table.seats.all()]))
        for table in tables
    ]


@dataclass(frozen=True)
class PaperDeal:
    number: int  # from 1
    dealer: int | None  # a seat (0..N−1), when known before the table sits down
    name: str = ""  # the dealer's name

    @property
    def dealer_number(self) -> int | None:
        """The dealer's seat as the sheet prints it, from 1."""
        return None if self.dealer is None else self.dealer + 1


@dataclass(frozen=True)
class PaperSheet:
    """A table's printed sheet: its layout, its deals with their dealers where known, and
    the options played (every default filled in)."""

    table: RoundTable
    layout: Layout
    deals: list[PaperDeal]
    options: dict

    @property
    def dealers_known(self) -> bool:
        return bool(self.deals) and self.deals[0].dealer is not None


def deal_dealers(names: list[str], length: int, first: int | None) -> list[PaperDeal]:
    """Deals 1..length with their dealers: the first dealer, then the deal passes left, to
    the next seat (as the hotseat deals them); all unknown without the first."""
    seats = len(names)
    if first is None or not seats:
        return [PaperDeal(number, None) for number in range(1, length + 1)]
    return [
        PaperDeal(number, (first + number - 1) % seats, names[(first + number - 1) % seats])
        for number in range(1, length + 1)
    ]


def played_options(tournament: Tournament, seats: int) -> dict:
    """The options of a table of ``seats`` with every default filled in (as the tournament
    has them, should the game refuse them at that size)."""
    options = registry.tournament(tournament.game).table_options(tournament.options, seats)
    try:
        return registry.rules(tournament.game).parse_options(options)
    except RulesError:
        return options


def paper_sheets(tournament: Tournament, number: int) -> list[PaperSheet]:
    """Round ``number``'s printed sheets (RoundTable.DoesNotExist if there is no such
    round). A paper table's first dealer is drawn when it sits down; a table played here
    has its first deal already dealt, so its dealers are known (at most 4 queries)."""
    tables = round_tables(tournament, number)
    firsts = dict(
        Deal.objects.filter(
            table_id__in=[table.hotseat_id for table, _ in tables if table.hotseat_id], number=1
        ).values_list("table_id", "dealer")
    )
    options: dict[int, dict] = {}
    sheets = []
    for table, layout_ in tables:
        seats = len(layout_.names)
        if seats not in options:
            options[seats] = played_options(tournament, seats)
        sheets.append(
            PaperSheet(
                table,
                layout_,
                deal_dealers(layout_.names, layout_.length, firsts.get(table.hotseat_id)),
                options[seats],
            )
        )
    return sheets


def round_table(tournament: Tournament, pk: int) -> RoundTable:
    """A table of this tournament with its round, seats and rows (RoundTable.DoesNotExist)."""
    return (
        RoundTable.objects.select_related("round")
        .prefetch_related(
            Prefetch(
                "seats", TableSeat.objects.order_by("position").select_related("entrant__player")
            ),
            "rows",
        )
        .get(pk=pk, round__tournament=tournament)
    )


def table_names(table: RoundTable) -> list[str]:
    return [str(seat.entrant.player) for seat in table.seats.all()]


def saved_rows(table: RoundTable) -> list[dict]:
    return [row.data for row in sorted(table.rows.all(), key=lambda row: row.index)]
