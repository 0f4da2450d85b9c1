"""Players, games and rounds: storage and queries (plain functions on a db).

Every user action is one ``db.atomic()`` transaction. Round inputs are stored
as entered; each entry's ``score`` column is written by the engine in the
same transaction (for the history pages' SQL), and ``recompute_scores``
rewrites them all, so they cannot drift. Screens never read those stored
scores: they ask ``scoring.standings``.
"""

from __future__ import annotations

import datetime
import json
import uuid
from dataclasses import dataclass, field
from functools import cached_property

from . import scoring
from .scoring import RuleSet, TeamRound

ENTRY_FIELDS = ("melded_points", "unplayed_points", "red_threes", "black_threes",
                "red_threes_melded", "cuts", "penalties")
MAX_NAME = 40


class Conflict(Exception):
    """What the scorekeeper saw is no longer what is saved (another phone changed it)."""


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


# --- players ----------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    id: int
    name: str


def clean_name(name):
    """Collapse spaces; the one place names are tidied before they are stored."""
    return " ".join((name or "").split())


def list_players(db):
    """Every player's id and name, by name (no counting: this is for pickers)."""
    return list(db.query("SELECT id, name FROM players ORDER BY name COLLATE NOCASE"))


def player_by_name(db, name):
    for row in db.query("SELECT id, name FROM players WHERE name = ? COLLATE NOCASE", [clean_name(name)]):
        return Player(row["id"], row["name"])
    return None


def player_id(db, name):
    """The id of the player with this name (any case), added if new."""
    existing = player_by_name(db, name)
    if existing:
        return existing.id
    return db["players"].insert({"name": clean_name(name), "created_at": _now()}).last_pk


def rename_player(db, player_id, name):
    """Rename a player; their games follow, as they point at the id.

    :raises ValueError: another player already has that name (any case).
    """
    name = clean_name(name)
    with db.atomic():
        other = player_by_name(db, name)
        if other and other.id != player_id:
            raise ValueError(f"There is already a player called {other.name}.")
        db["players"].update(player_id, {"name": name})


# --- games --------------------------------------------------------------------


@dataclass(frozen=True)
class Team:
    id: int
    position: int
    name: str
    players: tuple[Player, ...]


@dataclass(frozen=True)
class Round:
    id: int
    number: int
    version: int
    entries: tuple[TeamRound, ...]  # in team order


@dataclass(frozen=True)
class Game:
    id: int
    uid: str
    rules: RuleSet
    rules_key: str | None
    teams: tuple[Team, ...]
    rounds: tuple[Round, ...]
    first_dealer: int | None  # a player id
    ended_by_hand: bool
    finished_at: str | None
    created_at: str
    updated_at: str
    revision: int
    revisions: tuple[dict, ...] = field(default=(), compare=False)

    @cached_property
    def standings(self):
        return scoring.standings(self.rules, [r.entries for r in self.rounds],
                                 teams=len(self.teams), ended=self.ended_by_hand)

    @property
    def finished(self):
        return self.standings.finished

    @property
    def seats(self):
        """Players around the table: partners sit apart, teams take turns."""
        longest = max(len(team.players) for team in self.teams)
        return [team.players[i] for i in range(longest) for team in self.teams
                if i < len(team.players)]

    def dealer(self, round_number):
        """Who deals a round: the deal passes to the next seat each round."""
        seats = self.seats
        first = next((i for i, p in enumerate(seats) if p.id == self.first_dealer), 0)
        return seats[(first + round_number - 1) % len(seats)]

    def round(self, number):
        for played in self.rounds:
            if played.number == number:
                return played
        return None

    @property
    def title(self):
        return " vs ".join(team.name for team in self.teams)


