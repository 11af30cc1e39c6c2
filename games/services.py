"""Every write of the games app. Views, the admin and commands call these; nothing else
writes the models.

Each deal write runs in one transaction: lock the deal, check the version the page showed,
let the engine decide, append the event, refresh the snapshot cache, write the audit entry,
and tell the table's listeners once the transaction has committed.
"""

import random
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from .engine import RulesError, get_rules
from .engine.base import InvalidAction, InvalidRecord
from .models import AuditEntry, Cycle, Deal, DealEvent, Player, Seat, Table


class ServiceError(Exception):
    """A refusal to show on the page: ``message`` is translatable, ``params`` fill it."""

    status = 400

    def __init__(self, message: str, **params):
        super().__init__(message)
        self.message = message
        self.params = params


class Stale(ServiceError):
    status = 409


class Refused(ServiceError):
    pass


def refused(exc: RulesError) -> Refused:
    if isinstance(exc, InvalidAction):  # a forged or damaged form: its text is not repeated
        return Refused(gettext_noop("That is not a move of this game; nothing was done."))
    if isinstance(exc, InvalidRecord):
        return Refused(gettext_noop("These options do not fit the game: %(reason)s"),
                       reason=str(exc))
    return Refused(exc.message, **exc.params)


@dataclass
class Hotseat:
    """A deal as the screen has it: the engine state, and who has seen his hand."""

    state: object
    revealed: int | None  # the seat whose hand the screen may show now
    last_actor: int | None  # the seat of the last action still standing
    drawn: bool = False  # Леопард: the seat to act has drawn, and seen, the top card

    def to_json(self) -> dict:
        return {"state": self.state.to_json(), "revealed": self.revealed,
                "last_actor": self.last_actor, "drawn": self.drawn}

    @property
    def handoff(self) -> bool:
        """The screen must be passed on before anything is shown."""
        return not self.state.is_over() and self.revealed != self.state.to_act

    def take_back_seat(self) -> int | None:
        """Who may take his last action back: nobody else has seen his hand since."""
        if self.last_actor is not None and self.last_actor == self.revealed:
            return self.last_actor
        return None


def load(deal: Deal) -> Hotseat:
    rules = get_rules(deal.table.game)
    snap = deal.snapshot
    return Hotseat(rules.from_json(snap["state"]), snap["revealed"], snap["last_actor"],
                   snap["drawn"])


def standing_actions(events) -> list[dict]:
    """The actions of a log that were not taken back, in order: the record's actions."""
    actions: list[dict] = []
    for event in events:
        if event.kind == DealEvent.Kind.ACTION:
            actions.append(event.data)
        elif event.kind == DealEvent.Kind.TAKE_BACK:
            actions.pop()
    return actions


def rebuild(deal: Deal, events) -> Hotseat:
    """The deal from its log alone: what the snapshot must always equal."""
    actions: list[dict] = []
    revealed, drawn = None, False
    for event in events:
        if event.kind == DealEvent.Kind.ACTION:
            actions.append(event.data)
            drawn = False
        elif event.kind == DealEvent.Kind.TAKE_BACK:
            undone = actions.pop()
            revealed, drawn = undone["seat"], None  # he has seen what he drew
        elif event.kind == DealEvent.Kind.REVEAL:
            revealed = event.seat
        else:
            drawn = True
    hotseat = _replayed(deal, actions, revealed)
    hotseat.drawn = hotseat.state.draws(undone) if drawn is None else drawn
    return hotseat


def _replayed(deal: Deal, actions: list[dict], revealed: int | None) -> Hotseat:
    state = start_state(deal)
    for action in actions:
        state.apply(action)
    return Hotseat(state, revealed, actions[-1]["seat"] if actions else None)


def start_state(deal: Deal):
    dealt = {"options": deal.table.options, "dealer": deal.dealer, "hands": deal.hands}
    if deal.stock is not None:
        dealt["stock"] = deal.stock
    return get_rules(deal.table.game).from_record(dealt)


def record(deal: Deal) -> dict:
    """The deal's record (records.md): the standing actions, take-backs left out."""
    return {**start_state(deal).record(), "actions": standing_actions(deal.events.all())}


# -- players and tables ---------------------------------------------------------------------

def add_player(*, name: str, user=None, by=None) -> Player:
    """The club player of that name (the same name in any case is the same person)."""
    name = " ".join(name.split())
    if not name:
        raise Refused(gettext_noop("A player needs a name."))
    with transaction.atomic():
        existing = Player.objects.filter(key=Player.key_of(name)).first()
        if existing:
            return existing
        player = Player.objects.create(name=name, user=user)
        AuditEntry.objects.create(user=by, verb="player.add", data={"player": player.pk,
                                                                   "name": name})
    return player


