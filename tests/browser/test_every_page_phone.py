"""Every kind of page, with a family's history behind it, read as a person reads it
on a phone (issue 30), in each of its languages (issue 47: a phone set to Portuguese,
Spanish or Italian reads longer words; in `make test` each of their pages in one of them,
at 320 px: ``sampled``): at 320, 360 and 412 px, with and without JavaScript, every word
whole on one line, nothing cut off or off the screen, no text under 12 px, and every
chart's labels at 10 px or more and apart (looks.readable), with no table that needs
scrolling sideways (issue 54); every date and time field's value whole, none of it under
its calendar or clock (issue 54: looks.fields_whole). The year page, with 300
games in the year, is at most six screens tall at 360 px with its months folded.

The history (tests/family.py) is built once per test process and copied for each test.
"""

import shutil

import pytest
from playwright.sync_api import expect

from .. import family
from ..family import YEAR
from ..helpers import DEEP
from .conftest import LiveServer
from .looks import fields_whole, fits_the_phone, readable

WIDTHS = (320, 360, 412)
PHONE_HEIGHT = 740


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


GROUPS = family.page_groups()


# English with and without JavaScript; the other languages (longer words than English's)
# with it, one after another on the same server (a server for each would cost 4 s more
# a group): the layout is the same without JavaScript, and those runs cost as much again
SPOKEN = [(("en",), True), (("en",), False), (("pt-BR", "es", "it"), True)]
OTHER = SPOKEN[-1][0]


def sampled(paths, language, group):
    """The paths read in ``language`` at the narrowest width alone (`make test`): each of
    the group's pages in one of the three languages, taken in turn (a different one first
    in each group), so that every page is read in a language of longer words and each
    language reads a third of them. The pseudo-language test (test_languages.py) already
    proves every string is translated; the full sweep, every page in every language at
    every width, is `make test-deep`'s."""
    start = (OTHER.index(language) + list(GROUPS).index(group)) % len(OTHER)
    return paths[start :: len(OTHER)]


@pytest.mark.deep  # `make test-deep` reads every page in every language at every width
@pytest.mark.parametrize(
    ("languages", "javascript"),
    SPOKEN,
    ids=[f"{'-'.join(codes)}-{'js' if js else 'no-js'}" for codes, js in SPOKEN],
)
@pytest.mark.parametrize("group", GROUPS)
@pytest.mark.timeout(180)  # three languages' pages in one test: up to a minute with every core busy
def test_every_word_whole_and_readable_at_every_width(
    history_server, new_page, screenshot, group, languages, javascript
):
    base, playing, players, nights = history_server
    for language in languages:
        # a phone set to the language: its Accept-Language asks for it
        page = new_page(
            viewport={"width": WIDTHS[0], "height": PHONE_HEIGHT},
            java_script_enabled=javascript,
            locale=language,
        )
        paths = GROUPS[group](playing, players, nights)
        widths = WIDTHS
        if language != "en" and not DEEP:
            paths, widths = sampled(paths, language, group), WIDTHS[:1]
        for path in paths:
            read_at_every_width(page, base, path, language, javascript, screenshot, widths)


def read_at_every_width(page, base, path, language, javascript, screenshot, widths=WIDTHS):
    response = page.goto(base + path)
    assert response.status == 200, path
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    if javascript:  # as it opens, at 360 px (saved by `make pictures`)
        page.set_viewport_size({"width": 360, "height": PHONE_HEIGHT})
        screenshot(page, f"page-{language}-{path.strip('/').replace('/', '-') or 'home'}-360")
    # every fold open: what a fold hides is laid out as it will be when opened, and
    # opening one moves nothing sideways
    page.locator("details").evaluate_all("(folds) => folds.forEach((d) => { d.open = true })")
    for width in widths:
        page.set_viewport_size({"width": width, "height": PHONE_HEIGHT})
        assert readable(page.locator("body")) > 10, f"{path} ({language}): hardly a word"
        fits_the_phone(page)
        fields_whole(page)


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
