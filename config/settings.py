"""Settings, read from the environment so that a club laptop needs none of them set.

DATABASE_URL  sqlite:///path (default: db.sqlite3 here) or postgresql://user@host:port/name
REDIS_URL     redis://host:port/n for channels-redis, for several server processes; when unset,
              the in-memory layer, and sessions cached in the process's memory
REQUEST_SLOTS HTTP requests one server process serves at once (default 8), and on PostgreSQL
              its pool's most connections: processes x slots must stay below the database's limit
SECRET_KEY    else what .secret_key here holds (`make run` makes it once), else a
              development key, which DEBUG off refuses
DEBUG (default on), ALLOWED_HOSTS (comma-separated; * for any)
TRUSTED_PROXIES the reverse proxies whose X-Forwarded-For names the client (config.proxies)
BACKUP_DIR, BACKUP_KEEP, BACKUP_EVERY_HOURS  the backups (docs/deploying.md, "Backups")
ROBOT_PAUSE, ROBOT_TURNS, ROBOT_BUDGET  the robots' turns (games.robot_turns)
LISTEN_HOST   the address daphne listens on (`make run` sets it), for the links phones open
"""

import os
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import proxies
from games.registry import GAMES

BASE_DIR = Path(__file__).resolve().parent.parent

DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
# made once by `make run`; never committed (SECRET_KEY_FILE: another path, for the tests)
SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key"))


