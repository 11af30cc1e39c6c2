"""The club's refusals (pure Python, no Django, so that the rules engines may raise them):
an English sentence with %(name)s placeholders, marked for translation, and the params that
fill it. ``str()`` reads well in a terminal; a page words a refusal in its reader's language
with ``core.wording.refusal_text``.

Every refusal of the club is a :class:`Refusal`: the engines' ``RulesError``, the services'
``ServiceError``, a sheet's ``RowError``, an unreadable document's ``Unreadable``...
"""


def gettext_noop(message: str) -> str:
    """Marks a message for translation (makemessages finds it); the web layer translates."""
    return message


def fill(message: str, params: dict) -> str:
    """The message in English: a ``seat`` param is a seat number, written "seat 2"."""
    shown = {k: f"seat {v}" if k == "seat" else v for k, v in params.items()}
    return message % shown if shown else message


class Message:
    """What a translatable message carries: ``message`` and its ``params``. A param may be
    a message itself (the reason of a refusal that names where it lies): it is translated
    with it."""

    message: str
    params: dict

    def __str__(self) -> str:
        return fill(self.message, self.params)


class Phrase(Message):
    """A part of a message, translated with it: what a record's field is called."""

    def __init__(self, message: str, **params):
        self.message = message
        self.params = params


class Refusal(Message, Exception):
    """Something the club refuses, and why: ``message`` and ``params`` as a message's;
    ``status`` the HTTP status of a page that shows it."""

    status = 400

    def __init__(self, message: str, **params):
        super().__init__(message)
        self.message = message
        self.params = params
