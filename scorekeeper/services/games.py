"""Every change to a game as a whole: starting one, ending, reopening, sharing it.

Each change is one write transaction, checked against the game's ``revision``
the phone saw, and adds one to it, with an entry in the game's change log
naming that revision. Making or stopping a game's share link is such a change
too. Its rounds are ``rounds.py`` (re-exported here: ``games.add_round``…);
what every change shares is ``changes.py``; the game itself, and reading it,
are in ``game_model``.
"""

from __future__ import annotations

import dataclasses
import secrets
import uuid

from ..names import clean_name, name_key
from ..scoring.language import N_, _
from ..storage.db import transaction
from . import Conflict, summaries
from .change_log import describe_changes, said
from .changes import game_for_change, log_change, now, settled, store_totals, write_scores, write_totals
from .evenings import clock, evening
from .game_model import PAPER_SHEET, SCORES_ONLY, load_game, remembered
from .players import player_id
from .rounds import add_round, add_rounds, delete_round, update_round

__all__ = [
    "add_round",
    "add_rounds",
    "change_played",
    "create_game",
    "delete_round",
    "describe_changes",
    "end_game",
    "insert_game",
    "new_share_token",
    "now",
    "recompute_scores",
    "reopen_game",
    "share_game",
    "stop_sharing",
    "update_round",
    "write_totals",
]


def create_game(db, rules, rules_key, teams, first_dealer=None, *, played_at=None, paper=None):
    """Start a game; return it.

    :param teams: (team name or "", [player names]) per team, in order
        (checked by the new-game form: names valid, nobody twice).
    :param first_dealer: a player's name, or None for team 1's first player.
    :param played_at: when it was played (UTC, ISO), if not now: a game played on
        paper and typed in later.
    :param paper: how it is kept, if not on a phone round by round
        (``game_model.PAPER_SHEET`` or ``SCORES_ONLY``).
    """
    with transaction(db):
        game_id = insert_game(db, rules, rules_key, teams, first_dealer, played_at=played_at, paper=paper)
        started = {
            PAPER_SHEET: N_("Game started under %(rules)s, on paper."),
            SCORES_ONLY: N_("Game started under %(rules)s, from paper with its scores only."),
        }.get(paper, N_("Game started under %(rules)s."))
        log_change(db, game_id, 0, None, "started", said(started, rules=rules.name))
        return load_game(db, game_id)


