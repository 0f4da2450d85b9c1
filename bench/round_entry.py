"""make bench: how many taps and keystrokes a round takes on a phone, and how long its form is.

A person at the table is played in Debian's Chromium at 360 x 740 (touch,
mobile): from the game screen, "Enter round 1", who went out, each team's
books and points, "Check round 1", "Save round 1". The script counts every
tap and every key pressed, and always takes the cheapest way the page offers
(typing a count or tapping + as often, a field already focused by the page
or a tap on it, clearing a "0" that is there or typing over an empty field),
so the figures measure the form, not the script. The round the app saved
is compared with the one played, so a round entered wrong fails the run.

The form's height is the round screen's whole page (as opened, nothing
folded out) in screens of 740 px, and per team.

Two rounds are played: two teams (Friends & Family) and four (the tablet game).
CHROMIUM=/path/to/chromium points at another browser.
"""

import logging
import os
import sys
import tempfile
import threading
from dataclasses import dataclass, field

SCREEN = {"width": 360, "height": 740}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
POINTS = ("Points melded", "Points left in hand and foot")


def typical_rounds():
    """(rule set, teams, the round) for two and four teams: a round as it usually ends."""
    from scorekeeper.scoring import TeamRound

    def team(clean, dirty, melded, left, out=False):
        return TeamRound(
            books={"clean": clean, "dirty": dirty}, melded_points=melded, unplayed_points=left, went_out=out
        )

    two = [team(4, 5, 1240, 0, out=True), team(2, 1, 610, 140)]
    four = [team(2, 2, 820, 0, out=True), team(1, 1, 505, 110), team(2, 0, 540, 35), team(0, 1, 330, 45)]
    names = [["Ann", "Bo"], ["Cy", "Di"], ["Eve", "Fay"], ["Gus", "Hal"]]
    return [
        ("friends-family", [("", p) for p in names[:2]], two),
        ("tablet", [("", p) for p in names], four),
    ]


@dataclass
class Player:
    """Does what a person does on the page, counting taps and keys."""

    page: object
    taps: int = 0
    keys: int = 0
    log: list = field(default_factory=list)

    def tap(self, locator, why):
        locator.tap()
        self.taps += 1
        self.log.append(f"tap {why}")

    def press(self, key, why):
        self.page.keyboard.press(key)
        self.keys += 1
        self.log.append(f"key {key} ({why})")

    def type(self, text, why):
        self.page.keyboard.type(text)
        self.keys += len(text)
        self.log.append(f"type {text} ({why})")

    def focused(self, locator):
        return locator.evaluate("(el) => el === document.activeElement")

    def enter_number(self, locator, value, why):
        """Put ``value`` in a text field: tap it unless the page focused it, clear what is there, type."""
        current = locator.input_value()
        wanted = "" if value == 0 and current in ("", "0") else str(value)
        if current == wanted or (value == 0 and current in ("", "0")):
            return
        if not self.focused(locator):
            self.tap(locator, why)
        # a tap lands after the text, as a thumb does at the field's end
        locator.evaluate("(el) => el.setSelectionRange(el.value.length, el.value.length)")
        for _ in current:
            self.press("Backspace", f"clear {why}")
        self.type(str(value), why)

    def count(self, team, label, value):
        """A count of books: a chip to tap if the form has them, else the cheaper of typing and +."""
        chips = team.get_by_role("group", name=label, exact=True)
        if chips.count() and chips.get_by_role("radio").count():
            chip = chips.get_by_role("radio", name=str(value), exact=True)
            if chip.count():
                if not chip.is_checked():
                    self.tap(chip, f"{label} {value}")
                return
            self.enter_number(chips.get_by_role("textbox"), value, label)
            return
        box = team.get_by_label(label, exact=True)
        current = int(box.input_value() or 0)
        typed = (0 if self.focused(box) else 1) + len(box.input_value()) + len(str(value))
        stepped = value - current if value >= current else None
        if value == current:
            return
        if stepped is not None and stepped <= typed:
            plus = team.get_by_role("button", name=f"One more: {label}", exact=True)
            for _ in range(stepped):
                self.tap(plus, f"+ {label}")
            return
        self.enter_number(box, value, label)


def play(browser, base, game_id, rules, names, entries):
    """Enter one round from the game screen; return (taps, keys, page height, log)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=SCREEN, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}")
    you = Player(page)
    you.tap(page.get_by_role("link", name="Enter round 1"), "Enter round 1")
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1")
    height = page.evaluate("document.documentElement.scrollHeight")
    out = next((i for i, e in enumerate(entries) if e.went_out), None)
    choice = page.get_by_role(
        "radio", name=f"{names[out]} went out" if out is not None else "Nobody went out"
    )
    if not choice.is_checked():
        you.tap(page.locator(f"label:has(#{choice.get_attribute('id')})"), "who went out")
    for name, entry in zip(names, entries):
        team = page.get_by_role("group", name=name, exact=True)
        for kind in rules.books:
            you.count(team, rules.book_label(kind), entry.books.get(kind, 0))
        for label, value in zip(POINTS, (entry.melded_points, entry.unplayed_points)):
            you.enter_number(team.get_by_label(label, exact=True), value, f"{name}: {label}")
    you.tap(page.get_by_role("button", name="Check round 1"), "Check round 1")
    you.tap(page.get_by_role("button", name="Save round 1"), "Save round 1")
    expect(page.get_by_role("status").first).to_have_text("Round 1 saved.")
    saved = page.request.get(f"{base}/games/{game_id}.json").json()["rounds"]
    context.close()
    return you.taps, you.keys, height, you.log, saved


def main():
    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-round-")
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = folder
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from scorekeeper import create_app
    from scorekeeper.scoring import RULESETS, TeamRound
    from scorekeeper.services import games
    from scorekeeper.services.schema import migrate
    from scorekeeper.storage.db import connect

    database = os.path.join(folder, "bench.db")
    migrate(database)
    app = create_app({"DATABASE": database})
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    print(f"python {sys.version.split()[0]}; {CHROMIUM} at {SCREEN['width']}x{SCREEN['height']}, touch")
    header = f"{'round':<26} {'taps':>5} {'keys':>5} {'digits':>7} {'form, screens':>14} {'per team':>9}"
    rows, logs = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for key, teams, entries in typical_rounds():
            db = connect(database)
            game = games.create_game(db, RULESETS[key], key, teams)
            db.close()
            names = [" & ".join(players) for _, players in teams]
            taps, keys, height, log, saved = play(browser, base, game.id, RULESETS[key], names, entries)
            if [[TeamRound.from_dict(e) for e in r["entries"]] for r in saved] != [entries]:
                raise SystemExit(f"{key}: the app saved {saved}, not the round played: {entries}")
            digits = sum(len(str(v)) for e in entries for v in (e.melded_points, e.unplayed_points) if v)
            screens = height / SCREEN["height"]
            label = f"{len(teams)} teams ({key})"
            rows.append(
                f"{label:<26} {taps:>5} {keys:>5} {digits:>7} {screens:>14.2f} {screens / len(teams):>9.2f}"
            )
            logs.append((label, log))
        browser.close()
    server.shutdown()
    print("taps: from the game screen's 'Enter round 1' to 'Save round 1', both counted")
    print("keys: every key pressed (digits, and any Backspace to clear a field)")
    print("digits: those the points need (melded and left), the least any form can ask")
    print()
    print(header)
    print("-" * len(header))
    for row in rows:
        print(row)
    if os.environ.get("BENCH_VERBOSE"):
        for label, log in logs:
            print(f"\n{label}:\n  " + "\n  ".join(log))


if __name__ == "__main__":
    main()
