"""Sequences of ordinary actions that once ended in a server error (issue 42), each walked
as the family walked it, through real requests on a real database."""

import html
import json
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scorekeeper.exchange import importer
from scorekeeper.scoring import TeamRound
from scorekeeper.services import game_model, ratings, summaries
from scorekeeper.web import passcode

from ..helpers import at_home, posted, served, text
from ..httpkit import (
    FlaskPhone,
    HttpPhone,
    check_round,
    end_game,
    game_json,
    migrated,
    post_form,
    press_save,
    query_db,
    save_round,
    start_game,
)
from .test_evenings import evening_games, propose, shown_tables, start
from .test_exchange import synthetic_export

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.fixture
def zone(monkeypatch):
    """Set the computer's time zone for the rest of the test (``zone("Asia/Tokyo")``), as
    a family sets a Raspberry Pi left on UTC; put back afterwards."""

    def set_zone(name):
        monkeypatch.setenv("TZ", name)
        time.tzset()

    set_zone("UTC")
    yield set_zone
    monkeypatch.undo()
    time.tzset()


def summary_tables(db):
    tables = ("player_games", "player_stats", "nights", "night_players", "year_pairs", "game_records")
    return {name: sorted(db.execute(f"SELECT * FROM {name}").fetchall()) for name in tables}


def rebuilt(db):
    db.execute("BEGIN IMMEDIATE")
    try:
        summaries.rebuild(db)
        return summary_tables(db)
    finally:
        db.execute("ROLLBACK")


def test_a_game_reopened_after_the_time_zone_changed_stays_on_its_night(client, db, make_game, zone):
    """Played on a computer on UTC at 19:30 (the evening of March 1st there); the zone then
    set to Kiritimati's (UTC+14), where that moment is March 2nd, 9:30 in the morning; the
    game reopened and ended again. It stays on March 1st: nothing already counted moves,
    no night goes below nothing, and the year page answers."""
    rounds = [[TeamRound(melded_points=300), TeamRound(melded_points=100)]]
    game = make_game("partnership", rounds, day="2026-03-01", end=True)
    assert db.execute("SELECT night, games FROM nights").fetchall() == [("2026-03-01", 1)]
    zone("Pacific/Kiritimati")
    page = client.get(f"/games/{game.id}")
    assert client.post(f"/games/{game.id}/reopen", data=posted(page)).status_code == 303
    ended = client.post(f"/games/{game.id}/end", data=posted(client.get(f"/games/{game.id}/end")))
    assert ended.status_code == 303
    assert client.get(f"/games/{game.id}").status_code == 200
    assert db.execute("SELECT night, games FROM nights").fetchall() == [("2026-03-01", 1)]
    assert db.execute("SELECT COUNT(*) FROM night_players WHERE games <= 0").fetchone()[0] == 0
    for path in ("/years/2026", "/years/2026.json", "/records", "/evenings/2026-03-01"):
        assert client.get(path).status_code == 200, path
    assert "Ann & Bo" in text(client.get("/evenings/2026-03-01"))
    ratings.catch_up(db)
    assert summary_tables(db) == rebuilt(db)


# --- evenings in every state ------------------------------------------------------------------

PEOPLE = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou", "Max"]


@pytest.fixture
def phone(app):
    return FlaskPhone(app)


def play_sitting(phone, database, night, sitting, results):
    """Each table's game of a sitting: a round that ``results[t]`` wins (None: ended with no
    round; "tie": a round level), then ended. Returns the tables (names per team)."""
    tables = []
    for t, game in enumerate(evening_games(database, night, sitting)):
        played = game_json(phone, game)
        teams = len(played["teams"])
        result = results[t % len(results)]
        if result == "tie":
            values = {"went_out": "nobody", **{i: {"melded_points": 100} for i in range(teams)}}
            assert save_round(phone, game, values).status == 303
        elif result is not None:
            values = {"went_out": str(result), result: {"book_clean": 1, "melded_points": 150}}
            assert save_round(phone, game, values).status == 303
        assert end_game(phone, game).status == 303
        tables.append([list(team["players"]) for team in game_json(phone, game)["teams"]])
    return tables


