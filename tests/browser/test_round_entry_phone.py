"""A round on a 360 x 740 phone (issue 12): few taps, the review in view, numbers on one
line, Back after a save, drafts kept on the phone, one-tap undo, the ± key.

Every number compared here comes from the engine run on the same entries.
"""

import random
import re

import pytest
from playwright.sync_api import expect

from scorekeeper.scoring import RULESETS, TeamRound, standings
from scorekeeper.services import game_model, games

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, WAIT_MS
from .looks import fits_the_phone, numbers_whole
from .test_games_phone import (
    choose_books,
    expect_books,
    expect_game_screen,
    number,
    open_more,
    signed,
    step_up,
)

PAIRS = (("", ["Ann", "Bo"]), ("", ["Cy", "Di"]))
NAMES = ["Ann & Bo", "Cy & Di"]
# friends-family: Ann & Bo go out with 4 clean and 5 dirty books, Cy & Di hold 140 points
ROUND = [
    TeamRound(books={"clean": 4, "dirty": 5}, melded_points=1240, went_out=True),
    TeamRound(books={"clean": 2, "dirty": 1}, melded_points=610, unplayed_points=140),
]


def team(page, name):
    return page.get_by_role("group", name=name, exact=True)


def type_round(page, entries=ROUND, names=NAMES, rules=RULESETS["friends-family"]):
    """Enter a round the way the scorekeeper does: who went out, chips, digits."""
    out = next((n for n, e in zip(names, entries) if e.went_out), None)
    page.get_by_role("radio", name=f"{out} went out" if out else "Nobody went out").check()
    for name, entry in zip(names, entries):
        group = team(page, name)
        for kind in rules.books:
            if entry.books.get(kind):
                choose_books(group, rules.book_label(kind), entry.books[kind])
        for label, value in (
            ("Points melded", entry.melded_points),
            ("Points left in hand and foot", entry.unplayed_points),
        ):
            if value:
                group.get_by_label(label, exact=True).fill(str(value))


def check(page, number_=1):
    """Tap "Check round N" and wait for the page the app answers with (with JavaScript the
    form leaves once the app has answered a small request: the navigation comes later)."""
    with page.expect_navigation():
        page.get_by_role("button", name=f"Check round {number_}").click()


def expect_review_in_view(page, number_, entries, played=(), rules=RULESETS["friends-family"]):
    """The review opens at its top: its summary (each team's round and total after it,
    the engine's) and the Save button are on screen without scrolling."""
    review = page.get_by_role("region", name="Check before saving")
    expect(review).to_be_visible()
    s = standings(rules, [*played, list(entries)], teams=len(entries))
    summary = review.get_by_role("table").first
    for name, score, total in zip(NAMES, s.round_scores[-1], s.totals):
        row = summary.get_by_role("row").filter(has=page.get_by_role("rowheader", name=name, exact=True))
        expect(row.get_by_role("cell")).to_have_text([signed(score.total), number(total)])
    save = review.get_by_role("button", name=re.compile(f"^Save (round {number_}|anyway)$"))
    # wholly on the phone's screen as the page opened: nothing scrolled it away
    expect(summary).to_be_in_viewport(ratio=1)
    expect(save).to_be_in_viewport(ratio=1)


# --- fewer taps -----------------------------------------------------------------------------


