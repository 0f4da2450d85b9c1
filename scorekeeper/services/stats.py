"""Players' statistics: read from the players' summaries.

The engine writes, in the same transaction as every change, each round's
score, each team's total and whether it won (``scoring.standings``), and the
players' summaries made from them (``summaries.refresh``: one row per player
per game, and their sums per player, per pair of partners and per pair of
opponents); ``recompute-scores`` rewrites them all. So the numbers here are
the engine's, and a page reads a few rows, however many games there are.
Game screens, sheets and exports still ask ``scoring.standings``.

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
- **Best partner**, and the order of the partnership and head-to-head tables:
  the surest share of games won (``ratings.sure_share``: counted low until the
  games make it sure, as the rating is), then more games, then name. A best
  partner is one the player has won with.

Every list is bounded (``LIMIT``); a family is a dozen people, but a
database made by ``demo-data`` may hold 100,000 games.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..storage.db import snapshot
from . import players, ratings

LEADERBOARD_SIZE = 10
TIMELINE_GAMES = 30
RECENT_GAMES = 10
PLAYERS_PER_PAGE = 50
HEAD_TO_HEAD_LIMIT = 50


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
    # games from paper kept as their scores alone: in games, wins and rounds, not in books or going out
    scores_only: int = 0
    scores_only_rounds: int = 0

    @property
    def rounds_with_cards(self):
        """The rounds whose books and going out are known (those ``went_out`` is out of)."""
        return self.rounds - self.scores_only_rounds

    @property
    def losses(self):
        return self.games - self.wins


@dataclass(frozen=True)
class Record:
    stats: PlayerStats
    best_partner: dict | None  # id, name, games (together), wins, win_rate
    head_to_head: list  # dicts of id, name, games, wins, losses, ties; most games first


def player_record(db, player_id, *, rivals=HEAD_TO_HEAD_LIMIT):
    """Everything on a player's page but the chart and recent games, finished games only."""
    params = {"player": player_id}
    row = db.execute(
        """SELECT games, wins, rounds, points, went_out, scores_only, scores_only_rounds
           FROM player_stats WHERE player_id = :player""",
        params,
    ).fetchone()
    games, wins, rounds, points, went_out, scores_only, scores_only_rounds = row or (0,) * 7
    (best,) = db.execute(
        """SELECT MAX(best_round) FROM player_games
           WHERE player_id = :player AND counted_at IS NOT NULL""",
        params,
    ).fetchone()
    books = db.execute(
        """SELECT kind, books FROM player_books WHERE player_id = :player AND books > 0
           ORDER BY books DESC, kind""",
        params,
    ).fetchall()
    partners = [
        {"id": pid, "name": name, "games": count, "wins": won, "win_rate": _rate(won, count)}
        for pid, name, count, won in db.execute(
            """SELECT p.id, p.name, s.games, s.wins FROM partnerships s JOIN players p ON p.id = s.partner_id
               WHERE s.player_id = :player AND s.wins > 0""",
            params,
        )
    ]
    opponents = [
        {"id": pid, "name": name, "games": count, "wins": won, "losses": lost, "ties": tied}
        for pid, name, count, won, lost, tied in db.execute(
            """SELECT p.id, p.name, s.games, s.wins, s.losses, s.ties
               FROM rivalries s JOIN players p ON p.id = s.rival_id
               WHERE s.player_id = :player AND s.games > 0""",
            params,
        )
    ]
    # a family is a dozen people: these sorts are over a dozen rows at most
    partners.sort(key=ratings.surest_first)
    opponents.sort(key=ratings.surest_first)
    stats = PlayerStats(
        games=games,
        wins=wins,
        win_rate=_rate(wins, games),
        rounds=rounds,
        average_round=points / rounds if rounds else None,
        best_round=best,
        books=dict(books),
        went_out=went_out,
        scores_only=scores_only,
        scores_only_rounds=scores_only_rounds,
    )
    return Record(stats, partners[0] if partners else None, opponents[:rivals])


def partnerships(db, player_id):
    """Every teammate the player has finished a game with: games, wins and win rate
    together, the surest share won first (see the module); a dozen rows in a family.

    :returns: dicts of id, name, games, wins, win_rate, longest (their longest
        winning streak together).
    """
    with snapshot(db):  # the mark and the rows it admits, as of one moment
        mark = ratings.behind(db)
        rows = db.execute(
            f"""SELECT p.id, p.name, s.games, s.wins,
                      (SELECT MAX(streak) FROM pair_games pg
                       WHERE pg.player_id = MIN(:player, p.id) AND pg.partner_id = MAX(:player, p.id)
                             AND {ratings.up_to_date("pg", mark)})
               FROM partnerships s JOIN players p ON p.id = s.partner_id
               WHERE s.player_id = :player AND s.games > 0""",
            {"player": player_id, **ratings.mark_params(mark)},
        ).fetchall()
    together = [
        {
            "id": pid,
            "name": name,
            "games": games,
            "wins": wins,
            "win_rate": _rate(wins, games),
            "longest": longest or 0,
        }
        for pid, name, games, wins, longest in rows
    ]
    return sorted(together, key=ratings.surest_first)


