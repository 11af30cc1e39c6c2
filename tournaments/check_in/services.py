"""Check-in's writes: an entrant marked present for the first round not yet released, or
no longer; everyone still in at once; and the draft drawn again for those checked in since
it was drawn, its swaps kept where they still apply. Each in one transaction with its audit
entry, the tournament's live pages told after commit (``tournaments.services``)."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from club.models import AuditEntry
from club.services import Forbidden, Stale
from games.models import Seat

from .. import roles
from ..models import Bye, CheckIn, Entrant, Round, RoundTable, Tournament
from ..run.services import exchange, seat_draft
from ..services import TournamentError, audit, notify_on_commit
from . import selectors as check_in


def locked_round(tournament: Tournament, round_seen) -> tuple[Tournament, int]:
    """The tournament locked (as ``draw_round`` locks it) and the round check-in is for;
    refused if every round is released, or if it is not the round the page showed."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = check_in.check_in_round(locked, locked.rounds.filter(released=True).count())
    if number is None:
        raise TournamentError(gettext_noop("Every planned round has been released."))
    if round_seen != number:
        raise Stale(
            gettext_noop(
                "Check-in is now for round %(number)s: this page showed another. Look again."
            ),
            number=number,
        )
    return locked, number


def seat_table(seat: Seat, tournament: Tournament) -> RoundTable:
    """The tournament's table a seat's own link is at, where that link may check its player
    in: a seat played on its player's own device, at a table of this tournament played here.
    Refused for any other seat (1 query)."""
    round_table = (
        RoundTable.objects.select_related("round").filter(hotseat_id=seat.table_id).first()
    )
    if round_table is None or round_table.round.tournament_id != tournament.pk:
        raise Forbidden(
            gettext_noop("This seat is not at a table of this tournament: it checks nobody in.")
        )
    if not seat.device or seat.player_id is None:
        raise Forbidden(
            gettext_noop("Only a seat played on its player's own device checks its player in.")
        )
    return round_table


def may_check_in(user, tournament: Tournament, entrant: Entrant, seat: Seat | None = None) -> dict:
    """A tournament's directors check anyone in or out; a member, only the entrant who is
    his own club player; a seat's own link (``seat``, whoever holds it, signed in or not),
    only the entrant who is its player, at a table of this tournament on his device. The
    audit's details of a seat's check-in: the seat and its table, never its key."""
    if seat is not None:
        round_table = seat_table(seat, tournament)
        if seat.player_id != entrant.player_id:
            raise Forbidden(gettext_noop("A seat's link checks in its own player only."))
        return {"table": round_table.pk, "seat": seat.position + 1}
    if roles.directs(user, tournament):
        return {}
    if user is not None and user.is_authenticated and entrant.player.user_id == user.pk:
        return {}
    raise Forbidden(gettext_noop("Only a director of this tournament checks other players in."))


def locked_entrant(
    tournament: Tournament, entrant: Entrant, number: int, user, seat: Seat | None = None
) -> tuple[Entrant, dict]:
    found = (
        Entrant.objects.select_related("player")
        .filter(pk=entrant.pk, tournament=tournament)
        .first()
    )
    if found is None:
        raise Stale(gettext_noop("This entrant is no longer in the tournament."))
    by = may_check_in(user, tournament, found, seat)
    if found.withdrawn_after is not None and found.withdrawn_after < number:
        raise TournamentError(
            gettext_noop("%(name)s has withdrawn: undo the withdrawal first."),
            name=found.player.name,
        )
    if found.joined_round > number:
        raise TournamentError(
            gettext_noop("%(name)s is seated from round %(joined)s."),
            name=found.player.name,
            joined=found.joined_round,
        )
    return found, by


def check_in_entrant(*, entrant: Entrant, user, round_seen, seat: Seat | None = None) -> CheckIn:
    """The entrant is here for the round not yet released (``round_seen``: the one the page
    offered): once anyone is, only those checked in are seated in it. Checked in after
    the round's draft was drawn, he is seated by drawing it again. ``seat``: checked in
    from that seat's own link (``user`` None)."""
    with transaction.atomic():
        tournament, number = locked_round(entrant.tournament, round_seen)
        found, by = locked_entrant(tournament, entrant, number, user, seat)
        try:
            with transaction.atomic():
                made = CheckIn.objects.create(
                    tournament=tournament, entrant=found, round=number, by=user
                )
        except IntegrityError:
            raise Stale(
                gettext_noop("%(name)s is already checked in for round %(number)s."),
                name=found.player.name,
                number=number,
            ) from None
        audit(user, "round.checkin", tournament, round=number, entrants=[found.pk], **by)
        notify_on_commit(tournament, seat_pages=True)
    return made


