"""Every kind of page, with a family's history behind it, read as a person reads it
on a phone (issue 30): at 320, 360 and 412 px, with and without JavaScript, every word
whole on one line, nothing cut off or off the screen, no text under 12 px, and every
chart's labels at 10 px or more and apart (looks.readable). The year page, with 300
games in the year, is at most six screens tall at 360 px with its months folded.

The history: 300 games generated in one year and 20 the year before (demo.generate, 2 to
4 teams), and a game of each size from 2 to 6 teams being played, built once per test
process and copied for each test.
"""

import datetime
import shutil

import pytest
from playwright.sync_api import expect

from scorekeeper.exchange import demo
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import games
from scorekeeper.storage.db import connect

from ..httpkit import migrated
from .conftest import LiveServer
from .looks import fits_the_phone, readable

WIDTHS = (320, 360, 412)
PHONE_HEIGHT = 740
NOW = datetime.datetime(2026, 11, 20, 22, 0, tzinfo=datetime.UTC)
YEAR = 2026
NAMES = ["Grandma Jo", "Grandpa Walt", "Ann", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jack"]


@pytest.fixture(scope="session")
def family_history(tmp_path_factory):
    """A database of 300 games in 2026 and one game of each size being played: its
    path and the ids of the games being played, by team count."""
    path = migrated(tmp_path_factory.mktemp("family") / "history.db")
    db = connect(str(path))
    try:
        demo.generate(db, 300, seed=30, now=NOW, span=datetime.timedelta(days=315))
        # and a few the year before, for a second year page
        demo.generate(
            db, 20, seed=31, now=NOW - datetime.timedelta(days=340), span=datetime.timedelta(days=30)
        )
        playing = {}
        for teams in range(2, 7):
            seated = [("", NAMES[2 * t : 2 * t + 2]) for t in range(teams)]
            game = games.create_game(db, RULESETS["roth"], "roth", seated)
            row = [TeamRound(books={"clean": 1}, melded_points=1255 * (t + 1)) for t in range(teams)]
            game = games.add_round(db, game.id, game.revision, 1, row)
            playing[teams] = game.id
        # an old sheet's game being typed in: scores alone (its pages, its round form)
        seated = [("", NAMES[:2]), ("", NAMES[2:4]), ("", NAMES[4:6])]
        game = games.create_game(db, RULESETS["roth"], "roth", seated, paper="scores")
        row = [TeamRound(paper_score=score) for score in (1_235, -2_350, 0)]
        playing["scores"] = games.add_round(db, game.id, game.revision, 1, row).id
        players = [pid for (pid,) in db.execute("SELECT id FROM players ORDER BY id")]
        # the demo's evening of the most tables and games, and a night of games played alone
        nights = [
            db.execute(
                "SELECT night FROM evening_games GROUP BY night "
                "ORDER BY MAX(table_number) DESC, COUNT(*) DESC"
            ).fetchone()[0],
            db.execute("SELECT night FROM nights WHERE night NOT IN (SELECT night FROM evenings)").fetchone()[
                0
            ],
        ]
    finally:
        db.close()
    return path, playing, players, nights


@pytest.fixture
def history_server(family_history, tmp_path, instance_path):
    from scorekeeper import create_app

    path, playing, players, nights = family_history
    database = tmp_path / "scorekeeper.db"
    shutil.copyfile(path, database)
    server = LiveServer(create_app({"TESTING": True, "DATABASE": str(database)}))
    try:
        yield server.url, playing, players, nights
    finally:
        server.stop()


def page_groups():
    """(name, a function of (games being played, players) to the paths it opens)."""
    return {
        "home-and-lists": lambda playing, players, nights: [
            "/",
            "/history",
            "/players",
            "/records",
            f"/years/{YEAR}",
            f"/years/{YEAR - 1}",
        ],
        "players": lambda playing, players, nights: [f"/players/{pid}" for pid in players],
        "games": lambda playing, players, nights: [f"/games/{gid}" for gid in playing.values()],
        "round-forms": lambda playing, players, nights: [
            path
            for gid in playing.values()
            for path in (f"/games/{gid}/rounds/new", f"/games/{gid}/rounds/1/edit")
        ],
        "rules": lambda playing, players, nights: ["/rules", *(f"/rules/{key}" for key in RULESETS)],
        "settings-and-new-game": lambda playing, players, nights: ["/settings", "/games/new", "/rules/new"],
        "paper": lambda playing, players, nights: [
            *(f"/games/{playing[key]}/paper" for key in (2, 6, "scores")),
            f"/games/{playing[4]}/played",
            "/import/past-games",
        ],
        "evenings": lambda playing, players, nights: [
            "/evenings/new",
            *(f"/evenings/{night}" for night in nights),
            f"/evenings/{nights[0]}/next",
        ],
    }


GROUPS = page_groups()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("group", GROUPS)
def test_every_word_whole_and_readable_at_every_width(
    history_server, new_page, screenshot, group, javascript
):
    base, playing, players, nights = history_server
    page = new_page(viewport={"width": WIDTHS[0], "height": PHONE_HEIGHT}, java_script_enabled=javascript)
    for path in GROUPS[group](playing, players, nights):
        response = page.goto(base + path)
        assert response.status == 200, path
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        if javascript:  # as it opens, at 360 px (saved by `make pictures`)
            page.set_viewport_size({"width": 360, "height": PHONE_HEIGHT})
            screenshot(page, f"page-{path.strip('/').replace('/', '-') or 'home'}-360")
        # every fold open: what a fold hides is laid out as it will be when opened, and
        # opening one moves nothing sideways
        page.locator("details").evaluate_all("(folds) => folds.forEach((d) => { d.open = true })")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": PHONE_HEIGHT})
            assert readable(page.locator("body")) > 10, f"{path}: hardly a word"
            fits_the_phone(page)


def test_the_year_page_fits_six_screens(history_server, new_page):
    """300 games in the year: its game nights folded by month, the latest open."""
    base, *_ = history_server
    page = new_page(viewport={"width": 360, "height": PHONE_HEIGHT})
    page.goto(f"{base}/years/{YEAR}")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{YEAR} at the table")
    played = int(page.locator(".stat-grid dd").first.inner_text().replace(",", ""))
    assert 290 <= played <= 300  # the few the family never finished do not count
    months = page.locator("details.month-nights")
    # January to November: every month the year has had, none still to come
    expect(months).to_have_count(11)
    expect(months.first).to_have_attribute("open", "")
    expect(months.first.locator("summary")).to_contain_text("November 2026")
    assert months.nth(1).get_attribute("open") is None
    height = page.evaluate("document.documentElement.scrollHeight")
    screens = height / PHONE_HEIGHT
    assert screens <= 6, f"the year page is {height} px tall: {screens:.1f} screens"
