"""The club's roles, as Django groups (created by a migration): a **director** creates and
runs tournaments, a **scorer** types in and confirms sheets, a **player** reads and plays
at his hotseat tables. A superuser is a director."""

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
