"""Records: the best (and worst) the family has done, each linked to its game.

Each game that counts (finished, with a round) has one ``game_records`` row
(m010) with what it could hold a record for: its highest total, winning
margin, comeback, best and worst round, most books in a round, and who did
it. ``refresh`` keeps it with every change (``summaries.refresh`` calls it,
in the change's transaction) from the engine's round scores; ``rebuild``
makes every row again from the stored scores, with the same function
(``facts``). A record is then one index seek per rule set: totals are only
comparable under one rule set, so every game record is per rule set (by its
name). Streaks come from the ratings' replay (``player_ratings.streak``,
``pair_games.streak``), evenings from the summaries (``nights``).
"""

from __future__ import annotations

import json

from .. import scoring
from ..scoring.language import N_, _
from ..storage.db import snapshot
from . import ratings
from .history import distinct_rules_names
from .rulesets import rules_words

# (record, column, highest first?) — each column has its team (the team's
# position) and, for a round, its round number beside it
GAME_RECORDS = (
    ("high_total", N_("Highest game total"), True),
    ("best_round", N_("Best round"), True),
    ("worst_round", N_("Worst round"), False),
    ("most_books", N_("Most %(books)s in a round"), True),  # in the rule set's words
    ("margin", N_("Biggest winning margin"), True),
    ("comeback", N_("Biggest comeback"), True),
)
_COLUMNS = (
    "game_id",
    "rules_name",
    "played_at",
    "night",
    "high_total",
    "high_team",
    "margin",
    "margin_team",
    "comeback",
    "comeback_team",
    "comeback_round",
    "best_round",
    "best_round_team",
    "best_round_number",
    "worst_round",
    "worst_round_team",
    "worst_round_number",
    "most_books",
    "most_books_team",
    "most_books_number",
)


def facts(game_id, rules_name, played_at, night, scores, books):
    """A game's ``game_records`` row (a tuple in ``_COLUMNS`` order).

    :param scores: per round, per team (in team order), the engine's round score.
    :param books: per round, per team, the books made in it (all kinds); None for a
        game kept as its scores alone (it holds no record of books).
    Ties go to the earliest round, then the first team.
    """
    teams = len(scores[0])
    running = scoring.running_totals(scores)
    totals = running[-1]
    winners = scoring.verdict(totals, True, len(scores)).winners
    top = totals[winners[0]]
    others = [total for total in totals if total != top]
    margin = top - max(others) if others else 0
    comeback, comeback_team, comeback_round = 0, winners[0], None
    for number, after in enumerate(running, start=1):
        leader = max(after)
        for w in winners:
            if leader - after[w] > comeback:
                comeback, comeback_team, comeback_round = leader - after[w], w, number
    cells = [(number, t) for number in range(1, len(scores) + 1) for t in range(teams)]
    best = max(cells, key=lambda c: (scores[c[0] - 1][c[1]], -c[0], -c[1]))
    worst = min(cells, key=lambda c: (scores[c[0] - 1][c[1]], c[0], c[1]))
    most = max(cells, key=lambda c: (books[c[0] - 1][c[1]], -c[0], -c[1])) if books else None
    return (
        game_id,
        rules_name,
        played_at,
        night,
        top,
        winners[0],
        margin,
        winners[0],
        comeback,
        comeback_team,
        comeback_round,
        scores[best[0] - 1][best[1]],
        best[1],
        best[0],
        scores[worst[0] - 1][worst[1]],
        worst[1],
        worst[0],
        *((books[most[0] - 1][most[1]], most[1], most[0]) if most else (None, None, None)),
    )


def facts_of(game, standings=None):
    """``facts`` of a loaded game (``game_model.Game``), or None when it does not count."""
    if game.finished_at is None or not game.rounds:
        return None
    s = standings or game.standings
    scores = [[score.total for score in round_scores] for round_scores in s.round_scores]
    books = [[sum(e.books.values()) for e in played.entries] for played in game.rounds]
    if game.scores_only:
        books = None  # no books known: no record of them
    return facts(game.id, game.rules.name, game.played_at, game.night, scores, books)


def facts_by_name(game):
    """``facts_of`` as a dict by column name (``game_records``'), or None."""
    row = facts_of(game)
    return None if row is None else dict(zip(_COLUMNS, row, strict=True))


_UPSERT = (
    f"INSERT OR REPLACE INTO game_records ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
)


def refresh(db, game, standings=None):
    """Bring the game's row up to date (inside the caller's transaction)."""
    row = facts_of(game, standings)
    stored = db.execute(
        f"SELECT {', '.join(_COLUMNS)} FROM game_records WHERE game_id = ?", [game.id]
    ).fetchone()
    if row == (tuple(stored) if stored else None):
        return
    if row is None:
        db.execute("DELETE FROM game_records WHERE game_id = ?", [game.id])
    else:
        db.execute(_UPSERT, row)


