"""A robot's turn is the server's business: once a robot is to act, a thread of every serving
process (``serve``) takes its turn ``ROBOT_PAUSE`` seconds later, whether or not any page of
the table is open, and the pages hear of it as of any move.

The deal keeps the time its robot's turn is due (``Deal.robot_due_at``, set by the write that
made it due: ``due_at``), so a turn due when a process died is found when one starts again.
A process claims a due turn by moving its time on by ``LEASE`` (one row updated, or none if
another claimed it first), works the move out outside any transaction and writes it through
``services.robot_turn``, which checks the deal's version under lock: the turn is taken once,
whichever process finds it. A claim whose process died before writing expires after the
lease, and the turn is then taken again.

The search runs in that thread, never in the event loop's.
"""

import logging
import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, close_old_connections
from django.utils import timezone

from .models import Deal, Table

log = logging.getLogger(__name__)

LEASE = timedelta(seconds=30)  # longer than any robot's search
SWEEP = 2.0  # seconds: how often a process looks for turns due that no write here told of

_wake = threading.Event()
_started = threading.Lock()
_thread: threading.Thread | None = None


def due_at(robot_to_act: bool) -> datetime | None:
    """When the turn of the seat now to act is due: after the pause if a robot plays it."""
    return timezone.now() + timedelta(seconds=settings.ROBOT_PAUSE) if robot_to_act else None


def wake() -> None:
    """A write of this process made a turn due: look again now, not at the next sweep."""
    _wake.set()


def take_due(now: datetime | None = None) -> int:
    """Take every robot's turn due by ``now`` (by default, now) that no process has claimed;
    the number taken."""
    now = now or timezone.now()
    taken = 0
    for pk, due in Deal.objects.filter(robot_due_at__lte=now).values_list("pk", "robot_due_at"):
        lease = timezone.now() + LEASE
        if Deal.objects.filter(pk=pk, robot_due_at=due).update(robot_due_at=lease):
            taken += _take(pk, lease)
    return taken


def _take(pk: int, lease: datetime) -> int:
    from . import selectors, services  # the services import this module

    deal = Deal.objects.get(pk=pk)
    # the table as its pages have it (its seats, its tournament's table), as a move needs it
    deal.table = selectors.with_tournament(selectors.with_seats(Table.objects)).get(
        pk=deal.table_id
    )
    state = selectors.load(deal).state
    strength = None if state.is_over() else services.robot_strength(deal.table, state.to_act)
    if deal.table.is_open and strength:
        try:
            services.robot_turn(
                deal=deal, seat=state.to_act, expected_version=deal.version, user=None
            )
            return 1
        except services.Stale:
            return 0  # the deal moved on meanwhile: its write said what is due next
        except services.ServiceError:
            pass  # the table was closed meanwhile: nothing is due
    # nobody's turn to take (no robot to act, or the table closed): nothing is due
    Deal.objects.filter(pk=pk, robot_due_at=lease).update(robot_due_at=None)
    return 0


def next_due() -> datetime | None:
    return (
        Deal.objects.filter(robot_due_at__isnull=False)
        .order_by("robot_due_at")
        .values_list("robot_due_at", flat=True)
        .first()
    )


def serve() -> None:
    """Start this process's thread that takes the robots' turns (once; not if
    ``ROBOT_TURNS`` is off)."""
    global _thread
    if not settings.ROBOT_TURNS:
        return
    with _started:
        if _thread is None:
            _thread = threading.Thread(target=_run, name="robot-turns", daemon=True)
            _thread.start()


def _run() -> None:
    while True:
        _wake.clear()
        wait = SWEEP
        try:
            take_due()
            due = next_due()
            if due is not None:
                wait = min(SWEEP, max(0.0, (due - timezone.now()).total_seconds()))
        except DatabaseError as exc:  # the database away for a while: try again later
            log.warning("the robots' turns wait for the database: %s", exc)
        except Exception:
            log.exception("the robots' turns could not be taken")
        finally:
            close_old_connections()  # as a request's end does: a pool's connection goes back
        _wake.wait(wait)
