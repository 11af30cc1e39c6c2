"""The club's figures of a table, measured on this machine (`make bench`), for every game of
the registry."""

import json
import os
import random
import statistics
import time
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.template import Template
from django.test import Client
from django.test.utils import setup_databases, setup_test_environment, teardown_databases

import config.machine
from bench import sections
from games import registry, selectors, services
from games.engine import IllegalAction
from games.engine.simulate import simulate
from games.registry import GAMES

HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Захар"]
ACTIONS = 200  # timed per game
TRIVIAL = 200  # requests of the trivial view
NTH = 40  # the action of the first deal whose queries are reported beside the first's
NO_LENGTH = 4  # the second score sheet of a match played to a target: after this deal
DEVICE_RATIO = 1.2  # an action from a seat's own page costs at most a fifth more


class Command(BaseCommand):
    help = (
        "Benchmarks, for every game: random deals per second, the cost of one hotseat "
        "action and of one from a seat's own device, the queries of the score sheet page."
    )

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, default=5000)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, deals, json: bool, **options):
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
        figures = {"machine": machine()}
        figures["simulate"] = {
            key: simulate(key, deals=deals, seed=1)["deals_per_second"] for key in GAMES
        }
        # The test client's environment, but the templates rendered as served: the test
        # environment has every render send a signal, for which the client copies the context.
        served_render = Template._render
        setup_test_environment()
        Template._render = served_render
        old = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        try:
            user = get_user_model().objects.create_user("bench", password="bench-only-pw")
            client = Client()
            client.force_login(user)
            # first, before the query log and the caches have grown: the stack's own cost
            figures["trivial_ms"] = trivial_view(client)
            figures["hotseat"] = {key: hotseat_actions(client, user, key) for key in GAMES}
            figures["devices"] = {key: device_cost(client, user, key) for key in GAMES}
            if connection.vendor == "sqlite":
                figures["durability"] = durability_cost(client, user, next(iter(GAMES)))
            figures["score_sheet"] = {
                key: sheet for key in GAMES if (sheet := score_sheet_queries(client, user, key))
            }
        finally:
            teardown_databases(old, verbosity=0)
        sections.bench(figures, deals=deals, nth=NTH, most_ratio=DEVICE_RATIO)
        if json:
            self.stdout.write(dumps(figures))
            return
        self.stdout.write(f"machine: {figures['machine']}")
        for key, rate in figures["simulate"].items():
            self.stdout.write(
                f"simulate {key}: {rate:,.0f} random deals per second "
                f"({deals} deals, invariants checked after every action, one core)"
            )
        for key, h in figures["hotseat"].items():
            self.stdout.write(
                f"hotseat action {key} (POST, write, partial): median {h['action_ms']:.2f} ms "
                f"over {h['actions']} actions; SQL queries per action (COMMIT not counted): first "
                f"{h['queries_first']}, {ordinal(NTH)} {h['queries_nth']} "
                f"(min {h['queries_min']}, max {h['queries_max']})"
            )
        for key, d in figures["devices"].items():
            met = d["ratio"] <= DEVICE_RATIO
            self.stdout.write(
                f"device action {key} (POST from the seat's own page, write, partial) against "
                f"the shared screen's, in turn: median {d['device_ms']:.2f} ms against "
                f"{d['shared_ms']:.2f} ms over {d['actions']} actions each, {d['ratio']:.2f} "
                f"times (required: at most {DEVICE_RATIO:.2f}: {'meets' if met else 'MISSES'})"
            )
        if "durability" in figures:
            d = figures["durability"]
            self.stdout.write(
                f"hotseat action {d['game']}, SQLite synchronous=FULL (as served) against "
                f"NORMAL: median {d['full_ms']:.2f} ms against {d['normal_ms']:.2f} ms over "
                f"{ACTIONS} actions each, in turn, a database in {d['folder']}"
            )
        for key, q in figures["score_sheet"].items():
            after = ", ".join(
                f"after deal {n.removeprefix('after_')} {count}" for n, count in q.items()
            )
            self.stdout.write(f"score sheet page {key}, SQL queries: {after}")
        self.stdout.write(
            f"trivial view: median {figures['trivial_ms']:.2f} ms over {TRIVIAL} requests"
        )


