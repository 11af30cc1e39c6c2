"""Reads of a tournament that pages, commands and exports share, each at a fixed number of
queries however many rounds, tables and rows it has."""

import functools
from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction

from django.db.models import F

from games import registry

from .addresses import key_lookup
from .document import Document
from .document import Round as DocumentRound
from .document import Table as DocumentTable
from .duplicate.results import Deal as DuplicateDeal
from .duplicate.results import Ruling, scored_deals, scored_rows
from .duplicate.scoring import Tally
from .models import (
    Adjustment,
    Bye,
    DealRuling,
    Entrant,
    RoundTable,
    SheetRow,
    TableSeat,
    Tournament,
)
from .sheets import sum_sheet
from .standings import Round as StandingsRound
from .standings import Standings
from .standings import Table as StandingsTable
from .standings import standings as compute_standings


def tournament_by_key(key: str) -> Tournament:
    """The tournament of this key or former key, with its season; Tournament.DoesNotExist
    if there is none."""
    return Tournament.objects.select_related("season").get(key_lookup(key))


@dataclass
class Played:
    """A tournament as it has been played: its entrants and every round's tables (their
    players and sheets) and byes, by name — the document's shape."""

    tournament: Tournament
    entrants: list[Entrant]
    rounds: list[DocumentRound]
    tables: list[list[RoundTable]]  # the models behind ``rounds``' tables, round by round
    released: list[bool]  # by round: a draft is the director's until he releases it
    # a duplicate tournament's rulings on deals: (table id, deal, seat, kind)
    rulings: list[tuple[int, int, int | None, str]] = field(default_factory=list)

    def released_only(self) -> "Played":
        """Without the draft round: the public sees neither its seating nor its byes."""
        if all(self.released):
            return self  # its deals' results, once scored, kept for the next reader
        keep = [i for i, flag in enumerate(self.released) if flag]
        return Played(
            self.tournament,
            self.entrants,
            [self.rounds[i] for i in keep],
            [self.tables[i] for i in keep],
            [True] * len(keep),
            self.rulings,
        )

    def deal_rulings(self) -> list[Ruling]:
        """The rulings on the deals of the rounds held here, their tables by index in the
        round (as ``duplicate_deals`` takes them)."""
        where = {
            table.pk: (number, index)
            for number, tables in enumerate(self.tables, start=1)
            for index, table in enumerate(tables)
        }
        return [
            Ruling(*where[table_id], deal, seat, kind)
            for table_id, deal, seat, kind in self.rulings
            if table_id in where
        ]

    def disclosed(self) -> "Played":
        """What anyone may see: the released rounds, and of a duplicate tournament the rows
        of its scored deals alone (a table counts once all its deals are scored), so that
        nothing tells a result of a deal still to be played elsewhere."""
        shown = self.released_only()
        if not self.tournament.duplicate:
            return shown
        return replace(shown, rounds=scored_only(self.tournament, shown.rounds))

    @functools.cached_property
    def duplicate_tallies(self) -> dict[int, Tally]:
        """A duplicate tournament's figures of its scored deals, round by round (by number,
        players by name): scored once for its standings and its places chart."""
        rounds = scored_only(self.tournament, self.rounds)
        found: dict[int, Tally] = defaultdict(Tally)
        for deal in duplicate_deals(self.tournament, rounds, self.deal_rulings()):
            found[deal.group.round].add(deal.board)
        return found


def played(tournament: Tournament) -> Played:
    """Every round, table, seat, row and bye (6 queries; 7 for a duplicate tournament, its
    rulings on deals). Seats, rows and byes are read as
    plain values: a big tournament has thousands of them."""
    return played_of(
        [tournament], {tournament.pk: list(tournament.entrants.select_related("player"))}
    )[0]


