"""Talk to the app the way a phone's browser does, and nothing more.

Shared by the fuzz, race, round-trip and restore tests. Everything here
goes through HTTP (the Flask test client, or http.client against a real
server on loopback) or reads the SQLite file read-only with the stdlib:
no scorekeeper module is imported beyond ``create_app``,
``scorekeeper.services.schema.migrate`` and ``scorekeeper.web.passcode`` (the household
code), so the app's internals can be rewritten freely.

- ``parse_forms`` finds every <form> on a page with html.parser: all
  <input>/<select>/<textarea> names and values (hidden csrf_token,
  revision, version, checked included) and its submit buttons.
- ``FlaskPhone`` / ``HttpPhone``: one browser each (own cookies, so its own
  session and CSRF token); no redirect is followed unless asked.
- ``fingerprint``: every table's rows, sorted, from a read-only connection.
- Flows: house rules, a game, a round (check, then save), as a person does them.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import html
import http.client
import json
import os
import re
import secrets
import shutil
import sqlite3
import tempfile
import traceback
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, quote_from_bytes, urljoin, urlsplit

FORM_URLENCODED = "application/x-www-form-urlencoded"


# --- responses --------------------------------------------------------------------


@dataclass
class Resp:
    status: int
    headers: dict  # lower-case names
    body: bytes
    error: str | None = None  # the exception the app raised (test client), as its last line
    where: str | None = None  # the deepest frame in scorekeeper/ that raised

    @property
    def text(self):
        return self.body.decode("utf-8", "replace")

    @property
    def location(self):
        return self.headers.get("location")

    @property
    def redirect(self):
        return 300 <= self.status < 400

    def flashes(self):
        """The flashed messages on this page: [(category, text)]."""
        return [
            (c, html.unescape(re.sub(r"<[^>]+>", "", t)).strip())
            for c, t in re.findall(r'<p class="flash flash-(\w+)" role="status">(.*?)</p>', self.text, re.S)
        ]


def _app_frame(tb):
    frames = [f for f in traceback.extract_tb(tb) if "/scorekeeper/" in f.filename.replace("\\", "/")]
    frame = frames[-1] if frames else (traceback.extract_tb(tb) or [None])[-1]
    if frame is None:
        return None
    path = frame.filename.replace("\\", "/")
    short = path[path.rfind("/scorekeeper/") + 1 :] if "/scorekeeper/" in path else path.rsplit("/", 1)[-1]
    return f"{short}:{frame.lineno} in {frame.name}"


def error_line(error):
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 300 else text[:297] + "..."


# --- forms ----------------------------------------------------------------------------


@dataclass
class Form:
    method: str
    action: str | None
    enctype: str
    fields: list = field(default_factory=list)  # [(name, value)] as a browser would send them
    buttons: list = field(default_factory=list)  # [(name or None, value, formaction or None)]
    files: list = field(default_factory=list)  # names of <input type=file>
    kinds: dict = field(default_factory=dict)  # name -> "hidden", "text", "select", "radio", ...
    choices: dict = field(default_factory=dict)  # name -> [values] of a select or radio group

    def value(self, name, default=None):
        return next((v for n, v in self.fields if n == name), default)

    def names(self):
        return list(dict.fromkeys([n for n, _ in self.fields] + self.files))

    def target(self, page_url):
        """Where the form posts: its action, resolved against the page (the page itself if none)."""
        page = page_url.split("#", 1)[0]
        if not self.action:
            return page
        return urljoin(page, self.action).split("#", 1)[0]

    def pairs(self, overrides=None, *, drop=(), button=None):
        """The name/value pairs a browser sends: each field once, ``overrides``
        replacing (or adding) values, ``drop`` left out, then the button pressed."""
        overrides = dict(overrides or {})
        pairs = []
        for name, value in self.fields:
            if name in drop:
                continue
            if name in overrides:
                value = overrides.pop(name)
            pairs.append((name, "" if value is None else str(value)))
        pairs += [(name, str(value)) for name, value in overrides.items() if name not in drop]
        if button is not None and button[0]:
            pairs.append((button[0], button[1]))
        return pairs

    def button(self, value=None, name=None):
        """The submit button with this value (or the first one with a name, or the first)."""
        for b in self.buttons:
            if (value is None or b[1] == value) and (name is None or b[0] == name):
                return b
        raise LookupError(f"no button {name}={value} in {self.buttons}")


class _FormParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms = []
        self._form = None
        self._select = None  # [name, options [(value, selected)], multiple, disabled]
        self._option = None
        self._textarea = None  # [name, text, disabled]
        self._button = None

    def handle_starttag(self, tag, attrs):
        a = {k: ("" if v is None else v) for k, v in attrs}
        if tag == "form":
            self._form = Form(
                method=(a.get("method") or "get").lower(),
                action=a.get("action"),
                enctype=a.get("enctype") or FORM_URLENCODED,
            )
            self.forms.append(self._form)
            return
        form = self._form
        if form is None:
            return
        disabled = "disabled" in a
        name = a.get("name")
        if tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "image"):
                if not disabled:
                    form.buttons.append((name, a.get("value", ""), a.get("formaction")))
            elif kind in ("button", "reset"):
                pass
            elif kind == "file":
                if name and not disabled:
                    form.files.append(name)
                    form.kinds[name] = "file"
            elif name and not disabled:
                form.kinds.setdefault(name, kind)
                if kind in ("radio", "checkbox"):
                    form.choices.setdefault(name, []).append(a.get("value", "on"))
                    if "checked" in a:
                        form.fields.append((name, a.get("value", "on")))
                else:
                    form.fields.append((name, a.get("value", "")))
        elif tag == "button":
            kind = (a.get("type") or "submit").lower()
            self._button = kind
            if kind == "submit" and not disabled:
                form.buttons.append((name, a.get("value", ""), a.get("formaction")))
        elif tag == "select":
            self._select = [name, [], "multiple" in a, disabled]
        elif tag == "option" and self._select is not None:
            self._option = [a.get("value"), "selected" in a, ""]
            self._select[1].append(self._option)
        elif tag == "textarea":
            self._textarea = [name, "", disabled]

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data
        elif self._option is not None:
            self._option[2] += data

    def handle_endtag(self, tag):
        form = self._form
        if tag == "form":
            self._form = None
        elif tag == "option":
            self._option = None
        elif tag == "select" and self._select is not None:
            name, options, multiple, disabled = self._select
            self._select = None
            if form is None or not name or disabled:
                return
            values = [(v if v is not None else text) for v, _, text in options]
            form.kinds[name] = "select"
            form.choices[name] = values
            chosen = [(v if v is not None else text) for v, sel, text in options if sel]
            if not chosen and not multiple and values:
                chosen = values[:1]
            form.fields += [(name, v) for v in chosen]
        elif tag == "textarea" and self._textarea is not None:
            name, text, disabled = self._textarea
            self._textarea = None
            if form is None or not name or disabled:
                return
            # a browser drops one newline right after <textarea>
            text = text[2:] if text.startswith("\r\n") else text[1:] if text.startswith("\n") else text
            form.kinds[name] = "textarea"
            form.fields.append((name, text.replace("\r\n", "\n").replace("\n", "\r\n")))


def parse_forms(page):
    parser = _FormParser()
    parser.feed(page)
    parser.close()
    return parser.forms


def post_form(page, action_contains=None):
    """The page's (first) POST form, or the one whose action contains ``action_contains``."""
    for form in parse_forms(page):
        if form.method == "post" and (action_contains is None or action_contains in (form.action or "")):
            return form
    return None


