"""How pages write the club's ratings: a shown rating with its provisional mark, a change
with its sign."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

register = template.Library()

MINUS = "\u2212"  # a minus sign: a hyphen reads as a dash beside "+12"


def signed(value: int) -> str:
    """+12, −7, 0."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


register.filter("signed", signed)


@register.simple_tag
def rating(value: int, provisional: bool) -> str:
    """1523, or 1523? while provisional: the mark explained where it stands."""
    if not provisional:
        return str(value)
    return format_html(
        '{}<abbr class="provisional" title="{}">?</abbr>',
        value,
        _("provisional: fewer matches than needed for a settled rating"),
    )
