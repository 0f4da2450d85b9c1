"""A spreadsheet of past games (CSV), read whole before anything is written.

Over 400 lines: the file's lines are read, bounded and grouped into games in one pass,
and each game's common checks and what the preview lists of it share their readings.

Three layouts, told apart by the first line (``sheet_columns``; docs/export-format.md, "A
spreadsheet of past games"): a line a game (Date, Team 1, Team 2, Team 1 score, Team 2
score), a line a team (Date, Game, Players, Round 1, Round 2…) and a line a team and round
(the app's own export). The first line that holds anything names the columns, in any of
the app's languages.

A game is its day and its number together: numbers that start again each evening are
games of their own. Days are read with the year first whatever the page says, and with
it last in the order the file shows (``sheet_days``), the family asked only where the file
cannot say. A day later than now is refused, as New game refuses it. Every round goes
through the engine's checks, as a round typed on the phone does. Every bad line is named
with its number and why, and then nothing is written; a good file becomes ``checking``'s
games, written by the history import's own writer (``importer.write_checked``).

A game's uid is made from what the family typed (the day and time as written, the rules,
the teams, the rounds), never from the stored time: the same file is the same games on a
computer in any zone. ``compare`` tells the preview which games are here already (the same
uid), which are like a game here (``services.alike``: the same night, players and
totals, however it came in) and which the file holds twice.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
from dataclasses import dataclass, field

from .. import scoring
from ..names import clean_name, name_key
from ..scoring.language import _, ngettext
from ..services import alike
from ..services.evenings import evening, played
from ..services.game_model import PAPER_SHEET, SCORES_ONLY
from .checking import _Game
from .limits import (
    MAX_CELL,
    MAX_COLUMNS,
    MAX_GAME_LINES,
    MAX_HISTORY_ROUNDS,
    MAX_LINE_TEXT,
    MAX_LINES,
    MAX_PAST_GAMES,
)
from .sheet_columns import HeaderRefused, read_header
from .sheet_days import ORDERS, Days, DaysAsked
from .sheet_games import games_game, lines_game, scores_game

__all__ = [
    "DATE_ORDERS",
    "DaysAsked",
    "PastGame",
    "PastGamesRefused",
    "Preview",
    "compare",
    "read_past_games",
]

#: how the file writes its days with the year last (the page's choice; "auto": as the file shows)
DATE_ORDERS = ORDERS
MAX_PROBLEMS = 50  # said, of all the file's problems (how many lines have one is said too)


class PastGamesRefused(ValueError):
    """The file has bad lines: ``problems`` are (line number, what is wrong), in order, the
    first ``MAX_PROBLEMS``; ``lines``: how many lines have one, ``shown`` of them listed."""

    def __init__(self, problems, lines=None):
        self.problems = problems[:MAX_PROBLEMS]
        self.lines = lines or len({line for line, _why in problems})
        self.shown = len({line for line, _why in self.problems})
        super().__init__(
            "; ".join(_("line %(line)s: %(why)s", line=line, why=why) for line, why in self.problems)
        )


@dataclass
class PastGame:
    """A game of the file as the preview lists it: when, its teams, the engine's totals and
    winners, and what the history holds of it (``compare``)."""

    line: int  # its first line
    label: str  # its number as the file writes it ("" for none)
    played_at: str
    night: str
    teams: list  # each team's name as shown
    players: tuple  # each team's players' name keys, sorted: "the same players"
    totals: list
    winners: tuple
    uid: str
    here: bool = False  # this very game came in before (its uid)
    twice: int | None = None  # the first line of the same game earlier in this file
    alike: alike.Alike | None = None  # a game of the history like it
    alike_line: int | None = None  # or the first line of a game like it earlier in this file

    @property
    def new(self):
        """Nothing like it is here or earlier in the file: it is imported."""
        return not (self.here or self.twice or self.alike or self.alike_line)

    @property
    def optional(self):
        """Like a game here (or one earlier in the file): left out unless the family asks."""
        return not (self.here or self.twice) and bool(self.alike or self.alike_line)


@dataclass
class Preview:
    """What a file would add: its games (checked, ready to write) and what to say of them."""

    games: list  # ``checking._Game``s
    listed: list = field(default_factory=list)  # a ``PastGame`` for each, in the same order
    rounds: int = 0
    first: str | None = None  # the earliest day played
    last: str | None = None
    players: list = field(default_factory=list)  # every name in the file, as first written
    layout: str = "scores"
    said: str = ""  # the layout, in the reader's words
    order: str | None = None  # "dmy" or "mdy": how its days with the year last were read
    warnings: list = field(default_factory=list)  # (line, what to look at): nothing refused
    unread: list = field(default_factory=list)  # the names of the columns no layout reads

    def chosen(self, anyway=()):
        """The games an import writes: the new ones, and those like a game here whose uid is
        in ``anyway`` (the family ticked them)."""
        return [g for g, p in zip(self.games, self.listed) if p.new or (p.optional and p.uid in anyway)]

    @property
    def already(self):
        """How many of its games are here already or earlier in the file (skipped)."""
        return sum(1 for p in self.listed if p.here or p.twice)

    def alike(self, anyway=()):
        """How many games like one here are left out (not ticked in ``anyway``)."""
        return sum(1 for p in self.listed if p.optional and p.uid not in anyway)


class _Row:
    """A line of the file: its number and its text, kept as read (a line of short cells
    would take some ten times its size as a string a cell); its cells (``cell(column)``,
    "" where it has none) only while its game is read (``split``)."""

    __slots__ = ("columns", "line", "source", "values")

    def __init__(self, line, source, columns):
        self.line, self.source, self.columns, self.values = line, source, columns, ()  # columns: {name: at}

    def split(self, dialect):
        """Its cells, trimmed, until ``values`` is emptied again."""
        self.values = tuple(map(str.strip, next(csv.reader([self.source], dialect))))

    def cell(self, name, default=""):
        at = self.columns.get(name)
        return self.values[at] if at is not None and at < len(self.values) else default


def _refuse(line, why):
    """Refuse the file at once, at a limit: at ``line``, for ``why``."""
    raise PastGamesRefused([(line, why)])


class _Problems:
    """Every problem found, counted, of which the first ``MAX_PROBLEMS`` by line are kept
    (a file of 200,000 bad lines is not 200,000 messages held), and the lines that have one."""

    def __init__(self):
        self.count, self.lines, self._kept = 0, set(), []

    def __len__(self):
        return self.count

    def append(self, problem):
        self.count += 1
        self.lines.add(problem[0])
        self._kept.append(problem)
        if len(self._kept) >= 20 * MAX_PROBLEMS:
            self._kept = self.first()

    def first(self):
        return sorted(self._kept)[:MAX_PROBLEMS]

    def refused(self):
        return PastGamesRefused(self.first(), len(self.lines))


class _Rounds:
    """The rounds of the file's games, counted as its lines are read, before any game is
    checked by the engine: a line a game is one round (its totals), a line a team has its
    lines' most (a column per round, up to a line's last score), and a line a team and
    round the rounds its lines name."""

    def __init__(self, header):
        self.total, self._games, self._layout = 0, {}, header.layout  # games: their rounds
        self._round = header.at.get("round")
        self._numbered = [at for _number, at in reversed(header.rounds)]  # the last round's column first

    def add(self, key, cells):
        """Count a line of the game ``key``; return the file's rounds so far."""
        if self._layout == "games":
            self.total += 1
        elif self._layout == "lines":
            named = self._games.setdefault(key, set())
            cell = cells[self._round].strip() if self._round < len(cells) else ""
            if cell not in named:
                named.add(cell)
                self.total += 1
        else:
            last = next(
                (
                    len(self._numbered) - k
                    for k, at in enumerate(self._numbered)
                    if at < len(cells) and cells[at].strip()
                ),
                0,
            )
            before = self._games.get(key, 0)
            if last > before:
                self._games[key] = last
                self.total += last - before
        return self.total


