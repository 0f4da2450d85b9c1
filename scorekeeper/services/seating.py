"""Seating an evening: how many tables and teams, and who sits where with whom.

Pure Python: the players are ids, and each table's chances come from a function
the caller gives (``services.ratings.chances_for``: the players' ratings, as a
game's page shows them).

- ``plan`` turns a number of people into tables of teams (``TABLE_RULE`` says how).
- ``arrange`` proposes who sits where: every table as close to even as it can
  find, partners of earlier games tonight avoided where a close split exists,
  locked pairs kept together, kept tables left as they are.
- ``progress`` is a progressive evening's next game: winners move up a table,
  losers stay, everyone gets a new partner (``PROGRESSIVE_RULE``: at tables of any size).
"""

from __future__ import annotations

import functools
import itertools
import random
from dataclasses import dataclass

from ..scoring.language import N_
from ..scoring.language import _ as gettext  # _ is this module's throwaway name

MIN_PEOPLE, MAX_PEOPLE, MAX_TABLES = 2, 24, 6
MAX_TEAMS_AT_A_TABLE = 6
# a partner of earlier tonight again costs more than any spread of chances (at most 1 a
# table): a repeat only where no split without one was found
REPEAT_COST = 2 * MAX_TABLES
RESTARTS = 12

TABLE_RULE = N_(
    "Tables of four, as two teams of two. With two people over, one table seats six as three "
    "teams of two; with three over, a table of three plays each for themselves; with one over, "
    "two tables of four become a table of six and a table of three (five people: a table of "
    "three and a table of two)."
)


PROGRESSIVE_RULE = N_(
    "After each game the winners move up a table and the others stay; at the head table the "
    "winners stay and the others go to the foot table, and with one table everyone stays. Each "
    "table keeps its size: where more come to a table than it seats, the last to come go on down "
    "a table, and where fewer, the next table's first come up. A table that ended without a "
    "result keeps its players. Everyone then gets a new partner where the table allows."
)


class SeatingError(ValueError):
    """A seating that cannot be: its message says why, for the field it is about."""


