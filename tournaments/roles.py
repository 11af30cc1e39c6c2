"""Who may do what in one tournament, and its directors and scorers named.

A tournament's **directors** run it (entry, seating, release, play here, adjustments, its
tables played here) and name its other directors and scorers; its **scorers** type in,
confirm and correct its sheets; a director may do all a scorer does. Its creator is its
first director. The club's organisers (``club.roles``) may do everything in every
tournament. Every view, service and the admin ask here (``directs``, ``scores``), and the
games app asks ``directs_table`` through ``games.selectors.table_directors``."""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from club import roles as club_roles
from club.models import AuditEntry
from club.services import Forbidden, Refused, Stale

from .models import Official, Tournament

DIRECTOR, SCORER = Official.Role.DIRECTOR, Official.Role.SCORER


def role_in(user, tournament: Tournament) -> str | None:
    """The member's role in the tournament (``DIRECTOR``, ``SCORER``) or None; read once a
    request for each tournament."""
    if not user.is_authenticated:
        return None
    known = user.__dict__.setdefault("_tournament_roles", {})
    if tournament.pk not in known:
        known[tournament.pk] = (
            Official.objects.filter(tournament_id=tournament.pk, user_id=user.pk)
            .values_list("role", flat=True)
            .first()
        )
    return known[tournament.pk]


def directs(user, tournament: Tournament) -> bool:
    """Runs the tournament: its directors, and the club's organisers."""
    return club_roles.is_organiser(user) or role_in(user, tournament) == DIRECTOR


def scores(user, tournament: Tournament) -> bool:
    """Types in, confirms and corrects its sheets: its scorers and whoever directs it."""
    return directs(user, tournament) or role_in(user, tournament) == SCORER


def directs_table(user, table) -> bool:
    """A hotseat table played for a tournament's round: whoever directs that tournament."""
    round_table = getattr(table, "tournament_table", None)
    return round_table is not None and directs(user, round_table.round.tournament)


def directed(user):
    """The tournaments the member directs (every one, for an organiser)."""
    if club_roles.is_organiser(user):
        return Tournament.objects.all()
    return Tournament.objects.filter(officials__user_id=user.pk, officials__role=DIRECTOR)


def officials(tournament: Tournament) -> list[Official]:
    return list(tournament.officials.select_related("user").order_by("role", "user__username"))


def candidates(tournament: Tournament):
    """The active accounts that hold no role in the tournament yet."""
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .exclude(tournament_roles__tournament=tournament)
        .order_by("username")
    )


# -- the writes -----------------------------------------------------------------------------


def audit(by, verb: str, tournament: Tournament, account, role: str) -> None:
    data = {"account": account.pk, "username": account.get_username(), "role": role}
    AuditEntry.objects.create(user=by, verb=verb, data={"tournament": tournament.key, **data})


def first_director(*, tournament: Tournament, user) -> None:
    """The creator of a tournament directs it (in the transaction that creates it)."""
    if user is not None and user.is_authenticated:
        Official.objects.create(tournament=tournament, user=user, role=DIRECTOR)


def _locked(tournament: Tournament, by) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not directs(by, locked):
        raise Forbidden(
            gettext_noop("Only a director of this tournament names its directors and scorers.")
        )
    return locked


def name_official(*, tournament: Tournament, account, role: str, by) -> Official:
    """``account`` becomes a director or a scorer of the tournament (a director named a
    scorer, or a scorer named a director, changes role)."""
    if role not in Official.Role.values:
        raise Refused(gettext_noop("Choose director or scorer."))
    with transaction.atomic():
        locked = _locked(tournament, by)
        if not account.is_active:
            raise Refused(
                gettext_noop("The account %(username)s is inactive."),
                username=account.get_username(),
            )
        current = (
            Official.objects.select_for_update().filter(tournament=locked, user=account).first()
        )
        if current is not None and current.role == role:
            raise Stale(
                gettext_noop("%(username)s already has this role in the tournament."),
                username=account.get_username(),
            )
        if current is not None:
            if current.role == DIRECTOR:
                last_director_stays(locked, current)
            current.role = role
            current.save(update_fields=["role"])
            official = current
        else:
            try:
                with transaction.atomic():
                    official = Official.objects.create(tournament=locked, user=account, role=role)
            except IntegrityError:  # named a moment ago
                raise Stale(
                    gettext_noop("%(username)s already has this role in the tournament."),
                    username=account.get_username(),
                ) from None
        audit(by, "tournament.role.add", locked, account, role)
        forget(by, locked)
        tell_pages(locked)
    return official


def remove_official(*, tournament: Tournament, account, by) -> None:
    """``account`` no longer directs or scores the tournament; the last director stays."""
    with transaction.atomic():
        locked = _locked(tournament, by)
        current = (
            Official.objects.select_for_update().filter(tournament=locked, user=account).first()
        )
        if current is None:
            raise Stale(
                gettext_noop("%(username)s has no role in the tournament any more."),
                username=account.get_username(),
            )
        if current.role == DIRECTOR:
            last_director_stays(locked, current)
        current.delete()
        audit(by, "tournament.role.remove", locked, account, current.role)
        forget(by, locked)
        tell_pages(locked)


def tell_pages(tournament: Tournament) -> None:
    """Its Run page lists its directors and scorers: its live pages are told."""
    from .services import notify_on_commit  # the services import this module

    notify_on_commit(tournament)


def last_director_stays(tournament: Tournament, leaving: Official) -> None:
    others = Official.objects.filter(tournament=tournament, role=DIRECTOR).exclude(pk=leaving.pk)
    if not others.exists():
        raise Refused(
            gettext_noop(
                "A tournament keeps at least one director: name another before %(username)s leaves."
            ),
            username=leaving.user.get_username(),
        )


def forget(user, tournament: Tournament) -> None:
    """The roles read for this request are read again (the member may have changed his own)."""
    user.__dict__.get("_tournament_roles", {}).pop(tournament.pk, None)
