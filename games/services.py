"""Every write of the games app. Views, the admin and commands call these; nothing else
writes the models.

Each deal write runs in one transaction: lock the deal, check the version the page showed,
let the engine decide, append the event, refresh the snapshot cache, write the audit entry,
and tell the table's listeners once the transaction has committed.
"""

import random
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from club.models import AuditEntry, Player
from club.services import Refused, ServiceError, Stale, add_player
from core.notices import send_on_commit

from . import registry, robot_seats, robot_turns, selectors, signals
from .engine import RulesError
from .engine.base import AlreadyDone, InvalidAction, InvalidOption, InvalidRecord
from .hotseat import ACTION, REVEAL, ROBOT, TAKE_BACK, Event, Hotseat
from .models import Cycle, Deal, DealEvent, Seat, Table, new_token


class Closed(ServiceError):
    """The table is finished or abandoned: it takes no more actions."""

    status = 409


class OptionRefused(Refused):
    """Options the engine refuses, in its words; ``option`` is the one at fault (as records
    name it), where a form shows the refusal."""

    def __init__(self, option: str, message: str, **params):
        super().__init__(message, **params)
        self.option = option


def refused(exc: RulesError) -> ServiceError:
    if isinstance(exc, AlreadyDone):  # a second click on what is done
        return Stale(exc.message, **exc.params)
    if isinstance(exc, InvalidAction):  # a forged or damaged form: its text is not repeated
        return Refused(gettext_noop("That is not a move of this game; nothing was done."))
    if isinstance(exc, InvalidOption):
        return OptionRefused(exc.option, exc.message, **exc.params)
    if isinstance(exc, InvalidRecord):
        return Refused(
            gettext_noop("These options do not fit the game: %(reason)s"), reason=str(exc)
        )
    return Refused(exc.message, **exc.params)


# -- tables ---------------------------------------------------------------------------------


def start_table(
    *,
    user,
    game: str,
    players: list,
    options: dict,
    seed: int | None = None,
    devices=frozenset(),
    deal_seeds=(),
) -> Table:
    """A new table, its players (club players, names of new ones, or robots: a
    ``robot_seats.RobotSeat`` at a strength) seated in the given order clockwise, and its first
    deal, whose dealer is drawn by lot. At least one seat is a person's. ``devices``: the
    seats (by position) played on their players' own devices, the rest at the shared
    screen. ``deal_seeds``: its first deals fixed in advance (``Table.deal_seeds``), the
    first dealt by the first seat."""
    rules = registry.rules(game)
    try:
        options = rules.parse_options(options)
    except RulesError as exc:
        raise refused(exc) from None
    if len(players) != rules.seats(options):
        raise Refused(
            gettext_noop("This game needs %(count)s players."), count=rules.seats(options)
        )
    strengths = {
        i: p.strength for i, p in enumerate(players) if isinstance(p, robot_seats.RobotSeat)
    }
    if strengths and not robot_seats.has_robots(game):
        raise Refused(gettext_noop("This game has no robots."))
    if any(strength not in robot_seats.LABELS for strength in strengths.values()):
        raise Refused(gettext_noop("There is no robot of that strength."))
    if len(strengths) == len(players):
        raise Refused(gettext_noop("Seat at least one person: robots do not play alone."))
    devices = frozenset(devices)
    if any(not isinstance(i, int) or not 0 <= i < len(players) for i in devices):
        raise Refused(gettext_noop("The form was incomplete or damaged; nothing was done."))
    if devices & set(strengths):
        raise Refused(gettext_noop("A robot needs no device: only a person's seat can be on one."))
    lot = random.Random(seed) if seed is not None else random.SystemRandom()
    with transaction.atomic():
        players = [
            p if isinstance(p, Player | robot_seats.RobotSeat) else add_player(name=p, by=user)
            for p in players
        ]
        people = [p.pk for p in players if isinstance(p, Player)]
        if len(set(people)) != len(people):
            raise Refused(gettext_noop("A player can take only one seat."))
        table = Table.objects.create(
            game=game, options=options, created_by=user, deal_seeds=list(deal_seeds)
        )
        Seat.objects.bulk_create(
            Seat(table=table, position=i, robot=strengths[i])
            if i in strengths
            else Seat(table=table, position=i, player=p, device=i in devices)
            for i, p in enumerate(players)
        )
        dealer = 0 if deal_seeds else lot.randrange(len(players))
        plan = rules.cycle(options)
        cycle = Cycle.objects.create(table=table, number=1, **plan) if plan else None
        deal = _create_deal(table, cycle, 1, dealer, lot.getrandbits(62))
        AuditEntry.objects.create(
            user=user,
            verb="table.start",
            table=table,
            data={
                "game": game,
                "options": options,
                "dealer": dealer,
                "players": [None if i in strengths else p.pk for i, p in enumerate(players)],
                "robots": [strengths.get(i, "") for i in range(len(players))],
                "devices": sorted(devices),
            },
        )
        _hand_to_the_only_person(deal, user)
    return table


