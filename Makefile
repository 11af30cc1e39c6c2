# make run: set up and serve the club, DEBUG off, on port $(PORT);  make test: set up and run
# every test.
#   make run serves every network interface (HOST=0.0.0.0): phones in the room join at the
#   machine's address, which make run prints, and every link and QR code the pages hand them
#   names it. Its pages then answer any host name (ALLOWED_HOSTS=*), since a phone reaches the
#   machine by whatever address the room's network gave it. make run HOST=127.0.0.1 serves
#   this machine alone (the pages that show links say that phones cannot open them); on
#   another HOST only that host, 127.0.0.1 and localhost (set ALLOWED_HOSTS to choose
#   others). The secret key is generated once into .secret_key (untracked).
# The venv's interpreter: the system's own Python where it is 3.11 or newer and has venv (on
# Debian, python3-venv), else python3 from the PATH. Debian builds its Python linked statically
# and optimised from profiles: it runs the club's code with an eighth fewer instructions, and
# about a sixth quicker, than the shared-library build pyenv makes (README, Benchmarks). A
# venv made before stays as it is. Expanded only when a recipe needs it (the venv is made, or
# the secret key), not on every make.
SYSTEM_PYTHON = $(shell /usr/bin/python3 -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && echo /usr/bin/python3)
PYTHON ?= $(or $(SYSTEM_PYTHON),python3)
HOST ?= 0.0.0.0
PORT ?= 8000
LOCAL_HOSTS := $(HOST),127.0.0.1,localhost
ALLOWED_HOSTS ?= $(if $(filter 0.0.0.0,$(HOST)),*,$(LOCAL_HOSTS))
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# The whole suite runs on SQLite (its browser and server tests, and the others, at once) and,
# side by side, what uses the database or real servers again on PostgreSQL and Redis, as a
# served club runs (tests/support/both_runs.py; pure and browser tests give the same answers
# and run once): under CI=true it fails when they cannot be reached; elsewhere that run is
# skipped with a message. Each run names its slowest tests, to keep the suite quick.
PG_TEST_URL ?= postgresql://postgres@127.0.0.1:5432/test
REDIS_TEST_URL ?= redis://127.0.0.1:6379/0

.PHONY: install run test check bench lint messages screenshots wheels-only

install: $(STAMP)

# PyICU built from source and pyicu-wheels both install the module icu, each over the
# other's files: a venv that holds PyICU loses it, and whatever pyicu-wheels it shared its
# files with, before pyicu-wheels comes in whole.
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	if $(PY) -m pip show --quiet pyicu >/dev/null 2>&1; then $(PY) -m pip uninstall -qq --yes pyicu pyicu-wheels; fi
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Every dependency installs from a wheel, nothing is compiled: a new venv in a temporary
# folder, the project installed there from wheels alone (pip's --only-binary=:all:), and the
# players' names' tests, which ask ICU, run in it. It fetches from PyPI what pip's cache
# lacks, as make install does; make test does not run it.
wheels-only:
	venv="$$(mktemp -d)/venv" && trap 'rm -rf "$$(dirname "$$venv")"' EXIT && \
	$(PYTHON) -m venv "$$venv" && \
	"$$venv/bin/python" -m pip install --quiet --only-binary=:all: --upgrade pip && \
	"$$venv/bin/python" -m pip install --only-binary=:all: -e '.[dev]' && \
	"$$venv/bin/python" -m pytest -p no:cacheprovider -q tests/club/test_player_names.py

run: export DEBUG = 0
run: export ALLOWED_HOSTS := $(ALLOWED_HOSTS)
run: install .secret_key
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py seed_demo --url "$$($(PY) -m config.addresses $(HOST) $(PORT) --first)"
	@echo "Serving the club (DEBUG off; Ctrl-C stops it). Open:"
	@$(PY) -m config.addresses $(HOST) $(PORT) | sed 's/^/    /'
	LISTEN_HOST=$(HOST) $(VENV)/bin/daphne -b $(HOST) -p $(PORT) config.asgi:application

# The key that signs sessions and forms, made once, readable by its owner only.
.secret_key:
	umask 077 && $(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

test: lint
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m tests.support.both_runs $(PG_TEST_URL) $(REDIS_TEST_URL) --durations=15

# The quick check while working: lint, no model change without its migration, and the
# suite on SQLite without the browser and server tests (make test runs them all).
check: lint
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest -m "not browser and not servers" -q

# As served: DEBUG off. Each benchmark writes its own section of docs/benchmarks/latest.md
# (bench/figures.py); the test suite's section is given to python -m bench.suite from a run.
bench: export DEBUG = 0
bench: install .secret_key
	$(PY) manage.py bench
	$(PY) manage.py bench_tournaments --game variety
	$(PY) manage.py bench_duplicate --game variety
	$(PY) -m bench.live
	$(PY) -m bench.fanout
	$(PY) -m bench.seats
	$(PY) -m bench.robots
	$(PY) -m bench.seating
	$(PY) -m bench.ratings
	$(PY) -m bench.browser

messages: install
	$(PY) manage.py makemessages -l ru --no-location
	$(PY) manage.py compilemessages

# The README's screenshots, of the real pages on a throw-away database (docs/screenshots.py).
screenshots: install
	$(PY) docs/screenshots.py