def test_a_chip_moves_on_and_typing_450_gives_450(make_game, new_page, live_server, screenshot):
    page = new_page(has_touch=True)
    game = make_game("friends-family", [], PAIRS)
    page.goto(f"{live_server}/games/{game.id}/rounds/new")
    ann = team(page, "Ann & Bo")
    melded = ann.get_by_label("Points melded", exact=True)
    expect(melded).to_have_value("")
    expect(melded).to_have_attribute("placeholder", "0")
    expect(melded).to_have_attribute("inputmode", "numeric")
    expect_books(ann, "Clean (red) books", 0)  # nothing chosen is 0 books

    ann.get_by_role("group", name="Clean (red) books").get_by_role("radio", name="4", exact=True).tap()
    expect(
        ann.get_by_role("group", name="Dirty (black) books").get_by_role("radio", checked=True)
    ).to_be_focused()
    ann.get_by_role("group", name="Dirty (black) books").get_by_role("radio", name="5", exact=True).tap()
    expect(melded).to_be_focused()  # the keypad opens on the next field: no tap to get there
    page.keyboard.type("450")
    expect(melded).to_have_value("450")

    # a count past the chips is typed in the box beside them, and takes the chip's place
    clean = ann.get_by_role("group", name="Clean (red) books")
    clean.get_by_role("textbox").fill("12")
    expect(clean.get_by_role("radio", checked=True)).to_have_count(0)
    clean.get_by_role("radio", name="3", exact=True).check()
    expect(clean.get_by_role("textbox")).to_have_value("")
    clean.get_by_role("textbox").fill("12")
    page.get_by_role("button", name="Check round 1").click()
    expect(page.get_by_role("region", name="Check before saving")).to_contain_text("Clean (red) books × 12")
    expect_books(ann, "Clean (red) books", 12)
    fits_the_phone(page)
    screenshot(page, "round-entry-chips")


def test_the_form_asks_only_what_the_rules_price(make_game, page, live_server):
    roth = make_game("roth", [], PAIRS)
    page.goto(f"{live_server}/games/{roth.id}/rounds/new")
    ann = team(page, "Ann & Bo")
    open_more(ann)
    expect(ann.get_by_label("Red 3s caught", exact=True)).to_be_visible()
    expect(ann.get_by_label("Black 3s caught", exact=True)).to_have_count(0)  # worth 0 under Roth
    expect(ann.get_by_text("More: red 3s, 22-card cuts, penalties")).to_be_visible()
    # the common fields come first; the rare ones are folded, with a sign that they open
    ff = make_game("friends-family", [], PAIRS)
    page.goto(f"{live_server}/games/{ff.id}/rounds/new")
    more = team(page, "Ann & Bo").locator("details.more")
    expect(more).not_to_have_attribute("open", "")
    marker = more.locator("summary").evaluate("(el) => getComputedStyle(el, '::before').borderRightWidth")
    assert marker == "2px", marker
    expect(team(page, "Ann & Bo").get_by_label("Red 3s caught", exact=True)).to_be_hidden()


def test_a_round_saved_with_a_value_the_rules_no_longer_ask_keeps_it(make_game, page, live_server, db):
    # a black 3 entered under Roth (worth 0) before the form stopped asking: fixing keeps it
    game = make_game("roth", [[ROUND[0], TeamRound(melded_points=300, black_threes=2)]], PAIRS)
    page.goto(f"{live_server}/games/{game.id}/rounds/1/edit")
    cy = team(page, "Cy & Di")
    expect(cy.locator("details.more")).to_have_attribute("open", "")
    expect(cy.get_by_label("Black 3s caught", exact=True)).to_have_value("2")
    cy.get_by_label("Points melded", exact=True).fill("350")
    page.get_by_role("button", name="Check round 1").click()
    page.get_by_role("button", name=re.compile("^Save")).click()
    expect(page.get_by_role("status").first).to_have_text("Round 1 updated.")
    assert game_model.load_game(db, game.id).rounds[0].entries[1].black_threes == 2


