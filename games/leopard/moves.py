from django.http import QueryDict

from games.moves import BadMove, Moves, posted_int


class LeopardMoves(Moves):
    """The draw button posts ``draw``, the end button ``end``; a discard posts ``discard``
    (the card), a lay ``lay`` (the card), ``square`` and, for a 10 to K, ``place``."""

    def parse(self, post: QueryDict) -> dict:
        for flag in ("draw", "end"):
            if flag in post:
                return {flag: True}
        if "discard" in post:
            return {"discard": post["discard"]}
        if "lay" in post:
            action = {"lay": post["lay"], "square": posted_int(post, "square")}
            if post.get("place"):
                action["place"] = post["place"]
            return action
        raise BadMove

    def fields(self, action: dict) -> dict:
        return {
            key: ("1" if value is True else value) for key, value in action.items() if key != "seat"
        }
