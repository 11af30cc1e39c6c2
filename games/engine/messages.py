"""The engines' messages are the club's (``club.refusals``, pure Python as the engines
are): an English sentence with %(name)s placeholders, marked for translation, and the params
that fill it; a page words them with ``club.wording.refusal_text``."""

from club.refusals import Message, Phrase, Refusal, fill, gettext_noop

__all__ = ["Message", "Phrase", "Refusal", "fill", "gettext_noop"]
