"""The club's database kept safe: its file readable by its owner only; consistent copies taken
while it serves (SQLite's backup API, ``pg_dump`` for PostgreSQL) into the backups folder,
the newest ``BACKUP_KEEP`` kept; a copy checked and put back. Django only for the settings
and the database's parameters; the commands (``backup``, ``restore``), the migration hook and
the daily copy while serving call it (docs/deploying.md, "Backups").
"""

import logging
import os
import re
import shutil
import sqlite3
import subprocess
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import connections

from .refusals import Refusal, gettext_noop

log = logging.getLogger(__name__)

OWNER_ONLY = 0o600
OWNER_ONLY_DIR = 0o700
# SQLite's companions of a database file: they hold its latest writes.
COMPANIONS = ("-wal", "-shm", "-journal")
SUFFIX = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}
NAMED = re.compile(r"^club-(\d{8}-\d{6}-\d{6})\.(sqlite3|pgdump)$")
STAMP = "%Y%m%d-%H%M%S-%f"
SQLITE_HEADER = b"SQLite format 3\x00"
PGDUMP_HEADER = b"PGDMP"
CHECK_SECONDS = 600  # how often a serving process looks whether a daily backup is due


class BackupRefused(Refusal):
    """A backup that cannot be taken, or a file that cannot be restored; nothing changed."""


# -- the database file -------------------------------------------------------------------


def sqlite_file(settings_dict: dict) -> Path | None:
    """The SQLite database's file, or None (PostgreSQL, or a database in memory)."""
    name = str(settings_dict["NAME"])
    if not settings_dict["ENGINE"].endswith("sqlite3"):
        return None
    if name == ":memory:" or name.startswith("file:") or "mode=memory" in name:
        return None
    return Path(name)


def owner_only(path: Path, mode: int = OWNER_ONLY) -> None:
    """``path``, if it exists, readable and writable by its owner alone."""
    try:
        if path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
    except FileNotFoundError:
        pass


def protect(settings_dict: dict) -> None:
    """The SQLite database's file and its companions readable by their owner only (SQLite
    then makes the companions it creates with the database file's mode)."""
    path = sqlite_file(settings_dict)
    if path is None:
        return
    for each in (path, *(path.with_name(path.name + end) for end in COMPANIONS)):
        owner_only(each)


def on_connection(sender, connection, **kwargs) -> None:
    """``connection_created``: every new connection to a SQLite file protects it, so that a
    database the club creates, or one made before, holds its passwords' hashes and sessions
    from the machine's other users."""
    if connection.vendor == "sqlite":
        protect(connection.settings_dict)


# -- the backups folder ------------------------------------------------------------------


def backup_dir(alias: str = "default") -> Path:
    """``BACKUP_DIR``; by default ``backups/`` beside the SQLite database, or in the project
    for PostgreSQL."""
    if settings.BACKUP_DIR:
        return Path(settings.BACKUP_DIR)
    path = sqlite_file(connections[alias].settings_dict)
    return (path.resolve().parent if path else Path(settings.BASE_DIR)) / "backups"


def backups(folder: Path) -> list[Path]:
    """The backups in ``folder``, oldest first (their names carry the time they were taken);
    any other file is not one of them and is left alone."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if NAMED.match(p.name) and p.is_file())


def taken_at(path: Path) -> datetime:
    return datetime.strptime(NAMED.match(path.name).group(1), STAMP).replace(tzinfo=UTC)


def rotate(folder: Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` (at least one) backups; the removed ones."""
    removed = backups(folder)[: -max(keep, 1)]
    for path in removed:
        path.unlink()
    return removed


def new_path(folder: Path, vendor: str) -> Path:
    folder.mkdir(mode=OWNER_ONLY_DIR, parents=True, exist_ok=True)
    owner_only(folder, OWNER_ONLY_DIR)
    while True:
        path = folder / f"club-{datetime.now(UTC).strftime(STAMP)}{SUFFIX[vendor]}"
        if not path.exists():
            return path


