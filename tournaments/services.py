"""Every write of the tournaments app: one transaction, an audit entry, and the tournament's
listeners told after commit, as in ``games.services``; a refusal is a ``TournamentError``, a
``club.services.ServiceError``."""

import datetime
from decimal import Decimal
from fractions import Fraction

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from club.members import clean_name
from club.models import AuditEntry, Player
from club.notices import send_on_commit
from club.services import ServiceError, Stale, add_player
from games import registry
from games.models import Table as HotseatTable
from games.selectors import deal_stamp
from games.services import finish_tournament_table, refused, start_table
from games.services import group_name as table_group

from . import seating
from . import selectors_check_in as check_in
from .addresses import key_lookup, readable_key
from .document import (
    MOST_ROUNDS,
    Document,
    NotADocument,
    OptionsRefused,
    Unplayable,
    read_settings,
)
from .models import (
    Adjustment,
    Bye,
    Entrant,
    ReportedRow,
    Round,
    RoundTable,
    SheetRow,
    TableSeat,
    Tournament,
)
from .roles import first_director
from .selectors_director import has_played
from .sheets import SheetError, check_sheet, sum_sheet
from .signals import results_changed

MOST_ADJUSTMENT = 10_000  # game points either way: beyond any penalty, within any column


def group_name(tournament: Tournament) -> str:
    return f"tournament.{tournament.pk}"  # a channel group's name is ASCII; a key may not be


def import_document(*, doc: Document, user=None) -> Tournament:
    """A whole tournament from its (checked) document: entrants who are not yet club players
    become club players; every round as it was played, released. All or nothing."""
    with transaction.atomic():
        tournament = Tournament.objects.create(
            key=free_key(doc.name),
            name=doc.name,
            date=doc.date or timezone.localdate(),
            game=doc.game,
            options=doc.options,
            game_settings=doc.settings,
            rounds_planned=doc.rounds_planned,
            seating=doc.seating,
            seed=doc.seed,
            bye_points=decimal(doc.bye_points),
            order=doc.order,
            created_by=user,
        )
        entrants = {}
        for number, name in enumerate(doc.players, start=1):
            entrants[name] = Entrant.objects.create(
                tournament=tournament, number=number, player=add_player(name=name, by=user)
            )
        for number, played in enumerate(doc.rounds, start=1):
            round_ = Round.objects.create(tournament=tournament, number=number, released=True)
            Bye.objects.bulk_create(
                Bye(round=round_, entrant=entrants[name]) for name in played.byes
            )
            for index, table in enumerate(played.tables, start=1):
                row_table = RoundTable.objects.create(
                    round=round_, number=index, entered_by=user, confirmed_by=user
                )
                TableSeat.objects.bulk_create(
                    TableSeat(table=row_table, position=seat, entrant=entrants[name])
                    for seat, name in enumerate(table.players)
                )
                SheetRow.objects.bulk_create(
                    SheetRow(table=row_table, index=k, data=row)
                    for k, row in enumerate(table.rows, start=1)
                )
        first_director(tournament=tournament, user=user)
        audit(user, "tournament.import", tournament, name=doc.name, rounds=len(doc.rounds))
        notify_on_commit(tournament)
    return tournament


def decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def free_key(name: str) -> str:
    """A key for addresses and commands from the name in Latin letters, numbered if it is
    taken (a former key counts as taken: its old addresses lead to its own tournament)."""
    return readable_key(name, lambda key: Tournament.objects.filter(key_lookup(key)).exists())


def notify_on_commit(tournament: Tournament, *, seat_pages: bool = False) -> None:
    """Counts the change, announces it (``signals.results_changed``: the club's ratings,
    derived from the results, follow in this transaction), and tells the tournament's live
    pages once it is committed: only its new version; each page fetches what its viewer may
    see. With ``seat_pages`` (a change of who is in for the next round, or of its check-in),
    also the seats' own pages of its tables played on devices, whose check-in it may change."""
    results_changed.send(sender=Tournament, tournament=tournament)
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    version = Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)
    send_on_commit(group_name(tournament), {"type": "live.changed", "stamp": [version]})
    if seat_pages:
        # finished tables too: a player checks in for the next round once his table is over
        tables = HotseatTable.objects.filter(
            tournament_table__round__tournament=tournament, seats__device=True
        ).distinct()
        for table in tables:
            # the table's own version, unchanged: only a seat's page, whose version holds
            # the tournament's, finds it newer (games.consumers.SeatConsumer)
            send_on_commit(
                table_group(table),
                {"type": "live.changed", "stamp": deal_stamp(table), "parts": True},
            )


class TournamentError(ServiceError):
    """A refusal to show on the page (as the games' services refuse)."""


class OptionRefused(TournamentError):
    """The game's options refused by its rules, in their words (as a new table's form shows
    them); ``option`` is the one at fault (as records name it), or None."""

    def __init__(self, option: str | None, message: str, **params):
        super().__init__(message, **params)
        self.option = option


class EntryRefused(TournamentError):
    """An entry of several refused: ``index`` (from 0) is the entry at fault."""

    def __init__(self, index: int, message: str, **params):
        super().__init__(message, **params)
        self.index = index