# --- the review in view ---------------------------------------------------------------------


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_review_opens_with_its_summary_in_view(make_game, new_page, live_server, screenshot, javascript):
    page = new_page(java_script_enabled=javascript)
    game = make_game("friends-family", [], PAIRS)
    page.goto(f"{live_server}/games/{game.id}/rounds/new")
    type_round(page)
    check(page)
    expect_review_in_view(page, 1, ROUND)

    # after "Add up" (the page comes back at Cy & Di's field, #team-1-left), then Check
    cy = team(page, "Cy & Di")
    cy.get_by_text("Count the cards instead").click()
    left = cy.get_by_role("group", name="Cards left in hand and foot")
    for label, count in (("Jokers ×50", 1), ("2s and Aces ×20", 2), ("8–K ×10", 5)):
        left.get_by_label(label, exact=True).fill(str(count))
    with page.expect_navigation():
        left.get_by_role("button", name="Add up").click()
    expect(cy.get_by_label("Points left in hand and foot", exact=True)).to_have_value("140")
    assert page.url.endswith("#team-1-left")
    check(page)
    expect_review_in_view(page, 1, ROUND)

    # after − / + (without JavaScript: a post, back at #team-1), then Check: the same
    # values, so the page the app answers with is at the very address shown before
    step_up(cy, "Red 3s caught", 1)
    cy.get_by_role("button", name="One fewer: Red 3s caught").click()
    expect(cy.get_by_label("Red 3s caught", exact=True)).to_have_value("0")
    check(page)
    expect_review_in_view(page, 1, ROUND)
    fits_the_phone(page)
    screenshot(page, f"round-entry-review-{'js' if javascript else 'nojs'}")


def expect_review_at_top(page):
    """A review is shown, its summary and its Save button wholly on screen."""
    review = page.get_by_role("region", name="Check before saving")
    expect(review).to_be_visible()
    expect(review.get_by_role("table").first).to_be_in_viewport(ratio=1)
    expect(review.get_by_role("button", name=re.compile("^Save (round 1|anyway)$"))).to_be_in_viewport(
        ratio=1
    )


def tap_chip(page, rng, javascript):
    choose_books(
        team(page, rng.choice(NAMES)),
        rng.choice(["Clean (red) books", "Dirty (black) books"]),
        rng.randint(0, 3),
    )


def type_points(page, rng, javascript):
    field = team(page, rng.choice(NAMES)).get_by_label("Points melded", exact=True)
    field.fill(str(5 * rng.randint(0, 400)))


def step(page, rng, javascript):
    group = team(page, rng.choice(NAMES))
    open_more(group)
    field = group.get_by_label("Red 3s caught", exact=True)
    now = int(field.input_value() or 0)
    word, after = ("fewer", now - 1) if now and rng.random() < 0.5 else ("more", now + 1)
    button = group.get_by_role("button", name=f"One {word}: Red 3s caught")
    if javascript:
        button.click()  # in place
    else:
        with page.expect_navigation():  # a post, back at the team
            button.click()
    expect(group.get_by_label("Red 3s caught", exact=True)).to_have_value(str(after))


def add_up(page, rng, javascript, *, then_check=False):
    group = team(page, rng.choice(NAMES))
    helper = group.get_by_role("group").filter(has_text="Count the cards instead")
    if helper.get_attribute("open") is None:
        helper.get_by_text("Count the cards instead").click()
    cards = helper.get_by_role("group", name="Cards left in hand and foot")
    cards.get_by_label("8–K ×10", exact=True).fill(str(rng.randint(0, 6)))
    if not then_check:
        with page.expect_navigation():
            cards.get_by_role("button", name="Add up").click()
        return
    # taps that come quickly: "Add up", and "Check" before its page has come
    cards.get_by_role("button", name="Add up").click(no_wait_after=True)
    page.get_by_role("button", name="Check round 1").click(no_wait_after=True)


def scroll(page, rng, javascript):
    page.mouse.wheel(0, rng.randint(300, 4000))


TAPS = [tap_chip, type_points, step, add_up, scroll]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_review_opens_at_its_summary_after_any_taps(make_game, new_page, live_server, javascript, seed):
    """Chips, digits, − / +, "Add up", scrolling, in any order and as quickly as a thumb:
    the check screen opens with its summary and Save in view, every time."""
    rng = random.Random(seed)
    page = new_page(java_script_enabled=javascript, has_touch=True)
    game = make_game("friends-family", [], PAIRS)
    page.goto(f"{live_server}/games/{game.id}/rounds/new")
    type_round(page)
    for _ in range(3):
        for action in rng.choices(TAPS, k=4):
            action(page, rng, javascript)
        if rng.random() < 0.5:
            add_up(page, rng, javascript, then_check=True)
        else:
            scroll(page, rng, javascript)
            check(page)
        expect_review_at_top(page)


