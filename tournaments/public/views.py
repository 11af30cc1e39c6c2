"""The tournaments' public pages: anyone may read them without signing in; they never write.
Each reads the tournament once (``selectors.played``, without the draft round) and computes
the rest from it, so a page costs the same number of queries for 8 entrants or 200."""

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.http import Http404
from django.shortcuts import render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from club import roles
from club.models import Player
from core.charts import Chart, Series, line_chart
from core.numbers import figure
from core.spreadsheets import csv_text
from games import registry

from .. import roles as tournament_roles
from .. import selectors
from ..addresses import tournament_or_404
from ..check_in import selectors as check_in_selectors
from ..models import DealRuling, Tournament
from ..pages import ORDER_LABELS, attachment, option_lines
from ..results.entry_links import entry_link, offered
from ..seasons import selectors as season_selectors
from ..seat_links import device_seats, seat_link
from ..sheets import planned_deals
from ..standings import match_points, number
from . import travellers
from .projector import layout as projector_layout

CHART_PLAYERS = 8  # the lines of the standings' chart: more would not read ("first eight")
# A table's state on the pages, until it counts.
PLAYING, INCOMPLETE, AWAITING, COUNTED = "playing", "incomplete", "awaiting", "counted"


@dataclass
class Seat:
    name: str
    player_id: int
    points: int | None = None  # game points, once the table counts
    match_points: int | float | None = None


@dataclass
class TableView:
    number: int
    seats: list[Seat]
    state: str
    here: bool  # played here (its hotseat page is not public)
    watch_key: str | None = None  # played here: its spectators' page is
    deals: int = 0  # the deals on its sheet so far
    length: int | None = None  # the deals of a complete sheet (None: a match to a target)
    entry: object = None  # its entry link, for the tournament's scorers (played on paper)
    seat_links: tuple = ()  # played here on devices: its seats' links, for its directors
    # a duplicate round's table under way: the deal in play, as far as the scored deals tell
    # (every table of its group shows the same: nothing says who is ahead)
    in_play: int | None = None


@dataclass
class RoundView:
    number: int
    tables: list[TableView]
    byes: list[Seat]
    # a duplicate round's travellers, group by group
    deal_groups: list = dataclasses.field(default_factory=list)


@dataclass
class Cell:
    match_points: int | float
    points: int | None
    bye: bool


@dataclass
class Row:
    place: str  # "2", or "2–3" when shared
    shared: bool
    name: str
    player_id: int
    match_points: int | float
    points: int
    adjustment: int
    opponents: int | float
    wins: int
    rounds: list[Cell | None]
    # his club rating before the tournament's first rated table and after its last, where
    # one is added (``rating_changes``): ``before``, ``after`` and ``change``
    rating: object = None
    # a duplicate tournament's: his percentage and field figure (two decimals) and deals
    percent: Decimal | None = None
    field: Decimal | None = None
    deals: int | None = None


# ``changes(tournament)``: each entrant's club rating before the tournament's first rated
# table and after its last, by player id (objects with ``before``, ``after`` and ``change``;
# none for an entrant with no rated table), in one query. The ratings app adds it when it is
# ready: tournaments does not import it. With none, the standings show no rating column.
RATING_CHANGES = []


def rating_changes(changes) -> None:
    if changes not in RATING_CHANGES:
        RATING_CHANGES.append(changes)


def tournament_rating_changes(tournament: Tournament) -> dict:
    return {player: c for changes in RATING_CHANGES for player, c in changes(tournament).items()}


def player_ids(played_: selectors.Played) -> dict[str, int]:
    return {entrant.player.name: entrant.player_id for entrant in played_.entrants}


def table_state(tournament: Tournament, table, sheet) -> str:
    if selectors.counts(tournament, table, sheet):
        return COUNTED
    if sheet.complete:
        return AWAITING
    return PLAYING if table.hotseat_id is not None or not sheet.rows else INCOMPLETE