class _Lines:
    """The file's lines as ``csv.reader`` reads them, each row (its line, or its lines when
    a cell holds a line break) refused past ``MAX_LINE_TEXT`` characters before it is split
    into cells: so no row, and no cell, is longer. ``row_read`` starts the next row's count."""

    def __init__(self, text):
        self.text, self.at, self.number = text, 0, 0
        self.row, self.row_line, self.pieces = 0, 1, []  # the row being read: its length, first line, lines

    def __iter__(self):
        return self

    def __next__(self):
        if self.at >= len(self.text):
            raise StopIteration
        line = _line_at(self.text, self.at)
        self.at += len(line)
        self.number += 1
        if not self.row:
            self.row_line = self.number
        self.row += len(line.rstrip("\r\n"))
        self.pieces.append(line)
        if self.row > MAX_LINE_TEXT or (self.at < len(self.text) and not line.endswith(("\n", "\r"))):
            most = format(MAX_LINE_TEXT, ",")
            _refuse(
                self.row_line,
                _("a line of more than %(most)s characters: no sheet of games is so wide", most=most),
            )
        if self.number > MAX_LINES:
            _refuse(
                self.number, _("a file of past games has at most %(most)s lines", most=format(MAX_LINES, ","))
            )
        return line

    def row_read(self):
        """The row just read, as its text; the next row starts."""
        source, self.row, self.pieces = "".join(self.pieces), 0, []
        return source


