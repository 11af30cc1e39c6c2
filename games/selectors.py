"""Reads that pages share, each at a fixed number of queries however long the deal."""

from django.db.models import Prefetch
from django.utils.html import conditional_escape

from . import registry
from .engine.cards import sort_for_hand
from .hotseat import TAKE_BACK, Event, Hotseat, OldSnapshot
from .models import Cycle, Deal, Seat, Table
from .presenters import LogEntry, Sheet, SheetRow, TablePage, TakeBack, Totals
from .presenters import Seat as SeatRow


def table_by_token(token: str) -> Table:
    """The table with its seats and players (2 queries). Table.DoesNotExist if none."""
    return with_seats(Table.objects).get(token=token)


def table_by_watch_key(key: str) -> Table:
    """The table whose spectators' key this is (2 queries). Table.DoesNotExist if none."""
    return with_seats(Table.objects).get(watch_key=key)


def with_seats(tables):
    # the seats in order of position: Seat's default ordering would join the table again
    seats = Seat.objects.select_related("player").order_by("position")
    return tables.prefetch_related(Prefetch("seats", seats))


def deal_stamp(table: Table) -> list[int]:
    """The version of the table now, as its live pages compare it: [deal, version]."""
    return list(table.deals.order_by("-number").values_list("number", "version")[0])


def current_deal(table: Table) -> Deal:
    deal = table.deals.select_related("cycle").order_by("-number").first()
    deal.table = table
    return deal


def can_host(user, table: Table) -> bool:
    """The hotseat screen belongs to whoever started the table, the members seated at it
    (a tournament's table is started by its director) and the staff."""
    if not user.is_authenticated:
        return False
    return (user.pk == table.created_by_id or user.is_staff
            or any(seat.player_id and seat.player.user_id == user.pk
                   for seat in table.seats.all()))


def names(table: Table) -> list[str]:
    """What the table calls each seat: its player's name, or its robot's."""
    return [seat.name for seat in table.seats.all()]


def robot_seats(table: Table) -> list[bool]:
    """By seat: a robot plays it."""
    return [bool(seat.robot) for seat in table.seats.all()]


def is_practice(table: Table) -> bool:
    """One person and robots: a table to practise at."""
    robots = robot_seats(table)
    return any(robots) and robots.count(False) == 1


# -- a deal from its log ------------------------------------------------------------------

def load(deal: Deal) -> Hotseat:
    """The deal as the screen has it: from the snapshot, or rebuilt from the log when the
    snapshot is of an older format."""
    rules = registry.rules(deal.table.game)
    try:
        return Hotseat.from_json(rules, deal.snapshot)
    except OldSnapshot:
        return rebuild(deal, deal.events.all())


def rebuild(deal: Deal, events) -> Hotseat:
    """The deal from its log alone: what the snapshot must always equal."""
    return Hotseat.rebuild(registry.rules(deal.table.game), start_state(deal),
                           (Event(e.kind, e.seat, e.data) for e in events))


def start_state(deal: Deal):
    """The deal as dealt, before its first action."""
    return registry.rules(deal.table.game).start(deal.table.options, deal.dealer, deal.dealt)


def record(deal: Deal) -> dict:
    """The deal's record (records.md): the standing actions, take-backs left out."""
    return {**start_state(deal).record(), "actions": load(deal).record_actions()}


# -- the table page -----------------------------------------------------------------------

