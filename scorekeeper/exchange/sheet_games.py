"""A game of a spreadsheet of past games, from its lines, in each of the three layouts
(``sheet_columns``): its teams, its rounds as the engine's entries, each team's line.

Each reader adds what is wrong to ``problems`` as (line, why) and gives None for the
teams, rounds and lines of a game that cannot be read; ``pastgames`` checks what is
left with the engine.
"""

from __future__ import annotations

import re

from .. import scoring
from ..names import MAX_NAME, clean_name, name_key, name_problem
from ..scoring import ENTRY_FIELDS, MAX_BOOKS, TeamRound
from ..scoring.language import _
from ..typed import whole_number
from ..web.language import LANGUAGES, catalog
from .checking import MAX_TEAM_NAME
from .sheet_columns import SCORE_N, TEAM_N

# the players' separators alone, "and" aside (each name is trimmed by clean_name:
# \s*(?:&|\+|/|,)\s* read a run of spaces again from each of its spaces, work that grew with
# the square of the run)
_SPLIT_PLAYERS = re.compile(r"[&+/]")
_YES = {"1", "yes", "y", "x", "true", "✓", "✔"}
_NO = {"", "0", "no", "n", "false"}
_FLAGS = {f.name for f in ENTRY_FIELDS if f.kind == "flag"}
_NOTHING = (None, None, None)


def _and_words():
    """The word that joins two players, in every language: "and", "e", "y"."""
    return {"and", *(catalog(code).gettext("and").casefold() for code in LANGUAGES)}


def players(text):
    """A team's players from its cell, each trimmed: joined by "&", "+", "/" or the word
    "and" (in any of the app's languages: "e", "y"), or by commas where nothing else joins
    them ("Ann, Bo"). A comma beside another join is inside a name: "Hughes, Dot & Emma" is
    "Hughes, Dot" and "Emma".

    :raises ValueError: no name, a name that cannot be one, more players than a team holds.
    """
    joins = _and_words()
    names = []
    for piece in _SPLIT_PLAYERS.split(text):
        words = []
        for word in piece.split():
            if word.casefold() in joins:
                names.append(" ".join(words))
                words = []
            else:
                words.append(word)
        names.append(" ".join(words))
    names = [n for n in map(clean_name, names) if n]
    if len(names) == 1 and "," in names[0]:
        names = [n for n in map(clean_name, names[0].split(",")) if n]
    if not names:
        raise ValueError(_("no players: name them, joined with &"))
    for name in names:
        problem = name_problem(name, MAX_NAME, _=_)
        if problem:
            raise ValueError(_("“%(name)s”: %(problem)s", name=name, problem=problem))
    if len(names) > scoring.MAX_PLAYERS_PER_TEAM:
        raise ValueError(_("at most %(most)s players a team", most=scoring.MAX_PLAYERS_PER_TEAM))
    return names


def _team(row, problems):
    """(its name, its players) from a line a team, or None with its problem."""
    try:
        members = players(row.cell("players"))
    except ValueError as error:
        problems.append((row.line, str(error)))
        return None
    name = clean_name(row.cell("team"))
    problem = name_problem(name, MAX_TEAM_NAME, _=_) if name else None
    if problem:
        problems.append((row.line, _("the team's name: %(problem)s", problem=problem)))
        return None
    return (name, members)


def games_game(row, header, problems):
    """(teams, its one round of totals, each team's line) from a line a game: each team's
    players and its score in their own columns; a team's columns left empty, a game of
    fewer teams."""
    before = len(problems)
    teams, scores = [], []
    for number, _players, _score in header.teams:
        names, score = row.cell(("team", number)), row.cell(("score", number))
        if not names and not score:
            continue
        if not names:
            problems.append(
                (row.line, _("“%(column)s” is empty, but its score is not", column=_(TEAM_N, number=number)))
            )
            continue
        try:
            teams.append(("", players(names)))
        except ValueError as error:
            problems.append((row.line, _("%(column)s: %(why)s", column=_(TEAM_N, number=number), why=error)))
        try:
            value = whole_number(score)
        except ValueError:
            value = False
        if value is None or value is False:
            column = _(SCORE_N, number=number)
            problems.append(
                (row.line, _("%(column)s: “%(cell)s” is not a whole number", column=column, cell=score))
                if value is False
                else (row.line, _("“%(column)s” is empty: the team's score at the end", column=column))
            )
        scores.append(value)
    if len(problems) > before:
        return _NOTHING
    return teams, [[TeamRound(paper_score=s) for s in scores]], [row.line] * len(teams)


def scores_game(rows, header, problems):
    """(teams, rounds of scores alone, each team's line) from lines of one team each, a
    column per round."""
    teams, scores = [], []
    for row in rows:
        team = _team(row, problems)
        values = []
        for number, _at in header.rounds:
            cell = row.cell(("round", number))
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
        return _NOTHING
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


def lines_game(rows, rules, where, problems):
    """(teams, rounds, each team's first line) from lines of one team in one round each, a
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
        if not (cell.isascii() and cell.isdigit() and 0 < int(cell) <= scoring.MAX_ROUNDS):
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
        return _NOTHING
    numbers = sorted(by_round)
    if numbers != list(range(1, len(numbers) + 1)):
        missing = next(n for n in range(1, len(numbers) + 2) if n not in by_round)
        problems.append(
            (rows[0].line, _("%(game)s has no round %(number)s, but a later one", game=where, number=missing))
        )
        return _NOTHING
    rounds = []
    for number in numbers:
        taken = by_round[number]
        if len(taken) != len(teams):
            line = min(line for line, _entry in taken.values())
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
            return _NOTHING
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
