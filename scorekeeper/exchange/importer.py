"""Import a history export: check the whole file (``checking.py``), then write it.

A file with anything wrong is refused whole with a message that names the
place ("games[3].rounds[2]…") and nothing is written.

A good file is written in short transactions, so that no other phone's Save waits on
an import of years of games (issue 42: 8,000 games held the write lock for over 10 s in
one transaction, and a Save waiting on it failed). The import is a mark (m015's
``imports``), as the ratings' catch-up is:

1. one transaction: the mark ("writing"), the players and house rules the file adds;
2. the games, ``BATCH`` a transaction, each written hidden (``games.importing``): no
   page, summary or export counts them yet;
3. one transaction: the mark says "publishing", the import's point of no return;
4. the games published, ``BATCH`` a transaction: shown, and counted in the summaries
   (``summaries.add_new``, ``records.add_new``, the ratings marked from the earliest);
   then the mark goes.

Between two of these, the phones waiting for the write lock go first
(``db.let_writers_in``). Should anything fail before step 3 (a full disk), the hidden
games and the players only they had are taken away again, and the import says so; should
the app stop midway, ``resume`` (at the next start, and before any import) undoes an
import still writing and finishes one publishing.

One import at a time (issue 54): an import holds the database's "import" lock
(``db.alone``: the operating system's, let go when its holder ends however it ends) from
its resume to its last step. A second import meanwhile (a double tap, another phone, the
command line) is refused at once (``ImportUnderWay``), and a resume finds only the marks
of imports whose writer is gone: it never publishes or undoes one still being written,
which counted every game of two imports at once twice in the summaries.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field

from .. import scoring
from ..names import clean_name, name_key
from ..scoring import RULESETS, RuleSet
from ..scoring.language import N_, _, ngettext
from ..scoring.words import join
from ..services import change_log, changes, colours, game_model, games, records, rulesets, summaries
from ..services.players import player_id
from ..storage.db import alone, let_writers_in, snapshot, transaction
from . import stamp_now
from .checking import check_file, check_history
from .reading import read_history

__all__ = [
    "ImportSummary",
    "ImportUnderWay",
    "check_file",
    "check_history",
    "import_file",
    "import_history",
    "read_history",
    "resume",
    "write_checked",
]

#: games a transaction writes, or publishes: a few tens of milliseconds of the write lock
BATCH = 25


class ImportUnderWay(ValueError):
    """Another import is being written into this database (a second tap, another phone,
    the command line): nothing was imported."""

    def __init__(self):
        super().__init__(
            _(
                "another import is being written right now (a second tap, another phone or "
                "the computer). Its games show once it is done; then import this file again "
                "if it holds more (games already here are skipped)."
            )
        )


@dataclass
class ImportSummary:
    games_added: int = 0
    games_skipped: int = 0
    rounds_added: int = 0
    players_added: int = 0
    house_rules_added: int = 0
    house_rules_renamed: list = field(default_factory=list)  # (name in the file, name saved)

    def __str__(self):
        games, rounds = self.games_added, self.rounds_added
        parts = [
            # Translators: "12 games (80 rounds)"
            _(
                "%(games)s (%(rounds)s)",
                games=ngettext("%(num)s game", "%(num)s games", games, num=format(games, ",")),
                rounds=ngettext("%(num)s round", "%(num)s rounds", rounds, num=format(rounds, ",")),
            )
        ]
        if self.players_added:
            n = self.players_added
            parts.append(ngettext("%(num)s new player", "%(num)s new players", n, num=format(n, ",")))
        if self.house_rules_added:
            n = self.house_rules_added
            parts.append(
                ngettext("%(num)s set of house rules", "%(num)s sets of house rules", n, num=format(n, ","))
            )
        added = join(parts, _("and"))
        if self.games_skipped:
            n = self.games_skipped
            skipped = ngettext("%(num)s game was", "%(num)s games were", n, num=format(n, ","))
            # Translators: "Imported 3 games (20 rounds); 2 games were already here."
            text = _("Imported %(added)s; %(skipped)s already here.", added=added, skipped=skipped)
        else:
            text = _("Imported %(added)s.", added=added)
        for old, new in self.house_rules_renamed:
            text += " " + _(
                "House rules “%(old)s” differ from yours of that name: saved as “%(new)s”.", old=old, new=new
            )
        return text


def import_history(db, data, progress=None, checking=None, turns=None):
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
    _not_under_way(db)
    players, house_rules, checked = check_history(data, checking)
    return write_checked(db, players, house_rules, checked, progress, turns)


def import_file(db, content, progress=None, checking=None, turns=None):
    """Merge an export file (its bytes, as uploaded) into the database, as ``import_history``
    does; the file is read and checked a part at a time (``check_file``: only what was
    checked is kept, and a file past a limit of ``limits.py`` is refused where it passes it).

    :raises ValueError: the file is refused; the message says where.
    """
    _not_under_way(db)
    players, house_rules, checked = check_file(content, checking)
    del content  # the file's bytes: the caller passed them on, and the checked games are what is written
    return write_checked(db, players, house_rules, checked, progress, turns)


def _not_under_way(db):
    """Refuse at once while another import is being written, before a file is checked (a
    second tap on a history of years would spend seconds of the first one's interpreter on
    a check that ends refused). Only a first look: ``write_checked`` decides, holding the lock."""
    with alone(db, "import") as held:
        if not held:
            raise ImportUnderWay()


def write_checked(db, players, house_rules, checked, progress=None, turns=None):
    """Write checked players, house rules and games (``check_history``'s, or a spreadsheet
    of past games) in short transactions (see the module); return an ``ImportSummary``.

    :param turns: called between two transactions to let waiting writers in
        (``db.let_writers_in``, which knows this process's; the command line, another
        process, gives a short pause instead).
    :raises ImportUnderWay: another import is being written: nothing was.
    """
    turns = turns or let_writers_in
    with alone(db, "import") as held:
        if not held:
            raise ImportUnderWay()
        _resume(db, turns)  # what a stop left: no other import is alive now
        return _write(db, players, house_rules, checked, progress, turns)


def _write(db, players, house_rules, checked, progress, turns):
    """``write_checked``'s steps, holding the import lock."""
    summary = ImportSummary()
    stamp = stamp_now()
    # every name once (a family of a dozen plays thousands of games): a short transaction
    names = {name_key(clean_name(n)): n for n in players}
    for game in checked:
        for _name, members in game.teams:
            names.update(
                (name_key(clean_name(n)), n) for n in members if name_key(clean_name(n)) not in names
            )
    with transaction(db):
        known = {row[0] for row in db.execute("SELECT id FROM players")}
        give = colours.giver(
            db, getattr(players, "colours", None)
        )  # the file's (version 6), else the least used
        for name in names.values():
            player_id(db, name, stamp, lambda name=name: give(name))
        added = [row[0] for row in db.execute("SELECT id FROM players") if row[0] not in known]
        summary.players_added = len(added)
        keys = {name_key(rules.name): _merge_house_rules(db, rules, summary) for rules in house_rules}
        mark = db.execute(
            "INSERT INTO imports (state, started_at, players) VALUES ('writing', ?, ?)",
            [stamp, json.dumps(added)],
        ).lastrowid
    made = {}  # game id -> (its summaries' rows, its records' row), for publishing it
    try:
        for start in range(0, len(checked), BATCH):
            batch = checked[start : start + BATCH]
            scored = [game.scored() for game in batch]  # the engine's work, outside the write lock
            turns()
            with transaction(db):
                for done, (game, standings) in enumerate(zip(batch, scored), start=start + 1):
                    if progress:
                        progress(done, len(checked))
                    if db.execute("SELECT 1 FROM games WHERE uid = ?", [game.uid]).fetchone():
                        summary.games_skipped += 1
                        continue
                    key = keys[name_key(game.house_rules)] if game.house_rules else game.rules_key
                    written = _write_game(db, game, standings, key, stamp, mark)
                    made[written.id] = (summaries.rows_for(written), records.facts_of(written))
                    summary.games_added += 1
                    summary.rounds_added += len(game.rounds)
        turns()
        with transaction(db):
            db.execute("UPDATE imports SET state = 'publishing' WHERE id = ?", [mark])
    except BaseException:
        with contextlib.suppress(Exception):  # else the next start (or import) undoes it
            _undo(db, mark, turns)
        raise
    _publish(db, mark, turns, made)
    return summary


