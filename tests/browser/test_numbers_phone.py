"""No number is ever broken on a phone: at 320, 360 and 412 px, with and without
JavaScript, every total, score and minimum the app shows stays whole on one line,
in its own box, on every page that shows one, the winner's card included.

The numbers are as long as the app promises to show whole: seven digits, with a
sign and thousands separators (+9,099,995 and −7,100,000), as house rules with
values in the millions make them.
"""

import dataclasses

import pytest
from playwright.sync_api import expect

from scorekeeper.scoring import RULESETS, TeamRound, standings
from scorekeeper.services import game_model, games, rulesets

from .looks import fits_the_phone, numbers_whole

# Roth's rules with values in the millions: books, going out, red 3s and penalties,
# meld minimums; the game ends by hand.
BIG = dataclasses.replace(
    RULESETS["roth"],
    name="Millions",
    books={"clean": 1_000_000, "dirty": 1_000_000},
    going_out=1_000_000,
    red_three=-1_000_000,
    penalty=-1_000_000,
    meld_minimum={"by_score": ((0, 1_000_000), (1_000_000, 999_999))},
    end=None,
)
TEAMS = [
    ("The Longest-Named Family Team", ["Ann", "Bo"]),
    ("", ["Cy", "Di"]),
    ("", ["Eve", "Fay"]),
    ("", ["Gus", "Hal"]),
    ("", ["Ivy", "Jo"]),
    ("", ["Kit", "Lou"]),
]
HUGE = TeamRound(books={"clean": 9}, melded_points=99_995)  # +9,099,995
DEEP = TeamRound(red_threes=4, penalties=3, unplayed_points=100_000)  # −7,100,000
SMALL = TeamRound(books={"dirty": 1}, melded_points=455)  # +1,000,455
FIVE = TeamRound(melded_points=5)


def big_games(db, teams):
    """A game in progress and a finished one, with totals and rounds in the millions."""
    key = rulesets.save_house_rules(db, dataclasses.replace(BIG, name=f"Millions ({teams} teams)"))
    rounds = [
        [HUGE, DEEP, *[SMALL] * (teams - 2)],
        [FIVE, TeamRound(), *[DEEP] * (teams - 2)],
    ]
    made = []
    for end in (False, True):
        game = games.create_game(db, BIG, key, TEAMS[:teams])
        for number, entries in enumerate(rounds, start=1):
            game = games.add_round(db, game.id, game.revision, number, entries)
        if end:
            game = games.end_game(db, game.id, game.revision)
        made.append(game)
    s = standings(BIG, rounds, teams=teams)
    shown = [s.totals, *[[r.total for r in row] for row in s.round_scores]]
    assert max(map(max, shown)) == 9_100_000 and min(map(min, shown)) == -7_100_000
    return key, made


# Each page is laid out at every width in turn, as a phone turned or a narrower phone
# would show it: loaded once, then the viewport set to each width (static/app.js reads no
# width, so the page at a width is the page loaded at it; a load costs Chromium far more
# than a layout).
WIDTHS = (320, 360, 412)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("teams", [2, 3, 6])
def test_every_number_is_whole_on_one_line(db, new_page, live_server, javascript, teams, screenshot):
    key, (playing, done) = big_games(db, teams)
    share = game_model.load_game(db, playing.id).share_token
    page = new_page(viewport={"width": WIDTHS[0], "height": 740}, java_script_enabled=javascript)
    pages = {
        "home": "/",
        "history": "/history",
        "game": f"/games/{playing.id}",
        "game-over": f"/games/{done.id}",
        "round": f"/games/{playing.id}/rounds/new",
        "fix": f"/games/{playing.id}/rounds/1/edit",
        "delete-round": f"/games/{playing.id}/rounds/2/delete",
        "end": f"/games/{playing.id}/end",
        "follow": f"/s/{share}",
        "players": "/players",
        "player": "/players/1",
        "rules": f"/rules/{key}",
        "records": "/records",
        "year": f"/years/{done.created_at[:4]}",
    }
    for name, path in pages.items():
        page.goto(live_server + path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        # every round's breakdown and every fold open: their numbers too
        page.locator("details").evaluate_all("(folds) => folds.forEach((d) => { d.open = true })")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 740})
            seen = numbers_whole(page.locator("main"))
            assert seen, f"{name} at {width} px: no number at all"
            fits_the_phone(page)
            if width == 320 and javascript:
                screenshot(page, f"numbers-{teams}-teams-{name}-{width}")
    # the review of a round with those numbers
    page.goto(f"{live_server}/games/{playing.id}/rounds/1/edit")
    with page.expect_navigation():
        page.get_by_role("button", name="Check round 1").click()
    review = page.get_by_role("region", name="Check before saving")
    expect(review).to_be_visible()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        assert "+9,099,995" in numbers_whole(review), f"the review at {width} px"
        fits_the_phone(page)
        if width == 320 and javascript:
            screenshot(page, f"numbers-{teams}-teams-review-{width}")
