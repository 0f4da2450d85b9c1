"""Every main page at 360 x 740, as a phone shows it: no accessibility violation that
axe-core finds, and every control a tap target of at least 44 px, folds opened.

axe-core is vendored (tests/browser/axe/, with its licence; see its README): it is
injected with page.evaluate, which the app's Content-Security-Policy does not govern
(an inline script would be refused), and never served by the app.

The score sheet's screen page (templates/sheets/) is not among them: it is laid out
for paper and changes with the sheets' own work.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.scoring import TeamRound
from scorekeeper.services import deleted
from scorekeeper.web import passcode

from .looks import fits_the_phone
from .test_tables_phone import tappable

AXE = (Path(__file__).parent / "axe" / "axe.min.js").read_text(encoding="utf-8")

TEAMS = (("", ["Ann", "Bo"]), ("", ["Cy", "Di"]))
ROUND = [
    TeamRound(books={"clean": 5, "dirty": 4}, melded_points=1300, cuts=1, went_out=True),
    TeamRound(books={"clean": 2, "dirty": 1}, melded_points=605, unplayed_points=210, red_threes=1),
]

# (name, path, what to do there first: "open" opens every fold, "check" presses Check)
PAGES = [
    ("home", "/", None),
    ("new-game", "/games/new", "open"),
    ("game", "/games/{game}", "open"),
    ("game-over", "/games/{finished}", "open"),
    ("round", "/games/{game}/rounds/new", "open"),
    ("round-review", "/games/{game}/rounds/1/edit", "check"),
    ("round-delete", "/games/{game}/rounds/1/delete", None),
    ("end", "/games/{game}/end", None),
    ("paper-sheet", "/games/{game}/paper", None),
    ("played", "/games/{game}/played", None),
    ("game-delete", "/games/{finished}/delete", None),
    ("deleted-games", "/games/deleted", None),
    ("past-games", "/import/past-games", "open"),
    ("history", "/history", "open"),
    ("players", "/players", None),
    ("player", "/players/{player}", None),
    ("records", "/records", None),
    ("year", "/years/{year}", "open"),
    ("rules", "/rules", None),
    ("cheat-sheet", "/rules/roth", None),
    ("rules-editor", "/rules/new?from=canasta", "open"),
    ("rules-import", "/rules/import", None),
    ("import", "/import", None),
    ("settings", "/settings", None),
    ("follow", "/s/{token}", "open"),
    ("offline", "/offline", None),
]

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations", "incomplete"]});
  const say = (v) => `${v.id} (${v.impact}): ${v.help}: ` + v.nodes.map((n) => n.target.join(" ")).join(", ");
  return {
    violations: result.violations.map(say),
    // "needs review" that is about the markup itself (ARIA), not colours axe cannot compute
    markup: result.incomplete.filter((v) => v.id.startsWith("aria-")).map(say),
  };
}"""


def axe(page):
    page.evaluate(AXE)
    return page.evaluate(RUN_AXE)


def open_every_fold(page):
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true })")


@pytest.fixture
def arranged(make_game, db):
    game = make_game("partnership", [ROUND, ROUND])  # no end: rounds can be entered and fixed
    finished = make_game(
        "tablet", [[TeamRound(melded_points=100), TeamRound(melded_points=50)]] * 5, end=True
    )
    gone = make_game("roth", [ROUND], end=True)  # deleted: the deleted games list it
    deleted.delete_game(db, gone.id, gone.revision)
    return {
        "game": game.id,
        "finished": finished.id,
        "player": game.teams[0].players[0].id,
        "token": game.share_token,
        "year": int(finished.created_at[:4]),
    }


def visit(page, live_server, path, then):
    response = page.goto(live_server + path)
    assert response.status == 200, path
    if then == "open":
        open_every_fold(page)
    elif then == "check":
        page.get_by_role("button", name=re.compile(r"^Check round \d+$")).click()
        expect(page.get_by_role("region", name="Check before saving")).to_be_visible()
        open_every_fold(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_accessibility_violations_on_the_main_pages(arranged, new_page, live_server, scheme):
    page = new_page(color_scheme=scheme)
    found = {}
    for name, path, then in PAGES:
        visit(page, live_server, path.format(**arranged), then)
        result = axe(page)
        if result["violations"] or result["markup"]:
            found[name] = result
    assert not found, "\n".join(f"{name}: {result}" for name, result in found.items())


def test_the_game_page_right_after_a_round_and_the_sign_in_page(app, arranged, new_page, live_server):
    """The pages only some phones see: the game with "Undo round N", signing in."""
    page = new_page()
    page.goto(f"{live_server}/games/{arranged['game']}/rounds/new")
    page.get_by_role("group", name="Ann & Bo").get_by_label("Points melded", exact=True).fill("300")
    page.get_by_role("button", name="Check round 3").click()
    page.get_by_role("button", name=re.compile("^Save")).click()
    expect(page.get_by_role("button", name="Undo round 3")).to_be_visible()
    assert axe(page) == {"violations": [], "markup": []}
    tappable(page)
    passcode.set_passcode(app.instance_path, "Marmalade-42")
    stranger = new_page()
    stranger.goto(live_server + "/")
    expect(stranger.get_by_role("heading", level=1)).to_have_text("Sign in")
    assert axe(stranger) == {"violations": [], "markup": []}
    tappable(stranger)


@pytest.mark.parametrize("name, path, then", PAGES, ids=[p[0] for p in PAGES])
def test_every_control_is_a_44_px_tap_target(arranged, page, live_server, screenshot, name, path, then):
    visit(page, live_server, path.format(**arranged), then)
    open_every_fold(page)
    fits_the_phone(page)
    tappable(page)
    screenshot(page, f"tap-{name}")


def test_every_page_says_what_it_is(arranged, page, live_server):
    """A meta description on every page; no aria-describedby naming nothing ("None")."""
    for _, path, then in PAGES:
        visit(page, live_server, path.format(**arranged), then)
        description = page.locator('meta[name="description"]')
        if path != "/offline":  # the offline page stands alone (templates/webapp/offline.html)
            expect(description).to_have_attribute("content", re.compile(r"Hand and Foot"))
        dangling = page.evaluate(
            """() => [...document.querySelectorAll("[aria-describedby]")].flatMap((el) =>
                 el.getAttribute("aria-describedby").split(/\\s+/)
                   .filter((id) => id && !document.getElementById(id))
                   .map((id) => `${el.id || el.localName} -> ${id}`))"""
        )
        assert dangling == [], f"{path}: {dangling}"
