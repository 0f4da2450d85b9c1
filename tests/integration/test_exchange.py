"""Export, import, backup and restore, on real SQLite files with real requests."""

import copy
import csv
import io
import json
import re
import shutil
import sqlite3
import threading
import tracemalloc
from contextlib import closing

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import create_app
from scorekeeper.exchange import backup, csvfile, importer, jsonfile
from scorekeeper.names import MAX_NAME
from scorekeeper.scoring import RULESETS, RuleSet, TeamRound
from scorekeeper.services import game_model, games, players, rulesets
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect

from ..helpers import at_home, built_once, text

TABLES = ("players", "house_rules", "games", "teams", "team_players", "rounds", "round_entries", "revisions")


def entry(clean=0, dirty=0, melded=0, unplayed=0, red=0, black=0, out=False, **extra):
    return TeamRound(
        books={"clean": clean, "dirty": dirty},
        melded_points=melded,
        unplayed_points=unplayed,
        red_threes=red,
        black_threes=black,
        went_out=out,
        **extra,
    )


def start(db, *args):
    """A new game's id."""
    return games.create_game(db, *args).id


def play(db, game_id, *rounds):
    for played in rounds:
        game = game_model.load_game(db, game_id)
        games.add_round(db, game_id, game.revision, len(game.rounds) + 1, played)
    return game_model.load_game(db, game_id)


def fill(db):
    """A small history: a finished game, one ended by hand under saved house rules,
    one in progress with three teams, and a player who never played."""
    house = rulesets.save_house_rules(
        db, RuleSet.from_dict({**RULESETS["tablet"].to_dict(), "name": "Our tablet game"})
    )
    rulesets.save_house_rules(
        db, RuleSet.from_dict({**RULESETS["forfeit"].to_dict(), "name": "Unused rules"})
    )
    ff = start(
        db,
        RULESETS["friends-family"],
        "friends-family",
        [("", ["Ann", "Bo"]), ("The Cs", ["Cy", "Di"])],
        "Cy",
    )
    play(
        db,
        ff,
        [entry(4, 5, 3200, 0, out=True), entry(2, 1, 1400, 85, red=1)],
        [entry(1, 0, 650, 40), entry(4, 5, 3000, 0, out=True)],
        [entry(0, 0, 120, 230, red=2, black=1), entry(4, 5, 2900, 0, out=True)],
        [entry(4, 5, 3100, 0, out=True), entry(0, 1, 450, 65)],
    )
    tablet = start(
        db, rulesets.get_rule_set(db, house).rules, house, [("", ["Ann", "Cy"]), ("", ["Bo", "Di"])]
    )
    play(db, tablet, [entry(2, 2, 1800, 0, out=True), entry(1, 0, 500, 25)])
    games.end_game(db, tablet, game_model.load_game(db, tablet).revision)
    roth = start(db, RULESETS["roth"], "roth", [("", ["Ann"]), ("", ["Bo"]), ("", ["Cy"])])
    play(db, roth, [entry(1, 0, 400, 0, cuts=1), entry(0, 0, 0, 150, penalties=1), entry(0, 0, 60, 35)])
    db["players"].insert({"name": "Zoë", "key": "zoë", "created_at": "2024-01-01T00:00:00+00:00"})
    return ff, tablet, roth


def counts(db):
    return {table: db[table].count for table in TABLES}


@pytest.fixture
def other(tmp_path):
    """A second, empty Scorekeeper database."""
    path = tmp_path / "other.db"
    migrate(path)
    database = connect(path)
    yield database
    database.close()


def without_time(export):
    return {k: v for k, v in export.items() if k != "exported_at"}


def csrf_token(client, url):
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', text(client.get(url)))[1]


# --- export and import ---------------------------------------------------------------


def test_export_holds_inputs_and_the_engines_scores(db):
    ff, _tablet, _roth = fill(db)
    export = jsonfile.export_history(db)
    assert export["format"] == "scorekeeper-history" and export["version"] == 6
    assert export["players"] == ["Ann", "Bo", "Cy", "Di", "Zoë"]
    assert [r["name"] for r in export["house_rules"]] == ["Our tablet game", "Unused rules"]
    first, second, third = export["games"]
    game = game_model.load_game(db, ff)
    assert first["uid"] == game.uid and first["rules_key"] == "friends-family"
    assert first["house_rules"] is None and first["first_dealer"] == "Cy"
    assert first["teams"] == [
        {"name": "Ann & Bo", "players": ["Ann", "Bo"]},
        {"name": "The Cs", "players": ["Cy", "Di"]},
    ]
    assert first["finished_at"] and not first["ended_by_hand"]
    assert first["played_at"] == game.played_at == game.created_at and first["paper"] is None
    assert first["night"] == game.night
    assert first["rounds"][0]["entries"][1] == entry(2, 1, 1400, 85, red=1).to_dict()
    assert [r["scores"] for r in first["rounds"]] == [
        [s.total for s in scores] for scores in game.standings.round_scores
    ]
    assert second["rules_key"] is None and second["house_rules"] == "Our tablet game"
    assert second["ended_by_hand"] and second["finished_at"]
    assert len(third["teams"]) == 3 and third["finished_at"] is None
    # the streamed export is the same document
    assert without_time(json.loads("".join(jsonfile.iter_history_json(db)))) == without_time(export)


