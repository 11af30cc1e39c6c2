"""How pages write the club's ratings: a shown rating with its provisional mark (a change
with its sign is ``club.templatetags.numbers``' ``signed``)."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

register = template.Library()


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
