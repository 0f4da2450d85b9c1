"""Players' statistics: SQL over what the engine stored.

The engine writes, in the same transaction as every change, each round's
score (``round_entries.score``) and each team's total and whether it won
(``teams.total``, ``teams.won``, from ``scoring.standings``);
``recompute-scores`` rewrites them all. So the numbers here are the engine's:
these queries count and average them, reading one row per team for games and
wins, and the player's own rounds for round figures. Game screens, sheets and
exports still ask ``scoring.standings``.

What counts (the same rule everywhere below):

- Only **finished** games count (``games.finished_at IS NOT NULL``), and only
  those with at least one round: the engine's verdict (``scoring.verdict``)
  gives a game ended before any round no result. Rounds of games still being
  played count nowhere until the game ends.
- A team **wins** when the engine's verdict says so, stored as ``teams.won``:
  the highest total. **Ties count as a win for every tied team**, so a game
  can have more than one winner, and a player's wins plus losses is always
  their games.
- A **round score** is the player's team's score for the round, so partners
  share their rounds, books and going out.
- **Head to head**: games where the two were on different teams; a win when
  the player's team finished with the higher total, a loss when lower, a tie
  when level (in a 3- or 4-team game this compares just their two teams).
- **Best partner**: the teammate with the highest win rate together, over at
  least ``MIN_GAMES_TOGETHER`` games; then more games together, then name.

Every list is bounded (``LIMIT``); a family is a dozen people, but a
database made by ``demo-data`` may hold 100,000 games.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_GAMES_TOGETHER = 2
LEADERBOARD_SIZE = 10
TIMELINE_GAMES = 30
RECENT_GAMES = 10
PLAYERS_PER_PAGE = 50
HEAD_TO_HEAD_LIMIT = 50

# The player's teams in finished games (with a round), then every team in
# those games with its stored total, the game's best total and the player's
# own team's total beside it. Window functions put those on each row, so no
# query below joins a CTE to itself (SQLite would nest-loop the two).
# {limit} lets a caller take only the player's latest finished games.
_RESULTS = """
WITH mine AS (
    SELECT tp.team_id, t.game_id
    FROM team_players tp
    JOIN teams t ON t.id = tp.team_id
    JOIN games g ON g.id = t.game_id
    WHERE tp.player_id = :player AND g.finished_at IS NOT NULL
      AND EXISTS (SELECT 1 FROM rounds r WHERE r.game_id = g.id)  -- a game with no rounds has no winner
    {limit}
),
totals AS (
    SELECT t.game_id, t.id AS team_id, t.total, t.won, t.id IN (SELECT team_id FROM mine) AS is_mine
    FROM mine m
    JOIN teams t ON t.game_id = m.game_id
),
results AS (
    SELECT game_id, team_id, total, won, is_mine,
           MAX(total) OVER game AS best,
           MAX(CASE WHEN is_mine THEN total END) OVER game AS my_total
    FROM totals
    WINDOW game AS (PARTITION BY game_id)
)
"""


def _results(limit=None):
    if limit is None:
        return _RESULTS.format(limit="")
    return _RESULTS.format(limit="ORDER BY g.finished_at DESC, g.id DESC LIMIT :limit")


def _rate(wins, games):
    return wins / games if games else None


@dataclass(frozen=True)
class PlayerStats:
    games: int  # finished games with at least one round
    wins: int
    win_rate: float | None  # 0..1, None before their first finished game
    rounds: int
    average_round: float | None
    best_round: int | None
    books: dict  # kind -> books, in the order of most books first
    went_out: int  # rounds in which their team went out

    @property
    def losses(self):
        return self.games - self.wins


@dataclass(frozen=True)
class Record:
    stats: PlayerStats
    best_partner: dict | None  # id, name, games (together), wins, win_rate
    head_to_head: list  # dicts of id, name, games, wins, losses, ties; most games first


def player_record(db, player_id, *, min_together=MIN_GAMES_TOGETHER, rivals=HEAD_TO_HEAD_LIMIT):
    """Everything on a player's page but the chart and recent games, finished games only.

    The games, the partnerships and the head-to-head records come from one
    statement, so the teams' totals (the costly part) are added up once.
    """
    params = {"player": player_id}
    rows = db.execute(
        _results()
        + """
        SELECT 'all', NULL, NULL, COUNT(*), COALESCE(SUM(won), 0), NULL, NULL
        FROM results WHERE is_mine
        UNION ALL
        SELECT 'partner', p.id, p.name, COUNT(*), SUM(r.won), NULL, NULL
        FROM results r
        JOIN team_players tp ON tp.team_id = r.team_id AND tp.player_id != :player
        JOIN players p ON p.id = tp.player_id
        WHERE r.is_mine
        GROUP BY p.id
        UNION ALL
        SELECT 'rival', p.id, p.name, COUNT(*),
               SUM(r.my_total > r.total), SUM(r.my_total < r.total), SUM(r.my_total = r.total)
        FROM results r
        JOIN team_players tp ON tp.team_id = r.team_id
        JOIN players p ON p.id = tp.player_id
        WHERE NOT r.is_mine
        GROUP BY p.id""",
        params,
    ).fetchall()
    partners, opponents = [], []
    for kind, pid, name, count, won, lost, tied in rows:
        if kind == "all":
            games, wins = count, won
        elif kind == "partner" and count >= min_together:
            partners.append(
                {"id": pid, "name": name, "games": count, "wins": won, "win_rate": _rate(won, count)}
            )
        elif kind == "rival":
            opponents.append(
                {"id": pid, "name": name, "games": count, "wins": won, "losses": lost, "ties": tied}
            )
    # a family is a dozen people: these sorts are over a dozen rows at most
    partners.sort(key=lambda p: (-p["wins"] / p["games"], -p["games"], p["name"].casefold()))
    opponents.sort(key=lambda o: (-o["games"], o["name"].casefold()))

    # the player's own rounds (their team's), in finished games
    rounds, points, best, went_out = db.execute(
        """
        SELECT COUNT(*), COALESCE(SUM(e.score), 0), MAX(e.score), COALESCE(SUM(e.went_out), 0)
        FROM team_players tp
        JOIN teams t ON t.id = tp.team_id
        JOIN games g ON g.id = t.game_id
        JOIN round_entries e ON e.team_id = t.id
        WHERE tp.player_id = :player AND g.finished_at IS NOT NULL""",
        params,
    ).fetchone()
    books = db.execute(
        """
        SELECT b.key, SUM(b.value) AS made
        FROM team_players tp
        JOIN teams t ON t.id = tp.team_id
        JOIN games g ON g.id = t.game_id
        JOIN round_entries e ON e.team_id = t.id, json_each(e.books) b
        WHERE tp.player_id = :player AND g.finished_at IS NOT NULL
        GROUP BY b.key HAVING made > 0 ORDER BY made DESC, b.key""",
        params,
    ).fetchall()
    stats = PlayerStats(
        games=games,
        wins=wins,
        win_rate=_rate(wins, games),
        rounds=rounds,
        average_round=points / rounds if rounds else None,
        best_round=best,
        books=dict(books),
        went_out=went_out,
    )
    return Record(stats, partners[0] if partners else None, opponents[:rivals])


def timeline(db, player_id, limit=TIMELINE_GAMES):
    """The player's latest finished games, oldest first, for the results chart.

    :returns: dicts of game_id, finished_at, rules_name, total (their team's),
        best (the winning total) and won.
    """
    rows = db.execute(
        _results(limit)
        + """
        SELECT g.id, g.finished_at, g.rules_name, r.total, r.best, r.won
        FROM results r
        JOIN games g ON g.id = r.game_id
        WHERE r.is_mine
        ORDER BY g.finished_at DESC, g.id DESC""",
        {"player": player_id, "limit": limit},
    ).fetchall()
    return [
        {
            "game_id": gid,
            "finished_at": finished,
            "rules_name": rules,
            "total": total,
            "best": best,
            "won": bool(won),
        }
        for gid, finished, rules, total, best, won in reversed(rows)
    ]


def recent_games(db, player_id, limit=RECENT_GAMES):
    """The player's latest games, finished or not, newest first.

    :returns: dicts of game_id, created_at, finished_at, rules_name, team
        (their team's name), total (None before a round) and result: "won",
        "lost" or None while the game is being played.
    """
    rows = db.execute(
        """
        SELECT g.id, g.created_at, g.finished_at, g.rules_name, t.name,
               CASE WHEN EXISTS (SELECT 1 FROM rounds r WHERE r.game_id = g.id) THEN t.total END,
               t.won
        FROM team_players tp JOIN teams t ON t.id = tp.team_id
        JOIN games g ON g.id = t.game_id
        WHERE tp.player_id = :player
        ORDER BY g.created_at DESC, g.id DESC LIMIT :limit""",
        {"player": player_id, "limit": limit},
    ).fetchall()
    games = []
    for gid, created, finished, rules, team, total, won in rows:
        result = None  # the engine's verdict: none while playing, or for a game with no rounds
        if finished and total is not None:
            result = "won" if won else "lost"
        games.append(
            {
                "game_id": gid,
                "created_at": created,
                "finished_at": finished,
                "rules_name": rules,
                "team": team,
                "total": total,
                "result": result,
            }
        )
    return games


def leaderboard(db, limit=LEADERBOARD_SIZE):
    """The family ranked by wins, then win rate, then name (finished games only).

    :returns: dicts of rank, id, name, games, wins, win_rate; tied players share a rank.
    """
    rows = db.execute(
        """
        WITH results AS (  -- the engine's verdict, stored per team
            SELECT t.id AS team_id, t.won
            FROM games g JOIN teams t ON t.game_id = g.id
            WHERE g.finished_at IS NOT NULL
              AND EXISTS (SELECT 1 FROM rounds r WHERE r.game_id = g.id)
        )
        SELECT p.id, p.name, COUNT(*) AS games, SUM(r.won) AS wins
        FROM results r
        JOIN team_players tp ON tp.team_id = r.team_id
        JOIN players p ON p.id = tp.player_id
        GROUP BY p.id
        ORDER BY wins DESC, 1.0 * wins / games DESC, p.name COLLATE NOCASE
        LIMIT :limit""",
        {"limit": limit},
    ).fetchall()
    board, rank, previous = [], 0, None
    for position, (pid, name, games, wins) in enumerate(rows, start=1):
        key = (wins, wins * 1.0 / games)
        if key != previous:
            rank, previous = position, key
        board.append(
            {
                "rank": rank,
                "id": pid,
                "name": name,
                "games": games,
                "wins": wins,
                "win_rate": _rate(wins, games),
            }
        )
    return board


def players_page(db, page=1, per_page=PLAYERS_PER_PAGE):
    """One page of everyone, by name, with how many games each has played.

    :returns: (players as dicts of id, name, games; the number of pages).
    """
    (count,) = db.execute("SELECT COUNT(*) FROM players").fetchone()
    pages = max(1, -(-count // per_page))
    rows = db.execute(
        """
        SELECT p.id, p.name, (SELECT COUNT(*) FROM team_players tp WHERE tp.player_id = p.id)
        FROM players p ORDER BY p.name COLLATE NOCASE, p.id LIMIT :limit OFFSET :offset""",
        {"limit": per_page, "offset": (page - 1) * per_page},
    ).fetchall()
    return [{"id": pid, "name": name, "games": games} for pid, name, games in rows], pages