def test_export_import_export_gives_the_same_json(db, other):
    fill(db)
    export = jsonfile.export_history(db)
    summary = importer.import_history(other, json.loads(json.dumps(export)))
    assert (summary.games_added, summary.games_skipped, summary.rounds_added) == (3, 0, 6)
    assert (summary.players_added, summary.house_rules_added) == (5, 2)
    assert str(summary) == "Imported 3 games (6 rounds), 5 new players and 2 sets of house rules."
    assert without_time(jsonfile.export_history(other)) == without_time(export)
    # the stored team totals and wins are the engine's, as in the database the games came from
    totals = (
        "SELECT uid, position, total, won FROM teams JOIN games ON games.id = game_id ORDER BY uid, position"
    )
    assert list(other.query(totals)) == list(db.query(totals))
    assert any(row["won"] for row in other.query(totals))
    # the stored scores are the engine's, as add_round would have written them
    stored = [
        row["score"] for row in other.query("SELECT score FROM round_entries ORDER BY round_id, team_id")
    ]
    assert games.recompute_scores(other) == len(stored)
    assert stored == [
        row["score"] for row in other.query("SELECT score FROM round_entries ORDER BY round_id, team_id")
    ]
    # an imported game plays on: the three-team Roth game takes its next round
    roth = game_model.load_game(other, other.execute("SELECT id FROM games ORDER BY id DESC").fetchone()[0])
    assert (
        games.add_round(other, roth.id, roth.revision, 2, [entry(), entry(), entry()]).standings.next_round
        == 3
    )


def test_importing_twice_adds_nothing(db, other):
    fill(db)
    export = jsonfile.export_history(db)
    importer.import_history(other, export)
    before = counts(other)
    again = importer.import_history(other, export)
    assert (again.games_added, again.games_skipped, again.players_added, again.house_rules_added) == (
        0,
        3,
        0,
        0,
    )
    assert counts(other) == before
    # and into the database it came from
    before = counts(db)
    assert importer.import_history(db, export).games_added == 0
    assert counts(db) == before


def test_players_merge_by_name_in_any_case(db, other):
    fill(db)
    other["players"].insert({"name": "ANN", "key": "ann", "created_at": "2024-01-01T00:00:00+00:00"})
    importer.import_history(other, jsonfile.export_history(db))
    names = [r["name"] for r in other.query("SELECT name FROM players ORDER BY id")]
    assert names == ["ANN", "Bo", "Cy", "Di", "Zoë"]


def test_house_rules_of_the_same_name_but_other_values_are_kept_apart(db, other):
    fill(db)
    export = jsonfile.export_history(db)
    # the other phone has its own "Our tablet game", with a bigger going-out bonus
    mine = RuleSet.from_dict({**RULESETS["tablet"].to_dict(), "name": "our tablet game", "going_out": 300})
    rulesets.save_house_rules(other, mine)
    summary = importer.import_history(other, export)
    assert summary.house_rules_renamed == [("Our tablet game", "Our tablet game (imported)")]
    assert "saved as “Our tablet game (imported)”" in str(summary)
    names = {e.rules.name: e.key for e in rulesets.list_rule_sets(other) if not e.preset}
    assert set(names) == {"our tablet game", "Our tablet game (imported)", "Unused rules"}
    game = game_model.load_game(
        other, other.execute("SELECT id FROM games WHERE uid = ?", [export["games"][1]["uid"]]).fetchone()[0]
    )
    assert game.rules_key == names["Our tablet game (imported)"]
    # a second import finds the renamed copy: still nothing new
    assert importer.import_history(other, export).house_rules_added == 0
    assert len(rulesets.list_rule_sets(other)) == len(RULESETS) + 3


def test_a_game_whose_rules_ended_it_before_its_last_round_still_imports(db, other):
    # a Roth game reopened and edited so that round 1 already reaches 10,000
    roth = start(db, RULESETS["roth"], "roth", [("", ["Ann"]), ("", ["Bo"])])
    play(db, roth, [entry(1, 0, 600), entry()], [entry(), entry(1, 0, 600)])
    game = game_model.load_game(db, roth)
    games.reopen_game(db, roth, game.revision)  # Roth ended at 10,000: reopened to fix round 1
    game = game_model.load_game(db, roth)
    games.update_round(db, roth, game.revision, game.round(1).id, [entry(20, 0, 2000), entry()])
    export = jsonfile.export_history(db)
    assert len(export["games"][0]["rounds"]) == 2
    importer.import_history(other, export)
    assert without_time(jsonfile.export_history(other)) == without_time(export)


def valid_export(db):
    fill(db)
    return jsonfile.export_history(db)


