# Pegboard: `make run` and `make test` work on a bare machine (Python 3.11+ only).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8000
# The locked versions (with their hashes) that `make install` installs; `make lock` makes them
# from pyproject.toml. pip installs uv (pinned), uv installs the lock: 3 s instead of pip's 25.
LOCK       := requirements/dev.txt
BENCH_LOCK := requirements/bench.txt
UV_VERSION := 0.13.9
UV_INSTALL := $(BIN)/uv pip install --quiet --python $(BIN)/python
UV_COMPILE := $(BIN)/uv pip compile pyproject.toml --quiet --generate-hashes --universal \
	--python-version 3.11 --custom-compile-command "make lock"

MAKEMESSAGES_IGNORE := --ignore=.venv --ignore=bench --ignore=tests --ignore=var --ignore=staticfiles --ignore=build

.PHONY: install lock run test test-slow test-all check lint format format-check typecheck \
	schema migrations-check messages-check worker beat serve bench bench-load messages clean

$(BIN)/uv:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --no-compile 'uv==$(UV_VERSION)'

$(STAMP): $(LOCK) | $(BIN)/uv
	$(UV_INSTALL) --require-hashes -r $(LOCK)
	$(UV_INSTALL) --no-deps -e .
	touch $(STAMP)

## lock: pin every dependency (with hashes) from pyproject.toml into requirements/*.txt;
## run it after changing a dependency in pyproject.toml, and commit the result
lock: | $(BIN)/uv
	$(UV_COMPILE) --extra dev -o $(LOCK)
	$(UV_COMPILE) --extra dev --extra bench -o $(BENCH_LOCK)