@pytest.mark.parametrize("people", [2, 3, 5, 6, 7, 9, 10, 13])
def test_a_progressive_evening_of_any_count_proposes_and_starts_its_next_game(app, phone, people):
    """Progressive play at every table the evening can seat (a table of three teams, of
    individuals, of six): the next game is proposed by the rule it says, and starts."""
    names = PEOPLE[:people]
    night = start(phone, propose(phone, names, mode="progressive"))
    database = app.config["DATABASE"]
    tables = play_sitting(phone, database, night, 1, [0, 1])
    page = phone.get(f"/evenings/{night}/next")
    assert page.status == 200, page.text[:500]
    assert "the winners move up a table" in html.unescape(page.text)
    proposed = shown_tables(page)
    assert [[len(team) for team in t] for t in proposed] == [[len(team) for team in t] for t in tables]
    assert sorted(n for t in proposed for team in t for n in team) == sorted(names)
    start(phone, page, f"/evenings/{night}/next")
    second = evening_games(database, night, 2)
    seated = [p for game in second for team in game_json(phone, game)["teams"] for p in team["players"]]
    assert sorted(seated) == sorted(names)  # every player sits once


def test_a_table_without_a_result_keeps_its_players_and_a_tie_is_said(app, phone):
    night = start(phone, propose(phone, PEOPLE[:8], mode="progressive"))
    database = app.config["DATABASE"]
    tables = play_sitting(phone, database, night, 1, [None, 1])
    page = phone.get(f"/evenings/{night}/next")
    assert page.status == 200
    said = html.unescape(page.text)
    assert "Table 1 ended without a result: its players keep their table." in said
    proposed = shown_tables(page)
    assert sorted(n for team in proposed[0] for n in team) == sorted(n for team in tables[0] for n in team)
    # the next-game page opened while a table played on, then that table ended with no
    # round, then "Propose" on the page already open
    start(phone, page, f"/evenings/{night}/next")
    opened = phone.get(f"/evenings/{night}/next")
    second = evening_games(database, night, 2)
    assert save_round(phone, second[1], {"went_out": "0", 0: {"melded_points": 150}}).status == 303
    assert end_game(phone, second[1]).status == 303
    assert end_game(phone, second[0]).status == 303  # no round: no result
    proposed_again = phone.submit(
        post_form(opened.text), f"/evenings/{night}/next", button=("action", "propose", None)
    )
    assert proposed_again.status == 200, proposed_again.text[:500]
    assert "Table 1 ended without a result" in html.unescape(proposed_again.text)
    # a tie is said on the proposal
    start(phone, proposed_again, f"/evenings/{night}/next")
    play_sitting(phone, database, night, 3, ["tie", 0])
    tied = html.unescape(phone.get(f"/evenings/{night}/next").text)
    assert re.search(r"Table 1 was a tie: .+ count as its winners, as the first team listed; swap if", tied)


@pytest.mark.parametrize("people", [7, 9, 11, 13])
def test_a_rotating_evening_of_an_odd_count_starts_its_next_game_as_proposed(app, phone, people):
    names = PEOPLE[:people]
    night = start(phone, propose(phone, names))
    play_sitting(phone, app.config["DATABASE"], night, 1, [0, 1])
    page = phone.get(f"/evenings/{night}/next")
    assert page.status == 200
    start(phone, page, f"/evenings/{night}/next")  # 303: started, not refused
    assert len(evening_games(app.config["DATABASE"], night, 2)) == len(shown_tables(page))


# --- a long import and the phones meanwhile ------------------------------------------------------


def kept_and_rebuilt(db):
    ratings.catch_up(db)
    return summary_tables(db), rebuilt(db)


