import importlib.metadata

import pytest
from hypothesis import HealthCheck, settings

from scorekeeper import create_app
from scorekeeper.db import connect, transaction
from scorekeeper.scoring import RULESETS
from scorekeeper.services import game_model, games
from scorekeeper.services.schema import migrate

# A fresh clone has no example database and CI shares a slow machine: no
# deadline, no too-slow health check, and a fixed number of examples per test
# (a test's own @settings(max_examples=...) still wins).
settings.register_profile(
    "ci", deadline=None, max_examples=100, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")


def pytest_report_header(config):
    names = ["flask", "flask-wtf", "sqlite-utils", "weasyprint", "hypothesis", "playwright"]
    versions = []
    for name in names:
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} missing")
    return "scorekeeper stack: " + ", ".join(versions)


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
    database = tmp_path / "scorekeeper.db"
    migrate(database)
    return create_app({"TESTING": True, "DATABASE": str(database)})


@pytest.fixture
def client(app):
    return app.test_client()


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
    of TeamRound in team order; ``day`` sets the start date; ``end`` ends it by hand.
    """

    def make(key, rounds=(), teams=(("", ["Ann", "Bo"]), ("", ["Cy", "Di"])), *, day=None, end=False):
        with transaction(db):
            game_id = games.insert_game(
                db, RULESETS[key], key, list(teams), created_at=f"{day}T19:30:00+00:00" if day else None
            )
        game = game_model.load_game(db, game_id)
        for number, entries in enumerate(rounds, start=1):
            game = games.add_round(db, game.id, game.revision, number, entries)
        if end:
            game = games.end_game(db, game.id, game.revision)
        return game

    return make


def pytest_collection_modifyitems(items):
    """Every test under tests/browser is marked browser: `pytest -m "not browser"` is the quick loop."""
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