def played_of(
    tournaments: list[Tournament], entrants: dict[int, list[Entrant]], released_only: bool = False
) -> list[Played]:
    """``Played`` of each tournament (5 queries however many; 6 with a duplicate one, its
    rulings), from their entrants."""
    from .models import Round as RoundModel

    ids = [t.pk for t in tournaments]
    rounds = RoundModel.objects.filter(tournament__in=ids).order_by("tournament", "number")
    if released_only:
        rounds = rounds.filter(released=True)
    rounds = list(rounds)
    round_ids = [r.pk for r in rounds]
    tables: dict[int, list[RoundTable]] = {}
    for table in (
        RoundTable.objects.filter(round__in=round_ids)
        .order_by("round", "number")
        .annotate(watch_key=F("hotseat__watch_key"))
    ):
        tables.setdefault(table.round_id, []).append(table)
    seats: dict[int, list[int]] = {}
    for table_id, entrant_id in (
        TableSeat.objects.filter(table__round__in=round_ids)
        .order_by("table", "position")
        .values_list("table_id", "entrant_id")
    ):
        seats.setdefault(table_id, []).append(entrant_id)
    rows: dict[int, list[dict]] = {}
    for table_id, data in (
        SheetRow.objects.filter(table__round__in=round_ids)
        .order_by("table", "index")
        .values_list("table_id", "data")
    ):
        rows.setdefault(table_id, []).append(data)
    byes: dict[int, list[int]] = {}
    for round_id, entrant_id in (
        Bye.objects.filter(round__in=round_ids)
        .order_by("entrant__number")
        .values_list("round_id", "entrant_id")
    ):
        byes.setdefault(round_id, []).append(entrant_id)
    rulings: dict[int, list[tuple[int, int, int | None, str]]] = {}
    if any(t.duplicate for t in tournaments):
        for tournament_id, *ruling in (
            DealRuling.objects.filter(table__round__in=round_ids)
            .order_by("pk")
            .values_list("table__round__tournament_id", "table_id", "deal", "seat", "kind")
        ):
            rulings.setdefault(tournament_id, []).append(tuple(ruling))
    result = []
    for tournament in tournaments:
        names = {entrant.pk: entrant.player.name for entrant in entrants[tournament.pk]}
        parts = registry.tournament(tournament.game)
        mine = [r for r in rounds if r.tournament_id == tournament.pk]
        shown, models = [], []
        for round_ in mine:
            models.append(tables.get(round_.pk, []))
            shown.append(
                DocumentRound(
                    tables=[
                        table_sheet(
                            parts,
                            tournament,
                            [names[e] for e in seats.get(t.pk, [])],
                            rows.get(t.pk, []),
                        )
                        for t in models[-1]
                    ],
                    byes=[names[e] for e in byes.get(round_.pk, [])],
                )
            )
        released = [r.released for r in mine]
        found = Played(
            tournament,
            entrants[tournament.pk],
            shown,
            models,
            released,
            rulings.get(tournament.pk, []),
        )
        result.append(found.disclosed() if released_only else found)
    return result


def scored_only(tournament: Tournament, rounds: list[DocumentRound]) -> list[DocumentRound]:
    """A duplicate tournament's released rounds with the rows of their scored deals alone:
    a round is over once a later one is released."""
    parts = registry.tournament(tournament.game)
    shown = scored_rows(rounds, over=len(rounds) - 1)
    return [
        DocumentRound(
            tables=[
                table
                if len(table.rows) == count
                else table_sheet(parts, tournament, table.players, table.rows[:count])
                for table, count in zip(round_.tables, counts, strict=True)
            ],
            byes=round_.byes,
        )
        for round_, counts in zip(rounds, shown, strict=True)
    ]


def duplicate_deals(
    tournament: Tournament, rounds: list[DocumentRound], rulings: list[Ruling]
) -> list[DuplicateDeal]:
    """The scored deals of ``rounds`` (their rows those of scored deals alone:
    ``scored_only``), each with its group, its tables' rows and the directors' ``rulings``
    on it (``Played.deal_rulings``); tables by their index in the round, players by name
    (no query)."""
    parts = registry.tournament(tournament.game)

    def points(round_index: int, table_index: int, row: dict) -> list[int]:
        seats = len(rounds[round_index].tables[table_index].players)
        return parts.row_points(
            row,
            seats=seats,
            options=parts.table_options(tournament.options, seats),
            settings=tournament.game_settings,
        )

    return scored_deals(rounds, points, over=len(rounds), rulings=rulings)


