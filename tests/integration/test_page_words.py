"""Pages that say what is so (issue 54): an earlier night's evening is not "tonight", and a
game kept as scores alone offers no sheet of these rules' lines and no breakdown of a round
it does not have. Real requests through the Flask test client on a real SQLite file."""

import datetime
import json

from scorekeeper.services import evening_tables

from ..helpers import TEAMS, posted, text
from .test_sheets import pdf, read


def start(client, **extra):
    """A new game of Friends & Family for Ann & Bo and Cy & Di, as New game posts it."""
    page = client.get("/games/new?rules=friends-family")
    response = client.post("/games/new", data={**posted(page), **TEAMS, **extra})
    assert response.status_code == 303, text(response)[:2000]
    return response.headers["Location"]


def check(client, game_id, values):
    """The paper page's Check, with these boxes typed."""
    page = client.get(f"/games/{game_id}/paper")
    response = client.post(f"/games/{game_id}/paper", data={**posted(page), **values, "action": "check"})
    assert response.status_code == 200, text(response)[:2000]
    return response


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


def test_a_game_kept_as_scores_alone_offers_no_sheet_and_no_breakdown(client):
    game = start(client, kept="scores", played_day="2025-06-02")
    assert game == "/games/1/paper"
    page = text(client.get(game))
    assert "Print its sheet" not in page and "/games/1/blank.pdf" not in page
    assert "Played 2025-06-02? Change" in page  # what it does offer
    checked = check(
        client,
        1,
        {
            "rounds-0-teams-0-score": "1200",
            "rounds-0-teams-1-score": "-150",
            "rounds-1-teams-0-score": "800",
            "rounds-1-teams-1-score": "2300",
            "ended": "",
        },
    )
    review = text(checked)
    assert "2 rounds typed in. Totals after them:" in review
    assert "as these rules make them" not in review and "These rules:" not in review
    # each team's total after each round, from the engine (Ann & Bo 1,200 then 2,000;
    # Cy & Di −150 then 2,150), and nothing a rule worked out
    assert review.count('Total after this round: <span class="num">') == 4
    for total in ("1,200", "2,000", "−150", "2,150"):
        assert f'Total after this round: <span class="num">{total}</span>' in review
    saved = client.post("/games/1/paper", data={**posted(checked), "action": "save"})
    assert saved.status_code == 303
    shown = text(client.get("/games/1"))
    assert "Tap a round for its running totals; newest first." in shown
    assert "for its breakdown" not in shown and "Print its sheet" not in shown


def test_a_game_kept_on_a_sheet_still_offers_its_sheet_and_the_rules_sums(client):
    start(client, kept="sheet", played_day="2025-06-02")
    page = text(client.get("/games/1/paper"))
    assert "Print its sheet" in page and "/games/1/blank.pdf" in page
    checked = check(client, 1, {"rounds-0-teams-0-melded_points": "300", "ended": ""})
    review = text(checked)
    assert "1 round typed in. Totals after them, as these rules make them:" in review
    assert 'These rules: <strong class="num">+300</strong> · total <span class="num">300</span>' in review
    assert "Total after this round" not in review
    saved = client.post("/games/1/paper", data={**posted(checked), "action": "save"})
    assert saved.status_code == 303
    assert "Tap a round for its breakdown; newest first." in text(client.get("/games/1"))
