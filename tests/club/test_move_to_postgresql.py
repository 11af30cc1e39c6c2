"""A club moves from SQLite to PostgreSQL with the commands docs/deploying.md gives, and
keeps everything: every deal and its log, every sheet row and its history, every account
(its password's hash, its roles) and the audit log; and it plays on there.

The move starts from the suite's SQLite database, so the run on SQLite makes it (on a
throw-away PostgreSQL database, dropped after); the run on PostgreSQL skips it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

from config.reachable import reachable
from tests.support import club_night
from tests.support.moved_club import DUMPDATA, content
from tests.support.preconditions import unavailable
from tests.support.servers import NOT_INHERITED

ROOT = Path(__file__).resolve().parents[2]
PG_SERVER = os.environ.get("PG_TEST_URL", "postgresql://postgres@127.0.0.1:5432/test")


def manage(database: str, *args: str, module: str | None = None) -> str:
    """A ``manage.py`` command (or ``python -m module``) run on ``database``, as a user runs
    it; its output."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env["DATABASE_URL"] = database
    command = ["-m", module, *args] if module else ["manage.py", *args]
    done = subprocess.run(
        [sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


@pytest.fixture
def empty_postgresql():
    """A new PostgreSQL database on the test server, its URL; dropped after."""
    if connection.vendor != "sqlite":
        pytest.skip("the move starts from SQLite: the run on SQLite makes it")
    if not reachable(PG_SERVER):
        unavailable(f"PostgreSQL at {PG_SERVER} cannot be reached: no club can move to it")
    name = f"move_test_{os.getpid()}"
    with psycopg.connect(PG_SERVER, autocommit=True) as server:
        server.execute(f"DROP DATABASE IF EXISTS {name}")
        server.execute(f"CREATE DATABASE {name}")
    try:
        yield PG_SERVER.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(PG_SERVER, autocommit=True) as server:
            server.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.mark.django_db
def test_a_club_moved_to_postgresql_keeps_everything_and_plays_on(empty_postgresql, tmp_path):
    club_night.build()
    here = content()
    # the club holds all a user would miss
    for label in (
        "games.deal",
        "games.dealevent",
        "tournaments.sheetrow",
        "tournaments.historicalsheetrow",
        "tournaments.adjustment",
        "auth.user",
        "auth.user_groups",
        "club.auditentry",
    ):
        assert here[label], f"the club to move has no {label}"
    dump = tmp_path / "club.xml"
    command, *options = DUMPDATA.split()
    call_command(command, *options, output=str(dump), verbosity=0)

    manage(empty_postgresql, "migrate", "--noinput")
    manage(empty_postgresql, "loaddata", str(dump))
    moved = json.loads(manage(empty_postgresql, "content", module="tests.support.moved_club"))

    assert set(moved) == set(here)
    for label, rows in here.items():
        assert moved[label] == rows, f"{label} differs after the move"
    users = {user["username"]: user for user in moved["auth.user"]}
    assert users["anna"]["password"].startswith("md5$")  # the hash itself, as it was
    played = json.loads(manage(empty_postgresql, "play", module="tests.support.moved_club"))
    assert played["over"] and played["events"] > 0
    assert played["table"] > max(table["id"] for table in here["games.table"])


def test_the_documented_move_is_the_one_tested():
    deploying = (ROOT / "docs" / "deploying.md").read_text(encoding="utf-8")
    assert f"manage.py {DUMPDATA}" in " ".join(deploying.replace("\\\n", " ").split())
    assert "manage.py loaddata" in deploying
