"""Fair ratings: each player's skill from every finished game, in the order played.

The model is openskill's Plackett–Luce (Weng–Lin's Bayesian approximation,
made for teams of changing partners and any number of teams; see
docs/decisions.md). A player's rating is a belief ``mu ± sigma``; the
leaderboard ranks by the conservative ``ordinal`` (mu − 3 sigma), which rises
with evidence, so one lucky game does not top it.

Kept as rows, like the players' summaries (m010): ``player_ratings`` holds
each player's rating after each game that counts (finished, with a round),
with how many rated games that makes and their winning streak after it;
``pair_games`` the same streak for every two partners of a team. Since a rating depends on every game
before it, a change to a game that counts (its result, its teams, whether it
counts) replays the games from that one on: their rows are deleted and made
again, each player starting from their last row before it. Finishing the
newest game replays that game alone; fixing an old one replays the games
since. ``summaries.refresh`` asks for it in the transaction of every change,
``summaries.rebuild`` replays everything, and the tests check the two agree
after any sequence of changes.

The order of play is the games' ``created_at`` then id (the date and time a
game was played, as the lists show it). Teams are ranked by the engine's
totals (stored in ``player_games.total``): the highest first, equal totals
share a rank.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

# openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (a little
# uncertainty added back before each game, so a rating can still move after
# years of games)
MU = 25.0
SIGMA = MU / 3
TREND_GAMES = 5  # the leaderboard's trend: the change over a player's last five games


@cache
def model():
    return PlackettLuce(mu=MU, sigma=SIGMA)


SURE = 3  # how many sigmas below the estimate a conservative figure stands

# The one rule of every "best" over a share (best partner, best partnership, the
# partnership and head-to-head tables), said once on each page that uses it
SHARE_RULE = (
    "Ranked by the share of games won, counted low until the games make it sure "
    "(as the rating is), so 4 wins in 4 games rank below 30 in 50."
)


def ordinal(mu, sigma):
    """The conservative rating the leaderboard ranks by: mu − 3 sigma."""
    return mu - SURE * sigma


def sure_share(wins, games):
    """The share of ``games`` won, counted low until the games make it sure: the lower
    end of its Wilson score interval at ``SURE`` sigmas, as the leaderboard counts a
    rating (0 with no games). At the same rate of wins it rises with the games: 4 wins
    in 4 give 0.31, 11 in 17 give 0.31, 30 in 50 give 0.39, so a lucky run tops nothing."""
    if games <= 0:
        return 0.0
    z2, p = SURE * SURE, wins / games
    centre = p + z2 / (2 * games)
    spread = SURE * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    # the bound lies in [0, p]; rounding can put it a hair outside (0 wins: 3.6e-17)
    return min(p, max(0.0, (centre - spread) / (1 + z2 / games)))


def surest_first(row):
    """The sort key of every "best" over a share (SHARE_RULE): the surest share of games
    won first, then more games, then name; ``row`` has wins, games and name."""
    return (-sure_share(row["wins"], row["games"]), -row["games"], row["name"].casefold())


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int  # rated games so far

    @property
    def ordinal(self):
        return ordinal(self.mu, self.sigma)


UNRATED = Rating(MU, SIGMA, 0)


def _after(key):
    """SQL and parameters: rows at or after (played_at, game_id) ``key``."""
    return "(played_at > ? OR (played_at = ? AND game_id >= ?))", [key[0], key[0], key[1]]


def _latest(db, player_id):
    row = db.execute(
        """SELECT mu, sigma, games, streak FROM player_ratings WHERE player_id = ?
           ORDER BY games DESC LIMIT 1""",
        [player_id],
    ).fetchone()
    return (Rating(*row[:3]), row[3]) if row else (UNRATED, 0)


def _pair_streak(db, pair):
    row = db.execute(
        """SELECT streak FROM pair_games WHERE player_id = ? AND partner_id = ?
           ORDER BY played_at DESC, game_id DESC LIMIT 1""",
        pair,
    ).fetchone()
    return row[0] if row else 0


def _ranks(totals):
    """1 for the highest total; equal totals share a rank."""
    return [1 + sum(other > total for other in totals) for total in totals]


def replay(db, key=None):
    """Make every player's ratings and streaks again from game ``key`` =
    (played_at, game_id) on (from the first game when None), inside the
    caller's transaction."""
    if key is None:
        db.execute("DELETE FROM player_ratings")
        db.execute("DELETE FROM pair_games")
        where, params = "1", []
    else:
        where, params = _after(key)
        db.execute(f"DELETE FROM player_ratings WHERE {where}", params)
        db.execute(f"DELETE FROM pair_games WHERE {where}", params)
    rows = db.execute(
        f"""SELECT game_id, played_at, team_id, player_id, total, won FROM (
                SELECT game_id, created_at AS played_at, team_id, player_id, total, won
                FROM player_games WHERE counted_at IS NOT NULL)
            WHERE {where} ORDER BY played_at, game_id, team_id, player_id""",
        params,
    ).fetchall()
    # per player: their openskill rating as the last game left it (passed on as it
    # is: making one anew for every game costs as much as the rating itself), games
    current, games, streaks, pairs, m = {}, {}, {}, {}, model()
    written, paired = [], []

    def rate(game):
        teams, totals, won = {}, {}, {}
        for _, _, team_id, player_id, total, team_won in game:
            teams.setdefault(team_id, []).append(player_id)
            totals[team_id], won[team_id] = total, team_won
        if len(teams) < 2:  # nothing to learn from a game of one team
            return
        for members in teams.values():
            for p in members:
                if p not in current:
                    before, streaks[p] = _latest(db, p)
                    current[p], games[p] = m.rating(mu=before.mu, sigma=before.sigma), before.games
        lineup = [[current[p] for p in ms] for ms in teams.values()]
        rated = m.rate(lineup, ranks=_ranks(list(totals.values())))
        game_id, played_at = game[0][0], game[0][1]
        for (team_id, members), new in zip(teams.items(), rated):
            w = won[team_id]
            for p, r in zip(members, new):
                current[p], games[p] = r, games[p] + 1
                streaks[p] = streaks[p] + 1 if w else 0
                written.append((p, game_id, played_at, r.mu, r.sigma, games[p], w, streaks[p]))
            ordered = sorted(members)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    if (a, b) not in pairs:
                        pairs[(a, b)] = _pair_streak(db, (a, b))
                    pairs[(a, b)] = pairs[(a, b)] + 1 if w else 0
                    paired.append((a, b, game_id, played_at, w, pairs[(a, b)]))

    game = []
    for row in rows:
        if game and row[0] != game[0][0]:
            rate(game)
            game = []
        game.append(row)
    if game:
        rate(game)
    db.conn.executemany(
        """INSERT INTO player_ratings (player_id, game_id, played_at, mu, sigma, games, won, streak)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
        written,
    )
    db.conn.executemany(
        """INSERT INTO pair_games (player_id, partner_id, game_id, played_at, won, streak)
           VALUES (?, ?, ?, ?, ?, ?)""",
        paired,
    )


def changed(db, key):
    """A game that counts changed at ``key`` = (played_at, game_id): replay from it
    now, or at the end of the caller's ``batch``."""
    pending = getattr(db, "_ratings_pending", None)
    if pending is not None:
        pending.append(key)
    else:
        replay(db, key)


@contextlib.contextmanager
def batch(db):
    """Replay once, from the earliest game changed inside (an import of many games)."""
    if getattr(db, "_ratings_pending", None) is not None:
        yield
        return
    db._ratings_pending = []
    try:
        yield
        keys = db._ratings_pending
    finally:
        db._ratings_pending = None
    if keys:
        replay(db, min(keys))


# --- reading --------------------------------------------------------------------------


def current(db, player_ids):
    """{player id: Rating} now (UNRATED for a player with no rated game)."""
    return {p: _latest(db, p)[0] for p in player_ids}


def streaks(db, player_id):
    """(current, longest) winning streak of a player, in games that count."""
    row = db.execute(
        """SELECT (SELECT streak FROM player_ratings WHERE player_id = :p ORDER BY games DESC LIMIT 1),
                  (SELECT MAX(streak) FROM player_ratings WHERE player_id = :p)""",
        {"p": player_id},
    ).fetchone()
    return row[0] or 0, row[1] or 0


def win_chances(db, teams):
    """Each team's chance to win (0..1, summing to 1) from its players' ratings.

    :param teams: a list of lists of player ids (None: a new player, unrated).
    """
    if len(teams) < 2 or not all(teams):
        return None
    return chances_of(db, {p for team in teams for p in team})(teams)


def chances_of(db, player_ids):
    """A function from teams (lists of these players' ids) to each team's chance to win:
    the ratings read once, for the many lineups an evening's seating weighs."""
    ratings, m = current(db, set(player_ids)), model()
    rated = {p: m.rating(mu=r.mu, sigma=r.sigma) for p, r in ratings.items()}

    def chances(teams):
        return m.predict_win([[rated[p] for p in team] for team in teams])

    return chances


def history(db, player_id, limit=None):
    """The player's rating after each rated game, oldest first (the latest ``limit``).

    :returns: dicts of game_id, played_at, mu, sigma, ordinal, games.
    """
    rows = db.execute(
        """SELECT game_id, played_at, mu, sigma, games FROM player_ratings WHERE player_id = ?
           ORDER BY games DESC LIMIT ?""",
        [player_id, -1 if limit is None else limit],
    ).fetchall()
    return [
        {"game_id": g, "played_at": at, "mu": mu, "sigma": s, "ordinal": ordinal(mu, s), "games": n}
        for g, at, mu, s, n in reversed(rows)
    ]


def board(db, limit):
    """The players with a rated game, by conservative rating (highest first); equal
    ratings share a rank.

    :returns: dicts of rank, id, name, rating (the ordinal), mu, sigma, games
        (finished games, each rated), wins, win_rate, trend (the rating's change
        over their last TREND_GAMES games, or since their first).
    """
    rows = db.execute(
        """
        SELECT p.id, p.name, r.mu, r.sigma, s.games, s.wins,
               (SELECT b.mu - 3 * b.sigma FROM player_ratings b
                WHERE b.player_id = p.id AND b.games = r.games - :trend)
        FROM players p JOIN player_stats s ON s.player_id = p.id
        JOIN player_ratings r ON r.player_id = p.id
             AND r.games = (SELECT MAX(games) FROM player_ratings WHERE player_id = p.id)
        ORDER BY r.mu - 3 * r.sigma DESC, s.games DESC, p.name COLLATE NOCASE
        LIMIT :limit""",
        {"trend": TREND_GAMES, "limit": limit},
    ).fetchall()
    result, rank, previous = [], 0, None
    for position, (pid, name, mu, sigma, games, wins, before) in enumerate(rows, start=1):
        now = ordinal(mu, sigma)
        if now != previous:
            rank, previous = position, now
        if before is None:  # fewer games than the trend spans: since they started
            before = ordinal(MU, SIGMA)
        result.append(
            {
                "rank": rank,
                "id": pid,
                "name": name,
                "rating": now,
                "mu": mu,
                "sigma": sigma,
                "games": games,
                "wins": wins,
                "win_rate": wins / games if games else None,
                "trend": now - before,
            }
        )
    return result
