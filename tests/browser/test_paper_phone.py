"""A game played on paper, typed in on a 360 x 740 phone as the sheet reads (issue 41):
the day it was played, every box down each team's column with Enter, a paper sum the
engine disagrees with pointed at (a round score, and a running total, issue 55), one
save; the game on its own night and year.

Every number compared here is the engine's, run on the same entries.
"""

from playwright.sync_api import expect

from scorekeeper.scoring import RULESETS, standings

from ..helpers import paper_rounds
from .looks import fits_the_phone, numbers_whole, readable
from .test_tables_phone import tappable

RULES = RULESETS["friends-family"]
PLAYED = ("2025-12-31", "21:00")  # New Year's Eve, typed in the next November
# The printed sheet of a four-round game, as the family wrote it, team by team in the
# sheet's order: clean books, dirty books, melded, left, red 3s, black 3s, went out,
# then the round score and the running total they added up (None: not written). Round 3's
# 4,635 is a slip of the pencil: these rules make it 4,685, and the total 6,820 + 4,685 =
# 11,505, not the 11,455 the slip carried into it.
SHEET = [
    ((4, 5, 1210, 0, 0, 0, 1, 4810, 4810), (2, 3, 690, 85, 1, 0, 0, 2005, 2005)),
    ((2, 2, 560, 140, 0, 2, 0, None, None), (4, 5, 1150, 0, 0, 0, 1, None, None)),
    ((4, 5, 1085, 0, 1, 0, 1, 4635, 11455), (3, 2, 720, 60, 0, 0, 0, 2760, 9515)),
    ((1, 3, 455, 255, 0, 0, 0, None, None), (4, 5, 1240, 0, 0, 0, 1, None, None)),
]
NAMES = ["Ann & Bo", "Cy & Di"]


