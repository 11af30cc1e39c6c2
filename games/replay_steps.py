"""A deal's replay: its record (records.md) stepped through action by action, every hand
open. The record is checked and replayed by ``games.engine.records``, as ``manage.py replay``
does; what a step shows comes from the game's presenter and templates."""

from dataclasses import dataclass, field

from django.utils.html import conditional_escape
from django.utils.translation import gettext as _

from . import registry
from .engine import records
from .engine.base import View
from .models import Deal, Table
from .page_data import LogEntry, OpenHand, TablePage
from .page_data import Seat as SeatRow
from .registry import Game

LIMIT = 256 * 1024  # bytes of an uploaded record: a deal's record is a few KiB


@dataclass
class Upload:
    """A record a reader gave the page, carried by it from step to step."""

    text: str  # the record as checked, written again as one line of JSON
    name: str  # the file's name, as the reader's browser gave it


@dataclass
class ReplayPage:
    """One step of a replay: the deal after ``step`` of its ``last`` actions."""

    game: Game
    players: list[str]
    step: int
    last: int
    view: View  # a spectator's view: the board's
    board: object  # the game's own (``Presenter.board``)
    hands: list[OpenHand]
    seats: list[SeatRow]
    entry: LogEntry | None  # the action just taken; None before the first
    over: bool
    complete: bool  # the record goes on to the end of the deal
    table: Table | None = None  # a table's deal, or None for an uploaded record
    deal: Deal | None = None
    upload: Upload | None = None
    steps: dict = field(default_factory=dict)  # first, previous, next, last: a step or None


def seat_names(count: int) -> list[str]:
    """The players of an uploaded record, named by its seat numbers."""
    return [_("Seat %(n)s") % {"n": seat} for seat in range(count)]


def replay_page(
    record: dict,
    step: int,
    players: list[str] | None = None,
    *,
    table: Table | None = None,
    deal: Deal | None = None,
    upload: Upload | None = None,
) -> ReplayPage:
    """The record after ``step`` actions (kept within the record). Every action is checked
    first, as ``manage.py replay`` checks them: InvalidRecord for a document that is not a
    record, IllegalRecordAction for the first action the rules refuse. ``players``: the
    names of the seats (by default their numbers)."""
    replayed = records.replay(record)
    state, actions = records.start(record)
    game = registry.game(state.key)
    step = max(0, min(step, len(actions)))
    for action in actions[:step]:
        state.apply(action)
    seats = len(state.view(None)["counts"])
    players = players or seat_names(seats)
    entry = None
    if step:
        action = state.canonical(actions[step - 1])  # "9h" as the log writes it: "9H"
        names = [conditional_escape(name) for name in players]
        entry = LogEntry(name=names[action["seat"]], action=action, taken_back=False, players=names)
        entry.text = game.presenter.log_text(entry)
    view = state.view(None)
    to_act = view["to_act"]
    table_page = TablePage(
        table=table,
        deal=deal,
        game=game,
        players=players,
        mode="over" if state.is_over() else "watch",
        view=view,
        hand=[],
        legal=[],
        to_act_name=players[to_act] if to_act is not None else None,
        take_back=None,
        log=[],
        sheet=None,
        totals=None,
    )
    presenter = game.presenter
    board = presenter.board(table_page, None)
    table_page.board = board
    last = len(actions)
    page = ReplayPage(
        game=game,
        players=players,
        step=step,
        last=last,
        view=view,
        board=board,
        hands=presenter.open_hands([state.view(seat) for seat in range(seats)], players),
        seats=[
            SeatRow(
                index=i,
                name=name,
                count=view["counts"][i],
                dealer=i == state.dealer,
                to_act=i == to_act,
                badges=presenter.badges(table_page, i),
            )
            for i, name in enumerate(players)
        ],
        entry=entry,
        over=state.is_over(),
        complete=replayed.complete,
        table=table,
        deal=deal,
        upload=upload,
    )
    page.steps = {
        "first": 0 if step else None,
        "previous": step - 1 if step else None,
        "next": step + 1 if step < last else None,
        "last": last if step < last else None,
    }
    return page