# The it/de/ro catalogues, compiled whenever a .po is newer than its .mo (the .mo files are
# not committed).
CATALOGUES := $(wildcard locale/*/LC_MESSAGES/django.po)
CATALOGUES_MO := $(CATALOGUES:.po=.mo)
$(CATALOGUES_MO) &: $(CATALOGUES) $(STAMP)
	$(BIN)/python manage.py compile_catalogues

install: $(STAMP) $(CATALOGUES_MO)

## run: migrate, load the demo club night and serve on http://127.0.0.1:8000 (SQLite, eager Celery)
run: $(STAMP) $(CATALOGUES_MO)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

## The test tiers (README, "Tests"). pytest exits 5 when it ran no test: a failure here too.
FAST_TIER := not e2e and not services and not slow
SLOW_TIER := e2e or services or slow
# A test run on the real services (DATABASE_URL...) is a deployment's environment to the
# settings, which then fail closed (no debug, no demo key): the tests ask for the development
# settings they always ran on (DEBUG=1: static files from the finders, as pytest-django
# expects) and bring their own key. The deployment tests set their own environment.
PYTEST     = SECRET_KEY=$${SECRET_KEY:-pegboard-test-run-only-key} DEBUG=$${DEBUG:-1} \
	$(BIN)/python -m pytest $(PYTEST_ARGS)
NO_TESTS_FAIL = rc=$$?; [ $$rc -ne 5 ] || echo "pytest ran no test: that is a failure." >&2; exit $$rc
# Both cores for the fast tier when the cache is in-process; on Redis (REDIS_URL) two workers
# would share one cache and its keys, so the tier runs in one process there. The test database
# is kept between local runs (--reuse-db; PYTEST_ARGS=--create-db after editing a migration),
# never in CI.
XDIST    ?= $(if $(REDIS_URL),,-n auto)
REUSE_DB ?= $(if $(CI),,--reuse-db)

## test: the fast tier: no service, no browser; in random order (the seed is printed on top;
## PYTEST_ARGS=--randomly-seed=N replays that order), on both cores; SQLite unless DATABASE_URL
test: $(STAMP) $(CATALOGUES_MO)
	$(PYTEST) -m "$(FAST_TIER)" $(XDIST) $(REUSE_DB); $(NO_TESTS_FAIL)

## test-slow: the other tiers: browser (e2e), PostgreSQL/Redis/real worker (services), fuzzing,
## faults and scale-out (slow); the service tests skip locally when their service is absent
test-slow: $(STAMP) $(CATALOGUES_MO)
	$(PYTEST) -m "$(SLOW_TIER)" $(REUSE_DB); $(NO_TESTS_FAIL)

## test-all: every tier, what .ci/run runs after `make check`
test-all: test test-slow

## check: everything short of the tests, fast, first in CI: lint, formatting, types and import
## contracts, the OpenAPI schema, no missing migration, the catalogues compile
check: lint format-check typecheck schema migrations-check messages-check

## worker: a Celery worker on every queue (needs CELERY_BROKER_URL, e.g. redis://127.0.0.1:6379/0;
## QUEUES=standings consumes only those, comma-separated; CONCURRENCY=4 runs more at once)
CONCURRENCY ?= 2
worker: $(STAMP)
	$(BIN)/celery -A config worker --loglevel INFO --concurrency $(CONCURRENCY) $(if $(QUEUES),-Q $(QUEUES))

## beat: the Celery beat scheduler (nightly season ledgers)
beat: $(STAMP)
	mkdir -p var
	$(BIN)/celery -A config beat --loglevel INFO --schedule var/celerybeat-schedule

## serve: production shape (set DATABASE_URL, CELERY_BROKER_URL, REDIS_URL, SECRET_KEY, DEBUG=0)
serve: $(STAMP) $(CATALOGUES_MO)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput
	$(BIN)/gunicorn config.wsgi --bind $(HOST):$(PORT) --workers 3

lint: $(STAMP)
	$(BIN)/ruff check .

format: $(STAMP)
	$(BIN)/ruff format .

format-check: $(STAMP)
	$(BIN)/ruff format --check .

## typecheck: the pure engines and pairing strictly; the service layer with the Django plugin;
## the import contracts of the layers (.importlinter)
TYPED_SERVICES := tournaments/services tournaments/kinds tournaments/stoppa/services.py \
	tournaments/stoppa/kind.py tournaments/hooks.py results/services \
	scoring/services.py scoring/seasons.py treasury/services.py treasury/amounts.py treasury/selectors.py \
	treasury/access.py treasury/season.py treasury/acc_payback.py treasury/club_services.py \
	treasury/payout_tables.py
typecheck: $(STAMP)
	$(BIN)/mypy --strict games/cribbage games/stoppa tournaments/pairing books
	$(BIN)/mypy $(TYPED_SERVICES)
	$(BIN)/lint-imports

schema: $(STAMP)
	mkdir -p var
	$(BIN)/python manage.py spectacular --validate --fail-on-warn --file var/openapi.yaml

migrations-check: $(STAMP)
	mkdir -p var
	$(BIN)/python manage.py makemigrations --check --dry-run

## messages-check: the catalogues compile with GNU msgfmt --check (as CI does) where gettext is
## installed, else with polib (what `make install` does)
messages-check: $(STAMP)
	if command -v msgfmt >/dev/null 2>&1; then \
	  $(BIN)/python manage.py compilemessages --ignore=.venv --ignore=build; \
	else echo "msgfmt not found (apt-get install gettext): checking with polib"; \
	  $(BIN)/python manage.py compile_catalogues; fi

## bench: every benchmark in bench/, each printing ratios against a baseline from the same run
## (the load test has its own target: it needs PostgreSQL, Redis and wrk, ~6 minutes)
bench: $(STAMP)
	$(UV_INSTALL) --require-hashes -r $(BENCH_LOCK)
	@for script in bench/[!_]*.py; do \
	  [ "$$script" = bench/load.py ] && continue; \
	  echo "== $$script"; $(BIN)/python $$script || exit 1; done

## bench-load: the production shape (gunicorn, PostgreSQL, Redis, a worker and beat) driven by
## wrk on a 1,000-player event, ratios to the login page (README, "Speed"); installs Debian's
## wrk when missing; BENCH_LOAD_ARGS=--quick for a 2-minute smoke, "--growth 100,1000,5000" etc.
bench-load: $(STAMP)
	command -v wrk || (apt-get update -qq && apt-get install -y -qq wrk)
	$(UV_INSTALL) --require-hashes -r $(BENCH_LOCK)
	$(BIN)/python bench/load.py $(BENCH_LOAD_ARGS)

## messages: regenerate the catalogues from the source (new strings to translate) and compile
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l it -l de -l ro --no-location $(MAKEMESSAGES_IGNORE)
	$(BIN)/python manage.py compile_catalogues

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .hypothesis
