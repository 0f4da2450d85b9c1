"""An evening of one or more tables: every table's game started at once, the evening
as it stands (each table live, the standings of the night, its best round and game),
and the seating of its next game.

Each table plays an ordinary game; ``evening_games`` says which evening, which game
of the night (the sitting) and which table. Games started on their own that night
belong to its page too, as the night's other games. Who sits where is
``seating``'s (pure); the chances it weighs come from the ratings (``chances_for``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass

from ..names import name_key
from ..scoring.language import N_, _
from ..storage.db import snapshot, transaction
from . import Conflict, players, ratings, seating
from .change_log import said
from .changes import log_change, now
from .evenings import evening
from .game_model import load_game
from .games import insert_game

MODES = {
    "rotate": N_("Fair tables, partners changed each game"),
    "progressive": N_("Progressive: winners move up a table, everyone changes partner"),
}
RANKING_RULE = N_(
    "Ranked by games won tonight, then by points: each player counts their own team's total "
    "in every game they played tonight, games still being played included."
)
# ... on the page of an earlier night (issue 54: a past night's page said "tonight")
PAST_RANKING_RULE = N_(
    "Ranked by games won that evening, then by points: each player counts their own team's "
    "total in every game they played that evening, games left unfinished included."
)


@dataclass(frozen=True)
class Table:
    number: int
    game: object  # game_model.Game

    @property
    def leader(self):
        """The leading team's position (None before a round, or when the lead is shared)."""
        totals = self.game.standings.totals
        if not self.game.rounds or totals.count(max(totals)) > 1:
            return None
        return totals.index(max(totals))


@dataclass(frozen=True)
class Night:
    """One player's night: games played and won, and points."""

    name: str
    games: int
    won: int
    points: int


@dataclass(frozen=True)
class Evening:
    night: str
    mode: str | None  # None: the night's games were started on their own
    rules_key: str | None
    share_token: str | None
    sittings: tuple  # per game of the night, its tables
    loose: tuple  # the night's games started on their own
    tonight: bool = False  # the night it is now: its page says "tonight", an earlier night's does not

    @property
    def ranking_rule(self):
        """How its standings are ranked, said of tonight or of an earlier evening (marked, English)."""
        return RANKING_RULE if self.tonight else PAST_RANKING_RULE

    @property
    def games(self):
        return [t.game for sitting in self.sittings for t in sitting] + list(self.loose)

    @property
    def current(self):
        return self.sittings[-1] if self.sittings else ()

    @property
    def table_count(self):
        return max((len(s) for s in self.sittings), default=0)

    @property
    def sitting_done(self):
        """Every table of the latest game of the night has finished."""
        return bool(self.current) and all(t.game.finished for t in self.current)

    @property
    def standings(self):
        """Every player's night, best first (``RANKING_RULE``)."""
        nights = {}
        for game in self.games:
            winners = set(game.standings.winners) if game.finished else set()
            for i, team in enumerate(game.teams):
                for player in team.players:
                    games, won, points = nights.get(player.name, (0, 0, 0))
                    nights[player.name] = (
                        games + 1,
                        won + (i in winners),
                        points + game.standings.totals[i],
                    )
        rows = [Night(name, *figures) for name, figures in nights.items()]
        return sorted(rows, key=lambda n: (-n.won, -n.points, name_key(n.name)))

    @property
    def best_round(self):
        """(points, team name, game, round number) of the night's best round, or None."""
        best = None
        for game in self.games:
            for number, scores in enumerate(game.standings.round_scores, start=1):
                for i, score in enumerate(scores):
                    if best is None or score.total > best[0]:
                        best = (score.total, game.teams[i].name, game, number)
        return best

    @property
    def highest_game(self):
        """(total, team name, game) of the night's highest game total, or None."""
        best = None
        for game in self.games:
            if not game.rounds:
                continue
            for i, total in enumerate(game.standings.totals):
                if best is None or total > best[0]:
                    best = (total, game.teams[i].name, game)
        return best

    @property
    def version(self):
        """What the page shows, in short: its ETag and JSON's ``version``, and its picture's
        key. Which games are its tables and its other games, and each game's revision (its
        rounds, its end, its date) and names (a player renamed changes no game's revision);
        the evening's mode and share link. Not a count and a sum: one game moved to another
        night and another typed in gave the same "2-0" (issue 54)."""

        def shown(game):
            return [game.id, game.revision, [[t.name, [p.name for p in t.players]] for t in game.teams]]

        what = [
            self.mode,
            self.rules_key,
            self.share_token,
            [[[t.number, *shown(t.game)] for t in sitting] for sitting in self.sittings],
            [shown(game) for game in self.loose],
        ]
        return hashlib.sha256(json.dumps(what, ensure_ascii=False).encode()).hexdigest()[:16]

    def partners_among(self, names):
        """The pairs of ``names`` (frozensets of them) that partnered tonight, whatever
        the case or spacing a name was typed in."""
        keys = {name_key(name): name for name in names}
        played = {
            frozenset(name_key(p.name) for p in pair)
            for game in self.games
            for team in game.teams
            for pair in _pairs(team.players)
        }
        return {frozenset(keys[k] for k in pair) for pair in played if pair <= set(keys)}


