"""The columns of a spreadsheet of past games: what each is called, in every language the
app speaks, and which of three layouts a file's first line names (issue 54).

- **a line a game** (``games``): Date, Team 1, Team 2…, Team 1 score, Team 2 score…, as a
  family keeps one (each team's players joined by "&", "and", "+" or "/"); the scores
  are the game's totals.
- **a line a team** (``scores``): Date, Game, Players, Round 1, Round 2…: each round's
  score, as an old paper sheet kept them.
- **a line a team and round** (``lines``): Date, Game, Round, Players, then the sheet's
  lines by the export's own names (``books_clean``, ``melded_points``…), as the app's
  spreadsheet export writes them.

Optional in each: Time, Game (a line a game), Team (its name, a line a team), Rules.

A column is known by its name folded (case, accents, spaces and underscores): "Team 1
score", "team_1_score" and "TEAM 1 SCORE" are one column. The names the template writes
are the catalogs' (``N_`` below), so the reader accepts the names of every catalog,
whatever the household's language is now, beside English's other spellings
(``round_1``, ``r1``, ``score 1``…). No pattern is built from them: a name is matched by
its start and end (``str.startswith``), never by a regular expression.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass, field

from babel.numbers import get_decimal_symbol

from ..scoring import ENTRY_FIELDS
from ..scoring.language import N_, _, language
from ..web.language import LANGUAGES, catalog

# Translators: the name of a column of a spreadsheet of past games (its template, and what
# the import reads). Each of these is one or two words; the import reads them in every language.
DATE = N_("Date")
# Translators: the name of a column of a spreadsheet of past games (the time a game began)
TIME = N_("Time")
# Translators: the name of a column of a spreadsheet of past games (the game's number that evening)
GAME = N_("Game")
# Translators: the name of a column of a spreadsheet of past games (a team's players, joined by &)
PLAYERS = N_("Players")
# Translators: the name of a column of a spreadsheet of past games (a team's name)
TEAM = N_("Team")
# Translators: the name of a column of a spreadsheet of past games (the rule set's name)
RULES = N_("Rules")
# Translators: the name of a column of a spreadsheet of past games (a round's number)
ROUND = N_("Round")
# Translators: the name of a column of a spreadsheet of past games (a round's scores)
ROUND_N = N_("Round %(number)s")
# Translators: the name of a column of a spreadsheet of past games (a team's players, joined by &)
TEAM_N = N_("Team %(number)s")
# Translators: the name of a column of a spreadsheet of past games (a team's final score)
SCORE_N = N_("Team %(number)s score")

#: the columns known by a name, and the other spellings English reads
NAMED = {
    "date": (DATE, "day"),
    "time": (TIME,),
    "game": (GAME, "game_no", "game_number", "game_#", "#"),
    "players": (PLAYERS, "player", "names"),
    "team": (TEAM, "team_name"),
    "rules": (RULES, "rule_set", "ruleset"),
    "round": (ROUND,),
}
#: the columns known by a name and a number, and English's other spellings as (start, end)
NUMBERED = {
    "round": (ROUND_N, ("round", ""), ("r", ""), ("", "")),
    "team": (TEAM_N, ("team", ""), ("players_", ""), ("team_", "_players")),
    "score": (
        SCORE_N,
        ("team_", "_points"),
        ("team_", "_total"),
        ("score_", ""),
        ("points_", ""),
        ("total_", ""),
        ("score_team_", ""),
    ),
}
_ENTRIES = frozenset(f.name for f in ENTRY_FIELDS)
#: the most digits a column's number has (a round is 1 to 100)
NUMBER_DIGITS = 3
#: how each layout is said on the page
LAYOUTS = {
    "games": N_("a line a game, each team's players and score in its own columns"),
    "scores": N_("a line a team, each round's score in its own column"),
    "lines": N_("a line a team and round, the sheet's lines in their own columns"),
}
#: the rounds the template's line-a-team layout writes columns for (Hand and Foot's four)
TEMPLATE_ROUNDS = 4
#: the teams the template's line-a-game layout writes columns for
TEMPLATE_TEAMS = 2


def fold(text):
    """A column's name as compared: "Équipe 1 " -> "equipe_1", "Books clean" -> "books_clean"."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return "_".join(plain.casefold().replace("_", " ").split())