# --- bodies ---------------------------------------------------------------------------


def _bytes(value):
    if isinstance(value, bytes):
        return value
    # lone surrogates go out as the (invalid UTF-8) bytes a broken client would send
    return str(value).encode("utf-8", "surrogatepass")


@functools.lru_cache(maxsize=1 << 16)
def _quoted(value):
    """A name or value percent-encoded; the fuzz sends the same few hundred of each
    thousands of times (quoting them afresh was a twentieth of its time)."""
    return quote_from_bytes(value, safe="")


def urlencode(pairs):
    return "&".join(_quoted(_bytes(k)) + "=" + _quoted(_bytes(v)) for k, v in pairs).encode("ascii")


def multipart(pairs, files=()):
    """A multipart/form-data body: (body, content type). ``files``: (name, filename, bytes)."""
    boundary = "fuzzboundary" + secrets.token_hex(12)
    out = []
    for name, value in pairs:
        out.append(
            b"--"
            + boundary.encode()
            + b'\r\nContent-Disposition: form-data; name="'
            + _bytes(name).replace(b'"', b"%22")
            + b'"\r\n\r\n'
            + _bytes(value)
            + b"\r\n"
        )
    for name, filename, content in files:
        out.append(
            b"--"
            + boundary.encode()
            + b'\r\nContent-Disposition: form-data; name="'
            + _bytes(name).replace(b'"', b"%22")
            + b'"; filename="'
            + _bytes(filename).replace(b'"', b"%22")
            + b'"\r\nContent-Type: application/json\r\n\r\n'
            + _bytes(content)
            + b"\r\n"
        )
    out.append(b"--" + boundary.encode() + b"--\r\n")
    return b"".join(out), f"multipart/form-data; boundary={boundary}"


