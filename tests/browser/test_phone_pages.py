"""The pages on a 360 px phone, in a real browser, used the way a person does."""

import json

import pytest
from playwright.sync_api import expect

from scorekeeper.scoring import RULESETS

TAP = 44  # px: the smallest comfortable tap target (WCAG 2.5.5, Apple HIG)

PAGES = (
    {"home": "/", "rules": "/rules"}
    | {f"rules-{key}": f"/rules/{key}" for key in RULESETS}
    | {"rules-new": "/rules/new?from=roth", "rules-import": "/rules/import"}
    # every value by who went out is shown, unfolded
    | {"rules-new-canasta": "/rules/new?from=canasta", "new-game": "/games/new?rules=friends-family-2p"}
    # before any game: what they say when there is nothing yet
    | {"records-empty": "/records", "year-empty": "/years/2026"}
    | {"import": "/import", "import-past-games": "/import/past-games"}
)

# Every visible control, with its size and whether it sits inline in running text.
CONTROLS_JS = """() => [...document.querySelectorAll("a, button, input, select")]
  .filter((el) => el.checkVisibility())
  .map((el) => {
    const box = el.getBoundingClientRect();
    return {
      control: `<${el.localName}> ${el.innerText.trim().replace(/\\s+/g, " ").slice(0, 40)}`,
      width: Math.round(box.width * 10) / 10,
      height: Math.round(box.height * 10) / 10,
      inText: getComputedStyle(el).display === "inline" && el.parentElement.localName === "p",
    };
  })"""


@pytest.mark.parametrize("name, path", PAGES.items(), ids=PAGES)
def test_page_fits_a_phone_and_every_control_is_tappable(page, live_server, screenshot, name, path):
    response = page.goto(live_server + path)
    assert response.status == 200
    screenshot(page, f"phone-{name}")

    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll_width <= inner_width, f"{path} scrolls sideways: {scroll_width} px wide"

    controls = page.evaluate(CONTROLS_JS)
    assert controls, f"{path} has no links or buttons at all"
    # Inline links in running text (none today) could take the line's height;
    # every control on these pages is a block, a button or a nav item: 44 x 44.
    small = [c for c in controls if c["height"] < TAP or (c["width"] < TAP and not c["inText"])]
    assert not small, f"tap targets under {TAP} px on {path}: {small}"


def test_finding_the_roth_rules_from_the_start(page, live_server):
    page.goto(live_server + "/")
    page.get_by_role("link", name="Rule sets and cheat sheets").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Rule sets")

    page.get_by_role("link", name="Roth family house rules (to 10,000)").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Roth family house rules (to 10,000)")

    meld = page.get_by_role("region", name="Meld minimum")
    row = meld.get_by_role("row").filter(has=page.get_by_role("cell", name="7,500 or more", exact=True))
    expect(row.get_by_role("cell")).to_have_text(["7,500 or more", "150"])

    cards = page.get_by_role("region", name="Card values")
    row = cards.get_by_role("row").filter(has=page.get_by_role("rowheader", name="10–K", exact=True))
    expect(row.get_by_role("cell")).to_have_text(["10 each"])


@pytest.mark.parametrize("key", RULESETS)
def test_cheat_sheet_downloads_its_rules_as_json(page, live_server, key):
    page.goto(f"{live_server}/rules/{key}")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download as a house-rules file").click()
    download = info.value

    assert download.suggested_filename == f"{key}.json"
    with open(download.path(), encoding="utf-8") as file:
        rules = json.load(file)
    assert rules["name"] == RULESETS[key].name
    expect(page.get_by_role("heading", level=1)).to_have_text(rules["name"])


def test_dark_mode_changes_the_background(new_page, live_server, screenshot):
    backgrounds = {}
    for scheme in ("light", "dark"):
        page = new_page(color_scheme=scheme)
        page.goto(live_server + "/rules/roth")
        screenshot(page, f"phone-rules-roth-{scheme}")
        backgrounds[scheme] = page.evaluate("getComputedStyle(document.body).backgroundColor")

    assert backgrounds["dark"] != backgrounds["light"], backgrounds