def change(export, path, value=None, *, delete=False):
    """A copy of the export with the value at a JSON path ("games.0.rounds.1.number") changed."""
    export = copy.deepcopy(export)
    *parents, last = path.split(".")
    target = export
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    key = int(last) if isinstance(target, list) else last
    if delete:
        del target[key]
    else:
        target[key] = value
    return export


BAD = {
    "bad version": (
        ("version", 7),
        "version: this Scorekeeper reads version 1, 2, 3, 4, 5 and 6 files; this file is version 7",
    ),
    "not an export": (("format", "something-else"), "format: must be “scorekeeper-history”"),
    "malformed rule set": (
        ("games.2.rules.card_values.K", "ten"),
        "games[2].rules.card_values.K: must be a whole number",
    ),
    "rule set missing a field": (("games.1.rules.books", None, True), "games[1].rules.books: missing"),
    "saved rules malformed": (
        ("house_rules.1.end", {"rounds": 0}),
        "house_rules[1].end.rounds: must be at least 1",
    ),
    "negative count": (
        ("games.0.rounds.1.entries.0.red_threes", -1),
        "games[0].rounds[1].entries[0].red_threes: Ann & Bo: Red 3s caught can’t be negative.",
    ),
    "37 melded points": (
        ("games.0.rounds.2.entries.1.melded_points", 37),
        "games[0].rounds[2].entries[1].melded_points: The Cs: 37 points melded can’t be right",
    ),
    "unknown book": (
        ("games.2.rounds.0.entries.2.books", {"sevens": 1}),
        "games[2].rounds[0].entries[2].books.sevens: Cy: These rules have no “sevens” books.",
    ),
    "points no table makes": (
        ("games.0.rounds.0.entries.0.melded_points", 10**30),
        "games[0].rounds[0].entries[0].melded_points: at most 100,000",
    ),
    "books no table makes": (
        ("games.0.rounds.0.entries.0.books", {"clean": 500}),
        "games[0].rounds[0].entries[0].books.clean: at most 99, not 500",
    ),
    "two teams out": (
        ("games.0.rounds.0.entries.1.went_out", True),
        "games[0].rounds[0].went_out: Only one team can go out in a round",
    ),
    "a typo in a field": (
        ("games.0.rounds.0.entries.0.meld_points", 90),
        "games[0].rounds[0].entries[0].meld_points: not a field of this format",
    ),
    "rounds numbered 1, 3": (
        ("games.0.rounds.1.number", 3),
        "games[0].rounds[1].number: rounds are numbered 1, 2, 3…: expected 2, not 3",
    ),
    "team count mismatch": (
        ("games.2.rounds.0.entries.2", None, True),
        "games[2].rounds[0].entries: 2 entries for a game of 3 teams",
    ),
    "one team": (("games.1.teams.1", None, True), "games[1].teams: needs at least 2 entries"),
    "player twice in a game": (
        ("games.0.teams.1.players.0", "ann"),
        "games[0].teams[1].players[0]: “ann” already plays in this game",
    ),
    "dealer not playing": (
        ("games.0.first_dealer", "Zoë"),
        "games[0].first_dealer: must be null or one of this game's players",
    ),
    "unknown house rules": (
        ("games.1.house_rules", "Lost rules"),
        'games[1].house_rules: "Lost rules" is not the name of any house rules',
    ),
    "finished too soon": (
        ("games.2.finished_at", "2024-01-01T00:00:00+00:00"),
        "games[2].finished_at: the game is marked finished",
    ),
    "bad date": (("games.1.created_at", "yesterday"), "games[1].created_at: must be a date and time"),
}


@pytest.mark.parametrize("change_args, message", BAD.values(), ids=BAD.keys())
def test_bad_imports_are_refused_whole(db, other, change_args, message):
    export = valid_export(db)
    bad = change(export, *change_args[:2], delete=len(change_args) > 2)
    importer.import_history(other, change(export, "games", export["games"][:1]))  # other has a game
    before = counts(other)
    with pytest.raises(ValueError) as refused:
        importer.import_history(other, bad)
    assert str(refused.value).startswith(message), str(refused.value)
    assert counts(other) == before


def test_a_game_listed_twice_is_refused(db, other):
    export = valid_export(db)
    bad = change(export, "games", export["games"] + export["games"][:1])
    with pytest.raises(ValueError, match=r"^games\[3\]\.uid: the same game as games\[0\]"):
        importer.import_history(other, bad)
    assert other["games"].count == 0