def _create_deal(table: Table, cycle: Cycle | None, number: int, dealer: int, seed: int) -> Deal:
    """Deal ``number``, shuffled with ``seed`` unless the table's deals are fixed so far."""
    rules = registry.rules(table.game)
    if number <= len(table.deal_seeds):
        seed = table.deal_seeds[number - 1]
        dealer = (number - 1) % rules.seats(table.options)
    state = rules.new_deal(table.options, dealer, seed)
    return Deal.objects.create(
        table=table,
        cycle=cycle,
        number=number,
        dealer=dealer,
        seed=seed,
        dealt=state.dealt,
        snapshot=Hotseat(rules, state).to_json(),
        robot_due_at=_robot_due(table, state),
    )


def _robot_due(table: Table, state) -> datetime | None:
    """When the robot to act, if a robot is, takes its turn (``robot_turns``); the server is
    told once the write has committed."""
    due = robot_turns.due_at(
        not state.is_over() and selectors.played_by_robots(table)[state.to_act]
    )
    if due is not None:
        transaction.on_commit(robot_turns.wake)
    return due


def next_deal(*, table: Table, after: int, user) -> Deal:
    """The table's next deal, dealt by the left neighbour of the last dealer; in a game of
    cycles, the first deal of a new cycle once the last one is complete.

    ``after`` is the number of the deal the page showed, so that a second click does not
    deal twice.
    """
    rules = registry.rules(table.game)
    with transaction.atomic():
        lock_open_table(table)
        last = (
            Deal.objects.select_for_update(of=("self",))
            .select_related("cycle")
            .filter(table=table)
            .order_by("-number")
            .first()
        )
        if last.number != after:
            raise Stale(gettext_noop("The next deal has already started."))
        if not last.is_over:
            raise Refused(gettext_noop("This deal is not over yet."))
        cycle = last.cycle
        if cycle is not None and cycle.is_complete(selectors.cycle_results(cycle)):
            cycle = Cycle.objects.create(
                table=table, number=cycle.number + 1, **rules.cycle(table.options)
            )
        try:
            deal = _create_deal(
                table,
                cycle,
                last.number + 1,
                (last.dealer + 1) % rules.seats(table.options),
                random.SystemRandom().getrandbits(62),
            )
        except IntegrityError:
            raise Stale(gettext_noop("The next deal has already started.")) from None
        AuditEntry.objects.create(
            user=user,
            verb="deal.start",
            table=table,
            deal=deal,
            data={
                "number": deal.number,
                "dealer": deal.dealer,
                "cycle": cycle.number if cycle else None,
            },
        )
        _hand_to_the_only_person(deal, user)
        _notify_on_commit(deal)
    return deal


# -- the hotseat turn -------------------------------------------------------------------


def reveal(*, deal: Deal, seat: int, expected_version: int, user) -> Deal:
    """The player to act has the screen: his hand may now be shown (never a robot's)."""
    _refuse_robot_seat(deal.table, seat)
    return _write(deal, Event(REVEAL, seat), expected_version, user)


def play(
    *, deal: Deal, seat: int, action: dict, expected_version: int, user, device: bool = False
) -> Deal:
    """One action (or step) of the seat to act, once his hand is shown; the engine decides.
    A robot's seat is played by its robot alone (``robot_turn``, by the server).
    ``device``: sent from the seat's own page (``/s/<key>/``), the only place a device seat
    is played from."""
    _refuse_robot_seat(deal.table, seat)
    _refuse_other_place(deal.table, seat, device)
    return _write(deal, Event(ACTION, seat, action), expected_version, user)


