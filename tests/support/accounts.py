"""Members for the tests, in the club's role groups."""


def user_in(django_user_model, name, *groups, staff=False):
    """A member in the given role groups (club.roles)."""
    from django.contrib.auth.models import Group

    user = django_user_model.objects.create_user(name, password="pw-for-tests-only", is_staff=staff)
    for group in groups:
        user.groups.add(Group.objects.get(name=group))
    return user