def _line_at(text, at):
    """The line of ``text`` from ``at`` with its line break (\\r\\n, \\r or \\n), or its first
    ``MAX_LINE_TEXT`` characters where no break comes within them: what is read is never longer."""
    reach = min(len(text), at + MAX_LINE_TEXT + 1)
    breaks = [i for i in (text.find("\r", at, reach), text.find("\n", at, reach)) if i >= 0]
    if not breaks:
        return text[at : min(len(text), at + MAX_LINE_TEXT)]
    cut = min(breaks)
    return text[at : cut + (2 if text.startswith("\r\n", cut) else 1)]


def _header(reader, lines):
    """(the first line that holds anything, its number): a blank line, or a line of empty
    cells, before it is skipped."""
    for cells in reader:
        line = lines.row_line
        lines.row_read()
        if any(cell.strip() for cell in cells):
            return cells, line
    raise PastGamesRefused([(1, _("the file is empty: its first line names the columns"))])


def read_past_games(content, rule_sets, default, dates="auto", now=None):
    """Read a CSV of past games; return a ``Preview`` of it.

    :param content: the file's bytes (UTF-8, with or without a byte-order mark, or Windows' cp1252).
    :param rule_sets: {name key: (rule set key, RuleSet)}: what a ``rules`` cell may name.
    :param default: (rule set key, RuleSet) for games whose rows name none.
    :param dates: a key of ``DATE_ORDERS``: how days with the year last are written.
    :param now: this computer's time (aware), for the days later than it; now, unless given.
    :raises PastGamesRefused: every bad line, with its number and why.
    :raises DaysAsked: the file's days could be read day first or month first, and
        ``dates`` does not say which.
    """
    text = _decode(content)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    lines = _Lines(text)
    reader = csv.reader(lines, dialect)
    try:
        cells, header_line = _header(reader, lines)
    except csv.Error as error:
        raise PastGamesRefused([(lines.row_line, _("not a CSV file (%(error)s)", error=error))]) from None
    if len(cells) > MAX_COLUMNS:
        count, most = format(len(cells), ","), format(MAX_COLUMNS, ",")
        _refuse(
            header_line,
            _("%(count)s columns: a spreadsheet of games has at most %(most)s", count=count, most=most),
        )
    try:
        header = read_header(cells)
    except HeaderRefused as refused:
        raise PastGamesRefused([(header_line, why) for why in refused.problems]) from None
    problems, days, columns = _Problems(), Days(), len(cells)
    games, rounds = {}, _Rounds(header)  # games: their lines, by (day as written, number)
    date_at, game_at = header.at["date"], header.at.get("game")
    try:
        for cells in reader:
            line, source = lines.row_line, lines.row_read()
            if not any(cell.strip() for cell in cells):
                continue  # a blank line between games
            if not _within(line, cells, columns, problems):
                continue
            label = cells[game_at].strip() if game_at is not None and game_at < len(cells) else ""
            written = cells[date_at].strip() if date_at < len(cells) else ""
            key = (written, label)
            if header.layout == "games":
                if label and key in games:
                    problems.append(
                        (
                            line,
                            _(
                                "game “%(label)s” of %(day)s is on line %(line)s too: a line a game",
                                label=label,
                                day=written,
                                line=games[key][0].line,
                            ),
                        )
                    )
                    continue
                key = key if label else (written, line)
            game = games.get(key)
            if game is None:
                if len(games) == MAX_PAST_GAMES:
                    most = format(MAX_PAST_GAMES, ",")
                    _refuse(line, _("a file of past games holds at most %(most)s games", most=most))
                game = games[key] = []
                days.see(line, written)
            if len(game) == MAX_GAME_LINES:
                most = format(MAX_GAME_LINES, ",")
                # Translators: a game of a spreadsheet, by its number and day, and its most lines
                _refuse(
                    line,
                    _(
                        "game “%(label)s” of %(day)s has more than %(most)s lines "
                        "(a line per team and round, six teams of 100 rounds)",
                        label=label,
                        day=written,
                        most=most,
                    ),
                )
            if rounds.add(key, cells) > MAX_HISTORY_ROUNDS:  # each would be checked by the engine
                most = format(MAX_HISTORY_ROUNDS, ",")
                _refuse(line, _("a file of past games holds at most %(most)s rounds", most=most))
            game.append(_Row(line, source, header.at))
    except csv.Error as error:
        problems.append((lines.row_line, _("not readable as CSV (%(error)s)", error=error)))
        raise problems.refused() from None
    if not games and not problems:
        raise PastGamesRefused([(header_line + 1, _("no games: the file has only its first line"))])
    order = days.order(dates)
    preview = Preview([], layout=header.layout, said=header.said, unread=header.unread)
    preview.order = order if days.day_first or days.month_first or days.either else None
    now = now or datetime.datetime.now().astimezone()
    # seen_players: every name, as first written; same: the entries checked, each kept once (a
    # score of 1,235 alone is one entry however many rounds have it, as ``checking`` keeps them)
    seen_players, same = {}, {}
    reading = _Reading(header, rule_sets, default, order, now, problems, same, preview.warnings)
    for (written, label), game_rows in games.items():
        for row in game_rows:
            row.split(dialect)
        read = reading.game(written, label if isinstance(label, str) else "", game_rows)
        for row in game_rows:
            row.values = ()
        if read is None:
            continue
        game, listed = read
        preview.games.append(game)
        preview.listed.append(listed)
        preview.rounds += len(game.rounds)
        for _name, members in game.teams:
            for name in members:
                seen_players.setdefault(name_key(name), name)
    if problems:
        raise problems.refused()
    preview.players = list(seen_players.values())
    played_days = sorted(game.played_at for game in preview.games)
    preview.first, preview.last = played_days[0], played_days[-1]
    del preview.warnings[MAX_PROBLEMS:]
    return preview


