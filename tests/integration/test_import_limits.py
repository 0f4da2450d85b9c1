"""Imports bounded while they are read (issue 53): a crafted history export or spreadsheet
of past games is refused at the first thing past a limit (exchange/limits.py), named by its
line and the limit next to the file's field, with nothing written; and it never takes many
times its size in memory, nor minutes, on the way. Real files, real requests, a real
database; the memory is Python's own count of what it held at once (tracemalloc)."""

import io
import json
import re
import tracemalloc

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper.exchange import importer, limits, pastgames
from scorekeeper.names import name_key
from scorekeeper.scoring import RULESETS, TeamRound

from ..helpers import posted, text

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
    """The most memory Python held at once while the import page's reader read the file at
    ``path`` (its bytes already read), in bytes: ``importer.check_file`` for an export,
    ``pastgames.read_past_games`` for a spreadsheet."""
    content = path.read_bytes()
    if path.suffix == ".json":
        read = lambda: importer.check_file(content)  # noqa: E731
    else:
        rules = {name_key(rules.name): (key, rules) for key, rules in RULESETS.items()}
        read = lambda: pastgames.read_past_games(content, rules, ("tablet", RULESETS["tablet"]))  # noqa: E731
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
    """The file at ``path`` posted as a phone posts it (the body built first, outside what
    is measured)."""
    page = posted(client.get(url)) if url != "/import" else {}
    file = FileStorage(io.BytesIO(path.read_bytes()), path.name)
    body, boundary = encode_multipart({**page, **fields, "file": file})[::-1]
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


@pytest.mark.long  # 2.1 million characters read and checked: 1.5 s
def test_the_longest_game_the_engine_keeps_passes_every_limit():
    # 999 rounds of six teams (the next would be round 1,000, the engine's most), every field
    # written as the app writes them: 2.1 million characters, read and checked whole (writing
    # it is as for any game, and longer than the rest of this module's tests together)
    entry = TeamRound(books=dict.fromkeys(RULES["books"], 0)).to_dict()
    longest = game("longest", limits.MAX_ROUNDS - 1, teams=6, entries=[entry] * 6)
    assert 2_000_000 < len(longest) < limits.MAX_GAME_TEXT
    _players, _house_rules, (checked,) = importer.check_file(export([longest]).encode())
    assert len(checked.rounds) == 999 and len(checked.teams) == 6


def test_players_past_the_limit_are_refused_where_the_list_passes_it(client, db, tmp_path):
    players = [f"Player {n}" for n in range(limits.MAX_PLAYERS + 1)]
    path = written(tmp_path / "history.json", export([], players=players))
    said = refused_by_the_field(upload(client, path)())
    assert said == "Nothing was imported: players[10000] (line 1): a history lists at most 10,000 players"
    assert counts(db)["players"] == 0


def test_the_rounds_of_a_whole_history_are_counted():
    """A history holds at most 100,000 rounds (each is checked by the engine and kept until
    written: ``limits.MAX_HISTORY_ROUNDS``). Tripped here at 1,000, the same count: the
    100,000 would take a hundred games of 999 rounds, checked first, 9 s or more."""
    # a round of two scores is 45 characters, and some 100 bytes and 90 µs once checked
    scores = [{"paper_score": 0}] * 2
    games = [game(f"g{n}", 400, entries=scores)[:-1] + ', "paper": "scores"}' for n in range(3)]
    assert len(importer.check_file(export(games[:2]).encode(), most_rounds=1_000)[2]) == 2
    with pytest.raises(ValueError) as refused:
        importer.check_file(export(games).encode(), most_rounds=1_000)
    assert str(refused.value) == "games[2] (line 4): a history holds at most 1,000 rounds"


def test_the_command_line_import_says_the_same(runner, db, tmp_path):
    path = written(tmp_path / "history.json", "[" + ",".join(["{}"] * 60_000) + "]")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert (
        f"{path}: refused, nothing imported: file (line 1): more than 100,000 characters: "
        "nothing in a Scorekeeper export is so long"
    ) in result.output
    assert db["games"].count == 0


# --- a spreadsheet of past games (CSV) -------------------------------------------------------


def preview(client, path):
    return upload(client, path, "/import/past-games", rules="tablet", action="preview")


def said_of_lines(response):
    """The lines a refused spreadsheet's page names, as a person reads them."""
    assert response.status_code == 422, response.status_code
    page = text(response)
    assert 'name="content" type="hidden" value=""' in page  # nothing carried on to import
    return re.findall(r"<li>(Line \d+: .*?)</li>", page)


