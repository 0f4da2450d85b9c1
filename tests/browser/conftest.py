"""Real-browser fixtures: the app on a live server, driven by Debian's Chromium.

Playwright's own browser download is never used. The tests drive Debian's Chromium
headless shell (package chromium-headless-shell, which `make test` installs): the same
Blink and V8 as Chromium, built for headless use, and what Playwright itself runs
headless; a page costs it half the CPU the full browser's headless mode does. A test
of what only the full browser does (keeping a page for Back) launches Debian's
Chromium (/usr/bin/chromium, installed too). On other systems set $CHROMIUM (and
$CHROMIUM_HEADLESS_SHELL, or the full browser is used for every test).
"""

import contextlib
import os
import socket
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from ..helpers import PICTURES
from .looks import no_error_shown

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
HEADLESS_SHELL = Path(os.environ.get("CHROMIUM_HEADLESS_SHELL", "/usr/lib/chromium/chromium-headless-shell"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # without these Chromium keeps trying to reach Google on a closed network
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
# Every browser wait is bounded: an action, a navigation or an expect(...) that does
# not happen in this time fails the test with Playwright's own message (a hang the
# browser cannot see is caught by pytest-timeout, set in pyproject.toml).
WAIT_MS = 10_000
expect.set_options(timeout=WAIT_MS)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


class LiveServer:
    """The app served over HTTP on loopback from a background thread, until ``stop()``.

    ``stop()`` leaves the app unreachable, as a computer switched off does: it closes the
    listening socket and every connection the server accepted. A browser keeps spare
    connections open for later requests (Chromium opens one ahead of need, and a second
    when a connect is slow on a busy machine), and the server's thread for each would
    otherwise still answer the first request sent on it after the stop: the offline
    test then saw the game instead of the offline page, about one run in ten with every
    core busy (``test_a_stopped_server_answers_no_connection``)."""

    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        # a request still being answered when the test ends is not waited for: its thread
        # is a daemon and ends with its connection (werkzeug closes every connection)
        self.server.block_on_close = False
        self.connections = set()  # accepted and not yet closed, for stop()
        self.changed = threading.Condition()  # told of each connection accepted or closed
        accept, close = self.server.get_request, self.server.shutdown_request

        def get_request():
            connection, address = accept()
            with self.changed:
                self.connections.add(connection)
                self.changed.notify_all()
            return connection, address

        def shutdown_request(connection):
            with self.changed:
                self.connections.discard(connection)
                self.changed.notify_all()
            close(connection)

        self.server.get_request, self.server.shutdown_request = get_request, shutdown_request
        # the loop looks for shutdown() every 50 ms (werkzeug's default, 0.5 s, was half a
        # second of every browser test's teardown)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.stopped = False

    def wait_for_a_connection(self, timeout=10):
        """Until the server has accepted a connection (and not closed it): True, or False
        after ``timeout`` seconds."""
        with self.changed:
            return self.changed.wait_for(lambda: self.connections, timeout)

    def stop(self):
        """Stop serving, close the listening socket and cut every connection still open;
        bounded, and safe to call twice."""
        if self.stopped:
            return
        self.stopped = True
        self.server.shutdown()  # the loop notices within its poll interval
        self.thread.join(10)
        self.server.server_close()  # shutdown() leaves the listening socket open
        with self.changed:
            left = list(self.connections)
        for connection in left:  # its thread reads the end and finishes
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        assert not self.thread.is_alive(), "the test server did not stop in 10 s"


@pytest.fixture
def live_server(app):
    """The app served over HTTP in a background thread; yields its base URL. Stopped in
    teardown, whether the test passed or failed."""
    server = LiveServer(app)
    try:
        yield server.url
    finally:
        server.stop()


def browser_path():
    """The headless shell where there is one, else the full browser; a failure, not a
    skip, without either: a run without its browser tests is not a passing run."""
    for path in (HEADLESS_SHELL, CHROMIUM):
        if path.exists():
            return path
    pytest.fail(
        f"No Chromium at {CHROMIUM} nor {HEADLESS_SHELL}: `make test` installs them on Debian "
        "(scripts/system-packages); elsewhere set CHROMIUM=/path/to/chromium."
    )


@pytest.fixture(scope="session")
def playwright_driver():
    """Playwright, started once for the run (of each test process): every browser a test
    launches comes from it (a second one in the same process is refused)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_driver):
    """One Chromium for the whole run (of each test process)."""
    browser = playwright_driver.chromium.launch(executable_path=str(browser_path()), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def new_page(browser):
    """Open pages in fresh phone-sized contexts: new_page(color_scheme="dark")."""
    contexts = []

    def open_page(**options):
        context = browser.new_context(**{"viewport": PHONE, **options})
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
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
    """Check that the page shows no error message (unless ``errors=True``: the page is
    about one); with `make pictures`, save a full-page screenshot of it to
    test-output/screenshots/<name>.png."""

    def save(page, name, *, errors=False):
        if not errors:
            no_error_shown(page)
        if PICTURES:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    return save
