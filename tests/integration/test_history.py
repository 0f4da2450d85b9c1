"""The history page: filters, pages, and each game's totals and winner from the engine."""

import re

from scorekeeper.scoring import TeamRound
from scorekeeper.services import players

from ..helpers import text


def listed(response):
    return [int(i) for i in re.findall(r'href="/games/(\d+)"', response.get_data(as_text=True))]


def test_filters_by_player_rules_dates_and_status(client, db, make_game):
    ann_bo, cy_di, ann_cy, eve = (("", ["Ann", "Bo"]), ("", ["Cy", "Di"]), ("", ["Ann", "Cy"]), ("", ["Eve"]))
    first = make_game(
        "partnership",
        [[TeamRound(melded_points=300), TeamRound(melded_points=100)]],
        [ann_bo, cy_di],
        day="2025-12-30",
        end=True,
    ).id
    second = make_game(
        "tablet",
        [[TeamRound(melded_points=50), TeamRound(melded_points=80)]],
        [ann_cy, eve],
        day="2026-01-02",
    ).id
    third = make_game("partnership", [], [cy_di, eve], day="2026-02-14", end=True).id
    everyone = client.get("/history")
    assert listed(everyone) == [third, second, first]
    page = text(everyone)
    assert "3 games" in page
    assert "Ann & Bo won" in page and "Ann & Bo 300 · Cy & Di 100" in page  # the engine's totals
    assert "In progress" in page and "No result" in page  # third: ended before any round: no result
    ann = players.find_player(db, "Ann").id
    assert listed(client.get(f"/history?player={ann}")) == [second, first]
    assert listed(client.get("/history?rules=Tablet+game+(5+hands)")) == [second]
    assert listed(client.get("/history?since=2026-01-01")) == [third, second]
    assert listed(client.get("/history?since=2026-01-01&until=2026-01-02")) == [second]
    assert listed(client.get("/history?status=playing")) == [second]
    assert listed(client.get(f"/history?status=finished&player={ann}")) == [first]


def test_pages_of_twenty_keep_the_filters(client, make_game):
    for day in range(1, 26):
        make_game("roth", teams=[("", ["Ann"]), ("", ["Bo"])], day=f"2026-03-{day:02d}")
    first = client.get("/history?status=playing")
    assert len(listed(first)) == 20 and "page 1 of 2" in text(first)
    assert 'href="/history?status=playing&amp;page=2"' in first.get_data(as_text=True)
    second = client.get("/history?status=playing&page=2")
    assert len(listed(second)) == 5 and 'rel="prev"' in second.get_data(as_text=True)
    assert not set(listed(first)) & set(listed(second))
    assert listed(client.get("/history?page=lots")) == listed(first)


def test_wrong_filters_are_said_next_to_their_field_and_not_applied(client, make_game):
    make_game("roth", teams=[("", ["Ann"]), ("", ["Bo"])], day="2026-03-01")
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


def test_history_links_to_export_and_import(client, make_game):
    page = client.get("/history").get_data(as_text=True)
    for url in ('href="/export.json"', 'href="/export.csv"', 'href="/import"'):
        assert url in page
    game_id = make_game("roth", teams=[("", ["Ann"]), ("", ["Bo"])], day="2026-03-01").id
    assert f'href="/games/{game_id}/export.csv"' in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_every_page_of_a_long_history_in_order_near_and_deep(client, db, make_game):
    """Pages past the middle are read from the oldest end: the same games, in the same order."""
    from scorekeeper.services import history

    for day in range(1, 30):
        for hour_game in range(2):  # two games a day: created_at ties are broken by id
            teams = [("", ["Ann"]), ("", ["Bo" if day % 3 else "Cy"])]
            rounds = [[TeamRound(melded_points=50), TeamRound()]] if hour_game else []
            make_game("roth", rounds, teams=teams, day=f"2026-04-{day:02d}", end=day % 4 == 0)
    ann, bo = (players.find_player(db, name).id for name in ("Ann", "Bo"))
    everything = [g for (g,) in db.execute("SELECT id FROM games ORDER BY created_at DESC, id DESC")]
    for filters in (
        history.Filters(),
        history.Filters(player=ann),
        history.Filters(player=bo),
        history.Filters(status="finished"),
        history.Filters(status="playing", player=bo),
    ):
        matching = set()
        _, count = history.find_games(db, filters, 1)
        pages, seen = -(-count // history.PAGE_SIZE), []
        for page in range(1, pages + 1):
            games, again = history.find_games(db, filters, page)
            assert again == count
            seen += [g.id for g in games]
            matching |= {g.id for g in games}
        assert seen == [i for i in everything if i in matching], filters
        # what matches is what the filter says, from the games' own rows
        truth = set(everything)
        if filters.player:
            truth &= {
                g
                for (g,) in db.execute(
                    """SELECT t.game_id FROM teams t JOIN team_players tp ON tp.team_id = t.id
                       WHERE tp.player_id = ?""",
                    [filters.player],
                )
            }
        if filters.status:
            null = "IS NULL" if filters.status == "playing" else "IS NOT NULL"
            truth &= {g for (g,) in db.execute(f"SELECT id FROM games WHERE finished_at {null}")}
        assert matching == truth, filters
        assert len(seen) == count and history.find_games(db, filters, pages + 1)[0] == []
    assert listed(client.get("/history?page=3")) == everything[40:58]  # 58 games: page 3 is deep