def test_a_spreadsheet_of_100000_columns_is_refused_at_its_first_line_in_little_memory(client, db, tmp_path):
    # the file: 8 MB of CSV of 100,000 columns added 349 MB
    header = "date,game,players," + ",".join(f"round {n}" for n in range(1, 100_001))
    row = "2019-12-24,1,Ann & Bo," + ",".join(["5"] * 100_000)
    path = written(tmp_path / "past.csv", "\n".join([header, *[row] * 10]) + "\n")
    assert said_of_lines(preview(client, path)()) == [
        "Line 1: a line of more than 16,384 characters: no sheet of games is so wide"
    ]
    assert counts(db)["games"] == 0
    # its text alone: the line is measured before it is split into cells (120 MB before)
    held, size = held_reading(path), path.stat().st_size
    assert held < 2 * size, f"{held:,} bytes held for a file of {size:,}"


def test_more_columns_than_a_sheet_of_games_has_are_refused(client, db, tmp_path):
    header = "date,game,players," + ",".join(str(n) for n in range(1, 299))
    path = written(tmp_path / "past.csv", header + "\n2019-12-24,1,Ann,5\n2019-12-24,1,Bo,5\n")
    assert said_of_lines(preview(client, path)()) == [
        "Line 1: 301 columns: a spreadsheet of games has at most 256"
    ]


def test_a_cell_longer_than_any_a_sheet_has_is_refused_at_its_line(client, db, tmp_path):
    content = "date,game,players,round 1\n2019-12-24,1,Ann,5\n2019-12-24,1," + "B" * 1_500 + ",5\n"
    path = written(tmp_path / "past.csv", content)
    assert "Line 3: a cell of 1,500 characters: a cell holds at most 1,000" in said_of_lines(
        preview(client, path)()
    )


def test_a_line_made_long_by_line_breaks_in_a_cell_is_refused_at_its_first(client, db, tmp_path):
    # a quoted cell of short lines: a row counts every line it spans
    cell = '"' + "\n".join(["x" * 50] * 400) + '"'
    path = written(tmp_path / "past.csv", f"date,game,players,round 1\n2019-12-24,1,{cell},5\n")
    assert said_of_lines(preview(client, path)()) == [
        "Line 2: a line of more than 16,384 characters: no sheet of games is so wide"
    ]


def test_games_past_the_limit_are_refused_at_the_line_that_passes_it(client, db, tmp_path):
    lines = [f"2019-12-24,g{n},Ann,5\n2019-12-24,g{n},Bo,5" for n in range(limits.MAX_PAST_GAMES + 1)]
    path = written(tmp_path / "past.csv", "date,game,players,round 1\n" + "\n".join(lines) + "\n")
    assert said_of_lines(preview(client, path)()) == [
        "Line 20002: a file of past games holds at most 10,000 games"
    ]
    assert counts(db)["games"] == 0


def test_a_game_of_more_lines_than_six_teams_of_100_rounds_is_refused(client, db, tmp_path):
    path = written(tmp_path / "past.csv", "date,game,players,round 1\n" + "2019-12-24,1,Ann,5\n" * 700)
    assert said_of_lines(preview(client, path)()) == [
        "Line 602: game “1” of 2019-12-24 has more than 600 lines "
        "(a line per team and round, six teams of 100 rounds)"
    ]


def test_the_rounds_of_a_whole_spreadsheet_are_counted_as_it_is_read(client, db, tmp_path):
    header = "date,game,players," + ",".join(f"round {n}" for n in range(1, 251))
    row = "," + ",".join(["5"] * 250)
    lines = [f"2019-12-24,g{n},Ann{row}\n2019-12-24,g{n},Bo{row}" for n in range(401)]
    path = written(tmp_path / "past.csv", header + "\n" + "\n".join(lines) + "\n")
    # refused as the line that passes it is read: no game of the file was checked yet
    assert said_of_lines(preview(client, path)()) == [
        "Line 802: a file of past games holds at most 100,000 rounds"
    ]


@pytest.mark.timeout(10)  # 0.5 s here; a refused line was looked for among every problem before (26 s)
def test_a_spreadsheet_of_bad_lines_is_refused_without_comparing_each_with_each(client, db, tmp_path):
    lines = [f"2019-12-24,g{n},Ann & Bo,x\n2019-12-24,g{n},Cy & Di,y" for n in range(limits.MAX_PAST_GAMES)]
    path = written(tmp_path / "past.csv", "date,game,players,round 1\n" + "\n".join(lines) + "\n")
    response = preview(client, path)()
    said = said_of_lines(response)
    assert "Nothing was imported: 20,000 lines to fix first (the first 50 below)." in re.sub(
        r"\s+", " ", text(response)
    )
    assert len(said) == 50 and said[:2] == [
        "Line 2: round 1: “x” is not a whole number",
        "Line 3: round 1: “y” is not a whole number",
    ]
