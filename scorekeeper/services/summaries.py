"""Players' summaries: each player's record kept as rows, so their pages and the

Over 400 lines: the summaries' deltas after a change and their rebuild in SQL must agree
row for row, so they are kept side by side.
leaderboard read a few rows instead of the whole archive.

Two kinds of table (m008):

- ``player_games``: one row per player per game, with what that game adds to
  their record once it counts (finished, with at least one round): their
  team's total and whether it won, its rounds, points, best round, times out
  and books by kind. While a game does not count, its figures are zero (its
  ``counted_at`` is NULL), so saving a round of a game in progress changes no
  summary row. Indexed for "their latest games" and "their best round".
- the sums over those rows, one row per player (``player_stats``), per player
  and kind of book (``player_books``), per pair of partners
  (``partnerships``) and per pair of opponents (``rivalries``); and how many
  games there are, finished and not (``game_counts``, for the history's
  page count); and, per game night (``services/evenings.py``), how many
  games (``nights``), each player's games and wins (``night_players``), and
  partners' games and wins per year (``year_pairs``, m010).

With the same change, ``records.refresh`` keeps the game's ``game_records``
row, and when what the game gives the ratings changed (its teams and totals,
once it counts) ``ratings.changed`` marks the ratings and streaks stale from it
(they are caught up after the commit).

Every number is the engine's: a row is made from ``scoring.standings`` of
the game as saved (the same totals and verdict ``teams.total`` and
``teams.won`` store). ``refresh`` runs inside the transaction of every change
to a game: it reads the game's rows as they were, makes them anew from the
game, and adds the difference to the sums (nothing at all when nothing that
counts changed). ``rebuild`` makes every row again from the stored scores and
totals, in SQL; ``recompute-scores``, ``demo-data`` and the migration use it,
and the tests check that ``refresh`` after any change leaves what ``rebuild``
makes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from . import ratings, records

# the order of a player_games row as read and written here
_COLUMNS = (
    "player_id",
    "game_id",
    "team_id",
    "played_at",
    "finished",
    "counted_at",
    "won",
    "total",
    "rounds",
    "points",
    "best_round",
    "went_out",
    "books",
    "scores_only",
    "night",
)
_UPSERT_GAME = (
    f"INSERT OR REPLACE INTO player_games ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
)


@dataclass(frozen=True)
class Row:
    """A player's row for one game (the figures are zero while the game does not count)."""

    player_id: int
    game_id: int
    team_id: int
    played_at: str  # the game's (its night, its place in the order of play)
    finished: int  # 1 when the game is finished (it may still not count: no round)
    counted_at: str | None  # the game's finished_at, when the game counts
    won: int = 0
    total: int = 0
    rounds: int = 0
    points: int = 0
    best_round: int | None = None
    went_out: int = 0
    books: str | None = None  # JSON {kind: books}, kinds with none left out, keys sorted
    scores_only: int = 0  # 1: a game that counts, kept as each round's score alone (no books, no cards)
    night: str | None = None  # the game's night, as kept with it (games.night)

    def values(self):
        return tuple(getattr(self, name) for name in _COLUMNS)


def rows_for(game, standings=None):
    """A game's rows (one per player), from the engine's standings of the game as
    saved (``standings``, when the caller has them already)."""
    counts = game.finished_at is not None and len(game.rounds) > 0
    s = (standings or game.standings) if counts else None
    rows = []
    for t, team in enumerate(game.teams):
        if counts:
            scores = [scores[t].total for scores in s.round_scores]
            books = Counter()
            for played in game.rounds:
                books.update({kind: n for kind, n in played.entries[t].books.items() if n})
            figures = dict(
                counted_at=game.finished_at,
                won=int(t in s.winners),
                total=s.totals[t],
                rounds=len(scores),
                points=sum(scores),
                best_round=max(scores),
                went_out=sum(int(played.entries[t].went_out) for played in game.rounds),
                books=_books_json(books),
                scores_only=int(game.scores_only),
            )
        else:
            figures = dict(counted_at=None)
        finished = int(game.finished_at is not None)
        figures["night"] = game.night
        rows += [Row(p.id, game.id, team.id, game.played_at, finished, **figures) for p in team.players]
    return rows


def _books_json(books):
    return json.dumps(dict(sorted(books.items())), separators=(",", ":")) if books else None


