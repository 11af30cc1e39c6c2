"""Tournaments for the tests: one made and entered through the services, one imported
from a document (the rules' worked examples among them), a typed sheet as its form posts it,
and the points a tournament's standings give."""

import json

from tests.support import EXAMPLES
from tournaments import document, selectors, services
from tournaments.run import services as run_services

# A short cycle that passes every check: (contract, attackers, scores).
SHORT_CYCLE = [
    (2, [0, 1], [16, 16, 10, 10]),  # 16 to 10: the attackers won, no +10
    (2, [2, 3], [26, 26, 10, 10]),  # 10 to 16: each defender's 16 + 10
    (2, [0, 2], [16, 10, 16, 10]),
    (8, [1, 3], [-20, -6, -20, -6]),  # −6 to −20: the attackers won
]
TOTALS = [38, 46, 16, 24]


def sheet_post(rows, count=None) -> dict:
    """The typed sheet's form: Выборы rows as (contract, attackers, scores)."""
    data = {"rows": str(count or max(len(rows), 4))}
    for number, (contract, attackers, scores) in enumerate(rows, start=1):
        data[f"r{number}-contract"] = str(contract)
        for k, seat in enumerate(attackers):
            data[f"r{number}-attackers-{k}"] = str(seat)
        for seat, figure in enumerate(scores):
            data[f"r{number}-scores-{seat}"] = str(figure)
    return data


def points_of(tournament) -> dict:
    return {row.player: row.points for row in selectors.standings(tournament).rows}


def import_text(text: str):
    return services.import_document(doc=document.read(text))


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def variety_row(seed: int) -> dict:
    """A row of contract 2 (26 points in all) that passes the sheet's checks: the attackers
    take 16 or 26, or take 10 and the defenders get their 16 and the +10."""
    attackers = [[0, 1], [2, 3], [0, 2], [1, 3], [0, 3], [1, 2]][seed % 6]
    attack, defence = [(16, 10), (26, 0), (10, 26)][seed % 3]
    return {
        "contract": 2,
        "attackers": attackers,
        "scores": [attack if seat in attackers else defence for seat in range(4)],
    }


def new_tournament(host, game="variety", **changes):
    settings = {
        "name": "Кубок",
        "game": game,
        "options": {"cycle": "short"} if game == "variety" else {},
        "settings": {},
        "rounds_planned": 3,
        "seating": "mixing",
        "seed": 7,
        "bye_points": 3,
        "order": ["match_points", "points", "opponents", "wins"],
        **changes,
    }
    return services.create_tournament(user=host, **settings)


def enter(tournament, names, host):
    return [
        run_services.add_entrant(tournament=tournament, player=name, user=host) for name in names
    ]
