"""The engines' messages (pure Python, no Django): an English sentence with %(name)s
placeholders, marked for translation, and the params that fill it. ``str()`` reads well in a
terminal; the web layer translates the sentence, and any param that is itself a message
(``games.views.message_text``), so that a refusal reads in the reader's language."""


def gettext_noop(message: str) -> str:
    """Marks a message for translation (makemessages finds it); the web layer translates."""
    return message


def fill(message: str, params: dict) -> str:
    """The message in English: a ``seat`` param is a seat number, written "seat 2"."""
    shown = {k: f"seat {v}" if k == "seat" else v for k, v in params.items()}
    return message % shown if shown else message


class Message:
    """What a translatable message carries: ``message`` and its ``params``."""

    message: str
    params: dict

    def __str__(self) -> str:
        return fill(self.message, self.params)


class Phrase(Message):
    """A part of a message, translated with it: what a record's field is called."""

    def __init__(self, message: str, **params):
        self.message = message
        self.params = params
