"""Sequences of ordinary actions that once ended in a server error (issue 42), each walked
as the family walked it, through real requests on a real database."""

import html
import re
import time

import pytest

from scorekeeper.scoring import TeamRound
from scorekeeper.services import ratings, summaries

from ..helpers import posted, text
from ..httpkit import FlaskPhone, end_game, game_json, post_form, save_round
from .test_evenings import evening_games, propose, shown_tables, start


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