@pytest.mark.parametrize(
    "content, message",
    [
        (b"not json", "not a JSON file"),
        (b"\xff\xfe", "not a JSON file"),
        (b"[" * 100_000, "not a Scorekeeper export (nested too deeply)"),
    ],
)
def test_a_file_that_is_not_json_is_refused(content, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        importer.read_history(content)


def test_a_json_file_that_is_not_an_export_is_refused(other):
    with pytest.raises(ValueError, match=r"^file: must be an object"):
        importer.import_history(other, [1, 2])
    with pytest.raises(ValueError, match=r"^games: missing"):
        importer.import_history(
            other, {"format": "scorekeeper-history", "version": 1, "players": [], "house_rules": []}
        )


# --- CSV ----------------------------------------------------------------------------


def rows(csv_text):
    return list(csv.DictReader(io.StringIO(csv_text)))


def test_csv_has_a_row_per_team_per_round_with_the_engines_scores(db):
    ff, _tablet, roth = fill(db)
    # played past midnight: its date in the CSV is its night's, the evening before
    db.execute(
        "UPDATE games SET played_at = '2026-03-07T01:15:00+00:00', night = '2026-03-06' WHERE id = ?", [ff]
    )
    table = rows(csvfile.export_csv(db))
    assert len(table) == 4 * 2 + 1 * 2 + 1 * 3
    assert list(table[0]) == [
        "game",
        "date",
        "rules",
        "round",
        "team_position",
        "team",
        "players",
        "books_clean",
        "books_dirty",
        "melded_points",
        "unplayed_points",
        "red_threes",
        "black_threes",
        "red_threes_melded",
        "red_three_books",
        "black_three_books",
        "black_threes_out",
        "went_out",
        "went_out_concealed",
        "cuts",
        "penalties",
        "first_meld_books",
        "packet_not_taken",
        "round_score",
        "total",
    ]
    game = game_model.load_game(db, ff)
    s = game.standings
    mine = [r for r in table if r["game"] == game.uid]
    assert [(int(r["round"]), int(r["team_position"])) for r in mine] == [
        (n, t) for n in range(1, 5) for t in (1, 2)
    ]
    assert [int(r["round_score"]) for r in mine] == [x.total for scores in s.round_scores for x in scores]
    assert [int(r["total"]) for r in mine] == [x for totals in s.running_totals for x in totals]
    assert mine[1]["team"] == "The Cs" and mine[1]["players"] == "Cy & Di"
    assert mine[1]["rules"] == "Friends & Family online edition" and mine[1]["date"] == "2026-03-06"
    assert (mine[0]["went_out"], mine[1]["went_out"], mine[1]["books_dirty"]) == ("1", "0", "1")
    # one game
    assert rows(csvfile.export_csv(db, roth)) == [
        r for r in table if r["game"] == game_model.load_game(db, roth).uid
    ]


def test_csv_has_a_column_for_every_kind_of_book_the_rules_score(db):
    rules = RuleSet.from_dict(
        {
            **RULESETS["tablet"].to_dict(),
            "name": "Sevens",
            "books": {"clean": 500, "dirty": 300, "sevens": 1000},
        }
    )
    plain = start(db, RULESETS["tablet"], "tablet", [("", ["Ann"]), ("", ["Bo"])])
    play(db, plain, [entry(1, 0, 400, out=True), entry()])
    sevens = start(db, rules, None, [("", ["Ann"]), ("", ["Bo"])])
    play(db, sevens, [TeamRound(books={"sevens": 1}, melded_points=300), entry()])
    table = rows(csvfile.export_csv(db))
    assert [r["books_sevens"] for r in table] == ["", "", "1", "0"]
    assert table[2]["round_score"] == str(1000 + 300)
    assert "books_sevens" not in rows(csvfile.export_csv(db, plain))[0]


@pytest.mark.parametrize(
    "value, cell",
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Ann", "Ann"),
        ("", ""),
        (None, ""),
        (-500, -500),
        (0, 0),
        (True, 1),
        (False, 0),
    ],
)
def test_csv_cells(value, cell):
    assert csvfile.csv_cell(value) == cell


def test_csv_neutralises_formulas_but_keeps_negative_numbers(db):
    game_id = start(db, RULESETS["roth"], "roth", [('=HYPERLINK("http://evil","x")', ["+1"]), ("-2", ["@x"])])
    play(db, game_id, [entry(0, 0, 0, 150, red=1), entry(1, 0, 400)])
    content = csvfile.export_csv(db, game_id)
    first, second = rows(content)
    assert first["team"] == '\'=HYPERLINK("http://evil","x")' and first["players"] == "'+1"
    assert second["team"] == "'-2" and second["players"] == "'@x"
    # a negative score is a number, not text: no quote, so a spreadsheet adds it up
    assert first["round_score"] == first["total"] == "-650"
    assert ",-650,-650\r\n" in content


# --- routes -------------------------------------------------------------------------