class SheetRefused(TournamentError):
    """A typed sheet with a faulty row: ``row`` (from 1) is the row at fault."""

    def __init__(self, row: int | None, message: str, **params):
        super().__init__(message, **params)
        self.row = row


def create_tournament(
    *,
    user,
    name: str,
    game: str,
    options: dict,
    settings: dict,
    rounds_planned: int,
    seating: str,
    seed: int,
    bye_points,
    order: list[str],
    confirmation: bool = False,
    date: datetime.date | None = None,
    form_token: str | None = None,
) -> Tournament:
    """A new tournament, its options and settings checked as a document's are; its date is
    today's unless given. The form of ``form_token`` sent again (a double click, the page
    sent twice) creates nothing: it gives the tournament the form created."""
    try:
        checked = read_settings(
            {
                "tournament": name,
                "game": game,
                "options": options,
                **settings,
                "rounds_planned": rounds_planned,
                "seating": seating,
                "seed": seed,
                "bye_points": bye_points,
                "order": order,
            }
        )
    except OptionsRefused as exc:
        refusal = refused(exc.refusal)
        option = getattr(refusal, "option", None)
        raise OptionRefused(option, refusal.message, **refusal.params) from None
    except Unplayable as exc:
        raise TournamentError(
            gettext_noop(
                "These options cannot be played at a table of %(count)s, which a round may need."
            ),
            count=exc.size,
        ) from None
    except NotADocument as exc:
        raise TournamentError(
            gettext_noop("These settings do not fit: %(reason)s"), reason=str(exc)
        ) from None
    with transaction.atomic():
        sent = form_token and Tournament.objects.filter(form_token=form_token).first()
        if sent:
            return created_from(sent, user)
        try:
            with transaction.atomic():  # the same form sent at the same moment: one wins
                tournament = Tournament.objects.create(
                    key=free_key(checked["name"]),
                    name=checked["name"],
                    date=date or timezone.localdate(),
                    game=checked["game"],
                    options=checked["options"],
                    game_settings=checked["settings"],
                    rounds_planned=checked["rounds_planned"],
                    seating=checked["seating"],
                    seed=checked["seed"],
                    bye_points=decimal(checked["bye_points"]),
                    order=checked["order"],
                    confirmation=confirmation,
                    created_by=user,
                    form_token=form_token or None,
                )
        except IntegrityError:
            sent = form_token and Tournament.objects.filter(form_token=form_token).first()
            if not sent:
                raise
            return created_from(sent, user)
        first_director(tournament=tournament, user=user)
        audit(user, "tournament.create", tournament)
        notify_on_commit(tournament)
    return tournament


def created_from(sent: Tournament, user) -> Tournament:
    """The tournament a form already sent created, for the member who sent it."""
    if sent.created_by_id != getattr(user, "pk", None):
        raise TournamentError(gettext_noop("This form has already been sent."))
    return sent


def add_entrant(*, tournament: Tournament, player, user) -> Entrant:
    """A club player (or a new name) enters; seated from the next round not yet drawn."""
    return add_entrants(tournament=tournament, players=[player], user=user)[0]


