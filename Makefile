# make run: set up and serve on 127.0.0.1:8000;  make test: set up and run every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# The whole suite runs again on PostgreSQL and Redis, as a served club runs: under CI=true it
# fails when they cannot be reached; elsewhere that run is skipped with a message.
PG_TEST_URL ?= postgresql://postgres@127.0.0.1:5432/test
REDIS_TEST_URL ?= redis://127.0.0.1:6379/0

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
	@if $(PY) -m config.reachable $(PG_TEST_URL) $(REDIS_TEST_URL); then \
		DATABASE_URL=$(PG_TEST_URL) REDIS_URL=$(REDIS_TEST_URL) \
			$(VENV)/bin/pytest -p no:cacheprovider; \
	elif [ "$$CI" = "true" ]; then \
		echo "PostgreSQL or Redis cannot be reached: the second run is required under CI"; exit 1; \
	else \
		echo "PostgreSQL or Redis cannot be reached: the run on them is skipped"; \
	fi

bench: install
	$(PY) manage.py bench
	$(PY) manage.py bench_tournaments --game variety
	$(PY) -m tests.bench_live
	$(PY) -m tests.bench_fanout

messages: install
	$(PY) manage.py makemessages -l ru --no-location
	$(PY) manage.py compilemessages