@pytest.mark.long  # an import stepped through, the pages read between each two steps: 1.5 s
def test_an_import_is_unseen_until_published_and_a_save_between_its_steps_is_saved(
    app, client, db, make_game
):
    """Between each two of the import's short transactions (where a waiting phone goes
    first) a round is saved on another game and the history is read: no save fails, no
    page counts a game the import has not published, and the end equals a rebuild."""
    game = make_game("tablet", day="2026-02-01")
    export = synthetic_export(120)
    seen, saved = [], []

    def between():
        state = db.execute("SELECT state FROM imports").fetchone()
        shown = client.get("/history").get_data(as_text=True)
        games_listed = shown.count('class="card-link"')
        seen.append((state[0] if state else None, games_listed))
        number = len(saved) + 1
        if number <= 5:  # the tablet game has five rounds
            page = client.get(f"/games/{game.id}/rounds/new")
            values = {**posted(page), "teams-0-melded_points": "100", "action": "check"}
            review = client.get(client.post(f"/games/{game.id}/rounds/new", data=values).headers["Location"])
            response = client.post(f"/games/{game.id}/rounds/new", data={**posted(review), "action": "save"})
            saved.append(response.status_code)

    summary = importer.import_history(db, export, turns=between)
    assert summary.games_added == 120
    assert saved == [303] * 5
    # while writing, only the game that was there shows; publishing, the games come in
    writing = [listed for state, listed in seen if state == "writing"]
    assert writing and set(writing) == {1}
    assert [state for state, _ in seen].index("publishing") > 0
    assert db.execute("SELECT COUNT(*) FROM imports").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM games WHERE importing IS NOT NULL").fetchone()[0] == 0
    kept, rebuilt_ = kept_and_rebuilt(db)
    assert kept == rebuilt_
    assert client.get("/history").get_data(as_text=True).count('class="card-link"') == 20  # a page


# An import in a process of its own that loses its power half way: SIGKILL at the second of
# its turns (between two of its transactions) in the state asked, as test_restore_checks.py
# kills a backup half way and test_one_import.py a waiting import.
IMPORT_KILLED = r"""
import os, signal, sys
from scorekeeper.exchange import importer
from scorekeeper.storage.db import connect

database, path, stop_at = sys.argv[1:]
db, seen = connect(database), []

def turns():
    (state,) = db.execute("SELECT state FROM imports").fetchone() or (None,)
    seen.append(state)
    if seen.count(stop_at) == 2:  # the power goes
        os.kill(os.getpid(), signal.SIGKILL)

with open(path, "rb") as file:
    importer.import_file(db, file.read(), turns=turns)
"""


@pytest.mark.long  # a Python process of its own, 80 games written: about 2 s
@pytest.mark.parametrize("stop_at", ["writing", "publishing"])
def test_an_import_cut_off_is_undone_or_finished_at_the_next_start(app, runner, db, tmp_path, stop_at):
    """The app stops in the middle of an import: one still writing is taken away again at
    the next start (its players with it), one publishing is finished; either way the
    summaries are what a rebuild makes of what is there."""
    path = tmp_path / "history.json"
    path.write_text(json.dumps(synthetic_export(80)))
    killed = subprocess.run(
        [sys.executable, "-c", IMPORT_KILLED, app.config["DATABASE"], str(path), stop_at],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-1500:]
    hidden = db.execute("SELECT COUNT(*) FROM games WHERE importing IS NOT NULL").fetchone()[0]
    assert hidden > 0 and db.execute("SELECT state FROM imports").fetchone() == (stop_at,)
    # meanwhile: the scores recomputed at the computer, the history downloaded as CSV (the
    # unpublished games under rules with a kind of book of their own, which no column names)
    recomputed = runner.invoke(args=["recompute-scores"])
    assert recomputed.exit_code == 0, recomputed.output
    db.execute(
        """UPDATE games SET rules = json_set(rules, '$.books.unseen', json_extract(rules, '$.books.dirty'))
           WHERE importing IS NOT NULL"""
    )
    header = at_home(app.test_client(), app).get("/export.csv").get_data(as_text=True).splitlines()[0]
    assert "unseen" not in header and "clean" in header, header
    assert runner.invoke(args=["init-db"]).exit_code == 0  # the next start (make run)
    assert db.execute("SELECT COUNT(*) FROM imports").fetchone()[0] == 0
    count = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert count == (0 if stop_at == "writing" else 80)
    players = db.execute("SELECT COUNT(*) FROM players").fetchone()[0]
    assert players == (0 if stop_at == "writing" else 19)  # P0-P13 and P20-P24
    kept, rebuilt_ = kept_and_rebuilt(db)
    assert kept == rebuilt_


