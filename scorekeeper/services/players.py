"""Players: found by their name's key, added when new, renamed with a revision check."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from ..names import MAX_NAME, clean_name, name_key, name_problem
from ..scoring.language import _
from ..storage.db import transaction
from . import Conflict, NotFound, colours


@dataclass(frozen=True)
class Player:
    id: int
    name: str


def _now():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


# Who the lists name: not a player whose every game was deleted (services/deleted.py), as if
# those games had never been played. A player at a game that is not deleted has their row of
# sums (summaries.player_stats, from the game's start); one whose every game was deleted has
# games (team_players) and no sums. A player kept without any game (an export's list of
# players names them) is listed as before; so is one of a game an import is still writing.
LISTED = (
    "(id IN (SELECT player_id FROM player_stats) OR id NOT IN "
    "(SELECT tp.player_id FROM team_players tp JOIN teams t ON t.id = tp.team_id "
    "JOIN games g ON g.id = t.game_id WHERE g.deleted_at IS NOT NULL))"
)


def list_players(db):
    """Every player's id and name, by name (no counting: this is for pickers)."""
    return [
        Player(pid, name)
        for pid, name in db.execute(f"SELECT id, name FROM players WHERE {LISTED} ORDER BY key, id")
    ]


def find_player(db, name):
    """The player with this name (by its key: any case or spacing), or None."""
    row = db.execute("SELECT id, name FROM players WHERE key = ?", [name_key(clean_name(name))]).fetchone()
    return Player(*row) if row else None


def player(db, player_id):
    """(Player, revision), or None."""
    row = db.execute("SELECT id, name, revision FROM players WHERE id = ?", [player_id]).fetchone()
    return (Player(row[0], row[1]), row[2]) if row else None


def player_id(db, name, stamp=None, colour=None):
    """The id of the player with this name, added if new (inside the caller's transaction).

    :param colour: called for a new player's colour's key (an import's); else the least used.
    """
    name = clean_name(name)
    existing = db.execute("SELECT id FROM players WHERE key = ?", [name_key(name)]).fetchone()
    if existing:
        return existing[0]
    return db.execute(
        "INSERT INTO players (name, key, created_at, revision, colour) VALUES (?, ?, ?, 0, ?)",
        [name, name_key(name), stamp or _now(), colour() if colour else colours.least_used(db).key],
    ).lastrowid


def rename_player(db, player_id, revision, name):
    """Rename a player if they are still as the phone saw them; their games follow.

    :raises ValueError: not a name, or another player already has it.
    :raises Conflict: renamed meanwhile on another phone.
    """
    name = clean_name(name)
    problem = name_problem(name, MAX_NAME)
    if problem:
        raise ValueError(problem)
    with transaction(db):
        row = db.execute("SELECT name, revision FROM players WHERE id = ?", [player_id]).fetchone()
        if row is None:
            raise NotFound(_("There is no such player."))
        if revision != row[1]:
            raise Conflict(
                _(
                    "This player was renamed on another phone (now “%(name)s”), so nothing was changed.",
                    name=row[0],
                )
            )
        if name == row[0]:
            return Player(player_id, name)
        other = db.execute(
            "SELECT name FROM players WHERE key = ? AND id != ?", [name_key(name), player_id]
        ).fetchone()
        if other:
            raise ValueError(_("There is already a player called %(name)s.", name=other[0]))
        db.execute(
            "UPDATE players SET name = ?, key = ?, revision = revision + 1 WHERE id = ?",
            [name, name_key(name), player_id],
        )
    return Player(player_id, name)
