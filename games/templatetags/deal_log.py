"""The deal's log on the table page."""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def log_items(log) -> str:
    """The log's entries (``page_data.LogEntry``), latest first, as the items of its list.
    Written here rather than by a {% for %} in the template: the page shows the whole log
    of the deal, which grows to a hundred entries and more."""
    items = []
    for entry in reversed(list(log)):
        css = "take_back" if entry.taken_back else "action"
        text = conditional_escape(entry.text)
        items.append(f'<li class="{css}">{text}</li>')
    return mark_safe("".join(items))
