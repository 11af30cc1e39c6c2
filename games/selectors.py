"""Reads that pages share, each at a fixed number of queries however long the deal; the lists
of tables are ``games.table_lists``."""

from datetime import timedelta

from django.core.cache import caches
from django.db.models import Prefetch
from django.urls import reverse
from django.utils import timezone
from django.utils.html import conditional_escape
from django.utils.translation import get_language

from club import roles

from . import registry
from .engine.cards import sort_for_hand
from .hotseat import TAKE_BACK, Event, Hotseat, OldSnapshot
from .models import Cycle, Deal, Seat, Table
from .page_data import (
    Link,
    LogEntry,
    PlayedFor,
    Sheet,
    SheetRow,
    TablePage,
    TakeBack,
    Totals,
)
from .page_data import Seat as SeatRow


def table_by_token(token: str) -> Table:
    """The table with its seats and players, and the tournament's table it is played for,
    if any (2 queries). Table.DoesNotExist if none."""
    return with_tournament(with_seats(Table.objects)).get(token=token)


def table_by_watch_key(key: str) -> Table:
    """The table whose spectators' key this is, as ``table_by_token`` (2 queries).
    Table.DoesNotExist if none."""
    return with_tournament(with_seats(Table.objects)).get(watch_key=key)


def seat_by_key(key: str) -> Seat:
    """The person's seat whose own key this is, with its table as ``table_by_token`` has it
    (3 queries). Seat.DoesNotExist if none."""
    seat = Seat.objects.only("pk", "table_id", "position").get(key=key, robot="")
    seat.table = with_tournament(with_seats(Table.objects)).get(pk=seat.table_id)
    return seat


def managed_table(token: str) -> Table:
    """The table with its seats, who started it and the tournament's table it is played
    for, if any (2 queries). Table.DoesNotExist if none."""
    return with_tournament(with_seats(Table.objects)).select_related("created_by").get(token=token)


def with_seats(tables):
    # the seats in order of position: Seat's default ordering would join the table again
    seats = Seat.objects.select_related("player").order_by("position")
    return tables.prefetch_related(Prefetch("seats", seats))


def deal_stamp(table: Table) -> list[int]:
    """The version of the table now, as its live pages compare it: [deal, version], and the
    table's own version (its name and state) once it has changed."""
    stamp = list(table.deals.order_by("-number").values_list("number", "version")[0])
    return [*stamp, table.version] if table.version else stamp


def current_deal(table: Table) -> Deal:
    deal = table.deals.select_related("cycle").order_by("-number").first()
    deal.table = table
    return deal


def can_host(user, table: Table) -> bool:
    """The hotseat screen belongs to whoever started the table, the members seated at it
    (a tournament's table is started by its director) and the staff."""
    if not user.is_authenticated:
        return False
    return (
        user.pk == table.created_by_id
        or user.is_staff
        or any(seat.player_id and seat.player.user_id == user.pk for seat in table.seats.all())
    )


def tournament_table(table: Table):
    """The tournament's table (``tournaments.RoundTable``) this table is played for, or
    None: a query, unless it was selected with the table (``with_tournament``)."""
    return getattr(table, "tournament_table", None)


def with_tournament(tables):
    return tables.select_related("tournament_table__round__tournament")


def played_for(table: Table) -> PlayedFor | None:
    """The tournament, round and table number a table is played for, and the round's page
    (a query, unless selected with the table: ``with_tournament``)."""
    round_table = tournament_table(table)
    if round_table is None:
        return None
    round_ = round_table.round
    return PlayedFor(
        tournament=round_.tournament.name,
        round=round_.number,
        table=round_table.number,
        url=reverse("tournament-round", args=[round_.tournament.key, round_.number]),
    )


# ``check(user, table)``: whether the member directs the tournament a table is played for.
# The tournaments app adds its check when it is ready: games does not import it.
TABLE_DIRECTORS = []


def table_directors(check) -> None:
    if check not in TABLE_DIRECTORS:
        TABLE_DIRECTORS.append(check)