def owner_only_file(path: Path) -> None:
    """An empty file made readable by its owner only before anything is written into it."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY))


# -- taking a backup ---------------------------------------------------------------------


def take(alias: str = "default", rotating: bool = True) -> Path:
    """A consistent copy of the database, taken while it serves, into the backups folder;
    then (``rotating``) the oldest removed so that ``BACKUP_KEEP`` remain. Its path.
    ``BackupRefused`` if it cannot be taken; then nothing is left behind."""
    settings_dict = connections[alias].settings_dict
    vendor = connections[alias].vendor
    if vendor not in SUFFIX:
        raise BackupRefused(gettext_noop("no backup of a %(vendor)s database"), vendor=vendor)
    folder = backup_dir(alias)
    try:
        path = new_path(folder, vendor)
        part = path.with_name(path.name + ".part")
        owner_only_file(part)
    except OSError as exc:
        raise BackupRefused(
            gettext_noop("cannot write into %(folder)s: %(reason)s"),
            folder=str(folder),
            reason=exc.strerror or str(exc),
        ) from None
    try:
        if vendor == "sqlite":
            source = sqlite_file(settings_dict)
            if source is None or not source.exists():
                raise BackupRefused(gettext_noop("the database is not a file: no backup"))
            protect(settings_dict)
            try:
                copy_sqlite(source, part)
            except (sqlite3.Error, OSError) as exc:
                raise BackupRefused(
                    gettext_noop("the copy failed: %(reason)s"), reason=str(exc)
                ) from None
        else:
            pg_dump(settings_dict, part, server_version(alias))
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)
    if rotating:
        rotate(folder, settings.BACKUP_KEEP)
    return path


def copy_sqlite(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into the file ``target``: one step, so one read
    transaction, a snapshot of the last commit whatever other connections write meanwhile
    (WAL lets them). The copy is a single file (no WAL), checked before it counts."""
    reading = sqlite3.connect(source, timeout=20)
    copy = sqlite3.connect(target)
    try:
        reading.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
        checked = copy.execute("PRAGMA quick_check").fetchone()[0]
    finally:
        copy.close()
        reading.close()
    if checked != "ok":
        raise BackupRefused(gettext_noop("the copy failed its check: %(reason)s"), reason=checked)


def server_version(alias: str) -> int:
    """The PostgreSQL server's major version (this thread's connection closed after)."""
    connection = connections[alias]
    try:
        connection.ensure_connection()
        return connection.pg_version // 10000
    finally:
        connection.close()


def pg_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupRefused(
            gettext_noop("%(tool)s is not installed: install PostgreSQL's client programs"),
            tool=name,
        )
    return path


def pg_tool_version(tool: str) -> int:
    out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=30)
    found = re.search(r"(\d+)(?:\.\d+)?", out.stdout)
    return int(found.group(1)) if found else 0


def pg_args(settings_dict: dict) -> tuple[list[str], dict]:
    """The connection options of a PostgreSQL client program, and its environment (the
    password never on its command line)."""
    args = []
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings_dict.get(key):
            args.append(f"{option}={settings_dict[key]}")
    env = dict(os.environ)
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = settings_dict["PASSWORD"]
    return [*args, "--no-password", f"--dbname={settings_dict['NAME']}"], env


def pg_dump(settings_dict: dict, target: Path, server: int) -> None:
    tool = pg_tool("pg_dump")
    version = pg_tool_version(tool)
    if version < server:
        # pg_dump reads servers of its own version and older ones only
        raise BackupRefused(
            gettext_noop(
                "pg_dump is of PostgreSQL %(tool)s, the server of %(server)s: install "
                "pg_dump of version %(server)s or newer"
            ),
            tool=version,
            server=server,
        )
    args, env = pg_args(settings_dict)
    run(
        [tool, "--format=custom", f"--file={target}", *args],
        env,
        gettext_noop("pg_dump failed: %(reason)s"),
    )


def run(command: list[str], env: dict, failed: str) -> subprocess.CompletedProcess:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode:
        reason = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode
        raise BackupRefused(failed, reason=reason)
    return done


# -- restoring ---------------------------------------------------------------------------


def kind_of(path: Path) -> str:
    """What the file is a backup of ("sqlite" or "postgresql"), or ``BackupRefused``: a
    file that is not a backup of the club."""
    try:
        with open(path, "rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise BackupRefused(
            gettext_noop("cannot read the file: %(reason)s"), reason=exc.strerror or str(exc)
        ) from None
    if head == SQLITE_HEADER:
        check_sqlite_backup(path)
        return "sqlite"
    if head.startswith(PGDUMP_HEADER):
        check_pg_backup(path)
        return "postgresql"
    raise BackupRefused(gettext_noop("not a backup of the club's database"))


def check_sqlite_backup(path: Path) -> None:
    try:
        reading = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
        try:
            checked = reading.execute("PRAGMA quick_check").fetchone()[0]
            tables = {row[0] for row in reading.execute("SELECT name FROM sqlite_master")}
        finally:
            reading.close()
    except sqlite3.DatabaseError as exc:
        raise BackupRefused(
            gettext_noop("a damaged SQLite file: %(reason)s"), reason=str(exc)
        ) from None
    if checked != "ok":
        raise BackupRefused(gettext_noop("a damaged SQLite file: %(reason)s"), reason=checked)
    if "django_migrations" not in tables:
        raise BackupRefused(gettext_noop("a SQLite file, but not a backup of the club"))


