"""Casual tables' results as rated matches of the club's ladders (ratings.services): each
complete cycle (or match) ranked by its sheet's totals, or, in a game without cycles, each
finished deal by its scores. A table played for a tournament is rated there; a table with a
robot at it is not rated."""

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from django.db.models import Exists, Max, OuterRef, Q
from django.utils.translation import gettext as _

from games import registry
from games.models import Cycle, Deal, Seat, Table

from . import services
from .services import Match, Named


def rated_tables(game: str):
    robots = Seat.objects.filter(table=OuterRef("pk"), player__isnull=True)
    return Table.objects.filter(game=game, tournament_table__isnull=True).exclude(Exists(robots))


class CasualTables:
    name = "table"

    def matches(
        self, game: str, *, since: datetime | None = None, scope: str | None = None
    ) -> list[Match]:
        tables = rated_tables(game)
        if scope is not None:
            tables = tables.filter(pk=int(scope.split(":")[1]))
        deals = Deal.objects.filter(table__in=tables, is_over=True).annotate(
            ended=Max("events__created_at")
        )
        if since is not None:
            # every deal of a cycle that one of them may have completed since: a deal is
            # saved with each of its events, so its last change is no earlier than its end
            recent = Deal.objects.filter(table__in=tables, is_over=True, updated_at__gte=since)
            deals = deals.filter(
                Q(cycle__in=recent.exclude(cycle=None).values("cycle"))
                | Q(pk__in=recent.filter(cycle=None).values("pk"))
            )
        rows = list(
            deals.order_by("table", "number").values_list(
                "table_id", "cycle_id", "number", "result", "ended"
            )
        )
        table_ids = {row[0] for row in rows}
        seats: dict[int, list[int]] = defaultdict(list)
        for table_id, player_id in (
            Seat.objects.filter(table__in=table_ids)
            .order_by("table", "position")
            .values_list("table_id", "player_id")
        ):
            seats[table_id].append(player_id)
        cycles = {c.pk: c for c in Cycle.objects.filter(pk__in={row[1] for row in rows} - {None})}
        found = []
        by_cycle: dict[int, list[tuple]] = defaultdict(list)
        for row in rows:
            table_id, cycle_id, number, result, ended = row
            if cycle_id is None:
                found.append(self.match(table_id, ("deal", number), [result], ended, seats))
            else:
                by_cycle[cycle_id].append(row)
        for cycle_id, played in by_cycle.items():
            cycle = cycles[cycle_id]
            results = [row[3] for row in played]
            if cycle.is_complete(results):
                found.append(
                    self.match(
                        cycle.table_id, ("cycle", cycle.number), results, played[-1][4], seats
                    )
                )
        if since is not None:
            found = [m for m in found if m.completed_at >= since]
        return found

    def match(self, table_id, part, results, ended, seats) -> Match:
        kind, number = part
        totals = [sum(scores) for scores in zip(*(r["scores"] for r in results), strict=True)]
        return Match(
            key=f"{self.name}:{table_id}:{kind}:{number}",
            completed_at=ended,
            tiebreak=(table_id, number),
            players=tuple(seats[table_id]),
            points=tuple(totals),
        )

    def describe(self, keys: Sequence[str]) -> dict[str, Named]:
        parts = {key: key.split(":") for key in keys}
        tables = Table.objects.filter(pk__in={int(p[1]) for p in parts.values()}).prefetch_related(
            "seats__player"
        )
        by_pk = {table.pk: table for table in tables}
        cycles = {(c.table_id, c.number): c for c in Cycle.objects.filter(table__in=tables)}
        named = {}
        for key, (_source, table_id, kind, number) in parts.items():
            table = by_pk.get(int(table_id))
            if table is None:
                continue
            game = registry.game(table.game)
            part = (
                game.presenter.sheet_title(cycles[table.pk, int(number)])
                if kind == "cycle"
                else _("deal %(number)s") % {"number": number}
            )
            named[key] = Named(title=f"{table.shown_name} · {part}")
        return named


def deal_result_changed(sender, deal, **kwargs) -> None:
    """A casual table's deal finished, or was reopened (``games.signals``): the game's
    ratings follow."""
    services.rerate(deal.table.game, f"{CasualTables.name}:{deal.table_id}:")
