"""The extremes of a table on a 360 px phone: six teams, and two players alone.

Every number on screen is compared with the engine run here on the same
entries; each page must fit 360 px with no sideways scroll and 44 px taps.
"""

import re

from playwright.sync_api import expect

from scorekeeper.scoring import RULESETS, TeamRound, check_round

from .looks import fits_the_phone
from .test_games_phone import (
    check_and_save,
    choose_books,
    expect_game_screen,
    open_more,
    start_game,
    team_names,
)
from .test_phone_pages import TAP

# Every visible control and its tap target: a radio button or a tick box is
# tapped anywhere on the label that wraps it.
TARGETS_JS = """() => [...document.querySelectorAll("a, button, input, select")]
  .filter((el) => el.checkVisibility())
  .map((el) => {
    const target = /^(radio|checkbox)$/.test(el.type) && el.closest("label") || el;
    const box = target.getBoundingClientRect();
    return {
      control: `<${el.localName}> ${(el.name || el.innerText).trim().replace(/\\s+/g, " ").slice(0, 40)}`,
      width: Math.round(box.width * 10) / 10,
      height: Math.round(box.height * 10) / 10,
      inText: getComputedStyle(el).display === "inline" && el.parentElement.localName === "p",
    };
  })"""

SIX = [
    (None, ["Ann", "Bo"]),
    (None, ["Cy", "Di"]),
    (None, ["Eve", "Fay"]),
    (None, ["Gus", "Hal"]),
    (None, ["Ivy", "Jo"]),
    ("The Long-Named Cousins", ["Kit", "Lou"]),
]
TWO = [(None, ["Ann"]), (None, ["Cy"])]


def tappable(page):
    """Every visible control at least 44 px (links inside running text aside)."""
    small = [
        c for c in page.evaluate(TARGETS_JS) if c["height"] < TAP or (c["width"] < TAP and not c["inText"])
    ]
    assert not small, f"tap targets under {TAP} px on {page.url}: {small}"


def fill(group, entry, rules):
    for kind in rules.books:
        choose_books(group, rules.book_label(kind), entry.books.get(kind, 0))
    group.get_by_label("Points melded", exact=True).fill(str(entry.melded_points))
    group.get_by_label(f"Points left in {rules.say.piles_and}", exact=True).fill(str(entry.unplayed_points))
    for label, value in (
        ("Red 3s caught", entry.red_threes),
        ("Black 3s caught", entry.black_threes),
        ("Red 3s laid down", entry.red_threes_melded),
        ("Black 3s melded going out", entry.black_threes_out),
    ):
        if value:
            open_more(group)
            group.get_by_label(label, exact=True).fill(str(value))


def play_round(page, rules, names, played, entries, number, players, *, out=None, shot=None, screenshot=None):
    page.get_by_role("link", name=f"Enter round {number}").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Round {number}")
    page.get_by_role("radio", name=out or "Nobody went out", exact=True).check()
    for name, entry in zip(names, entries):
        fill(page.get_by_role("group", name=name, exact=True), entry, rules)
    fits_the_phone(page)
    tappable(page)
    if shot:
        screenshot(page, f"{shot}-round")
    check_and_save(
        page,
        rules,
        names,
        played,
        entries,
        number,
        players=players,
        screenshot=screenshot,
        shot=f"{shot}-review",
    )
    played.append(list(entries))
    expect(page.get_by_role("status")).to_have_text(f"Round {number} saved.")


def visit_every_page(page, live_server, names, screenshot, shot):
    """The game ended by hand (so that it counts in the statistics), its rounds table
    opened, history, players and a player's page: all fit the phone."""
    page.get_by_role("link", name="End the game").click()
    page.get_by_role("button", name="End the game").click()
    expect(page.get_by_role("status")).to_have_text("Game over.")
    page.locator("#round-1 > summary").click()
    fits_the_phone(page)
    tappable(page)
    screenshot(page, f"{shot}-game")
    for link, heading in (("History of every game", "History"), ("Players", "Players")):
        page.goto(live_server + "/")
        page.get_by_role("link", name=link).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        fits_the_phone(page)
        tappable(page)
        screenshot(page, f"{shot}-{heading.lower()}")
    first = names[0].split(" & ")[0]
    page.get_by_role("link", name=re.compile(rf"^(\d+\. )?{first} ")).first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(first)
    fits_the_phone(page)
    tappable(page)
    screenshot(page, f"{shot}-player")