def test_export_routes(client, db):
    ff, _tablet, _roth = fill(db)
    response = client.get("/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="scorekeeper-history-')
    assert without_time(json.loads(response.get_data())) == without_time(jsonfile.export_history(db))
    response = client.get("/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.get_data(as_text=True) == csvfile.export_csv(db)
    response = client.get(f"/games/{ff}/export.csv")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    assert response.get_data(as_text=True) == csvfile.export_csv(db, ff)
    assert client.get("/games/999/export.csv").status_code == 404
    assert client.get(f"/games/{ff}.json").status_code == 200  # the games blueprint's, untouched


def multipart(fields):
    """A multipart body built in memory (the test client spools big ones to a file it never closes)."""
    boundary, body = encode_multipart(fields)
    return {"data": body, "content_type": f"multipart/form-data; boundary={boundary}"}


def upload(client, content, name="history.json", url="/import"):
    return client.post(
        url,
        **multipart({"csrf_token": csrf_token(client, url), "file": FileStorage(io.BytesIO(content), name)}),
    )


def test_import_route(client, db, tmp_path):
    export = valid_export(db)
    page = client.get("/import")
    assert page.status_code == 200 and 'type="file"' in text(page)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.db")})
    migrate(tmp_path / "other.db")
    other = at_home(app.test_client(), app)
    response = upload(other, json.dumps(export).encode())
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert "Imported 3 games (6 rounds)" in text(other.get("/"))
    response = upload(other, json.dumps(export).encode())
    assert "Imported 0 games (0 rounds); 3 games were already here." in text(
        other.get(response.headers["Location"])
    )


def test_import_route_refuses_with_the_message_by_the_field(client, db):
    export = valid_export(db)
    before = counts(db)
    bad = change(export, "games.0.rounds.2.entries.1.melded_points", 37)
    bad["games"][0]["uid"] = "new-uid"
    response = upload(client, json.dumps(bad).encode())
    assert response.status_code == 422
    page = text(response)
    assert re.search(
        r'<p class="error" id="file-error">Nothing was imported: '
        r"games\[0\]\.rounds\[2\]\.entries\[1\]\.melded_points: The Cs: 37 points",
        page,
    ), page
    assert upload(client, b"<html>").status_code == 422
    assert "not a JSON file" in text(upload(client, b"<html>"))
    response = client.post("/import", data={"csrf_token": csrf_token(client, "/import")})
    assert response.status_code == 422 and "Choose an export file." in text(response)
    assert counts(db) == before


def test_import_route_takes_files_over_the_apps_1_mb_limit(client, db):
    assert client.application.config["MAX_CONTENT_LENGTH"] == 1024 * 1024
    # CSRF is on here: its check reads the form before the view, and must already allow 64 MB
    assert client.application.config.get("WTF_CSRF_ENABLED", True)
    content = json.dumps(valid_export(db)).encode() + b" " * (3 * 1024 * 1024)
    response = upload(client, content)
    assert response.status_code == 303, text(response)
    # the rest of the app keeps its limit
    assert upload(client, content, "rules.json", url="/rules/import").status_code == 413


# --- backup and restore -----------------------------------------------------------------


def test_backup_while_rounds_are_being_saved(app, db, tmp_path):
    game_id = start(db, RULESETS["partnership"], "partnership", [("", ["Ann", "Bo"]), ("", ["Cy", "Di"])])
    stop, failures, saved = threading.Event(), [], []

    def keep_saving():
        writer = connect(app.config["DATABASE"])  # sqlite3 objects stay in their own thread
        try:
            while not stop.is_set() and len(saved) < 400:
                game = game_model.load_game(writer, game_id)
                games.add_round(
                    writer, game_id, game.revision, len(game.rounds) + 1, [entry(1, 0, 400), entry(0, 1, 350)]
                )
                saved.append(len(game.rounds) + 1)
        except Exception as error:  # pragma: no cover - reported below
            failures.append(error)
        finally:
            writer.close()

    thread = threading.Thread(target=keep_saving)
    thread.start()
    copies = []
    try:
        while len(saved) < 5:
            stop.wait(0.01)
        for n in range(5):
            copies.append(backup.backup_database(app.config["DATABASE"], tmp_path / f"copy{n}.db"))
    finally:
        stop.set()
        thread.join()
    assert not failures
    numbers = []
    for path in copies:
        with closing(sqlite3.connect(path)) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
            played = [r[0] for r in conn.execute("SELECT number FROM rounds ORDER BY number")]
            assert played == list(range(1, len(played) + 1))  # no round half copied
            assert conn.execute("SELECT COUNT(*) FROM round_entries").fetchone()[0] == 2 * len(played)
            numbers.append(len(played))
    assert numbers == sorted(numbers) and numbers[0] >= 5
    # a copy opens with the app
    copy_app = create_app({"TESTING": True, "DATABASE": str(copies[-1])})
    page = copy_app.test_client().get(f"/games/{game_id}")
    assert page.status_code == 200 and f"Round {numbers[-1]}" in text(page)


def test_backup_refuses_to_overwrite(app, tmp_path):
    target = tmp_path / "backup.db"
    target.write_text("precious")
    with pytest.raises(FileExistsError):
        backup.backup_database(app.config["DATABASE"], target)
    assert target.read_text() == "precious"
    backup.backup_database(app.config["DATABASE"], target, force=True)
    assert backup.check_database(target)
    with pytest.raises(ValueError, match="is the database itself"):
        backup.backup_database(app.config["DATABASE"], app.config["DATABASE"], force=True)
    assert list(tmp_path.glob("*.partial-*")) == []


def test_restore_round_trip(app, db, tmp_path):
    ff, _tablet, _roth = fill(db)
    copy = backup.backup_database(app.config["DATABASE"], tmp_path / "backup.db")
    before = jsonfile.export_history(db)
    start(db, RULESETS["roth"], "roth", [("", ["Late"]), ("", ["Comer"])])
    game = game_model.load_game(db, ff)
    games.reopen_game(db, ff, game.revision)
    games.delete_round(db, ff, game.revision + 1, game.round(4).id)
    kept = backup.restore_database(copy, app.config["DATABASE"])
    # the app's open connection sees the restored data
    assert without_time(jsonfile.export_history(db)) == without_time(before)
    assert kept.name.startswith("scorekeeper.db.before-restore-")
    with closing(connect(kept)) as old:
        assert old["games"].count == 4 and players.find_player(old, "Comer")
    assert backup.check_database(app.config["DATABASE"])
    assert app.test_client().get(f"/games/{ff}").status_code == 200


def test_restore_applies_pending_migrations(app, tmp_path):
    old = tmp_path / "old.db"
    with closing(connect(old, create=True)) as database:
        from scorekeeper.storage.migrations import migrations

        migrations.apply(database, stop_before="m003_game_uid_and_history_indexes")
        database["players"].insert({"name": "Ann", "created_at": "2024-01-01T00:00:00+00:00"})
    backup.restore_database(old, app.config["DATABASE"])
    with closing(connect(app.config["DATABASE"])) as database:
        assert "uid" in database["games"].columns_dict
        assert [r["name"] for r in database.query("SELECT name FROM players")] == ["Ann"]


def test_restore_refuses_what_is_not_a_scorekeeper_backup(app, db, tmp_path):
    fill(db)
    before = counts(db)
    text_file = tmp_path / "notes.db"
    text_file.write_text("not a database at all, just some notes " * 100)
    other_sqlite = tmp_path / "other.sqlite"
    with closing(sqlite3.connect(other_sqlite)) as conn:
        conn.execute("CREATE TABLE t (x)")
    newer = backup.backup_database(app.config["DATABASE"], tmp_path / "newer.db")
    with closing(sqlite3.connect(newer)) as conn:
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
            "VALUES ('scorekeeper', 'm999_from_the_future', '')"
        )
        conn.commit()
    damaged = backup.backup_database(app.config["DATABASE"], tmp_path / "damaged.db")
    content = bytearray(damaged.read_bytes())
    page = 4096
    content[5 * page : 6 * page] = b"\x07" * page  # scribble over a page of the tables
    damaged.write_bytes(bytes(content))
    for path, message in [
        (tmp_path / "missing.db", "no such file"),
        (text_file, "not a SQLite database"),
        (other_sqlite, "not a Scorekeeper database"),
        (newer, "made by a newer Scorekeeper (it has m999_from_the_future)"),
        (damaged, "damaged.db: the database is damaged"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            backup.restore_database(path, app.config["DATABASE"])
    assert counts(db) == before
    assert list(tmp_path.glob("*.before-restore-*")) == []


# --- the CLI ------------------------------------------------------------------------------


def test_cli_export_and_import(runner, db, tmp_path, other):
    fill(db)
    path = tmp_path / "history.json"
    result = runner.invoke(args=["export", str(path)])
    assert result.exit_code == 0, result.output
    assert without_time(json.loads(path.read_text())) == without_time(jsonfile.export_history(db))
    assert runner.invoke(args=["export", str(path)]).exit_code == 1  # no overwrite without --force
    assert runner.invoke(args=["export", "--force", str(path)]).exit_code == 0
    result = runner.invoke(args=["export", str(tmp_path / "history.csv")])
    assert result.exit_code == 0
    assert (tmp_path / "history.csv").read_bytes().decode() == csvfile.export_csv(db)
    result = runner.invoke(args=["export", "-"])
    assert json.loads(result.stdout)["format"] == "scorekeeper-history"

    other_app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.db")})
    other_runner = other_app.test_cli_runner()
    result = other_runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    assert "Imported 3 games (6 rounds)" in result.output
    result = other_runner.invoke(args=["import", str(path)])
    assert "Imported 0 games (0 rounds); 3 games were already here." in result.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(change(json.loads(path.read_text()), "version", 7)))
    result = other_runner.invoke(args=["import", str(bad)])
    assert result.exit_code == 1
    said = "refused, nothing imported: version: this Scorekeeper reads version 1, 2, 3, 4, 5 and 6 files"
    assert said in result.output


def test_cli_backup_and_restore(app, runner, db, tmp_path):
    fill(db)
    target = tmp_path / "backup.db"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0 and "Backed up" in result.output
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 1 and "already exists (use --force" in result.output
    assert runner.invoke(args=["backup", "--force", str(target)]).exit_code == 0
    db["players"].insert({"name": "Late", "created_at": "2024-01-01T00:00:00+00:00"})
    result = runner.invoke(args=["restore", str(target)])
    assert result.exit_code == 0, result.output
    assert "The database as it was is kept at" in result.output
    assert players.find_player(db, "Late") is None
    result = runner.invoke(args=["restore", str(tmp_path / "nothing.db")])
    assert result.exit_code == 1 and "no such file" in result.output


# --- size ----------------------------------------------------------------------------------


def synthetic_export(count):
    """An export of ``count`` small games, built as the format says."""
    rules = RULESETS["tablet"].to_dict()
    round_entries = [entry(2, 2, 1800, 0, out=True).to_dict(), entry(1, 0, 500, 25).to_dict()]
    return {
        "format": "scorekeeper-history",
        "version": 1,
        "players": [],
        "house_rules": [],
        "games": [
            {
                "uid": f"game-{i}",
                "created_at": f"2020-01-01T00:00:{i % 60:02d}+00:00",
                "finished_at": "2020-01-01T01:00:00+00:00",
                "ended_by_hand": False,
                "rules_key": "tablet",
                "rules": rules,
                "first_dealer": None,
                "teams": [
                    {"name": "", "players": [f"P{i % 7}", f"P{i % 7 + 7}"]},
                    {"name": "", "players": [f"P{i % 5 + 20}"]},
                ],
                "rounds": [{"number": n, "entries": round_entries} for n in range(1, 6)],
            }
            for i in range(count)
        ],
    }


@pytest.fixture(scope="module")
def long_history(tmp_path_factory):
    """400 games of five rounds imported, once for the run (``built_once``): the file."""

    def build(folder):
        path = folder / "long.db"
        migrate(path)
        database = connect(path)
        try:
            summary = importer.import_history(database, synthetic_export(400))
        finally:
            database.close()
        return str(path), summary.games_added, summary.rounds_added

    path, games_added, rounds_added = built_once(tmp_path_factory, "long-history", build)
    assert games_added == 400 and rounds_added == 2_000
    return path


@pytest.mark.long  # 400 games exported under tracemalloc: 3 to 8 s a format
@pytest.mark.parametrize(
    "chunks, least",
    [(jsonfile.iter_history_json, 1_100_000), (csvfile.iter_csv, 350_000)],
    ids=["json", "csv"],
)
def test_a_long_history_streams_in_bounded_memory(long_history, tmp_path, chunks, least):
    """(A test a format, on one import made for both, so that two processes share what was
    one of the suite's longest tests.)"""
    shutil.copyfile(long_history, tmp_path / "long.db")
    with closing(connect(tmp_path / "long.db")) as database:
        tracemalloc.start()
        try:
            size = sum(len(chunk) for chunk in chunks(database))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        # a game at a time: far less than the whole file is ever held (10,000 games: 29 MB, 1.4 MB peak)
        assert peak < 700_000, f"{chunks.__name__}: {peak:,} bytes at peak for {size:,} characters"
        assert size > least
        if chunks is csvfile.iter_csv:
            assert len(rows(csvfile.export_csv(database))) == 400 * 5 * 2


def test_long_names_round_trip(db, other):
    names = [f"{letter * 38} {i}" for i, letter in enumerate("ABC")]
    game_id = start(db, RULESETS["tablet"], "tablet", [("", names), ("", ["Bo"])])
    assert len(game_model.load_game(db, game_id).teams[0].name) > MAX_NAME  # "A… & B… & C…"
    export = jsonfile.export_history(db)
    importer.import_history(other, export)
    assert without_time(jsonfile.export_history(other)) == without_time(export)


def test_one_game_exports_in_the_history_format_and_imports(client, db, tmp_path):
    from scorekeeper.services.schema import migrate
    from scorekeeper.storage.db import connect

    game_id = start(db, RULESETS["roth"], "roth", [("", ["Ann", "Bo"]), ("", ["Cy"])])
    games.add_round(
        db, game_id, 0, 1, [TeamRound(books={"clean": 1}, melded_points=100), TeamRound(melded_points=50)]
    )
    response = client.get(f"/games/{game_id}/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    data = response.get_json()
    assert data["format"] == "scorekeeper-history" and len(data["games"]) == 1
    assert data["players"] == ["Ann", "Bo", "Cy"]
    other = tmp_path / "other.db"
    migrate(other)
    target = connect(other)
    try:
        importer.import_history(target, importer.read_history(response.data))
        importer.import_history(target, importer.read_history(response.data))  # twice: nothing more
        assert target["games"].count == 1
        assert game_model.load_game(target, 1).standings.totals == [600, 50]
    finally:
        target.close()
    assert client.get("/games/999/export.json").status_code == 404
    assert f'href="/games/{game_id}/export.json"' in client.get(f"/games/{game_id}").get_data(as_text=True)


# --- a game's night travels with it (issue 54) ----------------------------------------------


NEW_YEARS_EVE = [  # Friends & Family ends after four rounds
    [entry(4, 5, 3200, 0, out=True), entry(2, 1, 1400, 85, red=1)],
    [entry(1, 0, 650, 40), entry(4, 5, 3000, 0, out=True)],
    [entry(0, 0, 120, 230, red=2, black=1), entry(4, 5, 2900, 0, out=True)],
    [entry(4, 5, 3100, 0, out=True), entry(0, 1, 450, 65)],
]


def test_a_game_keeps_its_night_and_year_when_imported_in_another_zone(client, db, tmp_path, zone):
    """23:30 on 31 December in Los Angeles is 07:30 on 1 January in UTC and 16:30 in Tokyo:
    imported on a computer set to Tokyo, the game stays on the night of 31 December, in
    2025, as the family played it."""
    zone("America/Los_Angeles")
    game_id = games.create_game(
        db,
        RULESETS["friends-family"],
        "friends-family",
        [("", ["Ann", "Bo"]), ("", ["Cy", "Di"])],
        played_at="2026-01-01T07:30:00+00:00",  # 2025-12-31 23:30 in Los Angeles
    ).id
    play(db, game_id, *NEW_YEARS_EVE)
    exported = client.get("/export.json").get_json()
    assert exported["version"] == 6
    assert exported["games"][0]["played_at"] == "2026-01-01T07:30:00+00:00"
    assert exported["games"][0]["night"] == "2025-12-31"

    zone("Asia/Tokyo")
    migrate(tmp_path / "tokyo.db")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "tokyo.db")})
    tokyo = at_home(app.test_client(), app)
    assert upload(tokyo, json.dumps(exported).encode()).status_code == 303
    with closing(connect(tmp_path / "tokyo.db")) as other:
        assert other.execute("SELECT night FROM games").fetchall() == [("2025-12-31",)]
        assert other.execute("SELECT night, games FROM nights").fetchall() == [("2025-12-31", 1)]
    assert tokyo.get("/years/2025.json").get_json()["games"] == 1
    assert tokyo.get("/years/2026.json").get_json()["games"] == 0
    assert tokyo.get("/evenings/2025-12-31.json").get_json()["other_games"] == [1]
    assert tokyo.get("/evenings/2026-01-01").status_code == 404
    # and it leaves as it came
    again = tokyo.get("/export.json").get_json()
    assert without_time(again) == without_time(exported)


