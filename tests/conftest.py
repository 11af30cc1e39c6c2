import importlib.util
import os

import pytest
from django.utils.crypto import get_random_string

from club.models import Player
from games import registry, services
from tests.support.browser import chromium, open_page, tab, user  # noqa: F401 (fixtures)
from tests.support.preconditions import unavailable
from tests.support.servers import (
    Servers,
    current_database_url,
    other_sessions,
    redis_url,
    server_env,
)

# Playwright's sync API runs an event loop in the test thread; Django's ORM must still be
# usable from the test itself (live_server fixtures, assertions on the database).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_configure(config):
    """A fast password hasher for the suite. The served club keeps Django's PBKDF2, whose
    million rounds take a second a password on a slow core: hundreds of tests make members,
    and the tests check who may sign in, not how hard a stolen hash is to crack."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The robots' turns are taken where a test says so (games.robot_turns.take_due), not by
    # a thread of the test process; the server processes the tests start take their own.
    settings.ROBOT_TURNS = False
    # The test process keeps no pool of PostgreSQL connections: a pool keeps its idle ones
    # open on purpose, and the end of the run (django_db_setup) fails on any connection left
    # open. The served processes the tests start (tests/support/servers.py) keep theirs.
    settings.DATABASES["default"].get("OPTIONS", {}).pop("pool", None)


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="only the tests that use the database or real server processes, no browser test "
        "(make test's run on PostgreSQL and Redis: the SQLite run has the others)",
    )


DATABASE_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}


def pytest_collection_modifyitems(config, items):
    """The run on PostgreSQL and Redis repeats only what they can change: pure tests give
    the same answer on any database, the browser tests see the same pages, and the tables'
    pages played through the test client (``any_database``) write and read through the
    services and selectors that the service tests and the crawl run on PostgreSQL."""
    if not config.getoption("--database-tests-only"):
        return
    kept, dropped = [], []
    for item in items:
        uses_database = item.get_closest_marker("django_db") or (
            DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        )
        served = item.get_closest_marker("servers") or item.get_closest_marker("concurrency")
        elsewhere = item.get_closest_marker("browser") or item.get_closest_marker("any_database")
        if (uses_database or served) and not elsewhere:
            kept.append(item)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test gets channel layers of its own. A Redis layer keeps state bound to the event
    loop it first ran in (its receive lock, left held by a socket cut off with its loop), and
    a later test's loop cannot use it."""
    yield
    from channels.layers import channel_layers

    channel_layers.backends.clear()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database; on PostgreSQL, the run fails if a test left a connection
    open to it (which would also keep the database from being dropped). Such a connection is
    a test's bug: ORM calls made inside an event loop's thread (the suite allows them, for
    Playwright) open a connection that nothing closes. The leftovers are ended, so that the
    database is dropped all the same, and named."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock():
        left = other_sessions(connection)
        if left:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid",
                    [[pid for pid, *_ in left]],
                )
            pytest.fail(
                "connections left open to the test database at the end of the run "
                f"(pid, state, last statement): {left}",
                pytrace=False,
            )


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("host", password="pw-for-tests-only")


@pytest.fixture
def host_client(client, host):
    client.force_login(host)
    return client


@pytest.fixture
def players(db):
    return [Player.objects.create(name=n) for n in ("Анна", "Борис", "Вера", "Глеб")]


@pytest.fixture(params=sorted(registry.GAMES), ids=sorted(registry.GAMES))
def table(request, host, players):
    """A table of each game of the registry, with its default options and as many players
    as it seats."""
    rules = registry.game(request.param).rules
    seats = rules.seats(rules.parse_options({}))
    return services.start_table(
        user=host, game=request.param, players=players[:seats], options={}, seed=7
    )


@pytest.fixture
def fantan_table(host, players):
    return services.start_table(user=host, game="fantan", players=players, options={}, seed=7)


@pytest.fixture
def variety_table(host, players):
    return services.start_table(user=host, game="variety", players=players, options={}, seed=3)


@pytest.fixture
def short_variety_table(host, players):
    return services.start_table(
        user=host, game="variety", players=players, options={"cycle": "short"}, seed=5
    )


@pytest.fixture
def leopard_table(host, players):
    return services.start_table(user=host, game="leopard", players=players[:2], options={}, seed=11)


# -- real server processes (tests/support/servers.py) -----------------------------------


@pytest.fixture
def served(settings, tmp_path):
    """``served(n)``: n daphne processes on the test database, stopped after the test; the
    test fails, showing the log, if one of them died by itself or logged a traceback.
    ``served(n, NAME=value)``: with these variables set in their environment too."""
    if importlib.util.find_spec("daphne") is None:
        unavailable("daphne is not installed: no server process can be started")
    # A served installation: DEBUG off, and a secret of its own that the test shares (the
    # session cookie the test makes must be valid there).
    settings.SECRET_KEY = "live-" + get_random_string(50)
    env = server_env(current_database_url(), redis_url(), settings.SECRET_KEY)
    started = []

    def start(count: int, **environment: str) -> Servers:
        servers = Servers(count, {**env, **environment}, log_dir=str(tmp_path))
        started.append(servers)
        return servers.__enter__()

    yield start
    for servers in started:
        servers.stop()
    for servers in started:
        servers.check()
