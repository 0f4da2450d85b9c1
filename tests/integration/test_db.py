import dataclasses
import json
import sqlite3

import pytest
from sqlite_utils import Database

from scorekeeper.scoring import ENTRY_FIELDS, RULESETS
from scorekeeper.services import game_model, games, rulesets
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect, get_db, transaction
from scorekeeper.storage.migrations import migrations

from ..helpers import on_the_clock

SCHEMA = {
    "house_rules": {
        "id": int,
        "name": str,
        "rules": str,
        "created_at": str,
        "updated_at": str,
        "key": str,
        "revision": int,
    },
    "players": {"id": int, "name": str, "created_at": str, "key": str, "revision": int, "colour": str},
    "games": {
        "id": int,
        "rules": str,
        "rules_key": str,
        "rules_name": str,
        "first_dealer": int,
        "ended_by_hand": int,
        "finished_at": str,
        "created_at": str,
        "updated_at": str,
        "revision": int,
        "uid": str,
        "share_token": str,
        "played_at": str,
        "paper": str,
        "night": str,
        "importing": int,
        "deleted_at": str,  # m019: when the game was deleted (issue 54), kept 30 days
    },
    "teams": {"id": int, "game_id": int, "position": int, "name": str, "total": int, "won": int},
    "team_players": {"team_id": int, "player_id": int, "position": int},
    "rounds": {"id": int, "game_id": int, "number": int, "created_at": str, "updated_at": str},
    "round_entries": {
        "round_id": int,
        "team_id": int,
        "books": str,
        "melded_points": int,
        "unplayed_points": int,
        "red_threes": int,
        "black_threes": int,
        "red_threes_melded": int,
        "went_out": int,
        "cuts": int,
        "penalties": int,
        "score": int,
        "red_three_books": int,
        "black_three_books": int,
        "black_threes_out": int,
        "went_out_concealed": int,
        "first_meld_books": int,
        "paper_score": int,
        "packet_not_taken": int,
    },
    "revisions": {
        "id": int,
        "game_id": int,
        "round_number": int,
        "action": str,
        "summary": str,
        "before": str,
        "after": str,
        "created_at": str,
        "revision": int,
        "said": str,  # m018: what a line said, worded in each reader's language
    },
    # m008: the players' summaries
    "player_games": {
        "player_id": int,
        "game_id": int,
        "team_id": int,
        "played_at": str,
        "finished": int,
        "counted_at": str,
        "won": int,
        "total": int,
        "rounds": int,
        "points": int,
        "best_round": int,
        "went_out": int,
        "books": str,
        "scores_only": int,
        "night": str,
    },
    "player_stats": {
        "player_id": int,
        "played": int,
        "games": int,
        "wins": int,
        "rounds": int,
        "points": int,
        "went_out": int,
        "scores_only": int,
        "scores_only_rounds": int,
    },
    "player_books": {"player_id": int, "kind": str, "books": int},
    "partnerships": {"player_id": int, "partner_id": int, "games": int, "wins": int},
    "rivalries": {"player_id": int, "rival_id": int, "games": int, "wins": int, "losses": int, "ties": int},
    "game_counts": {"finished": int, "games": int},
    "player_ratings": {
        "player_id": int,
        "game_id": int,
        "played_at": str,
        "mu": float,
        "sigma": float,
        "games": int,
        "won": int,
        "streak": int,
    },
    "pair_games": {
        "player_id": int,
        "partner_id": int,
        "game_id": int,
        "played_at": str,
        "won": int,
        "streak": int,
    },
    "game_records": {
        "game_id": int,
        "rules_name": str,
        "played_at": str,
        "night": str,
        **dict.fromkeys(
            [
                *("high_total", "high_team", "margin", "margin_team", "comeback", "comeback_team"),
                *("comeback_round", "best_round", "best_round_team", "best_round_number", "worst_round"),
                *(
                    "worst_round_team",
                    "worst_round_number",
                    "most_books",
                    "most_books_team",
                    "most_books_number",
                ),
            ],
            int,
        ),
    },
    "nights": {"night": str, "games": int},
    "night_players": {"night": str, "player_id": int, "games": int, "wins": int},
    "year_pairs": {"year": str, "player_id": int, "partner_id": int, "games": int, "wins": int},
    "evenings": {"night": str, "mode": str, "rules_key": str, "created_at": str, "share_token": str},
    "evening_games": {"game_id": int, "night": str, "sitting": int, "table_number": int},
    "ratings_behind": {"id": int, "played_at": str, "game_id": int},
    "imports": {"id": int, "state": str, "started_at": str, "players": str},
    "passcode_guesses": {"scope": str, "wrong": int, "last_at": str, "waiting_until": str},
    "hand_samples": {"id": int, "digit": int, "image": bytes, "read": int, "created_at": str},
}
FOREIGN_KEYS = {
    "games": {("first_dealer", "players", "id")},
    "teams": {("game_id", "games", "id")},
    "team_players": {("team_id", "teams", "id"), ("player_id", "players", "id")},
    "rounds": {("game_id", "games", "id")},
    "round_entries": {("round_id", "rounds", "id"), ("team_id", "teams", "id")},
    "revisions": {("game_id", "games", "id")},
    "player_games": {("player_id", "players", "id"), ("game_id", "games", "id"), ("team_id", "teams", "id")},
    "player_stats": {("player_id", "players", "id")},
    "player_books": {("player_id", "players", "id")},
    "partnerships": {("player_id", "players", "id"), ("partner_id", "players", "id")},
    "rivalries": {("player_id", "players", "id"), ("rival_id", "players", "id")},
    "player_ratings": {("player_id", "players", "id"), ("game_id", "games", "id")},
    "pair_games": {
        ("player_id", "players", "id"),
        ("partner_id", "players", "id"),
        ("game_id", "games", "id"),
    },
    "game_records": {("game_id", "games", "id")},
    "night_players": {("player_id", "players", "id")},
    "year_pairs": {("player_id", "players", "id"), ("partner_id", "players", "id")},
    "evening_games": {("game_id", "games", "id"), ("night", "evenings", "night")},
}
MIGRATIONS = [
    "m001_house_rules",
    "m002_players_and_games",
    "m003_game_uid_and_history_indexes",
    "m004_team_totals",
    "m005_round_ids_never_reused",
    "m006_name_keys_and_revisions",
    "m007_entries_for_every_house",
    "m008_player_summaries",
    "m009_share_links",
    "m010_ratings_streaks_records",
    "m011_evenings",
    "m012_ratings_behind",
    "m013_played_and_paper",
    "m014_nights_kept",
    "m015_imports_in_short_steps",
    "m016_passcode_guesses",
    "m017_packet_not_taken",
    "m018_change_log_said",
    "m019_games_deleted",
    "m020_hand_samples",
    "m021_player_colours",
]