def add_entrants(*, tournament: Tournament, players: list, user) -> list[Entrant]:
    """Club players (``Player``) and names (a club player's, or a new one's) enter in this
    order, all or none; seated from the next round not yet drawn, and refused once every
    planned round has been drawn (he would play none). ``EntryRefused`` names the first
    entry at fault."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.rounds.count() >= locked.rounds_planned:
            raise TournamentError(
                gettext_noop(
                    "Every planned round has been seated: plan one more round before entering "
                    "a late entrant."
                )
            )
        names = []
        for index, entry in enumerate(players):
            try:
                names.append(entry.name if isinstance(entry, Player) else clean_name(entry))
            except ServiceError as exc:
                raise EntryRefused(index, exc.message, **exc.params) from None
        keys = [Player.key_of(name) for name in names]
        club = {player.key: player for player in Player.objects.filter(key__in=keys)}
        entered = set(locked.entrants.values_list("player__key", flat=True))
        seen: dict[str, str] = {}  # key: the name as it enters
        for index, (key, name) in enumerate(zip(keys, names, strict=True)):
            name = club[key].name if key in club else name
            if key in seen:
                raise EntryRefused(
                    index, gettext_noop("%(name)s is already on this list."), name=seen[key]
                )
            if key in entered:
                raise EntryRefused(index, gettext_noop("%(name)s has already entered."), name=name)
            seen[key] = name
        number, joined = locked.entrants.count(), locked.rounds.count() + 1
        entrants = []
        for index, (entry, key, name) in enumerate(zip(players, keys, names, strict=True)):
            try:  # a new name that looks like a club player's is refused
                player = (
                    entry
                    if isinstance(entry, Player)
                    else (club.get(key) or add_player(name=name, by=user))
                )
            except ServiceError as exc:
                raise EntryRefused(index, exc.message, **exc.params) from None
            number += 1
            entrants.append(
                Entrant.objects.create(
                    tournament=locked, player=player, number=number, joined_round=joined
                )
            )
            audit(user, "tournament.enter", locked, player=player.pk, name=player.name)
        notify_on_commit(locked)
    return entrants


def locked_entrant(entrant: Entrant, rounds_seen: int | None) -> tuple[Tournament, Entrant]:
    """The entrant and his tournament, locked as ``draw_round`` locks it (a round is not
    drawn half way through a change of its entrants); refused if a round has been drawn
    since the page showed ``rounds_seen`` rounds, as what it offered meant those."""
    tournament = Tournament.objects.select_for_update().get(pk=entrant.tournament_id)
    locked = (
        Entrant.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk=entrant.pk, tournament=tournament)
        .first()
    )
    if locked is None:
        raise Stale(gettext_noop("This entrant is no longer in the tournament."))
    drawn = tournament.rounds.count()
    if rounds_seen is not None and rounds_seen != drawn:
        raise Stale(
            gettext_noop("Round %(number)s has been seated since this page was shown: look again."),
            number=drawn,
        )
    return tournament, locked


def withdraw(*, entrant: Entrant, user, rounds_seen: int | None = None) -> Entrant:
    """Not seated from the next round drawn; his results stand and still count for his
    opponents. One who has not played is removed instead (``remove_entrant``)."""
    with transaction.atomic():
        tournament, locked = locked_entrant(entrant, rounds_seen)
        if locked.withdrawn_after is not None:
            raise TournamentError(
                gettext_noop("%(name)s has already withdrawn."), name=str(locked.player)
            )
        if not has_played(locked):
            raise TournamentError(
                gettext_noop("%(name)s has not played yet: remove the entry instead."),
                name=str(locked.player),
            )
        locked.withdrawn_after = tournament.rounds.count()
        locked.save(update_fields=["withdrawn_after"])
        audit(
            user, "tournament.withdraw", tournament, entrant=locked.pk, after=locked.withdrawn_after
        )
        notify_on_commit(tournament, seat_pages=True)
    return locked


def undo_withdrawal(*, entrant: Entrant, user, rounds_seen: int | None = None) -> Entrant:
    """A withdrawn entrant plays again: he is seated from the next round drawn, and the
    rounds he missed stay without him."""
    with transaction.atomic():
        tournament, locked = locked_entrant(entrant, rounds_seen)
        if locked.withdrawn_after is None:
            raise TournamentError(
                gettext_noop("%(name)s has not withdrawn."), name=str(locked.player)
            )
        after, locked.withdrawn_after = locked.withdrawn_after, None
        locked.save(update_fields=["withdrawn_after"])
        audit(user, "tournament.withdraw.undo", tournament, entrant=locked.pk, after=after)
        notify_on_commit(tournament, seat_pages=True)
    return locked


def remove_entrant(*, entrant: Entrant, user, rounds_seen: int | None = None) -> None:
    """An entry made by mistake, before its player has played, is taken back: he may enter
    again later. The later entrants' numbers close the gap (the seating reads them)."""
    with transaction.atomic():
        tournament, locked = locked_entrant(entrant, rounds_seen)
        if has_played(locked):
            raise TournamentError(
                gettext_noop("%(name)s has already played: the entry stays, withdraw instead."),
                name=str(locked.player),
            )
        number = locked.number
        locked.delete()
        # one by one, upwards: each number is free when it is taken (numbers are unique)
        for later in tournament.entrants.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number"])
        audit(
            user, "tournament.remove", tournament, player=locked.player_id, name=locked.player.name
        )
        notify_on_commit(tournament, seat_pages=True)


def sheet_closed(table: RoundTable) -> TournamentError | None:
    """Why the table's sheet may not be typed in (None: it may); its page says so too."""
    if table.hotseat_id is not None:
        return TournamentError(
            gettext_noop("This table is played here: its sheet comes from its deals.")
        )
    if not table.round.released:
        return TournamentError(gettext_noop("The round has not been released yet."))
    if table.reported or ReportedRow.objects.filter(table=table).exists():
        return TournamentError(
            gettext_noop(
                "This table's players report its rows from their phones: correct a row on "
                "its own page."
            )
        )
    return None


def enter_sheet(*, table: RoundTable, rows: list, user) -> RoundTable:
    """A typed-in sheet, all its rows checked as the game's parts say: nothing is saved if
    any row is at fault (SheetRefused names the row)."""
    with transaction.atomic():
        locked = (
            RoundTable.objects.select_for_update()
            .select_related("round__tournament")
            .get(pk=table.pk)
        )
        tournament = locked.round.tournament
        closed = sheet_closed(locked)
        if closed:
            raise closed
        seats = locked.seats.count()
        try:
            sheet = check_sheet(
                registry.tournament(tournament.game),
                rows,
                seats=seats,
                options=tournament.options,
                settings=tournament.game_settings,
            )
        except SheetError as exc:
            raise SheetRefused(exc.row, exc.message, **exc.params) from None
        locked.rows.all().delete()
        SheetRow.objects.bulk_create(
            SheetRow(table=locked, index=k, data=row) for k, row in enumerate(sheet.rows, start=1)
        )
        locked.entered_by, locked.confirmed_by = user, None
        locked.save(update_fields=["entered_by", "confirmed_by"])
        audit(user, "sheet.enter", tournament, table=locked.pk, rows=sheet.rows)
        notify_on_commit(tournament)
    return locked


