"""The rules page's contracts: the same list (trumps from the engine, what the tricks count
as the auction shows it) that the players see when they call."""

from django import template

from games.variety.presenter import CONTRACTS

register = template.Library()


@register.simple_tag
def contracts() -> list:
    return CONTRACTS
