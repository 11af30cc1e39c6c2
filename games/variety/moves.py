from django.http import QueryDict

from games.moves import BadMove, Moves, posted_int


class VarietyMoves(Moves):
    """A contract button posts ``call`` (with the announcement typed in ``say``); a card
    button posts ``card``."""

    def parse(self, post: QueryDict) -> dict:
        if "card" in post:
            return {"play": post["card"]}
        if "call" in post:
            action = {"call": posted_int(post, "call")}
            if post.get("say", "").strip():
                action["say"] = post["say"]
            return action
        raise BadMove

    def fields(self, action: dict) -> dict:
        if "play" in action:
            return {"card": action["play"]}
        return {"call": action["call"], "say": action.get("say", "")}
