import importlib.metadata

import pytest

from scorekeeper import create_app
from scorekeeper.db import connect, migrate


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
