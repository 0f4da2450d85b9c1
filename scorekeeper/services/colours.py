"""A colour for each player (issue 58), the one palette every drawing of players takes
its colours from: the game's race chart, a year's page, the result pictures, the
evening's tables (and the yearbook).

The palette is Okabe and Ito's ("Color Universal Design", 2008), yellow left out (a
line of it on white paper is hardly seen): its colours stay apart for readers with
any of the three kinds of colour blindness. In grey print some come out alike, so
each colour also has its own marker shape and a lightness step (``step``: 1 the
darkest); two colours of one step differ by their shape (tests/unit/test_colours.py
measures both). A colour is never the only sign: every swatch has its name in words
beside it, or the player's name.

A player is given the least used colour when first made (the first of the palette
among those as little used), so a family of seven has seven colours; players made
before colours were kept get theirs in the order they were made (``assign_missing``,
called once the migrations have run).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..names import clean_name, name_key
from ..scoring.language import N_, _
from ..storage.db import transaction
from . import NotFound


@dataclass(frozen=True)
class Colour:
    key: str  # what is stored (players.colour) and exported
    hex: str  # "#rrggbb"
    marker: str  # the shape drawn with it (templates/_colours.html)
    name: str  # marked English: translate where shown (``label``)
    step: int  # lightness in grey print, 1 (darkest) to 4

    @property
    def label(self):
        """The colour's name in the reader's language."""
        return _(self.name)


# In the order they are given out: the charts' colours before players had their own,
# then black.
PALETTE = (
    Colour("red", "#d55e00", "circle", N_("Red"), 3),
    Colour("blue", "#0072b2", "square", N_("Blue"), 2),
    Colour("green", "#009e73", "diamond", N_("Green"), 3),
    Colour("pink", "#cc79a7", "triangle", N_("Pink"), 3),
    Colour("orange", "#e69f00", "wedge", N_("Orange"), 4),
    Colour("light-blue", "#56b4e9", "cross", N_("Light blue"), 4),
    Colour("black", "#000000", "star", N_("Black"), 1),
)
BY_KEY = {c.key: c for c in PALETTE}
# a chart's line that is no player's (the yearbook's games by month): grey ink, so that it
# is never read as someone's
INK = Colour("ink", "#555555", "circle", N_("Grey"), 2)


def colour(key):
    """The palette's colour of this key, or None."""
    return BY_KEY.get(key)


def _fallback(player_id):
    """A player's colour where none is kept (never, once ``assign_missing`` has run)."""
    return PALETTE[(player_id - 1) % len(PALETTE)]


MANY = 500  # ids past this are found by reading every player, not one SQL variable each


def player_colours(db, player_ids=None):
    """{player id: Colour} of these players (every player without ``player_ids``)."""
    ids = None if player_ids is None else sorted(set(player_ids))
    if ids is None or len(ids) > MANY:
        rows = db.execute("SELECT id, colour FROM players").fetchall()
        if ids is not None:
            wanted = set(ids)
            rows = [row for row in rows if row[0] in wanted]
    elif not ids:
        return {}
    else:
        marks = ", ".join("?" * len(ids))
        rows = db.execute(f"SELECT id, colour FROM players WHERE id IN ({marks})", ids).fetchall()
    return {pid: BY_KEY.get(key) or _fallback(pid) for pid, key in rows}


def _counts(db):
    return dict(db.execute("SELECT colour, COUNT(*) FROM players GROUP BY colour").fetchall())


def _fewest(counts):
    return min(PALETTE, key=lambda c: counts.get(c.key, 0))


def least_used(db):
    """The colour fewest players have, the palette's first of those (inside the caller's
    transaction: the new player's row is written with it)."""
    return _fewest(_counts(db))


def giver(db, wanted=None):
    """A function giving the colour's key of each next new player by name: ``wanted``'s
    ({a name's key: colour key}, an import's) where it names one, else the least used
    then; counted as it goes (a file of thousands of new players counts once)."""
    counts = _counts(db)
    wanted = wanted or {}

    def give(name):
        chosen = BY_KEY.get(wanted.get(name_key(clean_name(name)))) or _fewest(counts)
        counts[chosen.key] = counts.get(chosen.key, 0) + 1
        return chosen.key

    return give


def assign_missing(db):
    """Give every player without a colour one, by id (the order they were made), each the
    least used then, in one transaction; the number given."""
    if db.execute("SELECT 1 FROM players WHERE colour IS NULL LIMIT 1").fetchone() is None:
        return 0
    with transaction(db):
        counts = _counts(db)
        missing = [pid for (pid,) in db.execute("SELECT id FROM players WHERE colour IS NULL ORDER BY id")]
        given = []
        for pid in missing:
            chosen = _fewest(counts)
            counts[chosen.key] = counts.get(chosen.key, 0) + 1
            given.append((chosen.key, pid))
        db.conn.executemany("UPDATE players SET colour = ? WHERE id = ?", given)
    return len(missing)


def set_colour(db, player_id, key):
    """Give a player the colour of ``key`` (the family's choice: two players may share one).

    :raises ValueError: not a colour of the palette.
    :raises NotFound: no such player.
    """
    chosen = colour(key)
    if chosen is None:
        raise ValueError(_("Choose one of the colours."))
    with transaction(db):
        if db.execute("SELECT 1 FROM players WHERE id = ?", [player_id]).fetchone() is None:
            raise NotFound(_("There is no such player."))
        db.execute("UPDATE players SET colour = ? WHERE id = ?", [chosen.key, player_id])
    return chosen


def team_colours(teams, colours):
    """Each team's colour, or None where the chart is to give it one of its own: a team
    of one player takes theirs; a larger team its first player's, unless another team
    has it already (a team of one keeps its player's before a larger team takes it).

    :param teams: each team's player ids, in order.
    :param colours: {player id: Colour} (``player_colours``).
    """
    chosen = [None] * len(teams)
    taken = set()
    for alone in (True, False):  # teams of one first
        for i, ids in enumerate(teams):
            if not ids or (len(ids) == 1) != alone:
                continue
            candidate = colours.get(ids[0])
            if candidate is not None and candidate.key not in taken:
                chosen[i] = candidate
                taken.add(candidate.key)
    return chosen


def of_teams(db, game):
    """Each of a game's teams' colour (``team_colours``), None where a chart gives its own."""
    teams = [[p.id for p in team.players] for team in game.teams]
    return team_colours(teams, player_colours(db, [i for ids in teams for i in ids]))


def of_players(db, games):
    """{player's name: Colour} of every player of these games (an evening's standings and
    tables name them: a name is one player's)."""
    seated = {p.id: p.name for game in games for team in game.teams for p in team.players}
    drawn = player_colours(db, seated)
    return {name: drawn[pid] for pid, name in seated.items()}
