"""A game deleted by mistake, and back (issue 54): deleting a game, restoring it, the
list of deleted games and the household's log of both, and removing them for good.

A deleted game is kept whole where it is, marked with when it was deleted
(``games.deleted_at``, m019): its rounds, teams and players, its change log, its share
link (which opens nothing while it is deleted). Nothing reads it then: ``load_game``
does not find it, and every list, count and export leaves it out, as an import's
unpublished games are left out. What it added to the summaries is taken out by the
delete itself, in its one transaction, the way a change takes a result out
(``summaries.forget``: its rows and record go, the sums lose what it added, the ratings'
mark moves back to it and the catch-up replays the games since, after the commit). Its
seat at an evening's table (``evening_games``) is taken out too, and kept in its change
log's line (``before``), so that a later sitting of that evening is numbered as the
evening's page shows it.

Restoring is a change like any other: checked against the revision the phone saw, it
puts the seat back (unless the evening's next game has taken it meanwhile: then the game
comes back as a game of its night on its own, and says so), and adds the game to the
summaries as ``summaries.refresh`` adds any game whose rows are missing.

The household reads both in its log (``household_log``: the change-log lines of every
deletion and restoration, newest first), and each game's own change log keeps them. After
``KEPT_DAYS`` days a deleted game is removed for good (``purge``), by the app's upkeep
(``init_app``: as a connection opens, so at every start, then on its worker while deleted
games wait) and by ``flask … init-db``. The automatic backups keep what they kept.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import logging
import sqlite3
import threading

from ..background import Worker
from ..scoring.language import N_, _
from ..storage import photos as kept_photos
from ..storage.db import connect, snapshot, transaction
from ..storage.faults import Fault
from . import Conflict, NotFound, summaries
from .change_log import said
from .changes import game_for_change, log_change, now
from .game_model import Change, changes_since, load_game

log = logging.getLogger(__name__)

KEPT_DAYS = 30  # a deleted game can be restored this long, then is gone for good
SHOWN = 100  # deleted games listed (a family deletes a few: a bound, not a page)
LOG_LINES = 20  # lines of the household's log shown
RECHECK = 3600  # seconds: while deleted games wait, the upkeep looks at the clock this often
DELETED, RESTORED = "game-deleted", "game-restored"  # their change-log actions (m019's index)


@dataclasses.dataclass(frozen=True)
class Deleted:
    """A deleted game as its list shows it."""

    game: object  # game_model.Game, deleted_at set

    @property
    def gone_at(self):
        """When it is removed for good (UTC, ISO)."""
        return gone_at(self.game.deleted_at)


@dataclasses.dataclass(frozen=True)
class Logged:
    """A line of the household's log: a game deleted or restored."""

    game: object  # game_model.Game (deleted or not)
    change: Change

    @property
    def deleted(self):
        return self.change.action == DELETED

    @property
    def said(self):
        """The line in the reader's language."""
        return self.game.worded(self.change)


def _stamp(moment):
    return moment.astimezone(datetime.UTC).isoformat(timespec="seconds")


def gone_at(deleted_at):
    """When a game deleted at ``deleted_at`` (UTC, ISO) is removed for good."""
    return _stamp(datetime.datetime.fromisoformat(deleted_at) + datetime.timedelta(days=KEPT_DAYS))


# --- the changes --------------------------------------------------------------------------------


def delete_game(db, game_id, revision, *, loaded=None):
    """Delete the game, if it is still as the phone saw it; return it as deleted."""
    with transaction(db):
        game = game_for_change(db, game_id, revision, loaded)
        stamp, revision = now(), game.revision + 1
        seat = evening_seat(db, game.id)
        if seat is not None:
            db.execute("DELETE FROM evening_games WHERE game_id = ?", [game.id])
        db.execute(
            "UPDATE games SET deleted_at = ?, revision = ?, updated_at = ? WHERE id = ?",
            [stamp, revision, stamp, game.id],
        )
        summaries.forget(db, game.id)
        log_change(
            db,
            game.id,
            revision,
            None,
            DELETED,
            said(N_("Game deleted.")),
            {"evening": dict(zip(("night", "sitting", "table"), seat))} if seat else None,
            stamp=stamp,
        )
        hooks, later = getattr(db, "after_commit", None), getattr(db, "purge_later", None)
        if hooks is not None and later is not None:
            hooks["purge"] = later  # the upkeep looks at when it is due
    return dataclasses.replace(game, revision=revision, updated_at=stamp, deleted_at=stamp)


