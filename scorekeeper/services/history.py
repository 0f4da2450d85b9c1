"""The history list: which games match the filters, one bounded page at a time.

The query only picks game ids (indexed: played_at, finished_at, rules_name,
player_games.player_id); each listed game's totals and winner then come from
the engine, for at most ``PAGE_SIZE`` games.
"""

import datetime
from dataclasses import dataclass

from ..scoring.language import N_
from ..storage.db import snapshot
from .evenings import stored
from .game_model import load_game

PAGE_SIZE = 20
STATUSES = {"playing": N_("In progress"), "finished": N_("Finished")}


@dataclass(frozen=True)
class Filters:
    player: int | None = None
    rules: str | None = None
    since: datetime.date | None = None  # inclusive, in the household's own time
    until: datetime.date | None = None  # inclusive
    status: str | None = None  # "playing" or "finished"


# Before and after every stored time (ISO 8601 text, compared as text): the bounds of
# a day at the very ends of the calendar, which the computer's clock cannot convert.
_BEFORE_ALL, _AFTER_ALL = "0000", "9999-99"


def _stored_time(day):
    """The start of ``day`` on this computer's clock, as times are stored (UTC).

    0001-01-01 east of Greenwich starts in year 0, and the day after 9999-12-31
    does not exist: such a bound is before (or after) every game.
    """
    try:
        return stored(day, datetime.time())
    except ValueError:
        return _BEFORE_ALL if day.year == datetime.MINYEAR else _AFTER_ALL


def _end_of(day):
    """Where ``day`` ends, as times are stored: the start of the next day."""
    try:
        return _stored_time(day + datetime.timedelta(days=1))
    except OverflowError:
        return _AFTER_ALL


def _where(filters):
    """(FROM … WHERE …, its parameters): a player's games come from their summary rows,
    in the order of their (player, played_at) index, so a page is an index walk."""
    # a game an import is still writing: not yet; a deleted game: not any more
    clauses, params = ["g.importing IS NULL", "g.deleted_at IS NULL"], []
    source = "games g"
    if filters.player:
        source = "player_games pg JOIN games g ON g.id = pg.game_id"
        clauses.append("pg.player_id = ?")
        params.append(filters.player)
    if filters.rules:
        clauses.append("g.rules_name = ?")
        params.append(filters.rules)
    if filters.since:
        clauses.append("g.played_at >= ?")
        params.append(_stored_time(filters.since))
    if filters.until:
        clauses.append("g.played_at < ?")
        params.append(_end_of(filters.until))
    if filters.status == "playing":
        clauses.append("g.finished_at IS NULL")
    elif filters.status == "finished":
        clauses.append("g.finished_at IS NOT NULL")
    where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
    return source + where, params


def find_games(db, filters, page=1):
    """(the games on this page, newest first; how many games match).

    A page past the last one is empty.
    """
    source, params = _where(filters)
    # pg.played_at is its game's: the same order, from the player's own index
    order = "pg.played_at {0}, pg.game_id {0}" if filters.player else "g.played_at {0}, g.id {0}"
    with snapshot(db):
        count = _count(db, filters, source, params)
        if page > max(1, -(-count // PAGE_SIZE)):
            return [], count
        offset = (page - 1) * PAGE_SIZE
        if offset > count // 2:
            # past the middle, count from the oldest end: a deep page skips as
            # few rows as a near one (the last page is as quick as the first)
            size = min(PAGE_SIZE, count - offset)
            rows = db.execute(
                f"SELECT g.id FROM {source} ORDER BY {order.format('ASC')} LIMIT ? OFFSET ?",
                [*params, size, count - offset - size],
            ).fetchall()[::-1]
        else:
            rows = db.execute(
                f"SELECT g.id FROM {source} ORDER BY {order.format('DESC')} LIMIT ? OFFSET ?",
                [*params, PAGE_SIZE, offset],
            ).fetchall()
        return [load_game(db, row[0], remember=True) for row in rows], count


def _count(db, filters, source, params):
    """How many games match, by the cheapest index that answers exactly."""
    if filters.player and filters == Filters(player=filters.player):
        source = "player_games pg WHERE pg.player_id = ?"  # their index alone: no game to look up
    elif filters in (Filters(), Filters(status="finished"), Filters(status="playing")):
        # kept with every change (summaries.game_counts): no pass over every game
        finished = {None: (0, 1), "finished": (1,), "playing": (0,)}[filters.status]
        marks = ", ".join("?" * len(finished))
        return db.execute(
            f"SELECT COALESCE(SUM(games), 0) FROM game_counts WHERE finished IN ({marks})", finished
        ).fetchone()[0]
    return db.execute(f"SELECT COUNT(*) FROM {source}", params).fetchone()[0]


def distinct_rules_names(db, table="games"):
    """The distinct ``rules_name`` of ``table`` (games, game_records), in byte order.

    One index seek per name (a "loose index scan"), not a pass over every row; a
    deleted game's (services/deleted.py) is stepped over, as it were not there.
    ``table`` is one of ours, never typed by a user.
    """
    live = " AND deleted_at IS NULL" if table == "games" else ""
    return [
        row[0]
        for row in db.execute(
            f"""WITH RECURSIVE names(name) AS (
                   SELECT MIN(rules_name) FROM {table} WHERE 1{live}
                   UNION ALL
                   SELECT (SELECT MIN(rules_name) FROM {table} WHERE rules_name > names.name{live})
                   FROM names WHERE names.name IS NOT NULL)
               SELECT name FROM names WHERE name IS NOT NULL"""
        )
    ]


def rule_set_names(db):
    """The rule sets games were played under, for the filter."""
    names = distinct_rules_names(db)
    return sorted(names, key=lambda name: (name.casefold(), name))
