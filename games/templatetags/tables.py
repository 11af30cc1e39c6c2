from django import template
from django.urls import reverse

register = template.Library()


@register.simple_tag(takes_context=True)
def record_url(context, number: int) -> str:
    """A finished deal's record, at the address of whoever reads the page: its host's, or
    its spectators' (a spectator never learns the table's own address)."""
    table = context["table"]
    if context.get("seat_key"):  # a seat's own page knows no other address of the table
        return reverse("seat-record", args=[context["seat_key"], number])
    if context.get("spectator"):
        return reverse("watch-record", args=[table.watch_key, number])
    return reverse("deal-record", args=[table.token, number])


@register.simple_tag(takes_context=True)
def replay_url(context, number: int) -> str:
    """A finished deal's replay, at the address of whoever reads the page (as record_url)."""
    table = context["table"]
    if context.get("seat_key"):
        return reverse("seat-replay", args=[context["seat_key"], number])
    if context.get("spectator"):
        return reverse("watch-replay", args=[table.watch_key, number])
    return reverse("deal-replay", args=[table.token, number])
