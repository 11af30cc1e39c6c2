"""Фантан's parts of a tournament (pure Python): ``deals`` deals (a tournament setting,
default 4) at tables of four, or of three where the count of entrants needs it; a row is
``{"finish_order": [s, ...], "cards_left": [one count per seat]}``, kept with the deal's
``scores`` under the tournament's scoring (see docs/rules/tournaments.md)."""

from games.engine.tournament import (
    RowError,
    TournamentParts,
    gettext_noop,
    read_object,
    read_seats,
    read_wholes,
)
from games.fantan.engine import RULES

DEALS = 4  # deals per round unless the tournament says otherwise


def scores(options: dict, finish_order: list[int], cards_left: list[int]) -> list[int]:
    """A deal's scores under ``options["scoring"]`` (as the engine scores a finished deal)."""
    seats = len(cards_left)
    result = [0] * seats
    scoring = options["scoring"]
    if scoring == "win":
        result[finish_order[0]] = 1
    elif scoring == "premiums":
        for seat, premium in zip(finish_order, options["premiums"], strict=False):
            result[seat] = premium
    else:  # cards
        winner = finish_order[0]
        for seat in range(seats):
            if seat != winner:
                result[seat] = -cards_left[seat]
        result[winner] = -sum(result)
    return result


class FantanTournament(TournamentParts):
    key = "fantan"
    seating = "mixing"
    setting_names = ("deals",)

    def table_sizes(self, entrants: int) -> list[int]:
        if entrants < 3:
            return []
        if entrants == 5:  # one table of four and a bye
            return [4]
        threes = (4 - entrants % 4) % 4  # N mod 4 = 3: one three; 2: two; 1: three
        return [4] * ((entrants - 3 * threes) // 4) + [3] * threes

    def allowed_sizes(self) -> tuple[int, ...]:
        return (3, 4)

    def table_options(self, options: dict, seats: int) -> dict:
        return {**options, "players": seats}

    def read_settings(self, raw: dict) -> dict:
        deals = raw.get("deals")
        if deals is None:
            deals = DEALS
        if type(deals) is not int or not 1 <= deals <= 1000:
            raise ValueError("deals must be a whole number from 1 to 1000")
        return {"deals": deals}

    def options(self, options: dict, seats: int) -> dict:
        """The table's options parsed, every default filled in (InvalidRecord if they are
        not Фантан's: the document's error, not a row's)."""
        return RULES.parse_options({**options, "players": seats})

    def check_row(self, row, *, seats: int, options: dict, settings: dict) -> dict:
        options = self.options(options, seats)
        row = read_object(row, ("finish_order", "cards_left"), ("scores",))
        until_out = options["until_out"]
        finish_order = read_seats(row["finish_order"], "finish_order", until_out, seats)
        cards_left = read_wholes(row["cards_left"], "cards_left", seats)
        hand = len(RULES.pack(options)) // seats
        for seat, count in enumerate(cards_left):
            if seat in finish_order:
                if count != 0:
                    raise RowError(
                        gettext_noop(
                            "Seat %(seat)s went out, so has no cards left, not %(count)s."
                        ),
                        seat=seat,
                        count=count,
                    )
            elif not 1 <= count <= hand:
                raise RowError(
                    gettext_noop(
                        "Seat %(seat)s did not go out, so has 1 to %(hand)s cards left, not "
                        "%(count)s."
                    ),
                    seat=seat,
                    hand=hand,
                    count=count,
                )
        computed = scores(options, finish_order, cards_left)
        if "scores" in row:
            given = read_wholes(row["scores"], "scores", seats)
            if given != computed:
                raise RowError(
                    gettext_noop(
                        "The scores %(given)s do not follow from the finish order and the cards "
                        "left: they are %(computed)s."
                    ),
                    given=", ".join(map(str, given)),
                    computed=", ".join(map(str, computed)),
                )
        return {"finish_order": finish_order, "cards_left": cards_left, "scores": computed}

    def row_points(self, row: dict, *, seats: int, options: dict, settings: dict) -> list[int]:
        return list(row["scores"])

    def sheet_length(self, *, seats: int, options: dict, settings: dict) -> int:
        return self.read_settings(settings)["deals"]

    def complete(self, rows: list[dict], *, seats: int, options: dict, settings: dict) -> bool:
        return len(rows) >= self.sheet_length(seats=seats, options=options, settings=settings)

    def rows_from_results(self, results: list[dict]) -> list[dict]:
        return [
            {
                "finish_order": list(r["finish_order"]),
                "cards_left": [len(hand) for hand in r["cards_left"]],
                "scores": list(r["scores"]),
            }
            for r in results
        ]

    def row_layout(self, *, seats: int, options: dict, settings: dict) -> list[dict]:
        until_out = self.options(options, seats)["until_out"]
        return [
            {
                "key": "finish_order",
                "kind": "seats",
                "count": until_out,
                "label": gettext_noop("Went out, in order"),
            },
            {"key": "cards_left", "kind": "per_seat", "label": gettext_noop("Cards left")},
        ]


TOURNAMENT = FantanTournament()
