"""The writes of a tournament's results: a typed sheet entered and confirmed, a table's own
report through its entry link, a table played here filling its sheet, adjustments, and the
corrections of rows and adjustments with their history; as every write, in one
transaction with an audit entry, the tournament's listeners told after commit."""

from django.db import transaction
from django.utils.translation import gettext_noop

from club.services import Stale
from games import registry
from games.services import finish_tournament_table

from ..models import Adjustment, Entrant, ReportedRow, Round, RoundTable, SheetRow, Tournament
from ..services import SheetRefused, TournamentError, audit, locked_table, notify_on_commit
from ..sheets import SheetError, check_sheet, sum_sheet

MOST_ADJUSTMENT = 10_000  # game points either way: beyond any penalty, within any column


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
        table = locked_table(row.table_id)  # as enter_sheet and the hotseat lock it
        if seen is not None and row_version(row) != seen:
            raise Stale(
                gettext_noop(
                    "This row has been changed since the page was shown: here it is as it is "
                    "now, with its history. Correct it again if it still needs it."
                )
            )
        checked = check_row_change(row=row, data=data)
        locked = table.rows.get(pk=row.pk)
        save_version(
            locked,
            {"data": checked},
            tournament=table.round.tournament,
            first_by=table.entered_by,
            reason=reason,
            user=user,
            verb=verb,
            audited={
                "table": table.pk,
                "round": table.round.number,
                "table_number": table.number,
                "row": locked.index,
                "old": locked.data,
                "new": checked,
            },
            **extra,
        )
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
        save_version(
            locked,
            {"points": points, "reason": note},
            tournament=locked.round.tournament,
            first_by=locked.by,
            reason=reason,
            user=user,
            verb=verb,
            audited={
                "adjustment": locked.pk,
                "entrant": locked.entrant_id,
                "round": locked.round.number,
                "old": {"points": locked.points, "reason": locked.reason},
                "new": {"points": points, "reason": note},
            },
            **extra,
        )
    return locked


def save_version(
    locked,
    values: dict,
    *,
    tournament: Tournament,
    first_by,
    reason: str,
    user,
    verb: str,
    audited: dict,
    **extra,
) -> None:
    """A locked row or adjustment of ``tournament`` saved with ``values``, a version of its
    history saying who and why (its first version, as ``first_by`` entered it, kept
    before), audited with what ``audited`` says of it and the tournament told."""
    keep_first_version(locked, by=first_by)
    for field, value in values.items():
        setattr(locked, field, value)
    locked._change_reason, locked._history_user = reason, user
    locked.save(update_fields=list(values))
    audit(user, verb, tournament, **audited, reason=reason, **extra)
    notify_on_commit(tournament)
