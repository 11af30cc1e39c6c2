"""Reads of a tournament that pages, commands and exports share, each at a fixed number of
queries however many rounds, tables and rows it has."""

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Prefetch

from games import registry

from .document import Document
from .document import Round as DocumentRound
from .document import Table as DocumentTable
from .models import Adjustment, Bye, Entrant, RoundTable, SheetRow, TableSeat, Tournament
from .sheets import SheetError, check_sheet
from .standings import Round as StandingsRound
from .standings import Standings
from .standings import Table as StandingsTable
from .standings import standings as compute_standings


def tournament_by_key(key: str) -> Tournament:
    """Tournament.DoesNotExist if there is none."""
    return Tournament.objects.get(key=key)


@dataclass
class Played:
    """A tournament as it has been played: its entrants and every round's tables (their
    players and checked sheets) and byes, by name — the document's shape."""

    tournament: Tournament
    entrants: list[Entrant]
    rounds: list[DocumentRound]
    tables: list[list[RoundTable]]  # the models behind ``rounds``' tables, round by round


def played(tournament: Tournament) -> Played:
    """Every round, table, seat, row and bye (5 queries)."""
    entrants = list(tournament.entrants.select_related("player"))
    names = {entrant.pk: entrant.player.name for entrant in entrants}
    rounds = list(tournament.rounds.prefetch_related(
        Prefetch("tables", RoundTable.objects.prefetch_related(
            Prefetch("seats", TableSeat.objects.order_by("position")),
            Prefetch("rows", SheetRow.objects.order_by("index")))),
        Prefetch("byes", Bye.objects.order_by("entrant__number"))))
    parts = registry.tournament(tournament.game)
    shown, models = [], []
    for round_ in rounds:
        tables = list(round_.tables.all())
        models.append(tables)
        shown.append(DocumentRound(
            tables=[table_sheet(parts, tournament, table, names) for table in tables],
            byes=[names[bye.entrant_id] for bye in round_.byes.all()]))
    return Played(tournament, entrants, shown, models)


def table_sheet(parts, tournament: Tournament, table: RoundTable, names: dict):
    players = [names[seat.entrant_id] for seat in table.seats.all()]
    rows = [row.data for row in table.rows.all()]
    try:
        sheet = check_sheet(parts, rows, seats=len(players), options=tournament.options,
                            settings=tournament.game_settings)
    except SheetError:  # rows are checked as they are saved: this is only a safeguard
        return DocumentTable(players, rows, [0] * len(players), False)
    return DocumentTable(players, sheet.rows, sheet.points, sheet.complete)


def document_of(tournament: Tournament, played_: Played | None = None) -> Document:
    """The tournament document: importing it again gives the same standings."""
    played_ = played_ or played(tournament)
    return Document(
        name=tournament.name, game=tournament.game, options=tournament.options,
        settings=tournament.game_settings, rounds_planned=tournament.rounds_planned,
        seating=tournament.seating, seed=tournament.seed,
        bye_points=Fraction(tournament.bye_points), order=tournament.order,
        players=[entrant.player.name for entrant in played_.entrants], rounds=played_.rounds)


def counts(tournament: Tournament, table: RoundTable, sheet: DocumentTable) -> bool:
    """A table counts once its sheet is complete and, where the tournament asks for it, a
    typed sheet has been confirmed by a second scorer."""
    if not sheet.complete:
        return False
    return (not tournament.confirmation or table.hotseat_id is not None
            or table.confirmed_by_id is not None)


def standings(tournament: Tournament, played_: Played | None = None) -> Standings:
    """The standings as the rules define them, with each entrant's round by round
    breakdown; adjustments add to the game points (6 queries)."""
    played_ = played_ or played(tournament)
    rounds = [StandingsRound(
        tables=[StandingsTable(sheet.players, sheet.points)
                for table, sheet in zip(models, shown.tables, strict=True)
                if counts(tournament, table, sheet)],
        byes=shown.byes) for models, shown in zip(played_.tables, played_.rounds, strict=True)]
    adjustments: dict[str, int] = {}
    names = {entrant.pk: entrant.player.name for entrant in played_.entrants}
    for entrant_id, points in Adjustment.objects.filter(
            round__tournament=tournament).values_list("entrant_id", "points"):
        adjustments[names[entrant_id]] = adjustments.get(names[entrant_id], 0) + points
    return compute_standings([entrant.player.name for entrant in played_.entrants], rounds,
                             bye_points=Fraction(tournament.bye_points), order=tournament.order,
                             adjustments=adjustments)
