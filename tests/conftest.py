import datetime
import importlib.metadata
import os
import time
from pathlib import Path

import flask
import pytest
from hypothesis import HealthCheck, settings
from jinja2 import BytecodeCache
from werkzeug.routing import Rule

from scorekeeper import create_app
from scorekeeper.scoring import RULESETS
from scorekeeper.services import evenings, game_model, games
from scorekeeper.storage.db import connect, transaction

from . import fuzzstats
from .helpers import CHECK, DEEP, at_home, built_once
from .httpkit import migrated

# Hypothesis, sized on purpose (docs/testing.md): `make test` runs the "quick" profile,
# derandomized so that two runs try the same examples, each property with the count set
# where it is declared (tests.helpers.examples); `make test-deep` runs "deep": fresh
# examples, ten times as many, and ten times each test's time limit; `make check` runs
# "check": the same examples, a fifth as many (the edit-run loop; make test runs them all).
# No deadline and no too-slow health check: CI shares a slow machine.
_COMMON = dict(deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=100, derandomize=True, **_COMMON)
settings.register_profile("deep", max_examples=1000, derandomize=False, **_COMMON)
settings.register_profile("check", max_examples=20, derandomize=True, **_COMMON)
settings.load_profile("deep" if DEEP else "check" if CHECK else "quick")


class _CompiledTemplates(BytecodeCache):
    """Every app of the run shares its compiled templates (in memory, checked against
    the template's source): each test makes its own app, and compiling its templates
    again cost more than half of an average page test."""

    def __init__(self):
        self.compiled = {}

    def load_bytecode(self, bucket):
        checksum, code = self.compiled.get(bucket.key, (None, None))
        if checksum == bucket.checksum:
            bucket.code = code

    def dump_bytecode(self, bucket):
        self.compiled[bucket.key] = (bucket.checksum, bucket.code)


flask.Flask.jinja_options = {**flask.Flask.jinja_options, "bytecode_cache": _CompiledTemplates()}


def _share_url_builders():
    """Every app of the run shares the URL builders werkzeug compiles for its routes.

    Werkzeug writes each route's ``url_for`` builder as Python source and compiles it
    (``Rule._compile_builder``): 57 routes, two builders each, about 25 ms of every
    ``create_app``, and most tests make their own app. A builder is a function of the
    route's parsed parts alone (the rule is passed in as its first argument), so one
    compiled for the same parts serves every app. Routes with defaults are compiled
    as usual. Should werkzeug rename the method, the apps simply compile their own."""
    original = getattr(Rule, "_compile_builder", None)
    if original is None:
        return
    compiled = {}

    def compile_builder(rule, append_unknown=True):
        if rule.defaults:
            return original(rule, append_unknown)
        key = (rule.rule, tuple(rule._trace), append_unknown)
        if key not in compiled:
            compiled[key] = original(rule, append_unknown)
        return compiled[key]

    Rule._compile_builder = compile_builder


_share_url_builders()


def pytest_report_header(config):
    names = ["flask", "flask-wtf", "sqlite-utils", "weasyprint", "hypothesis", "playwright"]
    versions = []
    for name in names:
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} missing")
    offset = datetime.datetime.now().astimezone().strftime("%z")
    zone = f"time zone: TZ={os.environ.get('TZ', '(unset)')} (UTC{offset[:3]}:{offset[3:]} now)"
    return ["scorekeeper stack: " + ", ".join(versions), zone]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """An xdist worker stopped: keep the fuzz's counts it handed over."""
    fuzzstats.received(node)


def pytest_terminal_summary(terminalreporter, config):
    """The fuzz's counts over every test process, under the summary."""
    lines = fuzzstats.report(config)
    if lines:
        terminalreporter.write_sep("-", "fuzz")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture
def instance_path(tmp_path, monkeypatch):
    """A private instance folder, so tests never touch the family's instance/."""
    path = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(path))
    monkeypatch.delenv("SCOREKEEPER_DATABASE", raising=False)
    return path


@pytest.fixture
def app(instance_path, tmp_path):
    """The app on a migrated SQLite file under tmp_path."""
    database = migrated(tmp_path / "scorekeeper.db")
    return create_app({"TESTING": True, "DATABASE": str(database)})


@pytest.fixture
def client(app):
    """A phone at home: it gave the household code (tests of the code itself use a
    phone of their own, ``app.test_client()``)."""
    return at_home(app.test_client(), app)


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def db(app):
    """A connection to the app's database, for arranging and checking rows."""
    database = connect(app.config["DATABASE"])
    yield database
    database.close()


@pytest.fixture
def make_game(db):
    """Play a game into the app's database the way the app saves it; return the Game.

    make_game(key, rounds, teams, day="2026-01-05", end=True): rounds are lists
    of TeamRound in team order; ``day`` sets the start date, its evening (19:30) on the
    household's clock, as a phone types it, whatever zone the computer is in; ``end`` ends
    it by hand.
    """

    def make(key, rounds=(), teams=(("", ["Ann", "Bo"]), ("", ["Cy", "Di"])), *, day=None, end=False):
        when = evenings.stored(datetime.date.fromisoformat(day), datetime.time(19, 30)) if day else None
        with transaction(db):
            game_id = games.insert_game(db, RULESETS[key], key, list(teams), created_at=when)
        game = game_model.load_game(db, game_id)
        for number, entries in enumerate(rounds, start=1):
            game = games.add_round(db, game.id, game.revision, number, entries)
        if end:
            game = games.end_game(db, game.id, game.revision)
        return game

    return make


def pytest_collection_modifyitems(config, items):
    """Every test under tests/browser is marked browser (`make check` leaves them out); in
    the deep profile every time limit is ten times longer."""
    default = config.getini("timeout")
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
        if DEEP:
            limit = item.get_closest_marker("timeout")
            seconds = limit.args[0] if limit and limit.args else float(default)
            item.add_marker(pytest.mark.timeout(seconds * 10), append=False)


@pytest.fixture(scope="session")
def family_history(tmp_path_factory):
    """A family's history (tests/family.py: 300 games in 2026 and one game of each size
    being played), built once for the whole run (``built_once``: the test processes share
    it) for every test that reads every page (in a browser and in the pseudo-language): its
    path, the games being played, the players, the nights. A test copies the file before
    it serves it."""
    from . import family

    def build(folder):
        path, playing, players, nights = family.history(folder / "history.db")
        return str(path), list(playing.items()), players, nights

    path, playing, players, nights = built_once(tmp_path_factory, "family", build)
    return Path(path), dict(playing), players, nights


@pytest.fixture(autouse=True)
def _the_zone_is_put_back():
    """A test that sets the computer's zone (TZ) puts it back: the next test in the same
    process runs in the run's zone (one left on UTC hid a date bug from every later test)."""
    before = os.environ.get("TZ")
    yield
    after = os.environ.get("TZ")
    if after != before:
        if before is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = before
        time.tzset()
        pytest.fail(f"the test left TZ={after!r} (the run's: {before!r}): the zone fixture puts it back")


@pytest.fixture
def zone(monkeypatch):
    """Set the computer's time zone for the rest of the test (``zone("Asia/Tokyo")``);
    put back afterwards."""

    def set_zone(name):
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()
