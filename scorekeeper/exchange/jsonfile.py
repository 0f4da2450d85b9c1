"""The history (or one game) in the export format, as data or as streamed JSON text."""

from __future__ import annotations

import json

from ..scoring import RULESETS, RuleSet
from ..services import colours, players
from ..services.game_model import load_game
from ..storage.db import snapshot
from . import FORMAT, VERSION, stamp_now


def game_ids(db, game_id=None):
    """The games an export holds: not a game an import is still writing, nor a deleted one."""
    live = "importing IS NULL AND deleted_at IS NULL"
    if game_id is not None:
        return [row[0] for row in db.execute(f"SELECT id FROM games WHERE id = ? AND {live}", [game_id])]
    return [row[0] for row in db.execute(f"SELECT id FROM games WHERE {live} ORDER BY played_at, id")]


def _house_rules_names(db):
    """{house-rules key: name} for the saved house rules."""
    return {f"house-{row[0]}": row[1] for row in db.execute("SELECT id, name FROM house_rules")}


def _colours(db, listed):
    """``colours`` of the players (id, name) listed, in their order."""
    drawn = colours.player_colours(db, [pid for pid, _ in listed])
    return [{"player": name, "colour": drawn[pid].key} for pid, name in listed]


def _header(db):
    listed = db.execute(f"SELECT id, name FROM players WHERE {players.LISTED} ORDER BY key, id").fetchall()
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": stamp_now(),
        "players": [name for _, name in listed],
        "colours": _colours(db, listed),
        "house_rules": [
            RuleSet.from_json(row[0]).to_dict()
            for row in db.execute("SELECT rules FROM house_rules ORDER BY key, id")
        ],
    }


def game_record(game, house_rules_names):
    """One game in the export format: its inputs, and the engine's round scores for reading.

    :param house_rules_names: {house-rules key: name}, to name the saved
        rules a game was started from (keys are ids, which differ between databases).
    """
    key = game.rules_key
    dealer = next((p.name for team in game.teams for p in team.players if p.id == game.first_dealer), None)
    scores = game.standings.round_scores
    return {
        "uid": game.uid,
        "created_at": game.created_at,
        "played_at": game.played_at,
        "night": game.night,
        "paper": game.paper,
        "updated_at": game.updated_at,
        "finished_at": game.finished_at,
        "ended_by_hand": game.ended_by_hand,
        "rules_key": key if key in RULESETS else None,
        "house_rules": house_rules_names.get(key),
        "rules": game.rules.to_dict(),
        "teams": [{"name": team.name, "players": [p.name for p in team.players]} for team in game.teams],
        "first_dealer": dealer,
        "rounds": [
            {
                "number": played.number,
                "entries": [entry.to_dict() for entry in played.entries],
                "scores": [score.total for score in scores[i]],
            }
            for i, played in enumerate(game.rounds)
        ],
    }


def export_history(db):
    """The whole history as one dict in the export format (see ``iter_history_json`` for large ones)."""
    with snapshot(db):
        names = _house_rules_names(db)
        return {**_header(db), "games": [game_record(load_game(db, i), names) for i in game_ids(db)]}


def export_game(db, game_id):
    """One game in the export format, with its players and house rules: importable
    like the whole history (and merged the same way, by the game's uid)."""
    with snapshot(db):
        game = load_game(db, game_id)
        seated = {p.id: p.name for team in game.teams for p in team.players}
        listed = sorted(seated.items(), key=lambda p: p[1].casefold())
        names = _house_rules_names(db)
        used = game.rules_key if game.rules_key in names else None
        return {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": stamp_now(),
            "players": [name for _, name in listed],
            "colours": _colours(db, listed),
            "house_rules": [
                RuleSet.from_json(row[0]).to_dict()
                for row in db.execute("SELECT rules FROM house_rules WHERE id = ?", [int(used[6:])])
            ]
            if used
            else [],
            "games": [game_record(game, names)],
        }


def iter_history_json(db, progress=None):
    """The export as JSON text, a game at a time, so memory stays flat however long the history.

    :param progress: called as ``progress(games done, games)`` after each game.
    """
    with snapshot(db):
        names = _house_rules_names(db)
        header = json.dumps(_header(db), ensure_ascii=False)
        yield header[:-1] + ', "games": ['
        ids = game_ids(db)
        for n, game_id in enumerate(ids):
            record = game_record(load_game(db, game_id), names)
            yield ("," if n else "") + "\n" + json.dumps(record, ensure_ascii=False)
            if progress:
                progress(n + 1, len(ids))
        yield "\n]}\n"


def game_json(game):
    """The game for GET /games/<id>.json: its inputs and everything the engine makes of them."""
    result = game.standings
    return {
        "id": game.id,
        "uid": game.uid,
        "created_at": game.created_at,
        "played_at": game.played_at,
        "paper": game.paper,
        "revision": game.revision,
        "rules": game.rules.to_dict(),
        "teams": [{"name": t.name, "players": [p.name for p in t.players]} for t in game.teams],
        "rounds": [
            {
                "id": played.id,
                "number": played.number,
                "entries": [e.to_dict() for e in played.entries],
                "scores": [s.total for s in result.round_scores[i]],
                "breakdowns": [[line._asdict() for line in s.breakdown] for s in result.round_scores[i]],
            }
            for i, played in enumerate(game.rounds)
        ],
        "totals": result.totals,
        # a tournament turn's victory points per team, where the rules ask for them (else null)
        "victory_points": result.victory_points,
        "next_round": result.next_round,
        "next_meld_minimums": result.next_meld_minimums,
        "next_books_to_go_out": result.next_books_to_go_out,
        "next_first_meld_books": result.next_first_meld_books,
        "finished": result.finished,
        "winners": result.winners,
    }