def dumps(figures) -> str:
    return json.dumps(figures, ensure_ascii=False)


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def machine() -> str:
    return (
        f"{config.machine.machine()}, {connection.vendor}, "
        f"DEBUG {'on' if settings.DEBUG else 'off'}"
    )


def new_table(user, key: str):
    """A table of the game with its default options, seated from ``NAMES``."""
    rules = registry.rules(key)
    seats = rules.seats(rules.parse_options({}))
    return services.start_table(user=user, game=key, options={}, seed=1, players=NAMES[:seats])


class Statements:
    """The SQL statements run inside it, counted as the database is sent them (COMMIT, which
    is no statement of a cursor, is not counted), without the debug cursor's log: the
    timings are those of a served request."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def __enter__(self):
        self.wrapper = connection.execute_wrapper(self)
        self.wrapper.__enter__()
        return self

    def __exit__(self, *exc):
        return self.wrapper.__exit__(*exc)

    def __len__(self):
        return self.count


def step_first(state, action: dict) -> dict | None:
    """The step a live table takes before ``action`` (a draw, say), if one is due."""
    try:
        state.check_steps(action)
    except IllegalAction:
        return state.steps()[0]
    return None


def post(client, path: str, fields: dict):
    """A form posted as htmx posts it: urlencoded (the test client's default is multipart)."""
    return client.post(
        path, urlencode(fields), content_type="application/x-www-form-urlencoded", **HTMX
    )


def current(table):
    deal = selectors.current_deal(table)
    deal.table = table
    return deal


def hotseat_actions(client, user, key: str, actions: int = ACTIONS, levels=()) -> dict:
    """Play deals through the pages as the hotseat screen does; time each action's POST (not
    the reveals, nor the steps before an action). With ``levels``, SQLite's synchronous is
    set to each in turn before an action, and each level's median is reported too."""
    table = new_table(user, key)
    rng = random.Random(1)
    timings, counts = [], []
    while len(timings) < actions:
        path, fields = next_action(client, table, rng)
        if levels:
            level = levels[len(timings) % len(levels)]
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA synchronous={level}")
        with Statements() as queries:
            started = time.perf_counter()
            response = post(client, path, fields)
            timings.append(time.perf_counter() - started)
        assert response.status_code == 200, (key, "act", response.status_code)
        if fields["deal"] == 1:
            counts.append(len(queries))
    return {
        "actions": len(timings),
        "action_ms": round(statistics.median(timings) * 1000, 3),
        "levels_ms": {
            level: round(statistics.median(timings[i :: len(levels)]) * 1000, 3)
            for i, level in enumerate(levels)
        },
        "first_deal_actions": len(counts),
        "queries_first": counts[0],
        "queries_nth": counts[NTH - 1] if len(counts) >= NTH else None,
        "queries_min": min(counts),
        "queries_max": max(counts),
    }


def next_action(client, table, rng, keys: dict | None = None) -> tuple[str, dict]:
    """What the table's screen posts for its next action (a random legal one), its path and
    its form, having posted first what is due before it: the next deal, the reveal, the
    step. ``keys``: a table of devices, each seat's key (by position), posted to from its
    own page; else the shared screen's."""
    moves = registry.game(table.game).moves

    def path(what: str, seat: int = 0) -> str:
        return f"/s/{keys[seat]}/{what}" if keys else f"/t/{table.token}/{what}"

    while True:
        deal = current(table)
        if deal.is_over:
            response = post(client, path("next-deal"), {"deal": deal.number})
            assert response.status_code == 200, (table.game, "next-deal", response.status_code)
            continue
        hotseat = selectors.load(deal)
        if hotseat.handoff:
            response = post(
                client,
                path("reveal"),
                {"deal": deal.number, "version": deal.version, "seat": hotseat.state.to_act},
            )
            assert response.status_code == 200, (table.game, "reveal", response.status_code)
            continue
        break
    action = rng.choice(hotseat.state.legal_actions())
    step = step_first(hotseat.state, action)
    if step:
        response = post(
            client,
            path("act", step["seat"]),
            {
                "deal": deal.number,
                "version": deal.version,
                "seat": step["seat"],
                **moves.fields(step),
            },
        )
        assert response.status_code == 200, (table.game, "step", response.status_code)
        deal = current(table)
    fields = {
        "deal": deal.number,
        "version": deal.version,
        "seat": action["seat"],
        **moves.fields(action),
    }
    return path("act", action["seat"]), fields


def device_cost(client, user, key: str, actions: int = ACTIONS) -> dict:
    """One action at a table of devices (every seat on its own, posted from the seat's own
    page by a phone that is signed in to nothing) against the same at the shared screen: a
    table of each from the same seed, played through the pages, their actions' POSTs timed
    in turn, one and one, so that the machine's wandering speed weighs on both alike."""
    rules = registry.rules(key)
    seats = rules.seats(rules.parse_options({}))
    devices = services.start_table(
        user=user, game=key, options={}, seed=1, players=NAMES[:seats], devices=range(seats)
    )
    keys = {seat.position: seat.key for seat in devices.seats.all()}
    tables = [(client, new_table(user, key), None), (Client(), devices, keys)]
    rngs = [random.Random(1), random.Random(1)]
    timings: list[list[float]] = [[], []]
    while len(timings[1]) < actions:
        for i, (poster, table, table_keys) in enumerate(tables):
            path, fields = next_action(poster, table, rngs[i], table_keys)
            started = time.perf_counter()
            response = post(poster, path, fields)
            timings[i].append(time.perf_counter() - started)
            assert response.status_code == 200, (key, path, response.status_code)
    shared, device = (statistics.median(t) * 1000 for t in timings)
    return {
        "actions": actions,
        "shared_ms": round(shared, 3),
        "device_ms": round(device, 3),
        "ratio": round(device / shared, 3),
    }


def durability_cost(client, user, key: str) -> dict:
    """What it costs an action that a power cut loses no acknowledged write: the hotseat
    actions timed with synchronous=FULL (as served: the WAL synced at every commit) and
    NORMAL (synced at checkpoints only) in turn, action by action, so that the machine's
    wandering speed weighs on both alike; FULL after."""
    try:
        timed = hotseat_actions(client, user, key, 2 * ACTIONS, levels=("NORMAL", "FULL"))
        with connection.cursor() as cursor:  # the requests kept the connection and its level
            cursor.execute("PRAGMA synchronous")
            assert cursor.fetchone()[0] == 2
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous=FULL")
    return {
        "game": key,
        "full_ms": timed["levels_ms"]["FULL"],
        "normal_ms": timed["levels_ms"]["NORMAL"],
        "folder": str(Path(connection.settings_dict["NAME"]).resolve().parent),
    }


def score_sheet_queries(client, user, key: str) -> dict | None:
    """Queries of the first cycle's score sheet page after its first finished deal and after
    its last (after deal ``NO_LENGTH`` of a match played to a target); None for a game
    without cycles."""
    rules = registry.rules(key)
    plan = rules.cycle(rules.parse_options({}))
    if plan is None:
        return None
    last = plan["length"] or NO_LENGTH
    table = new_table(user, key)
    counts = {}
    for number in range(1, last + 1):
        deal = current(table)
        finish_deal(deal, user)
        if number in (1, last):
            with Statements() as queries:
                response = client.get(f"/t/{table.token}/cycles/1/")
            assert response.status_code == 200, (key, "cycle", response.status_code)
            counts[f"after_{number}"] = len(queries)
        if number < last:
            services.next_deal(table=table, after=deal.number, user=user)
    return counts


def finish_deal(deal, user) -> None:
    """Play the deal to its end through the services, one random legal action at a time
    (the step first, when one is due)."""
    rng = random.Random(deal.number)
    table = deal.table
    while not deal.is_over:
        deal.table = table
        hotseat = selectors.load(deal)
        seat = hotseat.state.to_act
        if hotseat.handoff:
            deal = services.reveal(deal=deal, seat=seat, expected_version=deal.version, user=user)
            continue
        action = rng.choice(hotseat.state.legal_actions())
        step = step_first(hotseat.state, action)
        if step:
            deal = services.play(
                deal=deal,
                seat=seat,
                action=without_seat(step),
                expected_version=deal.version,
                user=user,
            )
            deal.table = table
        deal = services.play(
            deal=deal,
            seat=seat,
            action=without_seat(action),
            expected_version=deal.version,
            user=user,
        )


def without_seat(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "seat"}


def trivial_view(client) -> float:
    """The median of a view that does next to nothing, for scale."""
    trivial = []
    for _ in range(TRIVIAL):
        started = time.perf_counter()
        client.get("/healthz")
        trivial.append(time.perf_counter() - started)
    return round(statistics.median(trivial) * 1000, 3)
