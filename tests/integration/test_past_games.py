"""A spreadsheet of past games (issue 41): previewed, then imported whole, or refused with
every bad line named and nothing written. Real requests, real files, a real database."""

import random
import re

import pytest

from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import game_model, games
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect, transaction

from ..helpers import at_home, posted, text
from ..helpers import past_games_preview as preview

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve", "Flo"]


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def spreadsheet(count=200, seed=41, order="ymd", separator=","):
    """``count`` four-round games of two pairs, a line per team, scores only."""
    rnd = random.Random(seed)
    lines = [separator.join(["Date", "Game", "Players", "Round 1", "Round 2", "Round 3", "Round 4"])]
    for g in range(count):
        year, month, day = 2019 + g // 80, 1 + g % 12, 1 + g % 28
        when = {"ymd": f"{year}-{month:02d}-{day:02d}", "dmy": f"{day}/{month}/{year}"}[order]
        pairs = rnd.sample(NAMES, 4)
        for team in (pairs[:2], pairs[2:]):
            scores = [str(rnd.randrange(-60, 900) * 5) for _ in range(4)]
            lines.append(separator.join([when, f"g{g + 1}", " & ".join(team), *scores]))
    return "\n".join(lines) + "\n"


def import_previewed(client, previewed):
    data = {**posted(previewed), "action": "import"}
    response = client.post("/import/past-games", data=data, content_type="multipart/form-data")
    assert response.status_code == 303, text(response)[:3000]
    return response


def game_count(db):
    return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def test_two_hundred_past_games_come_in_with_a_preview_and_only_once(client, db):
    with transaction(db):  # Ann is known before the import, the rest are new
        db.execute("INSERT INTO players (name, key, created_at, revision) VALUES ('Ann', 'ann', 'x', 0)")
    shown = preview(client, spreadsheet())
    page = re.sub(r"\s+", " ", text(shown))
    assert "200 games (800 rounds), scores alone" in page
    assert "from 2019-01-01 to 2021-12-28" in page
    assert "<dt>Players known</dt><dd>Ann</dd>" in page
    assert re.search(r"<dt>New players</dt><dd>(\w+ · ){4}\w+</dd>", page)  # a comma may be in a name
    assert game_count(db) == 0  # a preview writes nothing
    response = import_previewed(client, shown)
    assert response.headers["Location"] == "/history"
    assert "Imported 200 games (800 rounds) and 5 new players." in text(client.get("/history"))
    assert game_count(db) == 200
    game = game_model.load_game(db, 1)
    assert game.scores_only and game.finished and len(game.rounds) == 4
    assert game.night == "2019-01-01"  # the day written, whatever the computer's zone
    assert client.get("/years/2019.json").get_json()["games"] == 80
    # the same file again: every game is here already, and nothing is offered to import
    again = preview(client, spreadsheet())
    assert "200 of them here already, skipped" in re.sub(r"\s+", " ", text(again))
    assert "Nothing to import: every game of this file is here already" in text(again)
    assert 'value="import"' not in text(again)
    import_previewed(client, again)  # posted all the same (an old page): nothing is written
    assert "Imported 0 games (0 rounds)." in text(client.get("/history"))
    assert game_count(db) == 200


def test_a_file_with_one_bad_line_writes_nothing_and_names_the_line(client, db):
    lines = spreadsheet(30).splitlines()
    cells = lines[17].split(",")
    cells[3] = "12x5"  # line 18 (the header is line 1): a typo in round 1
    lines[17] = ",".join(cells)
    response = preview(client, "\n".join(lines), status=422)
    page = text(response)
    assert "Nothing was imported: 1 line to fix first." in page
    assert re.search(r"<li>Line 18: round 1: “12x5” is not a whole number</li>", page)
    assert "Import 30 games" not in page and 'name="content" type="hidden" value=""' in page
    assert game_count(db) == 0


@pytest.mark.parametrize(
    "lines, said",
    [
        (
            ["2020-01-01,a,Ann & Bo,100", "2020-01-01,a,Cy,50,20"],
            "Line 3: 2 rounds, but line 2 of the same game has 1",
        ),
        (
            ["2020-01-01,a,Ann & Bo,100", "2020-01-02,a,Cy,50"],
            "Line 3: game “a” of 2020-01-02 has 1 team: a game has 2 to 6",  # a game is its day and number
        ),
        (["2020-01-01,a,Ann & Bo,100"], "Line 2: game “a” of 2020-01-01 has 1 team: a game has 2 to 6"),
        (
            ["2020-01-01,a,Ann & Bo,100", "2020-01-01,a,ann,50"],
            "Line 3: “ann” plays twice in game “a” of 2020-01-01 (line 2)",
        ),
        (
            ["2020-13-01,a,Ann,100", "2020-13-01,a,Bo,5"],
            "Line 2: “2020-13-01” is not a day of the calendar",
        ),
        (
            ["2020-01-01,a,Ann,,100", "2020-01-01,a,Bo,5,5"],
            "Line 2: round 1 is empty, but a later round has a score",
        ),
        (
            ["2020-01-01,a,Ann,2000000", "2020-01-01,a,Bo,5"],
            "Line 2: round 1: Ann: A round's score is at most 1,000,000 either way.",
        ),
        (["2020-01-01,a,,100", "2020-01-01,a,Bo,5"], "Line 2: no players: name them, joined with &"),
    ],
)
def test_every_bad_line_is_said_with_its_number_and_why(client, db, lines, said):
    content = "date,game,players,round 1,round 2\n" + "\n".join(lines) + "\n"
    page = text(preview(client, content, status=422))
    assert said in page.replace("<li>", "").replace("</li>", "")
    assert game_count(db) == 0


