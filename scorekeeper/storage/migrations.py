"""The schema, as append-only sqlite-utils migrations.

Over 400 lines: append-only, every migration that has shipped stays as it was.

Never edit a migration that has shipped: add the next one (m002_…).
"""

import logging

from sqlite_utils.migrations import Migrations

migrations = Migrations("scorekeeper")
# what a migration has to tell the family (flask init-db prints it)
log = logging.getLogger(__name__)
# migrations after which the players' summaries are made again from the stored
# scores (services.schema.migrate does it once all pending migrations have run)
REBUILDS_SUMMARIES = {
    "m008_player_summaries",
    "m010_ratings_streaks_records",
    "m013_played_and_paper",
    "m014_nights_kept",
}


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
    db["players"].create(
        {"id": int, "name": str, "created_at": str}, pk="id", not_null={"name", "created_at"}
    )
    db.execute("CREATE UNIQUE INDEX idx_players_name ON players (name COLLATE NOCASE)")
    # `rules` is the game's own copy of its house-rules file: editing house
    # rules later never changes a game already played under them.
    db["games"].create(
        {
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
        },
        pk="id",
        foreign_keys=[("first_dealer", "players", "id")],
        not_null={"rules", "rules_name", "ended_by_hand", "created_at", "updated_at", "revision"},
        defaults={"ended_by_hand": 0, "revision": 0},
    )
    db["teams"].create(
        {"id": int, "game_id": int, "position": int, "name": str},
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "position", "name"},
    )
    db["teams"].create_index(["game_id", "position"], unique=True)
    db["team_players"].create(
        {"team_id": int, "player_id": int, "position": int},
        pk=("team_id", "player_id"),
        foreign_keys=[("team_id", "teams", "id"), ("player_id", "players", "id")],
        not_null={"position"},
    )
    db["team_players"].create_index(["player_id"])
    db["rounds"].create(
        {"id": int, "game_id": int, "number": int, "version": int, "created_at": str, "updated_at": str},
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "number", "version", "created_at", "updated_at"},
    )
    db["rounds"].create_index(["game_id", "number"], unique=True)
    # A round's inputs as entered (books as JSON: kinds vary by rule set), and
    # `score`, written by the engine in the same transaction for SQL reports.
    db["round_entries"].create(
        {
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
        },
        pk=("round_id", "team_id"),
        foreign_keys=[("round_id", "rounds", "id"), ("team_id", "teams", "id")],
        not_null={
            "books",
            "melded_points",
            "unplayed_points",
            "red_threes",
            "black_threes",
            "red_threes_melded",
            "went_out",
            "cuts",
            "penalties",
            "score",
        },
    )
    db["round_entries"].create_index(["team_id"])
    # Every change to a game, with what changed, for the game screen.
    db["revisions"].create(
        {
            "id": int,
            "game_id": int,
            "round_number": int,
            "action": str,
            "summary": str,
            "before": str,
            "after": str,
            "created_at": str,
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "action", "summary", "created_at"},
    )
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
    # engine (services.changes.settled) with every change, so the players' pages read one
    # row per team instead of adding up every round of every game.
    db["teams"].add_column("total", int, not_null_default=0)
    db["teams"].add_column("won", int, not_null_default=0)
    # existing games: from the round scores the engine stored
    db.execute("""UPDATE teams SET total = (SELECT COALESCE(SUM(score), 0) FROM round_entries
                                            WHERE team_id = teams.id)""")
    db.execute("""UPDATE teams SET won = total = (SELECT MAX(o.total) FROM teams o
                                                  WHERE o.game_id = teams.game_id)
                  WHERE game_id IN (SELECT id FROM games WHERE finished_at IS NOT NULL)""")


