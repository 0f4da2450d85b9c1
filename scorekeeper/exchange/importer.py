"""Import a history export: check the whole file (``checking.py``), then write it in one transaction.

A file with anything wrong is refused whole with a message that names the
place ("games[3].rounds[2]…") and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import scoring
from ..db import transaction
from ..names import name_key
from ..scoring import RULESETS, RuleSet
from ..services import changes, game_model, games, rulesets
from ..services.players import player_id
from . import stamp_now
from .checking import check_history, read_history

__all__ = ["ImportSummary", "check_history", "import_history", "read_history", "write_checked"]


@dataclass
class ImportSummary:
    games_added: int = 0
    games_skipped: int = 0
    rounds_added: int = 0
    players_added: int = 0
    house_rules_added: int = 0
    house_rules_renamed: list = field(default_factory=list)  # (name in the file, name saved)

    def __str__(self):
        def count(n, one, many=None):
            return f"{n:,} {one if n == 1 else (many or one + 's')}"

        parts = [f"{count(self.games_added, 'game')} ({count(self.rounds_added, 'round')})"]
        if self.players_added:
            parts.append(count(self.players_added, "new player"))
        if self.house_rules_added:
            parts.append(count(self.house_rules_added, "set of house rules", "sets of house rules"))
        text = "Imported " + (
            " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]
        )
        if self.games_skipped:
            text += f"; {count(self.games_skipped, 'game was', 'games were')} already here"
        text += "."
        for old, new in self.house_rules_renamed:
            text += f" House rules “{old}” differ from yours of that name: saved as “{new}”."
        return text


def import_history(db, data, progress=None, checking=None):
    """Merge an export into the database; return an ``ImportSummary``.

    The whole file is checked first (``check_history``): anything wrong and
    nothing is written. Then one transaction: players matched by their name's
    key; house rules matched by name (identical ones skipped, different ones
    saved under a new name); games matched by uid (ones already here are
    skipped), with their rounds scored by the engine.

    :param progress: called as ``progress(games done, games in the file)`` as they are written.
    :param checking: the same, as they are checked first (see ``check_history``).
    :raises ValueError: the file is refused; the message says where.
    """
    players, house_rules, checked = check_history(data, checking)
    return write_checked(db, players, house_rules, checked, progress)


def write_checked(db, players, house_rules, checked, progress=None):
    """Write checked players, house rules and games (``check_history``'s, or a spreadsheet
    of past games') in one transaction; return an ``ImportSummary``."""
    summary = ImportSummary()
    # the ratings are replayed after the commit, from the earliest game added (ratings.changed)
    with transaction(db):
        (before,) = db.execute("SELECT COUNT(*) FROM players").fetchone()
        stamp = stamp_now()
        for name in players:
            player_id(db, name, stamp)
        keys = {name_key(rules.name): _merge_house_rules(db, rules, summary) for rules in house_rules}
        for done, game in enumerate(checked, start=1):
            if progress:
                progress(done, len(checked))
            if db.execute("SELECT 1 FROM games WHERE uid = ?", [game.uid]).fetchone():
                summary.games_skipped += 1
                continue
            key = keys[name_key(game.house_rules)] if game.house_rules else game.rules_key
            _write_game(db, game, key, stamp)
            summary.games_added += 1
            summary.rounds_added += len(game.rounds)
        summary.players_added = db.execute("SELECT COUNT(*) FROM players").fetchone()[0] - before
    return summary


def _merge_house_rules(db, rules, summary):
    """The key of saved house rules equal to these; saved (renamed if need be) when there are none."""
    name, n = rules.name, 1
    while True:
        taken = any(name_key(name) == name_key(preset.name) for preset in RULESETS.values())
        found = rulesets.find_house_rules(db, name)
        if found and found[1] == RuleSet.from_dict({**rules.to_dict(), "name": found[1].name}):
            return found[0]
        if not taken and not found:
            break
        n += 1
        suffix = " (imported)" if n == 2 else f" (imported {n - 1})"
        name = rules.name[: scoring.MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
    key = rulesets.insert_house_rules(db, RuleSet.from_dict({**rules.to_dict(), "name": name}))
    summary.house_rules_added += 1
    if name != rules.name:
        summary.house_rules_renamed.append((rules.name, name))
    return key


def _write_game(db, game, rules_key, stamp):
    """Write one checked game and its rounds with the engine's scores.

    Not ``games.add_round``: that refuses a round after the rules ended the
    game, which a reopened and edited game can hold, and logs each round as
    entered today.
    """
    game_id = games.insert_game(
        db,
        game.rules,
        rules_key,
        game.teams,
        game.first_dealer,
        uid=game.uid,
        created_at=game.created_at,
        played_at=game.played_at,
        paper=game.paper,
    )
    written = game_model.load_game(db, game_id)
    for number, (entries, scores) in enumerate(zip(game.rounds, game.standings.round_scores), start=1):
        round_id = db.execute(
            "INSERT INTO rounds (game_id, number, created_at, updated_at) VALUES (?, ?, ?, ?)",
            [game_id, number, stamp, stamp],
        ).lastrowid
        db.conn.executemany(
            changes.INSERT_ENTRY, changes.entry_rows(round_id, [t.id for t in written.teams], entries, scores)
        )
    db.execute(
        "UPDATE games SET ended_by_hand = ?, finished_at = ?, updated_at = ? WHERE id = ?",
        [int(game.ended_by_hand), game.finished_at, game.updated_at, game_id],
    )
    # each team's total and win, as every change to a game stores them (the
    # finish time is the file's: a reopened game is not stamped finished today)
    changes.write_totals(db, game_model.load_game(db, game_id))
    db.execute(
        """INSERT INTO revisions (game_id, revision, action, summary, created_at)
                  VALUES (?, 0, ?, ?, ?)""",
        [game_id, "imported", f"Game imported with {len(game.rounds)} rounds.", stamp],
    )
    return game_id