def _within(line, cells, columns, problems):
    """Whether a line's cells are within its first line's columns and ``MAX_CELL``; else
    its problem is added."""
    if len(cells) > columns:
        problems.append(
            (
                line,
                _("%(cells)s cells, but the first line names %(columns)s", cells=len(cells), columns=columns),
            )
        )
        return False
    longest = max(map(len, cells))
    if longest > MAX_CELL:
        count, most = format(longest, ","), format(MAX_CELL, ",")
        problems.append(
            (line, _("a cell of %(count)s characters: a cell holds at most %(most)s", count=count, most=most))
        )
        return False
    return True


def _decode(content):
    if isinstance(content, str):
        return content
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("cp1252", errors="replace")  # Excel on Windows


def _time(text):
    """A time as written ("19:30", "7:30"), or None for none."""
    if not text:
        return None
    try:
        return datetime.time.fromisoformat(text if len(text) > 4 else "0" + text)
    except ValueError:
        raise ValueError(_("“%(text)s” is not a time written like 19:30", text=text)) from None


@dataclass
class _Reading:
    """What reading each game of a file shares: its first line, the rule sets, how its days
    are written, now; where its problems, entries and warnings go."""

    header: object
    rule_sets: dict
    default: tuple
    order: str
    now: datetime.datetime
    problems: _Problems
    same: dict  # {entry: entry} of the games read so far: an equal entry is kept once
    warnings: list

    def game(self, written, label, rows):
        """One game's rows checked: (a ``checking._Game``, its ``PastGame``), or None with
        its problems added."""
        problems, before, first = self.problems, len(self.problems), rows[0]
        layout = self.header.layout
        if layout == "games":
            # Translators: the game of a line of a spreadsheet with a game a line, in the messages below
            where = _("this game")
        elif label:
            # Translators: a game of a spreadsheet named in the messages below, by its number and day
            where = _("game “%(label)s” of %(day)s", label=label, day=written)
        else:
            where = _("the game of %(day)s with no number", day=written)
        try:
            day = Days.day(written, self.order)
            time = _time(first.cell("time"))
            played_at = played(day, time, self.now) or self.now.astimezone(datetime.UTC).isoformat(
                timespec="seconds"
            )
        except ValueError as error:
            problems.append((first.line, str(error)))
            return None
        named = first.cell("rules")
        key, rules = self.rule_sets.get(name_key(clean_name(named)), (None, None)) if named else self.default
        if rules is None:
            problems.append((first.line, _("no rule set is called “%(name)s”", name=named)))
            return None
        for row in rows[1:]:
            if row.cell("time") != first.cell("time"):
                problems.append(
                    (
                        row.line,
                        _(
                            "%(game)s has the time “%(said)s” on line %(line)s, not “%(other)s”",
                            game=where,
                            said=first.cell("time"),
                            line=first.line,
                            other=row.cell("time"),
                        ),
                    )
                )
            if row.cell("rules") != named:
                problems.append(
                    (
                        row.line,
                        _(
                            "%(game)s is played under “%(rules)s” on line %(line)s",
                            game=where,
                            rules=named or rules.name,
                            line=first.line,
                        ),
                    )
                )
        if layout == "games":
            teams, rounds, lines = games_game(first, self.header, problems)
        elif layout == "lines":
            teams, rounds, lines = lines_game(rows, rules, where, problems)
        else:
            teams, rounds, lines = scores_game(rows, self.header, problems)
        if len(problems) > before or teams is None:
            return None
        if not scoring.MIN_TEAMS <= len(teams) <= scoring.MAX_TEAMS:
            problems.append(
                (
                    first.line,
                    ngettext(
                        "%(game)s has %(num)s team: a game has 2 to 6",
                        "%(game)s has %(num)s teams: a game has 2 to 6",
                        len(teams),
                        game=where,
                    ),
                )
            )
            return None
        seen = {}
        for line, (_name, members) in zip(lines, teams):
            for name in members:
                if name_key(name) in seen:
                    problems.append(
                        (
                            line,
                            _(
                                "“%(name)s” plays twice in %(game)s (line %(line)s)",
                                name=name,
                                game=where,
                                line=seen[name_key(name)],
                            ),
                        )
                    )
                seen.setdefault(name_key(name), line)
        team_names = [name or " & ".join(members) for name, members in teams]
        for number, entries in enumerate(rounds, start=1):
            for problem in scoring.check_round(rules, entries, number, team_names=team_names):
                if problem.level == "error":
                    line = lines[problem.team] if problem.team is not None else first.line
                    said = (
                        problem.message
                        if layout == "games"
                        else _("round %(number)s: %(problem)s", number=number, problem=problem.message)
                    )
                    problems.append((line, said))
        if len(problems) > before:
            return None
        result = scoring.standings(rules, rounds, teams=len(teams))
        if result.ended_after is not None and result.ended_after < len(rounds):
            problems.append(
                (
                    first.line,
                    _(
                        "%(game)s: these rules (%(rules)s) end the game after round %(ended)s, "
                        "but it has %(rounds)s: is it another rule set?",
                        game=where,
                        rules=rules.name,
                        ended=result.ended_after,
                        rounds=len(rounds),
                    ),
                )
            )
            return None
        self._sizes(teams, lines)
        return self._made(label, day, time, played_at, key, rules, teams, rounds, result, first.line)

    def _sizes(self, teams, lines):
        """A warning for each team larger than the others: a name split in two?"""
        sizes = [len(members) for _name, members in teams]
        if max(sizes) > min(sizes):
            for line, (_name, members) in zip(lines, teams):
                if len(members) == max(sizes):
                    self.warnings.append(
                        (
                            line,
                            _(
                                "“%(team)s” is a team of %(count)s, more than the others: "
                                "should two of these names be one?",
                                team=" & ".join(members),
                                count=len(members),
                            ),
                        )
                    )

    def _made(self, label, day, time, played_at, key, rules, teams, rounds, result, line):
        """The game as the writer takes it, and as the preview lists it."""
        ended = not result.finished  # scored again as it is written (``_Game.scored``)
        keys = [tuple(sorted(map(name_key, members))) for _name, members in teams]
        # what the family typed, never the stored time: the same in any time zone
        typed = (
            day.isoformat(),
            time.strftime("%H:%M") if time else "",
            rules.name,
            [(name, list(k)) for (name, _members), k in zip(teams, keys)],
            [[e.to_dict() for e in r] for r in rounds],
        )
        uid = "csv-" + hashlib.sha256(repr(typed).encode()).hexdigest()[:32]
        game = _Game(
            uid=uid,
            created_at=played_at,
            played_at=played_at,
            paper=SCORES_ONLY if self.header.layout != "lines" else PAPER_SHEET,
            updated_at=played_at,
            finished_at=played_at,
            ended_by_hand=ended,
            rules_key=key,
            house_rules=None,
            rules=rules,
            teams=teams,
            first_dealer=None,
            rounds=[[self.same.setdefault(entry, entry) for entry in entries] for entries in rounds],
        )
        listed = PastGame(
            line=line,
            label=label,
            played_at=played_at,
            night=evening(played_at),
            teams=[name or " & ".join(members) for name, members in teams],
            players=tuple(keys),
            totals=list(result.totals),
            winners=scoring.verdict(result.totals, True, len(rounds)).winners,
            uid=uid,
        )
        return game, listed


def compare(db, preview):
    """Say what the history holds of each game of ``preview``: the very game (its uid), a
    game like it (the same night, players and totals: ``services.alike``), or the same game
    or one like it earlier in the file. Reads only the games of the file's nights."""
    here = alike.uids_here(db, [p.uid for p in preview.listed])
    found = alike.find(
        db, {i: (p.night, alike.signature(p.players, p.totals)) for i, p in enumerate(preview.listed)}
    )
    uids, signatures = {}, {}
    for i, p in enumerate(preview.listed):
        p.here = p.uid in here
        p.alike = found.get(i)
        if p.here or p.alike:
            continue
        signature = (p.night, alike.signature(p.players, p.totals))
        if p.uid in uids:
            p.twice = uids[p.uid]
        elif signature in signatures:
            p.alike_line = signatures[signature]
        uids.setdefault(p.uid, p.line)
        signatures.setdefault(signature, p.line)
    return preview
