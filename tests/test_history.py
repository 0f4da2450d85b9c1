"""The history page: filters, pages, and each game's totals and winner from the engine."""

import html
import re

from scorekeeper import games
from scorekeeper.scoring import RULESETS, TeamRound


def text(response):
    return html.unescape(response.get_data(as_text=True))


def arrange(db, key, day, teams, rounds, end=False):
    game_id = games.create_game(db, RULESETS[key], key, teams, created_at=f"{day}T19:30:00+00:00")
    game = games.load_game(db, game_id)
    for number, entries in enumerate(rounds, start=1):
        game = games.add_round(db, game, entries, number)
    if end:
        games.end_game(db, game, game.revision)
    return game_id


def listed(response):
    return [int(i) for i in re.findall(r'href="/games/(\d+)"', response.get_data(as_text=True))]


def test_filters_by_player_rules_dates_and_status(client, db):
    ann_bo, cy_di, ann_cy, eve = (("", ["Ann", "Bo"]), ("", ["Cy", "Di"]), ("", ["Ann", "Cy"]), ("", ["Eve"]))
    first = arrange(db, "partnership", "2025-12-30", [ann_bo, cy_di],
                    [[TeamRound(melded_points=300), TeamRound(melded_points=100)]], end=True)
    second = arrange(db, "tablet", "2026-01-02", [ann_cy, eve],
                     [[TeamRound(melded_points=50), TeamRound(melded_points=80)]])
    third = arrange(db, "partnership", "2026-02-14", [cy_di, eve], [], end=True)
    everyone = client.get("/history")
    assert listed(everyone) == [third, second, first]
    page = text(everyone)
    assert "3 games" in page
    assert "Ann & Bo won" in page and "Ann & Bo 300 · Cy & Di 100" in page  # the engine's totals
    assert "In progress" in page and "A tie" in page  # third: ended before any round, 0–0
    ann = games.player_by_name(db, "Ann").id
    assert listed(client.get(f"/history?player={ann}")) == [second, first]
    assert listed(client.get("/history?rules=Tablet+game+(5+hands)")) == [second]
    assert listed(client.get("/history?since=2026-01-01")) == [third, second]
    assert listed(client.get("/history?since=2026-01-01&until=2026-01-02")) == [second]
    assert listed(client.get("/history?status=playing")) == [second]
    assert listed(client.get(f"/history?status=finished&player={ann}")) == [first]


def test_pages_of_twenty_keep_the_filters(client, db):
    for day in range(1, 26):
        arrange(db, "roth", f"2026-03-{day:02d}", [("", ["Ann"]), ("", ["Bo"])], [])
    first = client.get("/history?status=playing")
    assert len(listed(first)) == 20 and "page 1 of 2" in text(first)
    assert 'href="/history?status=playing&amp;page=2"' in first.get_data(as_text=True)
    second = client.get("/history?status=playing&page=2")
    assert len(listed(second)) == 5 and 'rel="prev"' in second.get_data(as_text=True)
    assert not set(listed(first)) & set(listed(second))
    assert listed(client.get("/history?page=lots")) == listed(first)


def test_wrong_filters_are_said_next_to_their_field_and_not_applied(client, db):
    arrange(db, "roth", "2026-03-01", [("", ["Ann"]), ("", ["Bo"])], [])
    response = client.get("/history?since=yesterday&player=999&status=maybe")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for field in ("since", "player", "status"):
        assert f'<p class="error" id="{field}-error">' in page
    assert 'value="yesterday"' in page
    assert len(listed(response)) == 1


def test_no_games_yet(client):
    assert "No games match." in text(client.get("/history"))
    assert 'href="/history"' in text(client.get("/"))


def test_history_links_to_export_and_import(client, db):
    page = client.get("/history").get_data(as_text=True)
    for url in ('href="/export.json"', 'href="/export.csv"', 'href="/import"'):
        assert url in page
    game_id = arrange(db, "roth", "2026-03-01", [("", ["Ann"]), ("", ["Bo"])], [])
    assert f'href="/games/{game_id}/export.csv"' in client.get(f"/games/{game_id}").get_data(as_text=True)