def check_pg_backup(path: Path) -> None:
    done = subprocess.run(
        [pg_tool("pg_restore"), "--list", str(path)], capture_output=True, text=True, timeout=600
    )
    if done.returncode:
        raise BackupRefused(gettext_noop("a damaged pg_dump file"))
    if "TABLE DATA public django_migrations" not in done.stdout:
        raise BackupRefused(gettext_noop("a pg_dump file, but not a backup of the club"))


def check(path: Path, alias: str = "default") -> str:
    """``kind_of(path)``, which must be the database's own kind, else ``BackupRefused``."""
    kind = kind_of(path)
    vendor = connections[alias].vendor
    live = sqlite_file(connections[alias].settings_dict)
    if live is not None and live.exists() and path.resolve() == live.resolve():
        raise BackupRefused(gettext_noop("this is the database itself, not a backup of it"))
    if kind != vendor:
        raise BackupRefused(
            gettext_noop(
                "a backup of a %(kind)s database cannot be restored into %(vendor)s: move the "
                "club instead (docs/deploying.md)"
            ),
            kind=kind,
            vendor=vendor,
        )
    return kind


def restore(path: Path, alias: str = "default") -> Path:
    """Put the backup ``path`` back as the database, after taking a backup of the database
    as it is; that backup's path. ``BackupRefused``, nothing changed, for a file that is not
    a backup of the club's database (``check``), or when either step fails."""
    connection = connections[alias]
    kind = check(path, alias)
    before = take(alias, rotating=False)  # the backup to restore may be the oldest
    connection.close()
    if kind == "sqlite":
        try:
            restore_sqlite(path, sqlite_file(connection.settings_dict))
        except sqlite3.Error as exc:
            raise BackupRefused(
                gettext_noop(
                    "the restore failed: %(reason)s; the database as it was is in %(before)s"
                ),
                reason=str(exc),
                before=str(before),
            ) from None
    else:
        restore_pg(path, connection.settings_dict)
    return before


def restore_sqlite(path: Path, target: Path) -> None:
    """SQLite's backup API the other way: the live database's pages replaced in one write
    transaction, its WAL and the other connections kept right."""
    reading = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
    live = sqlite3.connect(target, timeout=20)
    try:
        reading.backup(live)
        live.execute("PRAGMA journal_mode=WAL")
    finally:
        live.close()
        reading.close()
    protect({"ENGINE": "django.db.backends.sqlite3", "NAME": str(target)})


def restore_pg(path: Path, settings_dict: dict) -> None:
    """``pg_restore`` in one transaction: the tables it holds dropped and made again, or,
    if any statement fails, nothing changed."""
    args, env = pg_args(settings_dict)
    run(
        [
            pg_tool("pg_restore"),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            "--exit-on-error",
            *args,
            str(path),
        ],
        env,
        gettext_noop("pg_restore failed, nothing changed: %(reason)s"),
    )


# -- before migrating, and daily while serving -------------------------------------------


def before_migrate(sender, using, plan=None, stdout=None, verbosity=1, **kwargs) -> None:
    """``pre_migrate``: a backup before any migration is applied to a database that holds
    the club (not a new one). A backup that fails stops the migration."""
    from django.core.management.base import CommandError
    from django.db.migrations.recorder import MigrationRecorder

    if not plan:
        return
    recorder = MigrationRecorder(connections[using])
    if not recorder.has_table() or not recorder.migration_qs.exists():
        return
    try:
        path = take(using)
    except BackupRefused as exc:
        raise CommandError(f"no backup before migrating, so no migration: {exc}") from None
    if stdout is not None and verbosity:
        stdout.write(f"Backed up the database before migrating: {path}")


def due(now: datetime, folder: Path, hours: float) -> bool:
    """Whether a daily backup is due: none in ``folder`` is younger than ``hours``."""
    taken = backups(folder)
    return not taken or now - taken_at(taken[-1]) >= timedelta(hours=hours)


def take_if_due(alias: str = "default") -> Path | None:
    """The daily backup, if due; a failure is logged, never raised (the club plays on)."""
    try:
        if due(datetime.now(UTC), backup_dir(alias), settings.BACKUP_EVERY_HOURS):
            return take(alias)
    except Exception:
        log.exception("the daily backup failed")
    finally:
        connections[alias].close()
    return None


class DailyBackups:
    """ASGI middleware of a serving process: at its first request, and every
    ``CHECK_SECONDS`` after, it looks whether a backup is due (``BACKUP_EVERY_HOURS`` since
    the newest; 0: never) and takes it in a thread of its own; no request waits for it.
    (daphne sends no lifespan events: the first request stands for the start.)"""

    def __init__(self, app, hours: float):
        self.app = app
        self.hours = hours
        self.next_check = 0.0
        self.thread: threading.Thread | None = None

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and self.hours > 0 and time.monotonic() >= self.next_check:
            self.next_check = time.monotonic() + CHECK_SECONDS
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=take_if_due, daemon=True)
                self.thread.start()
        await self.app(scope, receive, send)
