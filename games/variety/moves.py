from django.http import QueryDict

from games.move_forms import BadMove, Moves, move_fields, number_field


class VarietyMoves(Moves):
    """A contract button posts ``call`` with the announcement typed in ``say`` (empty, or
    left out, for none); a card button posts ``card``."""

    def parse(self, post: QueryDict) -> dict:
        fields = move_fields(post)
        if fields.keys() == {"card"}:
            return {"play": fields["card"]}
        if fields.keys() in ({"call"}, {"call", "say"}):
            action = {"call": number_field(fields["call"])}
            if fields.get("say", "").strip():
                action["say"] = fields["say"]
            return action
        raise BadMove

    def fields(self, action: dict) -> dict:
        if "play" in action:
            return {"card": action["play"]}
        return {"call": action["call"], "say": action.get("say", "")}
