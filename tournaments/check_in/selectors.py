"""Who is here tonight: the entrants checked in for the round not yet released, as the run
page, the projector and a player's own pages show it (docs/rules/tournaments.md,
"Check-in").

Check-in is for the first round not yet released: the draft's, or the next one to draw.
It switches itself on: once anyone still in is checked in for a round, only those checked
in are seated in it; with nobody checked in, everyone still in is, as without check-in."""

from dataclasses import dataclass

from games.selectors import tournament_table

from ..models import Bye, CheckIn, Entrant, Round, TableSeat, Tournament


def check_in_round(tournament: Tournament, released: int) -> int | None:
    """The round check-in is for, after ``released`` released rounds; None once every
    planned round has been released."""
    number = released + 1
    return number if number <= tournament.rounds_planned else None


def still_in(entrants: list[Entrant], number: int) -> list[Entrant]:
    """The entrants who may play round ``number``: entered for it, and not withdrawn
    before it (one who withdrew while it was a draft plays it)."""
    return [
        e
        for e in entrants
        if e.joined_round <= number and (e.withdrawn_after is None or e.withdrawn_after >= number)
    ]


def checked_in(tournament: Tournament, number: int) -> set[int]:
    """The entrants (ids) checked in for round ``number`` (1 query)."""
    return set(
        CheckIn.objects.filter(tournament=tournament, round=number).values_list(
            "entrant_id", flat=True
        )
    )


def seated(entrants: list[Entrant], number: int, present: set[int]) -> list[Entrant]:
    """Whom round ``number`` seats, in the order given: those still in and checked in,
    once anyone still in is; otherwise everyone still in."""
    eligible = still_in(entrants, number)
    here = [e for e in eligible if e.pk in present]
    return here if here else eligible


def drafted(round_id: int) -> set[int]:
    """The entrants (ids) a draft round seats or gives a bye (2 queries)."""
    return set(
        TableSeat.objects.filter(table__round_id=round_id).values_list("entrant_id", flat=True)
    ) | set(Bye.objects.filter(round_id=round_id).values_list("entrant_id", flat=True))


@dataclass(frozen=True)
class Mark:
    entrant: Entrant
    present: bool

    @property
    def name(self) -> str:
        return self.entrant.player.name


@dataclass
class CheckInList:
    """The check-in for round ``number``: every entrant still in for it, marked present or
    not, and (while it is a draft) who the draft seats."""

    number: int
    marks: list[Mark]
    drafted: set[int] | None = None  # entrant ids the draft seats (or gives a bye)

    @property
    def present(self) -> list[Entrant]:
        return [mark.entrant for mark in self.marks if mark.present]

    @property
    def count(self) -> int:
        return len(self.present)

    @property
    def total(self) -> int:
        return len(self.marks)

    @property
    def in_use(self) -> bool:
        """Someone still in is checked in: only those checked in are seated."""
        return bool(self.present)

    @property
    def everyone(self) -> bool:
        return bool(self.marks) and all(mark.present for mark in self.marks)

    @property
    def seats(self) -> list[Entrant]:
        """Whom a draw of the round seats now."""
        return self.present if self.in_use else [mark.entrant for mark in self.marks]

    @property
    def late(self) -> list[Entrant]:
        """Seated by a draw now, but not in the draft: checked in after it was drawn."""
        if self.drafted is None:
            return []
        return [e for e in self.seats if e.pk not in self.drafted]

    @property
    def gone(self) -> list[Entrant]:
        """In the draft, but not seated by a draw now: checked out since it was drawn."""
        if self.drafted is None:
            return []
        now = {e.pk for e in self.seats}
        return [mark.entrant for mark in self.marks if mark.entrant.pk in self.drafted - now]

    @property
    def redraw(self) -> bool:
        """The draft no longer seats whom a draw would: it may be drawn again."""
        return bool(self.late or self.gone)


