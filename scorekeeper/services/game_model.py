"""A game as the app holds it (teams, players, rounds, change log) and reading it.

``load_game`` reads one game in one snapshot; pages ask it to ``remember``
what it scored, so a list of games is not read and scored again while no game
changes. Every change to a game is in ``games``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import threading
from dataclasses import dataclass
from functools import cached_property

from .. import scoring
from ..recent import Recent
from ..scoring import ENTRY_FIELDS, RuleSet, TeamRound
from ..scoring.language import _, language
from ..storage.db import snapshot
from .players import Player

_SELECT_ENTRIES = (
    f"SELECT e.round_id, e.team_id, e.books, e.paper_score, "
    f"{', '.join('e.' + f.name for f in ENTRY_FIELDS)} "
    "FROM round_entries e JOIN rounds r ON r.id = e.round_id WHERE r.game_id = ?"
)


# how a game was kept (``games.paper``), besides on a phone round by round (NULL)
PAPER_SHEET = "sheet"  # played on a paper sheet, typed in as it reads
SCORES_ONLY = "scores"  # from an old sheet that kept only each round's score per team
PAPER_KINDS = (PAPER_SHEET, SCORES_ONLY)


@dataclass(frozen=True)
class Team:
    id: int
    position: int
    name: str
    players: tuple[Player, ...]


@dataclass(frozen=True)
class Round:
    id: int  # never reused, so a phone that edits round 3 edits that round or nothing
    number: int
    entries: tuple[TeamRound, ...]  # in team order


@dataclass(frozen=True)
class Change:
    """An entry of a game's change log."""

    revision: int | None  # the game revision it made (None before these were kept)
    round_number: int | None
    action: str
    summary: str  # as written, in English
    created_at: str
    said: str | None = None  # what it said, to word in the reader's language (change_log)
    before: str | None = None  # the entries before and after a round's change, as logged
    after: str | None = None


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
    created_at: str  # when it was entered in the app
    updated_at: str
    revision: int
    changes: tuple[Change, ...] = dataclasses.field(default=(), compare=False)  # newest first
    # the share link's token (``/s/<token>``: a read-only view); None when not shared
    share_token: str | None = dataclasses.field(default=None, repr=False)
    # when it was played (its night, its year, its place in the ratings' order); a game
    # scored at the table was played when it was started
    played_at: str = ""
    # how it was kept: None, on a phone round by round; PAPER_SHEET, on a paper sheet
    # typed in as it reads; SCORES_ONLY, from an old sheet with each round's score alone
    paper: str | None = None
    # the evening it was played (YYYY-MM-DD), kept from when it was played or its date
    # corrected: never worked out again from the time zone the computer is in now
    night: str = ""
    # when it was deleted (UTC, ISO), while it waits in the deleted games (services/deleted.py)
    deleted_at: str | None = None

    @cached_property
    def standings(self):
        return scoring.standings(
            self.rules, [r.entries for r in self.rounds], teams=len(self.teams), ended=self.ended_by_hand
        )

    @property
    def finished(self):
        return self.standings.finished

    @property
    def scores_only(self):
        """From an old paper sheet that kept only each round's score: no books, no cards."""
        return self.paper == SCORES_ONLY

    @property
    def is_open(self):
        """Rounds can be entered or fixed: the game is not finished, or was reopened."""
        return self.finished_at is None

    @property
    def player_count(self):
        """Everyone at the table (the deal's decks follow it)."""
        return sum(len(team.players) for team in self.teams)

    @property
    def seats(self):
        """Players around the table: partners sit apart, teams take turns."""
        longest = max(len(team.players) for team in self.teams)
        return [team.players[i] for i in range(longest) for team in self.teams if i < len(team.players)]

    def dealer(self, round_number):
        """Who deals a round: the deal passes to the next seat each round."""
        seats = self.seats
        first = next((i for i, p in enumerate(seats) if p.id == self.first_dealer), 0)
        return seats[(first + round_number - 1) % len(seats)]

    def round(self, number):
        return next((played for played in self.rounds if played.number == number), None)

    def worded(self, change):
        """A line of this game's change log in the reader's language."""
        from .change_log import shown  # the log's words are built on the game's

        return shown(self, change)

    @property
    def title(self):
        """ "Ann & Bo vs Cy & Di" ("Ann & Bo x Cy & Di" in Portuguese)."""
        names = [team.name for team in self.teams]
        title = names[0] if names else ""
        for name in names[1:]:
            # Translators: a game's teams, one after another: "Ann & Bo vs Cy & Di"
            title = _("%(teams)s vs %(team)s", teams=title, team=name)
        return title


