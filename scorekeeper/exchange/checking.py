"""Checking a history export whole before anything is written (``importer.py`` writes it).

Over 400 lines: every field of the format has its check here, and each refusal is one whole
sentence for the translators (issue 47), which the formatter lays out a value a line.

A file with anything wrong is refused whole with a message that names the
place ("games[3].rounds[2]…"). Before any field is read, the file's shape is
bounded (depth, sizes, counts, text that cannot be stored), so no file,
however odd, reaches the database half-checked.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .. import scoring
from ..names import MAX_NAME, clean_name, name_key, name_problem
from ..scoring import ENTRY_FIELDS, MAX_BOOKS, RULESETS, RuleSet, TeamRound
from ..scoring.language import _, ngettext
from ..services.colours import BY_KEY as _PALETTE
from ..services.evenings import MORNING
from ..services.game_model import PAPER_KINDS, SCORES_ONLY
from . import FORMAT, READS, VERSION
from .limits import (
    MAX_DEPTH,
    MAX_GAMES,
    MAX_HISTORY_ROUNDS,
    MAX_HOUSE_RULES,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TEXT,
)
from .reading import END, START, Reader, refusal

# the tables the engine scores: 2 to 6 teams of 1 to 4 players
MAX_TEAMS = scoring.MAX_TEAMS
MAX_PLAYERS_PER_TEAM = scoring.MAX_PLAYERS_PER_TEAM
# "A & B & C & D" when a team has no name
MAX_TEAM_NAME = MAX_NAME * MAX_PLAYERS_PER_TEAM + len(" & ") * (MAX_PLAYERS_PER_TEAM - 1)
# the furthest a clock has been set from UTC (tzdata: Manila's −15:56 until 1844, Sitka's
# +15:02 until 1867; today −12 to +14): a game's night is its time's night within these
_ZONES_APART = datetime.timedelta(hours=16)
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_UID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_ENTRY_KEYS = ("books", *(f.name for f in ENTRY_FIELDS), "paper_score")


def _bounded(value, where="file", depth=0):
    """Refuse what no export holds: deep nesting, huge texts, characters that
    cannot be stored (a lone surrogate from an escaped "\\ud800")."""
    if depth > MAX_DEPTH:
        _fail(where, _("nested too deeply for a Scorekeeper export"))
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            _fail(where, _("a text of %(count)s characters is too long", count=format(len(value), ",")))
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            _fail(where, _("holds a character that is not text (a lone surrogate)"))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _bounded(key, where, depth + 1)
            _bounded(item, f"{where}.{key}" if where != "file" else key, depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _bounded(item, f"{where}[{i}]", depth + 1)


@dataclass
class _Game:
    """A checked game, ready to write."""

    uid: str
    created_at: str
    played_at: str
    paper: str | None
    updated_at: str
    finished_at: str | None
    ended_by_hand: bool
    rules_key: str | None
    house_rules: str | None  # the name in the file
    rules: RuleSet
    teams: list  # (name, [players])
    first_dealer: str | None
    rounds: list  # [TeamRound per team] per round
    # the night it was played, as the file says (version 5); None: worked out on this
    # computer's clock as it is written
    night: str | None = None

    def scored(self):
        """The engine's standings, whose round scores and totals are stored: made again as
        the game is written rather than kept from its check, where they were two thirds of
        what a checked game held (4 KB a round of six teams)."""
        return scoring.standings(self.rules, self.rounds, teams=len(self.teams), ended=self.ended_by_hand)


def _fail(where, message, line=None):
    raise refusal(where, message, line)


def _object(value, where, required, optional=()):
    if not isinstance(value, Mapping):
        _fail(where or "file", _("must be an object, not %(value)s", value=_short(value)))
    for key in value:
        if key not in required and key not in optional:
            _fail(
                f"{where}.{key}" if where else key,
                _(
                    "not a field of this format (version %(version)s has %(fields)s)",
                    version=VERSION,
                    fields=", ".join((*required, *optional)),
                ),
            )
    for key in required:
        if key not in value:
            _fail(f"{where}.{key}" if where else key, _("missing"))
    return value


def _list(value, where, *, low=0, high=None):
    if not isinstance(value, list):
        _fail(where, _("must be a list, not %(value)s", value=_short(value)))
    if len(value) < low:
        _fail(where, ngettext("needs at least %(num)s entry", "needs at least %(num)s entries", low))
    if high is not None and len(value) > high:
        _fail(where, _("at most %(most)s entries, not %(count)s", most=high, count=len(value)))
    return value


def _short(value):
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, (set, tuple)) else repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _player_name(value, where):
    name = clean_name(value) if isinstance(value, str) else ""
    if not name:
        _fail(where, _("a player's name must be a non-empty text, not %(value)s", value=_short(value)))
    problem = name_problem(name, _=_)
    if problem:
        _fail(where, f"{_short(name)}: {problem}")
    return name


def _timestamp(value, where, *, optional=False):
    """A time as the app stores it: ISO 8601 in UTC, so that times compare as text.

    One in UTC is kept as written (a file exported here imports and exports
    byte for byte); one with another offset is moved to UTC, one without an
    offset is taken as UTC. A time that UTC puts outside the years 1 to 9999
    is refused.
    """
    if value is None and optional:
        return None
    try:
        moment = datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        _fail(
            where,
            _("must be a date and time like 2024-05-01T19:30:00+00:00, not %(value)s", value=_short(value)),
        )
    if moment.tzinfo is not None and moment.utcoffset() == datetime.timedelta(0):
        return value
    try:
        return moment.replace(tzinfo=moment.tzinfo or datetime.UTC).astimezone(datetime.UTC).isoformat()
    except (OverflowError, ValueError):
        _fail(
            where, _("must fall between 0001-01-01 and 9999-12-31 in UTC, not %(value)s", value=_short(value))
        )


def _rules(value, where):
    try:
        return RuleSet.from_dict(value)
    except ValueError as error:
        # the engine names the field ("card_values.K: …"): put it under this rule set's place
        path, _colon, detail = str(error).partition(": ")
        raise ValueError(
            f"{where}: {detail}" if path == "house rules" else f"{where}.{path}: {detail}"
        ) from None


_MEMBERS = ("format", "version", "players", "house_rules", "games")
_OPTIONAL_MEMBERS = ("exported_at", "colours")  # colours: version 6 on


COLOUR_KEYS = tuple(_PALETTE)


class PlayerNames(list):
    """The file's players' names, in its order; ``colours``: {a name's key: the key of
    that player's colour} as the file gives them (version 6 on)."""

    def __init__(self):
        super().__init__()
        self.colours = {}


def check_history(data, progress=None):
    """Check a whole export; return (players, house rules, games) ready to write.

    :param progress: called as ``progress(games checked, games in the file)``.

    :raises ValueError: the first problem, starting with where it is
        ("games[3].rounds[2].entries[1].melded_points: …"; lists count from 0).
    """
    _bounded(data)
    _object(data, "", _MEMBERS, _OPTIONAL_MEMBERS)
    history = _History()
    history.format(data["format"])
    history.version(data["version"])
    for i, value in enumerate(_list(data["players"], "players", high=MAX_PLAYERS)):
        history.player(i, value)
    for i, value in enumerate(_list(data.get("colours", []), "colours", high=MAX_PLAYERS)):
        history.colour(i, value)
    for i, value in enumerate(_list(data["house_rules"], "house_rules", high=MAX_HOUSE_RULES)):
        history.house_rule(i, value)
    history.house_rules_read()
    games = _list(data["games"], "games", high=MAX_GAMES)
    for i, value in enumerate(games):
        history.game(i, value)
        if progress:
            progress(i + 1, len(games))
    return history.result()


def check_file(content, progress=None, *, most_rounds=MAX_HISTORY_ROUNDS):
    """Read and check an export file (bytes or text) a part at a time: each player, set of
    house rules and game checked as it is read (``reading.Reader``), and only what was
    checked kept. Return (players, house rules, games) ready to write, as ``check_history``.

    The same checks as ``check_history``, each problem in the file's order, and the
    reader's limits (a game's length, how many games…) refused where the file passes them,
    with its line.

    :param progress: called as ``progress(games checked, games in the file)``; until the
        last game, the second is an estimate from how far into the file that game is.
    :param most_rounds: the rounds the whole file may hold (the tests trip it with few)
    :raises ValueError: the first problem, starting with where it is.
    """
    reader = Reader(content)
    history, read = _History(most_rounds), set()
    for part in reader.parts():
        key = part.key
        if key is None:  # the file is no object
            _bounded(part.value)
            _object(part.value, "", _MEMBERS, _OPTIONAL_MEMBERS)
        if part.index is None or part.index == START:
            _object({key: None}, "", (), (*_MEMBERS, *_OPTIONAL_MEMBERS))  # a member the format has
            if key in read:
                _fail(key, _("listed twice"))
            read.add(key)
        if part.index is None:
            _bounded(part.value, key, 1)
            if key == "format":
                history.format(part.value)
            elif key == "version":
                history.version(part.value)
            elif key != "exported_at":
                _list(part.value, key)  # players, house_rules or games, and not a list
        elif part.index == END:
            if key == "house_rules":
                history.house_rules_read()
            elif key == "games" and progress and part.value:
                progress(part.value, part.value)
        elif part.index != START:
            where = f"{key}[{part.index}]"
            _bounded(part.value, where, 2)
            if key == "players":
                history.player(part.index, part.value)
            elif key == "colours":
                history.colour(part.index, part.value)
            elif key == "house_rules":
                history.house_rule(part.index, part.value)
            else:
                history.game(part.index, part.value, part.line)
                if progress:
                    done = part.index + 1
                    progress(done, max(done, round(done * reader.size / max(part.at, 1))))
    for key in _MEMBERS:
        if key not in read:
            _fail(key, _("missing"))
    return history.result()


class _History:
    """A history export checked a part at a time, in the order its parts are read: its
    format and version, each player, each set of house rules, each game."""

    def __init__(self, most_rounds=MAX_HISTORY_ROUNDS):
        self.most_rounds = most_rounds
        self.players, self.house_rules, self.games = PlayerNames(), [], []
        self._player_keys, self._rules_names, self._uids = {}, {}, {}
        self._rules_read = False
        self._waiting = []  # (where, house rules' name) of games read before the house rules
        self._rounds = 0
        self._shared = {}  # the rule sets and entries checked so far (_check_game)

    def result(self):
        return self.players, self.house_rules, self.games

    def format(self, value):
        if value != FORMAT:
            _fail("format", _("must be “%(format)s”: this is not a Scorekeeper export", format=FORMAT))

    def version(self, version):
        if isinstance(version, bool) or not isinstance(version, int):
            _fail("version", _("must be a whole number, not %(value)s", value=_short(version)))
        if version not in READS:
            _fail(
                "version",
                (
                    _(
                        "this Scorekeeper reads version %(versions)s and %(last)s files; "
                        "this file is version %(version)s (update Scorekeeper to import it)",
                        versions=", ".join(map(str, READS[:-1])),
                        last=READS[-1],
                        version=version,
                    )
                    if version > VERSION
                    else _(
                        "this Scorekeeper reads version %(versions)s and %(last)s files; "
                        "this file is version %(version)s",
                        versions=", ".join(map(str, READS[:-1])),
                        last=READS[-1],
                        version=version,
                    )
                ),
            )

    def player(self, i, value):
        name = _player_name(value, f"players[{i}]")
        seen = self._player_keys
        if name_key(name) in seen:
            _fail(
                f"players[{i}]",
                _(
                    "“%(name)s” is listed twice (players[%(index)s]; names are matched regardless of case)",
                    name=name,
                    index=seen[name_key(name)],
                ),
            )
        seen[name_key(name)] = i
        self.players.append(name)

    def colour(self, i, value):
        """colours[i]: ``{"player": name, "colour": key}``, a player once."""
        where = f"colours[{i}]"
        _object(value, where, ("player", "colour"))
        name = _player_name(value["player"], f"{where}.player")
        if value["colour"] not in COLOUR_KEYS:
            _fail(
                f"{where}.colour",
                _(
                    "must be one of %(colours)s, not %(value)s",
                    colours=", ".join(COLOUR_KEYS),
                    value=_short(value["colour"]),
                ),
            )
        if name_key(name) in self.players.colours:
            _fail(f"{where}.player", _("“%(name)s” is given a colour twice", name=name))
        self.players.colours[name_key(name)] = value["colour"]

    def house_rule(self, i, value):
        rules = _rules(value, f"house_rules[{i}]")
        seen = self._rules_names
        if name_key(rules.name) in seen:
            _fail(
                f"house_rules[{i}].name",
                _(
                    "“%(name)s” is listed twice (house_rules[%(index)s])",
                    name=rules.name,
                    index=seen[name_key(rules.name)],
                ),
            )
        seen[name_key(rules.name)] = i
        self.house_rules.append(rules)

    def house_rules_read(self):
        """Every set of house rules is read: the games read before them may name them now."""
        self._rules_read = True
        for where, house in self._waiting:
            _house_rules_named(house, where, self._rules_names)
        self._waiting = []

    def game(self, i, value, line=None):
        """Check games[i]; ``line``: the line of the file it starts on, if read from one."""
        where = f"games[{i}]"
        rounds = value.get("rounds") if isinstance(value, Mapping) else None
        if isinstance(rounds, list) and len(rounds) <= MAX_ROUNDS:  # (a longer game: its check says so)
            self._rounds += len(rounds)  # counted as read: each would be checked by the engine
            if self._rounds > self.most_rounds:
                most = format(self.most_rounds, ",")
                _fail(where, _("a history holds at most %(most)s rounds", most=most), line)
        game = _check_game(value, where, self._rules_names if self._rules_read else None, self._shared)
        if game.house_rules is not None and not self._rules_read:
            self._waiting.append((f"{where}.house_rules", game.house_rules))
        if game.uid in self._uids:
            _fail(f"{where}.uid", _("the same game as games[%(index)s]", index=self._uids[game.uid]))
        self._uids[game.uid] = i
        self.games.append(game)


def _house_rules_named(house, where, house_rules_names):
    if not isinstance(house, str) or name_key(house) not in house_rules_names:
        _fail(where, _("%(value)s is not the name of any house rules in this file", value=_short(house)))


def _check_game(value, where, house_rules_names, shared=None):
    """One game checked (a ``_Game``); its house rules' name is checked against
    ``house_rules_names`` unless that is None (not read yet: the caller checks it later).

    :param shared: {value: value} of the rule sets and entries checked so far: an equal
        one is kept once (they are frozen), so that a history's thousand games of the same
        rules hold one rule set, and a round like another holds no entries of its own.
    """
    shared = {} if shared is None else shared
    _object(
        value,
        where,
        (
            "uid",
            "created_at",
            "finished_at",
            "ended_by_hand",
            "rules_key",
            "rules",
            "teams",
            "first_dealer",
            "rounds",
        ),
        ("updated_at", "house_rules", "played_at", "night", "paper"),
    )
    uid = value["uid"]
    if not isinstance(uid, str) or not 1 <= len(uid) <= 64 or not set(uid) <= _UID_CHARS:
        _fail(f"{where}.uid", _("must be 1 to 64 letters, digits, - or _, not %(value)s", value=_short(uid)))
    created_at = _timestamp(value["created_at"], f"{where}.created_at")
    played_at = _timestamp(value.get("played_at", created_at), f"{where}.played_at")
    night = _night(value["night"], played_at, f"{where}.night") if "night" in value else None
    paper = value.get("paper")
    if paper is not None and paper not in PAPER_KINDS:
        _fail(
            f"{where}.paper",
            _(
                "must be null, %(kinds)s, not %(value)s",
                kinds=" or ".join(map(repr, PAPER_KINDS)),
                value=_short(paper),
            ),
        )
    updated_at = _timestamp(value.get("updated_at", created_at), f"{where}.updated_at")
    finished_at = _timestamp(value["finished_at"], f"{where}.finished_at", optional=True)
    ended = value["ended_by_hand"]
    if not isinstance(ended, bool):
        _fail(f"{where}.ended_by_hand", _("must be true or false, not %(value)s", value=_short(ended)))
    key = value["rules_key"]
    if key is not None and key not in RULESETS:
        _fail(
            f"{where}.rules_key",
            _(
                "must be null or a written rule set's key (%(keys)s), not %(value)s",
                keys=", ".join(RULESETS),
                value=_short(key),
            ),
        )
    house = value.get("house_rules")
    if house is not None and (house_rules_names is not None or not isinstance(house, str)):
        _house_rules_named(house, f"{where}.house_rules", house_rules_names or {})
    rules = _rules(value["rules"], f"{where}.rules")
    rules = shared.setdefault(rules, rules)

    teams, names = [], {}
    for t, team in enumerate(_list(value["teams"], f"{where}.teams", low=scoring.MIN_TEAMS, high=MAX_TEAMS)):
        at = f"{where}.teams[{t}]"
        _object(team, at, ("name", "players"))
        if not isinstance(team["name"], str) or len(clean_name(team["name"])) > MAX_TEAM_NAME:
            _fail(f"{at}.name", _("must be a text of at most %(most)s characters", most=MAX_TEAM_NAME))
        if clean_name(team["name"]) and name_problem(clean_name(team["name"]), MAX_TEAM_NAME):
            _fail(f"{at}.name", name_problem(clean_name(team["name"]), MAX_TEAM_NAME, _=_))
        members = []
        for p, player in enumerate(_list(team["players"], f"{at}.players", low=1, high=MAX_PLAYERS_PER_TEAM)):
            name = _player_name(player, f"{at}.players[{p}]")
            if name_key(name) in names:
                _fail(
                    f"{at}.players[{p}]",
                    _(
                        "“%(name)s” already plays in this game (%(where)s)",
                        name=name,
                        where=names[name_key(name)],
                    ),
                )
            names[name_key(name)] = f"{where}.teams[{t}].players[{p}]"
            members.append(name)
        teams.append((team["name"], members))

    dealer = value["first_dealer"]
    if dealer is not None and (not isinstance(dealer, str) or name_key(clean_name(dealer)) not in names):
        _fail(
            f"{where}.first_dealer",
            _("must be null or one of this game's players, not %(value)s", value=_short(dealer)),
        )

    team_names = [clean_name(name) or " & ".join(members) for name, members in teams]
    rounds = []
    for r, played in enumerate(_list(value["rounds"], f"{where}.rounds", high=MAX_ROUNDS)):
        at = f"{where}.rounds[{r}]"
        _object(played, at, ("number", "entries"), ("scores",))  # scores: the engine's, for reading only
        number = played["number"]
        if isinstance(number, bool) or not isinstance(number, int) or number != r + 1:
            _fail(
                f"{at}.number",
                _(
                    "rounds are numbered 1, 2, 3…: expected %(expected)s, not %(value)s",
                    expected=r + 1,
                    value=_short(played["number"]),
                ),
            )
        entries = _list(played["entries"], f"{at}.entries")
        if len(entries) != len(teams):
            _fail(
                f"{at}.entries",
                ngettext(
                    "%(num)s entry for a game of %(teams)s teams",
                    "%(num)s entries for a game of %(teams)s teams",
                    len(entries),
                    teams=len(teams),
                ),
            )
        rounds.append(
            [shared.setdefault(entry, entry) for entry in _check_round(rules, entries, r + 1, at, team_names)]
        )
        if any(entry.scores_only for entry in rounds[-1]) != (paper == SCORES_ONLY):
            _fail(
                f"{at}.entries",
                _(
                    "a game kept as its scores alone (paper: “scores”) has rounds of paper_score alone, "
                    "and no other game has such a round"
                ),
            )

    try:
        result = scoring.standings(rules, rounds, teams=len(teams), ended=ended)
    except ValueError as error:  # totals beyond what the engine takes
        _fail(f"{where}.rounds", str(error))
    if finished_at is not None and not result.finished:
        _fail(
            f"{where}.finished_at",
            _(
                "the game is marked finished, but its rules and rounds say it "
                "is still going (and ended_by_hand is false)"
            ),
        )
    return _Game(
        uid,
        created_at,
        played_at,
        paper,
        updated_at,
        finished_at,
        ended,
        key,
        house,
        rules,
        teams,
        dealer,
        rounds,
        night,
    )


def _night(value, played_at, where):
    """A game's night (YYYY-MM-DD): one its time falls on in some time zone, as the app
    writes it (``services.evenings.evening``: before 6 in the morning, the evening before)."""
    try:
        if not isinstance(value, str) or not _DAY.fullmatch(value):
            raise ValueError
        datetime.date.fromisoformat(value)
    except ValueError:
        _fail(where, _("must be a day like 2026-12-24, not %(value)s", value=_short(value)))
    moment = datetime.datetime.fromisoformat(played_at)
    first, last = _night_at(moment, -_ZONES_APART), _night_at(moment, _ZONES_APART)
    if not first <= value <= last:
        _fail(
            where,
            _(
                "a game played at %(played)s is on a night from %(first)s to %(last)s, "
                "whatever the time zone; not %(value)s",
                played=played_at,
                first=first,
                last=last,
                value=value,
            ),
        )
    return value


def _night_at(moment, offset):
    """The night of ``moment`` on a clock ``offset`` from UTC (at the calendar's ends, its first
    or last day)."""
    try:
        moment = moment + offset
    except OverflowError:
        return "0001-01-01" if offset < datetime.timedelta(0) else "9999-12-31"
    day = moment.date()
    if moment.hour < MORNING and day > datetime.date.min:
        day -= datetime.timedelta(days=1)
    return day.isoformat()


def _check_round(rules, entries, number, where, team_names):
    """The round's TeamRounds, or ValueError with the engine's first error."""
    round_entries = []
    for e, entry in enumerate(entries):
        at = f"{where}.entries[{e}]"
        _object(entry, at, (), _ENTRY_KEYS)
        # no more than the round form takes: a value no table could reach is a damaged file
        values = [(f.name, entry.get(f.name), f.maximum) for f in ENTRY_FIELDS if f.kind != "flag"]
        if isinstance(entry.get("books"), Mapping):
            values += [(f"books.{kind}", count, MAX_BOOKS) for kind, count in entry["books"].items()]
        for name, value, high in values:
            if isinstance(value, int) and value > high:
                _fail(
                    f"{at}.{name}",
                    _("at most %(most)s, not %(value)s", most=format(high, ","), value=format(value, ",")),
                )
        round_entries.append(TeamRound.from_dict(entry))
    for problem in scoring.check_round(rules, round_entries, number, team_names=team_names):
        if problem.level != "error":
            continue  # a warning was seen (and accepted) when the round was saved
        at = f"{where}.entries[{problem.team}]" if problem.team is not None else where
        _fail(f"{at}.{problem.field}" if problem.field else at, problem.message)
    return round_entries