def round_views(played_: selectors.Played) -> list[RoundView]:
    """Every released round's tables, their players in seat order with their points once the
    table counts, and the byes."""
    ids = player_ids(played_)
    tournament = played_.tournament
    rounds = []
    for index, (models, shown) in enumerate(
        zip(played_.tables, played_.rounds, strict=True), start=1
    ):
        tables = []
        for table, sheet in zip(models, shown.tables, strict=True):
            state = table_state(tournament, table, sheet)
            seats = [Seat(name, ids[name]) for name in sheet.players]
            if state == COUNTED:
                for seat, points, won in zip(
                    seats, sheet.points, match_points(sheet.points), strict=True
                ):
                    seat.points, seat.match_points = points, number(won)
            tables.append(
                TableView(
                    table.number,
                    seats,
                    state,
                    table.hotseat_id is not None,
                    table.watch_key,
                    deals=len(sheet.rows),
                )
            )
            # the round under way: its group's next deal (an earlier round is over)
            last = index == len(played_.rounds)
            if tournament.duplicate and last and state in (PLAYING, INCOMPLETE):
                tables[-1].in_play = len(sheet.rows) + 1
        rounds.append(RoundView(index, tables, [Seat(name, ids[name]) for name in shown.byes]))
    return rounds


def standing_rows(standings, ids: dict[str, int]) -> list[Row]:
    rows = [
        Row(
            place=row.shown_place,
            shared=row.shared,
            name=row.player,
            player_id=ids[row.player],
            match_points=number(row.match_points),
            points=row.points,
            adjustment=row.adjustment,
            opponents=number(row.opponents),
            wins=row.wins,
            rounds=[
                None if cell is None else Cell(number(cell.match_points), cell.points, cell.bye)
                for cell in row.rounds
            ],
        )
        for row in standings
    ]
    for row, standing in zip(rows, standings, strict=True):
        if standing.duplicate is not None:
            row.percent = travellers.hundredths(standing.duplicate.percent)
            row.field = travellers.hundredths(standing.duplicate.field)
            row.deals = standing.duplicate.deals
    return rows


def breakdown(rows: list[Row], rounds: int) -> list[tuple[Row, list[tuple[str, str, str]]]]:
    """Each row with its ``rounds`` as (kind, text, round) — "6 (26)": match points, game
    points; "Round 2", the cell's label on a phone — written here rather than in the
    template: 1,600 cells on a 200-entrant page."""
    absent, bye = _("absent"), _("bye")
    labels = [_("Round %(number)s") % {"number": number} for number in range(1, rounds + 1)]
    return [
        (
            row,
            [
                ("absent", absent, label)
                if cell is None
                else ("bye", f"{bye} {figure(cell.match_points)}", label)
                if cell.bye
                else ("", f"{figure(cell.match_points)} ({figure(cell.points)})", label)
                for cell, label in zip(row.rounds, labels, strict=True)
            ],
        )
        for row in rows
    ]


def public_standings(tournament: Tournament):
    """The released rounds and the standings they give (played() once)."""
    played_ = selectors.played(tournament).disclosed()
    return played_, selectors.standings(tournament, played_)


@require_GET
def tournament_list(request):
    tournaments = list(selectors.tournament_list())
    for tournament in tournaments:
        tournament.game_title = registry.game(tournament.game).title
    return render(
        request,
        "tournaments/public/list.html",
        {
            "tournaments": tournaments,
            "games": registry.tournament_games() if roles.is_director(request.user) else [],
            "seasons": season_selectors.season_list(),
        },
    )


@require_GET
def tournament_page(request, key: str):
    tournament = tournament_or_404(key)
    played_ = selectors.played(tournament).disclosed()
    game = registry.game(tournament.game)
    settings = [
        (_("Deals per round") if name == "deals" else name, value)
        for name, value in tournament.game_settings.items()
    ]
    return render(
        request,
        "tournaments/public/tournament.html",
        {
            "tournament": tournament,
            "game": game,
            "options": option_lines(game, tournament.options),
            "settings": settings,
            "bye_points": number(Fraction(tournament.bye_points)),
            "order": [ORDER_LABELS[key] for key in tournament.order],
            "entrants": played_.entrants,
            "rounds": round_views(played_),
            "can_run": tournament_roles.scores(request.user, tournament),
            "finished": selectors.finished(played_),
            "check_in_offer": check_in_selectors.own_offers(
                request.user, [(tournament, played_)]
            ).get(tournament.pk),
        },
    )