@functools.lru_cache(maxsize=1)
def _vocabulary():
    """({folded name: column}, [(start, end, kind)]) in every language with a catalog."""
    names, numbered = {}, []
    for code in LANGUAGES:
        words = catalog(code)
        for key, spellings in NAMED.items():
            for spelling in (words.gettext(spellings[0]), *spellings):
                names.setdefault(fold(spelling), key)
        for kind, (message, *others) in NUMBERED.items():
            start, _mark, end = fold(words.gettext(message) % {"number": "\x00"}).partition("\x00")
            for pair in ((start, end), *others):
                if (*pair, kind) not in numbered:
                    numbered.append((*pair, kind))
    # the longest starts and ends first: "team_1_score" is a score, not a team's "1_score"
    numbered.sort(key=lambda item: -len(item[0]) - len(item[1]))
    return names, numbered


def column(text):
    """A first line's cell as the column it names: "date", ("round", 3), ("score", 1)…, or its
    folded name ("books_clean"): the sheet's lines and any column the reader does not know."""
    folded = fold(text)
    names, numbered = _vocabulary()
    if folded in names:
        return names[folded]
    for start, end, kind in numbered:
        if len(folded) > len(start) + len(end) and folded.startswith(start) and folded.endswith(end):
            number = folded[len(start) : len(folded) - len(end)]
            if number.isascii() and number.isdigit() and len(number) <= NUMBER_DIGITS:
                return (kind, int(number))
    return folded


def letter(at):
    """A column's letter, as a spreadsheet heads it: 0 -> "A", 26 -> "AA"."""
    text = ""
    at += 1
    while at:
        at, rest = divmod(at - 1, 26)
        text = chr(ord("A") + rest) + text
    return text


@dataclass
class Header:
    """What a file's first line names: its layout and where each column is."""

    layout: str  # "games", "scores" or "lines"
    at: dict  # column -> its place: "date", "game"…, and the sheet's lines by their folded names
    rounds: list = field(default_factory=list)  # (number, place) of each round's column, in order
    teams: list = field(default_factory=list)  # (number, players' place, score's place), in order
    unread: list = field(default_factory=list)  # the names of the columns no layout reads

    @property
    def said(self):
        """The layout, in the reader's words."""
        return _(LAYOUTS[self.layout])


class HeaderRefused(ValueError):
    """The first line cannot be read: ``problems`` say why, each a sentence."""

    def __init__(self, problems):
        self.problems = problems
        super().__init__("; ".join(problems))


def read_header(cells):
    """The ``Header`` a first line's cells name.

    :raises HeaderRefused: a column named twice, a round or team numbered 0, a round or a
        team's score missing, the columns of no layout.
    """
    places, problems = {}, []  # column -> its places
    for at, cell in enumerate(cells):
        if cell.strip():
            places.setdefault(column(cell), []).append(at)
    for key, found in places.items():
        if len(found) > 1 and _read_by_name(key):
            first, second = found[:2]
            problems.append(
                _(
                    "columns %(first)s (“%(one)s”) and %(second)s (“%(other)s”) are the same "
                    "column: keep one",
                    first=letter(first),
                    one=cells[first].strip(),
                    second=letter(second),
                    other=cells[second].strip(),
                )
            )
    for key, found in places.items():
        if isinstance(key, tuple) and key[1] == 0:
            # Translators: a column such as "Round 0" or "Team 0"
            problems.append(
                _(
                    "column %(column)s (“%(name)s”): they are numbered from 1",
                    column=letter(found[0]),
                    name=cells[found[0]].strip(),
                )
            )
    at = {key: found[0] for key, found in places.items()}
    numbers = {
        kind: sorted(k[1] for k in at if isinstance(k, tuple) and k[0] == kind and k[1]) for kind in NUMBERED
    }
    if numbers["team"] or numbers["score"]:
        header = Header("games", at)
        problems += _games_columns(header, numbers)
    elif "round" in at:
        header = Header("lines", at)
        problems += _missing(at, ("date", "game", "players"))
    elif "players" in at or numbers["round"]:
        header = Header("scores", at)
        problems += _missing(at, ("date", "game", "players"))
        problems += _round_columns(header, numbers["round"])
    else:
        raise HeaderRefused(
            [
                _(
                    "none of these columns is one read here: a line a game has %(games)s; "
                    "a line a team has %(teams)s",
                    games=", ".join(template_columns("games")),
                    teams=", ".join(template_columns("scores")) + "…",
                )
            ]
        )
    if problems:
        raise HeaderRefused(problems)
    if header.layout != "lines":  # the sheet's lines depend on each game's rules
        used = {"date", "time", "game", "rules"}
        if header.layout == "scores":
            used |= {"players", "team", *(("round", n) for n, _at in header.rounds)}
        else:
            used |= {key for n, _p, _s in header.teams for key in (("team", n), ("score", n))}
        header.unread = [cells[found].strip() for key, found in at.items() if key not in used]
    return header


