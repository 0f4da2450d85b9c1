"""The players' summaries kept with every change equal those rebuilt from scratch.

``summaries.refresh`` adds each change's difference to the sums; ``rebuild``
makes every row again from the stored scores and totals (as recompute-scores
and the migration do). After any kind of change the two must agree exactly.
"""

import json
import random

import pytest

from scorekeeper.exchange import importer, jsonfile
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import Conflict, games, players, summaries
from scorekeeper.storage.db import transaction

TABLES = {
    "player_games": "player_id, game_id",
    "player_stats": "player_id",
    "player_books": "player_id, kind",
    "partnerships": "player_id, partner_id",
    "rivalries": "player_id, rival_id",
    "game_counts": "finished",
    "player_ratings": "player_id, game_id",
    "pair_games": "player_id, partner_id, game_id",
    "game_records": "game_id",
    "nights": "night",
    "night_players": "night, player_id",
    "year_pairs": "year, player_id, partner_id",
}


def dump(db):
    """Every summary row, books as a dict (key order in JSON text is no figure)."""
    result = {}
    for table, order in TABLES.items():
        cursor = db.execute(f"SELECT * FROM {table} ORDER BY {order}")
        names = [c[0] for c in cursor.description]
        rows = [dict(zip(names, row)) for row in cursor]
        for row in rows:
            if row.get("books") is not None and table == "player_games":
                row["books"] = json.loads(row["books"])
        result[table] = rows
    return result


