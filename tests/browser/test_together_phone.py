"""Several phones at one table, in real browsers at 360 x 740: signing in with the
household passcode, a second phone following the game through its share link,
the installable app (manifest, service worker, offline page), and not one
console error or Content-Security-Policy violation on any page."""

import re
import socket

import pytest
from playwright.sync_api import expect

from scorekeeper.exchange import autobackup
from scorekeeper.scoring import TeamRound
from scorekeeper.web import passcode

from .conftest import LiveServer
from .test_phone_pages import CONTROLS_JS, TAP

SECRET = "Marmalade-42"
TEAMS = (("Reds", ["Ann", "Bo"]), ("Blues", ["Cy", "Di"]))
ROUND = [TeamRound(melded_points=300, books={"clean": 1}), TeamRound(melded_points=150)]

# Every console error, uncaught exception and CSP violation, as the page saw it.
# (An init script runs outside the page's CSP, so it may listen for violations.)
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (e) => console.error(
  `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}`));"""
# A page the app answers with an error status on purpose (a refused form: 422; a
# link that no longer works: 404) is reported by Chromium as a failed load of
# that page itself; a failed load of anything the page asks for is a problem.
PAGE_STATUS = re.compile(r"^Failed to load resource: the server responded with a status of (404|422|429)\b")


def _problem(page, message):
    if message.type != "error":
        return None
    if PAGE_STATUS.match(message.text) and message.location.get("url") == page.url:
        return None
    return f"{page.url}: {message.text} ({message.location.get('url')})"


@pytest.fixture
def problems():
    """watch(page): collect that page's console errors, page errors and CSP violations."""
    seen = []

    def watch(page):
        page.add_init_script(REPORT_VIOLATIONS)
        page.on("console", lambda m: (problem := _problem(page, m)) and seen.append(problem))
        page.on("pageerror", lambda e: seen.append(f"{page.url}: {e}"))
        return page

    watch.seen = seen
    return watch


