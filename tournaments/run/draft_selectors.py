"""How good the draft round's seating is, for its directors: each table's players who met
before (and in which rounds), the repeats of the round and of the tournament, the fewest
possible where a bound is known, and what a swap would make of them
(``run.draft_repeats``; docs/rules/tournaments.md, "Repeats of a draft")."""

from dataclasses import dataclass

from .. import seating
from ..models import Bye, TableSeat, Tournament
from . import draft_repeats


@dataclass(frozen=True)
class Seated:
    """The tournament's rounds as entrant ids: those released in order, then the draft."""

    history: list[seating.Round]
    draft: seating.Round | None
    number: int  # the draft's round number (or the next one's)
    names: dict[int, str]


def seated_rounds(tournament: Tournament) -> Seated:
    """Every round's tables (seat order) and byes by entrant id (3 queries)."""
    rounds: dict[int, seating.Round] = {}
    released: dict[int, bool] = {}
    tables: dict[int, list[int]] = {}
    for number, is_released, table, entrant in (
        TableSeat.objects.filter(table__round__tournament=tournament)
        .order_by("table__round__number", "table__number", "position")
        .values_list("table__round__number", "table__round__released", "table_id", "entrant_id")
    ):
        round_ = rounds.setdefault(number, seating.Round([]))
        released[number] = is_released
        if table not in tables:
            tables[table] = []
            round_.tables.append(tables[table])
        tables[table].append(entrant)
    for number, is_released, entrant in (
        Bye.objects.filter(round__tournament=tournament)
        .order_by("round__number", "entrant__number")
        .values_list("round__number", "round__released", "entrant_id")
    ):
        rounds.setdefault(number, seating.Round([])).byes.append(entrant)
        released[number] = is_released
    names = dict(tournament.entrants.values_list("pk", "player__name"))
    ordered = [rounds[number] for number in sorted(rounds)]
    draft = None
    if ordered and not released[max(rounds)]:
        draft = ordered.pop()
    return Seated(ordered, draft, len(ordered) + 1, names)


@dataclass(frozen=True)
class RepeatLine:
    """Two players of a table who met before: "Анна and Борис, round 1"."""

    first: str
    second: str
    rounds: tuple[int, ...]


@dataclass(frozen=True)
class DraftQuality:
    number: int
    tables: list[list[RepeatLine]]  # by table of the draft
    round_total: int  # the repeats this round adds
    total: int  # the tournament's with this round
    players: int  # seated at its tables
    fewest: int  # at least this many repeats any seating of the round adds (a lower bound)

    @property
    def before(self) -> int:
        return self.total - self.round_total


def quality(seated: Seated) -> DraftQuality | None:
    """The draft's repeats as its page lists them; None without a draft."""
    if seated.draft is None:
        return None
    found = draft_repeats.draft_repeats(seated.history, seated.draft)
    names = seated.names
    return DraftQuality(
        number=seated.number,
        tables=[
            [RepeatLine(names[r.first], names[r.second], r.rounds) for r in table]
            for table in found.tables
        ],
        round_total=found.round_total,
        total=found.total,
        players=len(seated.draft.players()),
        fewest=fewest_repeats(seated.history, seated.draft),
    )


def fewest_repeats(history: list[seating.Round], draft: seating.Round) -> int:
    """The fewest repeats any round at the draft's tables, of the players at them, can add
    to the rounds before it: a lower bound (``seating.least_repeats``), which the best
    seating may not reach."""
    players = draft.players()
    least = seating.least_repeats(
        sizes=[len(table) for table in draft.tables],
        rounds=1,
        entrants=players,
        history=history,
    )
    return least - seating.repeats(history)


@dataclass(frozen=True)
class SwapPreview:
    first: str
    second: str
    round_total: int  # after the swap
    was: int
    total: int
    total_was: int

    @property
    def change(self) -> int:
        return self.round_total - self.was


def swap_preview(seated: Seated, first: int, second: int) -> SwapPreview | None:
    """What swapping the two entrants in the draft does to its repeats (nothing is
    changed); None without a draft, or if either is not in it."""
    if seated.draft is None:
        return None
    placed = set(seated.draft.players()) | set(seated.draft.byes)
    if first not in placed or second not in placed:
        return None
    now = draft_repeats.draft_repeats(seated.history, seated.draft)
    after = draft_repeats.draft_repeats(
        seated.history, draft_repeats.swapped(seated.draft, first, second)
    )
    return SwapPreview(
        seated.names[first],
        seated.names[second],
        after.round_total,
        now.round_total,
        after.total,
        now.total,
    )