def with_round(game, played):
    """The game with ``played`` added as its next round; the engine scores that round
    alone, the earlier ones being as the game's standings already have them."""
    after = dataclasses.replace(game, rounds=(*game.rounds, played))
    vars(after)["standings"] = scoring.standings(
        game.rules,
        [r.entries for r in after.rounds],
        teams=len(game.teams),
        ended=game.ended_by_hand,
        known=game.standings,
    )
    return after


# --- reading --------------------------------------------------------------------


# A game's rules, rounds and standings as of one revision, read and scored once:
# a game's rules and rounds change only with a new revision (and updated_at),
# so a page that lists the same games again (history, home) does not read and
# score them again. Kept per database file, and only as committed (read
# outside a write); the uid in the key guards against an id used again after
# a rolled-back insert. Names come from the database on every load.
_MEMO = Recent(200)  # a page of history, the home page's lists, the games being played
_memo_lock = threading.Lock()


@functools.lru_cache(maxsize=64)
def rules_of(text):
    return RuleSet.from_json(text)  # a RuleSet is immutable: one per distinct text


def load_game(db, game_id, *, changes=False, remember=False, hidden=False, deleted=False):
    """The game with its teams, players and rounds (and its change log), or None.

    :param remember: for pages: use, and keep, what is remembered of the game
        at its revision (a bulk reader such as an export leaves it false, so
        that it holds one game at a time).
    :param hidden: a game an import is still writing too (``exchange.importer``); for
        everyone else it is not there yet.
    :param deleted: a deleted game too (``services.deleted``: its list, its restoring);
        for everyone else it is not there any more.
    """
    committed = remember and not getattr(db, "writing", False)
    with snapshot(db):
        row = db.execute(
            """SELECT id, uid, rules, rules_key, first_dealer, ended_by_hand, finished_at,
                      created_at, updated_at, revision, share_token, played_at, paper, night,
                      deleted_at, importing
               FROM games WHERE id = ?""",
            [game_id],
        ).fetchone()
        if row is None or (row[-1] is not None and not hidden) or (row[-2] is not None and not deleted):
            return None
        teams, members = [], {}
        for team_id, position, name, pid, pname in db.execute(
            """SELECT t.id, t.position, t.name, p.id, p.name FROM teams t
                   LEFT JOIN team_players tp ON tp.team_id = t.id
                   LEFT JOIN players p ON p.id = tp.player_id
                   WHERE t.game_id = ? ORDER BY t.position, tp.position""",
            [game_id],
        ):
            if team_id not in members:
                members[team_id] = []
                teams.append((team_id, position, name))
            if pid is not None:
                members[team_id].append(Player(pid, pname))
        teams = tuple(Team(tid, position, name, tuple(members[tid])) for tid, position, name in teams)
        gid, uid, rules, rules_key, first_dealer, ended, finished_at, created, updated, revision, *rest = row
        token, played, paper, night, deleted_at, _importing = rest
        where = getattr(db, "memo_key", None)
        # in the reader's language: the standings' breakdowns are worded
        key = (where, gid, uid, revision, updated, language()) if where and committed else None
        with _memo_lock:
            memo = _MEMO.get(key) if key else None
        if memo:
            rounds, standings = memo
        else:
            rounds, standings = _read_rounds(db, game_id, teams), None
        log = tuple(changes_since(db, game_id, None)[::-1]) if changes else ()
    game = Game(
        id=gid,
        uid=uid,
        rules=rules_of(rules),
        rules_key=rules_key,
        teams=teams,
        rounds=rounds,
        first_dealer=first_dealer,
        ended_by_hand=bool(ended),
        finished_at=finished_at,
        created_at=created,
        updated_at=updated,
        revision=revision,
        changes=log,
        share_token=token,
        played_at=played or created,
        paper=paper,
        night=night or "",
        deleted_at=deleted_at,
    )
    if standings is not None:
        vars(game)["standings"] = standings  # the engine's, for this very revision
    elif key:
        _remember(db, game)
    return game


def _remember(db, game):
    """Keep a game as a change just committed it, for the page that shows it next."""
    where = getattr(db, "memo_key", None)
    if not where or getattr(db, "writing", False):
        return
    with _memo_lock:
        key = (where, game.id, game.uid, game.revision, game.updated_at, language())
        _MEMO[key] = (game.rounds, game.standings)


def remembered(change):
    """A change to a game whose result (returned once committed) is remembered."""

    @functools.wraps(change)
    def changed(db, *args, **kwargs):
        game = change(db, *args, **kwargs)
        _remember(db, game)
        return game

    return changed


