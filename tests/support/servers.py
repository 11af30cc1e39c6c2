"""Real daphne processes for the deployment tests and the live benchmark.

``Server`` is one ``python -m daphne`` process on a port of its own, pointed at a database
and (optionally) a Redis channel layer by its environment, as a served club is, listening on
127.0.0.1 (or, as ``make run`` does, on its environment's ``LISTEN_HOST``: the tests still
send it nothing but on loopback); ``Servers``
starts several at once and stops them. A process's output (stdout and stderr) goes to a file:
``Server.check()`` fails, showing that file, when the process has died or has logged a
traceback. ``Member`` makes authenticated requests to them as a signed-in member would: his
session cookie and a CSRF token.

In a test, ``current_database_url()`` names the database pytest-django made for the running
test (the servers must see its data: use ``transactional_db``, so that it is committed).
"""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import requests

BASE_DIR = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 30
# What the running test process sets for itself and a served process must not inherit.
NOT_INHERITED = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)
TRACEBACK = "Traceback (most recent call last)"


class ServerFailed(AssertionError):
    """A process died, did not start, or logged a traceback; the message holds its log."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """The ``DATABASE_URL`` (as config.settings reads it) of a Django database's settings."""
    name = str(settings_dict["NAME"])
    if settings_dict["ENGINE"].endswith("sqlite3"):
        if name == ":memory:" or name.startswith("file:"):
            raise ValueError("an in-memory SQLite database cannot be shared with a server")
        return "sqlite:///" + str(Path(name).resolve())  # sqlite:////abs/path
    if settings_dict["ENGINE"].endswith("postgresql"):
        user = quote(settings_dict.get("USER") or "", safe="")
        password = quote(settings_dict.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
        return f"postgresql://{auth}{host}{port}/{quote(name, safe='')}"
    raise ValueError(f"no DATABASE_URL for {settings_dict['ENGINE']}")


def current_database_url() -> str:
    """The running test's database (pytest-django's test database, once it is set up)."""
    from django.db import connection

    return database_url(connection.settings_dict)


def redis_url() -> str | None:
    """The Redis the running process's channel layer uses, if any."""
    from django.conf import settings

    layer = settings.CHANNEL_LAYERS.get("default", {})
    if layer.get("BACKEND", "").startswith("channels_redis"):
        host = layer["CONFIG"]["hosts"][0]
        return host["address"] if isinstance(host, dict) else host
    return None


def server_env(database: str, redis: str | None, secret_key: str) -> dict:
    """A served installation's environment: DEBUG off, the given database and Redis."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database,
        SECRET_KEY=secret_key,
        DEBUG="0",
        PYTHONUNBUFFERED="1",
        BACKUP_EVERY_HOURS="0",  # no daily backups of a test database
    )
    if redis:
        env["REDIS_URL"] = redis
    return env


class Server:
    def __init__(self, env: dict, port: int | None = None, log_dir: str | None = None):
        self.env = env
        self.port = port or free_port()
        self.log_path = Path(log_dir or tempfile.gettempdir()) / f"daphne-{self.port}.log"
        self.log_path.write_text("")
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self.meant_to_stop = False  # stopped or killed by the harness, not by itself

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Server":
        """Start the process (again, on the same port) without waiting for it."""
        assert self.process is None or self.process.poll() is not None, "already running"
        with open(self.log_path, "a") as log:
            log.write(f"--- start {self.starts + 1} on port {self.port}\n")
            log.flush()
            self.meant_to_stop = False
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    "-b",
                    self.env.get("LISTEN_HOST") or "127.0.0.1",
                    "-p",
                    str(self.port),
                    "config.asgi:application",
                ],
                cwd=BASE_DIR,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1
        return self

    def wait_ready(self, timeout: float = STARTUP_SECONDS, healthy: bool = True) -> "Server":
        """Wait until ``/healthz`` answers 200 (any answer, unless ``healthy``: a process
        whose database or Redis is down answers 503); ServerFailed if the process dies
        first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerFailed(
                    f"daphne on port {self.port} exited with "
                    f"{self.process.returncode} before it answered\n{self.log()}"
                )
            try:
                status = requests.get(self.url + "/healthz", timeout=10).status_code
                if status == 200 or not healthy:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.05)
        raise ServerFailed(
            f"daphne on port {self.port} did not answer /healthz within "
            f"{timeout:.0f} s\n{self.log()}"
        )

    def rss_kib(self) -> int:
        """The process's resident memory now (Linux: /proc), in KiB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise ServerFailed(f"no VmRSS for daphne on port {self.port}")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as a crash or the OOM killer would."""
        self.meant_to_stop = True
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        with open(self.log_path, "a") as log:
            log.write(f"--- killed (SIGKILL) on port {self.port}\n")

    def launch(self, tries: int = 3, healthy: bool = True) -> "Server":
        """Start and wait; on another port if this one was taken meanwhile (``free_port``
        cannot hold it for the process)."""
        for _ in range(tries - 1):
            try:
                return self.start().wait_ready(healthy=healthy)
            except ServerFailed:
                if self.running() or "Address already in use" not in self.log_path.read_text():
                    raise
            self.port = free_port()
            self.log_path = self.log_path.with_name(f"daphne-{self.port}.log")
            self.log_path.write_text("")
        return self.start().wait_ready(healthy=healthy)

    def restart(self) -> "Server":
        """Start again on the same port (after ``kill`` or ``stop``) and wait."""
        return self.start().wait_ready()

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not stop within five seconds."""
        if not self.running():
            return
        self.meant_to_stop = True
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)

    def log(self, lines: int = 200) -> str:
        """The log from its first traceback on (or its last ``lines`` lines), to show."""
        try:
            text = self.log_path.read_text()
        except OSError as exc:
            return f"--- no log of daphne on port {self.port}: {exc}"
        if TRACEBACK in text:
            text = text[text.index(TRACEBACK) :]
        kept = text.splitlines()[-lines:] if lines else text.splitlines()
        return f"--- log of daphne on port {self.port} ({self.log_path}):\n" + "\n".join(kept)

    def check(self) -> None:
        """ServerFailed if the process died by itself or logged a traceback."""
        text = self.log_path.read_text()
        if TRACEBACK in text:
            raise ServerFailed(f"daphne on port {self.port} logged a traceback\n{self.log()}")
        if self.process is not None and not self.meant_to_stop and self.process.poll() is not None:
            raise ServerFailed(
                f"daphne on port {self.port} exited by itself with "
                f"{self.process.returncode}\n{self.log()}"
            )


class Servers(list):
    """Several processes against one database, started together; a context manager that
    stops them all (and keeps their logs, to show on a failure)."""

    def __init__(self, count: int, env: dict, log_dir: str | None = None, healthy: bool = True):
        super().__init__(Server(env, log_dir=log_dir) for _ in range(count))
        self.healthy = healthy  # else started once they answer at all (Server.wait_ready)

    def __enter__(self) -> "Servers":
        try:
            for server in self:
                server.start()
            for server in self:
                try:
                    server.wait_ready(healthy=self.healthy)
                except ServerFailed:
                    if server.running():
                        raise
                    server.launch(healthy=self.healthy)  # its port was taken meanwhile, say
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        for server in self:
            server.stop()

    def check(self) -> None:
        for server in self:
            server.check()

    def logs(self) -> str:
        return "\n".join(server.log() for server in self)


class Member:
    """A signed-in member, as his browser is: his session cookie (made by the test client's
    ``force_login``) and a CSRF cookie with its header. ``session(server)`` is a requests
    session of his for one server: one for each thread (a session is not thread-safe)."""

    def __init__(self, user):
        from django.test import Client
        from django.utils.crypto import get_random_string

        client = Client()
        client.force_login(user)
        self.cookies = {
            "sessionid": client.cookies["sessionid"].value,
            "csrftoken": get_random_string(32),
        }

    def session(self, server: Server) -> "MemberSession":
        return MemberSession(server.url, self.cookies)


class MemberSession(requests.Session):
    """Requests to one server with paths only; htmx's header, so that an action answers
    with the table's partial (as the hotseat screen asks)."""

    def __init__(self, base_url: str, cookies: dict, timeout: float = 30):
        super().__init__()
        self.base_url = base_url
        self.timeout = timeout
        for name, value in cookies.items():
            self.cookies.set(name, value)
        self.headers.update({"X-CSRFToken": cookies["csrftoken"], "HX-Request": "true"})

    def request(self, method, url, *args, **kwargs):
        kwargs.setdefault("timeout", self.timeout)
        kwargs.setdefault("allow_redirects", False)
        return super().request(method, self.base_url + url, *args, **kwargs)