def confirm_sheet(*, table: RoundTable, user) -> RoundTable:
    """A second scorer confirms a typed sheet: it counts from now on."""
    with transaction.atomic():
        locked = (
            RoundTable.objects.select_for_update()
            .select_related("round__tournament")
            .get(pk=table.pk)
        )
        if locked.entered_by_id is None or locked.hotseat_id is not None:
            raise TournamentError(gettext_noop("There is no typed sheet to confirm."))
        if locked.entered_by_id == user.pk:
            raise TournamentError(
                gettext_noop("Another scorer must confirm the sheet you typed in.")
            )
        if locked.confirmed_by_id is not None:
            raise TournamentError(gettext_noop("The sheet is already confirmed."))
        tournament = locked.round.tournament
        if not sum_sheet(
            registry.tournament(tournament.game),
            list(locked.rows.order_by("index").values_list("data", flat=True)),
            seats=locked.seats.count(),
            options=tournament.options,
            settings=tournament.game_settings,
        ).complete:
            raise TournamentError(gettext_noop("Only a complete sheet is confirmed."))
        locked.confirmed_by = user
        locked.save(update_fields=["confirmed_by"])
        audit(user, "sheet.confirm", locked.round.tournament, table=locked.pk)
        notify_on_commit(locked.round.tournament)
    return locked


# -- a table's own report: its players enter and confirm its rows through its entry link --


def report_closed(table: RoundTable) -> TournamentError | None:
    """Why the table's players may not report its rows (None: they may); its page says so."""
    if table.hotseat_id is not None:
        return TournamentError(
            gettext_noop("This table is played here: its sheet comes from its deals.")
        )
    if not table.round.released:
        return TournamentError(gettext_noop("The round has not been released yet."))
    if table.entered_by_id is not None:
        return TournamentError(
            gettext_noop("This table's sheet has been typed in from paper by a scorer.")
        )
    return None


def report_version(table: RoundTable) -> str:
    """The table's report as a page shows it: its rows, and the row awaiting confirmation
    with its changes (a double click, another phone's row, a withdrawal make it older)."""
    pending = ReportedRow.objects.filter(table=table).values_list("pk", "revision").first()
    rows = SheetRow.objects.filter(table=table).count()
    return f"{rows}.{pending[0]}.{pending[1]}" if pending else str(rows)


def locked_report(table: RoundTable, seat, seen) -> tuple[RoundTable, ReportedRow | None, str]:
    """The table locked (as enter_sheet locks it), its row awaiting confirmation and the
    reporting seat's player; refused if the players may not report, ``seat`` is not one of
    the table's or the page showed another ``report_version``."""
    locked = (
        RoundTable.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    )
    closed = report_closed(locked)
    if closed:
        raise closed
    names = [
        seat_.entrant.player.name
        for seat_ in locked.seats.select_related("entrant__player").order_by("position")
    ]
    if type(seat) is not int or not 0 <= seat < len(names):
        raise TournamentError(gettext_noop("Say first which player of the table you are."))
    if seen != report_version(locked):
        raise Stale(
            gettext_noop(
                "The table's sheet has changed since this page was shown: here it is as it is now."
            )
        )
    return locked, ReportedRow.objects.filter(table=locked).first(), names[seat]


def check_report(table: RoundTable, row) -> tuple[dict, int]:
    """``row`` checked as the next row of the table's sheet, the whole sheet with it (as
    the typed sheet checks it; SheetRefused names the row): the row as kept, its index."""
    tournament = table.round.tournament
    rows = list(table.rows.order_by("index").values_list("data", flat=True))
    try:
        sheet = check_sheet(
            registry.tournament(tournament.game),
            rows + [row],
            seats=table.seats.count(),
            options=tournament.options,
            settings=tournament.game_settings,
        )
    except SheetError as exc:
        raise SheetRefused(exc.row, exc.message, **exc.params) from None
    return sheet.rows[-1], len(rows) + 1


def audit_report(verb: str, table: RoundTable, row: ReportedRow, **data) -> None:
    """A player's step of the report (no member signed in; the entry key is never kept)."""
    audit(
        None,
        verb,
        table.round.tournament,
        table=table.pk,
        round=table.round.number,
        table_number=table.number,
        row=row.index,
        **data,
    )


def report_row(*, table: RoundTable, seat: int, data, seen: str) -> ReportedRow:
    """A player of the table enters the next deal's row, or changes the one he entered
    while it awaits confirmation: checked as the typed sheet checks it, nothing kept if
    it is refused. ``seen``: the ``report_version`` the page showed."""
    with transaction.atomic():
        locked, pending, player = locked_report(table, seat, seen)
        if pending is not None and pending.seat != seat:
            raise TournamentError(
                gettext_noop("Deal %(number)s's row awaits its confirmation: confirm it first."),
                number=pending.index,
            )
        checked, index = check_report(locked, data)
        if pending is None:
            pending = ReportedRow.objects.create(table=locked, index=index, data=checked, seat=seat)
            audit_report("sheet.report", locked, pending, seat=seat, player=player, new=checked)
        else:
            if checked == pending.data:
                raise TournamentError(gettext_noop("The row is unchanged."))
            old = pending.data
            pending.data, pending.revision = checked, pending.revision + 1
            pending.save(update_fields=["data", "revision"])
            audit_report(
                "sheet.report.change",
                locked,
                pending,
                seat=seat,
                player=player,
                old=old,
                new=checked,
            )
        notify_on_commit(locked.round.tournament)
    return pending