def _read_rounds(db, game_id, teams):
    positions = {team.id: team.position for team in teams}
    entries = {}
    for round_id, team_id, books, paper_score, *values in db.execute(_SELECT_ENTRIES, [game_id]):
        entries.setdefault(round_id, {})[positions[team_id]] = _entry(books, values, paper_score)
    return tuple(
        Round(
            round_id,
            number,
            tuple(entries.get(round_id, {}).get(i, TeamRound()) for i in range(len(teams))),
        )
        for round_id, number in db.execute(
            "SELECT id, number FROM rounds WHERE game_id = ? ORDER BY number", [game_id]
        )
    )


def _entry(books, values, paper_score=None):
    if paper_score is not None:  # an old sheet's round: its score alone
        return TeamRound(paper_score=paper_score)
    data = {f.name: (bool(v) if f.kind == "flag" else v) for f, v in zip(ENTRY_FIELDS, values)}
    return TeamRound(books=json.loads(books), **data)


def changes_since(db, game_id, revision):
    """The game's change-log entries made after ``revision`` (all when None), oldest first."""
    where = "" if revision is None else "AND revision > ?"
    return [
        Change(*row)
        for row in db.execute(
            f"""SELECT revision, round_number, action, summary, created_at, said, before, after
            FROM revisions
            WHERE game_id = ? {where} ORDER BY id""",
            [game_id] if revision is None else [game_id, revision],
        )
    ]


def round_added_by(db, game_id, revision):
    """(round number, entries as logged) when ``revision`` of the game was made by
    adding a round, else None: how a save whose answer was lost is recognised."""
    return logged_after(db, game_id, revision, "added", with_round=True)


def logged_after(db, game_id, revision, action, *, with_round=False):
    """What the change that made ``revision`` of the game logged as its result, when it
    was an ``action`` ("typed": rounds typed in from a paper sheet), else None; with
    ``with_round``, (its round number, that)."""
    row = db.execute(
        """SELECT round_number, after FROM revisions
        WHERE game_id = ? AND revision = ? AND action = ? AND after IS NOT NULL""",
        [game_id, revision, action],
    ).fetchone()
    if row is None:
        return None
    return (row[0], json.loads(row[1])) if with_round else json.loads(row[1])


def shared_game_revision(db, token):
    """(game id, revision) of the game this share token opens, or None: one indexed
    read, so a phone following the game learns cheaply that nothing changed."""
    row = db.execute(
        "SELECT id, revision FROM games WHERE share_token = ? AND deleted_at IS NULL", [token]
    ).fetchone()
    return tuple(row) if row else None


def load_shared_game(db, token):
    """The game this share token opens, or None (never shared, or the link was stopped)."""
    with snapshot(db):
        found = shared_game_revision(db, token)
        game = load_game(db, found[0]) if found else None
    return game if game is not None and game.share_token == token else None


def game_exists(db, game_id):
    return (
        db.execute(
            "SELECT 1 FROM games WHERE id = ? AND importing IS NULL AND deleted_at IS NULL", [game_id]
        ).fetchone()
        is not None
    )


def deleted_when(db, game_id):
    """When game ``game_id`` was deleted (UTC, ISO), while it is kept among the deleted
    games; None for a game that is not deleted, or not there at all."""
    row = db.execute("SELECT deleted_at FROM games WHERE id = ? AND importing IS NULL", [game_id]).fetchone()
    return row[0] if row else None


def list_games(db, playing_limit=10, finished_limit=20):
    """(games in progress, the latest changed first; how many; finished games, the latest
    played first, as the history lists them: a paper sheet's on the day it was played)."""
    with snapshot(db):
        (playing_count,) = db.execute(
            "SELECT COUNT(*) FROM games WHERE finished_at IS NULL AND importing IS NULL"
            " AND deleted_at IS NULL"
        ).fetchone()
        playing = [
            r[0]
            for r in db.execute(
                """SELECT id FROM games WHERE finished_at IS NULL AND importing IS NULL AND deleted_at IS NULL
               ORDER BY updated_at DESC, id DESC LIMIT ?""",
                [playing_limit],
            )
        ]
        finished = [
            r[0]
            for r in db.execute(
                """SELECT id FROM games WHERE finished_at IS NOT NULL AND importing IS NULL
                   AND deleted_at IS NULL ORDER BY played_at DESC, id DESC LIMIT ?""",
                [finished_limit],
            )
        ]
        return (
            [load_game(db, i, remember=True) for i in playing],
            playing_count,
            [load_game(db, i, remember=True) for i in finished],
        )