def table_sheet(parts, tournament: Tournament, players: list[str], rows: list[dict]):
    """A table's players and sheet: its rows were checked when they were saved, so they
    are only added up here."""
    sheet = sum_sheet(
        parts,
        rows,
        seats=len(players),
        options=tournament.options,
        settings=tournament.game_settings,
    )
    return DocumentTable(players, sheet.rows, sheet.points, sheet.complete)


def document_of(tournament: Tournament, played_: Played | None = None) -> Document:
    """The tournament document: importing it again gives the same standings."""
    played_ = played_ or played(tournament)
    return Document(
        name=tournament.name,
        date=tournament.date,
        game=tournament.game,
        options=tournament.options,
        settings=tournament.game_settings,
        rounds_planned=tournament.rounds_planned,
        seating=tournament.seating,
        seed=tournament.seed,
        bye_points=Fraction(tournament.bye_points),
        order=tournament.order,
        duplicate=tournament.duplicate,
        players=[entrant.player.name for entrant in played_.entrants],
        rounds=played_.rounds,
        rulings=[
            {
                "round": ruling.table.round.number,
                "table": ruling.table.number,
                "deal": ruling.deal,
                "seat": ruling.seat,
                "ruling": ruling.kind,
                "reason": ruling.reason,
            }
            for ruling in DealRuling.objects.filter(table__round__tournament=tournament)
            .select_related("table__round")
            .order_by("table__round__number", "table__number", "deal", "seat")
        ]
        if tournament.duplicate
        else [],
    )


def counts(tournament: Tournament, table: RoundTable, sheet: DocumentTable) -> bool:
    """A table counts once its sheet is complete and confirmed: a typed sheet by a second
    scorer where the tournament asks for it; a sheet its players report, row by row by
    another player of the table (a row awaiting confirmation is not on the sheet yet)."""
    if not sheet.complete:
        return False
    return (
        not tournament.confirmation
        or table.hotseat_id is not None
        or table.reported
        or table.confirmed_by_id is not None
    )


def finished(played_: Played) -> bool:
    """Every planned round released, and every table of the last one counts: the standings
    are final (until the director plans one more round). ``played_`` with its draft or
    without (no query)."""
    tournament = played_.tournament
    if len(played_.rounds) < tournament.rounds_planned or not all(played_.released):
        return False
    return all(
        counts(tournament, table, sheet)
        for table, sheet in zip(played_.tables[-1], played_.rounds[-1].tables, strict=True)
    )


def standings(tournament: Tournament, played_: Played | None = None) -> Standings:
    """The standings as the rules define them, over the released rounds, with each
    entrant's round by round breakdown; adjustments add to the game points (7 queries; 8 for
    a duplicate tournament)."""
    played_ = played_ or played(tournament)
    return standings_of(played_, adjustment_totals(round_adjustments(tournament)))


def round_adjustments(tournament: Tournament) -> dict[int, dict[int, int]]:
    """The adjustments' game points by round number, then by entrant id (1 query)."""
    by_round: dict[int, dict[int, int]] = {}
    for number_, entrant_id, points in Adjustment.objects.filter(
        round__tournament=tournament
    ).values_list("round__number", "entrant_id", "points"):
        mine = by_round.setdefault(number_, {})
        mine[entrant_id] = mine.get(entrant_id, 0) + points
    return by_round


def adjustment_totals(by_round: dict[int, dict[int, int]]) -> dict[int, int]:
    """Each entrant's adjustments over every round."""
    totals: dict[int, int] = {}
    for adjustments in by_round.values():
        for entrant_id, points in adjustments.items():
            totals[entrant_id] = totals.get(entrant_id, 0) + points
    return totals


