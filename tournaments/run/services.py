"""The writes of a tournament's run: its entrants enter and withdraw, its rounds are planned,
drawn as a draft, changed and released, a table is started here; as every write, in one
transaction with an audit entry, the tournament's listeners told after commit."""

from django.db import transaction
from django.utils.translation import gettext_noop

from club.members import clean_name
from club.models import Player
from club.services import ServiceError, Stale, add_player
from games import registry
from games.services import start_table

from .. import seating
from ..check_in import selectors as check_in
from ..document import MOST_ROUNDS
from ..duplicate.deals import deal_seeds
from ..models import Bye, Entrant, ReportedRow, Round, RoundTable, TableSeat, Tournament
from ..services import EntryRefused, TournamentError, audit, notify_on_commit
from ..sheets import planned_deals
from .selectors import has_played


def add_entrant(*, tournament: Tournament, player, user) -> Entrant:
    """A club player (or a new name) enters; seated from the next round not yet drawn."""
    return add_entrants(tournament=tournament, players=[player], user=user)[0]


def add_entrants(*, tournament: Tournament, players: list, user) -> list[Entrant]:
    """Club players (``Player``) and names (a club player's, or a new one's) enter in this
    order, all or none; seated from the next round not yet drawn, and refused once every
    planned round has been drawn (he would play none). ``EntryRefused`` names the first
    entry at fault."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.rounds.count() >= locked.rounds_planned:
            raise TournamentError(
                gettext_noop(
                    "Every planned round has been seated: plan one more round before entering "
                    "a late entrant."
                )
            )
        names = []
        for index, entry in enumerate(players):
            try:
                names.append(entry.name if isinstance(entry, Player) else clean_name(entry))
            except ServiceError as exc:
                raise EntryRefused(index, exc.message, **exc.params) from None
        keys = [Player.key_of(name) for name in names]
        club = {player.key: player for player in Player.objects.filter(key__in=keys)}
        entered = set(locked.entrants.values_list("player__key", flat=True))
        seen: dict[str, str] = {}  # key: the name as it enters
        for index, (key, name) in enumerate(zip(keys, names, strict=True)):
            name = club[key].name if key in club else name
            if key in seen:
                raise EntryRefused(
                    index, gettext_noop("%(name)s is already on this list."), name=seen[key]
                )
            if key in entered:
                raise EntryRefused(index, gettext_noop("%(name)s has already entered."), name=name)
            seen[key] = name
        number, joined = locked.entrants.count(), locked.rounds.count() + 1
        entrants = []
        for index, (entry, key, name) in enumerate(zip(players, keys, names, strict=True)):
            try:  # a new name that looks like a club player's is refused
                player = (
                    entry
                    if isinstance(entry, Player)
                    else (club.get(key) or add_player(name=name, by=user))
                )
            except ServiceError as exc:
                raise EntryRefused(index, exc.message, **exc.params) from None
            number += 1
            entrants.append(
                Entrant.objects.create(
                    tournament=locked, player=player, number=number, joined_round=joined
                )
            )
            audit(user, "tournament.enter", locked, player=player.pk, name=player.name)
        notify_on_commit(locked)
    return entrants


def locked_entrant(entrant: Entrant, rounds_seen: int | None) -> tuple[Tournament, Entrant]:
    """The entrant and his tournament, locked as ``draw_round`` locks it (a round is not
    drawn half way through a change of its entrants); refused if a round has been drawn
    since the page showed ``rounds_seen`` rounds, as what it offered meant those."""
    tournament = Tournament.objects.select_for_update().get(pk=entrant.tournament_id)
    locked = (
        Entrant.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk=entrant.pk, tournament=tournament)
        .first()
    )
    if locked is None:
        raise Stale(gettext_noop("This entrant is no longer in the tournament."))
    drawn = tournament.rounds.count()
    if rounds_seen is not None and rounds_seen != drawn:
        raise Stale(
            gettext_noop("Round %(number)s has been seated since this page was shown: look again."),
            number=drawn,
        )
    return tournament, locked


def withdraw(*, entrant: Entrant, user, rounds_seen: int | None = None) -> Entrant:
    """Not seated from the next round drawn; his results stand and still count for his
    opponents. One who has not played is removed instead (``remove_entrant``)."""
    with transaction.atomic():
        tournament, locked = locked_entrant(entrant, rounds_seen)
        if locked.withdrawn_after is not None:
            raise TournamentError(
                gettext_noop("%(name)s has already withdrawn."), name=str(locked.player)
            )
        if not has_played(locked):
            raise TournamentError(
                gettext_noop("%(name)s has not played yet: remove the entry instead."),
                name=str(locked.player),
            )
        locked.withdrawn_after = tournament.rounds.count()
        locked.save(update_fields=["withdrawn_after"])
        audit(
            user, "tournament.withdraw", tournament, entrant=locked.pk, after=locked.withdrawn_after
        )
        notify_on_commit(tournament, seat_pages=True)
    return locked


def undo_withdrawal(*, entrant: Entrant, user, rounds_seen: int | None = None) -> Entrant:
    """A withdrawn entrant plays again: he is seated from the next round drawn, and the
    rounds he missed stay without him."""
    with transaction.atomic():
        tournament, locked = locked_entrant(entrant, rounds_seen)
        if locked.withdrawn_after is None:
            raise TournamentError(
                gettext_noop("%(name)s has not withdrawn."), name=str(locked.player)
            )
        after, locked.withdrawn_after = locked.withdrawn_after, None
        locked.save(update_fields=["withdrawn_after"])
        audit(user, "tournament.withdraw.undo", tournament, entrant=locked.pk, after=after)
        notify_on_commit(tournament, seat_pages=True)
    return locked


def remove_entrant(*, entrant: Entrant, user, rounds_seen: int | None = None) -> None:
    """An entry made by mistake, before its player has played, is taken back: he may enter
    again later. The later entrants' numbers close the gap (the seating reads them)."""
    with transaction.atomic():
        tournament, locked = locked_entrant(entrant, rounds_seen)
        if has_played(locked):
            raise TournamentError(
                gettext_noop("%(name)s has already played: the entry stays, withdraw instead."),
                name=str(locked.player),
            )
        number = locked.number
        locked.delete()
        # one by one, upwards: each number is free when it is taken (numbers are unique)
        for later in tournament.entrants.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number"])
        audit(
            user, "tournament.remove", tournament, player=locked.player_id, name=locked.player.name
        )
        notify_on_commit(tournament, seat_pages=True)


