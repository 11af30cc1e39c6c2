# make run: set up and serve on 127.0.0.1:8000;  make test: set up and run every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# The service tests (concurrency included) run again on PostgreSQL: the club may run on either.
PG_TEST_URL ?= postgresql://postgres@127.0.0.1:5432/test

.PHONY: install run test bench lint messages

install: $(STAMP)

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py seed_demo
	$(VENV)/bin/daphne -b 127.0.0.1 -p 8000 config.asgi:application

lint: install
	$(VENV)/bin/ruff check .

test: lint
	$(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/pytest
	DATABASE_URL=$(PG_TEST_URL) $(VENV)/bin/pytest -p no:cacheprovider tests/test_services.py

bench: install
	$(PY) manage.py bench
	$(PY) manage.py bench_tournaments --game variety

messages: install
	$(PY) manage.py makemessages -l ru --no-location
	$(PY) manage.py compilemessages