def sign_in(page, base, code=SECRET):
    page.goto(base + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    page.get_by_label("Household passcode").fill(code)
    with page.expect_navigation():  # the phone is signed in once the answer has come
        page.get_by_role("button", name="Sign in").click()


def fits_the_phone(page):
    """No sideways scrolling at 360 px; every control 44 px tall (and wide, but a link in text)."""
    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll_width <= inner_width, f"{page.url} scrolls sideways: {scroll_width} px"
    controls = page.evaluate(CONTROLS_JS)
    small = [c for c in controls if c["height"] < TAP or (c["width"] < TAP and not c["inText"])]
    assert not small, f"tap targets under {TAP} px on {page.url}: {small}"


def test_signing_in_on_a_phone(app, page, live_server, screenshot, problems):
    passcode.set_passcode(app.instance_path, SECRET)
    problems(page)
    page.goto(live_server + "/players")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    fits_the_phone(page)
    screenshot(page, "together-sign-in")

    field = page.get_by_label("Household passcode")
    field.fill("marmalade-42")
    page.get_by_role("button", name="Sign in").click()
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(re.compile("That is not the passcode"))
    screenshot(page, "together-sign-in-refused", errors=True)

    page.get_by_label("Household passcode").fill(SECRET)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Players")  # where it was going
    page.goto(live_server + "/")
    page.get_by_role("link", name="Passcode and settings").click()
    expect(page.get_by_text("A passcode is set")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "together-settings")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    assert problems.seen == []


def test_the_settings_page_says_where_the_backups_are_and_downloads_the_latest(
    app, make_game, new_page, live_server, screenshot, problems, tmp_path
):
    app.config["BACKUPS_AUTOMATIC"] = True  # as outside the tests (no change is made here)
    passcode.set_passcode(app.instance_path, SECRET)
    make_game("roth", [ROUND], teams=TEAMS)
    auto = autobackup.for_app(app)
    auto.folder = tmp_path / "a folder a cloud drive syncs, with a long name to wrap on a phone"
    made = auto.make()
    page = problems(new_page(accept_downloads=True))
    sign_in(page, live_server)
    page.goto(live_server + "/settings")
    backups = page.get_by_role("region", name="Backups")
    expect(backups).to_contain_text(str(auto.folder))
    expect(backups).to_contain_text("the last 24 hourly, 14 daily and 8 weekly copies")
    expect(backups).to_contain_text("made by itself after a change")
    fits_the_phone(page)
    screenshot(page, "together-settings-backups")
    with page.expect_download() as download:
        backups.get_by_role("link", name="Download the latest").click()
    assert download.value.suggested_filename == made.name
    saved = tmp_path / "downloaded.db"
    download.value.save_as(saved)
    assert saved.read_bytes() == made.path.read_bytes()
    assert problems.seen == []


def test_a_second_phone_follows_the_game_through_its_share_link(
    app, make_game, new_page, live_server, screenshot, problems
):
    app.config["FOLLOW_POLL_SECONDS"] = 1
    passcode.set_passcode(app.instance_path, SECRET)
    game = make_game("roth", [ROUND], teams=TEAMS)
    keeper = problems(new_page())
    sign_in(keeper, live_server)
    keeper.goto(f"{live_server}/games/{game.id}")
    share = keeper.get_by_role("region", name="Follow on other phones")
    qr = share.get_by_role("img", name="QR code of the share link")
    expect(qr).to_be_visible()
    keeper.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=qr.element_handle())
    link = share.get_by_role("link").get_attribute("href")
    assert link.endswith(f"/s/{game.share_token}")
    fits_the_phone(keeper)
    screenshot(keeper, "together-game-share")

    # another phone: no passcode, only the link (its path: this test server listens on loopback)
    follower = problems(new_page())
    follower.goto(live_server + "/s/" + link.rsplit("/s/", 1)[1])
    expect(follower.get_by_role("heading", level=1)).to_have_text("Reds vs Blues")
    expect(follower.locator("#round-1")).to_be_visible()
    expect(follower.locator("#round-2")).to_have_count(0)
    expect(follower.get_by_role("heading", name="Round 2 next")).to_be_visible()
    follower.evaluate("window.stillTheSamePage = true")
    fits_the_phone(follower)
    screenshot(follower, "together-follow")

    # the scorekeeper enters round 2 on their phone
    keeper.get_by_role("link", name="Enter round 2").click()
    keeper.get_by_role("group", name="Reds").get_by_label("Points melded", exact=True).fill("450")
    keeper.get_by_role("group", name="Blues").get_by_label("Points melded", exact=True).fill("200")
    keeper.get_by_role("button", name="Check round 2").click()
    keeper.get_by_role("button", name=re.compile("^Save")).click()
    expect(keeper.get_by_role("status")).to_have_text("Round 2 saved.")

    # ...and it appears on the other phone, nobody touching it: the same page, updated
    expect(follower.locator("#round-2")).to_be_visible()
    expect(follower.get_by_role("heading", name="Round 3 next")).to_be_visible()
    assert follower.evaluate("window.stillTheSamePage === true")
    screenshot(follower, "together-follow-updated")

    # stopping sharing: the other phone says so, still without a reload
    keeper.get_by_role("button", name="Stop sharing").click()
    expect(keeper.get_by_text("Sharing is off")).to_be_visible()
    expect(follower.get_by_role("heading", level=1)).to_have_text("This link no longer works")
    assert follower.evaluate("window.stillTheSamePage === true")
    expect(follower.get_by_text("Reds")).to_have_count(0)
    assert problems.seen == []


def test_following_without_javascript_is_a_reload(app, make_game, new_page, live_server, db):
    from scorekeeper.services import games

    game = make_game("roth", [ROUND], teams=TEAMS)
    follower = new_page(java_script_enabled=False)
    follower.goto(f"{live_server}/s/{game.share_token}")
    expect(follower.locator("#round-1")).to_be_visible()
    games.add_round(db, game.id, game.revision, 2, ROUND)
    follower.get_by_role("link", name="Refresh").click()
    expect(follower.locator("#round-2")).to_be_visible()
    # and the page reloads itself while the game goes on
    assert re.search(r'<meta http-equiv="refresh" content="\d+">', follower.content())