def play_here(*, table: RoundTable, user, devices: bool | list[int] = False) -> RoundTable:
    """Start a table of a released round as a hotseat table: its players in seat order, the
    tournament's options. Its sheet then fills itself from its deals. ``devices``: every
    seat is played on its player's own device (its link on his page), not at one screen;
    or the seats (by position, from 0) so played, the others at the shared screen."""
    with transaction.atomic():
        locked = (
            RoundTable.objects.select_for_update()
            .select_related("round__tournament")
            .get(pk=table.pk)
        )
        tournament = locked.round.tournament
        if not locked.round.released:
            raise TournamentError(gettext_noop("The round has not been released yet."))
        if (
            locked.hotseat_id is not None
            or locked.rows.exists()
            or ReportedRow.objects.filter(table=locked).exists()
        ):
            raise TournamentError(gettext_noop("This table's sheet has already begun."))
        players = [
            seat.entrant.player
            for seat in locked.seats.select_related("entrant__player").order_by("position")
        ]
        parts = registry.tournament(tournament.game)
        options = parts.table_options(tournament.options, len(players))
        try:
            locked.hotseat = start_table(
                user=user,
                game=tournament.game,
                players=players,
                options=options,
                devices=range(len(players)) if devices is True else devices or (),
                deal_seeds=round_seeds(tournament, locked.round.number, len(players)),
            )
        except ServiceError as exc:  # the games' refusal, shown as the tournament's
            raise TournamentError(exc.message, **exc.params) from None
        locked.save(update_fields=["hotseat"])
        audit(
            user,
            "tournament.play_here",
            tournament,
            table=locked.pk,
            hotseat=locked.hotseat.token,
            devices=devices,
        )
        notify_on_commit(tournament)
    return locked


def round_seeds(tournament: Tournament, round_number: int, seats: int) -> list[int]:
    """A duplicate round's deals for a table of ``seats`` (none for any other tournament)."""
    if not tournament.duplicate:
        return []
    return deal_seeds(tournament.seed, round_number, seats, planned_deals(tournament, seats))


def plan_round(*, tournament: Tournament, user, planned_seen: int | None) -> Tournament:
    """One more round planned, once every planned round has been seated: a finished
    tournament is under way again, its next round checked in for, entered for and drawn as
    any other. ``planned_seen``: the rounds planned the page showed (Stale if they have
    changed since: a second click plans nothing more)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if planned_seen != locked.rounds_planned:
            raise Stale(
                gettext_noop(
                    "The tournament now has %(count)s rounds planned: this page showed "
                    "another plan. Look again."
                ),
                count=locked.rounds_planned,
            )
        seated = locked.rounds.count()
        if seated < locked.rounds_planned:
            raise TournamentError(
                gettext_noop("Round %(number)s is planned and not seated yet: seat it first."),
                number=seated + 1,
            )
        if locked.rounds_planned >= MOST_ROUNDS:
            raise TournamentError(
                gettext_noop("A tournament has at most %(count)s rounds."), count=MOST_ROUNDS
            )
        locked.rounds_planned += 1
        locked.save(update_fields=["rounds_planned"])
        audit(user, "tournament.plan_round", locked, rounds_planned=locked.rounds_planned)
        notify_on_commit(locked, seat_pages=True)
    return locked


def draw_round(*, tournament: Tournament, user) -> Round:
    """The next round's seating as a draft (the tournament's method, from its seed, the
    entrants still in and the rounds so far), for the director to look at, change and
    release."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        rounds = list(locked.rounds.order_by("number"))
        if rounds and not rounds[-1].released:
            raise TournamentError(
                gettext_noop("Round %(number)s is still a draft: release it first."),
                number=rounds[-1].number,
            )
        if len(rounds) >= locked.rounds_planned:
            raise TournamentError(
                gettext_noop("All %(count)s planned rounds have been seated."),
                count=locked.rounds_planned,
            )
        number = len(rounds) + 1
        present = check_in.checked_in(locked, number)
        entrants = check_in.seated(list(locked.entrants.order_by("number")), number, present)
        round_ = Round.objects.create(tournament=locked, number=number, released=False)
        seat_draft(locked, round_, entrants)
        audit(user, "round.draw", locked, round=number, checked_in=bool(present))
        notify_on_commit(locked, seat_pages=True)
    return round_


