"""Леопард's parts of a tournament (pure Python): tables of two playing one match (``deals``
deals, or to the ``target`` score); a row is ``{"scores": [a, b], "ender": s or null}`` (see
docs/rules/tournaments.md)."""

from games.engine.tournament import (
    RowError,
    TournamentParts,
    gettext_noop,
    read_object,
    read_seat,
    read_wholes,
)
from games.leopard.engine import END_AT, LINES, RULES, SEATS

MOST = 2 * len(LINES)  # the largest sum a square can give: every line of one suit


def declarer_score(total: int) -> int:
    """What a player who declared the end with this sum scores: points above five count
    double, and ending costs one point."""
    return total + (total - END_AT) - 1


class LeopardTournament(TournamentParts):
    key = "leopard"
    seating = "swiss"

    def table_sizes(self, entrants: int) -> list[int]:
        return [SEATS] * (entrants // SEATS)

    def allowed_sizes(self) -> tuple[int, ...]:
        return (SEATS,)

    def check_row(self, row, *, seats: int, options: dict, settings: dict) -> dict:
        row = read_object(row, ("scores", "ender"))
        scores = read_wholes(row["scores"], "scores", SEATS)
        ender = row["ender"]
        if ender is not None:
            ender = read_seat(ender, "ender", SEATS)
        for seat, score in enumerate(scores):
            if score < 0:
                raise RowError(
                    gettext_noop("Seat %(seat)s's score %(score)s is below 0."),
                    seat=seat,
                    score=score,
                )
        for seat, score in enumerate(scores):
            if seat == ender:
                if score not in {declarer_score(s) for s in range(END_AT, MOST + 1)}:
                    raise RowError(
                        gettext_noop(
                            "Seat %(seat)s declared the end: their score is 2 × sum − 6 for a sum "
                            "from %(least)s to %(most)s (an even number from %(low)s to %(high)s), "
                            "not %(score)s."
                        ),
                        seat=seat,
                        least=END_AT,
                        most=MOST,
                        low=declarer_score(END_AT),
                        high=declarer_score(MOST),
                        score=score,
                    )
            elif score > MOST:
                raise RowError(
                    gettext_noop(
                        "Seat %(seat)s's score %(score)s is more than a square can give (%(most)s)."
                    ),
                    seat=seat,
                    score=score,
                    most=MOST,
                )
        return {"scores": scores, "ender": ender}

    def row_points(self, row: dict, *, seats: int, options: dict, settings: dict) -> list[int]:
        return list(row["scores"])

    def sheet_length(self, *, seats: int, options: dict, settings: dict) -> int | None:
        match = RULES.parse_options(options)
        return None if match["target"] is not None else match["deals"]

    def complete(self, rows: list[dict], *, seats: int, options: dict, settings: dict) -> bool:
        match = RULES.parse_options(options)
        if match["target"] is not None:
            totals = [sum(row["scores"][seat] for row in rows) for seat in range(SEATS)]
            return max(totals) >= match["target"]
        return len(rows) >= match["deals"]

    def rows_from_results(self, results: list[dict]) -> list[dict]:
        return [{"scores": list(r["scores"]), "ender": r["ender"]} for r in results]

    def row_layout(self, *, seats: int, options: dict, settings: dict) -> list[dict]:
        return [
            {"key": "scores", "kind": "per_seat", "label": gettext_noop("Score")},
            {
                "key": "ender",
                "kind": "seat_or_none",
                "label": gettext_noop("Declared the end"),
                "none_label": gettext_noop("nobody: the stock ran out"),
            },
        ]


TOURNAMENT = LeopardTournament()