def table_page(table: Table, deal: Deal, chosen: str | None = None,
               spectator: bool = False) -> TablePage:
    """What the hotseat page shows, holding no hand but that of the player at the screen;
    a spectator's page holds none (mode "watch" until the deal is over). ``chosen``: a card
    the player at the screen has picked, for games that show where it may go."""
    game = registry.game(table.game)
    players = names(table)
    hotseat = load(deal)
    state = hotseat.state
    robots = robot_seats(table)
    if state.is_over():
        mode = "over"
    elif spectator:
        mode = "watch"
    elif robots[state.to_act]:  # it acts when the page asks, after a pause the page shows
        mode = "robot"
    else:
        mode = "handoff" if hotseat.handoff else "turn"
    view = state.view(None if spectator else hotseat.shown_seat)
    to_act = view["to_act"]
    take_back_seat = None if spectator else hotseat.take_back_seat()
    sheet = cycle_sheet(deal.cycle, players, game, deal) if deal.cycle_id else None
    turn = mode == "turn"
    page = TablePage(
        table=table, deal=deal, game=game, players=players, mode=mode, view=view,
        hand=sort_for_hand(view["hand"]) if turn else [],
        legal=state.legal_actions() if turn else [],
        to_act_name=players[to_act] if to_act is not None else None,
        take_back=(TakeBack(take_back_seat, players[take_back_seat])
                   if take_back_seat is not None else None),
        log=deal_log(hotseat, players, game),
        sheet=sheet,
        totals=None if sheet else running_totals(table, players, game))
    presenter = game.presenter
    if sheet:
        # the deals of a cycle are played in turn: only its last can be unfinished
        page.heading = presenter.heading(sheet, len(sheet.rows) + (0 if deal.is_over else 1))
        page.sheet_title = presenter.sheet_title(sheet.cycle)
        page.sheet_verdict = presenter.verdict(sheet) if sheet.complete else ""
    page.next_label = presenter.next_label(sheet)
    page.board = presenter.board(page, chosen if turn else None)
    page.practice = robots.count(False) == 1 and any(robots)
    page.seats = [SeatRow(index=i, name=name, count=view["counts"][i], dealer=i == deal.dealer,
                          to_act=i == to_act, badges=presenter.badges(page, i),
                          robot=robots[i])
                  for i, name in enumerate(players)]
    return page


def deal_log(hotseat: Hotseat, players: list[str], game) -> list[LogEntry]:
    """The deal's actions and take-backs in order, as the snapshot keeps them (no query);
    showing a hand on the screen is not an entry."""
    names = [conditional_escape(name) for name in players]  # once, not once an entry
    entries = []
    for kind, seat, data in hotseat.log:
        taken_back = kind == TAKE_BACK
        entry = LogEntry(name=names[seat], action=data["undone"] if taken_back else data,
                         taken_back=taken_back, players=names)
        entry.text = game.presenter.log_text(entry)
        entries.append(entry)
    return entries


def scored_rows(deals, players: list[str], game, latest: Deal | None = None):
    """The rows of finished deals (number, dealer, result, in order) and their totals."""
    rows, totals, results = [], [0] * len(players), []
    for position, (number, dealer, result) in enumerate(deals, start=1):
        results.append(result)
        totals = [t + s for t, s in zip(totals, result["scores"], strict=True)]
        rows.append(SheetRow(
            position=position, number=number, dealer=players[dealer], scores=result["scores"],
            new=latest is not None and latest.is_over and number == latest.number,
            detail=game.presenter.sheet_detail(result, players)))
    return rows, totals, results


def finished(deals):
    return deals.filter(is_over=True).order_by("number").values_list("number", "dealer",
                                                                      "result")


def running_totals(table: Table, players: list[str], game) -> Totals:
    """Each finished deal's scores and their running total (1 query)."""
    rows, totals, _ = scored_rows(finished(table.deals), players, game)
    return Totals(players=players, rows=rows, totals=totals)


def cycle_results(cycle: Cycle) -> list[dict]:
    """The results of a cycle's finished deals, in order (1 query)."""
    return list(cycle.deals.filter(is_over=True).order_by("number")
                .values_list("result", flat=True))


def cycle_sheet(cycle: Cycle, players: list[str], game, latest: Deal | None = None) -> Sheet:
    """The cycle's (or match's) score sheet: a column per player, a row per finished deal,
    the totals and, once it is complete, its winners (1 query)."""
    rows, totals, results = scored_rows(finished(cycle.deals), players, game, latest)
    complete = cycle.is_complete(results)
    best = max(totals) if complete else None
    return Sheet(cycle=cycle, players=players, rows=rows, totals=totals, complete=complete,
                 winners=[players[s] for s, t in enumerate(totals) if t == best]
                 if complete else [])