def create_game(db, rules, rules_key, teams, first_dealer=None, *, uid=None, created_at=None):
    """Start a game; return its id.

    :param teams: (team name or "", [player names]) per team, in order.
    :param first_dealer: a player's name, or None for team 1's first player.
    :param uid: the game's identity across databases (imports keep theirs).
    """
    now = created_at or _now()
    with db.atomic():
        game_id = db["games"].insert({
            "uid": uid or uuid.uuid4().hex,
            "rules": rules.to_json(), "rules_key": rules_key, "rules_name": rules.name,
            "first_dealer": None, "ended_by_hand": 0, "finished_at": None,
            "created_at": now, "updated_at": now, "revision": 0}).last_pk
        dealer_id = None
        for position, (name, player_names) in enumerate(teams):
            player_ids = [player_id(db, player) for player in player_names]
            team_name = clean_name(name) or " & ".join(clean_name(p) for p in player_names)
            team_id = db["teams"].insert({"game_id": game_id, "position": position,
                                          "name": team_name}).last_pk
            for seat, member in enumerate(player_ids):
                db["team_players"].insert({"team_id": team_id, "player_id": member, "position": seat})
            if first_dealer:
                dealer_id = dealer_id or next(
                    (pid for pid, pname in zip(player_ids, player_names)
                     if clean_name(pname).casefold() == clean_name(first_dealer).casefold()), None)
        db["games"].update(game_id, {"first_dealer": dealer_id})
        _log(db, game_id, None, "started", f"Game started under {rules.name}.")
    return game_id


def game_exists(db, game_id):
    return db.execute("SELECT 1 FROM games WHERE id = ?", [game_id]).fetchone() is not None


def load_game(db, game_id):
    """The game with its teams, players, rounds and changes, or None."""
    rows = list(db.query("SELECT * FROM games WHERE id = ?", [game_id]))
    if not rows:
        return None
    game = rows[0]
    teams = []
    for team in db.query("SELECT * FROM teams WHERE game_id = ? ORDER BY position", [game_id]):
        players = tuple(Player(p["id"], p["name"]) for p in db.query(
            """SELECT p.id, p.name FROM team_players tp JOIN players p ON p.id = tp.player_id
               WHERE tp.team_id = ? ORDER BY tp.position""", [team["id"]]))
        teams.append(Team(team["id"], team["position"], team["name"], players))
    positions = {team.id: team.position for team in teams}
    entries = {}
    for entry in db.query(
            """SELECT e.* FROM round_entries e JOIN rounds r ON r.id = e.round_id
               WHERE r.game_id = ?""", [game_id]):
        entries.setdefault(entry["round_id"], {})[positions[entry["team_id"]]] = _entry(entry)
    rounds = tuple(
        Round(r["id"], r["number"], r["version"],
              tuple(entries.get(r["id"], {}).get(i, TeamRound()) for i in range(len(teams))))
        for r in db.query("SELECT * FROM rounds WHERE game_id = ? ORDER BY number", [game_id]))
    revisions = tuple(db.query(
        "SELECT * FROM revisions WHERE game_id = ? ORDER BY id DESC", [game_id]))
    return Game(
        id=game["id"], uid=game["uid"], rules=RuleSet.from_json(game["rules"]), rules_key=game["rules_key"],
        teams=tuple(teams), rounds=rounds, first_dealer=game["first_dealer"],
        ended_by_hand=bool(game["ended_by_hand"]), finished_at=game["finished_at"],
        created_at=game["created_at"], updated_at=game["updated_at"],
        revision=game["revision"], revisions=revisions)


def _entry(row):
    return TeamRound(books=json.loads(row["books"]), went_out=bool(row["went_out"]),
                     **{name: row[name] for name in ENTRY_FIELDS})


def entry_row(round_id, team_id, entry, score):
    """A ``round_entries`` row: the entry as entered, and its score from the engine.

    The one place the row is shaped; saving, importing and demo data all use it.
    """
    return {"round_id": round_id, "team_id": team_id, "books": json.dumps(dict(entry.books)),
            "went_out": int(entry.went_out), **{name: getattr(entry, name) for name in ENTRY_FIELDS},
            "score": int(score)}


def list_games(db, finished_limit=20):
    """(in progress, recently finished) game ids, newest first."""
    playing = [r["id"] for r in db.query(
        "SELECT id FROM games WHERE finished_at IS NULL ORDER BY updated_at DESC, id DESC")]
    finished = [r["id"] for r in db.query(
        "SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY finished_at DESC, id DESC LIMIT ?",
        [finished_limit])]
    return playing, finished


# --- changing a game: each function is one transaction --------------------------


