"""Every change to a game: starting one, its rounds, ending, reopening, sharing.

Each change is one write transaction, checked against the game's ``revision``
the phone saw, and adds one to it, with an entry in the game's change log
naming that revision. Making or stopping a game's share link is such a change
too. The game itself, and reading it, are in ``game_model``.

Round inputs are stored as entered; each entry's ``score`` and each team's
``total`` and ``won`` are written from ``scoring.standings`` in the same
transaction, for the history pages' SQL (``recompute_scores`` rewrites them
all, so they cannot drift). Screens, sheets and exports still ask the engine.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import secrets
import uuid

from ..db import transaction
from ..names import clean_name, name_key
from ..scoring import ENTRY_FIELDS, entry_fields
from . import Conflict, NotFound, summaries
from .game_model import Round, changes_since, load_game, remembered, with_round
from .players import player_id

_ENTRY_COLUMNS = ("round_id", "team_id", "books", *(f.name for f in ENTRY_FIELDS), "score")
INSERT_ENTRY = (
    f"INSERT INTO round_entries ({', '.join(_ENTRY_COLUMNS)}) VALUES ({', '.join('?' * len(_ENTRY_COLUMNS))})"
)


def now():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


# --- starting a game ----------------------------------------------------------------


def create_game(db, rules, rules_key, teams, first_dealer=None):
    """Start a game; return it.

    :param teams: (team name or "", [player names]) per team, in order
        (checked by the new-game form: names valid, nobody twice).
    :param first_dealer: a player's name, or None for team 1's first player.
    """
    with transaction(db):
        game_id = insert_game(db, rules, rules_key, teams, first_dealer)
        _log(db, game_id, 0, None, "started", f"Game started under {rules.name}.")
        return load_game(db, game_id)


def insert_game(db, rules, rules_key, teams, first_dealer=None, *, uid=None, created_at=None):
    """Write a new game's rows (inside the caller's transaction); return its id."""
    stamp = created_at or now()
    game_id = db.execute(
        """INSERT INTO games (uid, rules, rules_key, rules_name, first_dealer, ended_by_hand,
                              finished_at, created_at, updated_at, revision, share_token)
           VALUES (?, ?, ?, ?, NULL, 0, NULL, ?, ?, 0, ?)""",
        [uid or uuid.uuid4().hex, rules.to_json(), rules_key, rules.name, stamp, stamp, new_share_token()],
    ).lastrowid
    dealer_key = name_key(clean_name(first_dealer)) if first_dealer else None
    dealer_id = None
    seated = []
    for position, (name, player_names) in enumerate(teams):
        ids = [player_id(db, player, stamp) for player in player_names]
        team_name = clean_name(name) or " & ".join(clean_name(p) for p in player_names)
        team_id = db.execute(
            "INSERT INTO teams (game_id, position, name) VALUES (?, ?, ?)", [game_id, position, team_name]
        ).lastrowid
        db.conn.executemany(
            "INSERT INTO team_players (team_id, player_id, position) VALUES (?, ?, ?)",
            [(team_id, member, seat) for seat, member in enumerate(ids)],
        )
        seated.append((team_id, ids))
        for member, player in zip(ids, player_names):
            if dealer_id is None and dealer_key == name_key(clean_name(player)):
                dealer_id = member
    db.execute("UPDATE games SET first_dealer = ? WHERE id = ?", [dealer_id, game_id])
    summaries.started(db, game_id, stamp, seated)
    return game_id


# --- changing a game: each function is one transaction ----------------------------


def _game_for_change(db, game_id, revision, loaded=None):
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
        raise NotFound("This game no longer exists.")
    if revision is None:
        raise Conflict("This page is out of date: nothing was saved. Here is the game as it stands.")
    if revision != game.revision:
        raise Conflict(
            "Someone changed this game on another phone since you opened this page, so nothing was saved.",
            changes_since(db, game_id, revision),
        )
    return game


def _settled(db, before, after, *, round_number, action, summary, log_before=None, log_after=None):
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
    _log(db, after.id, revision, round_number, action, summary, log_before, log_after, stamp)
    return settled


def write_totals(db, game):
    """Store each team's total and whether it won, from the engine's standings,
    and bring the players' summaries up to date with the game."""
    _store_totals(db, game)
    summaries.refresh(db, game)


def _store_totals(db, game):
    s = game.standings
    db.conn.executemany(
        "UPDATE teams SET total = ?, won = ? WHERE id = ?",
        [(s.totals[i], int(i in s.winners), team.id) for i, team in enumerate(game.teams)],
    )