def timeline(db, player_id, limit=TIMELINE_GAMES):
    """The player's latest finished games in the order played, oldest first, for the
    results chart (dated by when each game was played, as the lists are).

    :returns: dicts of game_id, played_at, rules_name, total (their team's),
        best (the winning total) and won.
    """
    rows = db.execute(
        """
        SELECT pg.game_id, pg.played_at, g.rules_name, pg.total,
               (SELECT MAX(t.total) FROM teams t WHERE t.game_id = pg.game_id), pg.won
        FROM player_games pg JOIN games g ON g.id = pg.game_id
        WHERE pg.player_id = :player AND pg.counted_at IS NOT NULL
        ORDER BY pg.played_at DESC, pg.game_id DESC LIMIT :limit""",
        {"player": player_id, "limit": limit},
    ).fetchall()
    return [
        {
            "game_id": gid,
            "played_at": played,
            "rules_name": rules,
            "total": total,
            "best": best,
            "won": bool(won),
        }
        for gid, played, rules, total, best, won in reversed(rows)
    ]


def recent_games(db, player_id, limit=RECENT_GAMES):
    """The player's latest games, finished or not, newest first.

    :returns: dicts of game_id, played_at, finished_at, rules_name, team
        (their team's name), total (None before a round) and result: "won",
        "lost" or None while the game is being played.
    """
    rows = db.execute(
        """
        SELECT g.id, g.played_at, g.finished_at, g.rules_name, t.name,
               CASE WHEN EXISTS (SELECT 1 FROM rounds r WHERE r.game_id = g.id) THEN t.total END,
               t.won
        FROM player_games pg JOIN teams t ON t.id = pg.team_id
        JOIN games g ON g.id = pg.game_id
        WHERE pg.player_id = :player
        ORDER BY pg.played_at DESC, pg.game_id DESC LIMIT :limit""",
        {"player": player_id, "limit": limit},
    ).fetchall()
    games = []
    for gid, played, finished, rules, team, total, won in rows:
        result = None  # the engine's verdict: none while playing, or for a game with no rounds
        if finished and total is not None:
            result = "won" if won else "lost"
        games.append(
            {
                "game_id": gid,
                "played_at": played,
                "finished_at": finished,
                "rules_name": rules,
                "team": team,
                "total": total,
                "result": result,
            }
        )
    return games


def leaderboard(db, limit=LEADERBOARD_SIZE):
    """The family ranked by fair rating (``ratings.board``: conservative, so it rises
    with evidence), with games, wins and win rate (finished games only).

    :returns: dicts of rank, id, name, rating, mu, sigma, games, wins, win_rate,
        trend; players level on rating share a rank.
    """
    return ratings.board(db, limit)


def players_page(db, page=1, per_page=PLAYERS_PER_PAGE):
    """One page of everyone, in one list: the players with a rated game by fair rating
    as the leaderboard ranks them, then those without one by name; each with how many
    games they sat in (``played``: finished or not).

    :returns: (players as dicts of the leaderboard's fields, ``None`` for those
        without a rated game, and played; the number of pages).
    """
    # played (finished or not), finished games and wins; an unrated player's games and wins
    # show all the same (while the ratings catch up after a change to an old game, a player
    # may have both and no rating before it)
    counts = {
        pid: (played, games, wins)
        for pid, played, games, wins in db.execute("SELECT player_id, played, games, wins FROM player_stats")
    }
    ranked = ratings.board(db, -1)  # every player with a rated game: a family's dozens
    rated = {row["id"] for row in ranked}
    blank = dict.fromkeys(("rank", "rating", "mu", "sigma", "win_rate", "trend"))
    unrated = []
    for pid, name in db.execute(
        f"SELECT id, name FROM players WHERE {players.LISTED} ORDER BY name COLLATE NOCASE, id"
    ):
        if pid not in rated:
            _, games, wins = counts.get(pid, (0, 0, 0))
            unrated.append({**blank, "id": pid, "name": name, "games": games, "wins": wins})
    everyone = ranked + unrated
    pages = max(1, -(-len(everyone) // per_page))
    shown = everyone[(page - 1) * per_page : page * per_page]
    return [{**row, "played": counts.get(row["id"], (0,))[0]} for row in shown], pages