# --- numbers on one line --------------------------------------------------------------------

BIG = [  # partnership: rounds of +9,385 to +12,295, then −2,295 each: totals of 19,285 to 20,745
    [TeamRound(books={"clean": 9, "dirty": 9}, melded_points=4975, went_out=True)]
    + [TeamRound(books={"clean": 6, "dirty": 8}, melded_points=3990, unplayed_points=5) for _ in range(5)],
    [TeamRound(books={"clean": 8, "dirty": 9}, melded_points=4100, unplayed_points=35)]
    + [TeamRound(books={"clean": 9, "dirty": 9}, melded_points=4995, went_out=i == 0) for i in range(5)],
    [TeamRound(unplayed_points=1995, red_threes=3) for _ in range(6)],
]


@pytest.mark.parametrize("teams", [2, 3, 4])
def test_numbers_never_wrap_at_360_px(make_game, page, live_server, screenshot, teams):
    names = [["Ann", "Bo"], ["Cy", "Di"], ["Eve", "Fay"], ["Gus", "Hal"]][:teams]
    rounds = [entries[:teams] for entries in BIG]
    game = make_game("partnership", rounds, [("", p) for p in names])  # no end: 3 rounds of play
    s = standings(RULESETS["partnership"], rounds, teams=teams)
    assert any(t >= 10_000 for t in s.totals) and any(r.total <= -1000 for r in s.round_scores[-1])
    assert any(r.total >= 10_000 for r in s.round_scores[0]), "a 5-digit round too"
    page.goto(f"{live_server}/games/{game.id}")
    for n in range(1, 4):
        page.locator(f"#round-{n} > summary").click()
    for region in ("Standings", "Rounds"):
        assert numbers_whole(page.get_by_role("region", name=region)), region
    fits_the_phone(page)
    screenshot(page, f"round-entry-numbers-{teams}-teams")

    # the same game followed on another phone
    page.goto(f"{live_server}/s/{game.share_token}")
    for n in range(1, 4):
        page.locator(f"#round-{n} > summary").click()
    for region in ("Standings", "Rounds"):
        assert numbers_whole(page.get_by_role("region", name=region)), f"following, {region}"
    fits_the_phone(page)

    # the review of a round with those numbers, too
    page.goto(f"{live_server}/games/{game.id}/rounds/3/edit")
    check(page, 3)
    assert numbers_whole(page.get_by_role("region", name="Check before saving"))
    fits_the_phone(page)


# --- Back after a save ----------------------------------------------------------------------


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_back_after_a_save_shows_the_game(make_game, new_page, live_server, javascript):
    page = new_page(java_script_enabled=javascript)
    rules = RULESETS["friends-family"]
    game = make_game("friends-family", [], PAIRS)
    page.goto(f"{live_server}/games/{game.id}")
    page.get_by_role("link", name="Enter round 1").click()
    type_round(page)
    page.get_by_role("button", name="Check round 1").click()
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_role("status").first).to_have_text("Round 1 saved.")
    game_url = f"{live_server}/games/{game.id}"
    assert page.url == game_url

    # Back: the review was a page of its own (a GET); the app knows its round is saved
    page.go_back()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann & Bo vs Cy & Di")
    assert page.url == game_url
    expect_game_screen(page, rules, NAMES, [ROUND])
    # Back again: the round's form is for the next round now, never an expired page
    page.go_back()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 2")
    # and once more: the game as it was opened, shown again as it is now
    page.go_back()
    assert page.url == game_url
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann & Bo vs Cy & Di")
    if javascript:  # a page the browser kept is asked for again when the game changed
        expect_game_screen(page, rules, NAMES, [ROUND])


# --- drafts kept on the phone ---------------------------------------------------------------


