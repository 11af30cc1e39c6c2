"""The directors' rulings on a duplicate tournament's deals (docs/rules/duplicate.md): a
table that played a deal with wrong cards (fouled), or a seat given an adjusted result; as
every write, in one transaction with an audit entry and the tournament told after commit,
each ruling's history saying who ruled or withdrew it and why."""

from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext_noop

from club.services import Stale
from core.refusals import Refusal

from ..models import DealRuling, Round, RoundTable
from ..results.services import clean_reason
from ..services import TournamentError, audit, locked_table, notify_on_commit
from ..sheets import planned_deals
from . import scoring


def rulings_version(round_: Round) -> str:
    """The round's rulings as a page shows them: how many and the newest (a ruling made or
    withdrawn since makes it older)."""
    found = DealRuling.objects.filter(table__round=round_).aggregate(
        count=Count("pk"), newest=Max("pk")
    )
    return f"{found['count']}.{found['newest'] or 0}"


def check_ruling(table: RoundTable, *, deal, kind, seat) -> None:
    """TournamentError unless ``table`` (locked, with its round and tournament) may be given
    this ruling."""
    tournament = table.round.tournament
    if not tournament.duplicate:
        raise TournamentError(
            gettext_noop("Only the deals of a duplicate tournament are ruled on.")
        )
    if not table.round.released:
        raise TournamentError(gettext_noop("The round has not been released yet."))
    seats = table.seats.count()
    try:
        scoring.check_ruling(
            kind=kind, deal=deal, seat=seat, seats=seats, deals=planned_deals(tournament, seats)
        )
    except Refusal as refused:
        raise TournamentError(refused.message, **refused.params) from None


def rule_deal(
    *,
    table: RoundTable,
    deal: int,
    kind: str,
    seat: int | None = None,
    reason: str,
    user,
    seen: str | None = None,
) -> DealRuling:
    """A director's ruling on deal ``deal`` (from 1) of ``table``: ``kind`` fouled (the
    whole table, ``seat`` None) or an adjusted result for ``seat`` (from 0). ``seen``: the
    ``rulings_version`` of the round the page showed (Stale if it has changed since)."""
    reason = clean_reason(reason)
    with transaction.atomic():
        locked = locked_table(table.pk)  # as the sheet's writes lock it
        if locked is None:
            raise Stale(gettext_noop("This table is no longer in the tournament."))
        if seen is not None and seen != rulings_version(locked.round):
            raise Stale(
                gettext_noop(
                    "The round's rulings have changed since this page was shown: here they are "
                    "as they are now."
                )
            )
        check_ruling(locked, deal=deal, kind=kind, seat=seat)
        if DealRuling.objects.filter(table=locked, deal=deal, seat=seat).exists():
            raise TournamentError(
                gettext_noop(
                    "Deal %(deal)s at this table already has that ruling: withdraw it first."
                )
                if seat is None
                else gettext_noop(
                    "Deal %(deal)s already has a ruling for this seat: withdraw it first."
                ),
                deal=deal,
            )
        ruling = DealRuling(table=locked, deal=deal, seat=seat, kind=kind, reason=reason, by=user)
        ruling._change_reason, ruling._history_user = reason, user
        ruling.save()
        tournament = locked.round.tournament
        audit(user, "tournament.ruling", tournament, **audited(ruling), reason=reason)
        notify_on_commit(tournament)
    return ruling


def withdraw_ruling(*, ruling: DealRuling, reason: str, user) -> None:
    """A ruling taken back: the deal scores as played again. Its history keeps who withdrew
    it and why."""
    reason = clean_reason(reason)
    with transaction.atomic():
        locked = locked_table(ruling.table_id)
        stored = locked and DealRuling.objects.filter(pk=ruling.pk, table=locked).first()
        if not stored:
            raise Stale(gettext_noop("This ruling has been withdrawn already."))
        stored.table = locked
        stored._change_reason, stored._history_user = reason, user
        data = audited(stored)
        ruled = stored.reason
        stored.delete()
        tournament = locked.round.tournament
        audit(user, "tournament.ruling.withdraw", tournament, **data, ruled=ruled, reason=reason)
        notify_on_commit(tournament)


def audited(ruling: DealRuling) -> dict:
    """What the audit keeps of a ruling: its table (and round) and what it rules."""
    table = ruling.table
    return {
        "ruling": ruling.pk,
        "table": table.pk,
        "round": table.round.number,
        "table_number": table.number,
        "deal": ruling.deal,
        "seat": ruling.seat,
        "kind": ruling.kind,
    }