def _stored(db, game_id):
    return [
        Row(*values)
        for values in db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM player_games WHERE game_id = ?", [game_id]
        )
    ]


# --- the sums a game's rows add -----------------------------------------------------------


def _sums(rows: Iterable[Row]):
    """{table: {key: figures}} that rows of one game add to the sum tables."""
    rows = list(rows)
    stats, books, partners, rivals = {}, Counter(), {}, {}
    counted = [r for r in rows if r.counted_at is not None]
    for r in rows:
        stats[r.player_id] = (1, 0, 0, 0, 0, 0, 0, 0)  # played
    for r in counted:
        paper = r.scores_only
        stats[r.player_id] = (1, 1, r.won, r.rounds, r.points, r.went_out, paper, paper * r.rounds)
        for kind, n in json.loads(r.books or "{}").items():
            books[(r.player_id, kind)] += n
        for o in counted:
            if o.player_id == r.player_id:
                continue
            if o.team_id == r.team_id:
                partners[(r.player_id, o.player_id)] = (1, r.won)
            else:
                rivals[(r.player_id, o.player_id)] = (
                    1,
                    int(r.total > o.total),
                    int(r.total < o.total),
                    int(r.total == o.total),
                )
    nights, night_players, year_pairs = {}, {}, {}
    if counted:  # the game night it was played on (services/evenings.py)
        night = counted[0].night  # kept with the game (m014), never worked out again
        nights[night] = (1,)
        for r in counted:
            night_players[(night, r.player_id)] = (1, r.won)
            for o in counted:
                if o.team_id == r.team_id and r.player_id < o.player_id:
                    year_pairs[(night[:4], r.player_id, o.player_id)] = (1, r.won)
    return {
        "player_stats": stats,
        "player_books": {key: (n,) for key, n in books.items()},
        "partnerships": partners,
        "rivalries": rivals,
        # how many games there are, finished or not (the history's page count)
        "game_counts": {rows[0].finished: (1,)} if rows else {},
        "nights": nights,
        "night_players": night_players,
        "year_pairs": year_pairs,
    }


# each sum table: its key columns, its figure columns
_TABLES = {
    "player_stats": (
        ("player_id",),
        ("played", "games", "wins", "rounds", "points", "went_out", "scores_only", "scores_only_rounds"),
    ),
    "player_books": (("player_id", "kind"), ("books",)),
    "partnerships": (("player_id", "partner_id"), ("games", "wins")),
    "rivalries": (("player_id", "rival_id"), ("games", "wins", "losses", "ties")),
    "game_counts": (("finished",), ("games",)),
    "nights": (("night",), ("games",)),
    "night_players": (("night", "player_id"), ("games", "wins")),
    "year_pairs": (("year", "player_id", "partner_id"), ("games", "wins")),
}
# made again in Python by rebuild() (an evening is on the household's clock)
_BY_GAME = ("nights", "night_players", "year_pairs")
# a row of these that sums to nothing is removed, as rebuild() never makes one
_EMPTY = {
    "player_stats": "played = 0",  # a player whose every game was deleted (services/deleted.py)
    "player_books": "books = 0",
    "partnerships": "games = 0",
    "rivalries": "games = 0",
    "game_counts": "games = 0",
    "nights": "games = 0",
    "night_players": "games = 0",
    "year_pairs": "games = 0",
}


def _add(db, table, deltas):
    keys, figures = _TABLES[table]
    columns = keys + figures
    db.conn.executemany(
        f"""INSERT INTO {table} ({", ".join(columns)}) VALUES ({", ".join("?" * len(columns))})
            ON CONFLICT ({", ".join(keys)}) DO UPDATE SET
            {", ".join(f"{c} = {c} + excluded.{c}" for c in figures)}""",
        [(*(key if isinstance(key, tuple) else (key,)), *values) for key, values in deltas.items()],
    )
    if table in _EMPTY and any(v < 0 for values in deltas.values() for v in values):
        db.execute(f"DELETE FROM {table} WHERE {_EMPTY[table]}")