def test_a_draft_survives_a_reload_a_locked_screen_and_a_dropped_connection(
    make_game, new_page, live_server, screenshot, db
):
    # as on the home Wi-Fi's plain http, with no service worker: Playwright's
    # set_offline does not reach a service worker in step with the page
    # (microsoft/playwright#2311), so the worker could still be offline when the
    # page is back online and answer the form's navigation with its offline page
    page = new_page(service_workers="block")
    context = page.context
    game = make_game("friends-family", [], PAIRS)
    url = f"{live_server}/games/{game.id}/rounds/new"
    page.goto(url)
    type_round(page)
    ann, cy = team(page, "Ann & Bo"), team(page, "Cy & Di")
    notice = page.get_by_text("Draft restored")

    # a reload: everything typed is back, and the page says so
    page.reload()
    expect(notice).to_be_visible()
    expect(page.get_by_role("radio", name="Ann & Bo went out")).to_be_checked()
    expect_books(ann, "Dirty (black) books", 5)
    expect(cy.get_by_label("Points left in hand and foot", exact=True)).to_have_value("140")
    fits_the_phone(page)
    screenshot(page, "round-entry-draft-restored")
    # "Discard the draft": the form as the app sent it
    page.get_by_role("button", name="Discard the draft").click()
    expect(notice).to_be_hidden()
    expect(cy.get_by_label("Points left in hand and foot", exact=True)).to_have_value("")
    expect(page.get_by_role("radio", name="Nobody went out")).to_be_checked()
    page.reload()
    expect(notice).to_be_hidden()

    # the screen locks (the page is frozen), then the browser drops the page: a new one
    type_round(page)
    cdp = context.new_cdp_session(page)
    cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
    cdp.send("Page.setWebLifecycleState", {"state": "active"})
    page.close()
    page = context.new_page()
    page.goto(url)
    expect(page.get_by_text("Draft restored")).to_be_visible()
    expect(team(page, "Ann & Bo").get_by_label("Points melded", exact=True)).to_have_value("1240")

    # the Wi-Fi drops: Check says the app could not be reached, and nothing is lost;
    # back online, the round is checked by itself
    context.set_offline(True)
    page.get_by_role("button", name="Check round 1").click()
    alert = page.get_by_role("alert").filter(has_text="Could not reach the app")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("Round 1 will be checked when the app answers")
    assert page.url == url
    expect(team(page, "Cy & Di").get_by_label("Points melded", exact=True)).to_have_value("610")
    screenshot(page, "round-entry-offline", errors=True)
    with page.expect_navigation():
        context.set_offline(False)
    expect_review_in_view(page, 1, ROUND)
    expect(page.get_by_text("Draft restored")).to_be_hidden()  # the app's answer holds what was sent

    # more typed on the review, then the page reloads: that is offered back too
    melded = team(page, "Cy & Di").get_by_label("Points melded", exact=True)
    melded.fill("615")
    page.reload()
    expect(page.get_by_text("Draft restored")).to_be_visible()
    expect(melded).to_have_value("615")
    page.get_by_role("button", name="Discard the draft").click()
    expect(melded).to_have_value("610")
    context.set_offline(True)
    page.get_by_role("button", name="Save round 1").click()
    waits = page.get_by_role("alert").filter(has_text="Round 1 will be saved when the app answers")
    expect(waits).to_be_visible()
    assert game_model.load_game(db, game.id).rounds == ()
    with page.expect_navigation():
        context.set_offline(False)
    expect(page.get_by_role("status").first).to_have_text("Round 1 saved.")
    assert len(game_model.load_game(db, game.id).rounds) == 1

    # saved: the draft is gone, and round 2 starts empty
    assert page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('scorekeeper-draft:'))") == []
    page.get_by_role("link", name="Enter round 2").click()
    expect(page.get_by_text("Draft restored")).to_be_hidden()
    expect(team(page, "Ann & Bo").get_by_label("Points melded", exact=True)).to_have_value("")