def path_segment(value):
    return quote(str(value).encode("utf-8", "surrogatepass"), safe="")


def query(args):
    """?a=1&b=2 from [(name, value)] (any text, percent-encoded), or ""."""
    return ("?" + urlencode(args).decode()) if args else ""


# --- browsers -------------------------------------------------------------------------


class Phone:
    """One browser: its own cookies. Subclasses send the requests."""

    def request(self, method, url, body=None, content_type=None):  # pragma: no cover
        raise NotImplementedError

    def get(self, url):
        return self.request("GET", url)

    def post(self, url, pairs=(), *, files=None, multipart_form=False):
        if files is not None or multipart_form:
            body, ctype = multipart(pairs, files or ())
        else:
            body, ctype = urlencode(pairs), FORM_URLENCODED
        return self.request("POST", url, body, ctype)

    def follow(self, resp):
        """GET where a redirect points (relative to the site)."""
        assert resp.redirect, f"not a redirect: {resp.status}"
        parts = urlsplit(resp.location)
        return self.get(parts.path + (f"?{parts.query}" if parts.query else ""))

    def open_form(self, url, action_contains=None):
        """GET a page and take its POST form: (form, page url)."""
        resp = self.get(url)
        assert resp.status == 200, f"GET {url}: {resp.status} {resp.error or ''}"
        form = post_form(resp.text, action_contains)
        assert form is not None, f"GET {url}: no POST form on the page"
        return form, url

    def submit(self, form, page_url, overrides=None, *, drop=(), button=None, files=None):
        pairs = form.pairs(overrides, drop=drop, button=button)
        url = form.target(page_url)
        if button is not None and button[2] and not button[2].startswith("#"):
            url = urljoin(page_url, button[2])
        if form.enctype.startswith("multipart"):
            return self.post(url, pairs, files=files or [], multipart_form=True)
        return self.post(url, pairs)

    def give_household_code(self, code):
        """Prove this phone is held at home (no passcode set), as the computer's code is typed."""
        form, url = self.open_form("/household")
        answer = self.submit(form, url, {"code": code})
        assert answer.status == 303, f"the household code was refused: {answer.status} {answer.text[:2000]}"
        return self


