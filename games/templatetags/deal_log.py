"""The deal's log on the table page."""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def log_items(log) -> str:
    """The log's entries (``presenters.LogEntry``), latest first, as the items of its list.
    Written here rather than by a {% for %} in the template: the page shows the whole log
    of the deal, which grows to a hundred entries and more. Each one's text is named by its
    place in the log (``log-1`` the first), so that a move's answer, morphed into the page,
    adds the new entry alone rather than rewriting every entry below it."""
    items = []
    for n, entry in reversed(list(enumerate(log, start=1))):
        css = "take_back" if entry.taken_back else "action"
        text = conditional_escape(entry.text)
        items.append(f'<li class="{css}"><span id="log-{n}">{text}</span></li>')
    return mark_safe("".join(items))