def add_new(db, rows):
    """Rows made by ``facts`` for games that had none (demo-data's batches)."""
    db.conn.executemany(_UPSERT, [row for row in rows if row is not None])


def rebuild(db):
    """Every row again from the stored round scores (inside the caller's transaction)."""
    db.execute("DELETE FROM game_records")
    cursor = db.execute(
        """SELECT g.id, g.rules_name, g.played_at, g.night, g.paper = 'scores',
                  r.number, t.position, e.score, e.books
           FROM games g JOIN rounds r ON r.game_id = g.id
           JOIN round_entries e ON e.round_id = r.id JOIN teams t ON t.id = e.team_id
           WHERE g.finished_at IS NOT NULL AND g.importing IS NULL AND g.deleted_at IS NULL
           ORDER BY g.id, r.number, t.position"""
    )
    rows, game, scores, books, last, paper = [], None, [], [], None, False
    for game_id, rules_name, played_at, night, scores_only, number, _position, score, made in cursor:
        if game is None or game[0] != game_id:
            if game is not None:
                rows.append(facts(*game, scores, None if paper else books))
            game, scores, books, last, paper = (
                (game_id, rules_name, played_at, night),
                [],
                [],
                None,
                scores_only,
            )
        if number != last:
            scores.append([])
            books.append([])
            last = number
        scores[-1].append(score)
        books[-1].append(sum(json.loads(made).values()))
    if game is not None:
        rows.append(facts(*game, scores, None if paper else books))
    add_new(db, rows)


# --- reading --------------------------------------------------------------------------


def _holder(db, row, column):
    """The record as a dict: value, game, when, the team's name (and players), the round."""
    game_id, played_at, value, team, number = row
    name = db.execute("SELECT name FROM teams WHERE game_id = ? AND position = ?", [game_id, team]).fetchone()
    players = [
        {"id": pid, "name": pname}
        for pid, pname in db.execute(
            """SELECT p.id, p.name FROM team_players tp JOIN teams t ON t.id = tp.team_id
               JOIN players p ON p.id = tp.player_id WHERE t.game_id = ? AND t.position = ?
               ORDER BY tp.position""",
            [game_id, team],
        )
    ]
    return {
        "value": value,
        "game_id": game_id,
        "played_at": played_at,
        "team": name[0] if name else None,
        "players": players,
        "round": number,
    }


def _number_column(column):
    return {
        "best_round": "best_round_number",
        "worst_round": "worst_round_number",
        "most_books": "most_books_number",
        "comeback": "comeback_round",
    }.get(column, "NULL")


def _team_column(column):
    return "high_team" if column == "high_total" else f"{column}_team"


def game_records(db, year=None):
    """Each rule set's records: [{rules_name, records: [{key, label, value, game_id, …}]}].

    With ``year``, only games of that year's evenings count. A margin, a
    comeback or most books of 0 is no record; ``without_books`` counts the games
    the books' record leaves out (kept as their scores alone).
    """
    result = []
    if year is None:
        names = distinct_rules_names(db, "game_records")
    else:
        names = [
            row[0]
            for row in db.execute(
                "SELECT DISTINCT rules_name FROM game_records WHERE night >= ? AND night < ? ORDER BY 1",
                [f"{year:04d}", f"{year + 1:04d}"],
            )
        ]
    for rules_name, say in ((name, rules_words(db, name)) for name in names):
        records = []
        within, params = "rules_name = :rules", {"rules": rules_name}
        if year is not None:
            within += " AND night >= :since AND night < :until"
            params.update(since=f"{year:04d}", until=f"{year + 1:04d}")
        for column, label, highest in GAME_RECORDS:
            where = within
            if column in ("margin", "comeback", "most_books"):  # none at all is no record
                where += f" AND {column} > 0"
            row = db.execute(
                f"""SELECT game_id, played_at, {column}, {_team_column(column)}, {_number_column(column)}
                    FROM game_records WHERE {where}
                    ORDER BY {column} {"DESC" if highest else "ASC"}, played_at, game_id LIMIT 1""",
                params,
            ).fetchone()
            if row:
                records.append({"key": column, "label": say.said(label), **_holder(db, row, column)})
        # the games kept as their scores alone, which hold no record of books
        (without_books,) = db.execute(
            f"SELECT COUNT(*) FROM game_records WHERE {within} AND most_books IS NULL", params
        ).fetchone()
        words = {"book": say.book, "books": say.books}  # what these rules call them: "burrachi"
        result.append({"rules_name": rules_name, "records": records, "without_books": without_books, **words})
    return result


def streak_records(db):
    """The longest winning streak of a player and of a partnership (None before any win).

    :returns: dicts of value, game_id (the game that made it that long),
        played_at, players (id, name).
    """
    with snapshot(db):  # the mark and the rows it admits, as of one moment
        mark = ratings.behind(db)
        return _streak_records(db, mark)


