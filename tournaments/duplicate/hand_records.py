"""A duplicate round's hand records, pure Python: for each size of table in the round, its
group's deals as ``round_deals`` gives them, so that the packs made up from them are what a
table played here is dealt. The directors' page and ``manage.py tournament deals`` both
read them from here."""

from dataclasses import dataclass

from games import registry

from .deals import DuplicateDeal, round_deals


@dataclass(frozen=True)
class HandGroup:
    """The deals of a round's tables of ``size`` seats, deal 1 first."""

    size: int
    deals: list[DuplicateDeal]


def hand_records(
    game: str, options: dict, settings: dict, *, seed: int, round_number: int, sizes
) -> list[HandGroup]:
    """Each size among ``sizes`` once, largest first, with its group's K deals (K the
    sheet's length for that size)."""
    parts = registry.tournament(game)
    groups = []
    for size in sorted(set(sizes), reverse=True):
        table_options = parts.table_options(options, size)
        count = parts.sheet_length(seats=size, options=table_options, settings=settings)
        if count is None:  # refused for a duplicate tournament (document.read_duplicate)
            raise ValueError(f"tables of {size} play to a score, not a number of deals")
        deals = round_deals(
            game, table_options, seed=seed, round_number=round_number, seats=size, count=count
        )
        groups.append(HandGroup(size, deals))
    return groups


def as_json(groups: list[HandGroup]) -> dict:
    """The records as the command prints them: ``stock`` only for a game that deals one."""
    return {
        "groups": [
            {
                "size": group.size,
                "deals": [
                    {
                        "deal": deal.number,
                        "dealer": deal.dealer,
                        "hands": [list(hand) for hand in deal.dealt["hands"]],
                        **({"stock": list(deal.dealt["stock"])} if "stock" in deal.dealt else {}),
                    }
                    for deal in group.deals
                ],
            }
            for group in groups
        ]
    }