def _pairs(players):
    return [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]


def tonight():
    """The night it is now (a game started at 1 am belongs to the evening before)."""
    return evening(now())


def load_evening(db, night, *, loose=True):
    """The evening of ``night`` (YYYY-MM-DD), or None when nothing was played or planned then.

    :param loose: with the night's games started on their own (a shared evening has none).
    """
    with snapshot(db):
        row = db.execute(
            "SELECT mode, rules_key, share_token FROM evenings WHERE night = ?", [night]
        ).fetchone()
        seated = db.execute(
            "SELECT game_id, sitting, table_number FROM evening_games WHERE night = ? "
            "ORDER BY sitting, table_number",
            [night],
        ).fetchall()
        in_evening = {game_id for game_id, *_ in seated}
        night_games = (
            "SELECT id FROM games WHERE night = ? AND importing IS NULL AND deleted_at IS NULL "
            "ORDER BY played_at, id"
        )
        loose_ids = (
            [gid for (gid,) in db.execute(night_games, [night]) if gid not in in_evening] if loose else []
        )
        # an evening whose every game was deleted (services/deleted.py) is no evening
        if (row is None or not seated) and not loose_ids:
            return None
        sittings = {}
        for game_id, sitting, table in seated:
            sittings.setdefault(sitting, []).append(Table(table, load_game(db, game_id)))
        loose = tuple(load_game(db, gid) for gid in loose_ids)
    mode, rules_key, token = row if row else (None, None, None)
    sittings = tuple(tuple(s) for _, s in sorted(sittings.items()))
    return Evening(night, mode, rules_key, token, sittings, loose, tonight=night == tonight())


def load_shared_evening(db, token):
    """The evening shared under ``token``, or None: its own tables' games alone (a game
    started on its own that night was never shared with it)."""
    row = db.execute("SELECT night FROM evenings WHERE share_token = ?", [token]).fetchone()
    return load_evening(db, row[0], loose=False) if row else None


def shared_table_revision(db, token, game_id):
    """The revision of game ``game_id`` when it is a table of the evening shared under
    ``token``, else None: one indexed read, so a phone following a table learns cheaply
    that nothing changed (as ``game_model.shared_game_revision`` for a game's own link)."""
    row = db.execute(
        """SELECT games.revision FROM evenings
           JOIN evening_games ON evening_games.night = evenings.night
           JOIN games ON games.id = evening_games.game_id
           WHERE evenings.share_token = ? AND evening_games.game_id = ?""",
        [token, game_id],
    ).fetchone()
    return row[0] if row else None