WHEREVER = "a game played at 2026-01-01T07:30:00+00:00 is on a night from 2025-12-31 to 2026-01-01"


@pytest.mark.parametrize(
    "night, message",
    [
        ("2025-12-30", f"games[0].night: {WHEREVER}, whatever the time zone; not 2025-12-30"),
        ("2026-01-02", f"games[0].night: {WHEREVER}, whatever the time zone; not 2026-01-02"),
        ("31/12/2025", 'games[0].night: must be a day like 2026-12-24, not "31/12/2025"'),
        ("2025-02-30", 'games[0].night: must be a day like 2026-12-24, not "2025-02-30"'),
        (20251231, "games[0].night: must be a day like 2026-12-24, not 20251231"),
        (None, "games[0].night: must be a day like 2026-12-24, not null"),
    ],
)
def test_a_night_no_time_zone_gives_is_refused(db, other, night, message):
    game_id = start(db, RULESETS["tablet"], "tablet", [("", ["Ann"]), ("", ["Bo"])])
    db.execute("UPDATE games SET played_at = '2026-01-01T07:30:00+00:00' WHERE id = ?", [game_id])
    export = change(jsonfile.export_history(db), "games.0.night", night)
    with pytest.raises(ValueError) as refused:
        importer.import_history(other, export)
    assert str(refused.value) == message
    assert other["games"].count == 0


