"""The figures the issues ask for, measured on this machine (`make bench`)."""

import json
import os
import platform
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
        figures["simulate"] = {
            "fantan": simulate("fantan", deals=deals, seed=1)["deals_per_second"]}
        figures["hotseat"] = hotseat_action()
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


def hotseat_action() -> dict:
    """Play deals through the pages as the hotseat screen does, on a throw-away database."""
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False, aliases={"default"})
    try:
        user = get_user_model().objects.create_user("bench", password="bench-only-pw")
        client = Client()
        client.force_login(user)
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
    finally:
        teardown_databases(old, verbosity=0)
    return {
        "actions": len(timings),
        "action_ms": round(statistics.median(timings) * 1000, 3),
        "trivial_ms": round(statistics.median(trivial) * 1000, 3),
        "queries_first": counts[0],
        "queries_fortieth": counts[39] if len(counts) >= 40 else None,
        "queries_min": min(counts),
        "queries_max": max(counts),
    }