def test_several_bad_lines_are_all_said(client, db):
    content = (
        "date,game,players,1\n2020-01-01,a,Ann,x\n2020-01-01,a,Bo,5\n2020-01-02,b,Cy,7\n2020-01-02,b,Di,y\n"
    )
    page = text(preview(client, content, status=422))
    assert "2 lines to fix first" in page
    assert "Line 2: round 1: “x” is not a whole number" in page and "Line 5: round 1: “y”" in page


def test_a_spreadsheet_of_another_country_reads_as_written(client, db):
    """Excel in much of Europe: semicolons, days first, a byte-order mark, and a name in cp1252."""
    content = spreadsheet(4, order="dmy", separator=";").replace("Ann", "Zoë")
    shown = preview(client, "\ufeff".encode() + content.encode("utf-8"), dates="dmy")
    assert "4 games (16 rounds)" in re.sub(r"\s+", " ", text(shown)) and "Zoë" in text(shown)
    windows = preview(client, content.encode("cp1252"), dates="dmy")
    assert "Zoë" in text(windows)
    import_previewed(client, windows)
    assert {row[0] for row in db.execute("SELECT name FROM players")} >= {"Zoë"}


def test_the_apps_own_spreadsheet_export_comes_back_line_by_line(client, db, tmp_path, zone):
    """The CSV export (a row per team per round, the sheet's lines) into another database:
    the same rounds, scored the same by the engine, on the same night: in Tokyo the game
    below began at 04:00 on 6 May, its evening the 5th's (the export wrote the 6th)."""
    zone("Asia/Tokyo")
    with transaction(db):
        game_id = games.insert_game(
            db,
            RULESETS["friends-family"],
            "friends-family",
            [("", ["Ann", "Bo"]), ("", ["Cy", "Di"])],
            created_at="2025-05-05T19:00:00+00:00",
        )
    game = games.add_round(
        db,
        game_id,
        0,
        1,
        [
            TeamRound(books={"clean": 4, "dirty": 5}, melded_points=1210, went_out=True),
            TeamRound(books={"clean": 2, "dirty": 3}, melded_points=690, unplayed_points=85, red_threes=1),
        ],
    )
    game = games.end_game(db, game_id, game.revision)
    exported = client.get("/export.csv").data
    other = tmp_path / "other.db"
    migrate(other)
    from scorekeeper import create_app

    there = create_app({"TESTING": True, "DATABASE": str(other), "WTF_CSRF_ENABLED": False})
    elsewhere = at_home(there.test_client(), there)
    shown = preview(elsewhere, exported, rules="roth")  # each row names its rule set
    assert "1 game (1 rounds), line by line" in re.sub(r"\s+", " ", text(shown))
    import_previewed(elsewhere, shown)
    copy = game_model.load_game(connect(other), 1)
    assert copy.rounds[0].entries == game.rounds[0].entries
    assert copy.standings.totals == game.standings.totals and copy.rules.name == game.rules.name
    assert copy.paper == "sheet" and copy.night == "2025-05-05"  # the night it was played, in any zone


def test_a_bad_round_of_lines_is_refused_by_the_engine_with_its_line(client, db):
    content = (
        "date,game,round,players,books_clean,books_dirty,melded_points,went_out\n"
        "2020-02-02,a,1,Ann & Bo,4,5,1213,1\n"
        "2020-02-02,a,1,Cy & Di,1,1,400,yes\n"
    )
    page = text(preview(client, content, status=422))
    assert "Line 2: round 1: Ann & Bo: 1213 points melded can’t be right" in page
    assert "Line 2: round 1: Only one team can go out in a round" in page
    assert game_count(db) == 0


def test_a_sheet_written_round_by_round_names_each_teams_own_line(client, db):
    """Rows of one team in one round, the rounds before the teams: a problem with the
    second team is said at its first line (4), not at the second row of the game (3); and
    "Bo & Ann" is the team "Ann & Bo" wrote."""
    content = (
        "date,game,round,players,books_clean,books_dirty,melded_points,went_out\n"
        "2020-02-02,a,1,Ann & Bo,4,5,1200,1\n"
        "2020-02-02,a,2,Bo & Ann,1,1,400,0\n"
        "2020-02-02,a,1,Cy & Ann,1,1,400,0\n"
        "2020-02-02,a,2,Cy & Ann,4,5,1200,1\n"
    )
    page = text(preview(client, content, status=422)).replace("<li>", "").replace("</li>", "")
    assert "Line 4: “Ann” plays twice in game “a” of 2020-02-02 (line 2)" in page, page
    assert game_count(db) == 0


def test_nothing_chosen_or_a_file_that_is_no_csv_is_said(client, db):
    page = client.get("/import/past-games")
    response = client.post(
        "/import/past-games", data={**posted(page), "action": "preview"}, content_type="multipart/form-data"
    )
    assert response.status_code == 422 and "Choose the spreadsheet, saved as CSV." in text(response)
    assert "Line 1: none of these columns is one read here: a line a game has Date, Game" in text(
        preview(client, b"\x00\x01binary", status=422)
    )
    carried = {**posted(page), "action": "import", "content": "not base64!"}
    response = client.post("/import/past-games", data=carried, content_type="multipart/form-data")
    assert response.status_code == 422 and game_count(db) == 0