def restore_game(db, game_id, revision):
    """Bring a deleted game back whole, if it is still as the phone saw it; return it."""
    with transaction(db):
        row = db.execute(
            "SELECT revision, deleted_at FROM games WHERE id = ? AND importing IS NULL", [game_id]
        ).fetchone()
        if row is None:
            raise NotFound(
                _("This game is gone for good: it was deleted more than %(days)s days ago.", days=KEPT_DAYS)
            )
        if row[1] is None:
            raise Conflict(_("This game is back already: it was restored on another phone, perhaps."))
        if revision != row[0]:
            game = load_game(db, game_id, deleted=True)
            since = changes_since(db, game_id, revision)
            raise Conflict(
                _("This game changed on another phone since this page was opened, so it was not restored."),
                [dataclasses.replace(c, summary=game.worded(c)) for c in since],
            )
        stamp, revision = now(), row[0] + 1
        db.execute(
            "UPDATE games SET deleted_at = NULL, revision = ?, updated_at = ? WHERE id = ?",
            [revision, stamp, game_id],
        )
        seat = _seat_taken(db, game_id)
        back = seat is not None and _seat_back(db, game_id, seat)
        game = load_game(db, game_id)
        summaries.refresh(db, game)  # its rows, sums and record anew; the ratings from it
        message = N_("Game restored.")
        if seat is not None and not back:
            message = N_(
                "Game restored, as a game of its night on its own: its table at the evening "
                "was taken by a later game."
            )
        log_change(
            db,
            game_id,
            revision,
            None,
            RESTORED,
            said(message),
            after={"evening": seat} if back else None,
            stamp=stamp,
        )
    return game


def _seat_taken(db, game_id):
    """The evening seat the game's last deletion took away, as its log line kept it, or None."""
    row = db.execute(
        """SELECT before FROM revisions WHERE game_id = ? AND action = ?
           ORDER BY revision DESC, id DESC LIMIT 1""",
        [game_id, DELETED],
    ).fetchone()
    if row is None or row[0] is None:
        return None
    return json.loads(row[0]).get("evening")


def _seat_back(db, game_id, seat):
    """Put the game back at its evening's table; whether it was still free."""
    taken = db.execute(
        "SELECT 1 FROM evening_games WHERE night = ? AND sitting = ? AND table_number = ?",
        [seat["night"], seat["sitting"], seat["table"]],
    ).fetchone()
    if taken or not db.execute("SELECT 1 FROM evenings WHERE night = ?", [seat["night"]]).fetchone():
        return False
    db.execute(
        "INSERT INTO evening_games (game_id, night, sitting, table_number) VALUES (?, ?, ?, ?)",
        [game_id, seat["night"], seat["sitting"], seat["table"]],
    )
    return True


# --- reading ------------------------------------------------------------------------------------


def evening_seat(db, game_id):
    """(night, sitting, table) when the game is a table of an evening, else None: the seat
    its deletion takes away (and its restoring puts back)."""
    row = db.execute(
        "SELECT night, sitting, table_number FROM evening_games WHERE game_id = ?", [game_id]
    ).fetchone()
    return tuple(row) if row else None


def deleted_games(db):
    """The games deleted and not yet gone for good, the latest deleted first (``SHOWN`` at
    most), and how many there are."""
    with snapshot(db):
        (count,) = db.execute(
            "SELECT COUNT(*) FROM games WHERE deleted_at IS NOT NULL AND importing IS NULL"
        ).fetchone()
        ids = db.execute(
            """SELECT id FROM games WHERE deleted_at IS NOT NULL AND importing IS NULL
               ORDER BY deleted_at DESC, id DESC LIMIT ?""",
            [SHOWN],
        ).fetchall()
        return [Deleted(load_game(db, gid, deleted=True, remember=True)) for (gid,) in ids], count


def household_log(db, limit=LOG_LINES):
    """The household's log of games deleted and restored, newest first (``Logged``)."""
    with snapshot(db):
        rows = db.execute(
            f"""SELECT game_id, revision, round_number, action, summary, created_at, said, before, after
                FROM revisions WHERE action IN ('{DELETED}', '{RESTORED}')
                ORDER BY created_at DESC, id DESC LIMIT ?""",
            [limit],
        ).fetchall()
        games = {gid: load_game(db, gid, deleted=True, remember=True) for gid in {row[0] for row in rows}}
    return [Logged(games[row[0]], Change(*row[1:])) for row in rows if games[row[0]] is not None]


# --- gone for good ------------------------------------------------------------------------------


def purge(db, now=None, *, photos=None):
    """Remove for good every game deleted ``KEPT_DAYS`` days or more before ``now`` (UTC;
    the clock's time when None), with the players who sat at no other game and, in the
    ``photos`` folder (the app's ``PHOTOS``), the photos of its sheet; return how many
    games. A game at a time, each in its own short transaction, its photos once it is gone."""
    due = _stamp((now or datetime.datetime.now(datetime.UTC)) - datetime.timedelta(days=KEPT_DAYS))
    removed = 0
    while True:
        with transaction(db):
            row = db.execute(
                """SELECT id, uid FROM games WHERE deleted_at IS NOT NULL AND deleted_at <= ?
                   AND importing IS NULL ORDER BY deleted_at LIMIT 1""",
                [due],
            ).fetchone()
            if row is not None:
                _remove(db, row[0])
        if row is None:
            break
        if photos is not None:
            kept_photos.remove(photos, row[1])
        removed += 1
    if photos is not None:  # and those of games no longer here (a backup restored from before them)
        kept_photos.sweep(photos, lambda: [uid for (uid,) in db.execute("SELECT uid FROM games")])
    return removed