REDIS_SERVER = "/usr/bin/redis-server"


class RedisServer:
    """A private ``redis-server`` on a port of its own (nothing saved to disk), to kill and
    start again on the same port; never the machine's own Redis."""

    def __init__(self, log_dir: str | None = None, binary: str = REDIS_SERVER):
        self.binary = binary
        self.port = free_port()
        self.log_path = Path(log_dir or tempfile.gettempdir()) / f"redis-{self.port}.log"
        self.log_path.write_text("")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10) -> "RedisServer":
        """Start it (again, on the same port) and wait until it answers PING."""
        assert self.process is None or self.process.poll() is not None, "already running"
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.log_path.parent),
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerFailed(
                    f"redis-server on port {self.port} exited with "
                    f"{self.process.returncode}\n{self.log_path.read_text()}"
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), 1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            time.sleep(0.02)
        raise ServerFailed(
            f"redis-server on port {self.port} did not answer within "
            f"{timeout:.0f} s\n{self.log_path.read_text()}"
        )

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


def other_sessions(connection, wait: float = 5.0, besides: tuple | list = ()) -> list[tuple]:
    """The other sessions on the test database (but those whose connections are named
    ``besides``), once those that are ending have had ``wait`` seconds to go (a server
    process stopped a moment ago, a connection closed a moment ago): their pid, state, last
    statement and name."""
    deadline = time.monotonic() + wait
    while True:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid, state, left(query, 200), application_name FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND application_name <> ALL(%s)",
                [list(besides)],
            )
            left = cursor.fetchall()
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)
