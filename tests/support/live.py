"""Playing tables through served processes (tests/support/servers.py), as hotseat screens do: the
next post a table needs, read from the database, a thread that keeps posting them, and the checks
that an acknowledged post is in the table's log.

Used by tests/servers/test_deployment.py, tests/servers/test_live_servers.py and the benchmarks;
needs Django set up.
"""

import random
import threading
import time
from dataclasses import dataclass

import requests
from django.db import connection

from games import registry, selectors, services
from games.engine import IllegalAction
from games.hotseat import ACTION, REVEAL
from games.models import DealEvent

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Захар"]


def new_table(user, game: str, seed: int):
    """A table of the game with its default options, seated from ``NAMES``."""
    rules = registry.rules(game)
    return services.start_table(
        user=user,
        game=game,
        options={},
        seed=seed,
        players=NAMES[: rules.seats(rules.parse_options({}))],
    )


@dataclass(frozen=True)
class Post:
    """One write a screen posts: its path under the table, its form, and what it writes: the
    event (kind, seat, data) at ``index`` of deal ``deal``, or deal ``deal`` + 1 for a
    next-deal."""

    what: str  # "reveal", "act" or "next-deal"
    fields: dict
    deal: int
    index: int | None = None
    event: tuple | None = None


def next_post(table, rng: random.Random) -> Post:
    """What the table's screen posts next, from the deal as the database has it now: the
    next deal once this one is over; else a reveal when the screen must be handed on; else a
    random legal action (the step before it, where one is due)."""
    deal = selectors.current_deal(table)
    deal.table = table
    if deal.is_over:
        return Post("next-deal", {"deal": deal.number}, deal.number)
    hotseat = selectors.load(deal)
    stamp = {"deal": deal.number, "version": deal.version}
    if hotseat.handoff:
        seat = hotseat.state.to_act
        return Post(
            "reveal", {**stamp, "seat": seat}, deal.number, deal.version, (REVEAL, seat, {})
        )
    action = rng.choice(hotseat.state.legal_actions())
    try:
        hotseat.state.check_steps(action)
    except IllegalAction:  # a step (a draw, say) comes first
        action = hotseat.state.steps()[0]
    fields = registry.game(table.game).moves.fields(action)
    return Post(
        "act",
        {**stamp, "seat": action["seat"], **fields},
        deal.number,
        deal.version,
        (ACTION, action["seat"], action),
    )


@dataclass
class Answer:
    post: Post
    status: int | str  # the HTTP status, or the error that came instead (a dead server)
    seconds: float


class Stream(threading.Thread):
    """Plays ``table`` on, one post at a time, until ``stop`` is set or ``until`` (a
    time.monotonic() value) has passed; each post goes to the next of ``sessions`` in turn
    (several servers behind one address, as a load balancer spreads them). Every answer is
    kept in ``answers``; a failed connection (a server down) is kept and tried again."""

    def __init__(
        self, table, sessions, seed: int = 0, until: float | None = None, retry_pause: float = 0.05
    ):
        super().__init__(daemon=True)
        self.table = table
        self.sessions = sessions
        self.rng = random.Random(seed)
        self.until = until
        self.retry_pause = retry_pause
        self.stop = threading.Event()
        self.answers: list[Answer] = []
        self.error: BaseException | None = None

    def run(self):
        turn = 0
        try:
            while not self.stop.is_set() and (self.until is None or time.monotonic() < self.until):
                post = next_post(self.table, self.rng)
                session = self.sessions[turn % len(self.sessions)]
                turn += 1
                started = time.perf_counter()
                try:
                    response = session.post(f"/t/{self.table.token}/{post.what}", post.fields)
                    status = response.status_code
                except requests.RequestException as exc:
                    status = type(exc).__name__
                self.answers.append(Answer(post, status, time.perf_counter() - started))
                if not isinstance(status, int):
                    time.sleep(self.retry_pause)
        except BaseException as exc:  # shown by the test that reads the stream
            self.error = exc
        finally:
            connection.close()  # this thread's own connection to the database

    def acknowledged(self) -> list[Post]:
        return [a.post for a in self.answers if a.status == 200]

    def statuses(self) -> dict:
        counts: dict = {}
        for answer in self.answers:
            counts[answer.status] = counts.get(answer.status, 0) + 1
        return counts

    def server_errors(self) -> list[Answer]:
        return [a for a in self.answers if isinstance(a.status, int) and a.status >= 500]

    def finish(self, timeout: float = 30) -> None:
        """Stop (at ``until``, if it was given; else now) and re-raise what broke the
        thread, if anything did."""
        if self.until is None:
            self.stop.set()
        self.join(timeout)
        assert not self.is_alive(), "the stream did not stop"
        if self.error is not None:
            raise self.error


def assert_log_explains_every_deal(table) -> None:
    """Each deal's snapshot is its log rebuilt, and its version the log's length."""
    for deal in table.deals.all():
        deal.table = table
        events = list(deal.events.all())
        assert [e.index for e in events] == list(range(deal.version)), deal.number
        assert selectors.rebuild(deal, events).to_json() == selectors.load(deal).to_json(), (
            deal.number
        )


def assert_in_log(table, post) -> None:
    """The write an acknowledged post made is in the table's log."""
    if post.what == "next-deal":
        assert table.deals.filter(number=post.deal + 1).exists(), post
        return
    event = DealEvent.objects.filter(
        deal__table=table, deal__number=post.deal, index=post.index
    ).first()
    assert event is not None, f"acknowledged, not in the log: {post}"
    assert (event.kind, event.seat, event.data) == post.event, post