class FlaskPhone(Phone):
    """A browser on the Flask test client. An exception the app raises (TESTING
    propagates it) comes back as a 500 with the exception's last line."""

    def __init__(self, app, *, at_home=True):
        """:param at_home: the phone gives the household code first (no passcode set):
        imports and downloads of the whole history open to it."""
        self.app = app
        self.client = app.test_client()
        self.sent = 0
        if at_home:
            from scorekeeper.web import passcode

            if passcode.stored_hash(app.instance_path) is None:
                self.give_household_code(passcode.household_code(app.instance_path))

    def request(self, method, url, body=None, content_type=None):
        self.sent += 1
        kwargs = {"method": method}
        if body is not None:
            kwargs["data"] = body
            kwargs["content_type"] = content_type
        try:
            response = self.client.open(url, **kwargs)
        except Exception as error:  # the app crashed: a browser would get a 500
            return Resp(500, {}, b"", error=error_line(error), where=_app_frame(error.__traceback__))
        try:
            headers = {k.lower(): v for k, v in response.headers.items()}
            try:
                body = response.get_data()
            except Exception as error:  # a streamed body that failed after its 200 went out
                return Resp(
                    500,
                    headers,
                    b"",
                    error=error_line(error) + f" (while streaming a {response.status_code})",
                    where=_app_frame(error.__traceback__),
                )
            return Resp(response.status_code, headers, body)
        finally:
            response.close()

    def session(self):
        """This browser's session cookie (None without one)."""
        cookie = self.client.get_cookie(self.app.config["SESSION_COOKIE_NAME"])
        return cookie.value if cookie else None

    def set_session(self, value):
        """Put a session cookie back as ``session()`` gave it."""
        name = self.app.config["SESSION_COOKIE_NAME"]
        if value is None:
            self.client.delete_cookie(name)
        else:
            self.client.set_cookie(name, value)


