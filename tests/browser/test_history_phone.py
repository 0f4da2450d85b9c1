"""History and charts on a 360 px phone, in a real browser."""

import re

from playwright.sync_api import expect

from scorekeeper.scoring import RULESETS, TeamRound, standings
from scorekeeper.services import catch_up

from .looks import fits_the_phone, numbers_whole, readable

ROUNDS = [
    [TeamRound(books={"clean": 1}, melded_points=300), TeamRound(melded_points=100)],
    [TeamRound(melded_points=50, unplayed_points=100), TeamRound(books={"dirty": 2}, melded_points=400)],
    [TeamRound(melded_points=200), TeamRound(melded_points=150, red_threes=1)],
]


def test_history_filtered_by_a_player(page, live_server, make_game, screenshot):
    make_game("partnership", ROUNDS, day="2026-01-05", end=True)
    make_game("tablet", ROUNDS[:1], [("", ["Cy"]), ("", ["Eve"])], day="2026-02-07")
    page.goto(live_server + "/")
    page.get_by_role("link", name="History of every game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("History")
    expect(page.get_by_text("2 games")).to_be_visible()
    page.get_by_text("Filter the games").click()
    page.get_by_label("Player").select_option(label="Ann")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_text("1 game", exact=True)).to_be_visible()
    totals = standings(RULESETS["partnership"], ROUNDS).totals  # [500+300+50-100+200, 100+600+400+150-100]
    expect(page.get_by_role("link", name="Cy & Di won")).to_contain_text(
        f"Ann & Bo {totals[0]:,} · Cy & Di {totals[1]:,}"
    )
    fits_the_phone(page)
    screenshot(page, "history-filtered")


def test_a_games_score_by_round_chart(page, live_server, make_game, screenshot):
    game_id = make_game("partnership", ROUNDS, day="2026-01-05").id
    page.goto(f"{live_server}/games/{game_id}")
    chart = page.get_by_role("img", name="Score by round")
    expect(chart).to_be_visible()
    s = standings(RULESETS["partnership"], ROUNDS)
    expect(chart).to_have_accessible_description(
        f"Running totals after each of 3 rounds. Ann & Bo: {s.totals[0]:,}; Cy & Di: {s.totals[1]:,}."
    )
    box = chart.bounding_box()
    assert box["width"] <= 360 and box["height"] > 120
    fits_the_phone(page)
    chart.scroll_into_view_if_needed()
    screenshot(page, "game-chart")


