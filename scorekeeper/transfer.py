"""Export, import, backup and restore: the family's history is theirs to keep.

- **Export** writes the *inputs* of every game (rules, teams, rounds as
  entered) in one versioned JSON format (docs/export-format.md), or a CSV of
  one row per team per round whose scores are the engine's
  (``scoring.standings``), never a sum of stored scores.
- **Import** reads that JSON back. The whole file is checked first (the
  engine judges every rule set and round); a file with anything wrong is
  refused with a message that names the place ("games[3].rounds[2]…") and
  nothing is written. Otherwise everything is written in one transaction,
  merged by game uid, so importing a file twice adds nothing.
- **Backup and restore** copy the SQLite file with SQLite's backup API, which
  gives a consistent copy while the app is writing.

Plain functions on a db (or on file paths), then the CLI commands.
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import io
import json
import os
import re
import secrets
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from . import games, rulesets, scoring
from .db import connect, migrate
from .migrations import migrations
from .scoring import RULESETS, RuleSet, TeamRound

FORMAT = "scorekeeper-history"
VERSION = 1

MAX_TEAMS = 4
MAX_PLAYERS_PER_TEAM = 3
MAX_ROUNDS = scoring.MAX_ROUNDS * 10  # the engine's own bound on a round number
MAX_TEAM_NAME = games.MAX_NAME * MAX_PLAYERS_PER_TEAM + 6  # "A & B & C" when a team has no name
MAX_POINTS = 100_000  # the round form's bounds
MAX_COUNT = 99
_UID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_ENTRY_KEYS = frozenset(f.name for f in TeamRound.__dataclass_fields__.values())


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


# --- export -------------------------------------------------------------------------


@contextlib.contextmanager
def _snapshot(db):
    """Read everything in one transaction, so a round saved meanwhile is all in or all out."""
    if db.conn.in_transaction:
        yield
        return
    db.execute("BEGIN")
    try:
        yield
    finally:
        db.execute("ROLLBACK")  # nothing was written: ending the read is all this does


def _game_ids(db, game_id=None):
    if game_id is not None:
        return [row[0] for row in db.execute("SELECT id FROM games WHERE id = ?", [game_id])]
    return [row[0] for row in db.execute("SELECT id FROM games ORDER BY created_at, id")]


def _house_rules(db):
    """{house-rules key: name} for the saved house rules."""
    return {f"house-{row[0]}": row[1] for row in db.execute("SELECT id, name FROM house_rules")}


def _header(db):
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _now(),
        "players": [row[0] for row in db.execute("SELECT name FROM players ORDER BY name COLLATE NOCASE, id")],
        "house_rules": [RuleSet.from_json(row[0]).to_dict() for row in db.execute(
            "SELECT rules FROM house_rules ORDER BY name COLLATE NOCASE, id")],
    }


def game_record(game, house_rules_names):
    """One game in the export format: its inputs, and the engine's round scores for reading.

    :param house_rules_names: {house-rules key: name}, to name the saved
        rules a game was started from (keys are ids, which differ between databases).
    """
    key = game.rules_key
    dealer = next((p.name for team in game.teams for p in team.players if p.id == game.first_dealer), None)
    scores = game.standings.round_scores
    return {
        "uid": game.uid,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "finished_at": game.finished_at,
        "ended_by_hand": game.ended_by_hand,
        "rules_key": key if key in RULESETS else None,
        "house_rules": house_rules_names.get(key),
        "rules": game.rules.to_dict(),
        "teams": [{"name": team.name, "players": [p.name for p in team.players]} for team in game.teams],
        "first_dealer": dealer,
        "rounds": [{"number": played.number,
                    "entries": [entry.to_dict() for entry in played.entries],
                    "scores": [int(score) for score in scores[i]]}
                   for i, played in enumerate(game.rounds)],
    }


def export_history(db):
    """The whole history as one dict in the export format (see ``iter_history_json`` for large ones)."""
    with _snapshot(db):
        names = _house_rules(db)
        return {**_header(db),
                "games": [game_record(games.load_game(db, i), names) for i in _game_ids(db)]}


def export_game(db, game_id):
    """One game in the export format, with its players and house rules: importable
    like the whole history (and merged the same way, by the game's uid)."""
    with _snapshot(db):
        game = games.load_game(db, game_id)
        names = _house_rules(db)
        used = names.get(game.rules_key)
        return {
            "format": FORMAT, "version": VERSION, "exported_at": _now(),
            "players": sorted({p.name for team in game.teams for p in team.players}, key=str.casefold),
            "house_rules": [RuleSet.from_json(row[0]).to_dict() for row in db.execute(
                "SELECT rules FROM house_rules WHERE name = ?", [used])] if used else [],
            "games": [game_record(game, names)],
        }


def iter_history_json(db):
    """The export as JSON text, a game at a time, so memory stays flat however long the history."""
    with _snapshot(db):
        names = _house_rules(db)
        header = json.dumps(_header(db), ensure_ascii=False)
        yield header[:-1] + ', "games": ['
        for n, game_id in enumerate(_game_ids(db)):
            record = game_record(games.load_game(db, game_id), names)
            yield ("," if n else "") + "\n" + json.dumps(record, ensure_ascii=False)
        yield "\n]}\n"


# Cells a spreadsheet would run as a formula start with one of these (OWASP's list).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A value as a CSV cell: numbers stay numbers; text that a spreadsheet
    would run as a formula gets a leading ' so it shows as typed."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _book_kinds(db, game_id=None):
    """Every kind of book the games' rules score: clean and dirty, then the rest as first seen."""
    where, params = ("WHERE id = ?", [game_id]) if game_id is not None else ("", [])
    kinds = {"clean": None, "dirty": None}
    for (rules,) in db.execute(f"SELECT rules FROM games {where} GROUP BY rules ORDER BY MIN(id)", params):
        kinds.update(dict.fromkeys(json.loads(rules).get("books", {})))
    return list(kinds)


CSV_ENTRY_COLUMNS = ("melded_points", "unplayed_points", "red_threes", "black_threes",
                     "red_threes_melded", "went_out", "cuts", "penalties")


def iter_csv(db, game_id=None):
    """CSV lines: one row per team per round, with the engine's round score and running total."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(cells):
        writer.writerow([csv_cell(c) for c in cells])
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    with _snapshot(db):
        kinds = _book_kinds(db, game_id)
        yield line(["game", "date", "rules", "round", "team_position", "team", "players",
                    *(f"books_{kind}" for kind in kinds), *CSV_ENTRY_COLUMNS, "round_score", "total"])
        for gid in _game_ids(db, game_id):
            game = games.load_game(db, gid)
            result = game.standings
            for i, played in enumerate(game.rounds):
                for position, (team, entry) in enumerate(zip(game.teams, played.entries)):
                    books = [entry.books.get(kind, 0) if kind in game.rules.books else None
                             for kind in kinds]
                    yield line([game.uid, game.created_at[:10], game.rules.name, played.number,
                                position + 1, team.name, " & ".join(p.name for p in team.players),
                                *books, *(getattr(entry, name) for name in CSV_ENTRY_COLUMNS),
                                int(result.round_scores[i][position]),
                                result.running_totals[i][position]])


def export_csv(db, game_id=None):
    """The history (or one game) as CSV text; see ``iter_csv``."""
    return "".join(iter_csv(db, game_id))


# --- import: read, check everything, then write it all in one transaction ------------


def read_history(content):
    """Parse an export file's bytes or text; ``ValueError`` if it is not JSON."""
    try:
        return json.loads(content)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"not a JSON file ({error})") from None
    except RecursionError:
        raise ValueError("not a Scorekeeper export (nested too deeply)") from None


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
        text = "Imported " + (" and ".join(parts) if len(parts) < 3 else
                              ", ".join(parts[:-1]) + " and " + parts[-1])
        if self.games_skipped:
            text += f"; {count(self.games_skipped, 'game was', 'games were')} already here"
        text += "."
        for old, new in self.house_rules_renamed:
            text += f" House rules “{old}” differ from yours of that name: saved as “{new}”."
        return text


