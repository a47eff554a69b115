# Two entry points: `make run` (install, then play on SQLite) and `make test`
# (install everything the tests need, then run the whole suite).
VENV := .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: run test setup setup-dev system-deps lint bench-server messages

run: setup
	$(VENV)/bin/canfield serve --host 127.0.0.1 --port 8000

test: setup-dev system-deps
	$(VENV)/bin/ruff check app tests bench migrations
	$(VENV)/bin/mypy
	# the engine's and solver's tests are pure CPU: spread over the cores
	$(PY) -m pytest -n auto --durations=10 tests/engine tests/solver
	# the rest wait on servers, databases and browsers, so two workers overlap the waits:
	# each starts its own PostgreSQL, app server and Chromium (free ports, its own temp
	# folders); the tests of the one shared cluster stay on one worker (--dist loadgroup,
	# tests/conftest.py). Two, not more: the waits then overlap and the CPU is full, and
	# each more worker adds its servers' CPU and slows the rest (3 and 4 were no faster here)
	$(PY) -m pytest -n 2 --dist loadgroup --durations=10 --ignore=tests/engine --ignore=tests/solver

lint: setup-dev
	$(VENV)/bin/ruff check app tests bench migrations
	$(VENV)/bin/mypy

setup: $(VENV)/.runtime static/vendor/htmx.min.js

setup-dev: setup $(VENV)/.dev

# Installing builds the solver's C core (app/solver/_core.c) in place, so a change to
# it reinstalls.
$(VENV)/.runtime: pyproject.toml setup.py app/solver/_core.c
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.dev: $(VENV)/.runtime pyproject.toml
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

static/vendor/htmx.min.js: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	mkdir -p static/vendor
	cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js

# Debian's Chromium (browser tests), PostgreSQL (store tests) and nginx (the proxy of
# scripts/cluster and the cluster tests); root installs them.
system-deps:
	@command -v chromium >/dev/null || { apt-get update -q && apt-get install -y -q chromium; }
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { apt-get update -q && apt-get install -y -q postgresql; }
	@test -x /usr/sbin/nginx || { apt-get update -q && apt-get install -y -q nginx; }

# Load benchmark of the game server on 127.0.0.1 (prints figures; bounded in time).
bench-server: setup-dev
	$(PY) bench/server.py --players 32 --seconds 10

# Keep the message catalogs (app/i18n/locale/*/LC_MESSAGES/messages.po) in step with the
# code and templates: extract every gettext message, then add new ones to each catalog.
messages: setup-dev
	$(VENV)/bin/pybabel extract -F babel.cfg -o app/i18n/messages.pot --project=Canfield --no-location --no-wrap --sort-output .
	$(VENV)/bin/pybabel update -i app/i18n/messages.pot -d app/i18n/locale --ignore-obsolete --ignore-pot-creation-date --no-wrap
