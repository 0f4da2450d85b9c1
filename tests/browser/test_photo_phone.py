"""A sheet read from a photo on a 360 x 740 phone (issue 55): the typing page's "Read a
photo of the sheet" sends a photo the seeded generator made (``tests/photos.py``), the page
comes back filled in, its marked boxes said in words, the first of them focused; the family
corrects them, checks and saves, and the game's rounds and totals are the sheet's. Then the
same with a family's own hand: corrected once, it is read better on the next game's sheet.

Every number compared here is the engine's, run on the sheet's entries.
"""

import re

import numpy as np
import pytest
from playwright.sync_api import expect

from scorekeeper.scoring import standings

from .. import photos as generator
from .looks import fits_the_phone, readable
from .test_paper_phone import NAMES, RULES, start_paper_game
from .test_tables_phone import tappable

READING_MS = 60_000


def photographed(page, base, path, game_id, seed, style=None):
    """The ``Sheet`` a family wrote for game ``game_id`` (4 rounds, 2 teams) on the sheet
    the app serves it (its PDF, fetched as the phone's browser would), its first page
    photographed into ``path``: the same seed, the same digits in the same hand."""
    response = page.request.get(f"{base}/games/{game_id}/blank.pdf")
    assert response.ok and response.headers["content-type"] == "application/pdf"
    rng = np.random.default_rng(seed)
    sheet = generator.sheet(RULES, 2, 4, rng)
    sheet.game_id = game_id
    images, labels = generator.held_out()
    pen = generator.Pen(images, labels, rng, generator.family_style if style == "family" else None)
    printed = generator.printed(sheet, 1, response.body())
    generator.fill(printed, sheet.geom, 1, sheet.values, pen, rng)
    path.write_bytes(generator.photograph(printed, rng, turn=0).data)
    return sheet


def game_id_of(page):
    return int(re.search(r"/games/([0-9]+)", page.url)[1])


def read_photo(page, path):
    """Choose the photo (the camera on a phone) and send it: the page filled in from it."""
    section = page.get_by_role("region", name="Read a photo of the sheet")
    section.get_by_label("Photo of the sheet").set_input_files(str(path))
    # reading a 12 MP photo takes the computer 2-3 s, far longer on a shared, busy machine
    with page.expect_navigation(timeout=READING_MS):
        section.get_by_role("button", name="Read the photo").click()
    expect(page.get_by_role("heading", level=2, name="Read from the photo")).to_be_visible()


def written(sheet, box_id):
    number, team, line = re.fullmatch(r"rounds-([0-9]+)-teams-([0-9]+)-([a-z_]+)", box_id).groups()
    value = sheet.values[(int(number) + 1, int(team), line)]
    return "" if value is None else str(value)


def differing(page, sheet):
    """The boxes whose value is not what the sheet says (a tick box is read as its own)."""
    boxes = page.locator("input[data-line]")
    return [
        box_id
        for box_id, value in zip(
            boxes.evaluate_all("els => els.map(e => e.id)"),
            boxes.evaluate_all("els => els.map(e => e.value)"),
        )
        if not box_id.endswith("went_out") and value != written(sheet, box_id)
    ]


def correct(page, sheet, box_ids):
    for box_id in box_ids:
        page.locator(f"#{box_id}").fill(written(sheet, box_id))


def check_and_save(page):
    with page.expect_navigation():
        page.get_by_role("button", name="Check the sheet").click()
    review = page.get_by_role("region", name="Check before saving")
    expect(review).to_be_visible()
    with page.expect_navigation():
        review.get_by_role("button", name=re.compile("^Save")).click()
    expect(page.get_by_role("status").first).to_have_text("Rounds 1–4 saved from the paper sheet.")


@pytest.mark.timeout(240)  # a photo drawn (3 s) and read (3 s) idle; a busy machine is slower
def test_a_sheet_read_from_a_photo_corrected_and_saved_on_a_phone(
    page, live_server, screenshot, tmp_path, db
):
    start_paper_game(page, live_server)
    game_id = game_id_of(page)
    sheet = photographed(page, live_server, tmp_path / "sheet.jpg", game_id, seed=5)
    fits_the_phone(page)
    tappable(page)
    # the game's page offers it too, the camera's file input a thumb's size
    page.goto(f"{live_server}/games/{game_id}")
    camera = page.get_by_label("Photo of the sheet")
    expect(camera).to_have_attribute("accept", "image/*")
    expect(camera).to_have_attribute("capture", "environment")
    assert camera.bounding_box()["height"] >= 44
    fits_the_phone(page)
    tappable(page)
    page.goto(f"{live_server}/games/{game_id}/paper")
    read_photo(page, tmp_path / "sheet.jpg")
    fits_the_phone(page)
    readable(page.locator("body"))
    tappable(page)
    screenshot(page, "photo-read", errors=True)
    marks = page.locator(".read-mark")
    marked = [box_id.removesuffix("-read") for box_id in marks.evaluate_all("els => els.map(e => e.id)")]
    if marked:  # the first box to look at has the cursor, and says why in words
        expect(page.locator(f"#{marked[0]}")).to_be_focused()
        expect(page.locator(f"#{marked[0]}")).to_have_accessible_description(re.compile(".+"))
        expect(marks.first).to_contain_text("Look:")
    wrong = differing(page, sheet)
    assert set(wrong) <= set(marked), f"read wrong and not marked: {sorted(set(wrong) - set(marked))}"
    correct(page, sheet, marked)
    assert differing(page, sheet) == []
    check_and_save(page)
    # the game's rounds and totals as the sheet says: the engine's on the sheet's entries
    s = standings(RULES, sheet.rounds, teams=2)
    winner = max(range(2), key=lambda t: s.totals[t])
    expect(
        page.get_by_role("heading", level=2, name=f"{NAMES[winner]} win with {s.totals[winner]:,}!")
    ).to_be_visible()
    standing = page.get_by_role("region", name="Standings")
    expect(standing.locator(".big-total")).to_have_text([f"Total: {total:,}" for total in s.totals])
    assert db.execute("SELECT COUNT(*) FROM rounds WHERE game_id = ?", [game_id]).fetchone()[0] == 4
    expect(page.get_by_role("link", name="Photo 1")).to_be_visible()
    fits_the_phone(page)
    tappable(page)


@pytest.mark.timeout(300)  # two photos drawn and read
def test_a_correction_teaches_the_reader_the_familys_hand(page, live_server, tmp_path):
    start_paper_game(page, live_server)
    sheet = photographed(page, live_server, tmp_path / "first.jpg", game_id_of(page), seed=11, style="family")
    read_photo(page, tmp_path / "first.jpg")
    wrong = differing(page, sheet)
    assert wrong, "the family's hand was read right at once: nothing to learn from"
    correct(page, sheet, wrong)
    check_and_save(page)

    start_paper_game(page, live_server)  # the next game, the same hand and digits
    again = photographed(page, live_server, tmp_path / "second.jpg", game_id_of(page), 11, "family")
    read_photo(page, tmp_path / "second.jpg")
    fits_the_phone(page)
    still = [box_id for box_id in wrong if box_id in differing(page, again)]
    assert len(still) < len(wrong), f"read wrong again after the correction: {still} of {wrong}"