def rebuilt(db):
    """What rebuild() makes of the database as it is (nothing is kept)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        summaries.rebuild(db)
        return dump(db)
    finally:
        db.execute("ROLLBACK")


def assert_in_step(db):
    kept = dump(db)
    assert kept == rebuilt(db)
    return kept


def entry(rng, out=False):
    return TeamRound(
        books={"clean": rng.randint(0, 2), "dirty": rng.randint(0, 2)},
        melded_points=rng.choice((0, 50, 150, 400)),
        unplayed_points=0 if out else rng.choice((0, 20, 65)),
        red_threes=rng.randint(0, 1),
        black_threes=0 if out else rng.randint(0, 1),
        went_out=out,
    )


def a_round(rng, teams):
    out = rng.randrange(teams)
    return [entry(rng, i == out) for i in range(teams)]


def test_every_kind_of_change_keeps_the_summaries_in_step(db):
    rng = random.Random(7)
    assert_in_step(db)
    # started: every player has played one more game, nothing counts yet
    game = games.create_game(
        db,
        RULESETS["partnership"],
        "partnership",
        [("", ["Ann", "Bo"]), ("", ["Cy", "Di", "Eve"]), ("", ["Flo"])],
    )
    kept = assert_in_step(db)
    assert {r["player_id"]: r["played"] for r in kept["player_stats"]} == dict.fromkeys(
        [p.id for t in game.teams for p in t.players], 1
    )
    assert kept["partnerships"] == [] and all(r["games"] == 0 for r in kept["player_stats"])
    for number in range(1, 4):  # rounds of a game in progress: nothing counts yet
        game = games.add_round(db, game.id, game.revision, number, a_round(rng, 3))
        assert assert_in_step(db) == kept
    game = games.end_game(db, game.id, game.revision)  # now it counts
    kept = assert_in_step(db)
    assert all(r["games"] == 1 for r in kept["player_stats"])
    assert len(kept["rivalries"]) == 6 * 5 - (2 + 6)  # pairs on different teams
    game = games.reopen_game(db, game.id, game.revision)  # no longer counts
    kept = assert_in_step(db)
    assert kept["partnerships"] == [] and kept["rivalries"] == [] and kept["player_books"] == []
    game = games.update_round(db, game.id, game.revision, game.rounds[1].id, a_round(rng, 3))
    assert_in_step(db)
    game = games.end_game(db, game.id, game.revision)
    assert_in_step(db)
    # a game that ends by its rules on its last round, then a round fixed and deleted
    tablet = games.create_game(db, RULESETS["tablet"], "tablet", [("", ["Ann"]), ("", ["Cy"])])
    for number in range(1, 6):
        tablet = games.add_round(db, tablet.id, tablet.revision, number, a_round(rng, 2))
        assert_in_step(db)
    assert tablet.finished_at is not None
    tablet = games.reopen_game(db, tablet.id, tablet.revision)
    tablet = games.update_round(db, tablet.id, tablet.revision, tablet.rounds[0].id, a_round(rng, 2))
    assert_in_step(db)
    assert tablet.finished_at is not None  # the fixed round still ends it
    tablet = games.reopen_game(db, tablet.id, tablet.revision)
    tablet = games.delete_round(db, tablet.id, tablet.revision, tablet.rounds[2].id)
    assert_in_step(db)
    tablet = games.add_round(db, tablet.id, tablet.revision, 5, a_round(rng, 2))  # finishes it again
    assert tablet.finished_at is not None
    assert_in_step(db)
    # a tie: both teams win, and neither beats the other head to head
    tie = games.create_game(db, RULESETS["partnership"], "partnership", [("", ["Bo"]), ("", ["Di"])])
    tie = games.add_round(db, tie.id, tie.revision, 1, [TeamRound(melded_points=50)] * 2)
    tie = games.end_game(db, tie.id, tie.revision)
    kept = assert_in_step(db)
    bo, di = players.find_player(db, "Bo").id, players.find_player(db, "Di").id
    bo_di = next(r for r in kept["rivalries"] if (r["player_id"], r["rival_id"]) == (bo, di))
    assert bo_di["ties"] >= 1 and bo_di["wins"] + bo_di["losses"] + bo_di["ties"] == bo_di["games"] == 2
    assert [r["wins"] for r in kept["player_stats"] if r["player_id"] in (bo, di)] == [
        r["wins"] for r in rebuilt(db)["player_stats"] if r["player_id"] in (bo, di)
    ]
    # a game ended before any round counts nowhere, but was played
    empty = games.create_game(db, RULESETS["roth"], "roth", [("", ["Gus"]), ("", ["Hal"])])
    games.end_game(db, empty.id, empty.revision)
    kept = assert_in_step(db)
    gus = players.find_player(db, "Gus").id
    assert [(r["played"], r["games"]) for r in kept["player_stats"] if r["player_id"] == gus] == [(1, 0)]
    # a rename changes no figure
    players.rename_player(db, bo, 0, "Bobby")
    assert assert_in_step(db) == kept


def test_a_refused_change_leaves_the_summaries_as_they_were(db):
    game = games.create_game(db, RULESETS["partnership"], "partnership", [("", ["Ann"]), ("", ["Bo"])])
    game = games.add_round(db, game.id, game.revision, 1, [TeamRound(melded_points=50), TeamRound()])
    game = games.end_game(db, game.id, game.revision)
    kept = assert_in_step(db)
    with pytest.raises(Conflict):
        games.reopen_game(db, game.id, game.revision - 1)
    assert dump(db) == kept


def test_import_demo_data_and_recompute_keep_the_summaries_in_step(runner, db, tmp_path):
    assert runner.invoke(args=["demo-data", "--games", "40", "--seed", "3"]).exit_code == 0
    kept = assert_in_step(db)
    assert kept["partnerships"] and kept["rivalries"] and kept["player_books"]
    # the history exported, then imported into an empty database, summarises the same
    exported = "".join(jsonfile.iter_history_json(db))
    with transaction(db):
        for table in TABLES:
            db.execute(f"DELETE FROM {table}")
    assert runner.invoke(args=["recompute-scores"]).exit_code == 0
    assert dump(db) == kept  # recompute-scores rebuilds them
    from scorekeeper.services.schema import migrate
    from scorekeeper.storage.db import connect

    other_path = tmp_path / "other.db"
    migrate(other_path)
    other = connect(other_path)
    try:
        importer.import_history(other, importer.read_history(exported.encode()))
        imported = assert_in_step(other)
        assert len(imported["player_games"]) == len(kept["player_games"])
        assert [r["games"] for r in imported["player_stats"]] != []
        assert sorted((r["games"], r["wins"], r["points"]) for r in imported["player_stats"]) == sorted(
            (r["games"], r["wins"], r["points"]) for r in kept["player_stats"]
        )
    finally:
        other.close()


def test_the_migration_summarises_games_already_played(tmp_path):
    """A database from before m008 gets its summaries from its stored scores and totals."""
    from scorekeeper.services.schema import migrate
    from scorekeeper.storage.db import connect
    from scorekeeper.storage.migrations import migrations

    path = tmp_path / "old.db"
    db = connect(path, create=True)
    try:
        migrations.apply(db, stop_before="m008_player_summaries")
        # games written as the app wrote them before the summaries existed
        with transaction(db):
            game_id = db.execute(
                """INSERT INTO games (uid, rules, rules_key, rules_name, ended_by_hand, finished_at,
                                      created_at, updated_at, revision)
                   VALUES ('u1', ?, 'partnership', 'Partnership', 1, '2026-01-02T20:00:00+00:00',
                           '2026-01-02T19:00:00+00:00', '2026-01-02T20:00:00+00:00', 2)""",
                [RULESETS["partnership"].to_json()],
            ).lastrowid
            ids = []
            for position, (name, total, won) in enumerate([("Ann", 700, 1), ("Bo", 40, 0)]):
                pid = db.execute(
                    "INSERT INTO players (name, key, created_at, revision) VALUES (?, ?, 'x', 0)",
                    [name, name.casefold()],
                ).lastrowid
                tid = db.execute(
                    "INSERT INTO teams (game_id, position, name, total, won) VALUES (?, ?, ?, ?, ?)",
                    [game_id, position, name, total, won],
                ).lastrowid
                db.execute(
                    "INSERT INTO team_players (team_id, player_id, position) VALUES (?, ?, 0)", [tid, pid]
                )
                ids.append((pid, tid))
            round_id = db.execute(
                "INSERT INTO rounds (game_id, number, created_at, updated_at) VALUES (?, 1, 'x', 'x')",
                [game_id],
            ).lastrowid
            for (_, tid), (books, score, out) in zip(ids, [('{"clean": 1}', 700, 1), ("{}", 40, 0)]):
                db.execute(
                    """INSERT INTO round_entries (round_id, team_id, books, melded_points,
                           unplayed_points, red_threes, black_threes, red_threes_melded, went_out,
                           cuts, penalties, score) VALUES (?, ?, ?, ?, 0, 0, 0, 0, ?, 0, 0, ?)""",
                    [round_id, tid, books, 100 if out else 40, out, score],
                )
    finally:
        db.close()
    migrate(path)  # as init-db and make run do: the pending migrations, then the summaries
    db = connect(path)
    try:
        kept = assert_in_step(db)
        ann = ids[0][0]
        assert [(r["games"], r["wins"], r["points"], r["went_out"]) for r in kept["player_stats"]] == [
            (1, 1, 700, 1),
            (1, 0, 40, 0),
        ]
        assert kept["player_books"] == [{"player_id": ann, "kind": "clean", "books": 1}]
    finally:
        db.close()