def secret_key() -> str:
    """SECRET_KEY from the environment, else from .secret_key, else the development key."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    try:
        return SECRET_KEY_FILE.read_text().strip() or DEV_SECRET_KEY
    except FileNotFoundError:
        return DEV_SECRET_KEY


SECRET_KEY = secret_key()
DEBUG = os.environ.get("DEBUG", "1").lower() in ("1", "true", "yes", "on")
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured("DEBUG is off: set SECRET_KEY to a long random value.")
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if host.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "simple_history",
    "core",  # the plumbing every app uses (notices, refusals, charts, backups...): no app's
    "club",  # the club's people: players, members, roles, the audit log; below games
    "games",
    *GAMES.values(),  # each game is an app: its templates and static files are found
    "tournaments",
    "ratings",  # the club's ratings: it may import every app above, none imports it
    "club.apps.SignInThrottlingConfig",  # django-axes: sign-in throttling
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.csrf.CsrfCookieOnPagesMiddleware",  # an htmx answer does not renew the CSRF cookie
    "config.vary.VaryOnHtmxMiddleware",  # a page and its partial may share an address
    "tournaments.addresses.FormerKeys",  # a tournament's former address redirects to its page
    "axes.middleware.AxesMiddleware",  # last: it answers a locked-out sign-in
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


# At most this many HTTP requests of one server process are served at once; the others wait
# their turn in its event loop, holding no thread and no database connection (config.slots).
# On PostgreSQL the process's connection pool holds as many connections at most.
REQUEST_SLOTS = int(os.environ.get("REQUEST_SLOTS", "8"))


def database_from_url(url: str) -> dict:
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        # sqlite:///relative.db or sqlite:////absolute/path.db
        return sqlite_database(unquote(parts.path[1:]) or ":memory:")
    if parts.scheme in ("postgres", "postgresql", "pgsql"):
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.lstrip("/")) or "postgres",
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            # Each request takes a connection from the process's pool and gives it back at its
            # end (CONN_MAX_AGE 0 under a pool): at most REQUEST_SLOTS connections a process,
            # whatever it serves, the live pages' sockets included; a request that finds all
            # in use waits for one (timeout: seconds, then a 500). Named by the process, so
            # that pg_stat_activity tells whose they are.
            "CONN_MAX_AGE": 0,
            "OPTIONS": {
                "application_name": f"cardclub:{os.getpid()}",
                "pool": {"min_size": 1, "max_size": REQUEST_SLOTS, "timeout": 5},
            },
        }
    raise ImproperlyConfigured(f"DATABASE_URL: unsupported scheme {parts.scheme!r}")


def sqlite_database(name) -> dict:
    # WAL lets readers and the one writer run side by side; IMMEDIATE takes the write lock at
    # BEGIN, so a transaction waits (timeout) instead of failing with "database is locked".
    # synchronous=FULL syncs the WAL at every commit, so that a power cut loses no
    # acknowledged write (NORMAL may lose the last ones); fullfsync: the same on macOS, whose
    # fsync alone leaves the data in the drive's cache (docs/benchmarks.md: its cost).
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": name,
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA fullfsync=ON;"
            ),
        },
        # Each server thread keeps its connection from request to request (config.handler:
        # a process's threads are as many as its request slots): opening one costs about a
        # millisecond (its pragmas, its functions, the file's modes checked), and closing
        # the last one checkpoints the WAL and removes it, for the next to make again.
        "CONN_MAX_AGE": None,
        # A file, not memory: the concurrency tests need real separate connections.
        "TEST": {"NAME": str(Path(tempfile.gettempdir()) / f"cardclub-test-{os.getpid()}.db")},
    }


DATABASES = {
    "default": database_from_url(os.environ["DATABASE_URL"])
    if os.environ.get("DATABASE_URL")
    else sqlite_database(BASE_DIR / "db.sqlite3")
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Backups (core/backups.py, docs/deploying.md): the folder (default: backups/ beside the
# SQLite database, or here for PostgreSQL), how many are kept, and how often one is taken
# while serving (0: never; one is still taken before every migration that changes the data).
BACKUP_DIR = Path(os.environ["BACKUP_DIR"]) if os.environ.get("BACKUP_DIR") else None
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "14"))
BACKUP_EVERY_HOURS = float(os.environ.get("BACKUP_EVERY_HOURS", "24"))

# Request bodies: the largest a page sends is a deal record to replay (/replay/: a file of at
# most 256 KiB, games.replay_steps.LIMIT; a real one is a few KiB), then carried from step to step
# in a form. A longer body is refused with 413 before it is read (config.bodies); one within
# the limit is kept in memory whole, form fields and files alike.
REQUEST_BODY_LIMIT = 1024 * 1024  # bytes
DATA_UPLOAD_MAX_MEMORY_SIZE = FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_LIMIT

# Robot players at the tables: the strong robot's seconds of search a move (it samples as many
# deals as fit), or a fixed number of sampled deals a move when ROBOT_SAMPLES is set (tests).
ROBOT_BUDGET = float(os.environ.get("ROBOT_BUDGET", "0.3"))
ROBOT_SAMPLES = int(os.environ["ROBOT_SAMPLES"]) if os.environ.get("ROBOT_SAMPLES") else None
# A robot's turn is taken by the server (games.robot_turns) this many seconds after it became
# due, so that the people at the table can follow; ROBOT_TURNS=0: this process takes none
# (the tests' own process, which takes them when a test says so).
ROBOT_PAUSE = float(os.environ.get("ROBOT_PAUSE", "1"))
ROBOT_TURNS = os.environ.get("ROBOT_TURNS", "1") != "0"

# The address the server listens on, as `make run` starts daphne (HOST): the links handed to
# phones name an address it answers at (core.links). Unset (a club served behind a proxy):
# the address each page was reached at.
LISTEN_HOST = os.environ.get("LISTEN_HOST", "")

if os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": os.environ["REDIS_URL"],
                        # redis-py's own defaults drop live pages: a read gives up after
                        # 5 s, the very time channels-redis's waiting read for the process's
                        # sockets (BZPOPMIN) lasts, so that now and then the socket it reads
                        # for is closed; and a process may open at most 100 connections at
                        # once, fewer than its sockets joining or leaving their groups
                        # together (pages reconnecting after a restart, an evening's end).
                        "socket_timeout": 15,
                        "max_connections": 1000,
                    }
                ]
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # Without Redis the club is served by one process: it reads its sessions from its own
    # memory, a statement less a request (the database keeps them too). With Redis several
    # processes serve it, and one's memory would miss a sign-out made through another; nor
    # may the sessions depend on Redis, which may be down while the club plays on.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Each process's own memory, in every set-up. "default": the sessions above, when cached.
# "pages": what a table's page shows again action after action, each entry named by all it
# shows (games.selectors.scores_key), so that a process never needs another's entries.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "pages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Sign-in throttling: after five wrong passwords for one name from one address, that pair
# waits a quarter of an hour (django-axes). The address is the socket's peer, or, from a
# reverse proxy named in TRUSTED_PROXIES (addresses or networks, comma-separated), the client
# its X-Forwarded-For names (config.proxies); from any other peer that header is ignored.
TRUSTED_PROXIES = proxies.networks(os.environ.get("TRUSTED_PROXIES", ""))
AXES_CLIENT_IP_CALLABLE = "config.proxies.client_address"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Moscow"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
if not DEBUG and os.environ.get("SECURE_COOKIES", "0") == "1":
    # Served behind TLS: the reverse proxy in front of daphne sets X-Forwarded-Proto.
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "3600"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True  # (of the club's own host name)
    # Joining the browsers' preload list is the domain owner's own step, not a setting.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "hide_keys": {"()": "config.logs.HideKeys"},
        "refusals_in_one_line": {"()": "config.logs.RefusalsInOneLine"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["hide_keys", "refusals_in_one_line"],
        }
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
}
# Static files are served from the finders too, so the app works before collectstatic.
WHITENOISE_USE_FINDERS = True