@dataclass
class _Game:
    """A checked game, ready to write."""

    uid: str
    created_at: str
    updated_at: str
    finished_at: str | None
    ended_by_hand: bool
    rules_key: str | None
    house_rules: str | None  # the name in the file
    rules: RuleSet
    teams: list  # (name, [players])
    first_dealer: str | None
    rounds: list  # [TeamRound per team] per round
    standings: scoring.Standings  # the engine's, whose round scores are stored


def _fail(where, message):
    raise ValueError(f"{where}: {message}")


def _object(value, where, required, optional=()):
    if not isinstance(value, Mapping):
        _fail(where or "file", f"must be an object, not {_short(value)}")
    for key in value:
        if key not in required and key not in optional:
            _fail(f"{where}.{key}" if where else key, "not a field of this format "
                  f"(version {VERSION} has {', '.join((*required, *optional))})")
    for key in required:
        if key not in value:
            _fail(f"{where}.{key}" if where else key, "missing")
    return value


def _list(value, where, *, low=0, high=None):
    if not isinstance(value, list):
        _fail(where, f"must be a list, not {_short(value)}")
    if len(value) < low:
        _fail(where, f"needs at least {low} {'entry' if low == 1 else 'entries'}")
    if high is not None and len(value) > high:
        _fail(where, f"at most {high} entries, not {len(value)}")
    return value


