"""Dates at the edges of the calendar, on the household's clock wherever it is.

Every date or time a user can send (the history's filters, an imported file's
times) is either used or refused with a message next to its field; none gives
a server error, whatever the time zone of the computer that runs the app.
"""

import re
import time

import pytest

from scorekeeper import create_app
from scorekeeper.exchange import importer, jsonfile
from scorekeeper.scoring import TeamRound
from scorekeeper.services import game_model
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect

from ..helpers import posted, text
from .test_history import listed

# UTC, far east and far west of it (UTC+14 and UTC−12), and a zone with summer time
ZONES = ["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "America/Los_Angeles"]


@pytest.fixture(params=ZONES)
def zone(request, monkeypatch):
    """The computer's clock in another time zone, for this test only."""
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    "query",
    [
        "since=&until=",
        "player=&rules=&since=&until=&status=",
        "since=0001-01-01",
        "until=0001-01-01",
        "since=9999-12-31",
        "until=9999-12-31",
        "since=0001-01-01&until=9999-12-31",
        "since=9999-12-31&until=0001-01-01",
    ],
)
def test_any_day_of_the_calendar_filters_the_history(client, make_game, zone, query):
    game = make_game("roth", [], [("", ["Ann"]), ("", ["Bo"])], day="2026-03-01").id
    response = client.get(f"/history?{query}")
    assert response.status_code == 200
    assert '<p class="error"' not in response.get_data(as_text=True), query
    starts_late = "since=9999" in query
    ends_early = "until=0001" in query
    assert listed(response) == ([] if starts_late or ends_early else [game]), query


@pytest.mark.parametrize(
    "value",
    [
        "0000-01-01",
        "10000-01-01",
        "2026-02-30",
        "2026-13-01",
        "2026-03-01T19:30",
        "2026-03-01T19:30:00+02:00",
        "2026-03-01Z",
        "yesterday",
        "-2026-03-01",
    ],
)
def test_a_day_that_is_not_one_is_said_next_to_its_field(client, make_game, zone, value):
    game = make_game("roth", [], [("", ["Ann"]), ("", ["Bo"])], day="2026-03-01").id
    response = client.get("/history", query_string={"since": value, "until": ""})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert '<p class="error" id="since-error">Enter a day as year-month-day, like 2026-11-25.</p>' in page
    assert 'id="until-error"' not in page  # the empty one is no error
    assert listed(response) == [game]  # not applied


@pytest.fixture
def other_db(tmp_path, instance_path):
    """A second, empty Scorekeeper database, for imports."""
    path = tmp_path / "other.db"
    migrate(path)
    database = connect(path)
    yield database
    database.close()


def exported_game(make_game, db):
    make_game("roth", [[TeamRound(melded_points=400), TeamRound(melded_points=50)]], end=True)
    return jsonfile.export_history(db)


@pytest.mark.parametrize(
    "stamp, stored",
    [
        ("0001-01-01T00:00:00+00:00", "0001-01-01T00:00:00+00:00"),
        ("9999-12-31T23:59:59+00:00", "9999-12-31T23:59:59+00:00"),
        ("0001-01-01T05:00:00+05:00", "0001-01-01T00:00:00+00:00"),
        ("9999-12-31T18:59:59-05:00", "9999-12-31T23:59:59+00:00"),
        ("2026-03-01T21:30:00+02:00", "2026-03-01T19:30:00+00:00"),
        ("2026-03-01T19:30:00Z", "2026-03-01T19:30:00Z"),
        ("2026-03-01T19:30:00", "2026-03-01T19:30:00+00:00"),  # no offset: taken as UTC
        ("2026-03-01", "2026-03-01T00:00:00+00:00"),
    ],
)
def test_imported_times_are_stored_in_utc_and_shown_anywhere(db, make_game, other_db, zone, stamp, stored):
    export = exported_game(make_game, db)
    game = export["games"][0]
    game["uid"] = "edge-of-time"
    game["created_at"] = game["updated_at"] = game["finished_at"] = stamp
    importer.import_history(other_db, export)
    row = other_db.execute(
        "SELECT id, created_at, finished_at FROM games WHERE uid = 'edge-of-time'"
    ).fetchone()
    assert row[1:] == (stored, stored)
    client = create_app({"TESTING": True, "DATABASE": other_db.memo_key}).test_client()
    for url in ("/", "/history", f"/games/{row[0]}", f"/games/{row[0]}.json", "/players", "/players/1"):
        assert client.get(url).status_code == 200, url
    assert client.get(f"/history?since={stored[:10]}&until={stored[:10]}").status_code == 200
    assert game_model.load_game(other_db, row[0]).finished


@pytest.mark.parametrize(
    "stamp",
    ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "2026-03-01T25:00:00+00:00", "", "1e9"],
)
def test_a_time_outside_the_calendar_is_refused_by_its_place(db, make_game, other_db, stamp):
    export = exported_game(make_game, db)
    export["games"][0]["uid"] = "edge-of-time"
    export["games"][0]["created_at"] = stamp
    with pytest.raises(ValueError, match=r"^games\[0\]\.created_at: must "):
        importer.import_history(other_db, export)
    assert other_db["games"].count == 0


@pytest.mark.parametrize(
    "language, said", [("en", "is beyond the calendar"), ("pt_BR", "não existe no calendário")]
)
def test_the_first_day_of_the_calendar_as_when_a_game_was_played_is_said_in_the_readers_words(
    client, db, zone, language, said
):
    """0001-01-01 01:00 on a clock away from UTC is before the calendar's first second in
    UTC: Python's own "year 0 is out of range", in English, was shown beside the day
    (issue 54); the page says it in the reader's words, keeps what was typed, starts nothing."""
    client.get(f"/language/{language}")
    page = client.get("/games/new?rules=roth")
    data = {**posted(page), "teams-0-players-0": "Ann", "teams-1-players-0": "Bo"}
    response = client.post("/games/new", data={**data, "played_day": "0001-01-01", "played_time": "01:00"})
    assert response.status_code == 422
    error = re.search(r'<p class="error" id="played_day-error">([^<]*)</p>', text(response))
    assert error and error[1] == f"0001-01-01 01:00:00 {said}", error
    assert 'value="0001-01-01"' in text(response) and 'value="Ann"' in text(response)
    assert db["games"].count == 0