def _log(db, game_id, revision, round_number, action, summary, before=None, after=None, stamp=None):
    db.execute(
        """INSERT INTO revisions (game_id, revision, round_number, action, summary, before, after,
                                  created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            game_id,
            revision,
            round_number,
            action,
            summary,
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
            score.total,
        )
        for team_id, entry, score in zip(team_ids, entries, scores)
    ]


def _write_scores(db, game, from_number=1):
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


def _must_be_open(game):
    if not game.is_open:
        raise Conflict("This game is finished: reopen it to change a round.")


@remembered
def add_round(db, game_id, revision, number, entries, *, loaded=None):
    """Save the next round, if the game is still as the phone saw it; return the game."""
    entries = tuple(entries)
    with transaction(db):
        game = _game_for_change(db, game_id, revision, loaded)
        _must_be_open(game)
        if game.finished:
            raise Conflict("This game is finished: there is no next round to enter.")
        if number != game.standings.next_round:
            raise Conflict(f"Round {number} was already saved, on another phone perhaps.")
        stamp = now()
        round_id = db.execute(
            "INSERT INTO rounds (game_id, number, created_at, updated_at) VALUES (?, ?, ?, ?)",
            [game_id, number, stamp, stamp],
        ).lastrowid
        after = with_round(game, Round(round_id, number, entries))
        db.conn.executemany(
            INSERT_ENTRY,
            entry_rows(round_id, [t.id for t in game.teams], entries, after.standings.round_scores[-1]),
        )
        return _settled(
            db,
            game,
            after,
            round_number=number,
            action="added",
            summary=f"Round {number} entered.",
            log_after=[e.to_dict() for e in entries],
        )


def _round_of(game, round_id):
    played = next((r for r in game.rounds if r.id == round_id), None)
    if played is None:
        raise NotFound("That round is no longer in this game.")
    return played


@remembered
def update_round(db, game_id, revision, round_id, entries, *, loaded=None):
    """Replace a round's entries; return the game (unchanged, and nothing written, if they are the same)."""
    entries = tuple(entries)
    with transaction(db):
        game = _game_for_change(db, game_id, revision, loaded)
        _must_be_open(game)
        played = _round_of(game, round_id)
        changes = describe_changes(game, played.entries, entries)
        if not changes:
            return game
        db.execute("UPDATE rounds SET updated_at = ? WHERE id = ?", [now(), round_id])
        after = dataclasses.replace(
            game, rounds=tuple(Round(r.id, r.number, entries) if r.id == round_id else r for r in game.rounds)
        )
        db.execute("DELETE FROM round_entries WHERE round_id = ?", [round_id])
        db.conn.executemany(
            INSERT_ENTRY,
            entry_rows(
                round_id, [t.id for t in game.teams], entries, after.standings.round_scores[played.number - 1]
            ),
        )
        return _settled(
            db,
            game,
            after,
            round_number=played.number,
            action="edited",
            summary=f"Round {played.number} edited: " + "; ".join(changes) + ".",
            log_before=[e.to_dict() for e in played.entries],
            log_after=[e.to_dict() for e in entries],
        )


@remembered
def delete_round(db, game_id, revision, round_id, *, loaded=None, action="deleted"):
    """Delete a round; later rounds move up one (their meld minimums and scores follow).

    ``action="undone"`` takes back the change just made, and only that: the
    game's last change must be this round's entry. The round may have ended
    the game; taking it back opens the game again, as it was before.
    """
    with transaction(db):
        game = _game_for_change(db, game_id, revision, loaded)
        played = _round_of(game, round_id)
        if action == "undone":
            _must_be_last_entered(db, game, played)
        else:
            _must_be_open(game)
        number = played.number
        db.execute("DELETE FROM round_entries WHERE round_id = ?", [round_id])
        db.execute("DELETE FROM rounds WHERE id = ?", [round_id])
        # two steps, so that no two rounds share a number on the way (a unique index)
        db.execute(
            "UPDATE rounds SET number = -(number - 1) WHERE game_id = ? AND number > ?", [game_id, number]
        )
        db.execute("UPDATE rounds SET number = -number WHERE game_id = ? AND number < 0", [game_id])
        later = [r for r in game.rounds if r.number > number]
        after = dataclasses.replace(
            game,
            rounds=tuple(
                r if r.number < number else Round(r.id, r.number - 1, r.entries)
                for r in game.rounds
                if r.id != round_id
            ),
        )
        _write_scores(db, after, number)
        moved = f"; rounds {number + 1}–{number + len(later)} moved up one." if later else "."
        summary = f"Round {number} undone{moved}" if action == "undone" else f"Round {number} deleted{moved}"
        return _settled(
            db,
            game,
            after,
            round_number=number,
            action=action,
            summary=summary,
            log_before=[e.to_dict() for e in played.entries],
        )


def _must_be_last_entered(db, game, played):
    last = db.execute(
        "SELECT action, round_number FROM revisions WHERE game_id = ? AND revision = ?",
        [game.id, game.revision],
    ).fetchone()
    if last is None or tuple(last) != ("added", played.number):
        raise Conflict(f"Round {played.number} is no longer this game’s last change: it can’t be undone.")


@remembered
def end_game(db, game_id, revision, *, loaded=None):
    """The table ends the game by hand."""
    with transaction(db):
        game = _game_for_change(db, game_id, revision, loaded)
        if game.finished and not game.is_open:
            return game
        after = dataclasses.replace(game, ended_by_hand=True)
        return _settled(
            db, game, after, round_number=None, action="ended", summary="Game ended by the table."
        )


@remembered
def reopen_game(db, game_id, revision, *, loaded=None):
    """Reopen a finished game to fix a round; saving a round settles it again."""
    with transaction(db):
        game = _game_for_change(db, game_id, revision, loaded)
        if game.is_open:
            return game
        stamp = now()
        revision = game.revision + 1
        db.execute(
            """UPDATE games SET revision = ?, updated_at = ?, ended_by_hand = 0,
                      finished_at = NULL WHERE id = ?""",
            [revision, stamp, game_id],
        )
        after = dataclasses.replace(
            game, ended_by_hand=False, finished_at=None, revision=revision, updated_at=stamp
        )
        write_totals(db, after)
        _log(db, game_id, revision, None, "reopened", "Game reopened.", stamp=stamp)
        return after


def new_share_token():
    """A share link's token: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def share_game(db, game_id, revision, *, loaded=None):
    """Give the game a new share link; the old one, if any, stops working. Return the game."""
    with transaction(db):
        game = _game_for_change(db, game_id, revision, loaded)
        if game.share_token is None:
            summary = "Share link made."
        else:
            summary = "New share link made: the old one no longer works."
        return _set_share_token(db, game, new_share_token(), "shared", summary)


def stop_sharing(db, game_id, revision, *, loaded=None):
    """Turn the game's share link off (unchanged if it has none). Return the game."""
    with transaction(db):
        game = _game_for_change(db, game_id, revision, loaded)
        if game.share_token is None:
            return game
        return _set_share_token(
            db, game, None, "unshared", "Sharing stopped: the share link no longer works."
        )


def _set_share_token(db, game, token, action, summary):
    stamp = now()
    revision = game.revision + 1
    db.execute(
        "UPDATE games SET share_token = ?, revision = ?, updated_at = ? WHERE id = ?",
        [token, revision, stamp, game.id],
    )
    _log(db, game.id, revision, None, action, summary, stamp=stamp)
    return dataclasses.replace(game, share_token=token, revision=revision, updated_at=stamp)


def recompute_scores(db):
    """Rewrite every stored round score and team total from the inputs with the engine,
    then the players' summaries from those; return how many round scores."""
    count = 0
    with transaction(db):
        for (game_id,) in db.execute("SELECT id FROM games").fetchall():
            game = load_game(db, game_id)
            _write_scores(db, game)
            _store_totals(db, game)
            count += len(game.rounds) * len(game.teams)
        summaries.rebuild(db)
    return count


# --- describing -----------------------------------------------------------------


def describe_changes(game, before, after):
    """What an edit changed, per team, for the change log."""
    changes = []
    for team, old, new in zip(game.teams, before, after):
        parts = [
            f"{game.rules.book_label(kind).lower()} {old.books.get(kind, 0)} → {new.books.get(kind, 0)}"
            for kind in game.rules.books
            if old.books.get(kind, 0) != new.books.get(kind, 0)
        ]
        for entry in entry_fields(game.rules):
            was, now_ = getattr(old, entry.name), getattr(new, entry.name)
            if was == now_:
                continue
            if entry.kind == "flag":
                parts.append(entry.log if now_ else f"no longer {entry.log}")
            else:
                parts.append(f"{entry.log} {was} → {now_}")
        if parts:
            changes.append(f"{team.name}: " + ", ".join(parts))
    return changes