def test_a_save_that_cannot_reach_the_app_is_sent_by_itself_once_it_answers(
    make_game, page, live_server, screenshot, db
):
    """Requests to the app fail while Save is tapped, then succeed: saved once, no second tap."""
    game = make_game("friends-family", [], PAIRS)
    page.goto(f"{live_server}/games/{game.id}/rounds/new")
    type_round(page)
    check(page)
    expect_review_in_view(page, 1, ROUND)
    saves = []
    page.on("request", lambda r: saves.append(r.url) if r.method == "POST" else None)
    every = f"{live_server}/**"
    page.route(every, lambda route: route.abort("internetdisconnected"))
    with page.expect_event("requestfailed"):  # the first ask
        page.get_by_role("button", name="Save round 1").click()
    alert = page.get_by_role("alert").filter(has_text="Round 1 will be saved when the app answers")
    expect(alert).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "round-entry-save-waits", errors=True)
    with page.expect_event("requestfailed"):  # it asks again by itself
        pass
    expect(alert).to_be_visible()
    assert game_model.load_game(db, game.id).rounds == () and saves == []
    with page.expect_navigation(url=f"{live_server}/games/{game.id}"):
        page.unroute(every)  # the app answers: no tap
    expect(page.get_by_role("status").first).to_have_text("Round 1 saved.")
    assert [r.entries for r in game_model.load_game(db, game.id).rounds] == [tuple(ROUND)]
    assert len(saves) == 1


def test_without_javascript_the_form_works_as_before(make_game, new_page, live_server, db):
    page = new_page(java_script_enabled=False)
    game = make_game("friends-family", [], PAIRS)
    page.goto(f"{live_server}/games/{game.id}/rounds/new")
    expect(page.get_by_text("Draft restored")).to_be_hidden()
    type_round(page)
    page.get_by_role("button", name="Check round 1").click()
    expect_review_in_view(page, 1, ROUND)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_role("status").first).to_have_text("Round 1 saved.")
    assert [r.entries for r in game_model.load_game(db, game.id).rounds] == [tuple(ROUND)]


# --- undo -----------------------------------------------------------------------------------


def test_undo_the_round_just_saved(make_game, page, live_server, db, screenshot):
    rules = RULESETS["friends-family"]
    game = make_game("friends-family", [ROUND], PAIRS)
    page.goto(f"{live_server}/games/{game.id}")
    expect(page.get_by_role("button", name=re.compile("^Undo"))).to_have_count(0)  # not entered here
    page.get_by_role("link", name="Enter round 2").click()
    type_round(page)
    page.get_by_role("button", name="Check round 2").click()
    page.get_by_role("button", name="Save round 2").click()
    undo = page.get_by_role("button", name="Undo round 2")
    expect(undo).to_be_in_viewport(ratio=1)
    fits_the_phone(page)
    screenshot(page, "round-entry-undo")
    undo.click()  # one tap
    expect(page.get_by_role("status").first).to_have_text("Round 2 undone.")
    expect(page.get_by_role("button", name=re.compile("^Undo"))).to_have_count(0)
    expect_game_screen(page, rules, NAMES, [ROUND])
    page.get_by_text(re.compile(r"^Changes \(\d+\)$")).click()
    expect(page.get_by_role("listitem").filter(has_text="Round 2 undone")).to_have_count(1)
    assert [c.action for c in game_model.load_game(db, game.id, changes=True).changes][:2] == [
        "undone",
        "added",
    ]


def test_an_undo_after_the_game_moved_on_is_refused(make_game, page, live_server, db):
    rules = RULESETS["friends-family"]
    game = make_game("friends-family", [], PAIRS)
    page.goto(f"{live_server}/games/{game.id}/rounds/new")
    type_round(page)
    page.get_by_role("button", name="Check round 1").click()
    page.get_by_role("button", name="Save round 1").click()
    undo = page.get_by_role("button", name="Undo round 1")
    expect(undo).to_be_visible()
    # meanwhile another phone enters round 2
    saved = game_model.load_game(db, game.id)
    games.add_round(db, game.id, saved.revision, 2, ROUND)
    undo.click()
    expect(page.get_by_role("status").first).to_contain_text("changed this game on another phone")
    expect(page.get_by_text("Meanwhile: Round 2 entered.")).to_be_visible()
    expect_game_screen(page, rules, NAMES, [ROUND, ROUND])
    expect(page.get_by_role("button", name=re.compile("^Undo"))).to_have_count(0)


