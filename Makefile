# `make run` and `make test` each set up everything they need from a fresh
# clone: the system packages (scripts/system-packages, the one list of them),
# a .venv with the package, the database. Re-running them is quick: the
# package check is a dpkg query and the pip install is redone only when
# pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 0.0.0.0
PORT ?= 5000

.PHONY: run test bench bench-large flake-hunt init-db system-packages system-packages-test clean

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

init-db: system-packages $(VENV)/.installed
	$(VENV)/bin/flask --app scorekeeper init-db

run: init-db
	$(PY) -m scorekeeper.serve --host $(HOST) --port $(PORT)

# lint and format first (seconds), then every test under coverage, then what
# the tests do not reach (a report to read, not a threshold to game)
test: system-packages-test $(VENV)/.installed-test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m coverage run -m pytest $(PYTEST_ARGS)
	$(PY) -m coverage report

# the browser tests RUNS times (10), every other run with every core busy: each test
# that failed or hung in any run (scripts/flake-hunt; about 5-10 minutes a run)
RUNS ?= 10
flake-hunt: system-packages-test $(VENV)/.installed-test
	$(PY) scripts/flake-hunt --runs $(RUNS)

# every figure of issue 14 at 1,000 and 10,000 games (a few minutes; docs/PERFORMANCE.md)
bench: system-packages-test $(VENV)/.installed-test
	$(PY) bench/bench.py
	$(PY) bench/round_entry.py

# the saves and pages at 10,000 and 100,000 games (building 100,000 takes minutes;
# BENCH_CACHE=folder keeps the databases for the next run)
bench-large: system-packages-test $(VENV)/.installed-test
	BENCH_GAMES=10000,100000 $(PY) bench/bench.py --only save,pages

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-output build dist