def start_sitting(db, night, entry, mode, tables, seen=None):
    """Start the next game of the evening at every table, in one transaction; return (the
    night it is a game of, its sitting that night).

    A game is on the night it is played: the next game of an earlier evening (its page
    left open on a phone) is a game of tonight, the first of tonight's evening in the
    earlier one's mode, never a next game filed under a night gone by (issue 54).

    :param night: the evening the phone's page is about (tonight, for a new evening).
    :param entry: the rule set (``rulesets.Entry``) every table plays.
    :param mode: a key of ``MODES`` (an evening keeps the mode it was started with).
    :param tables: per table, its teams as lists of names (checked by the caller).
    :param seen: how many games of ``night``'s evening the phone's page knew of: when the
        games of the night it starts on are not those (another phone started one since,
        or tonight's evening is under way while the page was an earlier one's),
        ``Conflict`` and nothing is written.
    """
    stamp = now()
    tonight = evening(stamp)
    with transaction(db):
        started = db.execute(
            "SELECT coalesce(max(sitting), 0) FROM evening_games WHERE night = ?", [tonight]
        ).fetchone()[0]
        known = seen if night == tonight else 0  # an earlier evening's page saw nothing of tonight's
        if seen is not None and started != known:
            raise Conflict(
                _("Another phone started this evening's next game already: nothing was started twice.")
                if known
                else _("An evening is under way tonight already: its next game starts from its page.")
            )
        db.execute(
            "INSERT OR IGNORE INTO evenings (night, mode, rules_key, created_at, share_token) "
            "VALUES (?, ?, ?, ?, ?)",
            [tonight, mode, entry.key, stamp, secrets.token_urlsafe(16)],
        )
        sitting = started + 1
        for number, teams in enumerate(tables, start=1):
            # played now, on the same clock reading as the night it is filed under
            game_id = insert_game(
                db, entry.rules, entry.key, [("", list(team)) for team in teams], created_at=stamp
            )
            log_change(
                db,
                game_id,
                0,
                None,
                "started",
                said(
                    N_("Game %(sitting)s, table %(table)s of the evening, under %(rules)s."),
                    sitting=sitting,
                    table=number,
                    rules=entry.rules.name,
                ),
            )
            db.execute(
                "INSERT INTO evening_games (game_id, night, sitting, table_number) VALUES (?, ?, ?, ?)",
                [game_id, tonight, sitting, number],
            )
    return tonight, sitting


def set_sharing(db, night, on):
    """A new share link for the evening (``on``), or none; return the token."""
    token = secrets.token_urlsafe(16) if on else None
    with transaction(db):
        db.execute("UPDATE evenings SET share_token = ? WHERE night = ?", [token, night])
    return token


def chances_for(db, names):
    """A function from teams (lists of names) to each team's chance to win, from the
    players' ratings (a name not known yet: a new player, unrated)."""
    ids = {}
    for name in names:
        known = players.find_player(db, name)
        ids[name] = known.id if known else None
    rated = ratings.current(db, set(ids.values()))
    return ratings.predictor({name: (rated[ids[name]].mu, rated[ids[name]].sigma) for name in names})


def next_seating(db, the_evening, seed=0):
    """The next game's tables: ``seating.progress`` for a progressive evening once every
    table has finished, else a fair proposal that avoids tonight's partners. Returns
    (a ``seating.Proposal``, {name: (from table, to table)} or None, notes to say on the
    proposal: a table that ended without a result, a tie)."""
    last = the_evening.current
    names = [p.name for t in last for team in t.game.teams for p in team.players]
    chances = chances_for(db, names)
    tables = [[[p.name for p in team.players] for team in t.game.teams] for t in last]
    if the_evening.mode == "progressive" and the_evening.sitting_done:
        winners, notes = progressive_results(last)
        new, moves = seating.progress(tables, winners, chances)
        return seating.proposal(new, chances), moves, notes
    layout = [[len(team) for team in table] for table in tables]
    avoid = the_evening.partners_among(names)
    return seating.arrange(names, layout, chances, avoid=avoid, seed=seed), None, []


def progressive_results(tables):
    """(each table's winning team for ``seating.progress``, what to say of them): a table
    that ended without a result has none (its players keep their table); a tie counts
    its first team listed as the winners, and says so."""
    winners, notes = [], []
    for table in tables:
        game = table.game
        won = game.standings.winners
        if not won:
            winners.append(None)
            notes.append(
                _(
                    "Table %(number)s ended without a result: its players keep their table.",
                    number=table.number,
                )
            )
            continue
        winners.append(won[0])
        if len(won) > 1:
            notes.append(
                _(
                    "Table %(number)s was a tie: %(team)s count as its winners, "
                    "as the first team listed; swap if the table agrees.",
                    number=table.number,
                    team=game.teams[won[0]].name,
                )
            )
    return winners, notes


def player_evenings(db, player_id):
    """{"played": evenings (started as evenings) the player sat at, "won": those where they
    won more games than anyone else} (from the nights' sums kept with every change)."""
    played, won = db.execute(
        """SELECT COUNT(*), COALESCE(SUM(np.wins > 0 AND np.wins > COALESCE(
                  (SELECT MAX(o.wins) FROM night_players o
                   WHERE o.night = np.night AND o.player_id != np.player_id), 0)), 0)
           FROM night_players np JOIN evenings e ON e.night = np.night
           WHERE np.player_id = ?""",
        [player_id],
    ).fetchone()
    return {"played": played, "won": won}
