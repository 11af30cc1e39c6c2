"""The hand at the table page: which of its cards is the chosen one.

With two packs a hand may hold a card twice. Each card's button asks for the page with the
card and its place in the hand (``?card=JH&at=3``), so that only the card pressed is marked;
an address without a place, or with one that does not hold that card, marks the one the
presenter marked."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def chosen_place(context, board) -> int | None:
    """The place in ``board.hand`` of the chosen card (None: no card is chosen)."""
    if not board.chosen:
        return None
    request = context.get("request")
    at = request.GET.get("at", "") if request is not None else ""
    if at.isdigit() and int(at) < len(board.hand) and board.hand[int(at)].code == board.chosen:
        return int(at)
    return next((i for i, entry in enumerate(board.hand) if entry.chosen), None)