def directs_tournament_table(user, table: Table) -> bool:
    return any(check(user, table) for check in TABLE_DIRECTORS)


# ``limit(table)``: how many of a table's first deals its spectators may see, or None for all:
# an app above whose tables play deals fixed in advance, that other tables are still to play,
# withholds the rest. The table's own players see them as ever.
SPECTATOR_LIMITS = []


def spectator_limit(limit) -> None:
    if limit not in SPECTATOR_LIMITS:
        SPECTATOR_LIMITS.append(limit)


def deals_shown_to_spectators(table: Table) -> int | None:
    """How many of the table's first deals its spectators may see (None: every one). Only
    a table whose deals are fixed in advance plays deals that others play: any other's are
    its own, and cost no query."""
    if not table.deal_seeds:
        return None
    limits = [n for limit in SPECTATOR_LIMITS if (n := limit(table)) is not None]
    return min(limits, default=None)


def withheld_from_spectators(number: int, shown: int | None) -> bool:
    """Deal ``number`` is kept from the table's spectators (``shown``: as
    ``deals_shown_to_spectators`` gives it)."""
    return shown is not None and number > shown


def watch_stamp(table: Table, deal: Deal, shown: int | None) -> list[int]:
    """The version of the spectators' page showing ``deal``, as its live page compares it:
    ``deal_stamp``'s; for a table whose deals are fixed, always four numbers, the last how
    many of the deals dealt so far they see, which grows as other tables play them. While
    ``deal`` is withheld its version is not told (the pace of its play is no spectator's),
    only whether it is over."""
    stamp = [deal.number, deal.version]
    if not table.deal_seeds:
        return [*stamp, table.version] if table.version else stamp
    if withheld_from_spectators(deal.number, shown):
        stamp = [deal.number, int(deal.is_over)]
    return [*stamp, table.version, deal.number if shown is None else min(shown, deal.number)]


def current_watch_stamp(table: Table) -> list[int]:
    """``watch_stamp`` of the table now (read afresh)."""
    table = Table.objects.get(pk=table.pk)
    deal = table.deals.only("number", "version", "is_over").order_by("-number").first()
    return watch_stamp(table, deal, deals_shown_to_spectators(table))


def fixed_deals(table: Table, deal: Deal) -> int | None:
    """How many deals are fixed in advance, the same at every table, while ``deal`` is one
    of them; else None."""
    return len(table.deal_seeds) if deal.number <= len(table.deal_seeds) else None


# ``part(request, seat)``: what another app adds to a seat's own page, in the table's
# "parts" region (its HTML, or None where it has nothing for this seat), and ``stamp(seat)``:
# the version of what it shows, as numbers (always as many for one seat), which the seat's
# live page compares with the table's own. The tournaments app adds its check-in when it is
# ready: games does not import it.
SEAT_PAGE_PARTS = []


def seat_page_part(part, stamp) -> None:
    if (part, stamp) not in SEAT_PAGE_PARTS:
        SEAT_PAGE_PARTS.append((part, stamp))


def seat_page_parts(request, seat: Seat) -> list[str]:
    """The parts other apps add to the seat's own page, in the order they were added."""
    return [html for part, _stamp in SEAT_PAGE_PARTS if (html := part(request, seat))]


def seat_stamp(seat: Seat, deal: Deal) -> list[int]:
    """The version of a seat's own page showing ``deal``, as its live page compares it: the
    deal's, the table's own and the versions of its parts, always as many numbers."""
    parts = [number for _part, stamp in SEAT_PAGE_PARTS for number in stamp(seat)]
    return [deal.number, deal.version, seat.table.version, *parts]


def can_manage(user, table: Table) -> bool:
    """Renaming, finishing or abandoning a table: for the member who started it, or an
    organiser; a tournament's table (played here for a round) for the directors of that
    tournament only, as its sheet counts for the tournament."""
    if not user.is_authenticated:
        return False
    if roles.is_organiser(user):
        return True
    if tournament_table(table) is not None:
        return directs_tournament_table(user, table)
    return user.pk == table.created_by_id