def waiting_row(pending: ReportedRow | None) -> ReportedRow:
    if pending is None:
        raise TournamentError(gettext_noop("No row awaits its confirmation."))
    return pending


def withdraw_reported_row(*, table: RoundTable, seat: int, seen: str) -> None:
    """The player who entered the row awaiting confirmation takes it back."""
    with transaction.atomic():
        locked, pending, player = locked_report(table, seat, seen)
        pending = waiting_row(pending)
        if pending.seat != seat:
            raise TournamentError(
                gettext_noop("Only the player who entered the row may change or withdraw it.")
            )
        pending.delete()
        audit_report(
            "sheet.report.withdraw", locked, pending, seat=seat, player=player, old=pending.data
        )
        notify_on_commit(locked.round.tournament)


def confirm_reported_row(*, table: RoundTable, seat: int, seen: str) -> SheetRow:
    """Another player of the table confirms the row awaiting confirmation: it is the
    sheet's row from now on (checked again with the sheet as it is now), locked for the
    table; only the tournament's scorers and directors correct it. A table whose rows are
    all confirmed counts once its sheet is complete."""
    with transaction.atomic():
        locked, pending, player = locked_report(table, seat, seen)
        pending = waiting_row(pending)
        if pending.seat == seat:
            raise TournamentError(
                gettext_noop("Another player of the table must confirm the row you entered.")
            )
        checked, index = check_report(locked, pending.data)
        (row,) = SheetRow.objects.bulk_create(
            [
                SheetRow(
                    table=locked,
                    index=index,
                    data=checked,
                    entered_by_seat=pending.seat,
                    confirmed_by_seat=seat,
                )
            ]
        )
        pending.delete()
        if not locked.reported:
            locked.reported = True
            locked.save(update_fields=["reported"])
        audit_report(
            "sheet.report.confirm",
            locked,
            pending,
            seat=seat,
            player=player,
            entered_by=pending.seat,
            new=checked,
        )
        notify_on_commit(locked.round.tournament)
    return row


def adjust(*, round_: Round, entrant: Entrant, points: int, reason: str, user) -> Adjustment:
    """A director's penalty or correction of an entrant's game points in a round."""
    reason = " ".join(reason.split())
    if not reason:
        raise TournamentError(gettext_noop("Give the reason for the adjustment."))
    check_adjustment_points(points)
    if entrant.tournament_id != round_.tournament_id:
        raise TournamentError(gettext_noop("That entrant is not in this tournament."))
    with transaction.atomic():
        adjustment = Adjustment.objects.create(
            round=round_, entrant=entrant, points=points, reason=reason, by=user
        )
        audit(
            user,
            "tournament.adjust",
            round_.tournament,
            entrant=entrant.pk,
            round=round_.number,
            points=points,
            reason=reason,
        )
        notify_on_commit(round_.tournament)
    return adjustment


def sync_hotseat_rows(table: RoundTable) -> None:
    """A table played here: its sheet's rows are its finished deals' results, up to the
    complete sheet. Called in the transaction of the deal's last action (or of the
    take-back that reopens it), so the result reaches the tournament with it. The deal that
    completes the sheet finishes the hotseat table in the same transaction: no deal is
    dealt there after it, and its page sends the players back to the round."""
    tournament = table.round.tournament
    parts = registry.tournament(tournament.game)
    results = (
        table.hotseat.deals.filter(is_over=True).order_by("number").values_list("result", flat=True)
    )
    seats = table.seats.count()
    options = parts.table_options(tournament.options, seats)

    def complete(rows) -> bool:
        return parts.complete(rows, seats=seats, options=options, settings=tournament.game_settings)

    rows = []
    for row in parts.rows_from_results(list(results)):
        if complete(rows):
            break
        rows.append(row)
    # a finished deal adds its row, a reopened one takes it away: the rest stay as they are
    table.rows.filter(index__gt=len(rows)).delete()
    kept = set(table.rows.values_list("index", flat=True))
    SheetRow.objects.bulk_create(
        SheetRow(table=table, index=k, data=row)
        for k, row in enumerate(rows, start=1)
        if k not in kept
    )
    if complete(rows) and table.hotseat.is_open:
        finish_tournament_table(table=table.hotseat)
    notify_on_commit(tournament)


def audit(user, verb: str, tournament: Tournament, **data) -> None:
    AuditEntry.objects.create(user=user, verb=verb, data={"tournament": tournament.key, **data})


