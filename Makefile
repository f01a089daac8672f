# Pegboard: `make run` and `make test` work on a bare machine (Python 3.11+ only).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000

MAKEMESSAGES_IGNORE := --ignore=.venv --ignore=bench --ignore=tests --ignore=var --ignore=staticfiles --ignore=build

.PHONY: install run test worker beat serve lint format typecheck schema bench bench-load messages clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The it/de/ro catalogues, compiled whenever a .po is newer than its .mo (the .mo files are
# not committed).
CATALOGUES := $(wildcard locale/*/LC_MESSAGES/django.po)
CATALOGUES_MO := $(CATALOGUES:.po=.mo)
$(CATALOGUES_MO): $(CATALOGUES) $(STAMP)
	$(BIN)/python manage.py compile_catalogues

install: $(STAMP) $(CATALOGUES_MO)

## run: migrate, load the demo club night and serve on http://127.0.0.1:8000 (SQLite, eager Celery)
run: $(STAMP) $(CATALOGUES_MO)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

## test: the whole suite (PostgreSQL when DATABASE_URL is set, else SQLite)
test: $(STAMP) $(CATALOGUES_MO)
	$(BIN)/python -m pytest

## worker: a Celery worker on every queue (needs CELERY_BROKER_URL, e.g. redis://127.0.0.1:6379/0;
## QUEUES=standings consumes only those, comma-separated; CONCURRENCY=4 runs more at once)
CONCURRENCY ?= 2
worker: $(STAMP)
	$(BIN)/celery -A pegboard worker --loglevel INFO --concurrency $(CONCURRENCY) $(if $(QUEUES),-Q $(QUEUES))

## beat: the Celery beat scheduler (nightly season ledgers)
beat: $(STAMP)
	mkdir -p var
	$(BIN)/celery -A pegboard beat --loglevel INFO --schedule var/celerybeat-schedule

## serve: production shape (set DATABASE_URL, CELERY_BROKER_URL, REDIS_URL, SECRET_KEY, DEBUG=0)
serve: $(STAMP) $(CATALOGUES_MO)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput
	$(BIN)/gunicorn pegboard.wsgi --bind $(HOST):$(PORT) --workers 3

lint: $(STAMP)
	$(BIN)/ruff check .

format: $(STAMP)
	$(BIN)/ruff format .

## typecheck: the pure engines and pairing strictly; the service layer with the Django plugin;
## the import contracts of the layers (.importlinter)
TYPED_SERVICES := tournaments/services tournaments/kinds tournaments/hooks.py results/services \
	scoring/services.py scoring/seasons.py
typecheck: $(STAMP)
	$(BIN)/mypy --strict games/cribbage games/stoppa tournaments/pairing
	$(BIN)/mypy $(TYPED_SERVICES)
	$(BIN)/lint-imports

schema: $(STAMP)
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file var/openapi.yaml

## bench: every benchmark in bench/, each printing ratios against a baseline from the same run
## (the load test has its own target: it needs PostgreSQL and Redis and takes ~15 minutes)
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	@for script in bench/[!_]*.py; do \
	  [ "$$script" = bench/load.py ] && continue; \
	  echo "== $$script"; $(BIN)/python $$script || exit 1; done

## bench-load: the production shape (gunicorn, PostgreSQL, Redis, a worker) under load on a
## 1,000-player event, ratios to the login page; BENCH_LOAD_ARGS="--growth 100,1000,5000" etc.
bench-load: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/load.py $(BENCH_LOAD_ARGS)

## messages: regenerate the catalogues from the source (new strings to translate) and compile
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l it -l de -l ro --no-location $(MAKEMESSAGES_IGNORE)
	$(BIN)/python manage.py compile_catalogues

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .hypothesis
