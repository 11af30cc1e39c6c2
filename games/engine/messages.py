"""The engines' messages are the club's (``core.refusals``, pure Python as the engines
are): an English sentence with %(name)s placeholders, marked for translation, and the params
that fill it; a page words them with ``core.wording.refusal_text``."""

from core.refusals import Message, Phrase, Refusal, fill, gettext_noop

__all__ = ["Message", "Phrase", "Refusal", "fill", "gettext_noop"]
