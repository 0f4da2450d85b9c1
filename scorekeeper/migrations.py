"""The schema, as append-only sqlite-utils migrations.

Never edit a migration that has shipped: add the next one (m002_…).
"""

from sqlite_utils.migrations import Migrations

migrations = Migrations("scorekeeper")


@migrations()
def m001_house_rules(db):
    # A family's saved rule sets; `rules` is the house-rules JSON file as text.
    db["house_rules"].create(
        {"id": int, "name": str, "rules": str, "created_at": str, "updated_at": str},
        pk="id",
        not_null={"name", "rules", "created_at", "updated_at"},
    )
    # names are unique regardless of case ("Roth" and "roth" are one rule set)
    db.execute("CREATE UNIQUE INDEX idx_house_rules_name ON house_rules (name COLLATE NOCASE)")


@migrations()
def m002_players_and_games(db):
    db["players"].create({"id": int, "name": str, "created_at": str}, pk="id",
                         not_null={"name", "created_at"})
    db.execute("CREATE UNIQUE INDEX idx_players_name ON players (name COLLATE NOCASE)")
    # `rules` is the game's own copy of its house-rules file: editing house
    # rules later never changes a game already played under them.
    db["games"].create(
        {"id": int, "rules": str, "rules_key": str, "rules_name": str, "first_dealer": int,
         "ended_by_hand": int, "finished_at": str, "created_at": str, "updated_at": str,
         "revision": int},
        pk="id", foreign_keys=[("first_dealer", "players", "id")],
        not_null={"rules", "rules_name", "ended_by_hand", "created_at", "updated_at", "revision"},
        defaults={"ended_by_hand": 0, "revision": 0})
    db["teams"].create({"id": int, "game_id": int, "position": int, "name": str}, pk="id",
                       foreign_keys=[("game_id", "games", "id")],
                       not_null={"game_id", "position", "name"})
    db["teams"].create_index(["game_id", "position"], unique=True)
    db["team_players"].create({"team_id": int, "player_id": int, "position": int},
                              pk=("team_id", "player_id"),
                              foreign_keys=[("team_id", "teams", "id"), ("player_id", "players", "id")],
                              not_null={"position"})
    db["team_players"].create_index(["player_id"])
    db["rounds"].create({"id": int, "game_id": int, "number": int, "version": int,
                         "created_at": str, "updated_at": str}, pk="id",
                        foreign_keys=[("game_id", "games", "id")],
                        not_null={"game_id", "number", "version", "created_at", "updated_at"})
    db["rounds"].create_index(["game_id", "number"], unique=True)
    # A round's inputs as entered (books as JSON: kinds vary by rule set), and
    # `score`, written by the engine in the same transaction for SQL reports.
    db["round_entries"].create(
        {"round_id": int, "team_id": int, "books": str, "melded_points": int,
         "unplayed_points": int, "red_threes": int, "black_threes": int,
         "red_threes_melded": int, "went_out": int, "cuts": int, "penalties": int, "score": int},
        pk=("round_id", "team_id"),
        foreign_keys=[("round_id", "rounds", "id"), ("team_id", "teams", "id")],
        not_null={"books", "melded_points", "unplayed_points", "red_threes", "black_threes",
                  "red_threes_melded", "went_out", "cuts", "penalties", "score"})
    db["round_entries"].create_index(["team_id"])
    # Every change to a game, with what changed, for the game screen.
    db["revisions"].create(
        {"id": int, "game_id": int, "round_number": int, "action": str, "summary": str,
         "before": str, "after": str, "created_at": str}, pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "action", "summary", "created_at"})
    db["revisions"].create_index(["game_id"])


@migrations()
def m003_game_uid_and_history_indexes(db):
    # A game's identity across databases, so that importing an export twice
    # (or into the database it came from) adds nothing.
    import uuid

    db["games"].add_column("uid", str)
    for (game_id,) in db.execute("SELECT id FROM games").fetchall():
        db.execute("UPDATE games SET uid = ? WHERE id = ?", [uuid.uuid4().hex, game_id])
    db["games"].create_index(["uid"], unique=True)
    # the history page filters and sorts by these
    db["games"].create_index(["created_at"])
    db["games"].create_index(["finished_at"])
    db["games"].create_index(["rules_name"])


@migrations()
def m004_team_totals(db):
    # Each team's total and whether it is among the winners, written by the
    # engine (games._settle) with every change, so the players' pages read one
    # row per team instead of adding up every round of every game.
    db["teams"].add_column("total", int, not_null_default=0)
    db["teams"].add_column("won", int, not_null_default=0)
    # existing games: from the round scores the engine stored
    db.execute("""UPDATE teams SET total = (SELECT COALESCE(SUM(score), 0) FROM round_entries
                                            WHERE team_id = teams.id)""")
    db.execute("""UPDATE teams SET won = total = (SELECT MAX(o.total) FROM teams o
                                                  WHERE o.game_id = teams.game_id)
                  WHERE game_id IN (SELECT id FROM games WHERE finished_at IS NOT NULL)""")
