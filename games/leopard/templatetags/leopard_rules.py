"""The rules page's worked example: a square scored by the engine itself, so that the page
cannot say other than what the software plays."""

from django import template

from games.engine.cards import card_index
from games.leopard.engine import END_AT, LINES, PLACES, square_lines

register = template.Library()


@register.simple_tag
def example_square(codes: str) -> dict:
    """A square from its nine top cards, face up, in place order (``A 2 3 4 5 6 7 8 9``):
    its places (marked when on a line that scores), its scoring lines with their points, the
    sum, and what the sum scores for the player who declared the end."""
    cards = codes.split()
    if len(cards) != len(PLACES):
        raise template.TemplateSyntaxError("a square has nine places")
    points = square_lines([[card_index(code)] for code in cards])
    scoring = {i for line, p in zip(LINES, points, strict=True) if p for i in line}
    total = sum(points)
    return {
        "places": [
            {"place": place, "code": code, "scoring": i in scoring}
            for i, (place, code) in enumerate(zip(PLACES, cards, strict=True))
        ],
        "lines": [
            {
                "places": [PLACES[i] for i in line],
                "codes": [cards[i] for i in line],
                "points": p,
                "suit": p == 2,
            }
            for line, p in zip(LINES, points, strict=True)
            if p
        ],
        "sum": total,
        "end_at": END_AT,
        "above": total - END_AT,
        "declared": total + (total - END_AT) - 1,
    }
