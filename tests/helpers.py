"""What several test modules share: reading a page as a person (or a browser) would."""

import contextlib
import datetime
import fcntl
import html
import io
import json
import os
import re
import subprocess
import sys
import threading
from html.parser import HTMLParser

# `make test-deep` (HYPOTHESIS_PROFILE=deep): the properties on fresh examples, many more
DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"
# `make check` (HYPOTHESIS_PROFILE=check): the edit-run loop, a fifth of the examples
CHECK = os.environ.get("HYPOTHESIS_PROFILE") == "check"

# `make pictures` (PICTURES=1): the browser tests' screenshots and the sheets' pages as
# PNGs under test-output/, to look at. Not in `make test`: drawing them was a quarter of
# the browser tests' time, and no test reads them (what a screenshot checks, that no
# error shows, is checked either way).
PICTURES = os.environ.get("PICTURES") == "1"


def examples(quick, deep=None):
    """How many examples a property tries: ``quick`` in `make test` (where it is declared,
    a comment says why that many), ``deep`` (ten times as many, unless given) in
    `make test-deep`, a fifth (at least 3) in `make check`."""
    if DEEP:
        return deep if deep is not None else quick * 10
    if CHECK:
        return max(3, quick // 5)
    return quick


def built_once(tmp_path_factory, name, build):
    """What ``build(folder)`` makes (files in ``folder``, and what it returns, as JSON), made
    once for the whole run: the first test process to ask builds it, under a lock, in the
    folder the run's processes share (xdist's workers each have a base folder inside it);
    the others wait for it and read it. Only for what the tests read and never change."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # let go when the file closes, however this ends
        made = folder / "made.json"
        if not made.exists():
            folder.mkdir(exist_ok=True)
            made.with_suffix(".part").write_text(json.dumps(build(folder)))
            made.with_suffix(".part").rename(made)
        return json.loads(made.read_text())


def on_the_clock(day, hour=12):
    """``day`` (``YYYY-MM-DD``) at ``hour`` o'clock on the household's clock (the
    computer's zone, where the app reads the times a phone types) as the app stores a
    moment: UTC, to the second. Noon on the 5th is the 5th on every clock, Kiritimati's
    UTC+14 and Pago Pago's UTC-11 too; noon UTC is the 6th in Kiritimati."""
    moment = datetime.datetime.fromisoformat(f"{day}T{hour:02d}:00").astimezone()
    return moment.astimezone(datetime.UTC).isoformat(timespec="seconds")


def text(response):
    """A response's HTML with entities decoded, to search for what a person reads."""
    return html.unescape(response.get_data(as_text=True))


class _PostedForm(HTMLParser):
    """What a browser would post from a page's method="post" form, as the page fills it
    (no JavaScript; no button pressed)."""

    def __init__(self):
        super().__init__()
        self.values, self._in_post, self._select, self._textarea = {}, False, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._in_post = a.get("method") == "post"
        elif not self._in_post:
            return
        elif tag == "input" and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("radio", "checkbox") and "checked" not in a:
                return
            self.values[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select = a["name"]
        elif tag == "option" and self._select and ("selected" in a or self._select not in self.values):
            self.values[self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = a["name"]
            self.values[a["name"]] = ""

    def handle_data(self, data):
        if self._textarea:
            self.values[self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            # a browser drops the newline that follows <textarea>
            value = self.values[self._textarea]
            self.values[self._textarea] = value[2:] if value.startswith("\r\n") else value.removeprefix("\n")
            self._textarea = None
        elif tag == "form":
            self._in_post = False


def posted(page):
    """The values a browser would post from the page's POST form (a response or its HTML)."""
    parser = _PostedForm()
    parser.feed(page if isinstance(page, str) else page.get_data(as_text=True))
    return parser.values


def past_games_preview(client, content, status=200, **fields):
    """A spreadsheet of past games (``content``: text or bytes) previewed on its page, the
    house rules of Friends and Family chosen unless ``fields`` say otherwise."""
    page = client.get("/import/past-games")
    data = {**posted(page), "rules": "friends-family", "action": "preview", **fields}
    data["file"] = (io.BytesIO(content if isinstance(content, bytes) else content.encode()), "past.csv")
    response = client.post("/import/past-games", data=data, content_type="multipart/form-data")
    assert response.status_code == status, text(response)[:3000]
    return response


def csrf_token(client, url, **options):
    """The CSRF token of the form at ``url`` (``base_url="https://…"``: over https, where
    the session cookie is another one, security.SessionOverEither)."""
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', text(client.get(url, **options)))[1]


class InProcess:
    """`make run`'s server (``web/server.Server``) for ``app``, in a thread of the test's
    own process, on a free loopback port (and one for https given the certificates'
    ``status``), until ``stop()``."""

    def __init__(self, app, status=None):
        from scorekeeper.web.server import Server

        self.server = Server(app, "127.0.0.1", 0)
        if status is not None:
            self.server.secure(0, status)
        self.port, self.https_port = self.server.http_port, self.server.https_port
        # the ports listen already: a phone's connection waits in the queue until the loop runs
        self.thread = threading.Thread(target=self.server.run, name="server", daemon=True)
        self.thread.start()

    def stop(self):
        """Stop answering: the ports closed, the answers under way finished."""
        self.server.stop()
        self.thread.join(10)
        assert not self.thread.is_alive(), "the server did not stop in 10 s"


def start_server(instance, database, **popen):
    """`make run`'s server (``web/server.py``: http and https) started in its own process on
    free loopback ports, for ``instance`` and ``database``; ``popen``: subprocess.Popen's."""
    env = {
        **os.environ,
        "SCOREKEEPER_INSTANCE_PATH": str(instance),
        "SCOREKEEPER_DATABASE": str(database),
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("SCOREKEEPER_BACKUP_DIR", "BACKUP_DIR"):
        env.pop(name, None)
    command = [sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", "0"]
    return subprocess.Popen([*command, "--https-port", "0"], env=env, **popen)


@contextlib.contextmanager
def served(instance, database):
    """`make run`'s server (``start_server``): yields (process, http port), the https port
    as ``process.https_port``; stopped with SIGTERM, as a service manager stops it, on the
    way out (its exit status is then ``process.returncode``)."""
    server = start_server(instance, database, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        # the address is printed once the port is bound: no waiting, no retries
        first_line = server.stdout.readline()
        found = re.search(r"On this computer: http://localhost:(\d+)/(?: \(https on port (\d+))?", first_line)
        assert found, first_line
        server.https_port = int(found[2]) if found[2] else None
        yield server, int(found[1])
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            # failed, and killed: a server left running would slow every test after it
            server.kill()
            server.wait(timeout=10)
            raise
        finally:
            server.stdout.close()


def at_home(client, app):
    """Give the household code on this phone (a Flask test client), as a phone held at
    home does when no passcode is set: importing, downloading the whole history and setting
    the first passcode then open to it (views/auth.py ``household_required``)."""
    from scorekeeper.web import passcode

    if passcode.stored_hash(app.instance_path) is not None:
        return client  # a passcode is set: signing in is what proves it
    page = client.get("/household")
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.get_data(as_text=True))
    code = passcode.household_code(app.instance_path)
    answer = client.post("/household", data={"code": code, **({"csrf_token": token[1]} if token else {})})
    assert answer.status_code == 303, answer.status_code
    return client


def paper_rounds(sheet):
    """A paper sheet's rows, a round a row and a team a tuple (clean books, dirty books,
    melded, left in hand, red 3s, black 3s, went out, then anything the sheet adds), as the
    engine's entries."""
    from scorekeeper.scoring import TeamRound

    return [
        [
            TeamRound(
                books={"clean": t[0], "dirty": t[1]},
                melded_points=t[2],
                unplayed_points=t[3],
                red_threes=t[4],
                black_threes=t[5],
                went_out=bool(t[6]),
            )
            for t in round_
        ]
        for round_ in sheet
    ]


def fingerprint_pairs(root_pem):
    """The SHA-256 fingerprint of a certificate file (PEM) as a phone shows it in the
    certificate's details: its bytes as pairs of upper-case hex digits (an iPhone puts
    spaces between them, Android colons). Read with the standard library alone, not the app."""
    import hashlib
    import ssl

    with open(root_pem, encoding="ascii") as file:
        der = ssl.PEM_cert_to_DER_cert(file.read())
    return [f"{byte:02X}" for byte in hashlib.sha256(der).digest()]


#: the new-game form's two teams of two, as most tests start a game
TEAMS = {
    "teams-0-players-0": "Ann",
    "teams-0-players-1": "Bo",
    "teams-1-players-0": "Cy",
    "teams-1-players-1": "Di",
}


#: scrypt's cost in the passcode files the tests' fixtures set: n = 2**10, where werkzeug's
#: default, which the app writes (``passcode.set_passcode``), is 2**15. The app checks a
#: passcode at the cost its file names, as it would a file written by another werkzeug: a
#: sign-in costs 3 ms instead of 100, and test_passcode.py and test_guesses.py sign in and
#: guess about 150 times (56 % of their time was scrypt). test_passcode.py checks the cost
#: the app itself writes, from the settings page and from the command.
QUICK_SCRYPT = "scrypt:1024:8:1"


def quick_passcode(instance_path, secret):
    """Set the household passcode as the app does (``passcode.set_passcode``: the file
    whole and owner-only), its hash at ``QUICK_SCRYPT``'s cost."""
    from werkzeug.security import generate_password_hash

    from scorekeeper.storage.private import write_whole
    from scorekeeper.web import passcode

    assert passcode.problem(secret) is None, secret
    write_whole(
        os.path.join(instance_path, passcode.FILE_NAME), generate_password_hash(secret, QUICK_SCRYPT) + "\n"
    )