def test_a_players_page_with_their_results_chart(page, live_server, make_game, screenshot):
    for day in ("2026-01-05", "2026-01-12", "2026-01-19"):
        make_game("partnership", ROUNDS, day=day, end=True)
    page.goto(live_server + "/")
    with page.expect_navigation():  # the home page has links with "Cy" in them too
        page.get_by_role("link", name="Players").click()
    page.get_by_role("link", name=re.compile(r"^\d+\. Cy Rating")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Cy")
    chart = page.get_by_role("img")
    expect(chart.first).to_be_visible()
    assert chart.first.get_attribute("aria-describedby")
    fits_the_phone(page)
    screenshot(page, "player-cy")


def test_each_teams_chance_to_win_before_the_game(page, live_server, make_game, screenshot):
    for day in ("2026-01-05", "2026-01-12", "2026-01-19"):
        make_game("partnership", ROUNDS, day=day, end=True)  # Cy & Di win all three
    page.goto(live_server + "/games/new?rules=partnership")
    for number, players in ((1, ["Ann", "Bo"]), (2, ["Cy", "Di"])):
        group = page.get_by_role("group", name=f"Team {number}", exact=True)
        for seat, player in enumerate(players, start=1):
            group.get_by_label(f"Player {seat}", exact=True).fill(player)
    with page.expect_navigation():
        page.get_by_role("button", name="Chance to win").click()
    chances = page.get_by_role("region", name="Chance to win")
    expect(chances).to_be_visible()
    expect(chances.get_by_role("listitem")).to_have_count(2)
    shown = [int(t.rstrip("%")) for t in chances.locator(".chance").all_inner_texts()]
    assert shown[1] > shown[0] and 99 <= sum(shown) <= 101
    expect(
        page.get_by_role("group", name="Team 1", exact=True).get_by_label("Player 1", exact=True)
    ).to_have_value("Ann")
    fits_the_phone(page)
    numbers_whole(chances)
    screenshot(page, "new-game-chances")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()
    on_game = page.get_by_role("region", name="Chance to win")
    expect(on_game).to_contain_text(f"{shown[1]}%")
    numbers_whole(on_game)


def test_ratings_updating_after_a_change_to_an_older_game(page, live_server, app, db, make_game, screenshot):
    """An older game comes in from another phone while the app's worker cannot catch up yet
    (this test holds the write lock): the players, player and records pages say so at 360 px
    and fit; once it has caught up, they say nothing."""
    app.config["RATINGS_IN_BACKGROUND"] = True  # as `make run` serves it
    for day in ("2026-01-05", "2026-01-12", "2026-01-19"):
        make_game("partnership", ROUNDS, day=day, end=True)
    db.catch_up_later = lambda: None  # the change from another phone: the app catches up
    make_game("partnership", ROUNDS, day="2025-12-29", end=True)
    pages = ("/players", "/players/1", "/records")
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        for path in pages:
            page.goto(live_server + path)
            note = page.get_by_role("status")
            expect(note).to_contain_text("Ratings updating… a change to a game of")
            fits_the_phone(page)
            readable(note)
            if path == "/players":  # each player's games and wins, with no rating before that game
                row = page.locator(".player-row").filter(has_text="Rating updating…").first
                expect(row).to_contain_text("wins in 4 games")
                readable(row)
        screenshot(page, "records-ratings-updating")
    finally:
        db.conn.execute("ROLLBACK")
    worker = catch_up.for_app(app)
    worker.changed()  # at once, were its first try given up while the lock was held
    assert worker.wait(30)
    for path in pages:
        page.goto(live_server + path)
        expect(page.get_by_text("Ratings updating")).to_have_count(0)


# each day a line's whole text (the date alone, drawn on one line of the card)
DAY_LINES_JS = r"""(root) => [...root.querySelectorAll(".facts")].map((facts) => {
  const node = facts.firstChild, day = node.textContent.split(" · ")[0];
  const range = document.createRange();
  range.setStart(node, 0);
  range.setEnd(node, day.length);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0);
  return [day, new Set(rects.map((r) => Math.round(r.top))).size];
})"""


def test_the_home_page_lists_recent_games_on_the_day_played(page, live_server, db, make_game, screenshot):
    """Issue 54: a game typed in from an old sheet is listed by the day it was played, and
    that day is shown whole on one line of its card at every phone width."""
    import datetime

    from scorekeeper.services import games
    from scorekeeper.services.evenings import stored

    for day in ("2026-01-07", "2019-12-24", "2025-06-01"):  # typed in in this order
        game = make_game("partnership", ROUNDS, end=True)
        played = stored(datetime.date.fromisoformat(day), datetime.time(20, 0))  # the household's 8 pm
        games.change_played(db, game.id, game.revision, played)
    page.goto(live_server + "/")
    recent = page.get_by_role("region", name="Recent games")
    expect(recent.locator(".facts")).to_have_text(
        [
            "2026-01-07 · Partnership rules (22-card cut)",
            "2025-06-01 · Partnership rules (22-card cut)",
            "2019-12-24 · Partnership rules (22-card cut)",
        ]
    )
    for width in (320, 360, 412):
        page.set_viewport_size({"width": width, "height": 740})
        assert recent.evaluate(DAY_LINES_JS) == [["2026-01-07", 1], ["2025-06-01", 1], ["2019-12-24", 1]]
        readable(recent)
        fits_the_phone(page)
    screenshot(page, "home-recent-days")