@require_GET
def round_page(request, key: str, round_number: int):
    """One released round: its tables (spectators' links for those played here), its byes,
    and each table's result once it counts."""
    tournament = tournament_or_404(key)
    every = selectors.played(tournament)
    played_ = every.disclosed()
    rounds = round_views(played_)
    if not 1 <= round_number <= len(rounds):
        raise Http404
    official = tournament_roles.scores(request.user, tournament)
    if tournament.duplicate:
        rounds[round_number - 1].deal_groups = travellers.round_links(
            tournament, played_, every.released_only() if official else None, round_number
        )
    if official:
        for view, model in zip(
            rounds[round_number - 1].tables, played_.tables[round_number - 1], strict=True
        ):
            if offered(model):
                view.entry = entry_link(request, model)
    if tournament_roles.directs(request.user, tournament):
        models = played_.tables[round_number - 1]
        seats = device_seats(models)
        for view, model in zip(rounds[round_number - 1].tables, models, strict=True):
            view.seat_links = tuple(seat_link(request, s, qr=True) for s in seats.get(model.pk, []))
    shown = rounds[round_number - 1]
    return render(
        request,
        "tournaments/public/round.html",
        {
            "tournament": tournament,
            "game": registry.game(tournament.game),
            "round": shown,
            "bye_points": number(Fraction(tournament.bye_points)),
            "links_shown": any(view.entry or view.seat_links for view in shown.tables),
        },
    )


@require_GET
def traveller_page(request, key: str, round_number: int, size: int, number: int):
    """One deal of a duplicate round's group of tables of ``size``: every table's result
    seat by seat, the cards each seat held and the replays of the tables played here. Once
    the deal is scored; before, for the tournament's scorers and directors alone."""
    tournament = tournament_or_404(key)
    if not tournament.duplicate:
        raise Http404
    every = selectors.played(tournament)
    disclosed = every.disclosed()
    deal = travellers.scored_deal(tournament, disclosed, round_number, size, number)
    shown_from = disclosed
    if deal is None:
        if not tournament_roles.scores(request.user, tournament):
            raise Http404
        shown_from = every.released_only()
        deal = travellers.any_deal(tournament, shown_from, round_number, size, number)
        if deal is None:
            raise Http404
    tables = shown_from.tables[round_number - 1]
    group = [tables[index].pk for index in deal.group.tables]
    return render(
        request,
        "tournaments/public/traveller.html",
        {
            "tournament": tournament,
            "game": registry.game(tournament.game),
            "traveller": travellers.traveller(
                tournament, shown_from, deal, scored=shown_from is disclosed
            ),
            # the directors' rulings on it, each with its reason
            "rulings": DealRuling.objects.filter(table__in=group, deal=number)
            .select_related("table")
            .order_by("table__number", "seat"),
        },
    )


def places_chart(played_: selectors.Played, standings, adjustments) -> Chart | None:
    """The places of the first eight of the standings after each released round: once two
    rounds are released and a result counts (one round's places are the standings)."""
    counted = any(cell is not None for row in standings for cell in row.rounds)
    if len(played_.rounds) < 2 or not counted:
        return None
    places = selectors.places_by_round(played_, adjustments)
    leaders = [row.player for row in standings][:CHART_PLAYERS]
    return line_chart(
        title=_("Places after each round")
        if len(standings) <= CHART_PLAYERS
        else _("Places of the first eight after each round"),
        x_title=_("Round"),
        y_title=_("Place"),
        x_labels=[str(number) for number in range(1, len(places) + 1)],
        series=[Series(name, [after[name] for after in places]) for name in leaders],
        invert=True,
    )


