"""The figures the issues ask for, measured on this machine (`make bench`)."""

import json
import os
import platform
import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import (
    CaptureQueriesContext,
    setup_databases,
    setup_test_environment,
    teardown_databases,
)

from games import selectors, services
from games.engine.simulate import simulate
from games.registry import GAMES

HTMX = {"HTTP_HX_REQUEST": "true"}


class Command(BaseCommand):
    help = "Benchmarks: random deals per second, and the cost of one hotseat action."

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, default=5000)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, deals, json: bool, **options):
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
        figures = {"machine": machine()}
        figures["simulate"] = {game: simulate(game, deals=deals, seed=1)["deals_per_second"]
                               for game in GAMES}
        setup_test_environment()
        old = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        try:
            user = get_user_model().objects.create_user("bench", password="bench-only-pw")
            client = Client()
            client.force_login(user)
            figures["hotseat"] = hotseat_action(client, user)
            figures["score_sheet"] = score_sheet_queries(client, user)
        finally:
            teardown_databases(old, verbosity=0)
        if json:
            self.stdout.write(dumps(figures))
            return
        self.stdout.write(f"machine: {figures['machine']}")
        for game, rate in figures["simulate"].items():
            self.stdout.write(f"simulate {game}: {rate:,.0f} random deals per second "
                              f"({deals} deals, invariants checked after every action, one core)")
        h = figures["hotseat"]
        self.stdout.write(
            f"hotseat action (POST, write, partial): median {h['action_ms']:.2f} ms over "
            f"{h['actions']} actions; trivial view: median {h['trivial_ms']:.2f} ms")
        self.stdout.write(
            f"SQL queries per action: first {h['queries_first']}, fortieth "
            f"{h['queries_fortieth']} (min {h['queries_min']}, max {h['queries_max']})")
        q = figures["score_sheet"]
        self.stdout.write(f"Выборы score sheet page, SQL queries: after one deal {q['after_1']}, "
                          f"after eight {q['after_8']}")


def dumps(figures) -> str:
    return json.dumps(figures, ensure_ascii=False)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        pass
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{connection.vendor}")


def hotseat_action(client, user) -> dict:
    """Play deals through the pages as the hotseat screen does."""
    table = services.start_table(user=user, game="fantan", options={}, seed=1,
                                 players=["Анна", "Борис", "Вера", "Глеб"])
    timings, counts = [], []
    while len(timings) < 200:
        deal = selectors.current_deal(table)
        deal.table = table
        if deal.is_over:
            client.post(f"/t/{table.token}/next-deal", {"deal": deal.number}, **HTMX)
            continue
        hotseat = services.load(deal)
        if hotseat.handoff:
            client.post(f"/t/{table.token}/reveal", {
                "deal": deal.number, "version": deal.version,
                "seat": hotseat.state.to_act}, **HTMX)
            continue
        action = hotseat.state.legal_actions()[0]
        fields = {"card": action["play"]} if "play" in action else {"pass": "1"}
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.post(f"/t/{table.token}/act", {
                "deal": deal.number, "version": deal.version, "seat": action["seat"],
                **fields}, **HTMX)
            timings.append(time.perf_counter() - started)
        assert response.status_code == 200, response.status_code
        if deal.number == 1:
            counts.append(len(queries))
    trivial = []
    for _ in range(200):
        started = time.perf_counter()
        client.get("/healthz")
        trivial.append(time.perf_counter() - started)
    return {
        "actions": len(timings),
        "action_ms": round(statistics.median(timings) * 1000, 3),
        "trivial_ms": round(statistics.median(trivial) * 1000, 3),
        "queries_first": counts[0],
        "queries_fortieth": counts[39] if len(counts) >= 40 else None,
        "queries_min": min(counts),
        "queries_max": max(counts),
    }


def score_sheet_queries(client, user) -> dict:
    """Queries of a cycle's score sheet page after its first deal and after its eighth."""
    table = services.start_table(user=user, game="variety", options={}, seed=1,
                                 players=["Анна", "Борис", "Вера", "Глеб"])
    counts = {}
    for number in range(1, 9):
        deal = selectors.current_deal(table)
        finish_deal(deal, user)
        if number in (1, 8):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(f"/t/{table.token}/cycles/1/")
            assert response.status_code == 200
            counts[f"after_{number}"] = len(queries)
        if number < 8:
            services.next_deal(table=table, after=deal.number, user=user)
    return counts


def finish_deal(deal, user) -> None:
    """Play the deal to its end through the services, one random legal action at a time."""
    rng = random.Random(deal.number)
    while not deal.is_over:
        hotseat = services.load(deal)
        seat = hotseat.state.to_act
        if hotseat.handoff:
            deal = services.reveal(deal=deal, seat=seat, expected_version=deal.version,
                                   user=user)
        else:
            action = rng.choice(hotseat.state.legal_actions())
            deal = services.play(deal=deal, seat=seat,
                                 action={k: v for k, v in action.items() if k != "seat"},
                                 expected_version=deal.version, user=user)