def play_here(*, table: RoundTable, user, devices: bool = False) -> RoundTable:
    """Start a table of a released round as a hotseat table: its players in seat order, the
    tournament's options. Its sheet then fills itself from its deals. ``devices``: every
    seat is played on its player's own device (its link on his page), not at one screen."""
    with transaction.atomic():
        locked = (
            RoundTable.objects.select_for_update()
            .select_related("round__tournament")
            .get(pk=table.pk)
        )
        tournament = locked.round.tournament
        if not locked.round.released:
            raise TournamentError(gettext_noop("The round has not been released yet."))
        if (
            locked.hotseat_id is not None
            or locked.rows.exists()
            or ReportedRow.objects.filter(table=locked).exists()
        ):
            raise TournamentError(gettext_noop("This table's sheet has already begun."))
        players = [
            seat.entrant.player
            for seat in locked.seats.select_related("entrant__player").order_by("position")
        ]
        parts = registry.tournament(tournament.game)
        try:
            locked.hotseat = start_table(
                user=user,
                game=tournament.game,
                players=players,
                options=parts.table_options(tournament.options, len(players)),
                devices=range(len(players)) if devices else (),
            )
        except ServiceError as exc:  # the games' refusal, shown as the tournament's
            raise TournamentError(exc.message, **exc.params) from None
        locked.save(update_fields=["hotseat"])
        audit(
            user,
            "tournament.play_here",
            tournament,
            table=locked.pk,
            hotseat=locked.hotseat.token,
            devices=devices,
        )
        notify_on_commit(tournament)
    return locked


def plan_round(*, tournament: Tournament, user, planned_seen: int | None) -> Tournament:
    """One more round planned, once every planned round has been seated: a finished
    tournament is under way again, its next round checked in for, entered for and drawn as
    any other. ``planned_seen``: the rounds planned the page showed (Stale if they have
    changed since: a second click plans nothing more)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if planned_seen != locked.rounds_planned:
            raise Stale(
                gettext_noop(
                    "The tournament now has %(count)s rounds planned: this page showed "
                    "another plan. Look again."
                ),
                count=locked.rounds_planned,
            )
        seated = locked.rounds.count()
        if seated < locked.rounds_planned:
            raise TournamentError(
                gettext_noop("Round %(number)s is planned and not seated yet: seat it first."),
                number=seated + 1,
            )
        if locked.rounds_planned >= MOST_ROUNDS:
            raise TournamentError(
                gettext_noop("A tournament has at most %(count)s rounds."), count=MOST_ROUNDS
            )
        locked.rounds_planned += 1
        locked.save(update_fields=["rounds_planned"])
        audit(user, "tournament.plan_round", locked, rounds_planned=locked.rounds_planned)
        notify_on_commit(locked, seat_pages=True)
    return locked


def draw_round(*, tournament: Tournament, user) -> Round:
    """The next round's seating as a draft (the tournament's method, from its seed, the
    entrants still in and the rounds so far), for the director to look at, change and
    release."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        rounds = list(locked.rounds.order_by("number"))
        if rounds and not rounds[-1].released:
            raise TournamentError(
                gettext_noop("Round %(number)s is still a draft: release it first."),
                number=rounds[-1].number,
            )
        if len(rounds) >= locked.rounds_planned:
            raise TournamentError(
                gettext_noop("All %(count)s planned rounds have been seated."),
                count=locked.rounds_planned,
            )
        number = len(rounds) + 1
        present = check_in.checked_in(locked, number)
        entrants = check_in.seated(list(locked.entrants.order_by("number")), number, present)
        round_ = Round.objects.create(tournament=locked, number=number, released=False)
        seat_draft(locked, round_, entrants)
        audit(user, "round.draw", locked, round=number, checked_in=bool(present))
        notify_on_commit(locked, seat_pages=True)
    return round_


def seat_draft(tournament: Tournament, round_: Round, entrants: list[Entrant]) -> None:
    """The draft's tables and byes for ``entrants`` (in entry order), drawn by the
    tournament's method from its seed and the rounds before this one. Only the entrants
    given are placed: one checked out of the round has neither a table nor a bye."""
    number = round_.number
    parts = registry.tournament(tournament.game)
    sizes = parts.table_sizes(len(entrants))
    if not sizes:
        raise TournamentError(
            gettext_noop("%(count)s entrants are too few for a table of this game."),
            count=len(entrants),
        )
    by_number = {e.number: e for e in entrants}
    swiss = tournament.seating == Tournament.Seating.SWISS and number > 1
    seated = seating.seat_round(
        method=tournament.seating,
        sizes=sizes,
        entrants=list(by_number),
        history=seating_history(tournament, before=number),
        rounds_planned=tournament.rounds_planned,
        standings=standings_order(tournament, by_number) if swiss else None,
        round_number=number,
        seed=tournament.seed,
    )
    for index, table in enumerate(seated.tables, start=1):
        row_table = RoundTable.objects.create(round=round_, number=index)
        TableSeat.objects.bulk_create(
            TableSeat(table=row_table, position=seat, entrant=by_number[n])
            for seat, n in enumerate(table)
        )
    Bye.objects.bulk_create(Bye(round=round_, entrant=by_number[n]) for n in seated.byes)


def seating_history(tournament: Tournament, before: int | None = None) -> list[seating.Round]:
    """The rounds so far (those before round ``before``, if given) as the seating code sees
    them: entry numbers (3 queries)."""
    history = []
    rounds = tournament.rounds.order_by("number")
    if before is not None:
        rounds = rounds.filter(number__lt=before)
    for round_ in rounds.prefetch_related("tables__seats__entrant", "byes__entrant"):
        history.append(
            seating.Round(
                tables=[
                    [seat.entrant.number for seat in table.seats.all()]
                    for table in round_.tables.all()
                ],
                byes=[bye.entrant.number for bye in round_.byes.all()],
            )
        )
    return history


