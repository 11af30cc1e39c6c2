"""The seasons' writes: a season created and changed, a tournament added to it or removed
from it. Each is one transaction with its audit entry, checks the version the page showed
(``Stale`` when the season has changed since), and tells the live pages of the tournaments
it changes after commit. Who may: a club director or organiser creates a season; its
creator and the organisers change it; a tournament joins or leaves it by one of them who
also directs that tournament (``tournaments.roles.directs``)."""

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext_noop

from club import roles as club_roles
from club.models import AuditEntry
from club.services import Forbidden, Refused, Stale
from games import registry

from .. import roles
from ..addresses import readable_key
from ..models import Season, Tournament
from ..services import notify_on_commit
from .standings import MOST_PLACE_POINTS, MOST_PLACES, PLACES, SCORINGS, check_place_points

NAME_LENGTH = Season._meta.get_field("name").max_length


def may_create(user) -> bool:
    """Who may create a tournament may create a season: the club's directors, organisers."""
    return club_roles.is_director(user)


def may_change(user, season: Season) -> bool:
    """The season's creator and the club's organisers."""
    if not user.is_authenticated:
        return False
    return club_roles.is_organiser(user) or season.created_by_id == user.pk


def free_key(name: str) -> str:
    """A key for the season's address from its name in Latin letters, as a tournament's."""
    return readable_key(name, lambda key: Season.objects.filter(key=key).exists())


def clean_name(name) -> str:
    name = " ".join(str(name).split()) if isinstance(name, str) else ""
    if not name:
        raise Refused(gettext_noop("A season needs a name."))
    if not name.isprintable():
        raise Refused(gettext_noop("A name may hold only printable text."))
    if len(name) > NAME_LENGTH:
        raise Refused(
            gettext_noop("A season's name has at most %(count)s characters."), count=NAME_LENGTH
        )
    return name


def clean_scoring(scoring, place_points) -> tuple[str, list[int]]:
    if scoring not in SCORINGS:
        raise Refused(gettext_noop("Choose scoring by places or by match points."))
    if not isinstance(place_points, list | tuple):
        raise Refused(gettext_noop("The points for each place are a list of whole numbers."))
    try:
        table = list(check_place_points(place_points))
    except ValueError:
        raise Refused(
            gettext_noop(
                "The points for each place are at most %(count)s whole numbers, each from 0 "
                "to %(most)s."
            ),
            count=MOST_PLACES,
            most=MOST_PLACE_POINTS,
        ) from None
    if scoring == PLACES and not any(table):
        raise Refused(gettext_noop("Give at least one place some points."))
    return scoring, table


def audit(user, verb: str, season: Season, **data) -> None:
    AuditEntry.objects.create(user=user, verb=verb, data={"season": season.key, **data})


def bump(season: Season) -> None:
    Season.objects.filter(pk=season.pk).update(version=F("version") + 1)
    season.refresh_from_db(fields=["version"])


def create_season(
    *,
    user,
    name: str,
    game: str,
    scoring: str,
    place_points: list[int],
    form_token: str | None = None,
) -> Season:
    """A new season of ``game``, with no tournament yet. The form of ``form_token`` sent
    again (a double click) creates nothing: it gives the season that form created."""
    if not may_create(user):
        raise Forbidden(gettext_noop("Only the club's directors and organisers create seasons."))
    name = clean_name(name)
    if game not in registry.tournament_keys():
        raise Refused(gettext_noop("Choose a game the club holds tournaments of."))
    scoring, table = clean_scoring(scoring, place_points)
    with transaction.atomic():
        sent = form_token and Season.objects.filter(form_token=form_token).first()
        if sent:
            return created_from(sent, user)
        try:
            with transaction.atomic():  # the same form sent at the same moment: one wins
                season = Season.objects.create(
                    key=free_key(name),
                    name=name,
                    game=game,
                    scoring=scoring,
                    place_points=table,
                    created_by=user,
                    form_token=form_token or None,
                )
        except IntegrityError:
            sent = form_token and Season.objects.filter(form_token=form_token).first()
            if not sent:
                raise
            return created_from(sent, user)
        audit(
            user,
            "season.create",
            season,
            name=name,
            game=game,
            scoring=scoring,
            place_points=table,
        )
    return season


def created_from(sent: Season, user) -> Season:
    if sent.created_by_id != getattr(user, "pk", None):
        raise Refused(gettext_noop("This form has already been sent."))
    return sent


def locked(season: Season, user, version) -> Season:
    """The season locked, if the member may change it and the page showed its version."""
    current = Season.objects.select_for_update().filter(pk=season.pk).first()
    if current is None:
        raise Stale(gettext_noop("This season is no longer in the club's list."))
    if not may_change(user, current):
        raise Forbidden(gettext_noop("Only the season's creator and the organisers change it."))
    if version != current.version:
        raise Stale(gettext_noop("The season has changed since this page was shown: look again."))
    return current


def change_season(
    *, season: Season, user, version: int, name: str, scoring: str, place_points: list[int]
) -> Season:
    """Its name, scoring and points table (its game and address stay)."""
    name = clean_name(name)
    scoring, table = clean_scoring(scoring, place_points)
    with transaction.atomic():
        current = locked(season, user, version)
        before = {
            "name": current.name,
            "scoring": current.scoring,
            "place_points": current.place_points,
        }
        after = {"name": name, "scoring": scoring, "place_points": table}
        if before == after:  # saved as it was: nothing to record
            return current
        current.name, current.scoring, current.place_points = name, scoring, table
        current.save(update_fields=["name", "scoring", "place_points"])
        bump(current)
        audit(user, "season.change", current, before=before, after=after)
        if before["name"] != name:  # the tournaments' pages name their season
            for tournament in current.tournaments.all():
                notify_on_commit(tournament)
    return current


def locked_tournament(tournament: Tournament, user) -> Tournament:
    current = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if current is None:
        raise Stale(gettext_noop("This tournament is no longer in the club's list."))
    if not roles.directs(user, current):
        raise Forbidden(
            gettext_noop("Only a director of %(tournament)s adds it to a season or removes it."),
            tournament=current.name,
        )
    return current


def add_tournament(*, season: Season, tournament: Tournament, user, version: int) -> Season:
    """The tournament joins the season: one of its game, in no other season."""
    with transaction.atomic():
        current = locked(season, user, version)
        joining = locked_tournament(tournament, user)
        if joining.season_id == current.pk:
            raise Stale(
                gettext_noop("%(tournament)s is already in this season."),
                tournament=joining.name,
            )
        if joining.game != current.game:
            raise Refused(
                gettext_noop("%(tournament)s is not a tournament of this season's game."),
                tournament=joining.name,
            )
        if joining.season_id is not None:
            raise Refused(
                gettext_noop("%(tournament)s is in the season %(season)s already."),
                tournament=joining.name,
                season=joining.season.name,
            )
        joining.season = current
        joining.save(update_fields=["season"])
        bump(current)
        audit(user, "season.tournament.add", current, tournament=joining.key)
        notify_on_commit(joining)
    return current


def remove_tournament(*, season: Season, tournament: Tournament, user, version: int) -> Season:
    """The tournament leaves the season: its results no longer count in it."""
    with transaction.atomic():
        current = locked(season, user, version)
        leaving = locked_tournament(tournament, user)
        if leaving.season_id != current.pk:
            raise Stale(
                gettext_noop("%(tournament)s is not in this season."), tournament=leaving.name
            )
        leaving.season = None
        leaving.save(update_fields=["season"])
        bump(current)
        audit(user, "season.tournament.remove", current, tournament=leaving.key)
        notify_on_commit(leaving)
    return current