def check_out_entrant(*, entrant: Entrant, user, round_seen, seat: Seat | None = None) -> None:
    """The entrant's check-in for the round not yet released undone (``seat``: as
    ``check_in_entrant``)."""
    with transaction.atomic():
        tournament, number = locked_round(entrant.tournament, round_seen)
        found, by = locked_entrant(tournament, entrant, number, user, seat)
        deleted, _ = CheckIn.objects.filter(entrant=found, round=number).delete()
        if not deleted:
            raise Stale(
                gettext_noop("%(name)s is not checked in for round %(number)s."),
                name=found.player.name,
                number=number,
            )
        audit(user, "round.checkout", tournament, round=number, entrants=[found.pk], **by)
        notify_on_commit(tournament, seat_pages=True)


def check_in_everyone(*, tournament: Tournament, user, round_seen) -> list[CheckIn]:
    """Every entrant still in and not yet checked in for the round is checked in."""
    with transaction.atomic():
        locked, number = locked_round(tournament, round_seen)
        if not roles.directs(user, locked):
            raise Forbidden(
                gettext_noop("Only a director of this tournament checks other players in.")
            )
        present = check_in.checked_in(locked, number)
        entrants = check_in.still_in(list(locked.entrants.order_by("number")), number)
        missing = [e for e in entrants if e.pk not in present]
        if not missing:
            raise Stale(
                gettext_noop("Everyone still in is already checked in for round %(number)s."),
                number=number,
            )
        made = CheckIn.objects.bulk_create(
            CheckIn(tournament=locked, entrant=e, round=number, by=user) for e in missing
        )
        audit(
            user,
            "round.checkin",
            locked,
            round=number,
            entrants=[e.pk for e in missing],
            everyone=True,
        )
        notify_on_commit(locked, seat_pages=True)
    return made


def recorded_swaps(tournament: Tournament, number: int) -> list[list[int]]:
    """The swaps made in round ``number``'s draft since it was drawn, in order: each the
    two entrants' ids, as their audit entries record them (1 query)."""
    keys = [key for key in (tournament.key, tournament.old_key) if key]
    entries = AuditEntry.objects.filter(
        verb__in=["round.draw", "round.swap"], data__tournament__in=keys, data__round=number
    ).order_by("pk")
    swaps: list[list[int]] = []
    for verb, data in entries.values_list("verb", "data"):
        if verb == "round.draw":
            swaps = []  # only those made in this draw count
        elif isinstance(data.get("entrants"), list) and len(data["entrants"]) == 2:
            swaps.append(data["entrants"])
    return swaps


def redraw_round(*, round_: Round, user) -> Round:
    """The draft drawn again for whom the round seats now (those checked in since it was
    drawn seated, those checked out left out), as ``draw_round`` draws it; then the swaps
    made in the draft applied again, in order, each whose two entrants are both in the
    new draw."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
        locked = Round.objects.select_for_update().filter(pk=round_.pk).first()
        if locked is None:
            raise Stale(gettext_noop("This round is no longer in the tournament."))
        if locked.released:
            raise TournamentError(gettext_noop("A released round is no longer changed."))
        number = locked.number
        entrants = list(tournament.entrants.select_related("player").order_by("number"))
        now = check_in.seated(entrants, number, check_in.checked_in(tournament, number))
        if {e.pk for e in now} == check_in.drafted(locked.pk):
            raise Stale(
                gettext_noop("The draft already seats everyone checked in for round %(number)s."),
                number=number,
            )
        RoundTable.objects.filter(round=locked).delete()
        Bye.objects.filter(round=locked).delete()
        seat_draft(tournament, locked, now)
        by_pk = {e.pk: e for e in now}
        kept, dropped = [], []
        for first, second in recorded_swaps(tournament, number):
            if first in by_pk and second in by_pk:
                exchange(locked, by_pk[first], by_pk[second])
                kept.append([first, second])
            else:
                dropped.append([first, second])
        audit(
            user,
            "round.redraw",
            tournament,
            round=number,
            entrants=sorted(by_pk),
            swaps_kept=kept,
            swaps_dropped=dropped,
        )
        notify_on_commit(tournament, seat_pages=True)
    return locked
