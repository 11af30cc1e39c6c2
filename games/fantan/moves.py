from django.http import QueryDict

from games.moves import BadMove, Moves


class FantanMoves(Moves):
    """A card button posts ``card``; the pass (or stop) button posts ``pass``."""

    def parse(self, post: QueryDict) -> dict:
        if "card" in post:
            return {"play": post["card"]}
        if "pass" in post:
            return {"pass": True}
        raise BadMove

    def fields(self, action: dict) -> dict:
        return {"card": action["play"]} if "play" in action else {"pass": "1"}
