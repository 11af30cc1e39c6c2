"""Reading a game's actions from a POST, and writing an action as the fields a page posts.

Each game's ``Moves`` (in ``games/<game>/moves.py``) knows its own fields; the views call
``parse`` and know none of them.
"""

from django.http import QueryDict
from django.utils.translation import gettext_noop

from club.services import ServiceError


class BadMove(ServiceError):
    def __init__(self):
        super().__init__(gettext_noop("The form was incomplete or damaged; nothing was done."))


def posted_int(post: QueryDict, name: str) -> int:
    try:
        return int(post[name])
    except (KeyError, ValueError):
        raise BadMove from None


class Moves:
    def parse(self, post: QueryDict) -> dict:
        """The action (or step) a turn's form posts, without its seat; BadMove if the form
        holds none. Whether it is legal, the engine decides."""
        raise NotImplementedError

    def fields(self, action: dict) -> dict:
        """The form fields a page posts for ``action`` (the inverse of ``parse``)."""
        raise NotImplementedError
