# `make run` and `make test` each set up everything they need from a fresh
# clone: the system packages (scripts/system-packages, the one list of them),
# a .venv with the package, the database. Re-running them is quick: the
# package check is a dpkg query and the pip install is redone only when
# pyproject.toml changes.
PYTHON ?= python3
# Python keeps the modules it compiled (__pycache__/, ignored by git) even where the
# environment says not to: each test process, and each command a test starts, then
# imports the app and the tests without compiling them again (collecting the tests
# took 6 s a worker instead of 2).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 0.0.0.0
PORT ?= 5000
# the same app over https, for the phones made secure at /trust (docs/HTTPS.md); -1: none
HTTPS_PORT ?= 5443

.PHONY: run test check catalogs coverage test-deep pictures bench bench-large flake-hunt init-db system-packages system-packages-test clean

system-packages:
	@PYTHON=$(PYTHON) scripts/system-packages run

system-packages-test:
	@PYTHON=$(PYTHON) scripts/system-packages test

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

# the translations' compiled catalogs, remade when their .po changes (scripts/catalogs)
CATALOGS := $(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)
catalogs: $(COMPILED)
%.mo: %.po | $(VENV)/.installed
	$(PY) -m babel.messages.frontend -q compile -i $< -o $@

init-db: system-packages $(VENV)/.installed $(COMPILED)
	$(VENV)/bin/flask --app scorekeeper init-db

run: init-db
	$(PY) -m scorekeeper.serve --host $(HOST) --port $(PORT) --https-port $(HTTPS_PORT)

# The tests run on every core (pytest-xdist, one worker a core, each test on its own
# database, port and browser context); the ten slowest are listed at the end. They run
# in another order each time (pytest-randomly: its seed is said at the top, and
# PYTEST_ARGS="-p randomly --randomly-seed=N" runs that order again) and in a time zone
# far from UTC chosen for the run and said too (TEST_TZ=UTC make test chooses one): a
# test must pass in any order and any zone from UTC-11 to UTC+14 (a test writes a game's
# moment on the household's clock, tests.helpers.on_the_clock, as a phone types it).
TEST_ZONES := Asia/Tokyo America/Los_Angeles Pacific/Pago_Pago Asia/Kolkata America/St_Johns Pacific/Kiritimati
TEST_TZ ?= $(word $(shell shuf -i 1-$(words $(TEST_ZONES)) -n 1),$(TEST_ZONES))
PYTEST := TZ=$(TEST_TZ) $(PY) -m pytest -n auto --durations=10

# lint and format first (seconds), then the whole suite: what CI runs (.ci/run)
test: system-packages-test $(VENV)/.installed-test $(COMPILED)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) scripts/catalogs check
	$(PYTEST) $(PYTEST_ARGS)

# the edit-run loop: lint, format and every test but the browser ones (under a minute)
check: $(VENV)/.installed-test $(COMPILED)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) scripts/catalogs check
	HYPOTHESIS_PROFILE=check $(PYTEST) -m "not browser and not long" $(PYTEST_ARGS)

# the whole suite under coverage, then what the tests do not reach (a report to
# read, not a threshold to game); apart from make test, which it would slow by a third
coverage: system-packages-test $(VENV)/.installed-test $(COMPILED)
	$(PYTEST) --cov --cov-report=term-missing:skip-covered $(PYTEST_ARGS)

# the browser tests and the sheets' tests, keeping what they see to look at: each screen
# as a PNG under test-output/screenshots/, each sheet's pages under test-output/sheets/
pictures: system-packages-test $(VENV)/.installed-test $(COMPILED)
	PICTURES=1 $(PYTEST) tests/browser tests/integration/test_sheets.py $(PYTEST_ARGS)

# the properties and the fuzz much longer, on fresh examples (tests/conftest.py's
# "deep" profile, FUZZ_RANDOM=1), and whole what make test samples (the tests marked deep:
# every page in every language at every width, every field of the paper sheet...): before
# resolving work on forms, imports, languages or the engine
test-deep: $(VENV)/.installed-test $(COMPILED)
	HYPOTHESIS_PROFILE=deep FUZZ_RANDOM=1 $(PYTEST) -m "hypothesis or deep" $(PYTEST_ARGS)

# the browser tests RUNS times (10), every other run with every core busy, each run on
# every core like make test: each test that failed or hung in any run (scripts/flake-hunt)
RUNS ?= 10
flake-hunt: system-packages-test $(VENV)/.installed-test $(COMPILED)
	$(PY) scripts/flake-hunt --runs $(RUNS)

# every figure of issue 14 at 1,000 and 10,000 games, then issue 33's: how long each change
# holds the write lock, its catch-up, a second phone's Save meanwhile; then issue 42's: a
# second phone's Save during an 8,000-game import; then issue 53's: a phone's page while a
# guest holds 200 connections open, and another phone's answers while a guest posts each
# field's worst input; then issue 58's: the yearbook of a year of 500 games (minutes;
# docs/PERFORMANCE.md, docs/HTTPS.md, docs/SECURITY.md)
bench: system-packages-test $(VENV)/.installed-test
	$(PY) bench/bench.py
	$(PY) bench/round_entry.py
	$(PY) bench/locks.py
	$(PY) bench/guests.py
	$(PY) bench/worst_input.py
	$(PY) bench/reader.py
	$(PY) bench/yearbook.py

# the saves, every history page and the write lock's figures at 10,000 and 100,000 games
# (building 100,000 takes minutes; BENCH_CACHE=folder keeps the databases for the next run)
bench-large: system-packages-test $(VENV)/.installed-test
	BENCH_GAMES=10000,100000 $(PY) bench/bench.py --only save,pages
	BENCH_GAMES=10000,100000 $(PY) bench/locks.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-output build dist
