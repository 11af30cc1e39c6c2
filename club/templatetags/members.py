from django import template

from club import roles

register = template.Library()


@register.filter
def is_organiser(user) -> bool:
    """The header's "Members" link: for the organisers (and the superusers)."""
    return roles.is_organiser(user)