# every row of a game, children first, each found by an index (its summaries' rows went when
# it was deleted, and its ratings' rows with the catch-up that followed: gone here too, should
# it not have run yet, sought by when it was played, as the catch-up seeks them)
_REMOVE = (
    "DELETE FROM round_entries WHERE round_id IN (SELECT id FROM rounds WHERE game_id = :game)",
    "DELETE FROM rounds WHERE game_id = :game",
    "DELETE FROM team_players WHERE team_id IN (SELECT id FROM teams WHERE game_id = :game)",
    "DELETE FROM player_games WHERE game_id = :game",
    "DELETE FROM game_records WHERE game_id = :game",
    "DELETE FROM player_ratings WHERE played_at = :played AND game_id = :game",
    "DELETE FROM pair_games WHERE played_at = :played AND game_id = :game",
    "DELETE FROM evening_games WHERE game_id = :game",
    "DELETE FROM teams WHERE game_id = :game",
    "DELETE FROM revisions WHERE game_id = :game",
    "DELETE FROM games WHERE id = :game",
)


def _remove(db, game_id):
    (played,) = db.execute("SELECT played_at FROM games WHERE id = ?", [game_id]).fetchone()
    seated = [
        row[0]
        for row in db.execute(
            "SELECT tp.player_id FROM team_players tp JOIN teams t ON t.id = tp.team_id WHERE t.game_id = ?",
            [game_id],
        )
    ]
    for statement in _REMOVE:
        db.execute(statement, {"game": game_id, "played": played})
    # a player of this game alone is gone with it, as a player an undone import added is
    db.conn.executemany(
        """DELETE FROM players WHERE id = ?
           AND NOT EXISTS (SELECT 1 FROM team_players WHERE player_id = players.id)
           AND NOT EXISTS (SELECT 1 FROM player_stats WHERE player_id = players.id)
           AND NOT EXISTS (SELECT 1 FROM player_ratings WHERE player_id = players.id)""",
        [(p,) for p in seated],
    )


def due_in(db, now=None):
    """Seconds until the next deleted game is due to go for good (0: due now), or None."""
    (first,) = db.execute(
        "SELECT MIN(deleted_at) FROM games WHERE deleted_at IS NOT NULL AND importing IS NULL"
    ).fetchone()
    if first is None:
        return None
    moment = now or datetime.datetime.now(datetime.UTC)
    return max(0.0, (datetime.datetime.fromisoformat(gone_at(first)) - moment).total_seconds())


# --- the app's upkeep ---------------------------------------------------------------------------


class Upkeep:
    """Deleted games removed once due, on a worker of their own (``background.Worker``):
    looked at as the app opens a connection and after each deletion, then again every
    ``RECHECK`` seconds while deleted games wait (a computer asleep keeps no clock)."""

    def __init__(self, database, photos=None):
        self.database = database
        self.photos = photos
        self.worker = Worker("scorekeeper-upkeep")

    def look(self):
        self.worker.submit(self._purge, once=True)

    def wait(self, timeout=60):
        """Until the worker has nothing queued (the tests wait on it, never on a clock)."""
        return self.worker.wait(timeout)

    def _purge(self):
        try:
            db = connect(self.database)
            try:
                purge(db, photos=self.photos)
                due = due_in(db)
            finally:
                db.close()
        except (Fault, sqlite3.Error) as error:
            log.warning("deleted games could not be removed for good yet: %s", error)
            return RECHECK
        return None if due is None else min(due, RECHECK)


_made = threading.Lock()


def for_app(app):
    """The app's Upkeep (made on first use)."""
    with _made:
        upkeep = app.extensions.get("scorekeeper.upkeep")
        if upkeep is None:
            upkeep = Upkeep(app.config["DATABASE"], app.config["PHOTOS"])
            app.extensions["scorekeeper.upkeep"] = upkeep
        return upkeep


def init_app(app):
    """Each connection the app opens has the deleted games that are due removed: on the app's
    worker (``PURGE_IN_BACKGROUND``, on but off under TESTING), else at once."""
    app.config.setdefault("PURGE_IN_BACKGROUND", not app.testing)

    def opened(db):
        if db.read_only:
            return
        if app.config["PURGE_IN_BACKGROUND"]:
            db.purge_later = for_app(app).look
            db.purge_later()
            return
        try:
            if due_in(db) == 0:
                purge(db, photos=app.config["PHOTOS"])
        except (Fault, sqlite3.Error):  # not writable now: the page that asked says why
            return

    app.extensions.setdefault("scorekeeper.db_opened", []).append(opened)