def standings_order(tournament: Tournament, by_number: dict) -> list[int]:
    """The entrants still in, best first, as entry numbers (for Swiss)."""
    from . import selectors  # reads, not writes: imported where needed

    number_of = {entrant.player.name: n for n, entrant in by_number.items()}
    return [
        number_of[row.player]
        for row in selectors.standings(tournament).rows
        if row.player in number_of
    ]


def swap(*, round_: Round, first: Entrant, second: Entrant, user) -> Round:
    """Exchange two entrants' places (a seat or a bye) in a draft round."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
        if locked.released:
            raise TournamentError(gettext_noop("A released round is no longer changed."))
        exchange(locked, first, second)
        audit(
            user,
            "round.swap",
            locked.tournament,
            round=locked.number,
            entrants=[first.pk, second.pk],
        )
        notify_on_commit(locked.tournament)
    return locked


def exchange(round_: Round, first: Entrant, second: Entrant) -> None:
    """The two entrants' places (a seat or a bye) in the round exchanged; refused if either
    is not in it."""
    places = {}
    for entrant in (first, second):
        seat = TableSeat.objects.filter(table__round=round_, entrant=entrant).first()
        bye = Bye.objects.filter(round=round_, entrant=entrant).first()
        if seat is None and bye is None:
            raise TournamentError(
                gettext_noop("%(name)s is not in this round."), name=str(entrant.player)
            )
        places[entrant.pk] = seat or bye
    if first.pk != second.pk:
        a, b = places[first.pk], places[second.pk]
        a.delete()  # both first: a table's seats and a round's byes are unique
        b.delete()
        for place, entrant in ((a, second), (b, first)):
            place.pk, place.entrant = None, entrant
            place.save()


def release_round(*, round_: Round, user) -> Round:
    """The draft becomes the round: its tables may be played and their sheets entered."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
        if locked.released:
            raise TournamentError(
                gettext_noop("Round %(number)s is already released."), number=locked.number
            )
        locked.released = True
        locked.save(update_fields=["released"])
        audit(user, "round.release", locked.tournament, round=locked.number)
        notify_on_commit(locked.tournament, seat_pages=True)
    return locked


# -- corrections (the club's pages, the admin): a reason, the history and the audit ----------


def clean_reason(reason) -> str:
    """The reason for a change, its spaces tidied; TournamentError when there is none."""
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise TournamentError(gettext_noop("Give the reason for the change."))
    if len(reason) > 300:
        raise TournamentError(gettext_noop("The reason may be at most 300 characters."))
    return reason


FIRST_REASON = gettext_noop("as entered")  # the first version's reason: pages translate it


def keep_first_version(obj, *, by) -> None:
    """A row or adjustment saved without history (rows are written in bulk) gets its first
    version, as ``by`` entered it, before its first change: the history then shows the old
    values beside the new."""
    if not obj.history.exists():
        obj._history_user = by
        type(obj).history.bulk_history_create(
            [obj], default_date=obj.created_at, default_change_reason=FIRST_REASON
        )


def rows_closed(table: RoundTable) -> TournamentError | None:
    """Why the table's rows may not be corrected (None: they may); its pages say so too."""
    if table.hotseat_id is not None:
        return TournamentError(
            gettext_noop(
                "This table is played here: its results are its deals'. A director corrects "
                "them with an adjustment."
            )
        )
    return None


def check_row_change(*, row: SheetRow, data) -> dict:
    """The row as the sheet would keep it with ``data`` in place of the stored row, the
    whole sheet checked as when it is typed in (SheetRefused names the faulty row); a
    hotseat table's rows are not edited (their record is the truth)."""
    stored = SheetRow.objects.select_related("table__round__tournament").filter(pk=row.pk).first()
    if stored is None:
        raise TournamentError(gettext_noop("This row is no longer on the sheet."))
    table = stored.table
    closed = rows_closed(table)
    if closed:
        raise closed
    tournament = table.round.tournament
    rows = list(table.rows.order_by("index"))
    position = next(k for k, other in enumerate(rows) if other.pk == stored.pk)
    try:
        sheet = check_sheet(
            registry.tournament(tournament.game),
            [data if k == position else other.data for k, other in enumerate(rows)],
            seats=table.seats.count(),
            options=tournament.options,
            settings=tournament.game_settings,
        )
    except SheetError as exc:
        raise SheetRefused(exc.row, exc.message, **exc.params) from None
    checked = sheet.rows[position]
    if checked == stored.data:
        raise TournamentError(gettext_noop("The row is unchanged."))
    return checked


def row_version(row: SheetRow) -> str:
    """The row as a page shows it: the row itself (a sheet typed in again has new rows)
    and its latest version (none before its first change)."""
    latest = (
        SheetRow.history.filter(id=row.pk)
        .order_by("-history_id")
        .values_list("history_id", flat=True)
        .first()
    )
    return f"{row.pk}.{latest or 0}"


def correct_row(
    *, row: SheetRow, data: dict, reason: str, user, seen: str | None = None
) -> SheetRow:
    """A typed sheet's row corrected: the whole sheet checked with it in place, nothing
    saved if any row is at fault; the old and new values, who and why are kept in the
    row's history and the audit. ``seen``: the ``row_version`` the page showed (Stale if
    the row has changed since)."""
    return save_row(row=row, data=data, reason=reason, user=user, verb="sheet.correct", seen=seen)