@require_GET
def standings_page(request, key: str):
    tournament = tournament_or_404(key)
    played_ = selectors.played(tournament).disclosed()
    adjustments = selectors.round_adjustments(tournament)
    standings = selectors.standings_of(played_, selectors.adjustment_totals(adjustments))
    rows = standing_rows(standings, player_ids(played_))
    changes = tournament_rating_changes(tournament)
    for row in rows:
        row.rating = changes.get(row.player_id)
    return render(
        request,
        "tournaments/public/standings.html",
        {
            "tournament": tournament,
            "game": registry.game(tournament.game),
            "rows": rows,
            "breakdown": breakdown(rows, len(played_.rounds)),
            "round_numbers": range(1, len(played_.rounds) + 1),
            "order": [ORDER_LABELS[key] for key in tournament.order],
            "chart": places_chart(played_, standings, adjustments),
            "ratings": bool(changes),
            "duplicate": standings.duplicate,
            "finished": selectors.finished(played_),
        },
    )


def in_columns(rows: list, most: int) -> list[list]:
    """``rows`` in as few columns of at most ``most`` as they need, the columns as even as
    can be (40 rows, at most 20 a column: two of 20, not 25 and 15)."""
    count = max(1, -(-len(rows) // most))
    size = max(1, -(-len(rows) // count))
    return [rows[start : start + size] for start in range(0, len(rows), size)] or [[]]


@require_GET
def projector(request, key: str):
    """The current round's tables, each with its state and its deals so far, and the
    standings below them, on one screen across the room, in type as large as the screen
    allows (40 entrants fit 1280×720)."""
    tournament = tournament_or_404(key)
    played_, standings = public_standings(tournament)
    rounds = round_views(played_)
    current = rounds[-1] if rounds else None
    if current:
        lengths = {
            size: planned_deals(tournament, size)
            for size in {len(table.seats) for table in current.tables}
        }
        for table in current.tables:
            table.length = lengths[len(table.seats)]
    rows = standing_rows(standings, player_ids(played_))
    game = registry.game(tournament.game)
    check_in = check_in_selectors.check_in_list(tournament, played_.entrants, len(played_.rounds))
    shown = projector_layout(
        tables=[len(table.seats) for table in current.tables] if current else [],
        names=[row.name for row in rows],
        duplicate=standings.duplicate,
        title=tournament.name,
        subtitle=f"{game.title} · {date_format(tournament.date)}",
        byes=f"{_('Byes:')} {', '.join(seat.name for seat in current.byes)}"
        if current and current.byes
        else "",
        checked_in=", ".join(entrant.player.name for entrant in check_in.present)
        if check_in and check_in.in_use
        else None,
    )
    return render(
        request,
        "tournaments/public/projector.html",
        {
            "tournament": tournament,
            "game": game,
            "layout": shown,
            "columns": in_columns(rows, shown.standings_rows),
            "current": current,
            "duplicate": standings.duplicate,
            "finished": selectors.finished(played_),
            "check_in": check_in,
        },
    )


@require_GET
def standings_csv(request, key: str):
    tournament = tournament_or_404(key)
    _played, standings = public_standings(tournament)
    return attachment(standings.as_csv(), f"{tournament.key}-standings.csv")


@require_GET
def sheets_csv(request, key: str):
    """Every sheet row of every released round, one line a row: where it is, the table's
    players in seat order and each seat's figure for the row."""
    tournament = tournament_or_404(key)
    played_ = selectors.played(tournament).disclosed()
    parts = registry.tournament(tournament.game)
    width = max(parts.allowed_sizes())
    lines = [
        ["round", "table", "row"]
        + [f"player_{n}" for n in range(1, width + 1)]
        + [f"points_{n}" for n in range(1, width + 1)]
    ]
    for round_number, (models, shown) in enumerate(
        zip(played_.tables, played_.rounds, strict=True), start=1
    ):
        for table, sheet in zip(models, shown.tables, strict=True):
            seats = len(sheet.players)
            options = parts.table_options(tournament.options, seats)
            blank = [""] * (width - seats)
            for index, row in enumerate(sheet.rows, start=1):
                figures = parts.row_points(
                    row, seats=seats, options=options, settings=tournament.game_settings
                )
                lines.append(
                    [round_number, table.number, index, *sheet.players, *blank, *figures, *blank]
                )
    return attachment(csv_text(lines), f"{tournament.key}-sheets.csv")


@dataclass
class PlayerRound:
    number: int
    table: int | None  # None: a bye, or absent
    others: list[str]
    cell: Cell | None  # what counted: his match and game points, or the bye
    state: str | None  # the table's state when it does not count yet


@dataclass
class CurrentSeat:
    """Where the player sits in the round being played: "Round 3: table 2, seat 3"."""

    round: int
    table: int | None  # None: a bye
    seat: int | None  # from 1
    names: list[str]  # the table's players in seat order, his own name among them
    model: object = None  # the round table
    link: object = None  # played here on his own device: his seat's link (him, directors)


@dataclass
class PlayerTournament:
    tournament: Tournament
    game_title: str
    row: Row
    entrants: int
    rounds: list[PlayerRound]
    current: CurrentSeat | None = None
    check_in: check_in_selectors.Offer | None = None  # his own button, signed in
    deals: list[travellers.PlayerDeal] = dataclasses.field(default_factory=list)  # duplicate


def current_seat(player: Player, played_: selectors.Played, views: list[RoundView]):
    """His table and seat in the last released round while it is played (a table of it
    does not count yet); None once it is over, or if he sits out the round."""
    if not views or all(table.state == COUNTED for table in views[-1].tables):
        return None
    last = views[-1]
    if any(seat.player_id == player.pk for seat in last.byes):
        return CurrentSeat(last.number, None, None, [])
    for view, model in zip(last.tables, played_.tables[-1], strict=True):
        for position, seat in enumerate(view.seats, start=1):
            if seat.player_id == player.pk:
                return CurrentSeat(
                    last.number, view.number, position, [s.name for s in view.seats], model
                )
    return None


def add_seat_links(request, player: Player, shown: list[PlayerTournament]) -> None:
    """The player's seat links of the tables he plays on his own device: on his page, for
    him signed in and for the tournament's directors alone (1 query; none for a visitor)."""
    if not request.user.is_authenticated:
        return
    current = [entry.current for entry in shown if entry.current and entry.current.model]
    seats = device_seats([c.model for c in current], player=player)
    own = player.user_id == request.user.pk
    for entry in shown:
        mine = entry.current and entry.current.model and seats.get(entry.current.model.pk)
        if mine and (own or tournament_roles.directs(request.user, entry.tournament)):
            entry.current.link = seat_link(request, mine[0])


def player_tournaments(request, player: Player) -> dict:
    """What a player's page (the ratings app's, which adds his ratings) shows of his
    tournaments: each round by round (``tournaments``), where he sits in a round being
    played, and the newest tournament under way that the page follows live (``follows``)."""
    shown = []
    follows = None
    every = selectors.player_tournaments(player)
    for entered in every:
        played_ = entered.played
        ids = player_ids(played_)
        row = next(r for r in standing_rows(entered.standings, ids) if r.player_id == player.pk)
        rounds = []
        views = round_views(played_)
        if follows is None and not selectors.finished(played_):
            follows = entered.tournament
        for index, view in enumerate(views, start=1):
            cell = row.rounds[index - 1]
            seated = next(
                (
                    (table, [s.name for s in table.seats if s.player_id != player.pk])
                    for table in view.tables
                    if any(s.player_id == player.pk for s in table.seats)
                ),
                None,
            )
            if seated:
                table, others = seated
                rounds.append(
                    PlayerRound(
                        index,
                        table.number,
                        others,
                        cell,
                        None if table.state == COUNTED else table.state,
                    )
                )
            else:
                rounds.append(PlayerRound(index, None, [], cell, None))
        shown.append(
            PlayerTournament(
                entered.tournament,
                registry.game(entered.tournament.game).title,
                row,
                len(played_.entrants),
                rounds,
                current_seat(player, played_, views),
                deals=travellers.player_deals(played_, player.name),
            )
        )
    add_seat_links(request, player, shown)
    if request.user.is_authenticated and player.user_id == request.user.pk:  # his own
        offers = check_in_selectors.own_offers(
            request.user, [(e.tournament, e.played) for e in every]
        )
        for entry in shown:
            entry.check_in = offers.get(entry.tournament.pk)
    if follows is None and shown:  # all over: the page still follows a late correction
        follows = shown[0].tournament
    own = request.user.is_authenticated and player.user_id == request.user.pk
    return {"tournaments": shown, "follows": follows, "own": own}