def robot_turn(*, deal: Deal, seat: int, expected_version: int, user=None) -> Deal:
    """The robot at ``seat`` takes its turn (its steps, then its action) at the deal's
    ``expected_version``, when the server finds it due (``robot_turns``): decided from its
    seat's view, outside the transaction, then written as a person's turn is (the version
    checked again under lock, one event a step, the audit), so a second attempt at the same
    turn changes nothing (``Stale``). At a practice table the screen then goes straight back
    to its one person."""
    table = deal.table
    strength = robot_strength(table, seat)
    if strength is None:
        raise Refused(gettext_noop("A person plays this seat, not a robot."))
    current = Deal.objects.filter(table_id=table.pk, number=deal.number).first()
    if current is None:
        raise Refused(gettext_noop("The form was incomplete or damaged; nothing was done."))
    if current.version != expected_version:
        raise Stale(
            gettext_noop(
                "The table had moved on since this page was shown; here it is as it is now."
            )
        )
    current.table = table
    state = selectors.load(current).state
    if state.is_over() or state.to_act != seat:
        raise Stale(gettext_noop("That was already done."))
    actions = robot_seats.turn(table.game, state, strength, current.seed ^ current.version)
    with transaction.atomic():
        locked, hotseat = _lock(deal, expected_version)
        for action in actions:
            _append(locked, hotseat, Event(ROBOT, seat, action), user)
        _hand_to_the_only_person(locked, user, hotseat)
        _saved(locked, hotseat)
    return locked


def robot_strength(table: Table, seat: int) -> str | None:
    """The strength of the robot at ``seat``, None for a person's seat (or none at all)."""
    for place in table.seats.all():
        if place.position == seat:
            return place.robot or None
    return None


def _refuse_robot_seat(table: Table, seat) -> None:
    if isinstance(seat, int) and robot_strength(table, seat):
        raise Refused(gettext_noop("A robot plays this seat."))


def _hand_to_the_only_person(deal: Deal, user, hotseat: Hotseat | None = None) -> None:
    """At a practice table (one person, the rest robots) nobody else looks at the screen:
    when it is his turn and his hand is not shown, it is shown without asking to pass the
    screen. ``hotseat``: the locked deal's, written by the caller; else written here."""
    person = selectors.practice_person(deal.table)
    if person is None:
        return
    own = hotseat is None
    if own:
        hotseat = selectors.load(deal)
    if hotseat.handoff and hotseat.state.to_act == person:
        _append(deal, hotseat, Event(REVEAL, person), user)
        if own:
            _saved(deal, hotseat)


def take_back(*, deal: Deal, seat: int, expected_version: int, user, device: bool = False) -> Deal:
    """Undo the last action, if nobody has seen his hand since (on a device: until the
    next player has acted). The log keeps both. ``device``: as ``play``'s."""
    _refuse_other_place(deal.table, seat, device)
    return _write(deal, Event(TAKE_BACK, seat), expected_version, user)


def _refuse_other_place(table: Table, seat, device: bool) -> None:
    """A device seat is played from its own page only, a shared seat at the screen only."""
    on_device = isinstance(seat, int) and seat in selectors.device_seats(table)
    if on_device and not device:
        raise Refused(gettext_noop("This seat is played on its own device."))
    if device and not on_device:
        raise Refused(gettext_noop("This seat is played at the shared screen."))


def _is_current(deal: Deal) -> bool:
    return not Deal.objects.filter(table_id=deal.table_id, number__gt=deal.number).exists()


def _write(deal: Deal, event: Event, expected_version: int, user) -> Deal:
    """``deal`` need only name the deal, by its table and number (a page's form does)."""
    with transaction.atomic():
        locked, hotseat = _lock(deal, expected_version)
        if event.kind == TAKE_BACK and not _is_current(locked):
            raise Refused(gettext_noop("That can no longer be taken back."))
        _append(locked, hotseat, event, user)
        _saved(locked, hotseat)
    return locked


def _lock(deal: Deal, expected_version: int) -> tuple[Deal, Hotseat]:
    """The deal locked for a write, if it is still at the version the page showed. The
    table is locked first, as every change of the table locks it before its deal
    (``_manage``, ``next_deal``): the deal's last action may finish the table in its
    transaction (a tournament's, once its sheet is complete), and two writers that took
    the two locks in turn the other way round would each wait for the other."""
    lock_open_table(deal.table)
    try:
        # its cycle too, for the page that shows the deal once written
        locked = (
            Deal.objects.select_for_update(of=("self",))
            .select_related("cycle")
            .get(table_id=deal.table_id, number=deal.number)
        )
    except Deal.DoesNotExist:
        raise Refused(
            gettext_noop("The form was incomplete or damaged; nothing was done.")
        ) from None
    if locked.version != expected_version:
        raise Stale(
            gettext_noop(
                "The table had moved on since this page was shown; here it is as it is now."
            )
        )
    locked.table = deal.table
    return locked, selectors.load(locked)