def test_a_stopped_server_answers_no_connection(app):
    """After ``stop()`` the app answers nothing, not even on a connection opened before
    (a browser's spare one), as a new connection gets no answer: the offline test below
    stands on the app being gone."""
    server = LiveServer(app)
    port = server.server.server_port
    spare = socket.create_connection(("127.0.0.1", port), timeout=10)
    assert server.wait_for_a_connection(), "the server never accepted the connection"
    server.stop()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        spare.sendall(b"GET /offline HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = spare.recv(100)
    except (BrokenPipeError, ConnectionResetError):
        answer = b""
    finally:
        spare.close()
    assert answer == b"", answer


@pytest.fixture
def own_server(app):
    """The app on a live server this test can stop: (base URL, stop)."""
    server = LiveServer(app)
    try:
        yield server.url, server.stop
    finally:
        server.stop()


def test_the_app_installs_and_shows_its_offline_page(app, make_game, page, own_server, screenshot, problems):
    base, stop = own_server
    game = make_game("roth", [ROUND], teams=TEAMS)
    problems(page)
    page.goto(base + "/")

    # the manifest, as Chromium itself reads it: no errors, and what a home screen needs
    cdp = page.context.new_cdp_session(page)
    read = cdp.send("Page.getAppManifest")
    assert read["url"] == base + "/manifest.webmanifest"
    assert read["errors"] == [], read["errors"]
    manifest = read["manifest"]
    assert (manifest["display"], manifest["startUrl"], manifest["scope"]) == (
        "kStandalone",
        base + "/",
        base + "/",
    )
    assert manifest["name"] and manifest["themeColor"] and manifest["backgroundColor"]
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}

    # the service worker registers and takes charge of the page
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == base + "/"
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    # installable, says Chromium (but for this test's private window)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert {error["errorId"] for error in errors} <= {"in-incognito"}, errors

    # pages go through it as usual; only static files and the offline page are kept
    page.goto(f"{base}/games/{game.id}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Reds vs Blues")
    page.goto(f"{base}/games/{game.id}/rounds/new")
    kept = page.evaluate(
        """async () => {
        const urls = [];
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
        }
        return urls;
      }"""
    )
    assert "/offline" in kept and "/static/style.css" in kept
    assert all(url == "/offline" or url.startswith("/static/") for url in kept), kept

    # the app cannot be reached: a friendly page instead of the browser's error
    stop()
    page.goto(f"{base}/games/{game.id}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Can't reach Scorekeeper")
    expect(page.get_by_role("link", name="Try again")).to_be_visible()
    fits_the_phone(page)
    screenshot(page, "together-offline")
    assert problems.seen == []


def test_the_game_and_round_screens_ask_to_keep_the_screen_awake(make_game, new_page, live_server):
    game = make_game("roth", [ROUND], teams=TEAMS)
    page = new_page()
    # count the page's requests for a screen wake lock (the browser's own API, passed through)
    page.add_init_script(
        """if (navigator.wakeLock) {
          window.wakeRequests = 0;
          const request = navigator.wakeLock.request.bind(navigator.wakeLock);
          navigator.wakeLock.request = (type) => { window.wakeRequests += 1; return request(type); };
        }"""
    )
    page.goto(live_server + "/")
    if page.evaluate("window.wakeRequests === undefined"):
        pytest.fail("this Chromium has no Screen Wake Lock API")
    assert page.evaluate("window.wakeRequests") == 0
    for url in (f"/games/{game.id}", f"/games/{game.id}/rounds/new", f"/games/{game.id}/rounds/1/edit"):
        page.goto(live_server + url)
        page.wait_for_function("window.wakeRequests >= 1")


PAGES = [
    "/",
    "/games/new",
    "/games/{game}",
    "/games/{game}/rounds/new",
    "/games/{game}/rounds/1/edit",
    "/games/{game}/rounds/1/delete",
    "/games/{game}/end",
    "/games/{game}/sheet",
    "/games/{finished}",
    "/history",
    "/players",
    "/players/{player}",
    "/rules",
    "/rules/roth",
    "/rules/new?from=roth",
    "/rules/import",
    "/rules/roth/blank",
    "/import",
    "/settings",
    "/s/{token}",
    "/s/no-such-link",
    "/offline",
    "/no/such/page",
]


def test_no_console_errors_or_csp_violations_on_any_page(app, make_game, new_page, live_server, problems):
    passcode.set_passcode(app.instance_path, SECRET)
    game = make_game("roth", [ROUND, ROUND], teams=TEAMS)
    finished = make_game("tablet", [ROUND] * 5, teams=TEAMS, end=True)
    values = {
        "game": game.id,
        "finished": finished.id,
        "player": game.teams[0].players[0].id,
        "token": game.share_token,
    }
    stranger = problems(new_page())
    stranger.goto(live_server + "/")  # the sign-in page
    expect(stranger.get_by_role("heading", level=1)).to_have_text("Sign in")
    page = problems(new_page())
    sign_in(page, live_server)
    for path in PAGES:
        page.goto(live_server + path.format(**values))
        page.wait_for_load_state("load")
    assert problems.seen == []
    # the page showing a chart, the sheet with its inline <style>, and the QR code are among them
    page.goto(f"{live_server}/games/{game.id}")
    expect(page.get_by_role("img", name="Score by round")).to_be_visible()
