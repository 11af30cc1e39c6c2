from django.http import QueryDict

from games.engine.cards import INDEX
from games.move_forms import BadMove, Moves, move_fields, number_field

from .engine import OWN_PLACE, PLACES


class LeopardMoves(Moves):
    """The draw button posts ``draw``, the end button ``end``; a discard posts ``discard``
    (the card), a lay ``lay`` (the card), ``square`` and ``place``. Every place's button
    names its place, an ace to nine's own too; the engine refuses any other for it."""

    def parse(self, post: QueryDict) -> dict:
        fields = move_fields(post)
        if fields in ({"draw": "1"}, {"end": "1"}):
            return {next(iter(fields)): True}
        if fields.keys() == {"discard"}:
            return {"discard": fields["discard"]}
        if fields.keys() in ({"lay", "square"}, {"lay", "square", "place"}):
            return {**fields, "square": number_field(fields["square"])}
        raise BadMove

    def fields(self, action: dict) -> dict:
        if "lay" in action:
            own = OWN_PLACE[INDEX[action["lay"]] % 13]
            place = action.get("place") or PLACES[own]
            return {"lay": action["lay"], "square": action["square"], "place": place}
        return {
            key: ("1" if value is True else value) for key, value in action.items() if key != "seat"
        }