def _begin_change(db, game_id, revision):
    """First statement of every change: take the write lock, then check that
    the game is still what the scorekeeper saw (``revision``)."""
    db.execute("UPDATE games SET revision = revision + 1, updated_at = ? WHERE id = ?", [_now(), game_id])
    current = db.execute("SELECT revision FROM games WHERE id = ?", [game_id]).fetchone()
    if current is None:
        raise Conflict("This game no longer exists.")
    if revision is not None and current[0] != revision + 1:
        raise Conflict("Someone changed this game on another phone since you opened this page.")


def _settle(db, game_id):
    """Mark the game finished or not, as its rules and rounds now say, and
    store each team's total and whether it won (the engine's), for reports."""
    game = load_game(db, game_id)
    finished_at = game.finished_at if game.finished else None
    if game.finished and not finished_at:
        finished_at = _now()
    db["games"].update(game_id, {"finished_at": finished_at})
    write_totals(db, game)
    return game


def write_totals(db, game):
    """Store each team's total and whether it won, from the engine's standings."""
    s = game.standings
    for i, team in enumerate(game.teams):
        db.execute("UPDATE teams SET total = ?, won = ? WHERE id = ?",
                   [s.totals[i], int(s.finished and i in s.winners), team.id])


def _write_entries(db, game, round_id, number, entries):
    for team, entry in zip(game.teams, entries):
        score = scoring.score_team_round(game.rules, entry, number)
        db["round_entries"].upsert(entry_row(round_id, team.id, entry, score),
                                   pk=("round_id", "team_id"))


def _log(db, game_id, round_number, action, summary, before=None, after=None):
    db["revisions"].insert({
        "game_id": game_id, "round_number": round_number, "action": action, "summary": summary,
        "before": json.dumps(before) if before is not None else None,
        "after": json.dumps(after) if after is not None else None, "created_at": _now()})


def add_round(db, game, entries, number):
    """Save the next round. ``number`` is the round the scorekeeper entered;
    if another phone saved it first, nothing is written (Conflict)."""
    with db.atomic():
        _begin_change(db, game.id, None)
        (played,) = db.execute("SELECT COUNT(*) FROM rounds WHERE game_id = ?", [game.id]).fetchone()
        if played + 1 != number:
            raise Conflict(f"Round {number} was already saved, on another phone perhaps. "
                           "Here is the game as it stands.")
        if load_game(db, game.id).finished:
            raise Conflict("This game is finished: there is no next round to enter.")
        now = _now()
        round_id = db["rounds"].insert({"game_id": game.id, "number": number, "version": 1,
                                        "created_at": now, "updated_at": now}).last_pk
        _write_entries(db, game, round_id, number, entries)
        _log(db, game.id, number, "added", f"Round {number} entered.",
             after=[e.to_dict() for e in entries])
        return _settle(db, game.id)


def update_round(db, game, number, entries, version):
    """Replace a saved round's entries, if it is still the version the scorekeeper edited."""
    with db.atomic():
        _begin_change(db, game.id, None)
        row = db.execute("SELECT id, version FROM rounds WHERE game_id = ? AND number = ?",
                         [game.id, number]).fetchone()
        if row is None or row[1] != version:
            raise Conflict(f"Round {number} was changed on another phone since you opened it. "
                           "Nothing was saved; here it is as it stands now.")
        before = game.round(number).entries
        changes = describe_changes(game, before, entries)
        if not changes:
            return _settle(db, game.id)
        db["rounds"].update(row[0], {"version": version + 1, "updated_at": _now()})
        _write_entries(db, game, row[0], number, entries)
        _log(db, game.id, number, "edited", f"Round {number} edited: " + "; ".join(changes) + ".",
             before=[e.to_dict() for e in before], after=[e.to_dict() for e in entries])
        return _settle(db, game.id)


