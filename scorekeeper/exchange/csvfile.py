"""The history (or one game) as CSV for a spreadsheet: a row per team per round.

The scores are the engine's (``scoring.standings``), never a sum of stored
scores. Text a spreadsheet could run as a formula is neutralised the way
OWASP's "CSV Injection" page describes; numbers stay numbers.
"""

from __future__ import annotations

import csv
import io
import json
import re

from ..scoring import ENTRY_FIELDS
from ..services.game_model import load_game
from ..storage.db import snapshot
from .jsonfile import game_ids

# Cells a spreadsheet would run as a formula start with one of these.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# ... and a separator of another locale (, or ;) followed by one starts a cell there.
_FORMULA_AFTER_SEPARATOR = re.compile(r"([,;])(?=[=+\-@\t\r])")


def csv_cell(value):
    """A value as a CSV cell: numbers stay numbers; text that a spreadsheet could
    run as a formula, at its start or after a , or ;, gets a ' so it shows as typed."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    text = _FORMULA_AFTER_SEPARATOR.sub(r"\1'", str(value))
    return "'" + text if text.startswith(_FORMULA_START) else text


def _book_kinds(db, game_id=None):
    """Every kind of book the games' rules score: clean and dirty, then the rest as first seen."""
    where, params = ("AND id = ?", [game_id]) if game_id is not None else ("", [])
    kinds = {"clean": None, "dirty": None}
    for (rules,) in db.execute(
        f"SELECT rules FROM games WHERE importing IS NULL AND deleted_at IS NULL {where} "
        "GROUP BY rules ORDER BY MIN(id)",
        params,
    ):
        kinds.update(dict.fromkeys(json.loads(rules).get("books", {})))
    return list(kinds)


def iter_csv(db, game_id=None, progress=None):
    """CSV lines: one row per team per round, with the engine's round score and running total.

    :param progress: called as ``progress(games done, games)`` after each game.
    """
    buffer = io.StringIO()
    # every text cell quoted, so that a separator inside one never starts a cell
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC)

    def line(cells):
        writer.writerow([csv_cell(c) for c in cells])
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    with snapshot(db):
        kinds = _book_kinds(db, game_id)
        yield line(
            [
                "game",
                "date",
                "rules",
                "round",
                "team_position",
                "team",
                "players",
                *(f"books_{kind}" for kind in kinds),
                *(f.name for f in ENTRY_FIELDS),
                "round_score",
                "total",
            ]
        )
        ids = game_ids(db, game_id)
        for done, gid in enumerate(ids, start=1):
            game = load_game(db, gid)
            result = game.standings
            for i, played in enumerate(game.rounds):
                for position, (team, entry) in enumerate(zip(game.teams, played.entries)):
                    scored = game.rules.books if not entry.scores_only else ()
                    books = [entry.books.get(kind, 0) if kind in scored else None for kind in kinds]
                    # a round kept as its score alone: its lines are unknown, not 0
                    lines = [None if entry.scores_only else getattr(entry, f.name) for f in ENTRY_FIELDS]
                    yield line(
                        [
                            game.uid,
                            # the night it was played: a game at 04:00 is the evening before's,
                            # read back (a day alone is its evening) on the same night
                            game.night or game.played_at[:10],
                            game.rules.name,
                            played.number,
                            position + 1,
                            team.name,
                            " & ".join(p.name for p in team.players),
                            *books,
                            *lines,
                            result.round_scores[i][position].total,
                            result.running_totals[i][position],
                        ]
                    )
            if progress:
                progress(done, len(ids))


def export_csv(db, game_id=None):
    """The history (or one game) as CSV text; see ``iter_csv``."""
    return "".join(iter_csv(db, game_id))
