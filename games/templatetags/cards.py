"""How a card looks on a page: rank, suit symbol, colour, and a spoken name."""

from functools import cache

from django import template
from django.utils import translation
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import pgettext, pgettext_lazy

from games.engine.cards import CODES, RED_SUITS, SUIT_SYMBOLS

register = template.Library()

RANK_NAMES = {
    "2": pgettext_lazy("card rank", "two"),
    "3": pgettext_lazy("card rank", "three"),
    "4": pgettext_lazy("card rank", "four"),
    "5": pgettext_lazy("card rank", "five"),
    "6": pgettext_lazy("card rank", "six"),
    "7": pgettext_lazy("card rank", "seven"),
    "8": pgettext_lazy("card rank", "eight"),
    "9": pgettext_lazy("card rank", "nine"),
    "T": pgettext_lazy("card rank", "ten"),
    "J": pgettext_lazy("card rank", "jack"),
    "Q": pgettext_lazy("card rank", "queen"),
    "K": pgettext_lazy("card rank", "king"),
    "A": pgettext_lazy("card rank", "ace"),
}
# The suit as it follows "of" (in Russian, the genitive: "дама пик").
SUIT_NAMES = {
    "S": pgettext_lazy("of suit", "spades"),
    "H": pgettext_lazy("of suit", "hearts"),
    "D": pgettext_lazy("of suit", "diamonds"),
    "C": pgettext_lazy("of suit", "clubs"),
}
# The suit on its own, as a row of cards is named.
SUIT_TITLES = {
    "S": pgettext_lazy("suit", "Spades"),
    "H": pgettext_lazy("suit", "Hearts"),
    "D": pgettext_lazy("suit", "Diamonds"),
    "C": pgettext_lazy("suit", "Clubs"),
}
# Russian packs letter their court cards В Д К Т.
RANK_SHOWN = {
    "T": "10",
    "J": pgettext_lazy("rank letter", "J"),
    "Q": pgettext_lazy("rank letter", "Q"),
    "K": pgettext_lazy("rank letter", "K"),
    "A": pgettext_lazy("rank letter", "A"),
}


def rank_shown(rank: str) -> str:
    return str(RANK_SHOWN.get(rank, rank))


def card_name(code: str) -> str:
    """ "the queen of spades", in the reader's language."""
    return cards_in(translation.get_language())[code]["name"]


def card_text(code: str) -> str:
    """ "10♥": the short form for sentences, in the reader's language."""
    return cards_in(translation.get_language())[code]["text"]


@register.filter
def card(code: str) -> dict:
    """The card as a page shows it, in the reader's language: ``face`` is its markup inside
    the element that holds it (``name``, the spoken name, labels that element)."""
    return dict(cards_in(translation.get_language())[code])


@cache
def cards_in(language: str | None) -> dict[str, dict]:
    """Every card as ``card`` gives it, in a language: worked out once a language, as the
    pages show many cards and the translations do not change while the server runs."""
    with translation.override(language):
        return {code: describe(code) for code in CODES}


def describe(code: str) -> dict:
    rank, symbol, red = rank_shown(code[0]), SUIT_SYMBOLS[code[1]], code[1] in RED_SUITS
    name = pgettext("card name", "%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES[code[0]],
        "suit": SUIT_NAMES[code[1]],
    }
    face = format_html(
        '<span class="face{}" aria-hidden="true"><span class="rank">{}</span>'
        '<span class="suit">{}</span></span>',
        " red" if red else "",
        rank,
        symbol,
    )
    return {
        "code": code,
        "rank": rank,
        "symbol": symbol,
        "red": red,
        "name": name,
        "text": rank + symbol,
        "face": face,
        "image": image(face, "card", name),
    }


def image(face: str, css: str, label: str) -> str:
    return mark_safe(
        f'<span class="{conditional_escape(css)}" role="img" '
        f'aria-label="{conditional_escape(label)}">'
        f"{face}</span>"
    )


@register.simple_tag
def card_image(code: str, css: str = "card", label: str | None = None) -> str:
    """A card on the table: its face in an element of class ``css`` that screen readers
    announce by ``label`` (by default the card's name)."""
    c = cards_in(translation.get_language())[code]
    if css == "card" and label is None:  # the usual case, made quick
        return c["image"]
    return image(c["face"], css, c["name"] if label is None else label)


@register.filter
def card_codes(text: str) -> list[str]:
    """ "AC KC QC": a few cards written in a template (the rules' examples), as a list."""
    return text.split()


@register.filter
def rank(rank: str) -> str:
    """A rank as the cards letter it ("T" is 10; Russian packs letter В Д К Т)."""
    return rank_shown(rank)


@register.filter
def suit_symbol(suit: str) -> str:
    return SUIT_SYMBOLS[suit]


@register.filter
def suit_name(suit: str) -> str:
    return str(SUIT_TITLES[suit])


@register.filter
def index(sequence, i):
    return sequence[i]


@register.simple_tag(takes_context=True)
def first_playable(context) -> str | None:
    """In the hand's template: the first card of ``hand`` that is in ``playable`` (None for
    none, or for a hand only to look at). A turn's screen gives it the focus."""
    if context.get("look_only"):
        return None
    playable = context.get("playable") or ()
    return next((code for code in context.get("hand", ()) if code in playable), None)