def save_player(*, player: Player, by=None) -> Player:
    """An edit of a player from the admin."""
    with transaction.atomic():
        adding = player._state.adding
        player.save()
        AuditEntry.objects.create(user=by, verb="player.add" if adding else "player.change",
                                  data={"player": player.pk, "name": player.name})
    return player


def start_table(*, user, game: str, players: list, options: dict,
                seed: int | None = None) -> Table:
    """A new table, its players (club players, or names of new ones) seated in the given
    order clockwise, and its first deal, whose dealer is drawn by lot."""
    rules = get_rules(game)
    try:
        options = rules.parse_options(options)
    except RulesError as exc:
        raise refused(exc) from None
    if len(players) != rules.seats(options):
        raise Refused(gettext_noop("This game needs %(count)s players."),
                      count=rules.seats(options))
    lot = random.Random(seed) if seed is not None else random.SystemRandom()
    with transaction.atomic():
        players = [p if isinstance(p, Player) else add_player(name=p, by=user)
                   for p in players]
        if len({p.pk for p in players}) != len(players):
            raise Refused(gettext_noop("A player can take only one seat."))
        table = Table.objects.create(game=game, options=options, created_by=user)
        Seat.objects.bulk_create(
            Seat(table=table, position=i, player=p) for i, p in enumerate(players))
        dealer = lot.randrange(len(players))
        plan = rules.cycle(options)
        cycle = Cycle.objects.create(table=table, number=1, **plan) if plan else None
        _create_deal(table, cycle, 1, dealer, lot.getrandbits(62))
        AuditEntry.objects.create(user=user, verb="table.start", table=table,
                                  data={"game": game, "options": options, "dealer": dealer,
                                        "players": [p.pk for p in players]})
    return table


def cycle_results(cycle: Cycle) -> list[dict]:
    """The results of a cycle's finished deals, in order (1 query)."""
    return list(cycle.deals.filter(is_over=True).order_by("number")
                .values_list("result", flat=True))


def _create_deal(table: Table, cycle: Cycle | None, number: int, dealer: int,
                 seed: int) -> Deal:
    state = get_rules(table.game).new_deal(table.options, dealer, seed)
    hotseat = Hotseat(state, None, None)
    dealt = state.record()
    return Deal.objects.create(table=table, cycle=cycle, number=number, dealer=dealer,
                               seed=seed, hands=dealt["hands"], stock=dealt.get("stock"),
                               snapshot=hotseat.to_json())


def next_deal(*, table: Table, after: int, user) -> Deal:
    """The table's next deal, dealt by the left neighbour of the last dealer; in a game of
    cycles, the first deal of a new cycle once the last one is complete.

    ``after`` is the number of the deal the page showed, so that a second click does not
    deal twice.
    """
    rules = get_rules(table.game)
    with transaction.atomic():
        last = (Deal.objects.select_for_update(of=("self",)).select_related("cycle")
                .filter(table=table)
                .order_by("-number").first())
        if last.number != after:
            raise Stale(gettext_noop("The next deal has already started."))
        if not last.is_over:
            raise Refused(gettext_noop("This deal is not over yet."))
        cycle = last.cycle
        if cycle is not None and cycle.is_complete(cycle_results(cycle)):
            cycle = Cycle.objects.create(table=table, number=cycle.number + 1,
                                         **rules.cycle(table.options))
        try:
            deal = _create_deal(table, cycle, last.number + 1,
                                (last.dealer + 1) % rules.seats(table.options),
                                random.SystemRandom().getrandbits(62))
        except IntegrityError:
            raise Stale(gettext_noop("The next deal has already started.")) from None
        AuditEntry.objects.create(user=user, verb="deal.start", table=table, deal=deal,
                                  data={"number": deal.number, "dealer": deal.dealer,
                                        "cycle": cycle.number if cycle else None})
        _notify_on_commit(deal)
    return deal


# -- the hotseat turn -------------------------------------------------------------------

def reveal(*, deal: Deal, seat: int, expected_version: int, user) -> Deal:
    """The player to act has the screen: his hand may now be shown."""

    def change(hotseat: Hotseat):
        _require_turn(hotseat, seat)
        if hotseat.revealed == seat:
            raise Stale(gettext_noop("Your hand is already shown."))
        hotseat.revealed = seat
        return DealEvent.Kind.REVEAL, {}

    return _write(deal, seat, expected_version, user, change)