def test_a_save_that_waits_past_the_busy_timeout_is_told_and_keeps_what_was_typed(
    app, db, make_game, monkeypatch
):
    """Another program holds the scores file longer than the app waits: the phone gets a
    page that says so with its round kept, and its next Save works once the file is free."""
    from scorekeeper.storage import db as database

    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 50)  # the app's connections, opened below
    game = make_game("tablet")
    phone = FlaskPhone(app)
    review = check_round(phone, f"/games/{game.id}/rounds/new", {0: {"melded_points": 135}})
    holder = database.connect(app.config["DATABASE"])
    holder.execute("BEGIN IMMEDIATE")
    try:
        refused = press_save(phone, review)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (
        refused.status == 503 and "The scores file was busy for longer than Scorekeeper waits" in refused.text
    )
    assert "Internal Server Error" not in refused.text and 'value="135"' in refused.text
    assert press_save(phone, review).status == 303
    assert len(game_model.load_game(db, game.id).rounds) == 1


def import_under_way(database):
    """The import's mark, as the app keeps it ("writing", "publishing"), or None."""
    found = query_db(database, "SELECT state FROM imports")
    return found[0][0] if found else None


@pytest.mark.long
@pytest.mark.timeout(120)
def test_rounds_saved_on_the_served_app_while_another_phone_imports_are_all_saved(tmp_path):
    """Issue 42's fourth sequence, on `make run`'s own server: phone A imports 300 games
    through /import while phone B saves round after round. Every Save is saved (no 500,
    no refusal), and some met the import: the app's own mark said it was under way before
    the Save was sent and still after its answer, so the Save was written between two of
    the import's 26 transactions (each lets a waiting phone go first). B starts once the
    app says the import is writing, not after a while. (About two seconds.)"""
    database = migrated(tmp_path / "scorekeeper.db")
    instance = tmp_path / "instance"
    instance.mkdir()
    upload = json.dumps(synthetic_export(300)).encode()
    with served(instance, database) as (_, port):
        a, b = HttpPhone("127.0.0.1", port), HttpPhone("127.0.0.1", port)
        a.give_household_code(passcode.household_code(instance))
        game = start_game(b, "roth")
        form, page = a.open_form("/import")
        answer = {}

        def import_it():
            answer["import"] = a.submit(form, page, files=[("file", "history.json", upload)])

        importing = threading.Thread(target=import_it)
        importing.start()
        looked = threading.Event()
        while importing.is_alive() and import_under_way(database) is None:
            looked.wait(0.01)  # a look every 10 ms at what the app says, not a wait for it
        saved, during = [], 0
        while importing.is_alive() or not saved:
            before = import_under_way(database)
            values = {"went_out": "nobody", 0: {"melded_points": 50}, 1: {"melded_points": 50}}
            saved.append(save_round(b, game, values).status)
            during += before is not None and import_under_way(database) is not None
        importing.join(60)
    assert answer["import"].status == 303, answer["import"].text[:300]
    assert set(saved) == {303}, saved
    assert during > 0, f"no Save met the import ({len(saved)} saved)"
    assert query_db(database, "SELECT COUNT(*) FROM games")[0][0] == 301
