import dataclasses
import sqlite3

import pytest
from sqlite_utils import Database

from scorekeeper import rulesets
from scorekeeper.db import get_db, migrate
from scorekeeper.migrations import migrations
from scorekeeper.scoring import RULESETS


def test_migrating_an_empty_database_gives_the_schema(tmp_path):
    path = tmp_path / "empty.db"
    assert migrate(path) == ["m001_house_rules"]
    db = Database(path)
    assert db["house_rules"].columns_dict == {
        "id": int, "name": str, "rules": str, "created_at": str, "updated_at": str}
    assert db["house_rules"].pks == ["id"]
    assert db["house_rules"].foreign_keys == []
    [index] = [i for i in db["house_rules"].indexes if i.name == "idx_house_rules_name"]
    assert index.unique and index.columns == ["name"]
    assert [m.name for m in migrations.applied(db)] == ["m001_house_rules"]
    assert db.journal_mode == "wal"
    db.close()
    assert migrate(path) == []  # running it again changes nothing


def test_connection_per_request_with_foreign_keys(app):
    with app.app_context():
        db = get_db()
        assert get_db() is db
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.ProgrammingError):
        db.execute("SELECT 1")  # closed at teardown


def test_init_db_command(runner, app, tmp_path):
    fresh = tmp_path / "fresh.db"
    app.config["DATABASE"] = str(fresh)
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0 and "applied m001_house_rules" in result.output
    assert Database(fresh)["house_rules"].exists()
    again = runner.invoke(args=["init-db"])
    assert "up to date" in again.output


def test_house_rules_are_saved_in_one_transaction_and_names_are_unique(db):
    rules = dataclasses.replace(RULESETS["roth"], name="Grandma's")
    key = rulesets.save_house_rules(db, rules)
    assert rulesets.get_rule_set(db, key).rules == rules
    for taken in ("GRANDMA'S", "Roth family house rules (to 10,000)"):
        with pytest.raises(ValueError, match="already a rule set"):
            rulesets.save_house_rules(db, dataclasses.replace(rules, name=taken))
    assert db["house_rules"].count == 1
    assert [e.key for e in rulesets.list_rule_sets(db)] == [*RULESETS, key]
    assert rulesets.get_rule_set(db, "house-999") is None
    assert rulesets.get_rule_set(db, "house-0") is None


def test_import_rules_command(runner, app, tmp_path):
    good = tmp_path / "ours.json"
    good.write_text(RULESETS["tablet"].to_json().replace("Tablet game (5 hands)", "Our tablet rules"))
    result = runner.invoke(args=["import-rules", str(good)])
    assert result.exit_code == 0, result.output
    assert "Saved “Our tablet rules” as /rules/house-1" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x"}')
    refused = runner.invoke(args=["import-rules", str(bad)])
    assert refused.exit_code != 0 and "card_values: missing" in refused.output
    again = runner.invoke(args=["import-rules", str(good)])
    assert again.exit_code != 0 and "already a rule set" in again.output