def delete_round(db, game, number, version):
    """Delete a round; later rounds move up one (their meld minimums follow)."""
    with db.atomic():
        _begin_change(db, game.id, None)
        row = db.execute("SELECT id, version FROM rounds WHERE game_id = ? AND number = ?",
                         [game.id, number]).fetchone()
        if row is None or row[1] != version:
            raise Conflict(f"Round {number} was changed on another phone. Nothing was deleted.")
        before = game.round(number).entries
        db.execute("DELETE FROM round_entries WHERE round_id = ?", [row[0]])
        db.execute("DELETE FROM rounds WHERE id = ?", [row[0]])
        later = db.execute("SELECT id, number FROM rounds WHERE game_id = ? AND number > ? ORDER BY number",
                           [game.id, number]).fetchall()
        for round_id, later_number in later:
            db.execute("UPDATE rounds SET number = ?, version = version + 1 WHERE id = ?",
                       [later_number - 1, round_id])
        _log(db, game.id, number, "deleted",
             f"Round {number} deleted" + (f"; rounds {number + 1}–{number + len(later)} moved up one."
                                          if later else "."),
             before=[e.to_dict() for e in before])
        game = load_game(db, game.id)
        for played in game.rounds:  # scores follow the new round numbers
            if played.number >= number:
                _write_entries(db, game, played.id, played.number, played.entries)
        return _settle(db, game.id)


def end_game(db, game, revision):
    """The table ends the game by hand."""
    with db.atomic():
        _begin_change(db, game.id, revision)
        db["games"].update(game.id, {"ended_by_hand": 1})
        _log(db, game.id, None, "ended", "Game ended by the table.")
        return _settle(db, game.id)


def reopen_game(db, game, revision):
    """Reopen a finished game to fix a round; saving a round settles it again."""
    with db.atomic():
        _begin_change(db, game.id, revision)
        db["games"].update(game.id, {"ended_by_hand": 0, "finished_at": None})
        _log(db, game.id, None, "reopened", "Game reopened.")
    return load_game(db, game.id)


def is_open(game):
    """Rounds can be entered or edited: not finished, or reopened."""
    return game.finished_at is None


def recompute_scores(db):
    """Rewrite every stored round score from its inputs with the engine; return how many."""
    count = 0
    with db.atomic():
        for (game_id,) in db.execute("SELECT id FROM games").fetchall():
            game = load_game(db, game_id)
            for played in game.rounds:
                _write_entries(db, game, played.id, played.number, played.entries)
                count += len(played.entries)
            write_totals(db, game)
    return count


# --- describing -----------------------------------------------------------------


def describe_changes(game, before, after):
    """What an edit changed, per team, for the revision log."""
    labels = {"melded_points": "melded", "unplayed_points": "left in hand and foot",
              "red_threes": "red 3s", "black_threes": "black 3s",
              "red_threes_melded": "red 3s laid down", "cuts": "22-card cuts",
              "penalties": "penalties"}
    changes = []
    for team, old, new in zip(game.teams, before, after):
        parts = [f"{game.rules.book_label(kind).lower()} {old.books.get(kind, 0)} → {new.books.get(kind, 0)}"
                 for kind in game.rules.books if old.books.get(kind, 0) != new.books.get(kind, 0)]
        parts += [f"{label} {getattr(old, name)} → {getattr(new, name)}"
                  for name, label in labels.items() if getattr(old, name) != getattr(new, name)]
        if old.went_out != new.went_out:
            parts.append("went out" if new.went_out else "no longer went out")
        if parts:
            changes.append(f"{team.name}: " + ", ".join(parts))
    return changes


def game_json(game):
    """The game for GET /games/<id>.json: everything from the engine, nothing stored."""
    result = game.standings
    return {
        "id": game.id,
        "created_at": game.created_at,
        "rules": game.rules.to_dict(),
        "teams": [{"name": t.name, "players": [p.name for p in t.players]} for t in game.teams],
        "rounds": [
            {"number": played.number,
             "entries": [e.to_dict() for e in played.entries],
             "scores": [int(s) for s in result.round_scores[i]],
             "breakdowns": [[{"label": l.label, "count": l.count, "points": l.points}
                             for l in s.breakdown] for s in result.round_scores[i]]}
            for i, played in enumerate(game.rounds)],
        "totals": result.totals,
        "next_round": result.next_round,
        "next_meld_minimums": result.next_meld_minimums,
        "next_books_to_go_out": result.next_books_to_go_out,
        "finished": result.finished,
        "winners": result.winners,
    }