def names(table: Table) -> list[str]:
    """What the table calls each seat: its player's name, or its robot's."""
    return [seat.name for seat in table.seats.all()]


def played_by_robots(table: Table) -> list[bool]:
    """By seat: a robot plays it."""
    return [bool(seat.robot) for seat in table.seats.all()]


def practice_person(table: Table) -> int | None:
    """The seat of a practice table's one person (the other seats robots) at the shared
    screen, else None."""
    people = [seat for seat in table.seats.all() if not seat.robot]
    if len(people) == 1 < len(table.seats.all()) and not people[0].device:
        return people[0].position
    return None


def device_seats(table: Table) -> frozenset[int]:
    """The seats played on their players' own devices."""
    return frozenset(seat.position for seat in table.seats.all() if seat.device)


# -- a deal from its log ------------------------------------------------------------------


def load(deal: Deal) -> Hotseat:
    """The deal as the screen has it: from the snapshot, or rebuilt from the log when the
    snapshot is of an older format."""
    rules = registry.rules(deal.table.game)
    try:
        return Hotseat.from_json(rules, deal.snapshot, device_seats(deal.table))
    except OldSnapshot:
        return rebuild(deal, deal.events.all())


def rebuild(deal: Deal, events) -> Hotseat:
    """The deal from its log alone: what the snapshot must always equal."""
    return Hotseat.rebuild(
        registry.rules(deal.table.game),
        start_state(deal),
        (Event(e.kind, e.seat, e.data) for e in events),
        device_seats(deal.table),
    )


def start_state(deal: Deal):
    """The deal as dealt, before its first action."""
    return registry.rules(deal.table.game).start(deal.table.options, deal.dealer, deal.dealt)


def record(deal: Deal) -> dict:
    """The deal's record (records.md): the standing actions, take-backs left out."""
    return {**start_state(deal).record(), "actions": load(deal).record_actions()}


# -- the table page -----------------------------------------------------------------------


def table_page(
    table: Table,
    deal: Deal,
    chosen: str | None = None,
    spectator: bool = False,
    seat: int | None = None,
) -> TablePage:
    """What the hotseat page shows, holding no hand but that of the player at the screen;
    a spectator's page holds none (mode "watch" until the deal is over). ``chosen``: a card
    the player at the screen has picked, for games that show where it may go. ``seat``: the
    page of that seat's own link, which shows his hand alone, always, and his moves on his
    turn if his seat is on a device ("wait" while another is to act, "shared" on his turn
    at the shared screen). The shared screen waits ("wait") while a device seat acts."""
    game = registry.game(table.game)
    players = names(table)
    hotseat = load(deal)
    state = hotseat.state
    robots = played_by_robots(table)
    devices = hotseat.devices
    if state.is_over():
        mode = "over"
    elif spectator:
        mode = "watch"
    elif robots[state.to_act]:  # it acts when the page asks, after a pause the page shows
        mode = "robot"
    elif seat is not None:
        if state.to_act != seat:
            mode = "wait"
        else:
            mode = "turn" if seat in devices else "shared"
    elif hotseat.on_device:
        mode = "wait"
    else:
        mode = "handoff" if hotseat.handoff else "turn"
    person = practice_person(table)
    if seat is not None:
        viewer = None if spectator else seat
    elif mode == "robot" and person is not None:
        # the one person keeps the screen while the robots play: his own hand stays in view
        viewer = person
    else:
        viewer = None if spectator else hotseat.shown_seat
    view = state.view(viewer)
    to_act = view["to_act"]
    take_back_seat = None if spectator else hotseat.take_back_seat()
    # each takes back where he plays: a device seat on his own page, the others at the screen
    if take_back_seat is not None and (take_back_seat in devices) != (seat is not None):
        take_back_seat = None
    if seat is not None and take_back_seat != seat:
        take_back_seat = None
    scored = scored_deals(deal)
    sheet = cycle_sheet(deal.cycle, players, game, deal, scored) if deal.cycle_id else None
    turn = mode == "turn"
    page = TablePage(
        table=table,
        deal=deal,
        game=game,
        players=players,
        mode=mode,
        view=view,
        hand=sort_for_hand(view["hand"]) if turn or view["hand"] else [],
        legal=state.legal_actions() if turn else [],
        to_act_name=players[to_act] if to_act is not None else None,
        take_back=(
            TakeBack(take_back_seat, players[take_back_seat])
            if take_back_seat is not None
            else None
        ),
        log=deal_log(hotseat, players, game, viewer),
        sheet=sheet,
        totals=None if sheet else running_totals(players, game, scored),
    )
    presenter = game.presenter
    if sheet:
        # the deals of a cycle are played in turn: only its last can be unfinished
        page.heading = presenter.heading(sheet, len(sheet.rows) + (0 if deal.is_over else 1))
        page.sheet_title = presenter.sheet_title(sheet.cycle)
        page.sheet_verdict = presenter.verdict(sheet) if sheet.complete else ""
    page.next_label = presenter.next_label(sheet)
    page.board = presenter.board(page, chosen if turn else None)
    page.practice = person is not None
    if mode in ("robot", "wait", "shared") and page.hand and viewer is not None:
        page.hand_of = players[viewer]  # not his whose turn it is: the page says whose
    page.played_for = played_for(table)
    page.scores_key = scores_key(table, deal, players)
    page.seat = seat
    connected = connected_seats(table)
    if seat is not None and seat in devices:
        connected[seat] = True  # his own page, being shown to him: he is here
    page.seats = [
        SeatRow(
            index=i,
            name=name,
            count=view["counts"][i],
            dealer=i == deal.dealer,
            to_act=i == to_act,
            badges=presenter.badges(page, i),
            robot=robots[i],
            device=i in devices,
            connected=connected[i],
            mine=i == seat,
        )
        for i, name in enumerate(players)
    ]
    return page