def resume(db, turns=None):
    """Finish what an import cut off by a stop of the app left: undo one still writing
    (its hidden games, and the players only they had), publish one that was publishing.
    While an import is being written (another thread, the command line) nothing is done:
    its marks are its own, and it finishes them; a mark whose writer is gone is what is left.
    """
    with alone(db, "import") as held:
        if held:
            _resume(db, turns or let_writers_in)


def _resume(db, turns):
    """``resume``'s work, holding the import lock: every mark is one whose writer is gone."""
    for mark, state in db.execute("SELECT id, state FROM imports ORDER BY id").fetchall():
        if state == "publishing":
            _publish(db, mark, turns)
        else:
            _undo(db, mark, turns)


def _publish(db, mark, turns, made=None):
    """Show and count the import's games, ``BATCH`` a transaction; then remove its mark.

    :param made: {game id: (its summaries' rows, its records' row)} as the import made
        them; a game not in it (an import the app's stop cut off) is read and scored again.
    """
    made = made or {}
    while True:
        with snapshot(db):  # read, and their summaries made, outside the write lock
            ids = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM games WHERE importing = ? ORDER BY id LIMIT ?", [mark, BATCH]
                )
            ]
            for game_id in ids:
                if game_id not in made:
                    game = game_model.load_game(db, game_id, hidden=True)
                    made[game_id] = (summaries.rows_for(game), records.facts_of(game))
        rows = [row for game_id in ids for row in made[game_id][0]]
        facts = [made[game_id][1] for game_id in ids]
        turns()
        with transaction(db):
            if not ids:
                db.execute("DELETE FROM imports WHERE id = ?", [mark])
                return
            # nothing else changes a hidden game: they are as read
            db.conn.executemany("UPDATE games SET importing = NULL WHERE id = ?", [(i,) for i in ids])
            summaries.add_new(db, rows)
            records.add_new(db, facts)