def insert_game(
    db,
    rules,
    rules_key,
    teams,
    first_dealer=None,
    *,
    uid=None,
    created_at=None,
    played_at=None,
    night=None,
    paper=None,
    importing=None,
):
    """Write a new game's rows (inside the caller's transaction); return its id.

    :param played_at: when it was played; when it was entered (``created_at``) if None.
    :param night: the night it was played, as an export kept it; if None, ``played_at``'s
        night on this computer's clock.
    :param importing: the import writing it, hidden: no summary counts it until the
        import publishes it (``exchange.importer``).
    """
    stamp = created_at or now()
    played = played_at or stamp
    night = night or evening(played)  # its night, kept: the clock's zone now, once
    game_id = db.execute(
        """INSERT INTO games (uid, rules, rules_key, rules_name, first_dealer, ended_by_hand,
                              finished_at, created_at, updated_at, revision, share_token,
                              played_at, paper, night, importing)
           VALUES (?, ?, ?, ?, NULL, 0, NULL, ?, ?, 0, ?, ?, ?, ?, ?)""",
        [
            uid or uuid.uuid4().hex,
            rules.to_json(),
            rules_key,
            rules.name,
            stamp,
            stamp,
            new_share_token(),
            played,
            paper,
            night,
            importing,
        ],
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
    if importing is None:
        summaries.started(db, game_id, played, night, seated)
    return game_id


# --- changing a game: each function is one transaction ----------------------------


@remembered
def end_game(db, game_id, revision, *, loaded=None):
    """The table ends the game by hand."""
    with transaction(db):
        game = game_for_change(db, game_id, revision, loaded)
        if game.finished and not game.is_open:
            return game
        after = dataclasses.replace(game, ended_by_hand=True)
        return settled(
            db, game, after, round_number=None, action="ended", summary=said(N_("Game ended by the table."))
        )


@remembered
def reopen_game(db, game_id, revision, *, loaded=None):
    """Reopen a finished game to fix a round; saving a round settles it again."""
    with transaction(db):
        game = game_for_change(db, game_id, revision, loaded)
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
        log_change(db, game_id, revision, None, "reopened", said(N_("Game reopened.")), stamp=stamp)
        return after


@remembered
def change_played(db, game_id, revision, played_at, *, loaded=None):
    """Correct when the game was played, as an audited change (like a round's fix): it
    moves to that night and year, and the ratings replay from the earlier of the two
    dates. A table of an evening of several tables stays on the evening's night.

    :param played_at: a stored time (UTC, ISO), no later than now (the caller checks).
    """
    with transaction(db):
        game = game_for_change(db, game_id, revision, loaded)
        if played_at == game.played_at:
            return game
        night = evening(played_at)
        seated = db.execute("SELECT night FROM evening_games WHERE game_id = ?", [game_id]).fetchone()
        if seated and night != seated[0]:
            raise Conflict(
                _(
                    "This game is a table of the evening of %(night)s: it stays on that night "
                    "(its time can change). Nothing was saved.",
                    night=seated[0],
                )
            )
        stamp = now()
        revision = game.revision + 1
        db.execute(
            "UPDATE games SET played_at = ?, night = ?, revision = ?, updated_at = ? WHERE id = ?",
            [played_at, night, revision, stamp, game_id],
        )
        after = dataclasses.replace(
            game, played_at=played_at, night=night, revision=revision, updated_at=stamp
        )
        vars(after)["standings"] = game.standings  # the rounds are as they were
        write_totals(db, after)  # its night, year and records move; the ratings replay from the earlier
        log_change(
            db,
            game_id,
            revision,
            None,
            "dated",
            said(
                N_("Date corrected: played %(played)s, not %(was)s."),
                played=clock(played_at),
                was=clock(game.played_at),
            ),
            {"played_at": game.played_at},
            {"played_at": played_at},
            stamp,
        )
        return after


def new_share_token():
    """A share link's token: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def share_game(db, game_id, revision, *, loaded=None):
    """Give the game a new share link; the old one, if any, stops working. Return the game."""
    with transaction(db):
        game = game_for_change(db, game_id, revision, loaded)
        if game.share_token is None:
            summary = said(N_("Share link made."))
        else:
            summary = said(N_("New share link made: the old one no longer works."))
        return _set_share_token(db, game, new_share_token(), "shared", summary)


def stop_sharing(db, game_id, revision, *, loaded=None):
    """Turn the game's share link off (unchanged if it has none). Return the game."""
    with transaction(db):
        game = game_for_change(db, game_id, revision, loaded)
        if game.share_token is None:
            return game
        return _set_share_token(
            db, game, None, "unshared", said(N_("Sharing stopped: the share link no longer works."))
        )


def _set_share_token(db, game, token, action, summary):
    stamp = now()
    revision = game.revision + 1
    db.execute(
        "UPDATE games SET share_token = ?, revision = ?, updated_at = ? WHERE id = ?",
        [token, revision, stamp, game.id],
    )
    log_change(db, game.id, revision, None, action, summary, stamp=stamp)
    return dataclasses.replace(game, share_token=token, revision=revision, updated_at=stamp)


def recompute_scores(db):
    """Rewrite every stored round score and team total from the inputs with the engine,
    then the players' summaries from those; return how many round scores."""
    count = 0
    with transaction(db):
        for (game_id,) in db.execute("SELECT id FROM games").fetchall():
            # an import's unpublished games and the deleted ones too (summaries.rebuild leaves them out)
            game = load_game(db, game_id, hidden=True, deleted=True)
            write_scores(db, game)
            store_totals(db, game)
            count += len(game.rounds) * len(game.teams)
        summaries.rebuild(db)
    return count
