"""A throw-away served club for the live benchmarks (bench/live.py, bench/fanout.py,
bench/seats.py, bench/browser.py): a PostgreSQL database of its own, migrated, and a Redis
database emptied before and after, or a SQLite file in a temporary folder and no Redis, with
Django set up on them in this process; and those benchmarks' set-ups, each run in a process
of its own, their figures' rows gathered for one table.
"""

import json
import os
import secrets
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit

from config.reachable import reachable

PG_SERVER = os.environ.get("BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/")
BASE_DIR = Path(__file__).resolve().parent.parent


def say(line: str) -> None:
    print(line, flush=True)


def admin_sql(*statements: str) -> None:
    """Statements run on the server's ``postgres`` database (CREATE/DROP DATABASE)."""
    import psycopg

    server = urlsplit(PG_SERVER)
    with psycopg.connect(
        dbname="postgres",
        user=unquote(server.username or "") or None,
        password=unquote(server.password or "") or None,
        host=server.hostname,
        port=server.port,
        autocommit=True,
        connect_timeout=5,
    ) as conn:
        for statement in statements:
            conn.execute(statement)


def empty_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        client.flushdb()
    finally:
        client.close()


@contextmanager
def throwaway_club(name: str, database: str, redis_url: str):
    """Yields (the served processes' environment, a member) on a fresh database, or None
    (having said why) when PostgreSQL or Redis cannot be reached; drops it all at the end."""
    database_url = PG_SERVER.rstrip("/") + "/" + database
    if not (reachable(database_url) and reachable(redis_url)):
        say(f"{name} skipped: PostgreSQL or Redis cannot be reached ({PG_SERVER}, {redis_url})")
        yield None
        return
    try:
        admin_sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)", f"CREATE DATABASE {database}")
    except Exception as exc:  # noqa: BLE001 (reachable, yet no database can be made)
        say(f"{name} skipped: no database can be made on {PG_SERVER}: {exc}")
        yield None
        return
    try:
        empty_redis(redis_url)
        yield from _served(database_url, redis_url, database)
    finally:
        admin_sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        empty_redis(redis_url)


@contextmanager
def sqlite_club():
    """Yields (the served process's environment, a member) on a fresh SQLite file in a
    temporary folder (``TMPDIR``), with the in-memory channel layer: one process serves."""
    with tempfile.TemporaryDirectory(prefix="bench-club-") as folder:
        path = Path(folder) / "club.sqlite3"
        yield from _served(f"sqlite:///{path}", None, str(path))


def _served(database_url: str, redis_url: str | None, name: str):
    """The database migrated, Django set up on it here, a member made; yields the served
    processes' environment and the member."""
    secret = "bench-" + secrets.token_urlsafe(40)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        SECRET_KEY=secret,
        DEBUG="0",
    )
    if redis_url:
        os.environ["REDIS_URL"] = redis_url
    else:
        os.environ.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=BASE_DIR,
        env=os.environ,
        check=True,
    )
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, connections

    # (config.settings read DATABASE_URL when django.setup() imported it, not before)
    assert str(connection.settings_dict["NAME"]) == name, connection.settings_dict["NAME"]

    from tests.support.servers import server_env

    user = get_user_model().objects.create_user("bench", password=secrets.token_hex(16))
    yield server_env(database_url, redis_url, secret), user
    connections.close_all()


def each_setup(module: str, setups: dict[str, str]) -> tuple[int, list, list[str]]:
    """Runs ``python -m MODULE NAME FILE`` for each set-up (its name: its label), each
    writing its table's rows and notes into FILE as JSON (``write_rows``); the worst exit
    code, the rows of all, and the notes of all (a set-up without figures said so)."""
    codes, rows, notes = [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-rows-") as folder:
        for name, label in setups.items():
            written = Path(folder) / f"{name}.json"
            command = [sys.executable, "-m", module, name, str(written)]
            codes.append(subprocess.run(command, cwd=BASE_DIR).returncode)
            if written.exists():
                figures = json.loads(written.read_text(encoding="utf-8"))
                rows += figures["rows"]
                notes += figures["notes"]
            elif codes[-1] == 0:
                notes.append(f"{label}: skipped, PostgreSQL or Redis cannot be reached.")
            else:
                notes.append(f"{label}: no figures, its run failed (exit {codes[-1]}).")
    return max(codes), rows, notes


def write_rows(argv: list[str], rows: list, notes: list[str]) -> None:
    """A set-up's rows and notes, into the file its command line names (``each_setup``)."""
    if len(argv) > 1:
        figures = {"rows": rows, "notes": notes}
        Path(argv[1]).write_text(json.dumps(figures, ensure_ascii=False), encoding="utf-8")
