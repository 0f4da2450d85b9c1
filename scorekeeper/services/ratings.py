"""Fair ratings: each player's skill from every finished game, in the order played.

Over 400 lines: the rows a replay writes, the catch-up that keeps them and the readers
that take only the rows before the mark share one row layout and one mark; apart, each
half would import the other's insides.

The model is openskill's Plackett–Luce (Weng–Lin's Bayesian approximation,
made for teams of changing partners and any number of teams; see
docs/decisions.md). A player's rating is a belief ``mu ± sigma``; the
leaderboard ranks by the conservative ``ordinal`` (mu − 3 sigma), which rises
with evidence, so one lucky game does not top it.

Kept as rows, like the players' summaries (m010): ``player_ratings`` holds
each player's rating after each game that counts (finished, with a round),
with how many rated games that makes and their winning streak after it;
``pair_games`` the same streak for every two partners of a team. Since a
rating depends on every game before it, a change to a game that counts (its
result, its teams, whether it counts) makes the rows from that game on stale.
The change itself only moves a mark back to that game (``changed``, m012's
``ratings_behind``), so it holds the write lock as briefly at any size of
history; after its commit the catch-up (``step``, ``catch_up``; in the app on
a worker thread, ``catch_up.py``) removes the stale rows and replays the games
from the mark, a few at a time, each player starting from their latest row
before it. Readers take only the rows before the mark (``up_to_date``).
``summaries.rebuild`` replays everything at once, and the tests check that
after any sequence of changes, catch-ups and crashes the rows equal it.

The order of play is the games' ``played_at`` then id (the date and time a
game was played, as the lists show it; a game typed in from paper the next
morning takes its place the evening before, and a date corrected later moves
the mark back to the earlier of the two). Teams are ranked by the engine's
totals (stored in ``player_games.total``): the highest first, equal totals
share a rank.
"""

from __future__ import annotations

import itertools
import logging
import math
import sqlite3
import time
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce
from openskill.models.weng_lin.common import phi_major

from .. import scoring
from ..scoring.language import N_
from ..storage.db import let_writers_in, snapshot, transaction
from ..storage.faults import Fault

