"""Imports bounded while they are read (issue 53): a crafted history export is refused at
the first thing past a limit (exchange/limits.py), named by its line and the limit next to
the file's field, with nothing written; and it never takes many times its size in memory
on the way. Real files, real requests, a real
database; the memory is Python's own count of what it held at once (tracemalloc)."""

import io
import json
import re
import tracemalloc

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper.exchange import importer, limits
from scorekeeper.scoring import RULESETS, TeamRound

from ..helpers import text

MB = 1024 * 1024
TABLES = ("players", "house_rules", "games", "teams", "rounds", "round_entries")
RULES = RULESETS["tablet"].to_dict()


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def counts(db):
    return {table: db[table].count for table in TABLES}


def held_reading(path):
    """The most memory Python held at once while the import page's reader read the export
    at ``path`` (its bytes already read: ``importer.check_file``), in bytes."""
    content = path.read_bytes()
    read = lambda: importer.check_file(content)  # noqa: E731
    tracemalloc.start()
    try:
        with pytest.raises(ValueError):
            read()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def written(path, content):
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return path


def upload(client, path, url="/import", **fields):
    """The file at ``path`` posted as a phone posts it (the body built before it is sent)."""
    file = FileStorage(io.BytesIO(path.read_bytes()), path.name)
    body, boundary = encode_multipart({**fields, "file": file})[::-1]
    return lambda: client.post(url, data=body, content_type=f"multipart/form-data; boundary={boundary}")


def refused_by_the_field(response):
    """The refusal shown next to the file's field (as every import refusal is)."""
    assert response.status_code == 422, response.status_code
    found = re.search(r'<p class="error" id="file-error">(.*?)</p>', text(response), re.S)
    assert found, text(response)[:3000]
    return found[1]


def export(games, **members):
    """An export's text: its first line the format, each game on a line of its own (as the
    app writes them)."""
    head = {"format": "scorekeeper-history", "version": 4, "players": [], "house_rules": [], **members}
    return json.dumps(head)[:-1] + ', "games": [' + ",".join("\n" + game for game in games) + "\n]}\n"


def game(uid, rounds, teams=2, entries=None):
    """A game as the export writes it: ``rounds`` rounds of ``teams`` entries (every field
    written, as the app writes them, unless ``entries`` says otherwise)."""
    entries = entries or [TeamRound().to_dict()] * teams
    return json.dumps(
        {
            "uid": uid,
            "created_at": "2020-01-01T00:00:00+00:00",
            "finished_at": None,
            "ended_by_hand": True,
            "rules_key": "tablet",
            "rules": RULES,
            "teams": [{"name": "", "players": [f"P{t}"]} for t in range(teams)],
            "first_dealer": None,
            "rounds": [{"number": n, "entries": entries} for n in range(1, rounds + 1)],
        }
    )


# --- a history export (JSON) ---------------------------------------------------------------


def test_a_file_of_empty_objects_is_refused_at_once_in_little_memory(client, db, tmp_path):
    # the file: 8 MB of [{},{},…] added 200 MB once parsed (25 times its size)
    path = written(tmp_path / "history.json", "[" + ",".join(["{}"] * (4 * MB // 3)) + "]")
    before = counts(db)
    said = refused_by_the_field(upload(client, path)())
    assert said == (
        "Nothing was imported: file (line 1): more than 100,000 characters: "
        "nothing in a Scorekeeper export is so long"
    )
    assert counts(db) == before
    # its text, and what the decoder made of one value's window (3 MB) before it refused it;
    # 100 MB when it was read whole
    held, size = held_reading(path), path.stat().st_size
    assert held < 2 * size, f"{held:,} bytes held for a file of {size:,}"


def test_games_of_empty_objects_are_refused_at_the_first_in_little_memory(client, db, tmp_path):
    path = written(tmp_path / "history.json", export(["{}"] * (4 * MB // 4)))
    before = counts(db)
    assert refused_by_the_field(upload(client, path)()) == "Nothing was imported: games[0].uid: missing"
    assert counts(db) == before
    # each game is checked as it is read, and only what was checked is kept: its text (100 MB
    # when it was read whole)
    held, size = held_reading(path), path.stat().st_size
    assert held < 2 * size, f"{held:,} bytes held for a file of {size:,}"


def test_a_game_longer_than_any_the_app_keeps_is_refused_at_its_line(client, db, tmp_path):
    # one game of 2.6 million characters: its rounds a list of empty lists (the densest JSON)
    long_game = game("long", 1)[:-2] + "," + ",".join(["[]"] * 870_000) + "]}"
    path = written(tmp_path / "history.json", export([game("first", 3), long_game]))
    before = counts(db)
    said = refused_by_the_field(upload(client, path)())
    assert said == (
        "Nothing was imported: games[1] (line 3): a game of more than 2,500,000 characters: "
        "the longest game the app keeps, 999 rounds of six teams, is shorter"
    )
    assert counts(db) == before


def test_the_longest_game_the_engine_keeps_still_imports(client, db, tmp_path):
    # 999 rounds of six teams (the next would be round 1,000, the engine's most), every field
    # written as the app writes them: 2.1 million characters
    entry = TeamRound(books=dict.fromkeys(RULES["books"], 0)).to_dict()
    longest = game("longest", limits.MAX_ROUNDS - 1, teams=6, entries=[entry] * 6)
    assert 2_000_000 < len(longest) < limits.MAX_GAME_TEXT
    path = written(tmp_path / "history.json", export([longest]))
    response = upload(client, path)()
    assert response.status_code == 303, text(response)[:3000]
    assert counts(db)["rounds"] == 999 and counts(db)["round_entries"] == 5_994


def test_players_past_the_limit_are_refused_where_the_list_passes_it(client, db, tmp_path):
    players = [f"Player {n}" for n in range(limits.MAX_PLAYERS + 1)]
    path = written(tmp_path / "history.json", export([], players=players))
    said = refused_by_the_field(upload(client, path)())
    assert said == "Nothing was imported: players[10000] (line 1): a history lists at most 10,000 players"
    assert counts(db)["players"] == 0


@pytest.mark.long  # a hundred games of 999 rounds are checked by the engine first: 9 s or more
def test_the_rounds_of_a_whole_history_are_counted(db):
    # a round of two scores is 45 characters, and some 100 bytes and 90 µs once checked
    scores = [{"paper_score": 0}] * 2
    games = [game(f"g{n}", 999, entries=scores)[:-1] + ', "paper": "scores"}' for n in range(101)]
    before = counts(db)
    with pytest.raises(ValueError) as refused:
        importer.import_file(db, export(games).encode())
    assert str(refused.value) == "games[100] (line 102): a history holds at most 100,000 rounds"
    assert counts(db) == before


def test_the_command_line_import_says_the_same(runner, db, tmp_path):
    path = written(tmp_path / "history.json", "[" + ",".join(["{}"] * 60_000) + "]")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert (
        f"{path}: refused, nothing imported: file (line 1): more than 100,000 characters: "
        "nothing in a Scorekeeper export is so long"
    ) in result.output
    assert db["games"].count == 0