def plan(people, team_size=2, tables=None):
    """[[team size, ...] per table] for ``people``: ``TABLE_RULE`` for teams of two, or
    ``people`` split into ``tables`` tables (as even as can be) of teams of ``team_size``.

    :raises SeatingError: too few or too many people, or teams that do not come out even.
    """
    if people < MIN_PEOPLE:
        raise SeatingError(gettext("An evening needs at least %(least)s people.", least=MIN_PEOPLE))
    if people > MAX_PEOPLE:
        raise SeatingError(gettext("An evening seats at most %(most)s people.", most=MAX_PEOPLE))
    if tables is None and team_size == 2:
        return _usual(people)
    if team_size < 1 or people % team_size:
        raise SeatingError(
            gettext("%(people)s people do not make teams of %(size)s.", people=people, size=team_size)
        )
    teams = people // team_size
    tables = tables or max(1, round(teams / 2))
    if not 1 <= tables <= MAX_TABLES:
        raise SeatingError(gettext("Choose 1 to %(most)s tables.", most=MAX_TABLES))
    if teams < 2 * tables:
        raise SeatingError(
            gettext(
                "%(people)s people make %(teams)s teams of %(size)s: too few for %(tables)s tables.",
                people=people,
                teams=teams,
                size=team_size,
                tables=tables,
            )
        )
    per_table = [teams // tables + (1 if t < teams % tables else 0) for t in range(tables)]
    if max(per_table) > MAX_TEAMS_AT_A_TABLE:
        raise SeatingError(
            gettext("At most %(most)s teams at a table: choose more tables.", most=MAX_TEAMS_AT_A_TABLE)
        )
    return [[team_size] * n for n in per_table]


def _usual(people):
    if people == 2:
        return [[1, 1]]
    if people == 5:
        return [[1, 1, 1], [1, 1]]
    over = people % 4
    fours = [[2, 2]] * (people // 4)
    if over == 2:
        return [[2, 2, 2]] + fours[1:] if fours else [[1, 1]]
    if over in (1, 3):
        if over == 1:  # 9 = a table of six and a table of three; 13 = four, six and three
            fours = fours[:-2] + [[2, 2, 2]]
        tables = fours + [[1, 1, 1]]
        if len(tables) > MAX_TABLES:
            raise SeatingError(
                gettext("%(people)s people need more than %(most)s tables.", people=people, most=MAX_TABLES)
            )
        return tables
    if len(fours) > MAX_TABLES:
        raise SeatingError(
            gettext("%(people)s people need more than %(most)s tables.", people=people, most=MAX_TABLES)
        )
    return fours


@dataclass(frozen=True)
class Proposal:
    """Who sits where: per table, its teams (tuples of player ids); per table, each team's chance."""

    tables: tuple
    chances: tuple
    repeats: int  # teams that pair players who partnered earlier tonight

    @property
    def spread(self):
        """How far from even: per table, its best chance less its worst, added up."""
        return sum(max(c) - min(c) for c in self.chances if c)


def pairs_of(team):
    return {frozenset(p) for p in itertools.combinations(team, 2)}


def arrange(players, layout, chances, *, together=(), avoid=frozenset(), kept=None, seed=0):
    """The fairest seating found of ``players`` in ``layout`` (``plan``'s answer).

    :param chances: teams (lists of ids) -> each team's chance to win, in order.
    :param together: pairs that always play as partners.
    :param avoid: pairs (frozensets) that partnered earlier tonight.
    :param kept: {table index: its teams} to leave as they are.
    :param seed: another seed, another proposal (the same seed, the same one).
    :raises SeatingError: a locked pair that fits no team, someone locked twice, the wrong head count.
    """
    kept = dict(kept or {})
    seated = {p for teams in kept.values() for team in teams for p in team}
    free = [p for p in players if p not in seated]
    units = _units(free, together)
    slots = [(t, i, size) for t, sizes in enumerate(layout) if t not in kept for i, size in enumerate(sizes)]
    if sum(size for *_, size in slots) != len(free):
        raise SeatingError(gettext("%(people)s people do not fill these tables.", people=len(players)))
    if any(len(u) > 1 for u in units) and not any(size >= 2 for *_, size in slots):
        raise SeatingError(gettext("Partners locked together need teams of two or more."))
    rng = random.Random(seed)
    memo = {}

    def table_chances(teams):
        key = tuple(tuple(sorted(team)) for team in teams)
        if key not in memo:
            memo[key] = tuple(chances([list(team) for team in key]))
        return memo[key]

    def cost(seats):
        tables = _tables(seats, layout, kept)
        spread = sum(max(c) - min(c) for c in (table_chances(t) for t in tables))
        repeats = sum(1 for t in tables for team in t for pair in pairs_of(team) if pair in avoid)
        return spread + REPEAT_COST * repeats, tables

    kept_tables = {t: tuple(tuple(sorted(team)) for team in teams) for t, teams in kept.items()}
    team_numbers = [range(len(sizes)) for sizes in layout]
    weighed = {}

    def seated(t, teams):
        """Table ``t`` as ``teams`` ({(table, team): its players, sorted}) seat it."""
        return kept_tables[t] if t in kept_tables else tuple([teams[t, i] for i in team_numbers[t]])

    def weigh(table):
        """(spread, repeats) of a table: a swap changes two tables, and only they are
        weighed again (the search weighs thousands of swaps, most of them seatings of a
        table it weighed before)."""
        found = weighed.get(table)
        if found is None:
            if table not in memo:
                memo[table] = tuple(chances([list(team) for team in table]))
            c = memo[table]
            repeats = sum(repeats_in(team) for team in table) if avoid else 0
            found = weighed[table] = (max(c) - min(c), repeats)
        return found

    @functools.cache
    def repeats_in(team):
        return sum(1 for pair in pairs_of(team) if pair in avoid)

    def total(spreads, repeats):
        # as cost() adds it up: the spreads in table order, then the repeats
        return sum(spreads) + REPEAT_COST * sum(repeats)

    best = None
    for _ in range(RESTARTS):
        seats = _random_seats(units, slots, rng)
        if seats is None:
            raise SeatingError(gettext("The locked pairs do not fit these teams."))
        members = {(t, i): [] for t, sizes in enumerate(layout) for i in range(len(sizes))}
        for key, unit in seats:
            members[key].extend(unit)
        teams = {key: tuple(sorted(players)) for key, players in members.items()}
        parts = [weigh(seated(t, teams)) for t in range(len(layout))]
        spreads, repeats = [spread for spread, _ in parts], [r for _, r in parts]
        score = total(spreads, repeats)
        improved = True
        while improved:
            improved = False
            for a, b in itertools.combinations(range(len(units)), 2):
                (key_a, unit_a), (key_b, unit_b) = seats[a], seats[b]
                if key_a == key_b or len(unit_a) != len(unit_b):
                    continue
                t_a, t_b = key_a[0], key_b[0]  # the same table where two of its teams swap
                was = teams[key_a], teams[key_b], spreads[t_a], repeats[t_a], spreads[t_b], repeats[t_b]
                teams[key_a] = tuple(sorted([p for p in was[0] if p not in unit_a] + list(unit_b)))
                teams[key_b] = tuple(sorted([p for p in was[1] if p not in unit_b] + list(unit_a)))
                spreads[t_a], repeats[t_a] = weigh(seated(t_a, teams))
                spreads[t_b], repeats[t_b] = weigh(seated(t_b, teams))
                trial = total(spreads, repeats)
                if trial < score - 1e-12:
                    score, improved = trial, True
                    seats[a], seats[b] = (key_b, unit_a), (key_a, unit_b)
                else:
                    teams[key_a], teams[key_b], spreads[t_a], repeats[t_a], spreads[t_b], repeats[t_b] = was
        if best is None or score < best[0] - 1e-12:
            best = (score, list(seats))
    _, tables = cost(best[1])
    return proposal(tables, table_chances, avoid)


def proposal(tables, chances, avoid=frozenset()):
    """``tables`` as a ``Proposal``: each table's chances (``chances`` of its teams), and
    how many of its teams pair players in ``avoid`` (a seating made by hand, a swap)."""
    tables = tuple(tuple(tuple(team) for team in t) for t in tables)
    repeats = sum(1 for t in tables for team in t for pair in pairs_of(team) if pair in avoid)
    return Proposal(tables, tuple(tuple(chances([list(team) for team in t])) for t in tables), repeats)


def _units(free, together):
    """The players as units to seat: a locked pair is one unit of two."""
    locked, units = set(), []
    for pair in together:
        pair = tuple(pair)
        if len(set(pair)) != 2 or not set(pair) <= set(free):
            continue
        if locked & set(pair):
            raise SeatingError(gettext("A player can be locked with one partner only."))
        locked |= set(pair)
        units.append(pair)
    units += [(p,) for p in free if p not in locked]
    return units


def _random_seats(units, slots, rng):
    """Each unit's (slot index, team key), filling teams to their size; None if impossible."""
    order = sorted(range(len(units)), key=lambda u: (-len(units[u]), rng.random()))
    room = {(t, i): size for t, i, size in slots}
    keys = list(room)
    seats = [None] * len(units)
    for u in order:
        fits = [k for k in keys if room[k] >= len(units[u])]
        if not fits:
            return None
        k = rng.choice(fits) if len(units[u]) == 1 else max(fits, key=lambda k: (room[k], rng.random()))
        room[k] -= len(units[u])
        seats[u] = (k, units[u])
    return seats


def _tables(seats, layout, kept):
    teams = {}
    for key, unit in seats:
        teams.setdefault(key, []).extend(unit)
    tables = []
    for t, sizes in enumerate(layout):
        tables.append(kept[t] if t in kept else [sorted(teams.get((t, i), [])) for i in range(len(sizes))])
    return tables


def swap(tables, a, b):
    """The same seating with players ``a`` and ``b`` in each other's seats."""

    def seat(p):
        return b if p == a else a if p == b else p

    return tuple(tuple(tuple(seat(p) for p in team) for team in t) for t in tables)


def progress(tables, winners, chances):
    """A progressive evening's next game, from the last one's ``tables`` (the head table
    first) and each table's winning team's index (None: the table ended without a
    result): ``PROGRESSIVE_RULE``. At tables of two teams of two with a result each, each
    newcomer partners one who stayed, the fairer way round; anywhere else each table's
    players are seated in its teams by ``arrange``, last game's partners split.

    :returns: (the new tables, {player: (from table, to table)}).
    """
    fours = all(len(t) == 2 and all(len(team) == 2 for team in t) for t in tables)
    if not fours or None in winners or len(tables) < 2:
        return _progress_any(tables, winners, chances)
    n = len(tables)
    won = [list(t[w]) for t, w in zip(tables, winners)]
    lost = [list(t[1 - w]) for t, w in zip(tables, winners)]
    moves, new = {}, []
    for t in range(n):
        if t == 0:
            stay, come, came_from = won[0], (won[1] if n > 1 else lost[0]), 1 if n > 1 else 0
        else:
            stay = lost[t]
            came_from = t + 1 if t + 1 < n else 0
            come = won[t + 1] if t + 1 < n else lost[0]
        for p in stay:
            moves[p] = (t, t)
        for p in come:
            moves[p] = (came_from, t)
        options = [
            [[stay[0], come[0]], [stay[1], come[1]]],
            [[stay[0], come[1]], [stay[1], come[0]]],
        ]
        new.append(min(options, key=lambda teams: abs(chances(teams)[0] - chances(teams)[1])))
    return tuple(tuple(tuple(team) for team in t) for t in new), moves


def _progress_any(tables, winners, chances):
    """``progress`` at tables of any size, results or none: each player's table to come
    (winners one up, the head table's winners stay and its others go to the foot, a table
    without a result stays), then the tables filled head first, each to its own size, in
    that order (those who stay before those who come); then each table seated afresh."""
    n = len(tables)
    wanted = []  # (table to come, comes from elsewhere, order in the last game, player, from table)
    seq = 0
    for t, (table, won) in enumerate(zip(tables, winners)):
        for i, team in enumerate(table):
            for p in team:
                if won is None:
                    to, stays = t, True
                elif i == won:
                    to, stays = (0, True) if t == 0 else (t - 1, False)
                else:
                    to, stays = (n - 1, n == 1) if t == 0 else (t, True)
                wanted.append((to, not stays, seq, p, t))
                seq += 1
    wanted.sort()
    moves, new, start = {}, [], 0
    last_partners = {pair for table in tables for team in table for pair in pairs_of(team)}
    for t, table in enumerate(tables):
        size = sum(len(team) for team in table)
        seated = wanted[start : start + size]
        start += size
        for *_, p, came in seated:
            moves[p] = (came, t)
        layout = [[len(team) for team in table]]
        players = [p for *_, p, _ in seated]
        new.append(arrange(players, layout, chances, avoid=last_partners).tables[0])
    return tuple(tuple(tuple(team) for team in t) for t in new), moves