def test_migrating_an_empty_database_gives_the_schema(tmp_path):
    path = tmp_path / "empty.db"
    assert migrate(path) == MIGRATIONS
    db = Database(path)
    assert set(db.table_names()) == set(SCHEMA) | {"_sqlite_migrations", "sqlite_sequence"}
    for table, columns in SCHEMA.items():
        assert db[table].columns_dict == columns, table
        fks = {(fk.column, fk.other_table, fk.other_column) for fk in db[table].foreign_keys}
        assert fks == FOREIGN_KEYS.get(table, set()), table
    unique = {(t, tuple(i.columns)) for t in SCHEMA for i in db[t].indexes if i.unique}
    assert {
        ("house_rules", ("key",)),
        ("players", ("key",)),
        ("teams", ("game_id", "position")),
        ("rounds", ("game_id", "number")),
        ("games", ("uid",)),
        ("games", ("share_token",)),
        ("player_ratings", ("player_id", "games")),
        ("evenings", ("share_token",)),
        ("evening_games", ("night", "sitting", "table_number")),
    } <= unique
    assert [m.name for m in migrations.applied(db)] == MIGRATIONS
    assert db.journal_mode == "wal"
    db.close()
    assert migrate(path) == []  # running it again changes nothing


def test_every_entry_field_has_its_column(tmp_path):
    """Adding an entry field to the engine takes a migration that adds its column."""
    migrate(tmp_path / "entries.db")
    columns = Database(tmp_path / "entries.db")["round_entries"].columns_dict
    for entry in ENTRY_FIELDS:
        assert columns.get(entry.name) is int, f"no round_entries.{entry.name}: add a migration"