def _short(value):
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, (set, tuple)) else repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _player_name(value, where):
    name = games.clean_name(value) if isinstance(value, str) else ""
    if not name:
        _fail(where, f"a player's name must be a non-empty text, not {_short(value)}")
    if len(name) > games.MAX_NAME:
        _fail(where, f"a name has at most {games.MAX_NAME} characters")
    return name


def _timestamp(value, where, *, optional=False):
    if value is None and optional:
        return None
    try:
        datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        _fail(where, f"must be a date and time like 2024-05-01T19:30:00+00:00, not {_short(value)}")
    return value


def _rules(value, where):
    try:
        return RuleSet.from_dict(value)
    except ValueError as error:
        # the engine names the field ("card_values.K: …"): put it under this rule set's place
        path, _, detail = str(error).partition(": ")
        raise ValueError(f"{where}: {detail}" if path == "house rules" else f"{where}.{path}: {detail}") from None


def check_history(data):
    """Check a whole export; return (players, house rules, games) ready to write.

    :raises ValueError: the first problem, starting with where it is
        ("games[3].rounds[2].entries[1].melded_points: …"; lists count from 0).
    """
    _object(data, "", ("format", "version", "players", "house_rules", "games"), ("exported_at",))
    if data["format"] != FORMAT:
        _fail("format", f"must be “{FORMAT}”: this is not a Scorekeeper export")
    version = data["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        _fail("version", f"must be a whole number, not {_short(version)}")
    if version != VERSION:
        _fail("version", f"this Scorekeeper reads version {VERSION} files; this file is version {version}"
              + (" (update Scorekeeper to import it)" if version > VERSION else ""))

    players, seen = [], {}
    for i, value in enumerate(_list(data["players"], "players")):
        name = _player_name(value, f"players[{i}]")
        if name.casefold() in seen:
            _fail(f"players[{i}]", f"“{name}” is listed twice (players[{seen[name.casefold()]}]; "
                  "names are matched regardless of case)")
        seen[name.casefold()] = i
        players.append(name)

    house_rules, seen = [], {}
    for i, value in enumerate(_list(data["house_rules"], "house_rules")):
        rules = _rules(value, f"house_rules[{i}]")
        if rules.name.casefold() in seen:
            _fail(f"house_rules[{i}].name", f"“{rules.name}” is listed twice "
                  f"(house_rules[{seen[rules.name.casefold()]}])")
        seen[rules.name.casefold()] = i
        house_rules.append(rules)

    checked, uids = [], {}
    for i, value in enumerate(_list(data["games"], "games")):
        game = _check_game(value, f"games[{i}]", seen)
        if game.uid in uids:
            _fail(f"games[{i}].uid", f"the same game as games[{uids[game.uid]}]")
        uids[game.uid] = i
        checked.append(game)
    return players, house_rules, checked


def _check_game(value, where, house_rules_names):
    _object(value, where, ("uid", "created_at", "finished_at", "ended_by_hand", "rules_key", "rules",
                           "teams", "first_dealer", "rounds"), ("updated_at", "house_rules"))
    uid = value["uid"]
    if not isinstance(uid, str) or not _UID.fullmatch(uid):
        _fail(f"{where}.uid", f"must be 1 to 64 letters, digits, - or _, not {_short(uid)}")
    created_at = _timestamp(value["created_at"], f"{where}.created_at")
    updated_at = _timestamp(value.get("updated_at", created_at), f"{where}.updated_at")
    finished_at = _timestamp(value["finished_at"], f"{where}.finished_at", optional=True)
    ended = value["ended_by_hand"]
    if not isinstance(ended, bool):
        _fail(f"{where}.ended_by_hand", f"must be true or false, not {_short(ended)}")
    key = value["rules_key"]
    if key is not None and key not in RULESETS:
        _fail(f"{where}.rules_key", f"must be null or a written rule set's key "
              f"({', '.join(RULESETS)}), not {_short(key)}")
    house = value.get("house_rules")
    if house is not None and (not isinstance(house, str) or house.casefold() not in house_rules_names):
        _fail(f"{where}.house_rules", f"{_short(house)} is not the name of any house rules in this file")
    rules = _rules(value["rules"], f"{where}.rules")

    teams, names = [], {}
    for t, team in enumerate(_list(value["teams"], f"{where}.teams", low=2, high=MAX_TEAMS)):
        at = f"{where}.teams[{t}]"
        _object(team, at, ("name", "players"))
        if not isinstance(team["name"], str) or len(games.clean_name(team["name"])) > MAX_TEAM_NAME:
            _fail(f"{at}.name", f"must be a text of at most {MAX_TEAM_NAME} characters")
        members = []
        for p, player in enumerate(_list(team["players"], f"{at}.players", low=1, high=MAX_PLAYERS_PER_TEAM)):
            name = _player_name(player, f"{at}.players[{p}]")
            if name.casefold() in names:
                _fail(f"{at}.players[{p}]", f"“{name}” already plays in this game ({names[name.casefold()]})")
            names[name.casefold()] = f"{where}.teams[{t}].players[{p}]"
            members.append(name)
        teams.append((team["name"], members))

    dealer = value["first_dealer"]
    if dealer is not None and (not isinstance(dealer, str)
                               or games.clean_name(dealer).casefold() not in names):
        _fail(f"{where}.first_dealer", f"must be null or one of this game's players, not {_short(dealer)}")

    team_names = [games.clean_name(name) or " & ".join(members) for name, members in teams]
    rounds = []
    for r, played in enumerate(_list(value["rounds"], f"{where}.rounds", high=MAX_ROUNDS)):
        at = f"{where}.rounds[{r}]"
        _object(played, at, ("number", "entries"), ("scores",))  # scores: the engine's, for reading only
        number = played["number"]
        if isinstance(number, bool) or not isinstance(number, int) or number != r + 1:
            _fail(f"{at}.number", f"rounds are numbered 1, 2, 3…: expected {r + 1}, "
                  f"not {_short(played['number'])}")
        entries = _list(played["entries"], f"{at}.entries")
        if len(entries) != len(teams):
            _fail(f"{at}.entries", f"{len(entries)} entries for a game of {len(teams)} teams")
        rounds.append(_check_round(rules, entries, r + 1, at, team_names))

    try:
        result = scoring.standings(rules, rounds, teams=len(teams), ended=ended)
    except ValueError as error:  # totals beyond what the engine takes
        _fail(f"{where}.rounds", str(error))
    if finished_at is not None and not result.finished:
        _fail(f"{where}.finished_at", "the game is marked finished, but its rules and rounds say it "
              "is still going (and ended_by_hand is false)")
    return _Game(uid, created_at, updated_at, finished_at, ended, key, house, rules, teams,
                 dealer, rounds, result)


def _check_round(rules, entries, number, where, team_names):
    """The round's TeamRounds, or ValueError with the engine's first error."""
    round_entries = []
    for e, entry in enumerate(entries):
        at = f"{where}.entries[{e}]"
        _object(entry, at, (), tuple(sorted(_ENTRY_KEYS)))
        # no more than the round form takes: a value no table could reach is a damaged file
        values = [(name, entry.get(name)) for name in _ENTRY_KEYS - {"books", "went_out"}]
        if isinstance(entry.get("books"), Mapping):
            values += [(f"books.{kind}", count) for kind, count in entry["books"].items()]
        for name, value in values:
            high = MAX_POINTS if name.endswith("_points") else MAX_COUNT
            if isinstance(value, int) and value > high:
                _fail(f"{at}.{name}", f"at most {high:,}, not {value:,}")
        round_entries.append(TeamRound.from_dict(entry))
    for problem in scoring.check_round(rules, round_entries, number, team_names=team_names):
        if problem.level != "error":
            continue  # a warning was seen (and accepted) when the round was saved
        at = f"{where}.entries[{problem.team}]" if problem.team is not None else where
        _fail(f"{at}.{problem.field}" if problem.field else at, problem.message)
    return round_entries


def import_history(db, data):
    """Merge an export into the database; return an ``ImportSummary``.

    The whole file is checked first (``check_history``): anything wrong and
    nothing is written. Then one transaction: players matched by name in
    any case; house rules matched by name (identical ones skipped, different
    ones saved under a new name); games matched by uid (ones already here are
    skipped), with their rounds scored by the engine.

    :raises ValueError: the file is refused; the message says where.
    """
    players, house_rules, checked = check_history(data)
    summary = ImportSummary()
    with db.atomic():
        # a no-op write first takes SQLite's write lock, so the checks below stay true
        db.execute("UPDATE games SET id = id WHERE 0")
        for name in players:
            if games.player_by_name(db, name) is None:
                db["players"].insert({"name": name, "created_at": _now()})
                summary.players_added += 1
        keys = {rules.name.casefold(): _merge_house_rules(db, rules, summary) for rules in house_rules}
        before = db.execute("SELECT COUNT(*) FROM players").fetchone()[0]
        for game in checked:
            if db.execute("SELECT 1 FROM games WHERE uid = ?", [game.uid]).fetchone():
                summary.games_skipped += 1
                continue
            key = keys[game.house_rules.casefold()] if game.house_rules else game.rules_key
            _write_game(db, game, key)
            summary.games_added += 1
            summary.rounds_added += len(game.rounds)
        summary.players_added += db.execute("SELECT COUNT(*) FROM players").fetchone()[0] - before
    return summary


def _merge_house_rules(db, rules, summary):
    """The key of saved house rules equal to these; saved (renamed if need be) when there are none."""
    values = {**rules.to_dict(), "name": None}
    name, n = rules.name, 1
    while True:
        taken = any(name.casefold() == preset.name.casefold() for preset in RULESETS.values())
        row = db.execute("SELECT id, rules FROM house_rules WHERE name = ? COLLATE NOCASE", [name]).fetchone()
        if row and {**RuleSet.from_json(row[1]).to_dict(), "name": None} == values:
            return f"house-{row[0]}"
        if not taken and not row:
            break
        n += 1
        suffix = " (imported)" if n == 2 else f" (imported {n - 1})"
        name = rules.name[:scoring.MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
    key = rulesets.save_house_rules(db, RuleSet.from_dict({**rules.to_dict(), "name": name}))
    summary.house_rules_added += 1
    if name != rules.name:
        summary.house_rules_renamed.append((rules.name, name))
    return key


def _write_game(db, game, rules_key):
    """Write one checked game: ``games.create_game``, then its rounds with the engine's scores.

    Not ``games.add_round``: that refuses a round after the rules ended the
    game, which a reopened and edited game can hold, and logs each round as
    entered today. Plain SQL below, as sqlite-utils' inserts look the table
    up each time and an import can hold thousands of games.
    """
    game_id = games.create_game(db, game.rules, rules_key, game.teams, game.first_dealer,
                                uid=game.uid, created_at=game.created_at)
    team_ids = [row[0] for row in db.execute(
        "SELECT id FROM teams WHERE game_id = ? ORDER BY position", [game_id])]
    now = _now()
    columns = list(games.entry_row(0, 0, TeamRound(), 0))
    insert_entry = (f"INSERT INTO round_entries ({', '.join(columns)}) "
                    f"VALUES ({', '.join(':' + c for c in columns)})")
    for number, (entries, scores) in enumerate(zip(game.rounds, game.standings.round_scores), start=1):
        round_id = db.execute(
            "INSERT INTO rounds (game_id, number, version, created_at, updated_at) VALUES (?, ?, 1, ?, ?)",
            [game_id, number, now, now]).lastrowid
        db.conn.executemany(insert_entry, [games.entry_row(round_id, team_id, entry, score)
                                           for team_id, entry, score in zip(team_ids, entries, scores)])
    db.execute("UPDATE games SET ended_by_hand = ?, finished_at = ?, updated_at = ? WHERE id = ?",
               [int(game.ended_by_hand), game.finished_at, game.updated_at, game_id])
    # each team's total and win, for the history pages, as every change to a game stores them
    # (not games._settle: it would stamp a reopened game finished today)
    games.write_totals(db, games.load_game(db, game_id))
    db.execute("INSERT INTO revisions (game_id, action, summary, created_at) VALUES (?, ?, ?, ?)",
               [game_id, "imported", f"Game imported with {len(game.rounds)} rounds.", now])
    return game_id


# --- backup and restore --------------------------------------------------------------


def _read_only(path):
    """A connection that can neither change nor create the file."""
    return sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)


def backup_database(source, target, *, force=False):
    """Copy the database at ``source`` to ``target`` consistently, even while the app writes.

    SQLite's backup API copies every page in one step under a read
    transaction, so the copy is the database as it was at one moment. It is
    written beside the target and renamed into place, so a failed backup
    never leaves half a file where a good one was.

    :raises FileExistsError: ``target`` exists and ``force`` is false.
    """
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise FileNotFoundError(f"{source}: no database there")
    if target.exists() and not force:
        raise FileExistsError(f"{target} already exists (use --force to replace it)")
    if target.exists() and target.resolve() == source.resolve():
        raise ValueError(f"{target} is the database itself")
    partial = target.with_name(f"{target.name}.partial-{secrets.token_hex(4)}")
    try:
        with contextlib.closing(_read_only(source)) as src, \
                contextlib.closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
            # a backup is one self-contained file: no -wal beside it
            dst.execute("PRAGMA journal_mode = DELETE")
            result = dst.execute("PRAGMA integrity_check").fetchall()
        if result != [("ok",)]:
            raise ValueError(f"the copy failed its integrity check: {result[:3]}")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def check_database(path):
    """Check that ``path`` is a sound Scorekeeper database; return its applied migrations.

    :raises ValueError: not SQLite, damaged, not Scorekeeper's, or newer than this app.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    try:
        with contextlib.closing(_read_only(path)) as conn:
            result = conn.execute("PRAGMA integrity_check").fetchall()
            if result != [("ok",)]:
                raise ValueError(f"{path}: the database is damaged "
                                 f"(integrity check: {'; '.join(r[0] for r in result[:3])})")
            if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                [migrations.migrations_table]).fetchone():
                raise ValueError(f"{path}: not a Scorekeeper database (it has no "
                                 f"{migrations.migrations_table} table)")
            applied = [row[0] for row in conn.execute(
                f"SELECT name FROM {migrations.migrations_table} WHERE migration_set = ?",
                [migrations.name])]
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error):
            raise ValueError(f"{path}: not a SQLite database ({error})") from None
        raise ValueError(f"{path}: the database is damaged ({error})") from None
    if not applied:
        raise ValueError(f"{path}: not a Scorekeeper database (no Scorekeeper migrations in it)")
    known = {m.name for m in migrations._migrations}  # sqlite-utils has no public list of them
    newer = [name for name in applied if name not in known]
    if newer:
        raise ValueError(f"{path}: made by a newer Scorekeeper (it has {', '.join(newer)}); "
                         "update Scorekeeper before restoring it")
    return applied


def restore_database(backup, live):
    """Replace the database at ``live`` with the backup; return where the old one was kept.

    The backup is checked first; the current database is copied to
    ``<live>.before-restore-<UTC time>``; then the backup API writes the
    backup into the live file (so connections the app holds see the restored
    data, with no file swapped under them), and pending migrations are applied.
    """
    backup, live = Path(backup), Path(live)
    check_database(backup)
    if live.exists() and live.resolve() == backup.resolve():
        raise ValueError(f"{backup} is the database itself")
    kept = None
    if live.exists():
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        kept = live.with_name(f"{live.name}.before-restore-{stamp}")
        n = 1
        while kept.exists():
            n += 1
            kept = live.with_name(f"{live.name}.before-restore-{stamp}-{n}")
        backup_database(live, kept)
    with contextlib.closing(_read_only(backup)) as src, contextlib.closing(sqlite3.connect(live)) as dst:
        src.backup(dst)
    migrate(live)
    return kept


# --- the CLI ---------------------------------------------------------------------------


def _database():
    return current_app.config["DATABASE"]


@click.command("export")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--force", is_flag=True, help="Replace PATH if it exists.")
def export_command(path, force):
    """Export the whole history to PATH: CSV if it ends in .csv, else JSON (- for stdout)."""
    chunks = iter_csv if path.lower().endswith(".csv") else iter_history_json
    db = connect(_database())
    try:
        if path == "-":
            for chunk in chunks(db):
                click.echo(chunk, nl=False)
            return
        if os.path.exists(path) and not force:
            raise click.ClickException(f"{path} already exists (use --force to replace it)")
        partial = f"{path}.partial-{secrets.token_hex(4)}"
        try:
            with open(partial, "w", encoding="utf-8", newline="") as file:
                for chunk in chunks(db):
                    file.write(chunk)
            os.replace(partial, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.remove(partial)
    finally:
        db.close()
    click.echo(f"Exported the history to {path}.", err=True)


@click.command("import")
@with_appcontext
@click.argument("file", type=click.File("rb"))
def import_command(file):
    """Import a JSON export (games already here are skipped)."""
    db = connect(_database())
    try:
        summary = import_history(db, read_history(file.read()))
    except ValueError as error:
        raise click.ClickException(f"{file.name}: refused, nothing imported: {error}") from None
    finally:
        db.close()
    click.echo(str(summary))


@click.command("backup")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace PATH if it exists.")
def backup_command(path, force):
    """Copy the database to PATH, consistently, even while the app runs."""
    try:
        backup_database(_database(), path, force=force)
    except (OSError, ValueError, sqlite3.Error) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Backed up {_database()} to {path}.")


@click.command("restore")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False))
def restore_command(path):
    """Replace the database with the backup at PATH (the current one is kept beside it)."""
    try:
        kept = restore_database(path, _database())
    except (OSError, ValueError, sqlite3.Error) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Restored {path} into {_database()}."
               + (f" The database as it was is kept at {kept}." if kept else ""))


def init_app(app):
    for command in (export_command, import_command, backup_command, restore_command):
        app.cli.add_command(command)