log = logging.getLogger(__name__)

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
SHARE_RULE = N_(
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
    # a row value, which SQLite looks up in the (time, game_id) index; the same test spelled
    # out with OR scanned the whole index: 14 ms at 10,000 games for every catch-up step
    return "(played_at, game_id) >= (?, ?)", list(key)


# A kept row is up to date when it comes before the mark (m012's ``ratings_behind``), or
# when there is none: every reader takes only those, so a page shows the ratings as they
# stood before the changed game while the catch-up runs, never a half-replayed state. The
# mark is read first (``behind``), in the same snapshot as the rows, and
# given to the query, so that SQLite seeks to the last row before it in its indexes
# instead of stepping over every stale row (a correlated test of the mark did: 30 ms for a
# busy player at 100,000 games while the catch-up ran).
def up_to_date(table, mark):
    """SQL: the row of player_ratings or pair_games (named ``table``) comes before ``mark``
    (``behind``: True for every row when None); its parameters are ``mark_params(mark)``."""
    return "1" if mark is None else f"({table}.played_at, {table}.game_id) < (:mark_at, :mark_id)"


def mark_params(mark):
    return {} if mark is None else {"mark_at": mark[0], "mark_id": mark[1]}


def _latest(db, player_id, mark):
    """(Rating, streak) after the player's last game before ``mark`` (sought in the index
    on player_id, played_at, game_id)."""
    row = db.execute(
        f"""SELECT mu, sigma, games, streak FROM player_ratings r
            WHERE player_id = :p AND {up_to_date("r", mark)}
            ORDER BY played_at DESC, game_id DESC LIMIT 1""",
        {"p": player_id, **mark_params(mark)},
    ).fetchone()
    return (Rating(*row[:3]), row[3]) if row else (UNRATED, 0)


def _pair_streak(db, pair, mark):
    row = db.execute(
        f"""SELECT streak FROM pair_games s
            WHERE player_id = :a AND partner_id = :b AND {up_to_date("s", mark)}
            ORDER BY played_at DESC, game_id DESC LIMIT 1""",
        {"a": pair[0], "b": pair[1], **mark_params(mark)},
    ).fetchone()
    return row[0] if row else 0


# the games that count, in the order played, from a point on: one row per player
_PLAYED = """SELECT game_id, played_at, team_id, player_id, total, won FROM player_games
             WHERE counted_at IS NOT NULL AND {where} ORDER BY played_at, game_id, team_id, player_id"""


def replay(db):
    """Make every player's ratings and streaks again from the first game (inside the
    caller's transaction): ``summaries.rebuild``."""
    db.execute("DELETE FROM ratings_behind")
    db.execute("DELETE FROM player_ratings")
    db.execute("DELETE FROM pair_games")
    _rate(db, db.execute(_PLAYED.format(where="1")).fetchall())


def _rate(db, rows, mark=None):
    """Rate the games of ``rows`` (``_PLAYED``'s, in order, from ``mark`` on) and write their
    rows, each player starting from their latest row before it (none is kept after it)."""
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
                    before, streaks[p] = _latest(db, p, mark)
                    current[p], games[p] = m.rating(mu=before.mu, sigma=before.sigma), before.games
        lineup = [[current[p] for p in ms] for ms in teams.values()]
        rated = m.rate(lineup, ranks=scoring.ranks(list(totals.values())))
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
                        pairs[(a, b)] = _pair_streak(db, (a, b), mark)
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


# --- keeping them up to date --------------------------------------------------------------

# One catch-up transaction works for about STEP_SECONDS (measured, whatever a game costs on
# this computer), a chunk at a time: CHUNK_GAMES games replayed (about 0.2 ms each) or
# CHUNK_ROWS rows a change left behind removed; the first chunk is always done. Between two
# transactions the write lock is left free for GAP_SECONDS at least: another process's
# writer (the command line's import or restore, a second copy of the app) waits on SQLite's
# busy handler, which looks again after 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50 and then
# every 100 ms; a gap shorter than its 25 ms steps could be missed again and again (it
# waited over a second at 10,000 games before), one of 25 ms is met within some 130 ms.
STEP_SECONDS = 0.02
GAP_SECONDS = 0.025
CHUNK_GAMES = 10
CHUNK_ROWS = 200


def behind(db):
    """The (played_at, game_id) from which the kept ratings are not yet up to date, or None."""
    row = db.execute("SELECT played_at, game_id FROM ratings_behind").fetchone()
    return tuple(row) if row else None


def changed(db, key):
    """A game that counts changed at ``key`` = (played_at, game_id), inside the caller's
    transaction: move the mark back to it (no further than it is). Nothing is replayed
    here, so the change holds the write lock as briefly at any size of history; once it
    commits, the catch-up replays from the mark (``db.after_commit``: ``catch_up`` at
    once, or the app's background worker)."""
    db.execute(
        """INSERT INTO ratings_behind (id, played_at, game_id) VALUES (1, ?, ?)
           ON CONFLICT (id) DO UPDATE SET played_at = excluded.played_at, game_id = excluded.game_id
           WHERE (excluded.played_at, excluded.game_id)
                 < (ratings_behind.played_at, ratings_behind.game_id)""",
        list(key),
    )
    hooks = getattr(db, "after_commit", None)
    if hooks is not None:
        hooks["ratings"] = getattr(db, "catch_up_later", None) or (lambda: catch_up(db))


def step(db, budget=None, clock=time.perf_counter):
    """One short transaction of the catch-up, of about ``budget`` seconds (``STEP_SECONDS``;
    0: one chunk); return whether more is left.

    Below the mark every kept row is up to date. A change that moved the mark back left
    rows at and after it: they go first, ``CHUNK_ROWS`` at a time. Then the games from the
    mark are replayed, ``CHUNK_GAMES`` at a time, each player starting from their latest
    row, and the mark moves past them (removed after the last game). A crash between two
    steps leaves a mark the next catch-up starts from."""
    budget = STEP_SECONDS if budget is None else budget
    start = clock()
    with transaction(db):
        key = behind(db)
        if key is None:
            return False
        where, params = _after(key)
        for table in ("player_ratings", "pair_games"):
            while (
                db.execute(
                    f"""DELETE FROM {table} WHERE rowid IN
                    (SELECT rowid FROM {table} WHERE {where} LIMIT ?)""",
                    [*params, CHUNK_ROWS],
                ).rowcount
                == CHUNK_ROWS
            ):
                if clock() - start >= budget:
                    return True  # more rows may be left: the next step goes on
        while True:
            chunk, params = _after(key)
            upcoming = db.execute(
                f"""SELECT DISTINCT played_at, game_id FROM player_games
                    WHERE counted_at IS NOT NULL AND {chunk} ORDER BY played_at, game_id LIMIT ?""",
                [*params, CHUNK_GAMES + 1],
            ).fetchall()
            end = tuple(upcoming[CHUNK_GAMES]) if len(upcoming) > CHUNK_GAMES else None
            if end is not None:
                chunk += " AND (played_at, game_id) < (?, ?)"
                params += list(end)
            _rate(db, db.execute(_PLAYED.format(where=chunk), params).fetchall(), key)
            if end is None:
                db.execute("DELETE FROM ratings_behind")
                return False
            key = end
            if clock() - start >= budget:
                db.execute("UPDATE ratings_behind SET played_at = ?, game_id = ?", list(end))
                return True


def catch_up(db, *, turns=None, budget=None, clock=time.monotonic, sleep=time.sleep):
    """Replay from the mark to the newest game, one short transaction at a time; between
    two (of ``budget`` seconds each, as ``step``), ``turns`` (the app's
    ``db.let_writers_in``) lets a waiting phone's change go first, and the write lock is
    left free for ``GAP_SECONDS`` at least (another process's writer). A fault of the
    storage leaves the mark for the next catch-up, and is logged: the change that asked for
    it is saved."""
    turns = turns or let_writers_in
    try:
        while step(db, budget):
            committed = clock()
            turns()
            sleep(max(0.0, GAP_SECONDS - (clock() - committed)))
    except (Fault, sqlite3.Error) as error:
        log.warning("the ratings could not be brought up to date yet: %s", error)


# --- reading --------------------------------------------------------------------------


def current(db, player_ids):
    """{player id: Rating} now (UNRATED for a player with no rated game)."""
    with snapshot(db):
        mark = behind(db)
        return {p: _latest(db, p, mark)[0] for p in player_ids}


def streaks(db, player_id):
    """(current, longest) winning streak of a player, in games that count."""
    with snapshot(db):
        mark = behind(db)
        (longest,) = db.execute(
            f"SELECT MAX(streak) FROM player_ratings r WHERE player_id = :p AND {up_to_date('r', mark)}",
            {"p": player_id, **mark_params(mark)},
        ).fetchone()
        return _latest(db, player_id, mark)[1], longest or 0


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
    return predictor({p: (r.mu, r.sigma) for p, r in current(db, set(player_ids)).items()})


def predictor(ratings):
    """openskill's ``predict_win`` for teams of these players (``{id: (mu, sigma)}``), to the
    bit, each team's sums worked out once: an evening of 24 weighs some 5,000 lineups a
    proposal, and openskill checked its arguments and made each team's rating again for
    every one of them (two thirds of the proposal's time)."""
    m = model()
    if m.balance:  # openskill weighs a team's players apart: its own way, as it is
        rated = {p: m.rating(mu=mu, sigma=sigma) for p, (mu, sigma) in ratings.items()}
        return lambda teams: m.predict_win([[rated[p] for p in team] for team in teams])
    rated = {p: (mu, sigma, m.rating(mu=mu, sigma=sigma).ordinal()) for p, (mu, sigma) in ratings.items()}
    spread = 2 * m.beta**2
    sums = {}

    def team_sums(team):
        """(mu, sigma squared) of a team, added up in openskill's order (best ordinal first)."""
        key = tuple(team)
        if key not in sums:
            mu = sigma_squared = 0.0
            for p in sorted(key, key=lambda p: rated[p][2], reverse=True):
                mu += rated[p][0] * 1.0
                sigma_squared += (rated[p][1] * 1.0) ** 2
            sums[key] = (mu, sigma_squared)
        return sums[key]

    def chances(teams):
        teams = [team_sums(team) for team in teams]
        if len(teams) == 2:
            (mu_a, s_a), (mu_b, s_b) = teams
            result = phi_major((mu_a - mu_b) / math.sqrt(spread + s_a + s_b))
            return [result, 1 - result]
        n = len(teams)
        pairwise = [
            phi_major((mu_a - mu_b) / math.sqrt(spread + s_a + s_b))
            for (mu_a, s_a), (mu_b, s_b) in itertools.permutations(teams, 2)
        ]
        wins = [sum(pairwise[j] for j in range(i * (n - 1), (i + 1) * (n - 1))) / (n - 1) for i in range(n)]
        total = sum(wins)
        return [w / total for w in wins]

    return chances


def history(db, player_id, limit=None):
    """The player's rating after each rated game, oldest first (the latest ``limit``).

    :returns: dicts of game_id, played_at, mu, sigma, ordinal, games.
    """
    with snapshot(db):
        mark = behind(db)
        rows = db.execute(
            f"""SELECT game_id, played_at, mu, sigma, games FROM player_ratings r
                WHERE player_id = :p AND {up_to_date("r", mark)}
                ORDER BY played_at DESC, game_id DESC LIMIT :limit""",
            {"p": player_id, "limit": -1 if limit is None else limit, **mark_params(mark)},
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
    with snapshot(db):
        mark = behind(db)
        # each player's latest row (before the mark, when there is one); the trend's row
        # comes before it, so it is up to date too
        latest = f"""SELECT games FROM player_ratings latest
                     WHERE latest.player_id = p.id AND {up_to_date("latest", mark)}
                     ORDER BY latest.played_at DESC, latest.game_id DESC LIMIT 1"""
        rows = db.execute(
            f"""
            SELECT p.id, p.name, r.mu, r.sigma, s.games, s.wins,
                   (SELECT b.mu - 3 * b.sigma FROM player_ratings b
                    WHERE b.player_id = p.id AND b.games = r.games - :trend)
            FROM players p JOIN player_stats s ON s.player_id = p.id
            JOIN player_ratings r ON r.player_id = p.id AND r.games = ({latest})
            ORDER BY r.mu - 3 * r.sigma DESC, s.games DESC, p.name COLLATE NOCASE
            LIMIT :limit""",
            {"trend": TREND_GAMES, "limit": limit, **mark_params(mark)},
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
