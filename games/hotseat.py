"""The hotseat screen, pure Python: one deal as the screen passed round the table has it.

A deal's log is a list of events: ``reveal`` (the player to act has the screen, so his hand
may be shown), ``action`` (an action or a step of the seat to act, as the record writes it),
``robot`` (the same, of a robot's seat: a robot needs no screen, so its turn neither asks for
one nor takes it from the person who has it) and ``take_back`` (his last action undone, while
nobody else has seen his hand since; never a robot's).
A seat may be played on its player's own device (``devices``): like a robot's, its turn
needs no reveal and leaves the screen with whoever has it, and the screen never shows its
hand; its player may take his last action back until the next player has acted.
``Hotseat.apply`` checks and applies one event; the writes and the rebuild from the log use
it alike, so the screen can never be in a state its log does not explain.
"""

from dataclasses import dataclass, field

from games.engine.base import AlreadyDone, IllegalAction, InvalidAction, State, gettext_noop

REVEAL, ACTION, TAKE_BACK, ROBOT = "reveal", "action", "take_back", "robot"
FORMAT = 3  # of the snapshot; with the engine's own ``snapshot_format``


@dataclass(frozen=True)
class Event:
    kind: str
    seat: int
    data: dict = field(default_factory=dict)


class OldSnapshot(Exception):
    """A snapshot written by an older version: rebuild the deal from its log."""


class Hotseat:
    def __init__(
        self,
        rules,
        state: State,
        revealed: int | None = None,
        log: list[list] | None = None,
        devices: frozenset[int] = frozenset(),
    ):
        self.rules = rules
        self.state = state
        # the seats played on their own devices: the table's, not the log's
        self.devices = frozenset(devices)
        self.revealed = revealed  # the seat whose hand the screen may show now
        # the log's actions and take-backs, [kind, seat, data] as it keeps them
        self.log = log if log is not None else []

    @classmethod
    def rebuild(
        cls, rules, dealt_state: State, events, devices: frozenset[int] = frozenset()
    ) -> "Hotseat":
        """The deal from its log alone: what the snapshot must always equal."""
        hotseat = cls(rules, dealt_state, devices=devices)
        for event in events:
            hotseat.apply(event)
        return hotseat

    # -- the snapshot (a cache of the log) ----------------------------------------------

    def to_json(self) -> dict:
        return {
            "format": [FORMAT, self.rules.snapshot_format],
            "state": self.state.to_json(),
            "revealed": self.revealed,
            "log": self.log,
        }

    @classmethod
    def from_json(cls, rules, data: dict, devices: frozenset[int] = frozenset()) -> "Hotseat":
        if data.get("format") != [FORMAT, rules.snapshot_format]:
            raise OldSnapshot
        return cls(
            rules, rules.from_json(data["state"]), data["revealed"], list(data["log"]), devices
        )

    # -- what the screen shows ----------------------------------------------------------

    @property
    def actions(self) -> list[dict]:
        """The standing actions, steps included: the log's, less those taken back."""
        actions = []
        for kind, _, data in self.log:
            if kind == ACTION:
                actions.append(data)
            else:
                actions.pop()
        return actions

    @property
    def on_device(self) -> bool:
        """The seat to act plays on his own device: the screen waits for him."""
        return not self.state.is_over() and self.state.to_act in self.devices

    @property
    def handoff(self) -> bool:
        """The screen must be passed on before anything is shown."""
        return (
            not self.state.is_over() and not self.on_device and self.revealed != self.state.to_act
        )

    @property
    def shown_seat(self) -> int | None:
        """The seat whose hand the screen shows now, if any (never a device's)."""
        if self.state.is_over() or self.handoff or self.on_device:
            return None
        return self.state.to_act

    def take_back_seat(self) -> int | None:
        """Who may take his last action back: it was an action, not a step (a step has shown
        him something), and nobody else has seen his hand since: at the screen, until the
        next player has it; on a device, until the next player has acted."""
        actions = self.actions
        if not actions:
            return None
        last = actions[-1]
        if self.state.is_step(last):
            return None
        if last["seat"] not in self.devices and last["seat"] != self.revealed:
            return None
        return last["seat"]

    def record_actions(self) -> list[dict]:
        """The standing actions as a record holds them: steps left out (the action after a
        step begins with it)."""
        return [action for action in self.actions if not self.state.is_step(action)]

    # -- the one way it changes ---------------------------------------------------------

    def apply(self, event: Event) -> Event:
        """Check ``event`` and apply it, or refuse it (a RulesError: IllegalAction,
        AlreadyDone for a repeat, InvalidAction for a malformed action) and change nothing.
        The event as the log keeps it (an action in its record form)."""
        if event.kind == REVEAL:
            return self._reveal(event)
        if event.kind in (ACTION, ROBOT):
            logged = self._act(event)
        elif event.kind == TAKE_BACK:
            logged = self._take_back(event)
        else:
            raise InvalidAction(f"unknown event {event.kind!r}")
        # the screen's log keeps a robot's action as an action
        self.log.append([ACTION if logged.kind == ROBOT else logged.kind, logged.seat, logged.data])
        return logged

    def _reveal(self, event: Event) -> Event:
        self.state.check_turn(event.seat)
        if event.seat in self.devices:
            raise IllegalAction(gettext_noop("This seat is played on its own device."))
        if self.revealed == event.seat:
            raise AlreadyDone(gettext_noop("Your hand is already shown."))
        self.revealed = event.seat
        return Event(REVEAL, event.seat)

    def _act(self, event: Event) -> Event:
        state, seat = self.state, event.seat
        if (
            event.kind == ACTION
            and not state.is_over()
            and seat == state.to_act
            and seat not in self.devices
            and self.revealed != seat
        ):
            raise IllegalAction(gettext_noop("Show your hand first."))
        action = state.canonical({**event.data, "seat": seat})
        if not state.is_step(action):
            state.check_steps(action)
        state.apply(action)
        return Event(event.kind, seat, action)

    def _take_back(self, event: Event) -> Event:
        if self.take_back_seat() != event.seat:
            raise IllegalAction(gettext_noop("That can no longer be taken back."))
        *standing, undone = self.actions
        state = self.rules.start(self.state.options, self.state.dealer, self.state.dealt)
        for action in standing:
            state.apply(action)
        self.state = state
        if event.seat not in self.devices:
            self.revealed = event.seat  # he still has the screen
        return Event(TAKE_BACK, event.seat, {"undone": undone})