def test_the_database_enforces_one_player_per_name_key(tmp_path):
    migrate(tmp_path / "names.db")
    db = connect(tmp_path / "names.db")
    with transaction(db):
        games.insert_game(db, RULESETS["tablet"], "tablet", [("", ["Émile"]), ("", ["Straße"])])
        games.insert_game(db, RULESETS["tablet"], "tablet", [("", ["ÉMILE"]), ("", ["STRASSE"])])
    assert [row[0] for row in db.execute("SELECT name FROM players ORDER BY id")] == ["Émile", "Straße"]
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO players (name, key, created_at) VALUES ('x', 'émile', 'now')")
    db.close()


def test_round_ids_are_never_reused(db, make_game):
    from scorekeeper.scoring import TeamRound

    game = make_game("partnership", [[TeamRound(), TeamRound()]] * 2)
    last = game.rounds[-1].id
    game = games.delete_round(db, game.id, game.revision, last)
    game = games.add_round(db, game.id, game.revision, 2, [TeamRound(), TeamRound()])
    assert game.rounds[-1].id > last


def test_names_that_now_clash_are_renamed_and_reported_never_merged(tmp_path, caplog):
    path = tmp_path / "old.db"
    db = Database(path)
    migrations.apply(db, stop_before="m006_name_keys_and_revisions")
    for name in ("Émile", "émile", "Straße", "STRASSE"):  # NOCASE let these in twice
        db["players"].insert({"name": name, "created_at": "x"})
    rules = RULESETS["tablet"].to_dict()
    for name in ("Ça va", "ça va"):
        db["house_rules"].insert(
            {"name": name, "rules": json.dumps({**rules, "name": name}), "created_at": "x", "updated_at": "x"}
        )
    db.close()
    with caplog.at_level("WARNING", logger="scorekeeper.storage.migrations"):
        migrate(path)
    names = [row[0] for row in Database(path).execute("SELECT name FROM players ORDER BY id")]
    assert names == ["Émile", "émile (2)", "Straße", "STRASSE (2)"]
    assert [row[0] for row in Database(path).execute("SELECT name FROM house_rules ORDER BY id")] == [
        "Ça va",
        "ça va (2)",
    ]
    assert "renamed it “émile (2)”" in caplog.text and "renamed it “STRASSE (2)”" in caplog.text


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


def test_one_kept_connection_per_thread_with_its_pragmas(app):
    with app.test_request_context():
        db = get_db()
        assert get_db() is db
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000
        db.conn.execute("BEGIN")  # a request that failed halfway ...
    with app.app_context():
        assert get_db() is db  # kept for the thread's next request ...
        assert not db.conn.in_transaction  # ... with nothing left open