def _undo(db, mark, turns):
    """Take an import that did not reach "publishing" away again, ``BATCH`` games a
    transaction: its hidden games, then the players it added that play in no other game."""
    while True:
        turns()
        with transaction(db):
            ids = [
                (row[0],)
                for row in db.execute("SELECT id FROM games WHERE importing = ? LIMIT ?", [mark, BATCH])
            ]
            if not ids:
                (added,) = db.execute("SELECT players FROM imports WHERE id = ?", [mark]).fetchone()
                db.conn.executemany(
                    """DELETE FROM players WHERE id = ?
                       AND NOT EXISTS (SELECT 1 FROM team_players WHERE player_id = players.id)""",
                    [(p,) for p in json.loads(added)],
                )
                db.execute("DELETE FROM imports WHERE id = ?", [mark])
                return
            for statement in (
                "DELETE FROM round_entries WHERE round_id IN (SELECT id FROM rounds WHERE game_id = ?)",
                "DELETE FROM rounds WHERE game_id = ?",
                "DELETE FROM team_players WHERE team_id IN (SELECT id FROM teams WHERE game_id = ?)",
                "DELETE FROM teams WHERE game_id = ?",
                "DELETE FROM revisions WHERE game_id = ?",
                "DELETE FROM games WHERE id = ?",
            ):
                db.conn.executemany(statement, ids)


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


def _write_game(db, game, standings, rules_key, stamp, mark):
    """Write one checked game and its rounds with the engine's scores (``standings``, its
    ``scored()``), hidden (by the import ``mark``) until the import publishes it.

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
        night=game.night,
        paper=game.paper,
        importing=mark,
    )
    written = game_model.load_game(db, game_id, hidden=True)
    for number, (entries, scores) in enumerate(zip(game.rounds, standings.round_scores), start=1):
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
    # finish time is the file's: a reopened game is not stamped finished today); its
    # summaries come when the import publishes it
    written = game_model.load_game(db, game_id, hidden=True)
    vars(written)["standings"] = standings  # the engine's, made again as it is written (``scored``)
    changes.store_totals(db, written)
    imported = change_log.said(
        N_("Game imported with %(count)s rounds.")
        if len(game.rounds) != 1
        else N_("Game imported with %(count)s round."),
        count=len(game.rounds),
    )
    changes.log_change(db, game_id, 0, None, "imported", imported, stamp=stamp)
    return written