def test_six_teams_on_a_phone(page, live_server, screenshot):
    rules, names = RULESETS["tablet"], team_names(SIX)
    start_game(page, live_server, "tablet", SIX, screenshot=screenshot, shot="six-teams-new")
    played = []
    rounds = [
        # tablet: 5 decks for twelve players, 2,900 points of cards in all
        [
            TeamRound(books={"clean": 2, "dirty": 2}, melded_points=620, went_out=True),
            TeamRound(books={"clean": 1}, melded_points=240, unplayed_points=35),
            TeamRound(melded_points=90, unplayed_points=110, red_threes=1),
            TeamRound(books={"dirty": 1}, melded_points=180, unplayed_points=60, black_threes=2),
            TeamRound(melded_points=60, unplayed_points=145),
            TeamRound(books={"clean": 1, "dirty": 1}, melded_points=410, unplayed_points=20),
        ],
        [
            TeamRound(melded_points=75, unplayed_points=90),
            TeamRound(books={"clean": 2, "dirty": 2}, melded_points=700, went_out=True),
            TeamRound(books={"clean": 1}, melded_points=260, unplayed_points=40),
            TeamRound(melded_points=110, unplayed_points=85, red_threes=1),
            TeamRound(books={"dirty": 2}, melded_points=330, unplayed_points=15),
            TeamRound(melded_points=0, unplayed_points=230, black_threes=1),
        ],
    ]
    for number, entries in enumerate(rounds, start=1):
        out = next(f"{names[i]} went out" for i, e in enumerate(entries) if e.went_out)
        play_round(
            page,
            rules,
            names,
            played,
            entries,
            number,
            12,
            out=out,
            shot="six-teams" if number == 1 else None,
            screenshot=screenshot,
        )
        expect_game_screen(page, rules, names, played)
    assert not any(check_round(rules, r, n, players=12) for n, r in enumerate(played, 1))
    visit_every_page(page, live_server, names, screenshot, "six-teams")


def test_two_players_alone_at_canasta(page, live_server, screenshot):
    rules, names = RULESETS["canasta"], team_names(TWO)
    start_game(page, live_server, "canasta", TWO, screenshot=screenshot, shot="two-alone-new")
    played = []
    # Ann goes out concealed with three red 3s; Cy melded nothing, so his red 3 counts against him
    first = [
        TeamRound(
            books={"clean": 1}, melded_points=215, red_threes_melded=3, went_out=True, went_out_concealed=True
        ),
        TeamRound(unplayed_points=85, red_threes_melded=1, black_threes=1),
    ]
    # Cy goes out with all four red 3s and melds three black 3s as he goes
    second = [
        TeamRound(books={"dirty": 1}, melded_points=180, unplayed_points=25),
        TeamRound(
            books={"clean": 1, "dirty": 1},
            melded_points=420,
            red_threes_melded=4,
            black_threes_out=3,
            went_out=True,
        ),
    ]
    assert not check_round(rules, first, 1, players=2) and not check_round(rules, second, 2, players=2)
    page.get_by_role("link", name="Enter round 1").click()
    expect(page.get_by_text(re.compile(r"going out takes 1 canasta of any kind"))).to_be_visible()
    page.get_by_role("radio", name="Ann went out concealed").check()
    for name, entry in zip(names, first):
        fill(page.get_by_role("group", name=name, exact=True), entry, rules)
    fits_the_phone(page)
    tappable(page)
    screenshot(page, "two-alone-round")
    check_and_save(
        page, rules, names, played, first, 1, players=2, screenshot=screenshot, shot="two-alone-review"
    )
    played.append(first)
    s = expect_game_screen(page, rules, names, played)
    # Ann: 500 + 215 + 3×100 red 3s + 100 out + 100 concealed = 1215
    # Cy: −85 − 100 (a red 3, and no meld) − 5 (a black 3 in hand) = −190
    assert s.totals == [1215, -190]
    # the meld minimum follows each one's score: 1,215 → 50; a negative score → 15
    assert s.next_meld_minimums == [50, 15]
    play_round(page, rules, names, played, second, 2, 2, out="Cy went out", screenshot=screenshot)
    s = expect_game_screen(page, rules, names, played)
    # Ann: 300 + 180 − 25 = 455 → 1670
    # Cy: 500 + 300 + 420 + 3 black 3s×5 + 4 red 3s×100 + 400 for all four + 100 out = 2135 → 1945
    assert s.totals == [1670, 1945]
    visit_every_page(page, live_server, names, screenshot, "two-alone")
