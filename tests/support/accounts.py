"""Members for the tests, in the club's role groups."""


def user_in(django_user_model, name, *groups, staff=False):
    """A member in the given role groups (club.roles)."""
    from django.contrib.auth.models import Group

    user = django_user_model.objects.create_user(name, password="pw-for-tests-only", is_staff=staff)
    for group in groups:
        # a migration makes the groups; a transactional test before this one may have
        # flushed them (roles are checked by the group's name)
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def name_official(tournament, user, role="scorer"):
    """The member named a scorer (or a director) of the tournament by its director."""
    from tournaments import roles
    from tournaments.models import Official

    director = Official.objects.filter(tournament=tournament, role="director").first()
    if director is None:  # imported without a member: nobody but the organisers runs it
        return Official.objects.create(tournament=tournament, user=user, role=role)
    return roles.name_official(tournament=tournament, account=user, role=role, by=director.user)