def revert_row(
    *, row: SheetRow, history_id: int, reason: str, user, seen: str | None = None
) -> SheetRow:
    """The values of one of the row's earlier versions put back, as a correction."""
    version = SheetRow.history.filter(id=row.pk, history_id=history_id).first()
    if version is None:
        raise TournamentError(gettext_noop("This row has no such version."))
    return save_row(
        row=row,
        data=version.data,
        reason=reason,
        user=user,
        verb="sheet.revert",
        seen=seen,
        version=version.history_id,
    )


def save_row(
    *, row: SheetRow, data, reason: str, user, verb: str, seen: str | None = None, **extra
) -> SheetRow:
    reason = clean_reason(reason)
    with transaction.atomic():
        table = (
            RoundTable.objects.select_for_update()
            .select_related("round__tournament")
            .filter(pk=row.table_id)
            .first()
        )  # as enter_sheet and the hotseat lock it
        if seen is not None and row_version(row) != seen:
            raise Stale(
                gettext_noop(
                    "This row has been changed since the page was shown: here it is as it is "
                    "now, with its history. Correct it again if it still needs it."
                )
            )
        checked = check_row_change(row=row, data=data)
        locked = table.rows.get(pk=row.pk)
        keep_first_version(locked, by=table.entered_by)
        old = locked.data
        locked.data = checked
        locked._change_reason, locked._history_user = reason, user
        locked.save(update_fields=["data"])
        tournament = table.round.tournament
        audit(
            user,
            verb,
            tournament,
            table=table.pk,
            round=table.round.number,
            table_number=table.number,
            row=locked.index,
            old=old,
            new=checked,
            reason=reason,
            **extra,
        )
        notify_on_commit(tournament)
    return locked


def add_adjustment(
    *, round_: Round, entrant: Entrant, points: int, reason: str, user
) -> Adjustment:
    """``adjust``, its first version in the history carrying who and why."""
    with transaction.atomic():
        adjustment = adjust(round_=round_, entrant=entrant, points=points, reason=reason, user=user)
        adjustment.history.filter(history_type="+").update(
            history_change_reason=adjustment.reason, history_user=user
        )
    return adjustment


def correct_adjustment(
    *, adjustment: Adjustment, points: int, reason: str, user, note: str | None = None
) -> Adjustment:
    """An adjustment's points (and ``note``, its own stated reason) corrected; ``reason``
    says why, kept with the old and new values in its history and the audit."""
    return save_adjustment(
        adjustment=adjustment,
        points=points,
        note=note,
        reason=reason,
        user=user,
        verb="tournament.adjust.correct",
    )


def revert_adjustment(*, adjustment: Adjustment, history_id: int, reason: str, user) -> Adjustment:
    """The points and note of one of the adjustment's earlier versions put back."""
    version = Adjustment.history.filter(id=adjustment.pk, history_id=history_id).first()
    if version is None:
        raise TournamentError(gettext_noop("This adjustment has no such version."))
    return save_adjustment(
        adjustment=adjustment,
        points=version.points,
        note=version.reason,
        reason=reason,
        user=user,
        verb="tournament.adjust.revert",
        version=version.history_id,
    )


def check_adjustment_change(*, adjustment: Adjustment, points, note: str | None) -> tuple:
    """The points and note an adjustment would have; TournamentError if they are not
    whole points and a stated reason, or change nothing."""
    check_adjustment_points(points)
    stored = Adjustment.objects.filter(pk=adjustment.pk).first()
    if stored is None:
        raise TournamentError(gettext_noop("This adjustment no longer exists."))
    note = stored.reason if note is None else " ".join(note.split())
    if not note:
        raise TournamentError(gettext_noop("Give the reason for the adjustment."))
    if (points, note) == (stored.points, stored.reason):
        raise TournamentError(gettext_noop("The adjustment is unchanged."))
    return points, note


def check_adjustment_points(points) -> None:
    if type(points) is not int:
        raise TournamentError(gettext_noop("The points must be a whole number."))
    if abs(points) > MOST_ADJUSTMENT:
        raise TournamentError(
            gettext_noop("An adjustment is at most %(most)s game points either way."),
            most=MOST_ADJUSTMENT,
        )


def save_adjustment(
    *, adjustment: Adjustment, points, note, reason: str, user, verb: str, **extra
) -> Adjustment:
    reason = clean_reason(reason)
    with transaction.atomic():
        locked = (
            Adjustment.objects.select_for_update()
            .select_related("round__tournament")
            .filter(pk=adjustment.pk)
            .first()
        )
        points, note = check_adjustment_change(adjustment=adjustment, points=points, note=note)
        keep_first_version(locked, by=locked.by)
        old = {"points": locked.points, "reason": locked.reason}
        locked.points, locked.reason = points, note
        locked._change_reason, locked._history_user = reason, user
        locked.save(update_fields=["points", "reason"])
        tournament = locked.round.tournament
        audit(
            user,
            verb,
            tournament,
            adjustment=locked.pk,
            entrant=locked.entrant_id,
            round=locked.round.number,
            old=old,
            new={"points": points, "reason": note},
            reason=reason,
            **extra,
        )
        notify_on_commit(tournament)
    return locked
