from django import template

from club import roles

register = template.Library()


@register.filter
def is_director(user) -> bool:
    """The header's "Members" link: for the directors (and the superusers)."""
    return roles.is_director(user)