PRESENT_FOR = timedelta(seconds=45)  # a seat's page tells its socket every 20 seconds


def connected_seats(table: Table) -> list[bool | None]:
    """By seat: whether its own page is open now (seen by its socket within
    ``PRESENT_FOR``, by any process); None for a seat at the shared screen or a robot's."""
    now = timezone.now()
    return [
        (seat.seen_at is not None and now - seat.seen_at < PRESENT_FOR) if seat.device else None
        for seat in table.seats.all()
    ]


def deal_log(hotseat: Hotseat, players: list[str], game, viewer: int | None) -> list[LogEntry]:
    """The deal's actions and take-backs in order, as the snapshot keeps them (no query);
    showing a hand on the screen is not an entry. A taken-back action and its take-back are
    worded without their card for a ``viewer`` (the seat at the screen; None: nobody's, or a
    spectator) from whom the engine holds it now: it went back into a hand."""
    names = [conditional_escape(name) for name in players]  # once, not once an entry
    # an entry's wording depends on the game, the language, the names, the action and
    # whether its card is held from the viewer alone
    known = (game.key, get_language(), tuple(names))
    entries, standing, undone = [], [], set()
    for index, (kind, seat, data) in enumerate(hotseat.log):
        taken_back = kind == TAKE_BACK
        if taken_back:
            undone.update((standing.pop(), index))
        else:
            standing.append(index)
        entries.append(
            LogEntry(
                name=names[seat],
                action=data["undone"] if taken_back else data,
                taken_back=taken_back,
                players=names,
            )
        )
    if undone:
        state = hotseat.state
        held = state.held_from(viewer)
        for index in undone:
            action = entries[index].action
            entries[index].unseen = any(action.get(key) in held for key in state.card_keys)
    for entry, (_kind, seat, _data) in zip(entries, hotseat.log, strict=True):
        # repr: the action is JSON's data, which its repr tells apart, at a fifth of the cost
        key = (known, entry.taken_back, entry.unseen, seat, repr(entry.action))
        entry.text = LOG_TEXTS.get(key)
        if entry.text is None:
            if len(LOG_TEXTS) >= LOG_TEXTS_KEPT:
                LOG_TEXTS.clear()
            entry.text = LOG_TEXTS[key] = game.presenter.log_text(entry)
    return entries