@pytest.mark.parametrize("night", ["2025-12-31", "2026-01-01"])
def test_every_night_some_time_zone_gives_is_taken(db, other, night):
    """07:30 in UTC is 19:30 the evening before in Honolulu (its night: 31 December), 07:30
    in London, 16:30 in Tokyo (1 January)."""
    game_id = start(db, RULESETS["tablet"], "tablet", [("", ["Ann"]), ("", ["Bo"])])
    db.execute("UPDATE games SET played_at = '2026-01-01T07:30:00+00:00' WHERE id = ?", [game_id])
    importer.import_history(other, change(jsonfile.export_history(db), "games.0.night", night))
    assert other.execute("SELECT night FROM games").fetchall() == [(night,)]


def test_a_file_of_an_older_version_is_put_on_this_computers_nights(db, other, zone):
    """A version 4 file has no nights: each game's is worked out on this computer's clock."""
    zone("Asia/Tokyo")
    game_id = start(db, RULESETS["tablet"], "tablet", [("", ["Ann"]), ("", ["Bo"])])
    db.execute("UPDATE games SET played_at = '2026-01-01T07:30:00+00:00' WHERE id = ?", [game_id])
    export = change(change(jsonfile.export_history(db), "version", 4), "games.0.night", delete=True)
    importer.import_history(other, export)
    assert other.execute("SELECT night FROM games").fetchall() == [("2026-01-01",)]
