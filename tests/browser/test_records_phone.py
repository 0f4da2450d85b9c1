"""The records page and a year page on a 360 px phone and in print, in a real browser."""

import re

from playwright.sync_api import expect

from scorekeeper.printing import yearbook
from scorekeeper.scoring import TeamRound

from .looks import fits_the_phone, numbers_whole

BIG = [
    [
        TeamRound(books={"clean": 3, "dirty": 2}, melded_points=1_250, went_out=True),
        TeamRound(melded_points=100),
    ],
    [TeamRound(melded_points=50, unplayed_points=400), TeamRound(books={"dirty": 4}, melded_points=900)],
]
SMALL = [[TeamRound(melded_points=150), TeamRound(melded_points=100, red_threes=2)]]


def a_family_year(make_game):
    """Games over a few evenings of 2026, two teams and three, under two rule sets."""
    for day in ("2026-01-05", "2026-01-05", "2026-01-05", "2026-03-14", "2026-07-04"):
        make_game("partnership", BIG, day=day, end=True)
        make_game(
            "partnership",
            SMALL,
            [("", ["Grandma Jo", "Grandpa Walt"]), ("", ["Ann", "Cy"])],
            day=day,
            end=True,
        )
    three = [[TeamRound(melded_points=200), TeamRound(melded_points=150), TeamRound(melded_points=50)]]
    make_game("roth", three, [("", ["Ann"]), ("", ["Bo"]), ("", ["Cy"])], day="2026-11-20", end=True)


def test_the_records_page_on_a_phone_and_in_print(page, live_server, make_game, screenshot):
    a_family_year(make_game)
    page.goto(live_server + "/")
    with page.expect_navigation():
        page.get_by_role("link", name="Records and years").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Records")
    expect(page.get_by_role("heading", name=re.compile("^Partnership"))).to_be_visible()
    # a rule set whose rounds made no book holds no "most books" record
    roth = page.locator("section", has=page.get_by_role("heading", name=re.compile("^Roth")))
    expect(roth.get_by_role("link", name=re.compile("^Most books"))).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile(r"^Most games in one evening: 6 games"))).to_be_visible()
    fits_the_phone(page)
    assert numbers_whole(page.locator("main"))
    screenshot(page, "records")
    page.emulate_media(media="print")
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.get_by_role("heading", name="Year by year")).to_be_hidden()  # links: nothing to tap on paper
    fits_the_phone(page)
    numbers_whole(page.locator("main"))
    screenshot(page, "records-print")
    page.emulate_media(media="screen")
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile(r"^Highest game total")).first.click()
    expect(page.get_by_role("heading", name=re.compile("win"))).to_be_visible()  # the game's result


def test_a_year_page_on_a_phone_and_in_print(page, live_server, make_game, screenshot):
    a_family_year(make_game)
    page.goto(live_server + "/records")
    with page.expect_navigation():
        page.get_by_role("link", name="2026 at the table").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("2026 at the table")
    chart = page.get_by_role("img", name="Games per month, 2026")
    expect(chart).to_be_visible()
    expect(chart).to_have_accessible_description(re.compile(r"11 in all, the most in Jan \(6\)"))
    assert chart.bounding_box()["width"] <= 360
    expect(page.locator(".stat-grid")).to_contain_text("Game nights4")
    # the year's book (issue 58): a link (no script needed), a tap target on the phone
    booklet = page.get_by_role("link", name="Print the yearbook (PDF)")
    expect(booklet).to_be_visible()
    box = booklet.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    fits_the_phone(page)
    assert numbers_whole(page.locator("main"))
    screenshot(page, "year-2026")
    page.emulate_media(media="print")
    fits_the_phone(page)
    numbers_whole(page.locator("main"))
    screenshot(page, "year-2026-print")
    page.emulate_media(media="screen")
    # tapped: the page saying it is being drawn, which asks again by itself; the asks after
    # the first are answered "No Content" here, so that the page stays to be looked at
    asked = []

    def first_only(route):
        asked.append(route.request.url)
        if len(asked) == 1:
            route.continue_()
        else:
            route.fulfill(status=204)

    page.route(re.compile(r"/years/2026/book\.pdf"), first_only)
    with page.expect_navigation():
        booklet.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The 2026 yearbook")
    expect(page.get_by_role("status")).to_contain_text(re.compile(r"Drawing the yearbook: step [123] of 3"))
    fits_the_phone(page)
    assert numbers_whole(page.locator("main"))
    screenshot(page, "year-2026-book")
    # it asks again by itself, with or without JavaScript
    expect(page.locator('meta[http-equiv="refresh"]')).to_have_attribute("content", "2")
    assert yearbook.wait(60)  # the book drawn before the server stops