def seat_draft(tournament: Tournament, round_: Round, entrants: list[Entrant]) -> None:
    """The draft's tables and byes for ``entrants`` (in entry order), drawn by the
    tournament's method from its seed and the rounds before this one. Only the entrants
    given are placed: one checked out of the round has neither a table nor a bye."""
    number = round_.number
    parts = registry.tournament(tournament.game)
    sizes = parts.table_sizes(len(entrants))
    if not sizes:
        raise TournamentError(
            gettext_noop("%(count)s entrants are too few for a table of this game."),
            count=len(entrants),
        )
    by_number = {e.number: e for e in entrants}
    swiss = tournament.seating == Tournament.Seating.SWISS and number > 1
    seated = seating.seat_round(
        method=tournament.seating,
        sizes=sizes,
        entrants=list(by_number),
        history=seating_history(tournament, before=number),
        rounds_planned=tournament.rounds_planned,
        standings=standings_order(tournament, by_number) if swiss else None,
        round_number=number,
        seed=tournament.seed,
    )
    for index, table in enumerate(seated.tables, start=1):
        row_table = RoundTable.objects.create(round=round_, number=index)
        TableSeat.objects.bulk_create(
            TableSeat(table=row_table, position=seat, entrant=by_number[n])
            for seat, n in enumerate(table)
        )
    Bye.objects.bulk_create(Bye(round=round_, entrant=by_number[n]) for n in seated.byes)


def seating_history(tournament: Tournament, before: int | None = None) -> list[seating.Round]:
    """The rounds so far (those before round ``before``, if given) as the seating code sees
    them: entry numbers (3 queries)."""
    history = []
    rounds = tournament.rounds.order_by("number")
    if before is not None:
        rounds = rounds.filter(number__lt=before)
    for round_ in rounds.prefetch_related("tables__seats__entrant", "byes__entrant"):
        history.append(
            seating.Round(
                tables=[
                    [seat.entrant.number for seat in table.seats.all()]
                    for table in round_.tables.all()
                ],
                byes=[bye.entrant.number for bye in round_.byes.all()],
            )
        )
    return history


def standings_order(tournament: Tournament, by_number: dict) -> list[int]:
    """The entrants still in, best first, as entry numbers (for Swiss)."""
    from .. import selectors  # reads, not writes: imported where needed

    number_of = {entrant.player.name: n for n, entrant in by_number.items()}
    return [
        number_of[row.player]
        for row in selectors.standings(tournament).rows
        if row.player in number_of
    ]


def swap(*, round_: Round, first: Entrant, second: Entrant, user) -> Round:
    """Exchange two entrants' places (a seat or a bye) in a draft round."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
        if locked.released:
            raise TournamentError(gettext_noop("A released round is no longer changed."))
        exchange(locked, first, second)
        audit(
            user,
            "round.swap",
            locked.tournament,
            round=locked.number,
            entrants=[first.pk, second.pk],
        )
        notify_on_commit(locked.tournament)
    return locked


def exchange(round_: Round, first: Entrant, second: Entrant) -> None:
    """The two entrants' places (a seat or a bye) in the round exchanged; refused if either
    is not in it."""
    places = {}
    for entrant in (first, second):
        seat = TableSeat.objects.filter(table__round=round_, entrant=entrant).first()
        bye = Bye.objects.filter(round=round_, entrant=entrant).first()
        if seat is None and bye is None:
            raise TournamentError(
                gettext_noop("%(name)s is not in this round."), name=str(entrant.player)
            )
        places[entrant.pk] = seat or bye
    if first.pk != second.pk:
        a, b = places[first.pk], places[second.pk]
        a.delete()  # both first: a table's seats and a round's byes are unique
        b.delete()
        for place, entrant in ((a, second), (b, first)):
            place.pk, place.entrant = None, entrant
            place.save()


def release_round(*, round_: Round, user) -> Round:
    """The draft becomes the round: its tables may be played and their sheets entered."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
        if locked.released:
            raise TournamentError(
                gettext_noop("Round %(number)s is already released."), number=locked.number
            )
        locked.released = True
        locked.save(update_fields=["released"])
        audit(user, "round.release", locked.tournament, round=locked.number)
        notify_on_commit(locked.tournament, seat_pages=True)
    return locked
