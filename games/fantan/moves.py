from django.http import QueryDict

from games.move_forms import BadMove, Moves, move_fields


class FantanMoves(Moves):
    """A card button posts ``card``; the pass (or stop) button posts ``pass``."""

    def parse(self, post: QueryDict) -> dict:
        fields = move_fields(post)
        if fields.keys() == {"card"}:
            return {"play": fields["card"]}
        if fields == {"pass": "1"}:
            return {"pass": True}
        raise BadMove

    def fields(self, action: dict) -> dict:
        return {"card": action["play"]} if "play" in action else {"pass": "1"}
