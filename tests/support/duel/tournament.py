"""Duel's parts of a tournament (pure Python): tables of two playing two deals; a row is
``{"scores": [a, b]}``, each seat's score of the deal. A test game: its messages are not
translated."""

from games.engine.tournament import RowError, TournamentParts, read_object, read_wholes

from .engine import SEATS

DEALS = 2  # a table's sheet is complete after this many deals
MOST = sum(range(2, 8))  # a seat that played every spade scores 27


class DuelTournament(TournamentParts):
    key = "duel"
    seating = "mixing"

    def table_sizes(self, entrants: int) -> list[int]:
        return [SEATS] * (entrants // SEATS)

    def check_row(self, row, *, seats: int, options: dict, settings: dict) -> dict:
        scores = read_wholes(read_object(row, ("scores",))["scores"], "scores", SEATS)
        if sum(scores) != 0:  # the spades' ranks less the hearts' are 27 − 27
            raise RowError("The two scores must add up to 0, not %(total)s.", total=sum(scores))
        if max(scores) > MOST:
            raise RowError("A score is at most %(most)s.", most=MOST)
        return {"scores": scores}

    def row_points(self, row: dict, *, seats: int, options: dict, settings: dict) -> list[int]:
        return list(row["scores"])

    def sheet_length(self, *, seats: int, options: dict, settings: dict) -> int:
        return DEALS

    def complete(self, rows: list[dict], *, seats: int, options: dict, settings: dict) -> bool:
        return len(rows) >= DEALS

    def rows_from_results(self, results: list[dict]) -> list[dict]:
        return [{"scores": list(result["scores"])} for result in results]

    def row_layout(self, *, seats: int, options: dict, settings: dict) -> list[dict]:
        return [{"key": "scores", "kind": "per_seat", "label": "Score"}]


TOURNAMENT = DuelTournament()
