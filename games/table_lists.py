"""The lists of tables: a member's tables, or every table of the club for whom may list
them, a page at a time, and the open tables a member is seated at, as his front page lists
them; each at a fixed number of queries however many tables and deals."""

from collections import defaultdict

from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils.translation import gettext as _

from club import roles

from . import registry, selectors
from .models import Cycle, Deal, Seat, Table
from .page_data import Link, MySeat, Score, TableRow


def sees_every_table(user) -> bool:
    """Who may list every table of the club: the directors and organisers, and the staff
    (who may open any); a member lists his own."""
    return user.is_authenticated and (user.is_staff or roles.is_director(user))


def tables_of(user, everyone: bool = False):
    """The tables a member started or sits at (every table, for ``everyone``), newest first,
    ready for ``table_rows``."""
    tables = Table.objects.all()
    if not everyone:
        tables = tables.filter(
            Q(created_by=user) | Q(pk__in=Seat.objects.filter(player__user=user).values("table_id"))
        )
    return (
        selectors.with_tournament(selectors.with_seats(tables))
        .select_related("created_by")
        .order_by("-created_at", "-pk")
    )


def table_rows(user, tables) -> list[TableRow]:
    """The rows of tables (from ``tables_of``, a page of them) as the list shows them: 2
    queries beside the tables' own (their deals' numbers and results, and their cycles),
    however many tables and deals."""
    tables = list(tables)
    ids = [table.pk for table in tables]
    deals = defaultdict(list)  # (number, over, cycle, result) in order, by table
    for table_id, *deal in (
        Deal.objects.filter(table_id__in=ids)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "is_over", "cycle_id", "result")
    ):
        deals[table_id].append(deal)
    cycles = defaultdict(list)
    for cycle in Cycle.objects.filter(table_id__in=ids).order_by("table_id", "number"):
        cycles[cycle.table_id].append(cycle)
    return [table_row(user, table, deals[table.pk], cycles[table.pk]) for table in tables]


def table_row(user, table: Table, deals: list, cycles: list[Cycle]) -> TableRow:
    game = registry.game(table.game)
    players = selectors.names(table)
    number, over, cycle_id, _result = deals[-1]
    # the totals its page shows: of the current cycle's sheet, or of every deal
    scored = [
        result for _number, is_over, in_cycle, result in deals if is_over and in_cycle == cycle_id
    ]
    cycle = next((c for c in cycles if c.pk == cycle_id), None)
    totals = (
        [sum(scores) for scores in zip(*(r["scores"] for r in scored), strict=True)]
        if scored
        else [None] * len(players)
    )
    # whoever may not open the table follows it, and its sheets, as its spectators do: no
    # total while its current deal is one fixed in advance, which other tables may still be
    # playing (its spectators' page tells; a list of tables asks no more of each)
    host = selectors.can_host(user, table)
    if not host and number <= len(table.deal_seeds):
        totals = [None] * len(players)
    sheet, key = ("cycle", table.token) if host else ("watch-cycle", table.watch_key)
    round_table = selectors.tournament_table(table)
    tournament = None
    if round_table is not None:
        round_ = round_table.round
        tournament = Link(
            _("%(tournament)s, round %(n)s")
            % {"tournament": round_.tournament.name, "n": round_.number},
            reverse("tournament-round", args=[round_.tournament.key, round_.number]),
        )
    return TableRow(
        table=table,
        game=game,
        name=table.shown_name,
        deal=number,
        deal_over=over,
        host=table.created_by.get_username(),
        scores=[Score(name, total) for name, total in zip(players, totals, strict=True)],
        scores_title=game.presenter.sheet_title(cycle) if cycle else "",
        sheets=[
            Link(game.presenter.sheet_title(c), reverse(sheet, args=[key, c.number]))
            for c in cycles
        ],
        url=table.get_absolute_url() if host else table.get_watch_url(),
        tournament=tournament,
        can_manage=selectors.can_manage(user, table),
    )


def my_seats(user, limit: int) -> list[MySeat]:
    """The open tables a member is seated at, newest first, as his front page lists them:
    with whom, whether it is his turn, and where he plays (his seat's own link when it is
    on a device, else the table's page). 3 queries, however many tables."""
    seats = list(
        Seat.objects.filter(player__user=user, table__state=Table.State.PLAYING)
        .select_related("table")
        .prefetch_related(Prefetch("table__seats", Seat.objects.select_related("player")))
        .order_by("-table__created_at", "-table_id")[:limit]
    )
    deals = {}
    for deal in Deal.objects.filter(table_id__in=[seat.table_id for seat in seats]).order_by(
        "table_id", "number"
    ):
        deals[deal.table_id] = deal  # the last, the current
    rows = []
    for seat in seats:
        table, deal = seat.table, deals.get(seat.table_id)
        if deal is None:
            continue
        deal.table = table
        state = selectors.load(deal).state
        others = [s.name for s in table.seats.all() if s.position != seat.position]
        rows.append(
            MySeat(
                game=registry.game(table.game).title,
                others=others,
                my_turn=not state.is_over() and state.to_act == seat.position,
                url=seat.get_absolute_url() if seat.device else table.get_absolute_url(),
            )
        )
    return rows
