from tests.support.duel.game import GAME

__all__ = ["GAME"]
