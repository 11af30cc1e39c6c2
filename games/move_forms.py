"""Reading a game's actions from a POST, and writing an action as the fields a page posts.

Each game's ``Moves`` (in ``games/<game>/moves.py``) knows its own fields; the pages call
``parse`` and know none of them. A form is read strictly: its move fields must be exactly
those of one action, each posted once, so that a forged or mixed form is refused rather than
read as some other move; what the values name (a card, a place), the engine checks.
"""

import re

from django.http import QueryDict
from django.utils.translation import gettext_noop

from club.services import ServiceError

# What every turn's form posts beside its move (templates/games/_stamp.html), read by the view.
STAMP = frozenset({"csrfmiddlewaretoken", "deal", "version", "seat"})
WHOLE_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")  # as a page writes one: no sign, space, zero


class BadMove(ServiceError):
    def __init__(self):
        super().__init__(gettext_noop("The form was incomplete or damaged; nothing was done."))


def posted_int(post: QueryDict, name: str) -> int:
    try:
        return int(post[name])
    except (KeyError, ValueError):
        raise BadMove from None


def move_fields(post: QueryDict) -> dict[str, str]:
    """The fields of the move a form posts (all but the stamp's); BadMove if a field is
    posted more than once."""
    fields = {}
    for name, values in post.lists():
        if len(values) != 1:
            raise BadMove
        if name not in STAMP:
            fields[name] = values[0]
    return fields


def number_field(value: str) -> int:
    """A whole number as a page posts it ("2"); BadMove for anything else."""
    if not WHOLE_NUMBER.fullmatch(value):
        raise BadMove
    return int(value)


class Moves:
    def parse(self, post: QueryDict) -> dict:
        """The action (or step) a turn's form posts, without its seat; BadMove if its move
        fields are not exactly those of one action. Whether it is legal, the engine decides."""
        raise NotImplementedError

    def fields(self, action: dict) -> dict:
        """The form fields a page posts for ``action`` (the inverse of ``parse``)."""
        raise NotImplementedError