def test_a_transaction_writes_all_or_nothing_and_takes_the_write_lock_first(db):
    with pytest.raises(ZeroDivisionError), transaction(db):
        db.execute("INSERT INTO players (name, key, created_at) VALUES ('Ann', 'ann', 'x')")
        raise ZeroDivisionError  # anything going wrong halfway
    assert db.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 0
    other = connect(db.conn.execute("PRAGMA database_list").fetchone()[2])
    with transaction(db):
        # another connection cannot start a write now: it would wait, then give up
        other.conn.execute("PRAGMA busy_timeout = 0")
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.conn.execute("BEGIN IMMEDIATE")
    other.close()


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
    for taken in ("GRANDMA'S", "Roth family house rules (to 10,000)", "ROTH FAMILY HOUSE RULES (TO 10,000)"):
        with pytest.raises(ValueError, match="already a rule set"):
            rulesets.save_house_rules(db, dataclasses.replace(rules, name=taken))
    assert db["house_rules"].count == 1
    assert [e.key for e in rulesets.list_rule_sets(db)] == [*RULESETS, key]
    assert rulesets.get_rule_set(db, "house-999") is None
    assert rulesets.get_rule_set(db, "house-0") is None
    assert rulesets.get_rule_set(db, "house-99999999999999999999") is None


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
    game = (
        db["games"]
        .insert(
            {
                "uid": "g1",
                "rules": "{}",
                "rules_name": "x",
                "created_at": "x",
                "updated_at": "x",
                "finished_at": "y",
            }
        )
        .last_pk
    )
    for position, scores in enumerate(([300, 200], [100, 50])):
        team = db["teams"].insert({"game_id": game, "position": position, "name": str(position)}).last_pk
        for number, score in enumerate(scores, start=1):
            round_id = (
                db.execute(
                    "SELECT id FROM rounds WHERE game_id = ? AND number = ?", [game, number]
                ).fetchone()
                or [None]
            )[0]
            if round_id is None:
                round_id = (
                    db["rounds"]
                    .insert(
                        {
                            "game_id": game,
                            "number": number,
                            "version": 1,
                            "created_at": "x",
                            "updated_at": "x",
                        }
                    )
                    .last_pk
                )
            db["round_entries"].insert(
                {
                    "round_id": round_id,
                    "team_id": team,
                    "books": "{}",
                    "score": score,
                    **dict.fromkeys(
                        (
                            "melded_points",
                            "unplayed_points",
                            "red_threes",
                            "black_threes",
                            "red_threes_melded",
                            "went_out",
                            "cuts",
                            "penalties",
                        ),
                        0,
                    ),
                }
            )
    db.conn.commit()
    db.close()
    migrate(path)
    rows = list(Database(path).query("SELECT position, total, won FROM teams ORDER BY position"))
    assert rows == [{"position": 0, "total": 500, "won": 1}, {"position": 1, "total": 150, "won": 0}]


def test_m013_dates_every_game_played_when_it_was_started_and_remakes_the_summaries(tmp_path):
    path = tmp_path / "before-m013.db"
    old = Database(path)
    migrations.apply(old, stop_before="m013_played_and_paper")
    rules = RULESETS["partnership"].to_json()
    started = on_the_clock("2025-03-01", 20)  # the evening of the 1st on the household's clock
    old.execute(
        "INSERT INTO players (id, name, key, created_at) VALUES (1, 'Ann', 'ann', 'x'), (2, 'Bo', 'bo', 'x')"
    )
    old.execute(
        """INSERT INTO games (id, uid, rules, rules_key, rules_name, ended_by_hand, finished_at, created_at,
                             updated_at, revision)
           VALUES (1, 'u1', ?, 'partnership', ?, 1, '2025-03-02T21:00:00+00:00',
                   ?, '2025-03-02T21:00:00+00:00', 2)""",
        [rules, RULESETS["partnership"].name, started],
    )
    old.execute(
        "INSERT INTO teams (id, game_id, position, name, total, won) "
        "VALUES (1, 1, 0, 'Ann', 400, 1), (2, 1, 1, 'Bo', 100, 0)"
    )
    old.execute("INSERT INTO team_players (team_id, player_id, position) VALUES (1, 1, 0), (2, 2, 0)")
    old.execute("INSERT INTO rounds (id, game_id, number, created_at, updated_at) VALUES (1, 1, 1, 'x', 'x')")
    for team, melded in ((1, 400), (2, 100)):
        old.execute(
            "INSERT INTO round_entries (round_id, team_id, books, melded_points, unplayed_points, red_threes,"
            " black_threes, red_threes_melded, went_out, cuts, penalties, score)"
            " VALUES (1, ?, '{}', ?, 0, 0, 0, 0, 0, 0, 0, ?)",
            [team, melded, melded],
        )
    old.close()
    assert migrate(path) == MIGRATIONS[12:]
    db = connect(path)
    game = game_model.load_game(db, 1)
    assert game.played_at == game.created_at == started and game.paper is None
    assert game.rounds[0].entries[0].paper_score is None
    assert db.execute(
        "SELECT player_id, played_at, won, scores_only FROM player_games ORDER BY 1"
    ).fetchall() == [
        (1, started, 1, 0),
        (2, started, 0, 0),
    ]
    assert db.execute("SELECT night, games FROM nights").fetchall() == [("2025-03-01", 1)]
    assert db.execute("SELECT COUNT(*) FROM player_ratings").fetchone()[0] == 2
    db.close()
