"""Pure-Python rules engines, one module per game, all with the interface of base.py."""

from . import fantan, leopard, variety
from .base import IllegalAction, InvalidAction, InvalidRecord, RulesError

ENGINES = {rules.name: rules for rules in (fantan.RULES, variety.RULES, leopard.RULES)}


def get_rules(game: str):
    try:
        return ENGINES[game]
    except (KeyError, TypeError):  # TypeError: a list or object as the game
        raise InvalidRecord(f"unknown game {game!r}") from None


__all__ = ["ENGINES", "IllegalAction", "InvalidAction", "InvalidRecord", "RulesError",
           "get_rules"]
