"""A game's rounds: entering the next one, fixing one, deleting or undoing one.

Each is one write transaction checked against the game's ``revision`` the
phone saw (``changes.game_for_change``), logged in the game's change log.
"""

from __future__ import annotations

import dataclasses

from ..scoring.language import N_, _
from ..storage.db import transaction
from . import Conflict, NotFound
from .change_log import describe_changes, said
from .changes import INSERT_ENTRY, entry_rows, game_for_change, now, settled, write_scores
from .game_model import Round, remembered, with_round


def _must_be_open(game):
    if not game.is_open:
        raise Conflict(_("This game is finished: reopen it to change a round."))


@remembered
def add_round(db, game_id, revision, number, entries, *, loaded=None):
    """Save the next round, if the game is still as the phone saw it; return the game."""
    entries = tuple(entries)
    with transaction(db):
        game = game_for_change(db, game_id, revision, loaded)
        _must_be_open(game)
        if game.finished:
            raise Conflict(_("This game is finished: there is no next round to enter."))
        if number != game.standings.next_round:
            raise Conflict(_("Round %(number)s was already saved, on another phone perhaps.", number=number))
        after = _insert_round(db, game, number, entries, now())
        return settled(
            db,
            game,
            after,
            round_number=number,
            action="added",
            summary=said(N_("Round %(number)s entered."), number=number),
            log_after=[e.to_dict() for e in entries],
        )


@remembered
def add_rounds(db, game_id, revision, first, rounds, *, end=False, loaded=None, also=None):
    """Save rounds ``first``, ``first`` + 1… typed in from a paper sheet, all in one
    transaction (or none of them); with ``end``, the game ends after them (by hand,
    where its rules have not ended it). Return the game. ``also(db)`` is done in the
    same transaction once the rounds are in (a photo's digits kept as samples: ``hand.keep``).

    Each round as ``add_round`` saves it: refused after the rules ended the game, and
    kept as its scores alone exactly when the game is.
    """
    rounds = [tuple(entries) for entries in rounds]
    with transaction(db):
        game = game_for_change(db, game_id, revision, loaded)
        _must_be_open(game)
        if first != game.standings.next_round:
            raise Conflict(_("Round %(number)s was already saved, on another phone perhaps.", number=first))
        after = game
        stamp = now()
        for number, entries in enumerate(rounds, start=first):
            if after.finished:
                raise Conflict(
                    _(
                        "The rules ended this game after round %(number)s: nothing was saved.",
                        number=number - 1,
                    )
                )
            if any(e.scores_only != game.scores_only for e in entries):
                raise ValueError(
                    _(
                        "%(where)s: kept as its scores alone exactly when the game is",
                        where="round " + str(number),
                    )
                )
            after = _insert_round(db, after, number, entries, stamp)
        ended = end and not after.finished
        if ended:
            after = dataclasses.replace(after, ended_by_hand=True)
        last = first + len(rounds) - 1
        if last == first:
            typed = N_("Round %(first)s typed in from the paper sheet; game ended.") if ended else None
            typed = typed or N_("Round %(first)s typed in from the paper sheet.")
        else:
            typed = (
                N_("Rounds %(first)s–%(last)s typed in from the paper sheet; game ended.") if ended else None
            )
            typed = typed or N_("Rounds %(first)s–%(last)s typed in from the paper sheet.")
        if also is not None:
            also(db)
        return settled(
            db,
            game,
            after,
            round_number=None,
            action="typed",
            summary=said(typed, first=first, last=last),
            log_after=[[e.to_dict() for e in entries] for entries in rounds],
        )


def _insert_round(db, game, number, entries, stamp):
    """Write round ``number`` after the game's rounds, with the engine's scores (inside the
    caller's transaction); return the game with it (the engine scores this round alone)."""
    round_id = db.execute(
        "INSERT INTO rounds (game_id, number, created_at, updated_at) VALUES (?, ?, ?, ?)",
        [game.id, number, stamp, stamp],
    ).lastrowid
    after = with_round(game, Round(round_id, number, entries))
    db.conn.executemany(
        INSERT_ENTRY,
        entry_rows(round_id, [t.id for t in game.teams], entries, after.standings.round_scores[-1]),
    )
    return after


def _round_of(game, round_id):
    played = next((r for r in game.rounds if r.id == round_id), None)
    if played is None:
        raise NotFound(_("That round is no longer in this game."))
    return played


@remembered
def update_round(db, game_id, revision, round_id, entries, *, loaded=None):
    """Replace a round's entries; return the game (unchanged, and nothing written, if they are the same)."""
    entries = tuple(entries)
    with transaction(db):
        game = game_for_change(db, game_id, revision, loaded)
        _must_be_open(game)
        played = _round_of(game, round_id)
        if not describe_changes(game, played.entries, entries):
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
        return settled(
            db,
            game,
            after,
            round_number=played.number,
            action="edited",
            # worded from the entries before and after it (change_log.word)
            summary=said(N_("Round %(number)s edited: %(changes)s."), number=played.number),
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
        game = game_for_change(db, game_id, revision, loaded)
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
        write_scores(db, after, number)
        if later:
            message = (
                N_("Round %(number)s undone; rounds %(first)s–%(last)s moved up one.")
                if action == "undone"
                else N_("Round %(number)s deleted; rounds %(first)s–%(last)s moved up one.")
            )
        else:
            message = (
                N_("Round %(number)s undone.") if action == "undone" else N_("Round %(number)s deleted.")
            )
        summary = said(message, number=number, first=number + 1, last=number + len(later))
        return settled(
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
        raise Conflict(
            _(
                "Round %(number)s is no longer this game’s last change: it can’t be undone.",
                number=played.number,
            )
        )


# --- describing -----------------------------------------------------------------
