"""Pages that say what is so (issue 54): an earlier night's evening is not "tonight". Real
requests through the Flask test client on a real SQLite file."""

import datetime
import json

from scorekeeper.services import evening_tables

from ..helpers import posted, text
from .test_sheets import pdf, read

TEAMS = {
    "teams-0-players-0": "Ann",
    "teams-0-players-1": "Bo",
    "teams-1-players-0": "Cy",
    "teams-1-players-1": "Di",
}


def start(client, **extra):
    """A new game of Friends & Family for Ann & Bo and Cy & Di, as New game posts it."""
    page = client.get("/games/new?rules=friends-family")
    response = client.post("/games/new", data={**posted(page), **TEAMS, **extra})
    assert response.status_code == 303, text(response)[:2000]
    return response.headers["Location"]


def test_an_earlier_nights_page_says_that_evening_and_tonights_says_tonight(client):
    start(client, kept="sheet", played_day="2025-06-02", played_time="20:30")
    earlier = text(client.get("/evenings/2025-06-02"))
    assert "The evening of Monday 2 June 2025" in earlier
    assert '<h2 id="standings-title">The evening’s standings</h2>' in earlier
    assert '<h2 id="games-title">Every game of the evening</h2>' in earlier
    assert (
        "Ranked by games won that evening, then by points: each player counts their own team's "
        "total in every game they played that evening, games left unfinished included."
    ) in earlier
    assert "tonight" not in earlier.lower()
    said = json.loads(client.get("/evenings/2025-06-02.json").get_data(as_text=True))
    assert said["ranking_rule"] == (
        "Ranked by games won that evening, then by points: each player counts their own team's "
        "total in every game they played that evening, games left unfinished included."
    )
    # a game started now is on tonight's page, which says so
    start(client)
    tonight = evening_tables.tonight()
    page = text(client.get(f"/evenings/{tonight}"))
    assert '<h2 id="standings-title">Tonight’s standings</h2>' in page
    assert '<h2 id="games-title">Every game tonight</h2>' in page
    assert (
        "Ranked by games won tonight, then by points: each player counts their own team's total "
        "in every game they played tonight, games still being played included."
    ) in page
    assert "that evening" not in page


def test_tonights_page_is_answered_anew_once_the_night_is_past(client, monkeypatch):
    """Its games unchanged, tonight's page seen again the next day is not "unchanged" (a
    304 would keep "Tonight’s standings" on the phone)."""
    start(client)
    night = evening_tables.tonight()
    first = client.get(f"/evenings/{night}")
    assert "Tonight’s standings" in text(first)
    seen = {"If-None-Match": first.headers["ETag"]}
    assert client.get(f"/evenings/{night}", headers=seen).status_code == 304
    tomorrow = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=1)
    monkeypatch.setattr(evening_tables, "now", lambda: tomorrow.isoformat(timespec="seconds"))
    again = client.get(f"/evenings/{night}", headers=seen)
    assert again.status_code == 200
    assert '<h2 id="standings-title">The evening’s standings</h2>' in text(again)


def test_an_earlier_nights_printed_evening_says_that_evening(client):
    start(client, kept="sheet", played_day="2025-06-02", played_time="20:30")
    _, printed = read(pdf(client, "/evenings/2025-06-02/evening.pdf"))
    said = " ".join(printed.split())
    assert (
        "Ranked by games won that evening, then by points: each player counts their own team's "
        "total in every game they played that evening, games left unfinished included."
    ) in said
    assert "tonight" not in said.lower()
