import os
import stat

from scorekeeper import create_app


def test_test_config_overrides(app, tmp_path):
    assert app.testing
    assert app.config["DATABASE"] == str(tmp_path / "scorekeeper.db")


def test_defaults_live_in_the_instance_folder(instance_path):
    app = create_app()
    assert not app.testing
    assert app.instance_path == str(instance_path)
    assert app.config["DATABASE"] == str(instance_path / "scorekeeper.db")
    assert app.template_folder and os.path.isdir(os.path.join(app.root_path, app.template_folder))
    assert os.path.isdir(app.static_folder)


def test_database_from_the_environment(instance_path, monkeypatch, tmp_path):
    monkeypatch.setenv("SCOREKEEPER_DATABASE", str(tmp_path / "family.db"))
    assert create_app().config["DATABASE"] == str(tmp_path / "family.db")
    # test_config still wins
    assert create_app({"DATABASE": "x.db"}).config["DATABASE"] == "x.db"


def test_secret_key_is_made_once_and_kept_private(instance_path):
    first = create_app().config["SECRET_KEY"]
    key_file = instance_path / "secret_key"
    assert key_file.read_text().strip() == first
    assert len(first) == 64 and first != "dev"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    # a second start (or a second worker) reads the same key back
    assert create_app().config["SECRET_KEY"] == first


def test_each_instance_gets_its_own_key(tmp_path, monkeypatch):
    keys = set()
    for name in ("one", "two"):
        monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / name))
        keys.add(create_app().config["SECRET_KEY"])
    assert len(keys) == 2


def test_config_py_in_the_instance_folder_is_read(instance_path):
    instance_path.mkdir()
    (instance_path / "config.py").write_text('SECRET_KEY = "from-config-file"\nDATABASE = "/srv/hf.db"\n')
    app = create_app()
    assert (app.config["SECRET_KEY"], app.config["DATABASE"]) == ("from-config-file", "/srv/hf.db")
    assert not (instance_path / "secret_key").exists()


def test_csrf_is_on_outside_tests(instance_path):
    assert create_app().config.get("WTF_CSRF_ENABLED", True) is True
