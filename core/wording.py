"""A refusal worded for a page, in the reader's language: its seats numbered from 1 with
the player's name, a param that is a message translated with it, a long value a document
gave cut short, a number as pages write it (−3; as the document has it where it is
about one). Every page, admin form and live page words its refusals here."""

import re
from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from .numbers import figure
from .refusals import Message

SHOWN_VALUE = 80  # characters of a value from a document that a message repeats
SEAT_PARAMS = ("seat", "partner")  # the params that are a seat (0..N−1, as records keep them)
# The sheet readers' bounds of a seat "from 0 to %(last)s", as a person reads them: from 1.
FROM_ONE = {
    "“%(name)s” must be a seat from 0 to %(last)s.": gettext_noop(
        "“%(name)s” must be a seat from 1 to %(last)s."
    ),
    "“%(name)s” must be a list of %(count)s seats, each from 0 to %(last)s.": gettext_noop(
        "“%(name)s” must be a list of %(count)s seats, each from 1 to %(last)s."
    ),
}


def refusal_text(
    refusal: Message,
    names=None,
    labels: dict[str, str] | None = None,
    *,
    words: dict[str, Callable] | None = None,
    as_written: bool = False,
) -> str:
    """``refusal`` (any ``core.refusals.Message``) in the reader's language.

    ``names``: the table's players in seat order, to name a seat's player; ``labels``: a
    row's key (a ``name`` param) as its column's translated label; ``words``: how a param
    of the caller's own is written (a game's card), by the param's name; ``as_written``: the
    refusal is about a document the reader wrote (a record, a row's JSON), so a seat it
    names without a player, and a bound of its seats, count as the document does, from 0.
    """
    params = dict(refusal.params)
    message = refusal.message
    if not as_written and message in FROM_ONE and type(params.get("last")) is int:
        message, params["last"] = FROM_ONE[message], params["last"] + 1
    for key, value in params.items():
        if isinstance(value, Message):
            params[key] = refusal_text(value, names, labels, words=words, as_written=as_written)
        elif key in SEAT_PARAMS and type(value) is int:
            params[key] = seat_text(message, key, value, names, as_written)
        elif key == "name" and labels and isinstance(value, str) and value in labels:
            params[key] = labels[value]
        elif words and key in words:
            params[key] = words[key](value)
        elif isinstance(value, str) and len(value) > SHOWN_VALUE:
            params[key] = value[: SHOWN_VALUE - 1] + "…"
        elif not as_written:
            params[key] = figure(value)
    return _(message) % params if params else _(message)


def seat_text(message: str, key: str, seat: int, names, as_written: bool):
    """A seat param as its sentence reads it: after the word "seat" ("seat %(seat)s has 16")
    its number, with the player in brackets; alone ("%(seat)s is to act") the player, or
    "seat 2" where no name is at hand."""
    named = bool(names) and 0 <= seat < len(names)
    number = seat if as_written and not named else seat + 1
    if re.search(rf"\bseat %\({key}\)s", message, re.IGNORECASE):
        return f"{number} ({names[seat]})" if named else number
    return names[seat] if named else _("seat %(n)s") % {"n": number}
