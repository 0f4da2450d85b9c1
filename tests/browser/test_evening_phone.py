"""A holiday evening in real browsers at 360 px: twelve people, three tables, the
proposal accepted, a round played at every table from its own phone at once, and the
evening page (HTML and JSON) saying what the three games say."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.httpkit import FlaskPhone, game_json

from .looks import fits_the_phone, readable

pytestmark = pytest.mark.timeout(120)

TWELVE = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]


def test_twelve_people_three_tables_three_phones_at_once(app, new_page, live_server, screenshot):
    host = new_page()
    host.goto(live_server + "/")
    host.get_by_role("link", name=re.compile("Start an evening")).click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Start an evening")
    host.get_by_text("New names 9–24").click()  # the fold of the names past eight
    for n, name in enumerate(TWELVE, start=1):
        host.get_by_label(f"New name {n}", exact=True).fill(name)
    host.get_by_role("button", name="Propose tables").click()
    expect(host.get_by_role("heading", name="Proposed tables")).to_be_visible()
    tables = host.locator("li.table-proposal")
    expect(tables).to_have_count(3)
    for t in range(3):
        expect(tables.nth(t).locator(".chance")).to_have_count(2)  # each team's chance, shown
    fits_the_phone(host)
    readable(host.locator("main"))
    screenshot(host, "evening-proposal")
    with host.expect_navigation():
        host.get_by_role("button", name="Start every table").click()
    expect(host.get_by_role("heading", level=1)).to_contain_text("The evening of")
    fits_the_phone(host)
    night = host.url.rstrip("/").rsplit("/", 1)[-1]
    links = host.get_by_role("link", name=re.compile(r"^Table \d$"))
    expect(links).to_have_count(3)
    games = [int(links.nth(t).get_attribute("href").rsplit("/", 1)[-1]) for t in range(3)]

    # each table's scorekeeper on their own phone: type a round, check it, then all save at once
    phones = []
    for t, game in enumerate(games):
        phone = new_page()
        phone.goto(f"{live_server}/games/{game}/rounds/new")
        first = phone.get_by_role("group", name=re.compile(r"&")).first
        first.get_by_label("Points melded", exact=True).fill(str(150 + 50 * t))
        phone.get_by_role("button", name=re.compile(r"^Check round 1")).click()
        expect(phone.get_by_role("region", name="Check before saving")).to_be_visible()
        phones.append(phone)
    for phone in phones:  # three taps on Save, none waiting for another's answer
        phone.get_by_role("button", name=re.compile(r"^Save")).first.click(no_wait_after=True)
    for phone, game in zip(phones, games):
        expect(phone).to_have_url(re.compile(rf"/games/{game}$"))
        expect(phone.get_by_role("status").first).to_contain_text("Round 1 saved")

    # the evening page and its JSON: what the three games say
    client = FlaskPhone(app)
    host.goto(f"{live_server}/evenings/{night}")
    evening = json.loads(client.get(f"/evenings/{night}.json").body)
    for t, game in enumerate(games):
        played = game_json(client, game)
        table = evening["sittings"][0][t]
        assert table["game_id"] == game and table["round"] == 1
        assert [team["total"] for team in table["teams"]] == played["totals"]
        card = host.locator("ol.evening-tables > li").nth(t)
        for team, total in zip(played["teams"], played["totals"]):
            expect(card.get_by_role("row", name=re.compile(re.escape(team["name"])))).to_contain_text(
                f"{total:,}"
            )
    standings = host.get_by_role("table").filter(has_text="Won")
    expect(standings.get_by_role("row")).to_have_count(13)  # the heading and twelve players
    fits_the_phone(host)
    readable(host.locator("main"))
    screenshot(host, "evening-page")