def _difference(before, after):
    """{table: {key: after - before}}, without the keys that did not change."""
    result = {}
    for table in _TABLES:
        old, new = before[table], after[table]
        changed = {}
        for key in old.keys() | new.keys():
            a, b = old.get(key), new.get(key)
            width = len(a or b)
            delta = tuple(y - x for x, y in zip(a or (0,) * width, b or (0,) * width))
            if any(delta):
                changed[key] = delta
        if changed:
            result[table] = changed
    return result


def refresh(db, game):
    """Bring the summaries up to date with ``game`` as it is now saved (inside the
    caller's transaction): its rows anew, and the difference added to the sums."""
    records.refresh(db, game)
    before = _stored(db, game.id)
    after = rows_for(game)
    if before == after:
        return
    old = {(r.player_id, r.game_id): r for r in before}
    changed = [r.values() for r in after if old.get((r.player_id, r.game_id)) != r]
    if changed:
        db.conn.executemany(_UPSERT_GAME, changed)
    gone = {(r.player_id, r.game_id) for r in before} - {(r.player_id, r.game_id) for r in after}
    if gone:
        db.conn.executemany("DELETE FROM player_games WHERE player_id = ? AND game_id = ?", list(gone))
    for table, deltas in _difference(_sums(before), _sums(after)).items():
        _add(db, table, deltas)
    if _rated(before) != _rated(after):
        # from the earlier of its places in the order of play (its date may have moved)
        ratings.changed(db, min((r.played_at, r.game_id) for r in before + after))


def forget(db, game_id):
    """A game deleted (``services.deleted``, inside its transaction): its rows and its
    records go, the sums lose what it added, and the ratings are marked stale from it
    when it counted, as any change that takes a game's result away does."""
    db.execute("DELETE FROM game_records WHERE game_id = ?", [game_id])  # it holds no record
    before = _stored(db, game_id)
    if not before:
        return
    db.execute("DELETE FROM player_games WHERE game_id = ?", [game_id])
    for table, deltas in _difference(_sums(before), _sums([])).items():
        _add(db, table, deltas)
    if _rated(before):
        ratings.changed(db, min((r.played_at, r.game_id) for r in before))


def _rated(rows):
    """What a game gives the ratings: who played on which team, its totals and when, once it counts."""
    return sorted((r.team_id, r.player_id, r.total, r.played_at) for r in rows if r.counted_at is not None)


def add_new(db, rows):
    """Rows of games that had none (demo-data's batches), and their sums."""
    db.conn.executemany(_UPSERT_GAME, [r.values() for r in rows])
    for table, sums in _sum_all(rows).items():
        if sums:
            _add(db, table, sums)
    counted = [(r.played_at, r.game_id) for r in rows if r.counted_at is not None]
    if counted:
        ratings.changed(db, min(counted))


def _sum_all(rows):
    """{table: {key: figures}} that rows of many games add to the sum tables."""
    by_game = {}
    for r in rows:
        by_game.setdefault(r.game_id, []).append(r)
    totals = {table: {} for table in _TABLES}
    for game_rows in by_game.values():
        for table, sums in _sums(game_rows).items():
            for key, values in sums.items():
                before = totals[table].get(key)
                totals[table][key] = tuple(map(sum, zip(before, values))) if before else values
    return totals


def started(db, game_id, played_at, night, teams):
    """A new game's rows, before any round (inside the caller's transaction).

    :param teams: (team id, [player ids]) per team.
    """
    rows = [
        Row(p, game_id, team_id, played_at, 0, None, night=night)
        for team_id, members in teams
        for p in members
    ]
    db.conn.executemany(_UPSERT_GAME, [r.values() for r in rows])
    sums = _sums(rows)
    for table in ("player_stats", "game_counts"):
        _add(db, table, sums[table])


# --- every row again, from what is stored -------------------------------------------------

