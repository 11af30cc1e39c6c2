from tests.duel.engine import RULES

__all__ = ["RULES"]
