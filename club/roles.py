"""The club's roles, as Django groups (created by migrations): an **organiser** manages the
members (invites them, links their players, sets a new password, gives roles) and may act in
every tournament and at every table; a **director** may create tournaments; a **player**
reads and plays at his hotseat tables. A superuser is an organiser. Who directs or scores a
tournament is the tournament's own (``tournaments.roles``). ``allowed`` guards a view by
role."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _

ORGANISER, DIRECTOR, PLAYER = "organiser", "director", "player"
# a role's group is stored under its name, by which roles are checked; it is shown as its label
LABELS = {ORGANISER: _("organiser"), DIRECTOR: _("director"), PLAYER: _("player")}


def label(name: str) -> str:
    """A group's name as the reader's language words it: a role's label, any other group's
    name as it is stored."""
    return str(LABELS.get(name, name))


def has_role(user, *roles: str) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    names = getattr(user, "_club_roles", None)
    if names is None:  # once a request
        names = user._club_roles = set(user.groups.values_list("name", flat=True))
    return bool(names & set(roles))


def is_organiser(user) -> bool:
    return has_role(user, ORGANISER)


def is_director(user) -> bool:
    """Who may create tournaments: the directors, and the organisers."""
    return has_role(user, DIRECTOR, ORGANISER)


def allowed(check, *, pages=True):
    """Signed-in users whom ``check`` lets in; 403 for anyone else (a visitor's GET is sent to
    sign in, unless ``pages`` is off: the view answers forms only)."""

    def decorate(view):
        @wraps(view)
        def guarded(request, *args, **kwargs):
            if not request.user.is_authenticated:
                if request.method in ("GET", "HEAD") and pages:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return guarded

    return decorate


def signed_in(user) -> bool:
    return True
