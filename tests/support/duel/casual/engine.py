from tests.support.duel.engine import RULES

__all__ = ["RULES"]