def _append(locked: Deal, hotseat: Hotseat, event: Event, user) -> None:
    """One event: the hotseat checks and applies it, the log and the audit keep it."""
    try:
        event = hotseat.apply(event)
    except RulesError as exc:
        raise refused(exc) from None
    try:
        DealEvent.objects.create(
            deal=locked, index=locked.version, kind=event.kind, seat=event.seat, data=event.data
        )
    except IntegrityError:
        raise Stale(gettext_noop("That was already done.")) from None
    locked.version += 1
    AuditEntry.objects.create(
        user=user,
        verb=f"deal.{event.kind}",
        table_id=locked.table_id,
        deal=locked,
        data={"index": locked.version - 1, "seat": event.seat, **event.data},
    )


def _saved(locked: Deal, hotseat: Hotseat) -> None:
    """The deal's caches after its new events, and the listeners told after commit."""
    state = hotseat.state
    locked.snapshot = hotseat.to_json()
    was_over, locked.is_over = locked.is_over, state.is_over()
    locked.result = state.result() if locked.is_over else None
    locked.robot_due_at = _robot_due(locked.table, state)
    locked.save(
        update_fields=["version", "snapshot", "is_over", "result", "robot_due_at", "updated_at"]
    )
    if locked.is_over != was_over:  # a tournament's sheet, say, follows in this transaction
        signals.deal_result_changed.send(sender=Deal, deal=locked)
        # ...and, complete, finishes the table: the answer to this action shows it so
        table = locked.table
        table.name, table.state, table.version = (
            Table.objects.filter(pk=table.pk).values_list("name", "state", "version").get()
        )
    _notify_on_commit(locked)


def group_name(table: Table) -> str:
    return f"table.{table.pk}"  # both its host's page and its spectators listen


def _notify_on_commit(deal: Deal) -> None:
    # Only the deal number and version: listeners fetch what their viewer may see.
    send_on_commit(
        group_name(deal.table), {"type": "live.changed", "stamp": [deal.number, deal.version]}
    )


def notify_spectators_on_commit(table: Table) -> None:
    """Tells the table's spectators' pages, once committed, that how many of its deals they
    may see may have changed (``selectors.deals_shown_to_spectators``: other tables have
    played them): each socket reads its version afresh, the table's other pages ignore it."""
    send_on_commit(group_name(table), {"type": "live.changed", "stamp": [], "spectators": True})


# -- the seats' own links -------------------------------------------------------------------


def reissue_seat_link(*, table: Table, seat: int, expected_version: int, user) -> Seat:
    """A new key for a person's seat: its old link stops working at once, and its open page
    says so on its next fetch. The audit names the seat, never a key."""

    def reissue(locked: Table, last: Deal | None) -> dict:
        place = Seat.objects.filter(table=locked, position=seat, robot="").first()
        if place is None:
            raise Refused(gettext_noop("There is no such seat at this table."))
        place.key = new_token()
        place.seen_at = None
        place.save(update_fields=["key", "seen_at"])
        reissued.append(place)
        return {"seat": seat}

    reissued: list[Seat] = []
    if not isinstance(seat, int):
        raise Refused(gettext_noop("There is no such seat at this table."))
    _manage(table, expected_version, user, "seat.reissue", reissue, open_only=False)
    return reissued[0]


def seat_seen(key: str) -> bool:
    """The page of the seat with ``key`` is open now (its socket says so on connecting and
    every little while): presence, not a change of the table, so neither audited nor
    announced. False if the key is no seat's (any more)."""
    return bool(Seat.objects.filter(key=key, robot="").update(seen_at=timezone.now()))


# -- managing a table: its name, finishing or abandoning it ---------------------------------

CLOSED = {
    Table.State.FINISHED: gettext_noop("This table is finished: nothing more can be played at it."),
    Table.State.ABANDONED: gettext_noop(
        "This table was abandoned: nothing more can be played at it."
    ),
}
# A tournament's table is finished by its tournament alone, once its sheet is complete.
SHEET_COMPLETE = gettext_noop(
    "This table's sheet for the tournament is complete: nothing more is played at it."
)


def lock_open_table(table: Table) -> None:
    """A finished or abandoned table takes no more writes. Every write of a deal, and every
    new deal, locks the table first, as a change of its state does: none of them is made
    while the table is being finished or abandoned, and each reads the state it leaves."""
    state = (
        Table.objects.filter(pk=table.pk)
        .order_by()
        .select_for_update()
        .values_list("state", flat=True)
        .get()
    )
    if state == Table.State.FINISHED and selectors.tournament_table(table) is not None:
        raise Closed(SHEET_COMPLETE)
    if state in CLOSED:
        raise Closed(CLOSED[state])


