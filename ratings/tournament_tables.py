"""A tournament's results as rated matches of the club's ladders (ratings.services).

A tournament that is not duplicate: each counted table is a match, its players ranked by
their game points at the table with the director's adjustments for that round. A duplicate
tournament (docs/rules/duplicate.md): each comparison of a scored deal (one seat of one
deal of a round's group) with at least two results is a match of the players who held the
same cards, ranked by their margins; its tables are not rated as tables, since the cards
they were dealt would rate luck again."""

from collections import defaultdict
from collections.abc import Iterator, Sequence
from datetime import datetime
from fractions import Fraction
from typing import cast

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.duplicate.scoring import board_results
from tournaments.models import Adjustment, Entrant, Round, RoundTable, SheetRow, Tournament
from tournaments.selectors import Played, counts, duplicate_deals, played_of

from . import services
from .services import Match, Named

# A duplicate comparison's key: "tournament:12:duplicate:2:4:3:1" is tournament 12, round
# 2, its group of tables of four, deal 3, seat 1 (seats and deals from 1). It names the
# comparison, not who sat there, so that a rebuild finds the same match.
DUPLICATE = "duplicate"
DUPLICATE_MARK = f":{DUPLICATE}:"


def is_duplicate(key: str) -> bool:
    return DUPLICATE_MARK in key


class TournamentTables:
    name = "tournament"

    def matches(
        self, game: str, *, since: datetime | None = None, scope: str | None = None
    ) -> list[Match]:
        """The game's tournaments' matches (10 queries however many tournaments)."""
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
        entered: dict[int, dict[int, datetime]] = defaultdict(dict)  # by table, then deal
        for table_id, index, created in SheetRow.objects.filter(
            table__round__tournament__in=tournaments
        ).values_list("table_id", "index", "created_at"):
            entered[table_id][index] = created
        adjusted: dict[tuple[int, int], int] = defaultdict(int)
        for round_id, entrant_id, points in Adjustment.objects.filter(
            round__tournament__in=tournaments
        ).values_list("round_id", "entrant_id", "points"):
            adjusted[round_id, entrant_id] += points
        found: list[Match] = []
        for played in played_of(tournaments, entrants, released_only=True):
            if played.tournament.duplicate:
                found.extend(self.comparisons(played, round_numbers, entered))
            else:
                found.extend(self.tables(played, round_numbers, entered, adjusted))
        if since is not None:
            found = [m for m in found if m.completed_at >= since]
        return found

    def tables(
        self,
        played: Played,
        round_numbers: dict[int, int],
        entered: dict[int, dict[int, datetime]],
        adjusted: dict[tuple[int, int], int],
    ) -> Iterator[Match]:
        """Each counted table: completed when its last row was entered."""
        tournament = played.tournament
        by_name = {e.player.name: e for e in played.entrants}
        for tables, shown in zip(played.tables, played.rounds, strict=True):
            for table, sheet in zip(tables, shown.tables, strict=True):
                if not counts(tournament, table, sheet) or not entered.get(table.pk):
                    continue
                seated = [by_name[name] for name in sheet.players]
                yield Match(
                    key=f"{self.name}:{tournament.pk}:{table.pk}",
                    completed_at=max(entered[table.pk].values()),
                    tiebreak=(tournament.pk, round_numbers[table.round_id], table.number),
                    players=tuple(e.player_id for e in seated),
                    points=tuple(
                        int(p) + adjusted[table.round_id, e.pk]
                        for e, p in zip(seated, sheet.points, strict=True)
                    ),
                )

    def comparisons(
        self,
        played: Played,
        round_numbers: dict[int, int],
        entered: dict[int, dict[int, datetime]],
    ) -> Iterator[Match]:
        """Each comparison of a scored deal with two results or more, its results those of
        the tables neither fouled nor adjusted there: completed when the last of them was
        entered. A figure is the seat's margin times (seats − 1), a whole number ranking as
        the margin does."""
        tournament = played.tournament
        by_name = {e.player.name: e.player_id for e in played.entrants}
        for deal in duplicate_deals(tournament, played.rounds, played.deal_rulings()):
            group, board = deal.group, deal.board
            tables = played.tables[group.round - 1]
            number = round_numbers[tables[group.tables[0]].round_id]
            held: dict[int, dict[int, Fraction]] = defaultdict(dict)  # by seat, then table
            for (table, seat), scored in board_results(board).items():
                if (table, seat) not in board.adjusted:
                    held[seat][cast(int, table)] = scored.margin  # by its index in the round
            for seat, margins in sorted(held.items()):
                if len(margins) < 2:
                    continue
                at = sorted(margins)
                yield Match(
                    key=":".join(
                        str(part)
                        for part in (
                            self.name,
                            tournament.pk,
                            DUPLICATE,
                            number,
                            group.size,
                            deal.number,
                            seat + 1,
                        )
                    ),
                    completed_at=max(entered[tables[t].pk][deal.number] for t in at),
                    # the group's size and the seat in one figure: an order holds 96 characters
                    tiebreak=(tournament.pk, number, deal.number, 100 * group.size + seat + 1),
                    players=tuple(by_name[board.players[t][seat]] for t in at),
                    points=tuple(whole(margins[t] * (group.size - 1)) for t in at),
                )

    def describe(self, keys: Sequence[str]) -> dict[str, Named]:
        """Each match's name and round page (2 queries)."""
        named = {}
        tables: dict[int, str] = {}  # table id: key
        compared: dict[str, tuple[int, ...]] = {}  # key: tournament id, round, size, deal, seat
        for key in keys:
            _source, tournament, *rest = key.split(":")
            if is_duplicate(key):
                compared[key] = (int(tournament), *(int(part) for part in rest[1:]))
            else:
                tables[int(rest[0])] = key
        for table in RoundTable.objects.filter(pk__in=tables).select_related("round__tournament"):
            tournament = table.round.tournament
            named[tables[table.pk]] = Named(
                title=_("%(tournament)s, round %(round)s, table %(table)s")
                % {
                    "tournament": tournament.name,
                    "round": table.round.number,
                    "table": table.number,
                },
                url=reverse("tournament-round", args=[tournament.key, table.round.number]),
            )
        if compared:
            held = Tournament.objects.in_bulk({parts[0] for parts in compared.values()})
            for key, (pk, round_number, size, deal, seat) in compared.items():
                if pk not in held:
                    continue
                tournament = held[pk]
                named[key] = Named(
                    title=_(
                        "%(tournament)s, round %(round)s, duplicate deal %(deal)s, seat "
                        "%(seat)s at the tables of %(size)s"
                    )
                    % {
                        "tournament": tournament.name,
                        "round": round_number,
                        "deal": deal,
                        "seat": seat,
                        "size": size,
                    },
                    url=reverse("tournament-round", args=[tournament.key, round_number]),
                    duplicate=True,
                    points_scale=size - 1,
                )
        return named


def whole(figure: Fraction) -> int:
    if figure.denominator != 1:
        raise ValueError(f"a margin times (seats − 1) is a whole number, not {figure}")
    return figure.numerator


def results_changed(sender, tournament: Tournament, **kwargs) -> None:
    """A change of the tournament's results (``tournaments.signals``): the club's ratings of
    its game, in line with them now."""
    services.rerate(tournament.game, f"{TournamentTables.name}:{tournament.pk}:")
