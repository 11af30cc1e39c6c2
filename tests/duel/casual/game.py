from tests.duel.game import GAME

__all__ = ["GAME"]