REBUILD = (
    "DELETE FROM player_games",
    "DELETE FROM player_stats",
    "DELETE FROM player_books",
    "DELETE FROM partnerships",
    "DELETE FROM rivalries",
    "DELETE FROM game_counts",
    # each team's figures in a game that counts (finished, with a round), from
    # the scores and totals the engine stored
    """
    WITH counted AS (
        SELECT g.id FROM games g
        WHERE g.finished_at IS NOT NULL AND g.importing IS NULL AND g.deleted_at IS NULL
              AND EXISTS (SELECT 1 FROM rounds r WHERE r.game_id = g.id)
    ),
    team_rounds AS (
        SELECT e.team_id, COUNT(*) AS rounds, SUM(e.score) AS points, MAX(e.score) AS best_round,
               SUM(e.went_out) AS went_out
        FROM round_entries e JOIN teams t ON t.id = e.team_id
        WHERE t.game_id IN counted GROUP BY e.team_id
    ),
    team_books AS (
        SELECT team_id, json_group_object(kind, made) AS books FROM (
            SELECT e.team_id, b.key AS kind, SUM(b.value) AS made
            FROM round_entries e JOIN teams t ON t.id = e.team_id, json_each(e.books) b
            WHERE t.game_id IN counted
            GROUP BY e.team_id, b.key HAVING made != 0 ORDER BY e.team_id, b.key
        ) GROUP BY team_id
    )
    INSERT INTO player_games (player_id, game_id, team_id, played_at, finished, counted_at, won, total,
                              rounds, points, best_round, went_out, books, scores_only, night)
    SELECT tp.player_id, g.id, t.id, g.played_at, g.finished_at IS NOT NULL,
           CASE WHEN c.id IS NOT NULL THEN g.finished_at END,
           CASE WHEN c.id IS NOT NULL THEN t.won ELSE 0 END,
           CASE WHEN c.id IS NOT NULL THEN t.total ELSE 0 END,
           COALESCE(tr.rounds, 0), COALESCE(tr.points, 0), tr.best_round, COALESCE(tr.went_out, 0),
           tb.books, CASE WHEN c.id IS NOT NULL THEN COALESCE(g.paper = 'scores', 0) ELSE 0 END, g.night
    FROM team_players tp
    JOIN teams t ON t.id = tp.team_id
    JOIN games g ON g.id = t.game_id
    LEFT JOIN counted c ON c.id = g.id
    LEFT JOIN team_rounds tr ON tr.team_id = t.id
    LEFT JOIN team_books tb ON tb.team_id = t.id
    WHERE g.importing IS NULL AND g.deleted_at IS NULL
    """,
    """INSERT INTO game_counts (finished, games)
       SELECT finished_at IS NOT NULL, COUNT(*) FROM games WHERE importing IS NULL AND deleted_at IS NULL
       GROUP BY 1""",
    """
    INSERT INTO player_stats (player_id, played, games, wins, rounds, points, went_out, scores_only,
                              scores_only_rounds)
    SELECT player_id, COUNT(*), COUNT(counted_at), SUM(won), SUM(rounds), SUM(points), SUM(went_out),
           SUM(scores_only), SUM(scores_only * rounds)
    FROM player_games GROUP BY player_id
    """,
    """
    INSERT INTO player_books (player_id, kind, books)
    SELECT pg.player_id, b.key, SUM(b.value)
    FROM player_games pg, json_each(pg.books) b
    WHERE pg.counted_at IS NOT NULL
    GROUP BY pg.player_id, b.key HAVING SUM(b.value) != 0
    """,
    """
    INSERT INTO partnerships (player_id, partner_id, games, wins)
    SELECT a.player_id, b.player_id, COUNT(*), SUM(a.won)
    FROM player_games a JOIN player_games b ON b.team_id = a.team_id AND b.player_id != a.player_id
    WHERE a.counted_at IS NOT NULL
    GROUP BY a.player_id, b.player_id
    """,
    """
    INSERT INTO rivalries (player_id, rival_id, games, wins, losses, ties)
    SELECT a.player_id, b.player_id, COUNT(*),
           SUM(a.total > b.total), SUM(a.total < b.total), SUM(a.total = b.total)
    FROM player_games a JOIN player_games b ON b.game_id = a.game_id AND b.team_id != a.team_id
    WHERE a.counted_at IS NOT NULL
    GROUP BY a.player_id, b.player_id
    """,
)


def rebuild(db):
    """Make every summary row again from the stored scores and totals (inside the caller's transaction)."""
    for statement in REBUILD:
        db.execute(statement)
    for table in _BY_GAME:
        db.execute(f"DELETE FROM {table}")
    counted = [
        Row(*values)
        for values in db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM player_games WHERE counted_at IS NOT NULL"
        )
    ]
    sums = _sum_all(counted)
    for table in _BY_GAME:
        if sums[table]:
            _add(db, table, sums[table])
    records.rebuild(db)
    ratings.replay(db)