def _read_by_name(key):
    """Whether a column is one the reader looks for (one it does not know may be there
    twice, a "Notes" beside a "notes": it is not read)."""
    return isinstance(key, tuple) or key in NAMED or key in _ENTRIES or key.startswith("books_")


def _missing(at, needed):
    return [
        _("no “%(name)s” column (the first line names the columns)", name=_(NAMED[key][0]))
        for key in needed
        if key not in at
    ]


def _round_columns(header, numbers):
    """The rounds' columns in order, or what is missing."""
    if not numbers:
        return [_("no round columns (“%(name)s”…)", name=_(ROUND_N, number=1))]
    gap = next((n for n in range(1, numbers[-1] + 1) if n not in numbers), None)
    if gap is not None:
        later = next(n for n in numbers if n > gap)
        return [
            _(
                "no “%(name)s” column, but a “%(later)s” column",
                name=_(ROUND_N, number=gap),
                later=_(ROUND_N, number=later),
            )
        ]
    header.rounds = [(n, header.at[("round", n)]) for n in numbers]
    return []


def _games_columns(header, numbers):
    """The teams' columns of a line a game in order, or what is missing."""
    problems = _missing(header.at, ("date",))
    teams, scores = numbers["team"], numbers["score"]
    for number in sorted(set(teams) | set(scores)):
        if number not in scores:
            problems.append(
                _(
                    "a “%(team)s” column, but no “%(score)s”",
                    team=_(TEAM_N, number=number),
                    score=_(SCORE_N, number=number),
                )
            )
        elif number not in teams:
            problems.append(
                _(
                    "a “%(score)s” column, but no “%(team)s” (its players)",
                    team=_(TEAM_N, number=number),
                    score=_(SCORE_N, number=number),
                )
            )
    both = [n for n in teams if n in scores]
    gap = next((n for n in range(1, (both or [0])[-1] + 1) if n not in both), None)
    if gap is not None and not problems:
        problems.append(_("no “%(team)s” column, but later teams", team=_(TEAM_N, number=gap)))
    if len(both) < 2 and not problems:
        problems.append(
            _(
                "a line a game has a column for each team's players and one for its score: "
                "“%(first)s”, “%(second)s”, “%(first_score)s”, “%(second_score)s”",
                first=_(TEAM_N, number=1),
                second=_(TEAM_N, number=2),
                first_score=_(SCORE_N, number=1),
                second_score=_(SCORE_N, number=2),
            )
        )
    header.teams = [(n, header.at[("team", n)], header.at[("score", n)]) for n in both]
    return problems


def template_columns(layout):
    """The first line of the template of ``layout`` ("games" or "scores"), in the reader's words."""
    if layout == "games":
        teams = range(1, TEMPLATE_TEAMS + 1)
        return [
            _(DATE),
            _(GAME),
            *(_(TEAM_N, number=n) for n in teams),
            *(_(SCORE_N, number=n) for n in teams),
        ]
    return [_(DATE), _(GAME), _(PLAYERS), *(_(ROUND_N, number=n) for n in range(1, TEMPLATE_ROUNDS + 1))]


def template(layout):
    """A spreadsheet to fill in, as CSV: the first line of ``layout`` in the reader's words,
    and nothing else (an example line would come in with the family's games). Separated
    as the reader's spreadsheet separates a list (a semicolon where a comma is the
    decimal mark), with a byte-order mark and CRLF, as Excel reads a UTF-8 file."""
    separator = ";" if get_decimal_symbol(language()) == "," else ","
    cells = [
        '"' + name.replace('"', '""') + '"' if separator in name else name
        for name in template_columns(layout)
    ]
    return "\ufeff" + separator.join(cells) + "\r\n"
