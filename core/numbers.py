"""How a page writes a number for a person: a negative one with the minus sign, −18 (a hyphen,
-18, reads as a dash, and sits lower and shorter than the plus of +12), a fraction in the
reader's way (4.5, 4,5). What programs read (CSV files, records, JSON, the forms' inputs)
keeps the hyphen; the forms read either (``core.fields``)."""

from decimal import Decimal

from django.utils.formats import localize

MINUS = "\u2212"


def figure(value):
    """A number as a page shows it: 12, −18, 4,5; anything else (a word, a dash, None) as
    it is."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return value
    text = str(value) if isinstance(value, int) else localize(value)
    return MINUS + text[1:] if text.startswith("-") else text


def signed(value) -> str:
    """A change with its sign: +12, −7, 0."""
    return f"+{figure(value)}" if value > 0 else figure(value)