def check_in_list(
    tournament: Tournament,
    entrants: list[Entrant],
    released: int,
    drafted: set[int] | None = None,
) -> CheckInList | None:
    """The check-in for the first round not yet released, from the tournament's entrants
    (with their players) and its released rounds; None once every round is released
    (1 query)."""
    number = check_in_round(tournament, released)
    if number is None:
        return None
    present = checked_in(tournament, number)
    marks = [Mark(e, e.pk in present) for e in still_in(entrants, number)]
    return CheckInList(number, marks, drafted)


@dataclass(frozen=True)
class Offer:
    """The player's own check-in button for one tournament, and where its check-in stands."""

    entrant: Entrant
    number: int  # the round
    present: bool
    drafted: bool  # the round has been drawn (a draft): checking in now needs a redraw
    count: int  # the entrants still in for the round who are checked in, he among them
    total: int  # the entrants still in for the round


def offer(entrant: Entrant, entrants: list[Entrant], number: int, present: set[int], drafted):
    """``entrant``'s offer for round ``number``, among the tournament's ``entrants``, those
    of ``present`` checked in for it."""
    eligible = still_in(entrants, number)
    count = sum(1 for e in eligible if e.pk in present)
    return Offer(entrant, number, entrant.pk in present, drafted, count, len(eligible))


def own_offers(user, shown: list) -> dict[int, Offer]:
    """By tournament id, the check-in the signed-in ``user`` may make for himself, the
    entrant who is his own club player, in each of ``shown``: (tournament, its
    ``selectors.Played`` of the released rounds, entrants with their players) (2 queries;
    none for a visitor, or where he has nothing to check in for)."""
    if not getattr(user, "is_authenticated", False):
        return {}
    wanted: dict[int, tuple[Entrant, int, list[Entrant]]] = {}
    for tournament, played_ in shown:
        number = check_in_round(tournament, len(played_.rounds))
        mine = [e for e in played_.entrants if e.player.user_id == user.pk]
        if number is not None and still_in(mine, number):
            wanted[tournament.pk] = (mine[0], number, played_.entrants)
    if not wanted:
        return {}
    present: dict[tuple[int, int], set[int]] = {}
    for tournament_id, number, entrant_id in CheckIn.objects.filter(
        tournament__in=list(wanted)
    ).values_list("tournament_id", "round", "entrant_id"):
        present.setdefault((tournament_id, number), set()).add(entrant_id)
    drafts = set(
        Round.objects.filter(tournament__in=list(wanted), released=False).values_list(
            "tournament_id", flat=True
        )
    )
    return {
        pk: offer(entrant, entrants, number, present.get((pk, number), set()), pk in drafts)
        for pk, (entrant, number, entrants) in wanted.items()
    }


def seat_stamp(seat) -> list[int]:
    """The version of what a seat's own page shows of check-in, as its live page compares
    it (``games.selectors.seat_page_part``): the tournament's as it is now (a query), at a
    tournament's table; nothing at any other."""
    round_table = tournament_table(seat.table)
    if round_table is None:
        return []
    tournament = round_table.round.tournament_id
    return [Tournament.objects.values_list("version", flat=True).get(pk=tournament)]


def seat_offer(seat) -> Offer | None:
    """The check-in a seat's own page offers its player, ``seat`` as that page reads it
    (``games.selectors.seat_by_key``): at a table of a tournament played on his device,
    for the round check-in is for, if he is still in for it (no query at a table of no
    tournament; 3 at one)."""
    round_table = tournament_table(seat.table)
    if round_table is None:
        return None
    # the seat with its player, as the page read the table's seats
    place = next((s for s in seat.table.seats.all() if s.pk == seat.pk), seat)
    if not place.device or place.player_id is None:
        return None
    tournament = round_table.round.tournament
    rounds = list(tournament.rounds.values_list("released", flat=True))
    number = check_in_round(tournament, sum(rounds))
    if number is None:
        return None
    entrants = list(Entrant.objects.select_related("player").filter(tournament=tournament))
    entrant = next((e for e in entrants if e.player_id == place.player_id), None)
    if entrant is None or not still_in([entrant], number):
        return None
    entrant.tournament = tournament
    return offer(entrant, entrants, number, checked_in(tournament, number), not all(rounds))
