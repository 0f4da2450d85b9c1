"""Real-browser fixtures: the app on a live server, driven by Debian's Chromium.

Playwright's own browser download is never used: it launches Debian's
Chromium (/usr/bin/chromium, which `make test` installs), or the browser at
$CHROMIUM on other systems.
"""

import os
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # without these Chromium keeps trying to reach Google on a closed network
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture
def live_server(app):
    """The app served over HTTP in a background thread; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
    server.server_close()  # shutdown() leaves the listening socket open


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the whole run."""
    if not CHROMIUM.exists():
        # a failure, not a skip: a run without its browser tests is not a passing run
        pytest.fail(
            f"No Chromium at {CHROMIUM}: `make test` installs it on Debian "
            "(scripts/system-packages); elsewhere set CHROMIUM=/path/to/chromium."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    """Open pages in fresh phone-sized contexts: new_page(color_scheme="dark")."""
    contexts = []

    def open_page(**options):
        context = browser.new_context(viewport=PHONE, **options)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    """A page in a new context the size of a phone (360 x 740)."""
    return new_page()


@pytest.fixture
def screenshot():
    """Save a full-page screenshot to test-output/screenshots/<name>.png."""

    def save(page, name):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save
