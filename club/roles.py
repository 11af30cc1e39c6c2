"""The club's roles, as Django groups (created by a migration): a **director** creates and
runs tournaments, a **scorer** types in and confirms sheets, a **player** reads and plays
at his hotseat tables. A superuser is a director. ``allowed`` guards a view by role."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

DIRECTOR, SCORER, PLAYER = "director", "scorer", "player"


def has_role(user, *roles: str) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    names = getattr(user, "_club_roles", None)
    if names is None:  # once a request
        names = user._club_roles = set(user.groups.values_list("name", flat=True))
    return bool(names & set(roles))


def is_director(user) -> bool:
    return has_role(user, DIRECTOR)


def is_scorer(user) -> bool:
    """Scorers, and the directors, who may do all a scorer does."""
    return has_role(user, DIRECTOR, SCORER)


def directors_and_scorers(user) -> bool:
    return is_director(user) or is_scorer(user)


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
