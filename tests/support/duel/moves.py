from django.http import QueryDict

from games.move_forms import BadMove, Moves


class DuelMoves(Moves):
    """A card button posts ``card``."""

    def parse(self, post: QueryDict) -> dict:
        if "card" not in post:
            raise BadMove
        return {"play": post["card"]}

    def fields(self, action: dict) -> dict:
        return {"card": action["play"]}
