"""The shared parts of the rules engines (pure Python): the interface every game's engine
implements (``base``), cards, deal records and random play. Each game's own engine is
``games/<game>/engine.py``, found through ``games.registry``."""

from .. import registry
from .base import IllegalAction, InvalidAction, InvalidRecord, RulesError, gettext_noop


def get_rules(game):
    """The rules of the game a record names; InvalidRecord if the club has no such game."""
    try:
        return registry.rules(game)
    except registry.UnknownGame:
        raise InvalidRecord(gettext_noop("unknown game %(name)s"), name=repr(game)) from None


__all__ = ["IllegalAction", "InvalidAction", "InvalidRecord", "RulesError", "get_rules"]
