"""What every change to a game does, whatever it changes: load the game as the
phone saw it (refusing a stale revision), store the engine's scores and each
team's total and win, log the change, bump the revision.

Round inputs are stored as entered; each entry's ``score`` and each team's
``total`` and ``won`` are written from ``scoring.standings`` in the same
transaction, for the history pages' SQL (``games.recompute_scores`` rewrites
them all, so they cannot drift). Screens, sheets and exports still ask the engine.
"""

from __future__ import annotations

import dataclasses
import datetime
import json

from ..scoring import ENTRY_FIELDS
from ..scoring.language import N_, _
from . import Conflict, NotFound, change_log, summaries
from .game_model import changes_since, deleted_when, load_game

_ENTRY_COLUMNS = ("round_id", "team_id", "books", *(f.name for f in ENTRY_FIELDS), "paper_score", "score")
INSERT_ENTRY = (
    f"INSERT INTO round_entries ({', '.join(_ENTRY_COLUMNS)}) VALUES ({', '.join('?' * len(_ENTRY_COLUMNS))})"
)


# what a change to a game deleted meanwhile is told (services/deleted.py)
DELETED_MEANWHILE = N_(
    "This game was deleted on another phone, so nothing was saved. "
    "It can be restored from Deleted games, under History."
)


def now():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def game_for_change(db, game_id, revision, loaded=None):
    """The game as saved, if it is still what the phone saw; else ``Conflict``.

    The first read of every change, inside its transaction. ``loaded`` is the
    game as the caller already read it: when the saved revision is still its
    revision the game is unchanged (every change bumps it), so it is not read
    again.
    """
    if loaded is not None and loaded.id == game_id and loaded.revision == revision:
        row = db.execute("SELECT revision FROM games WHERE id = ?", [game_id]).fetchone()
        if row is not None and row[0] == revision:
            return loaded
    game = load_game(db, game_id)
    if game is None:
        if deleted_when(db, game_id) is not None:
            raise Conflict(_(DELETED_MEANWHILE))
        raise NotFound(_("This game no longer exists."))
    if revision is None:
        raise Conflict(_("This page is out of date: nothing was saved. Here is the game as it stands."))
    if revision != game.revision:
        raise Conflict(
            _("Someone changed this game on another phone since you opened this page, so nothing was saved."),
            # each change worded for the phone that reads them
            [dataclasses.replace(c, summary=game.worded(c)) for c in changes_since(db, game_id, revision)],
        )
    return game


def settled(db, before, after, *, round_number, action, summary, log_before=None, log_after=None):
    """Write what every change writes: the game's revision and finish, each team's
    total and win (the engine's verdict), and the change-log entry; return the game."""
    stamp = now()
    finished_at = after.finished_at
    if after.finished and not finished_at:
        finished_at = stamp
    elif not after.finished:
        finished_at = None
    revision = before.revision + 1
    db.execute(
        """UPDATE games SET revision = ?, updated_at = ?, ended_by_hand = ?, finished_at = ?
                  WHERE id = ?""",
        [revision, stamp, int(after.ended_by_hand), finished_at, after.id],
    )
    settled = dataclasses.replace(after, revision=revision, updated_at=stamp, finished_at=finished_at)
    if "standings" in vars(after):  # they do not depend on the fields replaced: not worked out again
        vars(settled)["standings"] = after.standings
    write_totals(db, settled)
    log_change(
        db, after.id, revision, round_number, action, summary, log_before, log_after, stamp, game=after
    )
    return settled


def write_totals(db, game):
    """Store each team's total and whether it won, from the engine's standings,
    and bring the players' summaries up to date with the game."""
    store_totals(db, game)
    summaries.refresh(db, game)


def store_totals(db, game):
    s = game.standings
    db.conn.executemany(
        "UPDATE teams SET total = ?, won = ? WHERE id = ?",
        [(s.totals[i], int(i in s.winners), team.id) for i, team in enumerate(game.teams)],
    )


def log_change(
    db, game_id, revision, round_number, action, summary, before=None, after=None, stamp=None, *, game=None
):
    """Keep a line of the game's change log: ``summary`` is what it says
    (``change_log.said``), kept in English and as said, to word again in each reader's
    language (``game``: the game as changed, for a round's edit)."""
    line = json.dumps(summary)
    db.execute(
        """INSERT INTO revisions (game_id, revision, round_number, action, summary, said, before,
                                  after, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            game_id,
            revision,
            round_number,
            action,
            change_log.in_english(game, action, summary, before, after),
            line,
            json.dumps(before) if before is not None else None,
            json.dumps(after) if after is not None else None,
            stamp or now(),
        ],
    )


def entry_rows(round_id, team_ids, entries, scores):
    """``round_entries`` rows (for ``INSERT_ENTRY``): each entry as entered, and its
    score from the engine. The one place the row is shaped."""
    return [
        (
            round_id,
            team_id,
            json.dumps(dict(entry.books)),
            *(int(getattr(entry, f.name)) for f in ENTRY_FIELDS),
            entry.paper_score,
            score.total,
        )
        for team_id, entry, score in zip(team_ids, entries, scores)
    ]


def write_scores(db, game, from_number=1):
    """Rewrite the stored scores of the rounds from ``from_number`` on (they follow their numbers)."""
    s = game.standings
    db.conn.executemany(
        "UPDATE round_entries SET score = ? WHERE round_id = ? AND team_id = ?",
        [
            (s.round_scores[i][t].total, played.id, team.id)
            for i, played in enumerate(game.rounds)
            if played.number >= from_number
            for t, team in enumerate(game.teams)
        ],
    )
