"""A game added by mistake, deleted and brought back on a 360 px phone (issue 54), with and
without JavaScript: its page's Delete, the question that names it, Undo right after, then
deleted again and restored from the deleted games under History."""

import pytest
from playwright.sync_api import expect

from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import games

from ..helpers import on_the_clock
from .looks import fits_the_phone

TAP = 44  # px: the least a finger can hit
DELETED = "Game deleted: Ann & Bo vs Cy & Di, played 2026-01-05."
RESTORED = "Game restored: Ann & Bo vs Cy & Di, played 2026-01-05."


def a_game(db):
    """Ann & Bo against Cy & Di, two rounds, ended (played at noon on the household's clock:
    the 5th in every zone)."""
    teams = [("", ["Ann", "Bo"]), ("", ["Cy", "Di"])]
    game = games.create_game(
        db, RULESETS["partnership"], "partnership", teams, played_at=on_the_clock("2026-01-05")
    )
    for number, melded in enumerate(([1200, 300], [360, 990]), start=1):
        rows = [TeamRound(melded_points=m) for m in melded]
        game = games.add_round(db, game.id, game.revision, number, rows)
    return games.end_game(db, game.id, game.revision)


def tap(page, control):
    """Tap ``control`` (a link or a button) as a thumb does: it is there to be seen, big
    enough, on the screen; the page it opens has loaded."""
    control.scroll_into_view_if_needed()
    expect(control).to_be_visible()
    box = control.bounding_box()
    assert box["height"] >= TAP and box["width"] >= TAP, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    with page.expect_navigation():
        control.click()


def delete_it(page, screenshot, name):
    tap(page, page.get_by_role("link", name="Delete this game"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Delete this game?")
    main = page.locator("main")
    expect(main).to_contain_text("Ann & Bo vs Cy & Di")
    expect(main).to_contain_text("played 2026-01-05 · 2 rounds · Ann & Bo won")
    expect(main).to_contain_text("Ann & Bo: 1,560")
    expect(main).to_contain_text("Cy & Di: 1,290")
    fits_the_phone(page)
    screenshot(page, f"{name}-asked")
    tap(page, page.get_by_role("button", name="Delete the game"))
    expect(page.get_by_role("heading", level=1)).to_have_text("History")
    expect(page.get_by_role("status").first).to_have_text(
        "Game deleted: Ann & Bo vs Cy & Di, played 2026-01-05."
    )
    expect(page.get_by_text("0 games")).to_be_visible()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_deleted_undone_deleted_again_and_restored_at_360_px(
    new_page, live_server, db, screenshot, javascript
):
    game = a_game(db)
    page = new_page(java_script_enabled=javascript)
    page.goto(f"{live_server}/games/{game.id}")
    delete_it(page, screenshot, "deleted")
    fits_the_phone(page)
    screenshot(page, "deleted-undo")

    tap(page, page.get_by_role("button", name="Undo: restore the game"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann & Bo vs Cy & Di")
    expect(page.get_by_role("status").first).to_have_text(
        "Game restored: Ann & Bo vs Cy & Di, played 2026-01-05."
    )
    expect(page.get_by_role("link", name="Share the picture")).to_be_visible()  # finished, as it was

    delete_it(page, screenshot, "deleted-again")
    page.reload()  # Undo is offered once, right after
    expect(page.get_by_role("button", name="Undo: restore the game")).to_have_count(0)
    tap(page, page.get_by_role("link", name="Deleted games"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Deleted games")
    card = page.locator("li.card")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Ann & Bo vs Cy & Di")
    expect(card).to_contain_text("Ann & Bo 1,560 · Cy & Di 1,290")
    expect(page.locator("ul.history-log li")).to_have_count(3)  # deleted, restored, deleted
    fits_the_phone(page)
    screenshot(page, "deleted-games")

    tap(page, card.get_by_role("button", name="Restore"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann & Bo vs Cy & Di")
    expect(page.get_by_role("status").first).to_have_text(
        "Game restored: Ann & Bo vs Cy & Di, played 2026-01-05."
    )
    page.goto(f"{live_server}/history")
    expect(page.get_by_text("1 game", exact=True)).to_be_visible()
