"""Nothing lost (core/backups.py, docs/deploying.md "Backups"): the database file and its
backups readable by their owner only; every acknowledged write synced; consistent backups
taken while the club writes, and put back; the newest kept; one taken before a migration
changes an existing database and once a day while serving; a file that is not a backup
refused, changing nothing. Run on SQLite and on PostgreSQL (pg_dump, pg_restore) alike."""

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.utils import translation

from club.models import Player
from core import backups
from tests.support.commands import lines, run
from tests.support.servers import NOT_INHERITED

ROOT = Path(__file__).resolve().parents[2]
BATCH = 5  # players a writing transaction adds


@pytest.fixture(autouse=True)
def in_english():
    """The commands speak the active language; these tests read their English words."""
    with translation.override("en"):
        yield


@pytest.fixture
def folder(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


@contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def manage(database: Path, *args: str, folder: Path) -> subprocess.CompletedProcess:
    """``manage.py`` as a user runs it, with a umask that leaves files world-readable, on the
    SQLite file ``database``."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env.update(DATABASE_URL=f"sqlite:///{database}", BACKUP_DIR=str(folder))
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        umask=0o022,
    )
    assert done.returncode == 0, done.stderr
    return done


# -- the database file -------------------------------------------------------------------


def test_a_database_the_club_creates_is_readable_by_its_owner_only(tmp_path):
    database = tmp_path / "db.sqlite3"
    manage(database, "migrate", "--noinput", folder=tmp_path / "backups")
    assert mode(database) == 0o600
    assert not (tmp_path / "backups").exists()  # a new database: nothing to back up


def test_a_world_readable_database_and_its_companions_become_owner_only(tmp_path):
    """A database made before, world-readable, with its WAL (the latest writes) and shared
    memory open beside it: the club's next connection makes all three its owner's alone."""
    database = tmp_path / "db.sqlite3"
    with umask(0o022):
        holder = sqlite3.connect(database)
        holder.execute("PRAGMA journal_mode=WAL")
        holder.execute("CREATE TABLE kept (secret TEXT)")
        holder.execute("INSERT INTO kept VALUES ('a session key')")
        holder.commit()
    try:
        companions = [database.with_name(database.name + end) for end in ("-wal", "-shm")]
        assert [mode(p) for p in (database, *companions)] == [0o644] * 3
        manage(database, "migrate", "--noinput", folder=tmp_path / "backups")
        assert [mode(p) for p in (database, *companions)] == [0o600] * 3
    finally:
        holder.close()


@pytest.mark.django_db
def test_every_acknowledged_write_is_synced_before_it_is_acknowledged():
    """SQLite in WAL mode loses the last commits to a power cut unless synchronous is FULL
    (NORMAL syncs at checkpoints only)."""
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL syncs each commit itself (synchronous_commit)")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 2  # FULL


# -- taking backups ----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_backup_and_its_folder_are_readable_by_their_owner_only(folder):
    with umask(0o022):
        path = backups.take()
    assert path.parent == folder
    assert (mode(folder), mode(path)) == (0o700, 0o600)
    assert backups.kind_of(path) == connection.vendor


@pytest.mark.django_db
def test_the_newest_backups_are_kept_and_no_other_file_is_touched(folder, settings):
    settings.BACKUP_KEEP = 3
    folder.mkdir()
    others = [folder / "notes.txt", folder / "club-copy.sqlite3"]
    for other in others:
        other.write_text("mine")
    taken = [backups.take() for _ in range(5)]
    assert backups.backups(folder) == taken[-3:]
    assert all(other.read_text() == "mine" for other in others)


class Writer(threading.Thread):
    """Adds players, BATCH in each transaction (batch0000-0 .. batch0000-4, then batch0001-0
    ...), committed one after the other until stopped."""

    def __init__(self):
        super().__init__(daemon=True)
        self.stop = threading.Event()
        self.batches = 0

    def run(self):
        try:
            while not self.stop.is_set():
                with transaction.atomic():
                    for i in range(BATCH):
                        Player.objects.create(name=f"batch{self.batches:04d}-{i}")
                self.batches += 1
        finally:
            connection.close()


def whole_batches(names: list[str]) -> int:
    """How many batches ``names`` hold, each whole and in order from the first; else fails."""
    batches = len(names) // BATCH
    assert sorted(names) == sorted(
        f"batch{b:04d}-{i}" for b in range(batches) for i in range(BATCH)
    )
    return batches


def players() -> list[str]:
    connection.close()  # the database was put back under it
    return list(Player.objects.values_list("name", flat=True))


@pytest.mark.concurrency
@pytest.mark.django_db(transaction=True)
def test_a_backup_taken_while_the_club_writes_is_consistent_and_restores(folder):
    """Backups taken while another connection commits batch after batch each hold whole
    batches only; restoring one gives the database exactly that; the restore backed up the
    database as it was first, and that backup restores it again."""
    writer = Writer()
    writer.start()
    try:
        while writer.batches < 3:
            time.sleep(0.01)
        taken = [backups.take(), backups.take()]
        upto = writer.batches  # the second backup holds no more batches than these
        taken.append(backups.take())
        while writer.batches <= upto:
            time.sleep(0.01)
    finally:
        writer.stop.set()
        writer.join(30)
    final = players()
    assert whole_batches(final) == writer.batches
    if connection.vendor == "sqlite":
        for path in taken:  # each copy read as it is, before any restore
            with sqlite3.connect(path) as copy:
                whole_batches([row[0] for row in copy.execute("SELECT name FROM games_player")])

    before = backups.restore(taken[1])
    restored = players()
    assert 3 <= whole_batches(restored) <= upto < writer.batches
    assert before.exists() and before != taken[1]
    backups.restore(before)
    assert sorted(players()) == sorted(final)


@pytest.mark.django_db(transaction=True)
def test_a_pg_dump_older_than_the_server_is_refused(folder, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("on PostgreSQL: the run on PostgreSQL makes it")
    monkeypatch.setattr(backups, "pg_tool_version", lambda tool: 9)
    with pytest.raises(backups.BackupRefused, match="pg_dump is of PostgreSQL 9"):
        backups.take()
    assert backups.backups(folder) == []


# -- before a migration, and daily while serving -----------------------------------------


def test_a_migration_of_an_existing_database_backs_it_up_first(tmp_path):
    """migrate on a new database, or with nothing to apply, takes no backup; with something
    to apply, one of the database as it was, before the migration."""
    database, folder = tmp_path / "db.sqlite3", tmp_path / "backups"
    manage(database, "migrate", "--noinput", folder=folder)
    manage(database, "migrate", "--noinput", folder=folder)
    assert backups.backups(folder) == []
    graph = MigrationLoader(None).graph
    (_, last), *_ = graph.leaf_nodes("games")
    parents = [node.key for node in graph.node_map[("games", last)].parents]
    (previous,) = (name for app, name in parents if app == "games")
    done = manage(database, "migrate", "--noinput", "games", previous, folder=folder)
    (backup,) = backups.backups(folder)
    assert str(backup) in done.stdout
    with sqlite3.connect(backup) as copy:
        applied = set(copy.execute("SELECT app, name FROM django_migrations"))
    assert ("games", last) in applied  # taken before the migration went back
    assert mode(backup) == 0o600


class App:
    """An ASGI application that answers nothing and counts its calls."""

    def __init__(self):
        self.calls = 0

    async def __call__(self, scope, receive, send):
        self.calls += 1


def request(served: backups.DailyBackups) -> None:
    asyncio.run(served({"type": "http", "path": "/"}, None, None))
    if served.thread is not None:
        served.thread.join(60)


@pytest.mark.django_db
def test_a_serving_process_takes_a_backup_a_day(folder, settings):
    """The first request of a process takes a backup when none is a day old, without the
    request waiting for it, and none again before a day has passed; restarted a day later,
    it takes the next. BACKUP_EVERY_HOURS 0 takes none."""
    app = App()
    served = backups.DailyBackups(app, hours=24)
    request(served)
    (first,) = backups.backups(folder)
    request(served)
    assert backups.backups(folder) == [first] and app.calls == 2

    request(backups.DailyBackups(App(), hours=24))  # restarted within the day
    assert backups.backups(folder) == [first]
    yesterday = datetime.now(UTC) - timedelta(hours=25)
    old = first.with_name(f"club-{yesterday.strftime(backups.STAMP)}{first.suffix}")
    first.rename(old)
    request(backups.DailyBackups(App(), hours=24))  # restarted a day later
    assert len(backups.backups(folder)) == 2 and backups.backups(folder)[0] == old

    shutil.rmtree(folder)
    request(backups.DailyBackups(App(), hours=0))
    assert backups.backups(folder) == []


# -- restore -----------------------------------------------------------------------------


def junk(path: Path) -> None:
    path.write_text("players: Анна, Борис\n", encoding="utf-8")


def empty(path: Path) -> None:
    path.write_bytes(b"")


def another_sqlite_database(path: Path) -> None:
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    other.close()


def a_damaged_backup(path: Path) -> None:
    path.write_bytes(backups.take().read_bytes()[:100])


def not_a_pg_dump(path: Path) -> None:
    path.write_bytes(backups.PGDUMP_HEADER + b"\x01\x0e\x00 not really")


def a_folder(path: Path) -> None:
    path.mkdir()


def missing(path: Path) -> None:
    pass


@pytest.mark.parametrize(
    "make",
    [junk, empty, another_sqlite_database, a_damaged_backup, not_a_pg_dump, a_folder, missing],
)
@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_file_that_is_not_a_backup_and_changes_nothing(folder, tmp_path, make):
    Player.objects.create(name="Анна")
    path = tmp_path / "given"
    make(path)
    taken = backups.backups(folder)
    code, out, err = run("restore", str(path))
    assert (code, out) == (2, "")
    assert len(lines(err)) == 1 and lines(err)[0].startswith(f"{path}: not restored: ")
    assert "Traceback" not in err
    assert backups.backups(folder) == taken  # not even a backup taken
    assert players() == ["Анна"]


@pytest.mark.django_db(transaction=True)
def test_a_backup_of_the_other_kind_of_database_is_refused(folder, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("a pg_dump file is made on PostgreSQL: the run on PostgreSQL makes it")
    path = tmp_path / "club.sqlite3"
    with sqlite3.connect(path) as club:
        club.execute("CREATE TABLE django_migrations (app TEXT, name TEXT)")
    club.close()
    code, out, err = run("restore", str(path))
    assert code == 2
    assert "a backup of a sqlite database cannot be restored into postgresql" in err
    assert backups.backups(folder) == []


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_the_database_itself(folder):
    if connection.vendor != "sqlite":
        pytest.skip("a SQLite database is a file: the run on SQLite makes it")
    code, out, err = run("restore", str(connection.settings_dict["NAME"]))
    assert code == 2
    assert "the database itself" in err and "Traceback" not in err
    assert backups.backups(folder) == []


@pytest.mark.django_db
def test_a_backup_that_cannot_be_written_is_refused_in_a_sentence(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "a-file"
    settings.BACKUP_DIR.write_text("in the way")
    code, out, err = run("backup")
    assert (code, out) == (1, "")
    assert err.startswith("no backup: cannot write into ") and "Traceback" not in err


@pytest.mark.django_db
def test_the_backup_commands_speak_the_clubs_language_whole(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "a-file"
    settings.BACKUP_DIR.write_text("in the way")
    junk = tmp_path / "junk"
    junk.write_text("not a backup")
    with translation.override("ru"):
        _code, _out, refused = run("backup")
        _code, _out, unrestored = run("restore", str(junk))
    assert refused.startswith("резервная копия не сделана: не удаётся записать в ")
    assert unrestored.startswith(f"{junk}: не восстановлено: ")


@pytest.mark.django_db(transaction=True)
def test_a_restore_says_where_the_database_as_it_was_is_kept(folder):
    Player.objects.create(name="Анна")
    taken = backups.take()
    Player.objects.create(name="Борис")
    with translation.override("ru"):
        code, out, err = run("restore", str(taken))
    assert (code, err) == (0, "")
    kept = out.strip().rsplit(" ", 1)[-1]
    assert out.startswith(f"Восстановлено из {taken}; база данных в прежнем виде — в {kept}")
    assert players() == ["Анна"]
    backups.restore(Path(kept))
    assert sorted(players()) == ["Анна", "Борис"]
