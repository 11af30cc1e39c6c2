"""A season for the tests: three Леопард tournaments of one deal a match (a win is 6 match
points, a draw 3 each, a bye 3), imported from documents by their director, whose standings
docs/rules/tournaments.md works out by hand (tests/tournaments/seasons/test_seasons.py).

- «Сентябрь» (1 September): Анна, Борис, Вера, Глеб, Дарья; Дарья's bye in round 1, Глеб
  withdrawn after it. Places: Анна 1, Вера 2, Дарья 3, Борис 4, Глеб 5.
- «Октябрь» (1 October): Дарья does not enter. Анна and Вера share 1–2, Борис and Глеб 3–4.
- «Ноябрь» (1 November): Вера's bye. Places: Дарья 1, Борис and Глеб 2–3, Вера 4, Анна 5.
"""

import json

from tournaments import document, services

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]


def match(first: str, second: str, scores: tuple[int, int]) -> dict:
    return {"players": [first, second], "rows": [{"scores": list(scores), "ender": None}]}


SEPTEMBER = {
    "tournament": "Сентябрь",
    "date": "2026-09-01",
    "players": NAMES,
    "rounds": [
        {
            "tables": [match("Анна", "Борис", (10, 5)), match("Вера", "Глеб", (9, 4))],
            "byes": ["Дарья"],
        },
        {  # Глеб has withdrawn
            "tables": [match("Анна", "Вера", (6, 6)), match("Борис", "Дарья", (2, 8))],
            "byes": [],
        },
    ],
}
OCTOBER = {
    "tournament": "Октябрь",
    "date": "2026-10-01",
    "players": NAMES[:4],
    "rounds": [
        {
            "tables": [match("Анна", "Борис", (10, 5)), match("Вера", "Глеб", (10, 5))],
            "byes": [],
        }
    ],
}
NOVEMBER = {
    "tournament": "Ноябрь",
    "date": "2026-11-01",
    "players": NAMES,
    "rounds": [
        {
            "tables": [match("Анна", "Дарья", (2, 10)), match("Борис", "Глеб", (4, 4))],
            "byes": ["Вера"],
        }
    ],
}
MONTHS = [SEPTEMBER, OCTOBER, NOVEMBER]


def leopard(doc: dict, user, **changes):
    """The tournament of ``doc`` imported by ``user``, who directs it."""
    text = json.dumps(
        {
            "game": "leopard",
            "options": {"deals": 1},
            "rounds_planned": 3,
            "seating": "swiss",
            "seed": 1,
            **doc,
            **changes,
        }
    )
    return services.import_document(doc=document.read(text), user=user)


def three_months(user) -> list:
    """The three tournaments, Глеб withdrawn from the first after its first round."""
    tournaments = [leopard(doc, user) for doc in MONTHS]
    gleb = tournaments[0].entrants.get(player__name="Глеб")
    gleb.withdrawn_after = 1  # as run.services.withdraw leaves him: his results stand
    gleb.save(update_fields=["withdrawn_after"])
    return tournaments