@migrations(transactional=False)
def m005_round_ids_never_reused(db):
    # A round is known by its id, so an id must never come back: with plain
    # INTEGER PRIMARY KEY, SQLite gives a deleted last round's id to the next
    # round. AUTOINCREMENT needs a new table; SQLite's own recipe rebuilds it
    # with foreign keys off, which only works outside a transaction, so this
    # migration makes its own and is safe to run twice. The per-round version
    # goes: every change is now checked against the game's revision.
    (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'rounds'").fetchone()
    if "AUTOINCREMENT" in sql.upper():
        return
    db.execute("PRAGMA foreign_keys = OFF")
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("""CREATE TABLE rounds_new (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                game_id INTEGER NOT NULL REFERENCES games(id),
                number INTEGER NOT NULL,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL)""")
            db.execute("""INSERT INTO rounds_new (id, game_id, number, created_at, updated_at)
                          SELECT id, game_id, number, created_at, updated_at FROM rounds""")
            db.execute("DROP TABLE rounds")
            db.execute("ALTER TABLE rounds_new RENAME TO rounds")
            db.execute("CREATE UNIQUE INDEX idx_rounds_game_id_number ON rounds (game_id, number)")
            if db.execute("PRAGMA foreign_key_check").fetchall():
                raise RuntimeError("m005: the rebuilt rounds table breaks a foreign key")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    finally:
        db.execute("PRAGMA foreign_keys = ON")


def _unique_names(db, table, rename):
    """Give each row of ``table`` its name key, renaming (never merging) rows
    whose names were two to the old index but are one name now; return notes."""
    from ..names import clean_name, name_key

    notes, taken = [], set()
    for row_id, name in db.execute(f"SELECT id, name FROM {table} ORDER BY id").fetchall():
        new, n = name, 1
        while name_key(clean_name(new)) in taken:
            n += 1
            new = f"{name} ({n})"
        taken.add(name_key(clean_name(new)))
        if new != name:
            rename(row_id, new)
            notes.append(
                f"{table}: “{name}” and another name are now the same name "
                f"(names ignore case and accents’ encoding): renamed it “{new}”."
            )
        db.execute(f"UPDATE {table} SET key = ? WHERE id = ?", [name_key(clean_name(new)), row_id])
    return notes


@migrations()
def m006_name_keys_and_revisions(db):
    # Names are compared by a key (names.name_key: NFKC, case-folded) that the
    # unique index enforces; NOCASE only folds ASCII, so "Émile" and "émile"
    # were two players to the database and one to the app. Clashing names are
    # renamed "Name (2)" and reported by init-db, never merged or dropped.
    import json

    for table in ("players", "house_rules"):
        db.execute(f"ALTER TABLE {table} ADD COLUMN key TEXT")
        # a rename or a rules edit is checked against the revision the phone saw
        db.execute(f"ALTER TABLE {table} ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")

    def rename_player(row_id, name):
        db.execute("UPDATE players SET name = ? WHERE id = ?", [name, row_id])

    def rename_rules(row_id, name):
        (text,) = db.execute("SELECT rules FROM house_rules WHERE id = ?", [row_id]).fetchone()
        rules = {**json.loads(text), "name": name}
        db.execute(
            "UPDATE house_rules SET name = ?, rules = ? WHERE id = ?",
            [name, json.dumps(rules, indent=2, ensure_ascii=False) + "\n", row_id],
        )

    notes = _unique_names(db, "players", rename_player) + _unique_names(db, "house_rules", rename_rules)
    db.execute("DROP INDEX idx_players_name")
    db.execute("DROP INDEX idx_house_rules_name")
    db.execute("CREATE UNIQUE INDEX idx_players_key ON players (key)")
    db.execute("CREATE UNIQUE INDEX idx_house_rules_key ON house_rules (key)")
    # each entry of a game's change log names the game revision it made, so
    # a refused change can say what happened since the phone looked
    db.execute("ALTER TABLE revisions ADD COLUMN revision INTEGER")
    for note in notes:
        log.warning(note)


@migrations()
def m007_entries_for_every_house(db):
    # Entries that more houses' rules score (scoring/entries.py ENTRY_FIELDS):
    # books of red and of black 3s, black 3s melded going out, going out
    # concealed, and the scorekeeper's tick that a first meld held the books
    # its round asks for. Rounds saved before hold none of them.
    for column in (
        "red_three_books",
        "black_three_books",
        "black_threes_out",
        "went_out_concealed",
        "first_meld_books",
    ):
        db["round_entries"].add_column(column, int, not_null_default=0)


@migrations()
def m008_player_summaries(db):
    # Each player's record as rows kept up to date with every change to a game
    # (services/summaries.py), so a player's page and the leaderboard read a
    # few rows whatever the size of the archive. One row per player per game
    # (its figures once the game counts), and the sums of those rows.
    db["player_games"].create(
        {
            "player_id": int,
            "game_id": int,
            "team_id": int,
            "created_at": str,
            "finished": int,  # the game is finished (it counts if it has a round, too)
            "counted_at": str,  # the game's finished_at, while the game counts
            "won": int,
            "total": int,
            "rounds": int,
            "points": int,
            "best_round": int,
            "went_out": int,
            "books": str,  # JSON {kind: books}
        },
        pk=("player_id", "game_id"),
        foreign_keys=[("player_id", "players", "id"), ("game_id", "games", "id"), ("team_id", "teams", "id")],
        not_null={"team_id", "created_at", "finished", "won", "total", "rounds", "points", "went_out"},
    )
    db.execute("CREATE INDEX idx_player_games_game_id ON player_games (game_id)")
    db.execute("CREATE INDEX idx_player_games_team_id ON player_games (team_id)")
    # a player's latest games; their latest finished games; their best round
    db.execute("CREATE INDEX idx_player_games_created ON player_games (player_id, created_at, game_id)")
    db.execute("""CREATE INDEX idx_player_games_counted ON player_games (player_id, counted_at, game_id)
                  WHERE counted_at IS NOT NULL""")
    db.execute("""CREATE INDEX idx_player_games_best ON player_games (player_id, best_round)
                  WHERE counted_at IS NOT NULL""")
    figures = ("played", "games", "wins", "rounds", "points", "went_out")
    db["player_stats"].create(
        {"player_id": int, **dict.fromkeys(figures, int)},
        pk="player_id",
        foreign_keys=[("player_id", "players", "id")],
        not_null=set(figures),
    )
    db["player_books"].create(
        {"player_id": int, "kind": str, "books": int},
        pk=("player_id", "kind"),
        foreign_keys=[("player_id", "players", "id")],
        not_null={"books"},
    )
    db["partnerships"].create(
        {"player_id": int, "partner_id": int, "games": int, "wins": int},
        pk=("player_id", "partner_id"),
        foreign_keys=[("player_id", "players", "id"), ("partner_id", "players", "id")],
        not_null={"games", "wins"},
    )
    db["rivalries"].create(
        {"player_id": int, "rival_id": int, "games": int, "wins": int, "losses": int, "ties": int},
        pk=("player_id", "rival_id"),
        foreign_keys=[("player_id", "players", "id"), ("rival_id", "players", "id")],
        not_null={"games", "wins", "losses", "ties"},
    )
    # how many games there are, finished (1) and not (0): the history's page count
    # without a pass over every game
    db["game_counts"].create({"finished": int, "games": int}, pk="finished", not_null={"games"})
    # the summaries of the games already played are made from their stored
    # scores and totals by services.schema.migrate once every migration has run (see
    # REBUILDS_SUMMARIES), so the code that makes them always meets the newest schema


@migrations()
def m009_share_links(db):
    # A game's share link opens a read-only view of it at /s/<token>: a random
    # token, unique, NULL once sharing is stopped (a new one replaces it).
    # Games from before get one, as new games do.
    import secrets

    db["games"].add_column("share_token", str)
    for (game_id,) in db.execute("SELECT id FROM games").fetchall():
        db.execute("UPDATE games SET share_token = ? WHERE id = ?", [secrets.token_urlsafe(16), game_id])
    db["games"].create_index(["share_token"], unique=True)


@migrations()
def m010_ratings_streaks_records(db):
    # Each player's fair rating (services/ratings.py: openskill's Plackett-Luce)
    # after each game that counts, in the order games were played, and their
    # winning streak after it; the latest row is where they stand now. Kept
    # with every change like the summaries (a change replays the games since).
    db["player_ratings"].create(
        {
            "player_id": int,
            "game_id": int,
            "played_at": str,  # the game's created_at: the order of play is (played_at, game_id)
            "mu": float,
            "sigma": float,
            "games": int,  # rated games so far, this one included
            "won": int,
            "streak": int,  # games won in a row, ending with this one (0 when lost)
        },
        pk=("player_id", "game_id"),
        foreign_keys=[("player_id", "players", "id"), ("game_id", "games", "id")],
        not_null={"played_at", "mu", "sigma", "games", "won", "streak"},
    )
    db.execute("CREATE UNIQUE INDEX idx_player_ratings_games ON player_ratings (player_id, games)")
    db.execute("CREATE INDEX idx_player_ratings_played ON player_ratings (played_at, game_id)")
    db.execute("CREATE INDEX idx_player_ratings_streak ON player_ratings (streak)")  # the record
    db.execute("CREATE INDEX idx_player_ratings_longest ON player_ratings (player_id, streak)")  # theirs
    # two partners' winning streak together, after each game they played on one team
    # (player_id < partner_id)
    db["pair_games"].create(
        {
            "player_id": int,
            "partner_id": int,
            "game_id": int,
            "played_at": str,
            "won": int,
            "streak": int,
        },
        pk=("player_id", "partner_id", "game_id"),
        foreign_keys=[
            ("player_id", "players", "id"),
            ("partner_id", "players", "id"),
            ("game_id", "games", "id"),
        ],
        not_null={"played_at", "won", "streak"},
    )
    db.execute("CREATE INDEX idx_pair_games_order ON pair_games (player_id, partner_id, played_at, game_id)")
    db.execute("CREATE INDEX idx_pair_games_played ON pair_games (played_at, game_id)")
    db.execute("CREATE INDEX idx_pair_games_streak ON pair_games (streak)")
    db.execute("CREATE INDEX idx_pair_games_longest ON pair_games (player_id, partner_id, streak)")
    # the games that count, in the order they were played (a replay reads them from a point on)
    db.execute("""CREATE INDEX idx_player_games_played ON player_games (created_at, game_id)
                  WHERE counted_at IS NOT NULL""")
    # what each game that counts could hold a record for (services/records.py);
    # *_team is the team's position, *_number / comeback_round the round
    figures = [
        *("high_total", "high_team", "margin", "margin_team", "comeback", "comeback_team", "comeback_round"),
        *("best_round", "best_round_team", "best_round_number"),
        *("worst_round", "worst_round_team", "worst_round_number"),
        *("most_books", "most_books_team", "most_books_number"),
    ]
    db["game_records"].create(
        {"game_id": int, "rules_name": str, "played_at": str, "night": str, **dict.fromkeys(figures, int)},
        pk="game_id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"rules_name", "played_at", "night", *figures} - {"comeback_round"},
    )
    for column, order in (
        ("high_total", "DESC"),
        ("margin", "DESC"),
        ("comeback", "DESC"),
        ("best_round", "DESC"),
        ("worst_round", "ASC"),
        ("most_books", "DESC"),
    ):
        db.execute(
            f"""CREATE INDEX idx_game_records_{column}
                ON game_records (rules_name, {column} {order}, played_at, game_id)"""
        )
    db.execute("CREATE INDEX idx_game_records_night ON game_records (night, rules_name)")
    # game nights (services/evenings.py): games per evening, each player's games
    # and wins per evening, and partners' games and wins per year (player_id < partner_id)
    db["nights"].create({"night": str, "games": int}, pk="night", not_null={"games"})
    db.execute("CREATE INDEX idx_nights_games ON nights (games DESC, night)")
    db["night_players"].create(
        {"night": str, "player_id": int, "games": int, "wins": int},
        pk=("night", "player_id"),
        foreign_keys=[("player_id", "players", "id")],
        not_null={"games", "wins"},
    )
    db["year_pairs"].create(
        {"year": str, "player_id": int, "partner_id": int, "games": int, "wins": int},
        pk=("year", "player_id", "partner_id"),
        foreign_keys=[("player_id", "players", "id"), ("partner_id", "players", "id")],
        not_null={"games", "wins"},
    )
    # made from the summaries by services.schema.migrate once every migration has run (REBUILDS_SUMMARIES)


@migrations()
def m011_evenings(db):
    # An evening of one or more tables (services/evening_tables.py): its night (the
    # YYYY-MM-DD of services/evenings.evening), how it seats its players from game to
    # game ("rotate": fair tables, partners changed; "progressive": winners move up),
    # the rule set its tables start with, and its share link (NULL once stopped).
    db["evenings"].create(
        {"night": str, "mode": str, "rules_key": str, "created_at": str, "share_token": str},
        pk="night",
        not_null={"mode", "rules_key", "created_at"},
    )
    db["evenings"].create_index(["share_token"], unique=True)
    # each of its games: the sitting (the night's first game, second…) and the table (1 = the head table)
    db["evening_games"].create(
        {"game_id": int, "night": str, "sitting": int, "table_number": int},
        pk="game_id",
        foreign_keys=[("game_id", "games", "id"), ("night", "evenings", "night")],
        not_null={"night", "sitting", "table_number"},
    )
    db.execute("CREATE UNIQUE INDEX idx_evening_games_seat ON evening_games (night, sitting, table_number)")
    db.execute(
        "CREATE INDEX idx_evening_games_tables ON evening_games (table_number DESC, night)"
    )  # the record


@migrations()
def m012_ratings_behind(db):
    # Where the ratings stop being up to date (services/ratings.py): a change to a game
    # that counts moves this mark back to the game, in its own short transaction; the
    # catch-up replays from it in short transactions of its own, moving it on, and
    # removes it once done. No row: every rating is up to date. At most one row.
    db.execute(
        """CREATE TABLE ratings_behind (
               id INTEGER PRIMARY KEY CHECK (id = 1),
               played_at TEXT NOT NULL,
               game_id INTEGER NOT NULL
           )"""
    )
    # a player's last rating before the mark, sought directly (there may be thousands of
    # stale rows after it while the catch-up runs)
    db.execute("CREATE INDEX idx_player_ratings_order ON player_ratings (player_id, played_at, game_id)")


@migrations()
def m013_played_and_paper(db):
    # A game's date is the day it was played (issue 41): ``played_at``, when the family
    # says it was played. A game scored at the table was played when it was started; a
    # game played on paper and typed in the next morning, the evening before. ``created_at``
    # stays the moment it was entered in the app. Nights, years, the ratings' order of
    # play, records and the history follow ``played_at``; a date corrected later is an
    # audited change like a round's fix (services/games.py ``change_played``).
    db["games"].add_column("played_at", str)
    db.execute("UPDATE games SET played_at = created_at")
    db["games"].create_index(["played_at"])
    # How the game was kept: NULL, on a phone round by round; "sheet", on a paper sheet
    # typed in as it reads; "scores", from an old sheet that kept only each round's score.
    db["games"].add_column("paper", str)
    # A scores-only round's score for a team as the sheet has it (the engine's score is
    # then that number); NULL for every entry typed line by line.
    db["round_entries"].add_column("paper_score", int)
    # The players' summaries follow the played date, and count the games kept as scores
    # only (they say nothing of books or going out, and the pages say how many they leave out)
    db.execute("ALTER TABLE player_games RENAME COLUMN created_at TO played_at")  # its indexes follow
    db["player_games"].add_column("scores_only", int, not_null_default=0)
    db["player_stats"].add_column("scores_only", int, not_null_default=0)  # games
    db["player_stats"].add_column("scores_only_rounds", int, not_null_default=0)
    # a scores-only game holds no record for books: its most_books is NULL
    db["game_records"].transform(
        not_null={"most_books": False, "most_books_team": False, "most_books_number": False}
    )
    # made again from the stored rounds by services.schema.migrate (REBUILDS_SUMMARIES)


@migrations()
def m014_nights_kept(db):
    # A game's night (the evening it was played: services/evenings.evening, on the
    # household's clock) is kept with it (issue 42): worked out once, when the game is
    # played or its date corrected, never again from whatever time zone the computer is
    # in now. A computer left on UTC and later set to the family's zone moved nothing
    # already counted... except that the summaries worked an old game's night out anew
    # and took it from another night than they had added it to. Games there are get the
    # night this computer's clock gives them now (services.schema.migrate: the rule is the
    # services'), and the summaries are made again from them.
    db["games"].add_column("night", str)
    db["games"].create_index(["night"])
    db["player_games"].add_column("night", str)  # its game's, for the nights' sums


@migrations()
def m015_imports_in_short_steps(db):
    # An import writes its games in short transactions, so that no other phone's Save waits
    # on it (issue 42): each game is written hidden (``importing`` names its import), then
    # the import is published a few games a transaction (counted in every summary, shown on
    # every page). ``imports`` is the mark, as the ratings' ``ratings_behind`` is: an import
    # still "writing" when the app stopped is undone at its next start, one "publishing" is
    # finished (exchange/importer.py ``resume``). ``players``: the ids it added (JSON), to
    # take away again if it is undone and they have no other game.
    db["imports"].create(
        {"id": int, "state": str, "started_at": str, "players": str},
        pk="id",
        not_null={"state", "started_at", "players"},
    )
    db["games"].add_column("importing", int)
    db.execute("CREATE INDEX idx_games_importing ON games (importing) WHERE importing IS NOT NULL")


@migrations()
def m016_passcode_guesses(db):
    # Wrong passcodes (and household codes) counted for the whole household as well as per
    # address, kept across restarts (issue 43): after a few wrong ones, each further guess
    # waits longer (services/guesses.py). ``scope`` is "household" or "address <ip>".
    db["passcode_guesses"].create(
        {"scope": str, "wrong": int, "last_at": str, "waiting_until": str},
        pk="scope",
        not_null={"wrong", "last_at"},
    )


@migrations()
def m017_packet_not_taken(db):
    # Buraco's morto, Burraco's pozzetto (issue 47): whether a team never took its second
    # packet, an entry (scoring/entries.py) priced by the rules' packet_not_taken. Rounds
    # saved before hold 0: taken, or a game whose rules do not ask.
    db["round_entries"].add_column("packet_not_taken", int, not_null_default=0)


@migrations()
def m018_change_log_said(db):
    # A game's change log in each reader's language (issue 47, services/change_log.py): a
    # line keeps what it said (its message and values, as JSON) beside its English text,
    # and is worded again when shown. Lines kept before have none and read as written.
    db["revisions"].add_column("said", str)


@migrations()
def m019_games_deleted(db):
    # A game deleted by mistake (issue 54) is kept, marked with when it was deleted (UTC, ISO),
    # for 30 days: no page, summary, rating, record or export counts it (services/deleted.py
    # takes its rows out of the summaries as a change does), Undo and the list of deleted
    # games restore it whole, and the app's upkeep removes it for good after that. Its seat at
    # an evening's table is kept in its change log's line, where the deletion says what it took.
    db["games"].add_column("deleted_at", str)
    db.execute("CREATE INDEX idx_games_deleted ON games (deleted_at) WHERE deleted_at IS NOT NULL")
    # the household's log of deletions and restorations, newest first, without reading every
    # round's line of every game's log
    db.execute(
        """CREATE INDEX idx_revisions_household ON revisions (created_at)
           WHERE action IN ('game-deleted', 'game-restored')"""
    )


@migrations()
def m020_hand_samples(db):
    # The family's own handwriting (issue 55): every digit box the family confirmed or
    # corrected on a sheet read from a photo, kept as a sample the reader reads beside its
    # shipped model (services/hand.py). ``image`` is the digit's box cut from the photo (a
    # grayscale PNG), ``digit`` what the family saved, ``read`` what the reader had made of
    # it (NULL: nothing), so a correction can be told from a confirmation. No game is named:
    # the hand is the household's, and stays when a game goes.
    db["hand_samples"].create(
        {"id": int, "digit": int, "image": bytes, "read": int, "created_at": str},
        pk="id",
        not_null={"digit", "image", "created_at"},
    )


@migrations()
def m021_player_colours(db):
    # A colour for each player (issue 58): the key of a colour of services/colours.py's
    # palette, drawn wherever players are drawn together. Players there are get theirs in
    # the order they were made, each the least used then (services.schema.migrate: the
    # palette is the services'); a new player gets the least used when made.
    db["players"].add_column("colour", str)