# The wordings of log entries, remembered: a table's page shows the whole log of its deal, and
# each action shows it again with one entry more. A few thousand deals' worth at most.
LOG_TEXTS: dict = {}
LOG_TEXTS_KEPT = 100_000


def scored_rows(deals, players: list[str], game, latest: Deal | None = None):
    """The rows of finished deals (number, dealer, result, in order) and their totals."""
    rows, totals, results = [], [0] * len(players), []
    for position, (number, dealer, result) in enumerate(deals, start=1):
        results.append(result)
        totals = [t + s for t, s in zip(totals, result["scores"], strict=True)]
        rows.append(
            SheetRow(
                position=position,
                number=number,
                dealer=players[dealer],
                scores=result["scores"],
                new=latest is not None and latest.is_over and number == latest.number,
                detail=game.presenter.sheet_detail(result, players),
            )
        )
    return rows, totals, results


def finished(**deals):
    """The finished deals ``deals`` names (by its table or its cycle), in order."""
    # Deal.objects rather than a related manager, which costs more to set up than the query
    return (
        Deal.objects.filter(**deals, is_over=True)
        .order_by("number")
        .values_list("number", "dealer", "result")
    )


def scored_deals(deal: Deal) -> list[tuple]:
    """The finished deals that the page of ``deal`` scores: those of its cycle, or of its
    table when it has no cycles, up to the deal itself, in order (as ``finished`` gives
    them). The deals before it are cached (a query the first time a process shows the deal):
    a deal is dealt only once the one before is over, and only the current deal can be
    taken back, so they never change."""
    key = f"earlier-deals:{deal.table.token}:{deal.number}"  # a token is never used again
    earlier = caches["pages"].get(key)
    if earlier is None:
        deals = {"cycle_id": deal.cycle_id} if deal.cycle_id else {"table_id": deal.table_id}
        earlier = list(finished(**deals, number__lt=deal.number))
        caches["pages"].set(key, earlier, None)
    return [*earlier, (deal.number, deal.dealer, deal.result)] if deal.is_over else earlier


def scores_key(table: Table, deal: Deal, players: list[str]) -> str:
    """Names what the score sheet or the running totals beside ``deal`` show, for the page's
    cache of them: the deals ``scored_deals`` gives, and the players' names."""
    return " ".join(
        [table.token, str(deal.number), str(deal.version) if deal.is_over else "", *players]
    )


def running_totals(players: list[str], game, deals) -> Totals:
    """The finished deals' scores (from ``finished`` or ``scored_deals``) and their
    running total."""
    rows, totals, _ = scored_rows(deals, players, game)
    return Totals(players=players, rows=rows, totals=totals)


def cycle_results(cycle: Cycle) -> list[dict]:
    """The results of a cycle's finished deals, in order (1 query)."""
    return list(
        cycle.deals.filter(is_over=True).order_by("number").values_list("result", flat=True)
    )


def cycle_sheet(
    cycle: Cycle, players: list[str], game, latest: Deal | None = None, deals=None
) -> Sheet:
    """The cycle's (or match's) score sheet: a column per player, a row per finished deal,
    the totals and, once it is complete, its winners (1 query, none when given its finished
    ``deals``)."""
    if deals is None:
        deals = finished(cycle_id=cycle.pk)
    rows, totals, results = scored_rows(deals, players, game, latest)
    complete = cycle.is_complete(results)
    best = max(totals) if complete else None
    return Sheet(
        cycle=cycle,
        players=players,
        rows=rows,
        totals=totals,
        complete=complete,
        winners=[players[s] for s, t in enumerate(totals) if t == best] if complete else [],
    )


def earlier_sheets(table: Table, cycle: Cycle) -> list[Link]:
    """The sheets of the cycles before ``cycle`` (no query: they are numbered from 1 and
    agreed alike, by the table's options)."""
    game = registry.game(table.game)
    plan = game.rules.cycle(table.options) or {}
    return [
        Link(
            game.presenter.sheet_title(Cycle(table=table, number=n, **plan)),
            reverse("cycle", args=[table.token, n]),
        )
        for n in range(1, cycle.number)
    ]
