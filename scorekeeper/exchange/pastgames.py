"""A spreadsheet of past games (CSV), read whole before anything is written.

Over 400 lines: both spreadsheet layouts and the message naming each bad line are read in
one pass over the file, and share their readings.

Two layouts, each a row per team (docs/export-format.md, "A spreadsheet of past games"):

- **scores**: ``date``, ``game`` (a label shared by the rows of one game), ``players``
  (joined with &, +, / or a comma), then one column per round (``round 1``, ``2``,
  ``r3``…) with the team's score for it: an old sheet that kept only scores. The game is
  kept as its scores alone.
- **lines**: ``date``, ``game``, ``round``, ``players``, and a column per line of the
  sheet (``books_clean``, ``melded_points``, ``went_out``…, the export's own names): a
  row per team per round, as Scorekeeper's own CSV export writes them.

Optional everywhere: ``time`` (else 8 pm), ``team`` (its name), ``rules`` (a rule set's
name; else the one chosen on the page). Every round goes through the engine's checks,
as a round typed on the phone does. Every bad line is named with its number and why,
and then nothing is written; a good file becomes ``checking``'s games, written by the
history import's own writer (``importer.write_checked``), so a game already here (the
same day, teams and rounds: its uid is made from them) is skipped.
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import re
from dataclasses import dataclass, field

from .. import scoring
from ..names import MAX_NAME, clean_name, name_key, name_problem
from ..scoring import ENTRY_FIELDS, MAX_BOOKS, TeamRound
from ..scoring.language import _, ngettext
from ..services.evenings import EVENING, stored
from ..services.game_model import PAPER_SHEET, SCORES_ONLY
from ..typed import whole_number
from .checking import MAX_TEAM_NAME, _Game
from .limits import (
    MAX_CELL,
    MAX_COLUMNS,
    MAX_GAME_LINES,
    MAX_HISTORY_ROUNDS,
    MAX_LINE_TEXT,
    MAX_LINES,
    MAX_PAST_GAMES,
)

#: how the file writes its days (the page's choice)
DATE_ORDERS = {
    "ymd": "2019-12-24",
    "dmy": "24/12/2019",
    "mdy": "12/24/2019",
}
MAX_PROBLEMS = 50  # said, of all the file's problems (their count is said too)
# the players' separators alone: each name is trimmed by clean_name (\s*(?:&|\+|/|,)\s* read a
# run of spaces again from each of its spaces: work that grew with the square of the run)
_SPLIT_PLAYERS = re.compile(r"[&+/,]")
_ROUND_COLUMN = re.compile(r"^(?:round[\s_]*|r)?(\d{1,3})$")
_YES = {"1", "yes", "y", "x", "true", "✓", "✔"}
_NO = {"", "0", "no", "n", "false"}


class PastGamesRefused(ValueError):
    """The file has bad lines: ``problems`` are (line number, what is wrong), in order."""

    def __init__(self, problems, total=None):
        self.problems = problems[:MAX_PROBLEMS]
        self.total = total or len(problems)
        super().__init__(
            "; ".join(_("line %(line)s: %(why)s", line=line, why=why) for line, why in self.problems)
        )


@dataclass
class Preview:
    """What a file would add: its games (checked, ready to write) and what to say of them."""

    games: list
    rounds: int = 0
    first: str | None = None  # the earliest day played
    last: str | None = None
    players: list = field(default_factory=list)  # every name in the file, as first written
    layout: str = "scores"


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
        return PastGamesRefused(self.first(), self.count)


class _Rounds:
    """The rounds of the file's games, counted as its lines are read, before any game is
    checked by the engine: a game's rounds are its lines' most (a column per round, up to
    a line's last score), or the rounds its lines name (a line per team and round)."""

    def __init__(self, columns, layout):
        self.total, self._games = 0, {}  # label: its rounds (a count, or the rounds named)
        self._round = columns.index("round") if layout == "lines" else None
        numbered = sorted((int(name), at) for at, name in enumerate(columns) if name.isdigit())
        self._numbered = [at for _number, at in reversed(numbered)]  # the last round's column first

    def add(self, label, cells):
        """Count a line of the game ``label``; return the file's rounds so far."""
        if self._round is not None:
            named = self._games.setdefault(label, set())
            cell = cells[self._round].strip() if self._round < len(cells) else ""
            if cell not in named:
                named.add(cell)
                self.total += 1
            return self.total
        last = next(
            (
                len(self._numbered) - k
                for k, at in enumerate(self._numbered)
                if at < len(cells) and cells[at].strip()
            ),
            0,
        )
        before = self._games.get(label, 0)
        if last > before:
            self._games[label] = last
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


def read_past_games(content, rule_sets, default, dates="ymd"):
    """Read a CSV of past games; return a ``Preview`` of it.

    :param content: the file's bytes (UTF-8, with or without a byte-order mark, or Windows' cp1252).
    :param rule_sets: {name key: (rule set key, RuleSet)}: what a ``rules`` cell may name.
    :param default: (rule set key, RuleSet) for games whose rows name none.
    :param dates: a key of ``DATE_ORDERS``.
    :raises PastGamesRefused: every bad line, with its number and why.
    """
    text = _decode(content)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    lines = _Lines(text)
    reader = csv.reader(lines, dialect)
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise PastGamesRefused([(1, _("not a CSV file (%(error)s)", error=error))]) from None
    if not header:
        raise PastGamesRefused([(1, _("the file is empty: its first line names the columns"))])
    lines.row_read()
    if len(header) > MAX_COLUMNS:
        count, most = format(len(header), ","), format(MAX_COLUMNS, ",")
        _refuse(
            1, _("%(count)s columns: a spreadsheet of games has at most %(most)s", count=count, most=most)
        )
    columns = [_column(name) for name in header]
    problems = _Problems()
    missing = [name for name in ("date", "game", "players") if name not in columns]
    if missing:
        raise PastGamesRefused(
            [(1, _("no “%(name)s” column (the first line names the columns)", name=name)) for name in missing]
        )
    layout = "lines" if "round" in columns else "scores"
    at = {name: i for i, name in enumerate(columns)}
    game_at = at["game"]
    games, rounds = {}, _Rounds(columns, layout)  # games: their lines, by label
    try:
        for cells in reader:
            line, source = lines.row_line, lines.row_read()
            if reader.line_num > MAX_LINES:
                _refuse(
                    line, _("a file of past games has at most %(most)s lines", most=format(MAX_LINES, ","))
                )
            if not any(cell.strip() for cell in cells):
                continue  # a blank line between games
            if len(cells) > len(columns):
                problems.append(
                    (
                        line,
                        _(
                            "%(cells)s cells, but the first line names %(columns)s",
                            cells=len(cells),
                            columns=len(columns),
                        ),
                    )
                )
                continue
            longest = max(map(len, cells))
            if longest > MAX_CELL:
                count, most = format(longest, ","), format(MAX_CELL, ",")
                problems.append(
                    (
                        line,
                        _(
                            "a cell of %(count)s characters: a cell holds at most %(most)s",
                            count=count,
                            most=most,
                        ),
                    )
                )
                continue
            label = cells[game_at].strip() if game_at < len(cells) else ""
            game = games.get(label)
            if game is None:
                if len(games) == MAX_PAST_GAMES:
                    most = format(MAX_PAST_GAMES, ",")
                    _refuse(line, _("a file of past games holds at most %(most)s games", most=most))
                game = games[label] = []
            if len(game) == MAX_GAME_LINES:
                most = format(MAX_GAME_LINES, ",")
                # Translators: a game of a spreadsheet, by its label, and its most lines
                _refuse(
                    line,
                    _(
                        "game “%(label)s” has more than %(most)s lines "
                        "(a line per team and round, six teams of 100 rounds)",
                        label=label,
                        most=most,
                    ),
                )
            if rounds.add(label, cells) > MAX_HISTORY_ROUNDS:  # each would be checked by the engine
                most = format(MAX_HISTORY_ROUNDS, ",")
                _refuse(line, _("a file of past games holds at most %(most)s rounds", most=most))
            game.append(_Row(line, source, at))
    except csv.Error as error:
        problems.append((lines.row_line, _("not readable as CSV (%(error)s)", error=error)))
        raise problems.refused() from None
    if not games and not problems:
        raise PastGamesRefused([(2, _("no games: the file has only its first line"))])
    preview = Preview([], layout=layout)
    # seen_players: every name, as first written; same: the entries checked, each kept once (a
    # score of 1,235 alone is one entry however many rounds have it, as ``checking`` keeps them)
    seen_players, same = {}, {}
    for label, game_rows in games.items():
        for row in game_rows:
            row.split(dialect)
        read = _read_game(label, game_rows, columns, rule_sets, default, dates, layout, problems, same)
        for row in game_rows:
            row.values = ()
        if read is None:
            continue
        preview.games.append(read)
        preview.rounds += len(read.rounds)
        for _name, members in read.teams:
            for name in members:
                seen_players.setdefault(name_key(name), name)
    if problems:
        raise problems.refused()
    preview.players = list(seen_players.values())
    days = sorted(game.played_at for game in preview.games)
    preview.first, preview.last = days[0], days[-1]
    return preview


def _decode(content):
    if isinstance(content, str):
        return content
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("cp1252", errors="replace")  # Excel on Windows


def _column(name):
    """A header cell as a column's name: "Round 1" -> "1", "Melded points" -> "melded_points"."""
    name = "_".join(name.strip().lower().split())
    match = _ROUND_COLUMN.match(name)
    return match[1] if match and name != "round" else name


def _day(text, dates):
    """A day as the file writes it, or ValueError saying how to write one."""
    example = DATE_ORDERS[dates]
    parts = re.split(r"[-/.]", text)
    try:
        if len(parts) != 3:
            raise ValueError
        order = {"ymd": (0, 1, 2), "dmy": (2, 1, 0), "mdy": (2, 0, 1)}[dates]
        year, month, day = (int(parts[i]) for i in order)
        if year < 100:
            raise ValueError
        return datetime.date(year, month, day)
    except ValueError:
        raise ValueError(
            _("“%(text)s” is not a day written like %(example)s", text=text, example=example)
        ) from None


def _time(text):
    if not text:
        return EVENING
    try:
        return datetime.time.fromisoformat(text if len(text) > 4 else "0" + text)
    except ValueError:
        raise ValueError(_("“%(text)s” is not a time written like 19:30", text=text)) from None


def _players(text):
    names = [clean_name(n) for n in _SPLIT_PLAYERS.split(text)]
    names = [n for n in names if n]
    if not names:
        raise ValueError(_("no players: name them, joined with &"))
    for name in names:
        problem = name_problem(name, MAX_NAME, _=_)
        if problem:
            raise ValueError(_("“%(name)s”: %(problem)s", name=name, problem=problem))
    if len(names) > scoring.MAX_PLAYERS_PER_TEAM:
        raise ValueError(_("at most %(most)s players a team", most=scoring.MAX_PLAYERS_PER_TEAM))
    return names


def _read_game(label, rows, columns, rule_sets, default, dates, layout, problems, same):
    """One game's rows checked: a ``checking._Game``, or None with its problems added.

    :param same: {entry: entry} of the games read so far: an equal entry is kept once.
    """
    before = len(problems)
    first = rows[0]
    # Translators: a game of a spreadsheet named in the messages below, by its label
    where = _("game “%(label)s”", label=label) if label else _("a game with no label")
    try:
        day = _day(first.cell("date"), dates)
        played_at = stored(day, _time(first.cell("time")))
    except ValueError as error:
        problems.append((first.line, str(error)))
        return None
    named = first.cell("rules")
    key, rules = rule_sets.get(name_key(clean_name(named)), (None, None)) if named else default
    if rules is None:
        problems.append((first.line, _("no rule set is called “%(name)s”", name=named)))
        return None
    for row in rows[1:]:
        for column, said in (("date", first.cell("date")), ("time", first.cell("time"))):
            other = row.cell(column)
            if other != said:
                problems.append(
                    (
                        row.line,
                        # Translators: %(column)s is the column's name in the file: date, time
                        _(
                            "%(game)s has the %(column)s “%(said)s” on line %(line)s, not “%(other)s”",
                            game=where,
                            column=column,
                            said=said,
                            line=first.line,
                            other=other,
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
    if layout == "lines":
        teams, rounds, lines = _lines_game(rows, rules, where, problems)
    else:
        teams, rounds, lines = _scores_game(rows, columns, problems)
    if len(problems) > before or teams is None:
        return None
    if not scoring.MIN_TEAMS <= len(teams) <= scoring.MAX_TEAMS:
        problems.append(
            (
                first.line,
                ngettext(
                    "%(game)s has %(num)s team: a game has 2 to 6, a line each",
                    "%(game)s has %(num)s teams: a game has 2 to 6, a line each",
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
                problems.append(
                    (line, _("round %(number)s: %(problem)s", number=number, problem=problem.message))
                )
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
    ended = not result.finished  # scored again as it is written (``_Game.scored``)
    paper = SCORES_ONLY if layout == "scores" else PAPER_SHEET
    text = repr(
        (
            played_at,
            rules.name,
            [(n, sorted(map(name_key, m))) for n, m in teams],
            [[e.to_dict() for e in r] for r in rounds],
        )
    )
    uid = "csv-" + hashlib.sha256(text.encode()).hexdigest()[:32]
    return _Game(
        uid=uid,
        created_at=played_at,
        played_at=played_at,
        paper=paper,
        updated_at=played_at,
        finished_at=played_at,
        ended_by_hand=ended,
        rules_key=key,
        house_rules=None,
        rules=rules,
        teams=teams,
        first_dealer=None,
        rounds=[[same.setdefault(entry, entry) for entry in entries] for entries in rounds],
    )


def _team(row, problems):
    try:
        members = _players(row.cell("players"))
    except ValueError as error:
        problems.append((row.line, str(error)))
        return None
    name = clean_name(row.cell("team"))
    problem = name_problem(name, MAX_TEAM_NAME, _=_) if name else None
    if problem:
        problems.append((row.line, _("the team's name: %(problem)s", problem=problem)))
        return None
    return (name, members)


def _scores_game(rows, columns, problems):
    """(teams, rounds of scores alone, each team's line) from rows of one team each with a
    column per round."""
    numbered = sorted((int(c), c) for c in columns if c.isdigit())
    if not numbered:
        problems.append((rows[0].line, "no round columns (“round 1”, “round 2”…) and no “round” column"))
        return None, None, None
    teams, scores = [], []
    for row in rows:
        team = _team(row, problems)
        values = []
        for number, column in numbered:
            cell = row.cell(column)
            try:
                values.append(whole_number(cell))
            except ValueError:
                problems.append(
                    (
                        row.line,
                        _("round %(number)s: “%(cell)s” is not a whole number", number=number, cell=cell),
                    )
                )
                values.append(None)
        while values and values[-1] is None:
            values.pop()
        if None in values:
            gap = values.index(None) + 1
            if row.line not in problems.lines:
                problems.append(
                    (row.line, _("round %(number)s is empty, but a later round has a score", number=gap))
                )
        if team is not None:
            teams.append(team)
            scores.append(values)
    if not teams or any(r.line in problems.lines for r in rows):
        return None, None, None
    played = len(scores[0])
    for row, values in zip(rows[1:], scores[1:]):
        if len(values) != played:
            problems.append(
                (
                    row.line,
                    _(
                        "%(rounds)s rounds, but line %(line)s of the same game has %(played)s",
                        rounds=len(values),
                        line=rows[0].line,
                        played=played,
                    ),
                )
            )
    if not played:
        problems.append((rows[0].line, _("no round has a score")))
    rounds = [[TeamRound(paper_score=values[n]) for values in scores] for n in range(played)]
    return teams, rounds, [row.line for row in rows]  # a row a team


_FLAGS = {f.name for f in ENTRY_FIELDS if f.kind == "flag"}


def _lines_game(rows, rules, where, problems):
    """(teams, rounds, each team's first line) from rows of one team in one round each, a
    column per line of the sheet."""
    teams, lines, order, by_round = [], [], {}, {}
    for row in rows:
        team = _team(row, problems)
        if team is None:
            continue
        key = tuple(sorted(map(name_key, team[1])))
        if key not in order:
            order[key] = len(teams)
            teams.append(team)
            lines.append(row.line)
        cell = row.cell("round")
        if not (cell.isdigit() and 0 < int(cell) <= scoring.MAX_ROUNDS):
            problems.append((row.line, _("“%(cell)s” is not a round's number", cell=cell)))
            continue
        entry = _entry(row, rules, problems)
        if entry is not None:
            taken = by_round.setdefault(int(cell), {})
            if order[key] in taken:
                problems.append(
                    (
                        row.line,
                        _(
                            "%(game)s: round %(number)s of %(team)s twice",
                            game=where,
                            number=cell,
                            team=" & ".join(team[1]),
                        ),
                    )
                )
            taken[order[key]] = (row.line, entry)
    if any(r.line in problems.lines for r in rows):
        return None, None, None
    numbers = sorted(by_round)
    if numbers != list(range(1, len(numbers) + 1)):
        missing = next(n for n in range(1, len(numbers) + 2) if n not in by_round)
        problems.append(
            (rows[0].line, _("%(game)s has no round %(number)s, but a later one", game=where, number=missing))
        )
        return None, None, None
    rounds = []
    for number in numbers:
        taken = by_round[number]
        if len(taken) != len(teams):
            line = min(line for line, _ in taken.values())
            problems.append(
                (
                    line,
                    _(
                        "%(game)s: round %(number)s has %(taken)s of its %(teams)s teams",
                        game=where,
                        number=number,
                        taken=len(taken),
                        teams=len(teams),
                    ),
                )
            )
            return None, None, None
        rounds.append([taken[t][1] for t in range(len(teams))])
    return teams, rounds, lines


def _entry(row, rules, problems):
    """A row's ``TeamRound`` (a blank is 0; went out is 1, yes or x), or None with its problems."""
    before = len(problems)
    books, values = {}, {}
    for kind in rules.books:
        cell = row.cell(f"books_{kind}", row.cell(kind))
        books[kind] = _count(cell, f"books_{kind}", MAX_BOOKS, row, problems)
    for f in ENTRY_FIELDS:
        cell = row.cell(f.name)
        if f.name in _FLAGS:
            if cell.lower() not in _YES | _NO:
                problems.append(
                    (
                        row.line,
                        _("%(column)s: “%(cell)s” is not 1 or 0 (yes or no)", column=f.name, cell=cell),
                    )
                )
            values[f.name] = cell.lower() in _YES
        else:
            values[f.name] = _count(cell, f.name, f.maximum, row, problems)
    return TeamRound(books=books, **values) if len(problems) == before else None


def _count(cell, name, maximum, row, problems):
    try:
        value = whole_number(cell) or 0
    except ValueError:
        problems.append((row.line, _("%(column)s: “%(cell)s” is not a whole number", column=name, cell=cell)))
        return 0
    if not 0 <= value <= maximum:
        problems.append(
            (
                row.line,
                _(
                    "%(column)s: %(value)s is not between 0 and %(most)s",
                    column=name,
                    value=format(value, ","),
                    most=format(maximum, ","),
                ),
            )
        )
    return value


def already_here(db, games):
    """How many of ``games`` (a preview's) the history holds already: the same games
    imported before (a game's uid is made from what it holds, ``csv-…``)."""
    here = {uid for (uid,) in db.execute("SELECT uid FROM games WHERE uid LIKE 'csv-%'")}
    return sum(1 for game in games if game.uid in here)