def start_paper_game(page, base):
    """New game: the rule set, the players, "on a paper sheet", played on New Year's Eve."""
    page.goto(base + "/games/new")
    page.locator(".pick-rules > summary").click()
    choice = page.get_by_role("radio", name=RULES.name, exact=True)
    if not choice.is_checked():
        with page.expect_navigation():
            choice.click()
    for number_, players in enumerate((["Ann", "Bo"], ["Cy", "Di"]), start=1):
        group = page.get_by_role("group", name=f"Team {number_}", exact=True)
        for seat, player in enumerate(players, start=1):
            group.get_by_label(f"Player {seat}", exact=True).fill(player)
    page.get_by_role("radio", name="On a paper sheet: print it, type it in afterwards").check()
    page.get_by_text("Played earlier?").click()
    page.get_by_label("Day played").fill(PLAYED[0])
    page.get_by_label("Time").fill(PLAYED[1])
    fits_the_phone(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Type in the sheet")


def test_a_paper_game_typed_in_as_the_sheet_reads(page, live_server, screenshot, db):
    start_paper_game(page, live_server)
    expect(page.locator("p.muted")).to_have_text(f"{RULES.name} · played {PLAYED[0]}")
    boxes = page.locator("input[data-line]")
    expect(boxes).to_have_count(4 * 2 * 9)  # four rounds, two teams, the sheet's nine lines
    fits_the_phone(page)
    readable(page.locator("body"))
    tappable(page)
    screenshot(page, "paper-sheet-empty")

    # the eye goes down the sheet, the thumb down the page: digits, then Enter, box by box
    taps = 1  # the first box
    boxes.first.click()
    digits = 0
    for round_ in SHEET:
        for team in round_:
            for value in team:
                if value:
                    page.keyboard.type(str(value))
                    digits += len(str(value))
                focused = page.evaluate("document.activeElement.id")
                if focused == boxes.last.get_attribute("id"):
                    with page.expect_navigation():  # Enter on the last box checks the sheet
                        page.keyboard.press("Enter")
                else:
                    page.keyboard.press("Enter")
                taps += 1
    # the check: every round the engine's, the wrong paper sum pointed at
    review = page.get_by_role("region", name="Check before saving")
    expect(review).to_be_visible()
    s = standings(RULES, paper_rounds(SHEET), teams=2)
    for name, total in zip(NAMES, s.totals):
        row = review.get_by_role("row").filter(has=page.get_by_role("rowheader", name=name, exact=True))
        expect(row.get_by_role("cell")).to_have_text([f"{total:,}"])
    expect(review.get_by_role("alert")).to_contain_text(
        "Round 3: Ann & Bo: the sheet says 4,635; these rules make it 4,685, which is what is saved."
    )
    expect(review.get_by_role("alert")).to_contain_text(
        "Round 3: Ann & Bo: the sheet says a total of 11,455; 6,820 + 4,685 make 11,505."
    )
    # ... and beside its box, which keeps what was typed
    total = page.locator("#rounds-2-teams-0-sheet_total")
    expect(total).to_have_value("11455")
    expect(total).to_have_accessible_description(
        "Ann & Bo: the sheet says a total of 11,455; 6,820 + 4,685 make 11,505."
    )
    engine = page.locator(".engine strong")
    expect(engine).to_have_text([f"+{score.total:,}" for scores in s.round_scores for score in scores])
    expect(page.locator(".engine.differs")).to_have_count(1)
    # the review opens at the top: its totals and its Save on the phone's first screen
    expect(review.get_by_role("table")).to_be_in_viewport(ratio=1)
    expect(review.get_by_role("button", name="Save anyway")).to_be_in_viewport(ratio=1)
    fits_the_phone(page)
    numbers_whole(page.locator("main"))
    screenshot(page, "paper-sheet-checked")
    with page.expect_navigation():
        review.get_by_role("button", name="Save anyway").click()
    taps += 1
    expect(page.get_by_role("status").first).to_have_text("Rounds 1–4 saved from the paper sheet.")
    expect(page.get_by_role("heading", level=2, name="Cy & Di win with 14,355!")).to_be_visible()
    # the taps beyond the digits (the README says so): the first box, an Enter a box, Save
    assert taps == 1 + 72 + 1 and digits == sum(len(str(v)) for r in SHEET for t in r for v in t if v)

    # on its own night and year, not today's
    page.goto(f"{live_server}/evenings/{PLAYED[0]}")
    expect(page.get_by_role("main")).to_contain_text("Ann & Bo vs Cy & Di")
    page.goto(f"{live_server}/years/2025")
    expect(page.get_by_role("main")).to_contain_text("1 game")
    page.goto(f"{live_server}/years/2026")
    expect(page.get_by_role("main")).not_to_contain_text("Ann & Bo")
    (night,) = db.execute("SELECT night FROM nights").fetchone()
    assert night == PLAYED[0]


def test_a_scores_only_sheet_and_a_wrong_box_on_a_phone(page, live_server, screenshot):
    """An old sheet of scores alone: one box a team a round, a negative score with the ±
    key, a box left empty said beside it with what was typed kept."""
    page.goto(live_server + "/games/new")
    for number_, players in enumerate((["Ann"], ["Bo"]), start=1):
        page.get_by_role("group", name=f"Team {number_}", exact=True).get_by_label(
            "Player 1", exact=True
        ).fill(players[0])
    page.get_by_role("radio", name="From an old sheet that kept only each round’s score").check()
    page.get_by_text("Played earlier?").click()
    page.get_by_label("Day played").fill("2019-07-04")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()
    boxes = page.locator("input[data-line]")
    expect(boxes.first).to_be_visible()
    boxes.nth(0).fill("1235")
    boxes.nth(1).fill("150")
    page.get_by_role("button", name="Plus or minus: Round score").nth(1).click()  # Bo: −150
    expect(boxes.nth(1)).to_have_value("\u2212150")
    boxes.nth(2).fill("890")  # round 2: Bo's box left empty
    with page.expect_navigation():
        page.get_by_role("button", name="Check the sheet").click()
    expect(page.locator("#rounds-1-teams-1-score-error")).to_have_text(
        "Type the round's score (0 if it scored nothing)."
    )
    expect(boxes.nth(2)).to_have_value("890")
    screenshot(page, "paper-scores-refused", errors=True)
    boxes.nth(3).fill("0")
    with page.expect_navigation():
        page.get_by_role("button", name="Check the sheet").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Save the game").click()
    expect(page.get_by_text("played 2019-07-04 · from paper, scores only")).to_be_visible()
    fits_the_phone(page)
