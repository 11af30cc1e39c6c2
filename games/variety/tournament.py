"""Выборы's parts of a tournament (pure Python): tables of four playing one cycle; a row is
``{"contract": 1..8, "attackers": [s, s], "scores": [four figures]}`` (see
docs/rules/tournaments.md, "Sheets typed in from paper")."""

from games.engine.tournament import (
    RowError,
    TournamentParts,
    gettext_noop,
    read_object,
    read_seats,
    read_whole,
    read_wholes,
)
from games.variety.engine import BONUS, CYCLES, RULES, SEATS, TOTALS


def possible(contract: int, points: int) -> bool:
    """A side's points can be ``points`` under ``contract`` (what its tricks may hold)."""
    if contract == 1:
        return points in (0, 12)
    if contract in (2, 3):
        return points % 2 == 0 and 0 <= points <= 26
    if contract == 4:
        return points % 2 == 0 and -26 <= points <= 26
    if contract == 5:
        return points % 5 == 0 and -20 <= points <= 20
    if contract == 6:
        return 0 <= points <= 26
    return points % 2 == 0 and -26 <= points <= 0  # 7 and 8


class VarietyTournament(TournamentParts):
    key = "variety"
    seating = "mixing"

    def table_sizes(self, entrants: int) -> list[int]:
        return [SEATS] * (entrants // SEATS)

    def allowed_sizes(self) -> tuple[int, ...]:
        return (SEATS,)

    def check_row(self, row, *, seats: int, options: dict, settings: dict) -> dict:
        row = read_object(row, ("contract", "attackers", "scores"))
        contract = read_whole(row["contract"], "contract")
        if not 1 <= contract <= 8:
            raise RowError(
                gettext_noop("The contract must be a number from 1 to 8, not %(contract)s."),
                contract=contract,
            )
        attackers = read_seats(row["attackers"], "attackers", 2, SEATS)
        scores = read_wholes(row["scores"], "scores", SEATS)
        defenders = [seat for seat in range(SEATS) if seat not in attackers]
        for side in (attackers, defenders):
            if scores[side[0]] != scores[side[1]]:
                raise RowError(
                    gettext_noop(
                        "Partners' figures must be equal: seat %(seat)s has %(figure)s, seat "
                        "%(partner)s has %(other)s."
                    ),
                    seat=side[0],
                    figure=scores[side[0]],
                    partner=side[1],
                    other=scores[side[1]],
                )
        attack, figure = scores[attackers[0]], scores[defenders[0]]
        if not possible(contract, attack):
            raise RowError(
                gettext_noop("The attackers cannot score %(points)s in contract %(contract)s."),
                points=attack,
                contract=contract,
            )
        if not (possible(contract, figure) or possible(contract, figure - BONUS)):
            raise RowError(
                gettext_noop(
                    "The defenders cannot score %(points)s in contract %(contract)s, with or "
                    "without the +10."
                ),
                points=figure,
                contract=contract,
            )
        total = TOTALS[contract]
        defence = total - attack  # what the defenders' tricks must hold
        if figure == defence:
            if attack <= defence:
                raise RowError(
                    gettext_noop(
                        "The attackers did not score more than the defenders (%(attack)s to "
                        "%(defence)s): each defender's figure must include the +10."
                    ),
                    attack=attack,
                    defence=defence,
                )
        elif figure == defence + BONUS:
            if attack > defence:
                raise RowError(
                    gettext_noop(
                        "The attackers scored more than the defenders (%(attack)s to "
                        "%(defence)s): the defenders get no +10."
                    ),
                    attack=attack,
                    defence=defence,
                )
        else:
            raise RowError(
                gettext_noop(
                    "The two sides' points must add up to %(total)s in contract %(contract)s: "
                    "the attackers have %(attack)s, the defenders %(figure)s."
                ),
                total=total,
                contract=contract,
                attack=attack,
                figure=figure,
            )
        return {"contract": contract, "attackers": attackers, "scores": scores}

    def row_points(self, row: dict, *, seats: int, options: dict, settings: dict) -> list[int]:
        return list(row["scores"])

    def sheet_length(self, *, seats: int, options: dict, settings: dict) -> int:
        return CYCLES[RULES.parse_options(options)["cycle"]]

    def complete(self, rows: list[dict], *, seats: int, options: dict, settings: dict) -> bool:
        return len(rows) >= self.sheet_length(seats=seats, options=options, settings=settings)

    def rows_from_results(self, results: list[dict]) -> list[dict]:
        return [
            {
                "contract": r["contract"],
                "attackers": list(r["attackers"]),
                "scores": list(r["scores"]),
            }
            for r in results
        ]

    def row_layout(self, *, seats: int, options: dict, settings: dict) -> list[dict]:
        contracts = [  # as the auction names them (variety/_contract.html): trumps, counts
            gettext_noop("no trumps · the side with more tricks: +12"),
            gettext_noop("trumps ♣ · +2 a trick"),
            gettext_noop("trumps ♥ · +2 a spade"),
            gettext_noop("trumps ♦ · +1 a red card, −1 a black card"),
            gettext_noop("trumps ♠ · +5 a black ten or jack, −5 a red ten or jack"),
            gettext_noop("trumps ♣ · +1 a red card; the lowest card wins the trick"),
            gettext_noop("trumps ♠ · −2 a club"),
            gettext_noop("no trumps · −2 a trick"),
        ]
        return [
            {
                "key": "contract",
                "kind": "choice",
                "label": gettext_noop("Contract"),
                "choices": [[number, label] for number, label in enumerate(contracts, start=1)],
            },
            {"key": "attackers", "kind": "seats", "count": 2, "label": gettext_noop("Attackers")},
            {"key": "scores", "kind": "per_seat", "label": gettext_noop("Score")},
        ]


TOURNAMENT = VarietyTournament()
