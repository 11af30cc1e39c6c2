import hashlib
import re

from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe

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


# -- the table's regions: what a move's answer carries ---------------------------------------

# a region's element's opening tag, up to its end, its attributes' values quoted or not
REGION_ROOT = re.compile(
    r"""\s*<[a-zA-Z][a-zA-Z0-9-]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*\s*"""
)
# A form's CSRF token is masked afresh in every answer (against BREACH), yet every masking
# of the one secret is good: a region whose only change is its masking has not changed.
CSRF_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')


def region_digest(html: str) -> str:
    unmasked = CSRF_TOKEN.sub(r'\1"', html)
    return hashlib.blake2b(unmasked.encode(), digest_size=8).hexdigest()


@register.tag
def region(parser, token):
    """``{% region "name" %}<one element>{% endregion %}``: a part of the table page that an
    answer sends again only when it has changed (``games.regions``). Its element is given
    ``id="region-<name>"`` and ``data-digest``, the digest of its HTML. When the page asking
    says which digests it shows (the context's ``regions``), a region it already shows is
    left out and the others come out of band (``hx-swap-oob``), each in place of its own."""
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError('{% region "name" %} takes the region\'s name')
    nodelist = parser.parse(("endregion",))
    parser.delete_first_token()
    return RegionNode(bits[1][1:-1], nodelist)


class RegionNode(template.Node):
    def __init__(self, name: str, nodelist):
        self.name = name
        self.nodelist = nodelist

    def render(self, context):
        html = self.nodelist.render(context)
        digest = region_digest(html)
        shown = context.get("regions")
        if shown is not None and shown.get(self.name) == digest:
            return ""
        root = REGION_ROOT.match(html)
        if root is None or html[root.end() : root.end() + 1] not in (">", "/"):
            raise template.TemplateSyntaxError(f"region {self.name!r} holds no element")
        attributes = f' id="region-{self.name}" data-digest="{digest}"'
        if shown is not None:
            attributes += ' hx-swap-oob="true"'
        at = len(html[: root.end()].rstrip())  # after its last attribute
        return mark_safe(html[:at] + attributes + html[at:])  # noqa: S308