NAME_LENGTH = Table._meta.get_field("name").max_length


def rename_table(*, table: Table, name: str, expected_version: int, user) -> Table:
    """A table's name (blank: its game and players), in any state."""
    name = " ".join(name.split())
    if not name.isprintable():
        raise Refused(gettext_noop("A name may hold only printable text."))
    if len(name) > NAME_LENGTH:
        raise Refused(
            gettext_noop("A table's name may be at most %(count)s characters long."),
            count=NAME_LENGTH,
        )

    def rename(locked: Table, last: Deal | None) -> dict:
        old, locked.name = locked.name, name
        return {"name": name, "was": old}

    return _manage(table, expected_version, user, "table.rename", rename, open_only=False)


def finish_table(*, table: Table, expected_version: int, user) -> Table:
    """The table is over: no deal is in progress, and none will be dealt. Its deals and
    score sheets stay as they are. A tournament's table is finished by its tournament
    (``finish_tournament_table``): before, a director may abandon it."""
    return _finish(table, expected_version, user, tournament=False)


def finish_tournament_table(*, table: Table) -> Table:
    """A tournament's table whose sheet is complete is over: its tournament finishes it in
    the transaction of the deal that completed the sheet (no page asked, nobody clicked;
    the audit entry says why). Its page then says so and sends its players to the round."""
    return _finish(table, None, None, tournament=True)


def _finish(table: Table, expected_version: int | None, user, tournament: bool) -> Table:
    def finish(locked: Table, last: Deal | None) -> dict:
        if not tournament and selectors.tournament_table(locked) is not None:
            raise Refused(
                gettext_noop(
                    "A tournament's table is finished once its sheet is complete; to stop it "
                    "before, abandon it: the deals finished so far stay on its sheet."
                )
            )
        if last is not None and not last.is_over:
            raise Refused(
                gettext_noop(
                    "A deal is still being played: play it to its end first, or abandon the table."
                )
            )
        locked.state = Table.State.FINISHED
        return {
            "deal": last.number if last else None,
            **({"reason": "sheet complete"} if tournament else {}),
        }

    return _manage(table, expected_version, user, "table.finish", finish)


def abandon_table(*, table: Table, expected_version: int, user) -> Table:
    """The table is left as it stands: a deal in progress stays as its log has it, and
    nothing more is played at it."""

    def abandon(locked: Table, last: Deal | None) -> dict:
        locked.state = Table.State.ABANDONED
        signals.table_abandoned.send(sender=Table, table=locked)
        return {"deal": last.number if last else None, "deal_over": last.is_over if last else None}

    return _manage(table, expected_version, user, "table.abandon", abandon)


def _refuse_unless_open(table: Table) -> None:
    if table.state == Table.State.FINISHED:
        raise Stale(gettext_noop("This table is already finished."))
    if table.state == Table.State.ABANDONED:
        raise Stale(gettext_noop("This table was already abandoned."))


def _manage(
    table: Table, expected_version: int | None, user, verb: str, change, *, open_only: bool = True
) -> Table:
    """One change of a table, in one transaction: lock the table (a new deal waits for the
    change, or the change for the new deal), then its current deal (so that a write of the
    deal waits for the change and then sees it, see ``lock_open_table``); refuse a table no
    longer played (``open_only``) and a stale page (the version it showed); ``change``
    changes the locked table or refuses, and gives the audit entry's details; the table's
    listeners are told once it has committed."""
    with transaction.atomic():
        try:
            locked = Table.objects.select_for_update().get(pk=table.pk)
        except Table.DoesNotExist:
            raise Refused(
                gettext_noop("The form was incomplete or damaged; nothing was done.")
            ) from None
        last = Deal.objects.select_for_update().filter(table=locked).order_by("-number").first()
        if open_only:
            _refuse_unless_open(locked)
        if expected_version is not None and locked.version != expected_version:
            raise Stale(
                gettext_noop(
                    "The table had changed since this page was shown; here it is as it is now."
                )
            )
        data = change(locked, last)
        locked.version += 1
        locked.save(update_fields=["name", "state", "version"])
        AuditEntry.objects.create(
            user=user,
            verb=verb,
            table=locked,
            data={**data, "state": locked.state, "version": locked.version},
        )
        # the pages of the table fetch themselves: the deal's stamp, then the table's version
        stamp = [last.number, last.version, locked.version] if last else [0, 0, locked.version]
        send_on_commit(group_name(locked), {"type": "live.changed", "stamp": stamp})
    table.name, table.state, table.version = locked.name, locked.state, locked.version
    return table