def _streak_records(db, mark):
    result = {}
    row = db.execute(
        f"""SELECT r.streak, r.game_id, r.played_at, p.id, p.name FROM player_ratings r
            JOIN players p ON p.id = r.player_id
            WHERE r.streak > 0 AND {ratings.up_to_date("r", mark)}
            ORDER BY r.streak DESC, r.played_at, r.game_id LIMIT 1""",
        ratings.mark_params(mark),
    ).fetchone()
    result["player"] = (
        {"value": row[0], "game_id": row[1], "played_at": row[2], "players": [{"id": row[3], "name": row[4]}]}
        if row
        else None
    )
    row = db.execute(
        f"""SELECT s.streak, s.game_id, s.played_at, a.id, a.name, b.id, b.name FROM pair_games s
            JOIN players a ON a.id = s.player_id JOIN players b ON b.id = s.partner_id
            WHERE s.streak > 0 AND {ratings.up_to_date("s", mark)}
            ORDER BY s.streak DESC, s.played_at, s.game_id LIMIT 1""",
        ratings.mark_params(mark),
    ).fetchone()
    result["partnership"] = (
        {
            "value": row[0],
            "game_id": row[1],
            "played_at": row[2],
            "players": [{"id": row[3], "name": row[4]}, {"id": row[5], "name": row[6]}],
        }
        if row
        else None
    )
    return result


def busiest_night(db, year=None):
    """The evening with the most games that count: {night, games, game_id (its first)}, or None."""
    where, params = "", []
    if year is not None:
        where, params = "WHERE night >= ? AND night < ?", [f"{year:04d}", f"{year + 1:04d}"]
    row = db.execute(
        f"SELECT night, games FROM nights {where} ORDER BY games DESC, night LIMIT 1", params
    ).fetchone()
    if row is None:
        return None
    first = db.execute(
        "SELECT game_id FROM game_records WHERE night = ? ORDER BY played_at, game_id LIMIT 1", [row[0]]
    ).fetchone()
    return {"night": row[0], "games": row[1], "game_id": first[0] if first else None}


def most_tables(db):
    """The evening with the most tables at once: {night, tables}, or None (under two)."""
    row = db.execute(
        "SELECT night, table_number FROM evening_games ORDER BY table_number DESC, night LIMIT 1"
    ).fetchone()
    return {"night": row[0], "tables": row[1]} if row and row[1] > 1 else None


def all_records(db):
    """Everything the records page shows."""
    return {
        "rule_sets": game_records(db),
        "streaks": streak_records(db),
        "busiest_night": busiest_night(db),
        "most_tables": most_tables(db),
    }


# --- what a game's picture tells (issue 46) ------------------------------------------------

# the team and round columns of each record a game can hold
_WHO = {
    "high_total": ("high_team", None),
    "best_round": ("best_round_team", "best_round_number"),
    "most_books": ("most_books_team", "most_books_number"),
    "margin": ("margin_team", None),
    "comeback": ("comeback_team", "comeback_round"),
}
TELLS_RECORDS_FROM = 5  # games of a rule set before a record is worth telling


def worth_telling(db, game):
    """The one line a finished game's picture tells beyond its result: a dict of kind
    ("record": it holds one of its rule set's records, from the fifth game of that rule
    set on, with the record's column; "comeback": its winner was behind after a round),
    label, value, team (index) and round (or None); None when there is nothing but its
    best round to tell."""
    values = facts_by_name(game)
    if values is None:
        return None
    rules_name = values["rules_name"]
    (games,) = db.execute("SELECT count(*) FROM game_records WHERE rules_name = ?", [rules_name]).fetchone()
    if games >= TELLS_RECORDS_FROM:
        for column, label, highest in GAME_RECORDS:
            if not highest or column not in _WHO or not values[column]:
                continue
            # held by another game: a higher one, or as high and played before (the records
            # page's order)
            better = db.execute(
                f"""SELECT 1 FROM game_records WHERE rules_name = :rules AND game_id != :game
                    AND ({column} > :value OR ({column} = :value AND (played_at, game_id) < (:at, :game)))
                    LIMIT 1""",
                {"rules": rules_name, "game": game.id, "value": values[column], "at": values["played_at"]},
            ).fetchone()
            if better is None:
                team, number = _WHO[column]
                return {
                    "kind": "record",
                    "record": column,
                    "label": game.rules.say.said(label),
                    "value": values[column],
                    "team": values[team],
                    "round": values[number] if number else None,
                }
    if values["comeback"] and values["comeback_round"] is not None:
        return {
            "kind": "comeback",
            "label": _("Biggest comeback"),
            "value": values["comeback"],
            "team": values["comeback_team"],
            "round": values["comeback_round"],
        }
    return None