def standings_of(
    played_: Played, adjustments: dict[int, int], duplicate: dict | None = None
) -> Standings:
    """The standings of what ``played_`` holds (no query); ``adjustments`` by entrant id;
    ``duplicate``: a duplicate tournament's figures by name, when they are already known."""
    tournament = played_.tournament
    played_ = played_.released_only()
    if tournament.duplicate and duplicate is None:
        tally = Tally()
        for each in played_.duplicate_tallies.values():
            tally.add_tally(each)
        duplicate = tally.totals()
    rounds = [
        StandingsRound(
            tables=[
                StandingsTable(sheet.players, sheet.points)
                for table, sheet in zip(models, shown.tables, strict=True)
                if counts(tournament, table, sheet)
            ],
            byes=shown.byes,
        )
        for models, shown in zip(played_.tables, played_.rounds, strict=True)
    ]
    names = {entrant.pk: entrant.player.name for entrant in played_.entrants}
    return compute_standings(
        list(names.values()),
        rounds,
        bye_points=Fraction(tournament.bye_points),
        order=tournament.order,
        adjustments={names[pk]: p for pk, p in adjustments.items()},
        duplicate=duplicate,
    )


def places_by_round(
    played_: Played, adjustments: dict[int, dict[int, int]]
) -> list[dict[str, int]]:
    """After each released round, each entrant's place (the best of a shared one) by name, in
    the standings of the rounds so far with the adjustments for them (no query).
    ``adjustments`` by round number, then entrant id (``round_adjustments``); one for a round
    not yet released counts in the last released round, as the standings count it. A
    duplicate tournament's deals are scored once, as they are now: the places after a round
    count its scored deals and the earlier rounds'."""
    played_ = played_.released_only()
    tournament = played_.tournament
    count = len(played_.rounds)
    by_round = played_.duplicate_tallies if tournament.duplicate else {}
    tally = Tally()
    places = []
    for shown in range(1, count + 1):
        prefix = Played(
            played_.tournament,
            played_.entrants,
            played_.rounds[:shown],
            played_.tables[:shown],
            [True] * shown,
            played_.rulings,
        )
        so_far = adjustment_totals(
            {
                number_: points
                for number_, points in adjustments.items()
                if number_ <= shown or shown == count
            }
        )
        if shown in by_round:
            tally.add_tally(by_round[shown])
        figures = tally.totals() if tournament.duplicate else None
        places.append({row.player: row.place for row in standings_of(prefix, so_far, figures)})
    return places


def entrants_and_adjustments(
    tournaments: list[Tournament],
) -> tuple[dict[int, list[Entrant]], dict[int, dict[int, int]]]:
    """Each tournament's entrants in entry order, and its entrants' adjustments over every
    round by entrant id, both by tournament id, as ``played_of`` and ``standings_of`` take
    them (2 queries however many tournaments)."""
    entrants: dict[int, list[Entrant]] = {t.pk: [] for t in tournaments}
    for entrant in (
        Entrant.objects.filter(tournament__in=tournaments)
        .select_related("player")
        .order_by("number")
    ):
        entrants[entrant.tournament_id].append(entrant)
    adjusted: dict[int, dict[int, int]] = {}
    for tournament_id, entrant_id, points in Adjustment.objects.filter(
        round__tournament__in=tournaments
    ).values_list("round__tournament_id", "entrant_id", "points"):
        mine = adjusted.setdefault(tournament_id, {})
        mine[entrant_id] = mine.get(entrant_id, 0) + points
    return entrants, adjusted


# -- the public pages ------------------------------------------------------------------------


def tournament_list():
    """Every tournament, newest first, with ``rounds_played``: its released rounds (1 query)."""
    from django.db.models import Count, Q

    return Tournament.objects.annotate(
        rounds_played=Count("rounds", filter=Q(rounds__released=True))
    ).order_by("-date", "-created_at")


@dataclass
class Entered:
    """One of a player's tournaments: its released rounds as played, and the standings."""

    tournament: Tournament
    played: Played
    standings: Standings


def player_tournaments(player) -> list[Entered]:
    """The tournaments ``player`` entered, newest first, each with its released rounds and
    its standings (8 queries, however many tournaments, rounds and entrants; 9 with a
    duplicate one)."""
    tournaments = list(
        Tournament.objects.filter(entrants__player=player)
        .distinct()
        .order_by("-date", "-created_at")
    )
    entrants, adjusted = entrants_and_adjustments(tournaments)
    return [
        Entered(p.tournament, p, standings_of(p, adjusted.get(p.tournament.pk, {})))
        for p in played_of(tournaments, entrants, released_only=True)
    ]
