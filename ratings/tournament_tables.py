"""A tournament's counted tables as rated matches of the club's ladders (ratings.services): its
players ranked by their game points at the table, with the director's adjustments for that
round."""

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from django.db.models import Max
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Adjustment, Entrant, Round, RoundTable, SheetRow, Tournament
from tournaments.selectors import counts, played_of

from . import services
from .services import Match, Named


class TournamentTables:
    name = "tournament"

    def matches(
        self, game: str, *, since: datetime | None = None, scope: str | None = None
    ) -> list[Match]:
        tournaments = Tournament.objects.filter(game=game)
        if scope is not None:
            tournaments = tournaments.filter(pk=int(scope.split(":")[1]))
        if since is not None:
            tournaments = tournaments.filter(rounds__tables__rows__created_at__gte=since)
        tournaments = list(tournaments.distinct().order_by("pk"))
        if not tournaments:
            return []
        entrants: dict[int, list[Entrant]] = defaultdict(list)
        for entrant in (
            Entrant.objects.filter(tournament__in=tournaments)
            .select_related("player")
            .order_by("number")
        ):
            entrants[entrant.tournament_id].append(entrant)
        round_numbers = dict(
            Round.objects.filter(tournament__in=tournaments).values_list("pk", "number")
        )
        completed = dict(
            SheetRow.objects.filter(table__round__tournament__in=tournaments)
            .values("table")
            .annotate(last=Max("created_at"))
            .values_list("table", "last")
        )
        adjusted: dict[tuple[int, int], int] = defaultdict(int)
        for round_id, entrant_id, points in Adjustment.objects.filter(
            round__tournament__in=tournaments
        ).values_list("round_id", "entrant_id", "points"):
            adjusted[round_id, entrant_id] += points
        found = []
        for played in played_of(tournaments, entrants, released_only=True):
            tournament = played.tournament
            by_name = {e.player.name: e for e in played.entrants}
            for tables, shown in zip(played.tables, played.rounds, strict=True):
                for table, sheet in zip(tables, shown.tables, strict=True):
                    if not counts(tournament, table, sheet) or table.pk not in completed:
                        continue
                    seated = [by_name[name] for name in sheet.players]
                    found.append(
                        Match(
                            key=f"{self.name}:{tournament.pk}:{table.pk}",
                            completed_at=completed[table.pk],
                            tiebreak=(tournament.pk, round_numbers[table.round_id], table.number),
                            players=tuple(e.player_id for e in seated),
                            points=tuple(
                                int(p) + adjusted[table.round_id, e.pk]
                                for e, p in zip(seated, sheet.points, strict=True)
                            ),
                        )
                    )
        if since is not None:
            found = [m for m in found if m.completed_at >= since]
        return found

    def describe(self, keys: Sequence[str]) -> dict[str, Named]:
        ids = {int(key.split(":")[2]): key for key in keys}
        named = {}
        for table in RoundTable.objects.filter(pk__in=ids).select_related("round__tournament"):
            tournament = table.round.tournament
            named[ids[table.pk]] = Named(
                title=_("%(tournament)s, round %(round)s, table %(table)s")
                % {
                    "tournament": tournament.name,
                    "round": table.round.number,
                    "table": table.number,
                },
                url=reverse("tournament-round", args=[tournament.key, table.round.number]),
            )
        return named


def results_changed(sender, tournament: Tournament, **kwargs) -> None:
    """A change of the tournament's results (``tournaments.signals``): the club's ratings of
    its game, in line with them now."""
    services.rerate(tournament.game, f"{TournamentTables.name}:{tournament.pk}:")