class HttpPhone(Phone):
    """A browser on a real server, over http.client (own cookie jar, no redirects followed);
    over https given ``context`` (an ``ssl.SSLContext``)."""

    def __init__(self, host, port, timeout=60, context=None):
        self.host, self.port, self.timeout, self.context = host, port, timeout, context
        self.cookies = {}
        self.sent = 0

    def request(self, method, url, body=None, content_type=None):
        self.sent += 1
        headers = {"Connection": "close"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if content_type:
            headers["Content-Type"] = content_type
        if self.context is not None and method == "POST":
            # as a browser posts a form of the site's own (Flask-WTF checks it over https)
            headers["Referer"] = f"https://{self.host}:{self.port}{urlsplit(url).path}"
        if self.context is None:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        else:
            conn = http.client.HTTPSConnection(
                self.host, self.port, timeout=self.timeout, context=self.context
            )
        try:
            conn.request(method, url, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
            for header in response.msg.get_all("Set-Cookie") or []:
                pair, _, attributes = header.partition(";")
                name, _, value = pair.strip().partition("=")
                gone = "max-age=0" in attributes.lower() or "1970" in attributes or not value
                if gone:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = value
            return Resp(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
        finally:
            conn.close()


# --- the database, read-only --------------------------------------------------------------


def read_only(path):
    return contextlib.closing(sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True))


def fingerprint(path):
    """Every table's rows, sorted: equal before and after means nothing was written."""
    with read_only(path) as conn:
        tables = [
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        return {t: sorted(repr(row) for row in conn.execute(f'SELECT * FROM "{t}"')) for t in tables}


def fingerprint_diff(before, after):
    """Which tables changed and how many rows came and went: a short text."""
    out = []
    for table in sorted(set(before) | set(after)):
        b, a = set(before.get(table, ())), set(after.get(table, ()))
        if a != b:
            out.append(
                f"{table}: +{len(a - b)} -{len(b - a)}" + (f" e.g. {sorted(a - b)[0][:160]}" if a - b else "")
            )
    return "; ".join(out)


def integrity_problems(path):
    """What no sequence of requests should ever leave in the database: a player, team or
    house rules with a blank name, a game whose rounds are not numbered 1..n, a row
    pointing at nothing."""
    problems = []
    with read_only(path) as conn:
        for table in ("players", "teams", "house_rules"):
            for row_id, name in conn.execute(f"SELECT id, name FROM {table}"):
                if not " ".join(str(name).split()):
                    problems.append(f"{table} {row_id} has a blank name {name!r}")
        for game_id, numbers in conn.execute(
            "SELECT game_id, group_concat(number) FROM (SELECT game_id, number FROM rounds "
            "ORDER BY game_id, number) GROUP BY game_id"
        ):
            got = [int(n) for n in numbers.split(",")]
            if got != list(range(1, len(got) + 1)):
                problems.append(f"game {game_id}'s rounds are numbered {got}")
        for row in conn.execute("PRAGMA foreign_key_check"):
            problems.append(f"{row[0]} row {row[1]} points at a missing {row[2]}")
    return problems


def query_db(path, sql, params=()):
    with read_only(path) as conn:
        return conn.execute(sql, params).fetchall()


# --- the app ----------------------------------------------------------------------------


def make_app(database):
    """A migrated SQLite file and the app on it (CSRF on, as in production)."""
    from scorekeeper import create_app

    migrated(database)
    return create_app({"TESTING": True, "DATABASE": str(database)})


_EMPTY = {}  # this test process's empty, fully migrated database (made on first use)


def migrated(database):
    """Make ``database`` an empty database with every migration applied: a copy of one
    migrated once per test process, which is what ``migrate`` would leave (running the
    migrations again costs about 50 ms a test; tests/integration/test_db.py runs them)."""
    from scorekeeper.services.schema import migrate

    if "path" not in _EMPTY:
        folder = tempfile.mkdtemp(prefix="scorekeeper-empty-")
        atexit.register(shutil.rmtree, folder, True)
        path = os.path.join(folder, "empty.db")
        migrate(path)
        checkpoint(path)  # one file holds it all: the copies need no -wal beside them
        _EMPTY["path"] = path
    shutil.copyfile(_EMPTY["path"], database)
    return database


def checkpoint(path):
    """Fold the WAL into the main file (so copying the one file copies everything)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


# --- flows, as a person does them ------------------------------------------------------------


def make_house_rules(phone, name, *, start="partnership", **values):
    """New house rules from a preset with some values changed; return their key."""
    url = f"/rules/new?from={start}"
    form, page = phone.open_form(url)
    resp = phone.submit(form, page, {"name": name, **values})
    assert resp.status in (302, 303), f"house rules refused: {resp.status} {_errors(resp)}"
    return resp.location.rsplit("/", 1)[-1]


def edit_house_rules(phone, key, **values):
    form, page = phone.open_form(f"/rules/{key}/edit")
    return phone.submit(form, page, values)


def start_game(phone, rules_key, teams=(("", ("Ann", "Bo")), ("", ("Cy", "Di"))), first_dealer=""):
    """Start a game from the New game page; return its id."""
    form, page = phone.open_form(f"/games/new?rules={rules_key}")
    assert form.value("rules_key") == rules_key, f"rules {rules_key} not offered"
    values = {"first_dealer": first_dealer}
    for i, (team_name, players) in enumerate(teams):
        values[f"teams-{i}-name"] = team_name
        for p, player in enumerate(players):
            values[f"teams-{i}-players-{p}"] = player
    resp = phone.submit(form, page, values)
    assert resp.status in (302, 303), f"game refused: {resp.status} {_errors(resp)}"
    return int(resp.location.rstrip("/").rsplit("/", 1)[-1])


def _errors(resp):
    found = re.findall(r'class="error"[^>]*>(.*?)</p>', resp.text, re.S)
    found += re.findall(r'<div class="error-summary" role="alert">(.*?)</div>', resp.text, re.S)
    return (
        " | ".join(html.unescape(re.sub(r"<[^>]+>", " ", f)).strip() for f in found)[:600] or resp.text[:300]
    )


def round_overrides(values):
    """{"went_out": "0", 0: {"melded_points": 150}, 1: {...}} -> the round form's field names."""
    out = {}
    for key, value in values.items():
        if isinstance(key, int):
            out.update({f"teams-{key}-{name}": v for name, v in value.items()})
        else:
            out[key] = value
    return out


def parse_points(text):
    text = text.strip().replace("\u2212", "-").replace(",", "").replace("+", "")
    return int(text)


@dataclass
class Review:
    """The check screen of a round: what it shows, and its form (with ``checked``)."""

    resp: Resp
    form: Form | None
    page: str
    number: int | None  # the round number it shows
    scores: list  # the round score it shows per team


def check_round(phone, url, values):
    """Open the round form at ``url``, fill it, press Check: the review (a GET of the
    values the check redirects to, post/redirect/get)."""
    form, page = phone.open_form(url)
    resp = phone.submit(form, page, round_overrides(values), button=("action", "check", None))
    if resp.redirect and shows_the_values(page, resp.location):
        resp = phone.follow(resp)
    return review_of(resp, page)


def shows_the_values(posted_to, location):
    """Whether a POST's redirect goes to a GET of the same page with the values in
    its query (the round form's Check, − / + and Add up: post/redirect/get)."""
    if not location:
        return False
    there = urlsplit(location)
    return bool(there.query) and there.path == urlsplit(posted_to).path


def review_of(resp, page):
    form = post_form(resp.text) if resp.status == 200 else None
    section = re.search(r'<section class="review".*?</section>', resp.text, re.S)
    shown = (
        re.findall(r'<tr class="round-total"><th scope="row">Round (\d+)</th><td>([^<]+)</td>', section[0])
        if section
        else []
    )
    number = int(shown[0][0]) if shown else None
    return Review(resp, form, page, number, [parse_points(s) for _, s in shown])


def press_save(phone, review):
    assert review.form is not None and review.scores, (
        f"no check screen: {review.resp.status} {_errors(review.resp)}"
    )
    return phone.submit(review.form, review.page, button=review.form.button("save", "action"))


def save_round(phone, game_id, values, number=None):
    """Enter (or with ``number``, fix) a round: check, then save. The save's response."""
    url = f"/games/{game_id}/rounds/new" if number is None else f"/games/{game_id}/rounds/{number}/edit"
    return press_save(phone, check_round(phone, url, values))


def share_token(phone, game_id):
    """The game's share link's token, read off its game page (the QR code's link)."""
    page = phone.get(f"/games/{game_id}").text
    return re.search(r"/s/([A-Za-z0-9_-]+)", page)[1]


def game_json(phone, game_id):
    resp = phone.get(f"/games/{game_id}.json")
    assert resp.status == 200, f"/games/{game_id}.json: {resp.status} {resp.error or ''}"
    return json.loads(resp.body)


def delete_round(phone, game_id, number, *, drop=()):
    form, page = phone.open_form(f"/games/{game_id}/rounds/{number}/delete")
    return phone.submit(form, page, drop=drop)


def end_game(phone, game_id, *, drop=()):
    form, page = phone.open_form(f"/games/{game_id}/end")
    return phone.submit(form, page, drop=drop)


def reopen_game(phone, game_id, *, drop=()):
    form, page = phone.open_form(f"/games/{game_id}", action_contains="/reopen")
    return phone.submit(form, page, drop=drop)


def player_ids(phone):
    """{name: id} from the Players page (every page of it)."""
    found, page = {}, 1
    while True:
        resp = phone.get(f"/players?page={page}")
        if resp.status != 200:
            return found
        for pid, name in re.findall(r'href="/players/(\d+)/rename" aria-label="Rename ([^"]*)"', resp.text):
            found.setdefault(html.unescape(name), int(pid))
        if f"page={page + 1}" not in resp.text:
            return found
        page += 1


def rename_player(phone, player_id, name):
    form, page = phone.open_form(f"/players/{player_id}/rename")
    return phone.submit(form, page, {"name": name})