def test_undo_the_round_that_ended_the_game(make_game, page, live_server, db):
    rules = RULESETS["tablet"]  # five rounds
    played = [[TeamRound(melded_points=100), TeamRound(melded_points=50)]] * 4
    game = make_game("tablet", played, PAIRS)
    page.goto(f"{live_server}/games/{game.id}/rounds/new")
    type_round(page, ROUND, NAMES, rules)
    page.get_by_role("button", name="Check round 5").click()
    page.get_by_role("button", name=re.compile("^Save")).click()
    expect(page.get_by_role("button", name="Reopen to fix a round")).to_be_visible()  # over
    page.get_by_role("button", name="Undo round 5").click()
    expect(page.get_by_role("status").first).to_have_text("Round 5 undone.")
    expect(page.get_by_role("link", name="Enter round 5")).to_be_visible()
    expect_game_screen(page, rules, NAMES, played)


# --- a value that may be negative -----------------------------------------------------------


def test_a_value_that_may_be_negative_has_a_plus_minus_key(new_page, live_server):
    page = new_page()
    page.goto(f"{live_server}/rules/new?from=canasta")
    # Canasta's red 3s laid down count against a team that melded nothing
    group = page.get_by_role("group", name="Red 3s laid down", exact=True)
    field = group.get_by_label("If another team went out", exact=True)
    sign = group.get_by_role("button", name="Plus or minus: If another team went out")
    expect(field).to_have_attribute("inputmode", "numeric")
    field.fill("500")
    sign.click()
    expect(field).to_have_value("\u2212500")
    expect(field).to_be_focused()  # the keypad stays up
    sign.click()
    expect(field).to_have_value("500")
    assert sign.bounding_box()["height"] >= 44 and sign.bounding_box()["width"] >= 44
    # without JavaScript: the full keyboard, which has a minus, and no dead key
    plain = new_page(java_script_enabled=False)
    plain.goto(f"{live_server}/rules/new?from=canasta")
    assert plain.get_by_label("If another team went out", exact=True).first.get_attribute("inputmode") is None
    expect(plain.get_by_role("button", name=re.compile("^Plus or minus"))).to_have_count(0)


def test_back_to_a_game_page_the_browser_kept_shows_the_game_as_it_is(browser, make_game, live_server, db):
    """Chromium keeps a page it leaves, to show it at once on Back (its back/forward
    cache: Playwright turns it off, and the headless shell the other tests drive has
    none, so this test starts the full Chromium with it on, and without service workers,
    as on the home Wi-Fi's plain http). Shown again after another phone entered a
    round, the game page asks the app and shows the round."""
    rules = RULESETS["friends-family"]
    game = make_game("friends-family", [], PAIRS)
    keeping = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    try:
        context = keeping.new_context(viewport=PHONE, service_workers="block")
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        page.goto(f"{live_server}/games/{game.id}")
        page.evaluate("window.keptByTheBrowser = true")
        with page.expect_navigation():
            page.get_by_role("link", name="Rules", exact=True).click()
        games.add_round(db, game.id, game.revision, 1, ROUND)  # on another phone
        page.go_back(wait_until="commit")  # a page shown from memory fires no "load"
        expect_game_screen(page, rules, NAMES, [ROUND])
        # it was the kept page, reloaded because the game changed (not a page fetched anew)
        page.wait_for_function("() => window.keptByTheBrowser === undefined")
        page.evaluate("window.keptByTheBrowser = true")
        with page.expect_navigation():
            page.get_by_role("link", name="Rules", exact=True).click()
        page.go_back(wait_until="commit")  # unchanged: kept as it is
        expect(page.get_by_role("heading", level=1)).to_have_text("Ann & Bo vs Cy & Di")
        page.wait_for_function("() => window.keptByTheBrowser === true")
    finally:
        keeping.close()
