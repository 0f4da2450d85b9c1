import dataclasses
import sqlite3

import pytest
from sqlite_utils import Database

from scorekeeper import rulesets
from scorekeeper.db import get_db, migrate
from scorekeeper.migrations import migrations
from scorekeeper.scoring import RULESETS


SCHEMA = {
    "house_rules": {"id": int, "name": str, "rules": str, "created_at": str, "updated_at": str},
    "players": {"id": int, "name": str, "created_at": str},
    "games": {"id": int, "rules": str, "rules_key": str, "rules_name": str, "first_dealer": int,
              "ended_by_hand": int, "finished_at": str, "created_at": str, "updated_at": str,
              "revision": int, "uid": str},
    "teams": {"id": int, "game_id": int, "position": int, "name": str, "total": int, "won": int},
    "team_players": {"team_id": int, "player_id": int, "position": int},
    "rounds": {"id": int, "game_id": int, "number": int, "version": int, "created_at": str,
               "updated_at": str},
    "round_entries": {"round_id": int, "team_id": int, "books": str, "melded_points": int,
                      "unplayed_points": int, "red_threes": int, "black_threes": int,
                      "red_threes_melded": int, "went_out": int, "cuts": int, "penalties": int,
                      "score": int},
    "revisions": {"id": int, "game_id": int, "round_number": int, "action": str, "summary": str,
                  "before": str, "after": str, "created_at": str},
}
FOREIGN_KEYS = {
    "games": {("first_dealer", "players", "id")},
    "teams": {("game_id", "games", "id")},
    "team_players": {("team_id", "teams", "id"), ("player_id", "players", "id")},
    "rounds": {("game_id", "games", "id")},
    "round_entries": {("round_id", "rounds", "id"), ("team_id", "teams", "id")},
    "revisions": {("game_id", "games", "id")},
}
MIGRATIONS = ["m001_house_rules", "m002_players_and_games", "m003_game_uid_and_history_indexes",
              "m004_team_totals"]


def test_migrating_an_empty_database_gives_the_schema(tmp_path):
    path = tmp_path / "empty.db"
    assert migrate(path) == MIGRATIONS
    db = Database(path)
    assert set(db.table_names()) == set(SCHEMA) | {"_sqlite_migrations"}
    for table, columns in SCHEMA.items():
        assert db[table].columns_dict == columns, table
        fks = {(fk.column, fk.other_table, fk.other_column) for fk in db[table].foreign_keys}
        assert fks == FOREIGN_KEYS.get(table, set()), table
    unique = {(t, tuple(i.columns)) for t in SCHEMA for i in db[t].indexes if i.unique}
    assert {("house_rules", ("name",)), ("players", ("name",)), ("teams", ("game_id", "position")),
            ("rounds", ("game_id", "number")), ("games", ("uid",))} <= unique
    assert [m.name for m in migrations.applied(db)] == MIGRATIONS
    assert db.journal_mode == "wal"
    db.close()
    assert migrate(path) == []  # running it again changes nothing


def test_names_are_unique_regardless_of_case(tmp_path):
    migrate(tmp_path / "names.db")
    db = Database(tmp_path / "names.db")
    db["players"].insert({"name": "Ann", "created_at": "now"})
    with pytest.raises(sqlite3.IntegrityError):
        db["players"].insert({"name": "ANN", "created_at": "now"})
    db.close()


def test_an_older_database_is_brought_up_to_date(tmp_path):
    path = tmp_path / "old.db"
    db = Database(path)
    migrations.apply(db, stop_before="m002_players_and_games")
    db["house_rules"].insert({"name": "Kept", "rules": "{}", "created_at": "x", "updated_at": "x"})
    db.close()
    assert migrate(path) == MIGRATIONS[1:]
    assert Database(path)["house_rules"].count == 1


def test_games_from_before_uids_get_one(tmp_path):
    path = tmp_path / "old.db"
    db = Database(path)
    migrations.apply(db, stop_before="m003_game_uid_and_history_indexes")
    for _ in range(2):
        db["games"].insert({"rules": "{}", "rules_name": "x", "created_at": "x", "updated_at": "x"})
    db.close()
    migrate(path)
    uids = [row["uid"] for row in Database(path).query("SELECT uid FROM games")]
    assert len(set(uids)) == 2 and all(len(uid) == 32 for uid in uids)


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
    assert result.exit_code == 0 and "applied m001_house_rules, m002_players_and_games, m003" in result.output
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


def test_team_totals_are_backfilled_from_the_stored_scores(tmp_path):
    path = tmp_path / "old.db"
    db = Database(path)
    migrations.apply(db, stop_before="m004_team_totals")
    game = db["games"].insert({"uid": "g1", "rules": "{}", "rules_name": "x", "created_at": "x",
                               "updated_at": "x", "finished_at": "y"}).last_pk
    for position, scores in enumerate(([300, 200], [100, 50])):
        team = db["teams"].insert({"game_id": game, "position": position, "name": str(position)}).last_pk
        for number, score in enumerate(scores, start=1):
            round_id = (db.execute("SELECT id FROM rounds WHERE game_id = ? AND number = ?",
                                   [game, number]).fetchone() or [None])[0]
            if round_id is None:
                round_id = db["rounds"].insert({"game_id": game, "number": number, "version": 1,
                                                "created_at": "x", "updated_at": "x"}).last_pk
            db["round_entries"].insert({"round_id": round_id, "team_id": team, "books": "{}", "score": score,
                                        **{k: 0 for k in ("melded_points", "unplayed_points", "red_threes",
                                                          "black_threes", "red_threes_melded", "went_out",
                                                          "cuts", "penalties")}})
    db.conn.commit()
    db.close()
    migrate(path)
    rows = list(Database(path).query("SELECT position, total, won FROM teams ORDER BY position"))
    assert rows == [{"position": 0, "total": 500, "won": 1}, {"position": 1, "total": 150, "won": 0}]