def draw(*, deal: Deal, seat: int, expected_version: int, user) -> Deal:
    """Леопард: the player at the screen draws the top card of the stock and sees it; the
    rest of his turn (a discard or a lay) is the action that the record holds."""

    def change(hotseat: Hotseat):
        _require_screen(hotseat, seat)
        if not hotseat.state.has_stock:
            raise Refused(gettext_noop("There is no stock to draw from in this game."))
        if hotseat.drawn:
            raise Stale(gettext_noop("You have already drawn."))
        hotseat.drawn = True
        return DealEvent.Kind.DRAW, {}

    return _write(deal, seat, expected_version, user, change)


def _require_turn(hotseat: Hotseat, seat: int) -> None:
    state = hotseat.state
    if state.is_over():
        raise Refused(gettext_noop("The deal is over."))
    if seat != state.to_act:
        raise Refused(gettext_noop("It is not your turn: %(seat)s is to act."),
                      seat=state.to_act)


def _require_screen(hotseat: Hotseat, seat: int) -> None:
    """The seat acts now, and its hand is on the screen."""
    _require_turn(hotseat, seat)
    if hotseat.revealed != seat:
        raise Refused(gettext_noop("Show your hand first."))


def play(*, deal: Deal, seat: int, action: dict, expected_version: int, user) -> Deal:
    """One action of the seat to act, once his hand is shown; the engine decides."""

    def change(hotseat: Hotseat):
        state = hotseat.state
        if not state.is_over() and seat == state.to_act and hotseat.revealed != seat:
            raise Refused(gettext_noop("Show your hand first."))
        try:
            canonical = state.canonical({**action, "seat": seat})
            draws = state.draws(canonical)
            if draws and not hotseat.drawn and seat == state.to_act:
                raise Refused(gettext_noop("Draw a card first."))
            if hotseat.drawn and not draws:
                raise Refused(gettext_noop(
                    "You have drawn: now discard a card or lay one."))
            state.apply(canonical)
        except RulesError as exc:
            raise refused(exc) from None
        hotseat.last_actor = seat
        hotseat.drawn = False
        return DealEvent.Kind.ACTION, canonical

    return _write(deal, seat, expected_version, user, change)


def take_back(*, deal: Deal, seat: int, expected_version: int, user) -> Deal:
    """Undo the last action, if nobody has seen his hand since. The log keeps both."""

    def change(hotseat: Hotseat):
        if hotseat.take_back_seat() != seat or not _is_current(deal):
            raise Refused(gettext_noop("That can no longer be taken back."))
        actions = standing_actions(deal.events.all())
        undone = actions.pop()
        before = _replayed(deal, actions, revealed=seat)
        hotseat.state, hotseat.revealed, hotseat.last_actor = (
            before.state, before.revealed, before.last_actor)
        hotseat.drawn = before.state.draws(undone)  # what he drew, he has seen
        return DealEvent.Kind.TAKE_BACK, {"undone": undone}

    return _write(deal, seat, expected_version, user, change)


def _is_current(deal: Deal) -> bool:
    return not Deal.objects.filter(table_id=deal.table_id, number__gt=deal.number).exists()


def _write(deal: Deal, seat: int, expected_version: int, user, change) -> Deal:
    with transaction.atomic():
        locked = Deal.objects.select_for_update().get(pk=deal.pk)
        if locked.version != expected_version:
            raise Stale(gettext_noop(
                "The table had moved on since this page was shown; here it is as it is now."))
        locked.table = deal.table
        hotseat = load(locked)
        kind, data = change(hotseat)
        state = hotseat.state
        try:
            DealEvent.objects.create(deal=locked, index=locked.version, kind=kind, seat=seat,
                                     data=data)
        except IntegrityError:
            raise Stale(gettext_noop("That was already done.")) from None
        locked.version += 1
        locked.snapshot = hotseat.to_json()
        locked.is_over = state.is_over()
        locked.result = state.result() if locked.is_over else None
        locked.save(update_fields=["version", "snapshot", "is_over", "result", "updated_at"])
        AuditEntry.objects.create(user=user, verb=f"deal.{kind}", table_id=locked.table_id,
                                  deal=locked, data={"index": locked.version - 1, "seat": seat,
                                                     **data})
        _notify_on_commit(locked)
    return locked


def group_name(token: str) -> str:
    return f"table.{token}"


def _notify_on_commit(deal: Deal) -> None:
    # Only the deal number and version: listeners fetch what their viewer may see.
    message = {"type": "table.changed", "deal": deal.number, "version": deal.version}
    group = group_name(deal.table.token)

    def send():
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)

    transaction.on_commit(send)

