"""Fuzz every route and every form field over HTTP, with CSRF on.

Checks on every request:

1. no response is a 5xx (with the test client, an exception the app raises
   counts as one: TESTING propagates it, a browser would get a 500);
2. a response that is not a redirect wrote nothing: every table's rows
   (read-only sqlite3, sorted) are the same before and after;
3. a redirect (which may write) left no bad data: no blank player, team or
   house-rules name, rounds numbered 1..n, no row pointing at nothing.

Before each request the database is put back to one arranged state (a game
in progress with four rounds, a finished game, a three-team game, two sets
of house rules, eight players), so every id below means something and a
write by one request never hides another's.

Forms are found the way a browser finds them: GET the page, parse its
<form> (hidden csrf_token, revision, version, checked included) and post
it back with changes. There are two passes:

- ``test_every_field_of_every_form``: deterministic, every field of every
  POST form (and of the round "check" screens) replaced by each of a few
  hostile values, dropped and repeated, every odd button, and for the two
  import pages every value of a real file replaced by a lone surrogate, a
  number past SQLite's integers, 1e400 or 1000 levels of nesting;
- ``test_every_path_and_query_argument``: deterministic, every GET route of
  the url_map with each path argument and each query argument hostile;
- ``test_fuzz_route``: Hypothesis, per route of ``app.url_map`` (GET
  routes from the map itself, POST routes from ``POST_TARGETS``), drawing
  ids, query strings, several field changes at once, buttons, uploads.

Failures are collected per route and reported together (exception, the
app's frame, one request that caused it) rather than stopping at the
first. The request and 5xx counts are printed at the end of the module
and written to test-output/fuzz-stats.json.

Set FUZZ_RANDOM=1 for fresh Hypothesis examples; by default the run is
derandomized, so two runs send the same requests and their numbers compare.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import json
import os
import re
import shutil
import sqlite3
import time
import zlib
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from .. import fuzzstats
from ..helpers import DEEP, examples, quick_passcode
from ..httpkit import (
    FORM_URLENCODED,
    FlaskPhone,
    Form,
    checkpoint,
    end_game,
    fingerprint,
    fingerprint_diff,
    integrity_problems,
    make_app,
    make_house_rules,
    multipart,
    path_segment,
    post_form,
    query,
    save_round,
    share_token,
    shows_the_values,
    start_game,
    urlencode,
)

# thousands of requests a test: the longest takes 16 s on a quiet machine, and several
# times that on a busy two-core CI machine under coverage
pytestmark = pytest.mark.timeout(240)

STATS = Counter()
STATUSES = Counter()  # (route, method, status): to see the fuzz gets past CSRF and validation
ALL_FOUND: dict = {}

# --- hostile values ---------------------------------------------------------------------------

LONE_SURROGATE = b"\xed\xa0\x80"  # U+D800 as a broken client encodes it: invalid UTF-8
RAW_BYTES = [LONE_SURROGATE, b"a\xed\xb0\x80b", b"\xff\xfe", b"\xc0\x80", b"\x80", b"caf\xe9"]
BIG = [
    str(2**31),
    str(2**63 - 1),
    str(2**63),
    str(-(2**63) - 1),
    str(2**64),
    str(10**30),
    "9" * 400,
    "9" * 5000,
]
NASTY_TEXT = [
    "",
    " ",
    "   ",
    "\t",
    "\r\n",
    "0",
    "-0",
    "-1",
    "-100",
    "1",
    "100001",
    "1e9",
    "1E400",
    "1.5",
    "0x10",
    "1_000",
    "1,000",
    "1 000",
    "+5",
    "\u22125",
    " 120 ",
    "120\n",
    "\u0663",
    "\u0661\u0662\u0660",
    "\uff11\uff12\uff10",
    "\u00b2",
    "\u00bd",
    "\u216b",
    "\U0001d7d9",
    "NaN",
    "inf",
    "None",
    "null",
    "true",
    "[]",
    "{}",
    "\u2028",
    "a\u2029b",
    "\u200d",
    "\u200b",
    "\u200f\u202e",
    "\ufeff",
    "\x00",
    "a\x00b",
    "\x7f",
    "\U0001f600",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "e\u0301" * 30,
    "\u0130",
    "\u00df",
    "<script>alert(1)</script>",
    "'; DROP TABLE games; --",
    "{{7*7}}",
    "%s%n",
    "../../etc/passwd",
    '=HYPERLINK("http://x","y")',
    "x" * 41,
    "x" * 81,
    "x" * 5000,
    "\u00e9" * 100_000,
    *BIG,
]
SWEEP_VALUES = [
    "",
    "   ",
    "abc",
    "-1",
    str(2**63),
    "\u0663",
    "\u2028x\u200d",
    LONE_SURROGATE,
    "9" * 5000,
    "x" * 5000,
]

# unknown or malformed submit buttons
BOGUS_BUTTONS = [
    ("action", v)
    for v in (
        "add-melded-99",
        "add-x-y",
        "add-melded",
        "add-",
        "add-left-\u00b2",
        "add-left-\u0663",
        "add-melded--1",
        "add-melded-0-0",
        "add-melded-1e9",
        "add",
        "save",
        "check",
        "load",
        "",
        "nonsense",
        "\x00",
        "save\u200d",
    )
] + [
    ("step", v)
    for v in (
        "teams-0-book_clean:5",
        "nonsense",
        "teams-0-book_clean:-1",
        "teams-9-book_clean:1",
        ":1",
        "teams-0-melded_points:1",
        "teams-0-book_clean:1e9",
        "teams-0-book_clean:\u0663",
        "teams-0-book_clean",
        "teams-0-book_clean:",
        "teams-0-red_threes:-1",
        "",
    )
]

EXTRA_FIELDS = [
    ("teams-9-melded_points", "5"),
    ("teams-0-book_nonexistent", "1"),
    ("teams--1-melded_points", "5"),
    ("extra_books-99-kind", "x"),
    ("rules-extra_books-11-kind", "x"),
    ("teams-4-players-0", "Zed"),
    ("went_out", "7"),
    ("revision", "x"),
    ("version", "x"),
    ("checked", "x"),
    ("csrf_token", "x"),
    ("\x00", "\x00"),
    (LONE_SURROGATE, LONE_SURROGATE),
]

BAD_IDS = [
    0,
    2**63 - 1,
    2**63,
    2**64,
    10**30,
    -1,
    "abc",
    "\u0663",
    "1.0",
    "01",
    "+1",
    " 1",
    "1e3",
    "%00",
    "0x1",
]
BAD_KEYS = [
    "house-0",
    "house-9999999999",
    "house-99999999999",
    "HOUSE-1",
    "house-\u0663",
    "house-01",
    "house-1 ",
    "..",
    "x" * 300,
    "\u00e9",
    "\x00",
    "house-1.json",
    "nonexistent",
    "house--1",
    "house-" + str(2**63),
]
QUERY_NAMES = ["page", "paper", "rounds", "team", "player", "rules", "since", "until", "status", "from", "x"]
QUERY_VALUES = [
    "1",
    "2",
    "0",
    "-1",
    "a4",
    "letter",
    "A4",
    "finished",
    "playing",
    "roth",
    "house-1",
    "2026-01-05",
    "9999-12-31",
    "0001-01-01",
    "2026-02-30",
    "20260105",
    *BIG,
    *NASTY_TEXT[:60],
    *RAW_BYTES,
]


# --- the arranged world -------------------------------------------------------------------


@dataclass
class World:
    app: object
    phone: FlaskPhone
    live: Path
    template: Path
    template_fp: dict
    ids: dict
    forms: dict = field(default_factory=dict)  # cached base forms: key -> (Form, page url)
    files: dict = field(default_factory=dict)  # cached downloads: url -> bytes
    passcode: bytes = b""  # a passcode file, for the targets that need one set (sign-in)
    locked: bool = False  # whether the arranged state has that passcode set

    session: str | None = None  # the phone's session cookie in the arranged state
    watch: sqlite3.Connection | None = None  # held open on live.db, to read its data_version
    arranged: int | None = None  # live.db's data_version when it was last made the arranged state

    def restore(self):
        """The arranged database, exactly: written through SQLite's backup API, so the
        connection the app keeps open sees it (a file copied under it would not). Skipped
        when nothing was committed to it since the last restore (most requests are refused
        and write nothing: the copy was an eighth of the fuzz's time)."""
        if not self.unchanged():
            with (
                closing(sqlite3.connect(self.template)) as source,
                closing(sqlite3.connect(self.live)) as live,
            ):
                source.backup(live)
            self.arranged = self._data_version()
        # the phone's session as arranged: a fuzzed sign-out clears it, and with it the
        # secret every cached form's CSRF token was made from (every later post of those
        # forms was refused with a 400 and never reached the form's own code)
        self.phone.set_session(self.session)
        # a fuzzed settings form may have set a passcode (kept in the instance folder)
        stored = Path(self.app.instance_path, "passcode")
        if self.locked:
            stored.write_bytes(self.passcode)
        else:
            stored.unlink(missing_ok=True)

    def _data_version(self):
        if self.watch is None:
            self.watch = sqlite3.connect(self.live, isolation_level=None)
        return self.watch.execute("PRAGMA data_version").fetchone()[0]

    def unchanged(self):
        """Whether live.db is still the arranged state, exactly: SQLite changes a
        connection's ``PRAGMA data_version`` whenever another connection commits to the
        file, so an equal value means no request wrote anything since the restore."""
        return self.arranged is not None and self._data_version() == self.arranged

    def fingerprint(self):
        """fingerprint(live) as it is now: the arranged one's when nothing was committed."""
        return self.template_fp if self.unchanged() else fingerprint(self.live)


ROUND = {
    "went_out": "0",
    0: {"book_clean": 1, "melded_points": 150},
    1: {"melded_points": 60, "unplayed_points": 35},
}


def arrange(phone):
    """Two sets of house rules, three games, eight players; return the ids."""
    house = make_house_rules(
        phone,
        "Fuzz house",
        going_out="100, 200, 300, 400, 500",
        books_mode="none",
        red_three_melded="50",
        penalty="100",
        **{"extra_books-0-kind": "Sevens", "extra_books-0-value": "1500"},
    )
    spare = make_house_rules(phone, "Spare rules", start="roth")
    playing = start_game(phone, house)
    for n in range(1, 5):
        values = {**ROUND, 0: {**ROUND[0], "melded_points": 150 + 10 * n}}
        assert save_round(phone, playing, values).status in (302, 303)
    done = start_game(phone, house, (("", ("Ann", "Cy")), ("Evens", ("Bo", "Di"))))
    for _ in range(2):
        assert save_round(phone, done, ROUND).status in (302, 303)
    assert end_game(phone, done).status in (302, 303)
    three = start_game(
        phone,
        "roth",
        (("", ("\u00c9mile",)), ("", ("Stra\u00dfe", "Zo\u00eb")), ("\u674e\u5bb6", ("\u674e",))),
    )
    assert save_round(
        phone, three, {"went_out": "nobody", 0: {"melded_points": 50}, 1: {"unplayed_points": 20}}
    ).status in (302, 303)
    night = start_evening(phone, ["Ann", "Bo", "Cy", "Di"])
    evening_page = phone.get(f"/evenings/{night}").text
    # a game deleted by mistake (issue 54): the deleted games offer its Restore
    gone = start_game(phone, "roth", (("", ("Ann",)), ("", ("Bo",))))
    form, page = phone.open_form(f"/games/{gone}/delete")
    assert phone.submit(form, page).status == 303
    return {
        "night": night,
        "evening_token": re.search(r"/e/([A-Za-z0-9_-]+)", evening_page)[1],
        "house": house,
        "spare": spare,
        "playing": playing,
        "done": done,
        "three": three,
        "gone": gone,
        "players": list(range(1, 9)),
        "token": share_token(phone, playing),
    }


def start_evening(phone, names):
    """An evening of one table, started from /evenings/new; return its night."""
    form, page = phone.open_form("/evenings/new")
    proposed = phone.submit(form, page, {f"newcomers-{i}": n for i, n in enumerate(names)})
    assert proposed.status == 200, proposed.status
    started = phone.submit(post_form(proposed.text), page, button=("action", "start", None))
    assert started.status == 303, started.status
    return started.location.rstrip("/").rsplit("/", 1)[-1]


@contextlib.contextmanager
def arranged_for(world, target):
    """The world locked behind a passcode while ``target`` needs it (and signed in), or
    seen from a phone away from home (``target.away``)."""
    world.locked = bool(target.locked)
    arranged = world.session
    try:
        if target.locked == "signed in":
            world.restore()
            if world.phone.get("/sign-in").status == 200:  # not signed in already
                form, page = world.phone.open_form("/sign-in")
                signed = world.phone.submit(form, page, {"passcode": PASSCODE})
                assert signed.status == 303, f"sign-in refused: {signed.status}"
            world.session = world.phone.session()  # signed in is this target's arranged state
        elif target.away:
            world.restore()
            world.phone.set_session(None)  # a new phone: no household code given yet
            assert world.phone.get("/household").status == 200
            world.session = world.phone.session()
        yield
    finally:
        world.locked = False
        world.session = arranged
        world.restore()


PASSCODE = "fuzz passcode 1234"


@pytest.fixture(scope="module")
def world(tmp_path_factory, request):
    root = tmp_path_factory.mktemp("fuzz")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SCOREKEEPER_INSTANCE_PATH", str(root / "instance"))
        mp.delenv("SCOREKEEPER_DATABASE", raising=False)
        live = root / "live.db"
        app = make_app(live)
        phone = FlaskPhone(app)
        ids = arrange(phone)
        # a backup in the backups folder, as the automatic ones are named: "Download the latest" has one
        (root / "instance" / "backups").mkdir(parents=True)
        copy = root / "instance" / "backups" / "scorekeeper-20260105T193000Z.db"
        assert app.test_cli_runner().invoke(args=["backup", str(copy)]).exit_code == 0
        checkpoint(live)
        template = root / "template.db"
        shutil.copyfile(live, template)
        w = World(app, phone, live, template, fingerprint(template), ids, session=phone.session())
        # a passcode file to put in place for the sign-in form (made apart, read back)
        (root / "passcode-maker").mkdir()
        quick_passcode(str(root / "passcode-maker"), PASSCODE)  # scrypt at a lower cost: a guess 3 ms
        w.passcode = (root / "passcode-maker" / "passcode").read_bytes()
        app.config["PASSCODE_GUESSES"] = "100000 per minute"  # the fuzz guesses a lot
        w.restore()
        # "Undo round 1" is on the three-team game's page while the round this phone
        # entered last is its last change: take that form now, before any fuzzed save
        base_form(w, "undo", f"/games/{ids['three']}")
        yield w
        if w.watch is not None:
            w.watch.close()
    fuzzstats.hand_over(request.config, _counts())


def _counts():
    """What this process's fuzz tests sent and found so far (tests/fuzzstats.py adds up
    every process's at the end of the run)."""
    return {
        "requests": STATS["requests"],
        "5xx": STATS["5xx"],
        "writes": STATS["writes"],
        "bad_data": STATS["bad data"],
        "statuses": {f"{m} {r} {st}": n for (r, m, st), n in sorted(STATUSES.items())},
        "problems": [
            {"kind": k[0], "route": k[1], "error": k[2], "where": k[3], "example": v}
            for k, v in sorted(ALL_FOUND.values(), key=str)
        ],
    }


# --- sending, checking, recording --------------------------------------------------------------


def _normalised(error):
    """An exception line with its particular values blanked, to group alike crashes."""
    if not error:
        return ""
    text = re.sub(r"'[^']*(?:'|$)|\"[^\"]*(?:\"|$)|“[^”]*(?:”|$)", "'…'", error)
    return re.sub(r"\d+", "N", text)[:160]


def _short(value, n=70):
    text = repr(value)
    return text if len(text) <= n else text[: n - 3] + "..."


# a wrong guess of the passcode or household code is counted in the database
# (services/guesses.py) however it is refused: that table alone may change without a redirect
GUESSES = {"auth.sign_in", "auth.settings", "auth.household"}
GUESSED = "passcode_guesses"


def send(world, found, route, method, url, body=None, ctype=None, note=""):
    """One request from the arranged state; record a 5xx or a write without a redirect."""
    world.restore()
    resp = world.phone.request(method, url, body, ctype)
    STATS["requests"] += 1
    STATUSES[(route, method, resp.status)] += 1
    example = f"{method} {_short(url, 120)}" + (f" [{note}]" if note else "")
    if resp.status >= 500:
        STATS["5xx"] += 1
        key = ("5xx", route, resp.error or f"HTTP {resp.status}", resp.where or "")
        _record(found, key, example, _normalised(resp.error))
    elif resp.redirect:
        bad = integrity_problems(world.live)
        if bad:
            STATS["bad data"] += 1
            key = ("wrote bad data", route, bad[0][:200], "")
            _record(found, key, example, re.sub(r"\d+", "N", bad[0])[:60])
        if method == "POST" and shows_the_values(url, resp.location):
            _follow(world, found, route, resp, example)
    else:
        after = world.fingerprint()
        if route in GUESSES and {t for t in after if after[t] != world.template_fp.get(t)} == {GUESSED}:
            pass  # a refused passcode or household code is counted: the one write meant
        elif after != world.template_fp:
            STATS["writes"] += 1
            key = (
                "wrote without redirect",
                route,
                f"HTTP {resp.status}: " + fingerprint_diff(world.template_fp, after)[:200],
                "",
            )
            _record(found, key, example, key[2][:60])
    return resp


def _follow(world, found, route, resp, example):
    """The page a POST redirects to with its values (the round form's Check, − / +,
    Add up): a GET of those values, which must not fail nor write."""
    before = fingerprint(world.live)
    shown = world.phone.follow(resp)
    STATS["requests"] += 1
    STATUSES[(route, "GET after POST", shown.status)] += 1
    example += " → GET what it redirects to"
    if shown.status >= 500:
        STATS["5xx"] += 1
        key = ("5xx", route, shown.error or f"HTTP {shown.status}", shown.where or "")
        _record(found, key, example, _normalised(shown.error))
    elif fingerprint(world.live) != before:
        STATS["writes"] += 1
        key = ("GET wrote", route, fingerprint_diff(before, fingerprint(world.live))[:200], "")
        _record(found, key, example, key[2][:60])


def _record(found, key, example, group):
    """One entry per (kind, route, exception with its values blanked, app frame),
    keeping the shortest example; the module's summary gets it too."""
    gkey = (key[0], key[1], group, key[3])
    for book in (found, ALL_FOUND):
        old = book.get(gkey)
        if old is None or len(example) < len(old[1]):
            book[gkey] = (key, example)


def report(found):
    lines = [f"{len(found)} distinct problem(s):"]
    for (kind, route, what, where), example in sorted(found.values(), key=str):
        lines.append(
            f"- [{kind}] {route}: {what}" + (f" (at {where})" if where else "") + f"\n    e.g. {example}"
        )
    return "\n".join(lines)


# pages with several POST forms: which one a target's key means (by its action)
ACTIONS = {
    "evening-share-new": "/share/new",
    "evening-share-stop": "/share/stop",
    "undo": "/undo",
    "restore": "/restore",
    "reopen": "/reopen",
    "share-new": "/share/new",
    "share-stop": "/share/stop",
    "sign-out": "/sign-out",
    "paper": "/paper",  # the typing page: its sheet's form, not the photo's above it
    "photo": "/photo",
}


def base_form(world, key, page):
    """The POST form on ``page`` in the arranged state (GET once, then reused: the CSRF
    token stays valid for the session, and the page is the same after every restore)."""
    if key not in world.forms:
        world.restore()
        resp = world.phone.get(page)
        assert resp.status == 200, f"GET {page}: {resp.status} {resp.error}"
        form = post_form(resp.text, next((a for k, a in ACTIONS.items() if key.startswith(k)), None))
        assert form is not None, f"no POST form on {page}"
        world.forms[key] = (form, page)
        world.session = world.phone.session()  # with the CSRF secret the form's token is made from
    return world.forms[key]


def review_form(world, key, page, fill=()):
    """The round form (or a paper sheet) after "Check" with the values it opened with, and
    what a person types (``fill``): its save button and ``checked`` digest are live, so a
    change to version alone reaches the save."""
    if key not in world.forms:
        form, _ = base_form(world, key + "/form", page)
        world.restore()
        resp = world.phone.request(
            "POST",
            form.target(page),
            urlencode(form.pairs(dict(fill), button=("action", "check", None))),
            FORM_URLENCODED,
        )
        if resp.redirect and shows_the_values(page, resp.location):  # post/redirect/get
            resp = world.phone.follow(resp)
        review = post_form(resp.text) if resp.status == 200 else None
        assert review is not None and review.value("checked"), (
            f"no check screen for {page}: {resp.status} {resp.text[:300]}"
        )
        world.forms[key] = (review, page)
        world.session = world.phone.session()
    return world.forms[key]


def download(world, url):
    if url not in world.files:
        world.restore()
        resp = world.phone.get(url)
        assert resp.status == 200, url
        world.files[url] = resp.body
    return world.files[url]


def encode(form, pairs, files=()):
    if form.enctype.startswith("multipart"):
        return multipart(pairs, files)
    return urlencode(pairs), FORM_URLENCODED


# --- POST targets: the form each POST route is reached from ------------------------------


@dataclass(frozen=True)
class PostTarget:
    endpoint: str
    pages: tuple  # (cache key, page url, review?) to draw from
    # "history", "rules", "past" (a CSV) or "photo" (a picture): the file field gets an upload
    upload: str | None = None
    # Hypothesis examples in `make test` (ten times as many in `make test-deep`): enough
    # to draw each kind of change (one field, a few, many, a dropped CSRF token) and each
    # kind of button several times over; the deterministic sweep below already sends
    # every field each hostile value, so these look for what combinations find
    examples: int = 30
    fill: tuple = ()  # (name, value) a person types in before pressing the button
    # fuzzed with a passcode set (the sign-in form only exists then), and "signed in"
    # for the sign-out button, which a phone only has once signed in
    locked: bool | str = False
    # fuzzed on a phone that has not given the household code (its form exists only then)
    away: bool = False


NEW_GAME_FILL = (
    ("teams-0-players-0", "Ann"),
    ("teams-0-players-1", "Bo"),
    ("teams-1-players-0", "Cy"),
    ("teams-1-players-1", "Di"),
    ("teams-2-players-0", "Newt"),
    ("first_dealer", "Cy"),
)


def post_targets(ids):
    g, d, t, h, s = ids["playing"], ids["done"], ids["three"], ids["house"], ids["spare"]
    return {
        "games.new": PostTarget(
            "games.new",
            tuple((f"new/{k}", f"/games/new?rules={k}", False) for k in ("friends-family", h, "roth")),
            fill=NEW_GAME_FILL,
        ),
        "rounds.new": PostTarget(
            "rounds.new",
            (
                ("round/new", f"/games/{g}/rounds/new", False),
                ("round/new", f"/games/{g}/rounds/new", True),
                ("round/new3", f"/games/{t}/rounds/new", True),
            ),
        ),
        "rounds.edit": PostTarget(
            "rounds.edit",
            (
                ("round/edit3", f"/games/{g}/rounds/3/edit", False),
                ("round/edit3", f"/games/{g}/rounds/3/edit", True),
                ("round/edit1", f"/games/{g}/rounds/1/edit", True),
                ("round/edit-t", f"/games/{t}/rounds/1/edit", True),
            ),
        ),
        "rounds.delete": PostTarget(
            "rounds.delete",
            (
                ("delete2", f"/games/{g}/rounds/2/delete", False),
                ("delete4", f"/games/{g}/rounds/4/delete", False),
            ),
        ),
        "games.end": PostTarget(
            "games.end", (("end", f"/games/{g}/end", False), ("end-t", f"/games/{t}/end", False))
        ),
        "games.played": PostTarget("games.played", (("played", f"/games/{g}/played", False),)),
        "paper.sheet": PostTarget(
            "paper.sheet",
            (("paper", f"/games/{g}/paper", False), ("paper", f"/games/{g}/paper", True)),
            fill=(
                ("rounds-0-teams-0-melded_points", "150"),
                ("rounds-0-teams-0-sheet_score", "150"),
                ("rounds-0-teams-1-melded_points", "50"),
            ),
        ),
        "photos.read": PostTarget("photos.read", (("photo", f"/games/{g}/photo", False),), upload="photo"),
        # offered to the phone that just entered a round: the arranged state's last change
        "rounds.undo": PostTarget("rounds.undo", (("undo", f"/games/{t}", False),)),
        "games.reopen": PostTarget("games.reopen", (("reopen", f"/games/{d}", False),)),
        "deleted.delete": PostTarget("deleted.delete", (("delete-game", f"/games/{d}/delete", False),)),
        "deleted.restore": PostTarget("deleted.restore", (("restore", "/games/deleted", False),)),
        "rules.new": PostTarget(
            "rules.new",
            (("rules/new", "/rules/new?from=roth", False), ("rules/new-h", f"/rules/new?from={h}", False)),
            fill=(("name", "Fuzz new rules"),),
        ),
        "rules.edit": PostTarget("rules.edit", (("rules/edit", f"/rules/{h}/edit", False),)),
        "rules.delete": PostTarget("rules.delete", (("rules/delete", f"/rules/{s}/delete", False),)),
        "rules.import_file": PostTarget(
            "rules.import_file", (("rules/import", "/rules/import", False),), upload="rules"
        ),
        "players.rename": PostTarget(
            "players.rename", tuple((f"rename{p}", f"/players/{p}/rename", False) for p in (1, 5))
        ),
        # the player page's one POST form: their colour (issue 58)
        "players.colour": PostTarget(
            "players.colour", tuple((f"colour{p}", f"/players/{p}", False) for p in (1, 5))
        ),
        "exchange.import_file": PostTarget(
            "exchange.import_file", (("import", "/import", False),), upload="history"
        ),
        "exchange.import_past": PostTarget(
            "exchange.import_past", (("import-past", "/import/past-games", False),), upload="past"
        ),
        "share.renew": PostTarget("share.renew", (("share-new", f"/games/{g}", False),)),
        "share.stop": PostTarget("share.stop", (("share-stop", f"/games/{g}", False),)),
        "auth.settings": PostTarget("auth.settings", (("settings", "/settings", False),)),
        "auth.sign_in": PostTarget("auth.sign_in", (("sign-in", "/sign-in", False),), locked=True),
        "auth.sign_out": PostTarget("auth.sign_out", (("sign-out", "/settings", False),), locked="signed in"),
        "auth.household": PostTarget("auth.household", (("household", "/household", False),), away=True),
        "trust.every_phone": PostTarget("trust.every_phone", (("settings", "/settings", False),)),
        "language.household": PostTarget("language.household", (("settings", "/settings", False),)),
        "evenings.new": PostTarget(
            "evenings.new",
            (("evening/new", "/evenings/new", False),),
            fill=tuple((f"newcomers-{i}", n) for i, n in enumerate(("Ann", "Newt", "Cy", "Nell"))),
        ),
        "evenings.next_game": PostTarget(
            "evenings.next_game", (("evening/next", f"/evenings/{ids['night']}/next", False),)
        ),
        "evenings.renew_share": PostTarget(
            "evenings.renew_share", (("evening-share-new", f"/evenings/{ids['night']}", False),)
        ),
        "evenings.stop_share": PostTarget(
            "evenings.stop_share", (("evening-share-stop", f"/evenings/{ids['night']}", False),)
        ),
    }


def form_for(world, page_spec, fill=()):
    """The form to mutate: as the page gives it, with what a person types (``fill``)."""
    key, page, review = page_spec
    form, page = review_form(world, key + "/review", page, fill) if review else base_form(world, key, page)
    if fill:
        values = dict(fill)
        form = Form(
            form.method,
            form.action,
            form.enctype,
            [(n, values.get(n, v)) for n, v in form.fields],
            form.buttons,
            form.files,
            form.kinds,
            form.choices,
        )
    return form, page


def primary_button(form, review):
    if review:
        return form.button("save", "action")
    named = [b for b in form.buttons if b[0] is None]
    return named[-1] if named else form.buttons[-1]


# --- every field, deterministically --------------------------------------------------------------


def _sweep_names(form, endpoint):
    names = [n for n in form.names() if n not in form.files]
    if endpoint == "games.new":  # the embedded rules fields are swept on rules.new/edit
        keep = {
            "rules-name",
            "rules-going_out",
            "rules-end_mode",
            "rules-end_rounds",
            "rules-meld_by_score",
            "rules-books_by_round",
            "rules-extra_books-0-kind",
            "rules-card_values-K",
        }
        names = [n for n in names if not n.startswith("rules-") or n in keep]
        names = [n for n in names if not n.startswith(("teams-1-", "teams-3-"))]  # like 0 and 2
    if endpoint in ("evenings.new", "evenings.next_game"):  # every new name's field is alike
        names = [n for n in names if not re.fullmatch(r"newcomers-([3-9]|\d\d)", n)]
    if endpoint == "paper.sheet":  # every round's and team's boxes work like the first's
        names = [n for n in names if not n.startswith("rounds-") or n.startswith("rounds-0-teams-0-")]
        if not DEEP:  # of a team's boxes, one of each kind (the rest in make test-deep)
            names = [n for n in names if n.removeprefix("rounds-0-teams-0-") not in PAPER_ALIKE]
    if endpoint in ("rounds.new", "rounds.edit"):  # team 1's fields work like team 0's
        names = [
            n
            for n in names
            if not n.startswith(("teams-1-", "teams-2-")) and not re.search(r"_count_[1-9]$", n)
        ]  # every count field is the same kind
    return names


# A paper sheet's boxes that work like another swept there (forms/paper.py builds each kind
# alike: a book count as book_clean, a count or points as melded_points, a tick or bonus as
# went_out) and are swept again, as the round form's fields, by rounds.new and rounds.edit:
# `make test` leaves them to make test-deep (the sheet's sums, its own, are always swept).
PAPER_ALIKE = {
    "book_dirty",
    "book_sevens",
    "unplayed_points",
    "red_threes",
    "black_threes",
    "red_threes_melded",
    "cuts",
    "penalties",
    "first_meld_books",
}


# rules.new and rules.edit post the same form (HouseRulesForm, read by the same
# _submitted_rules), and so do rounds.new and rounds.edit (the round form and its check
# screen): in `make test` each field's values are shared out between the two views, every
# other one to each (by the field's name and the value's place), so that the form meets each
# value in each field once and each view meets every field and every kind of value; a field
# of one of them alone meets all its values there. `make test-deep` sends every one to both.
SHARED_FORM = {
    "rules.new": ("rules.edit", 0),
    "rules.edit": ("rules.new", 1),
    "rounds.new": ("rounds.edit", 0),
    "rounds.edit": ("rounds.new", 1),
}


def _names_on(world, endpoint, review):
    """The fields of ``endpoint``'s first page of that kind (form, or check screen)."""
    target = post_targets(world.ids)[endpoint]
    spec = next((spec for spec in target.pages if spec[2] == review), None)
    return set() if spec is None else set(form_for(world, spec, target.fill)[0].names())


def sweep_requests(world, endpoint, target):
    """(url, body, ctype, note) for each field × hostile value, drop, repeat, and each odd button."""
    shared = None if DEEP else SHARED_FORM.get(endpoint)
    seen = set()
    for spec in target.pages:
        review = spec[2]
        if review in seen:  # the first page of each kind (form, check screen): the rest are alike
            continue
        seen.add(review)
        form, page = form_for(world, spec, target.fill)
        both = _names_on(world, shared[0], review) if shared else set()
        button = primary_button(form, review)
        url = form.target(page)
        files = _default_files(world, target)
        for name in _sweep_names(form, endpoint):
            variants = [("=", v) for v in SWEEP_VALUES] + [
                ("drop", None),
                ("repeat", "7"),
                ("repeat-first", "x"),
            ]
            for place, (op, value) in enumerate(variants):
                if name in both and (zlib.crc32(name.encode()) + place) % 2 != shared[1]:
                    continue  # sent to the other view of the same form
                pairs = _apply(form.pairs(button=button), [(name, op, value)])
                body, ctype = encode(form, pairs, files)
                yield url, body, ctype, f"{name} {op} {_short(value, 40)}"
        for b in BOGUS_BUTTONS:
            pairs = form.pairs(button=b)
            body, ctype = encode(form, pairs, files)
            yield url, body, ctype, f"button {b[0]}={_short(b[1], 40)}"
        for extra in EXTRA_FIELDS:
            pairs = form.pairs(button=button) + [extra]
            body, ctype = encode(form, pairs, files)
            yield url, body, ctype, f"extra field {_short(extra, 60)}"
        if target.upload:
            for content, note in upload_sweep(files[0][2], target.upload):
                body, ctype = encode(form, form.pairs(button=button), [("file", "x.json", content)])
                yield url, body, ctype, f"upload: {note}"


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(node, list) and node:
        for i, v in enumerate(node):
            yield from _leaves(v, path + (i,))
    else:
        yield path


def _replaced(data, path, raw):
    """The JSON text of ``data`` with the value at ``path`` replaced by the raw JSON ``raw``."""
    data = json.loads(json.dumps(data))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = SENTINEL
    return json.dumps(data).replace(json.dumps(SENTINEL), raw, 1).encode()


CSV_CELLS = ["\ud800", "\x00", "=HYPERLINK(1)", "9" * 400, "-1", "1e400", "", " ", '"', "x" * 5000, "\u2028"]


def csv_uploads(base):
    """Whole spreadsheets that are not one, then the real one (the app's own CSV export)
    with each cell of its first rows made hostile in turn."""
    header = base.split(b"\n", 1)[0]
    yield from (
        (b"", "an empty file"),
        (b"\x00" * 10, "NUL bytes"),
        (b"\xff\xfe" + base.decode().encode("utf-16-le"), "UTF-16"),
        (b"\xed\xa0\x80,a\n", "a lone surrogate's bytes"),
        (header + b"\n", "a header alone"),
        (header + b"\n" + b",".join([b"7"] * 10_000) + b"\n", "a line of 10,000 cells"),
        (header + b'\n"2020-01-01,a,Ann,5\n', "an unclosed quote"),
        (b"date,game,players," + b",".join(b"%d" % n for n in range(1, 500)) + b"\n", "500 round columns"),
        (b"date;game;players;1\n" + b"2020-01-01;a;Ann;5\n" * 7, "seven teams, semicolons"),
        (b"date,game,round,players\n2020-01-01,a,99999999999999999999,Ann\n", "a round past any number"),
    )
    rows = base.decode("utf-8").splitlines()
    # each cell of the first line of rounds; the second line's cells are the same columns
    # again (make test-deep sends them too)
    for r in range(1, min(len(rows), 3 if DEEP else 2)):
        cells = next(csv.reader([rows[r]]))
        for c in range(len(cells)):
            for value in CSV_CELLS:
                changed = [*cells[:c], value, *cells[c + 1 :]]
                buffer = io.StringIO()
                csv.writer(buffer).writerow(changed)
                text = "\n".join([*rows[:r], buffer.getvalue().rstrip("\r\n"), *rows[r + 1 :]])
                yield text.encode("utf-8", "surrogatepass"), f"row {r} cell {c} = {_short(value, 20)}"


@functools.lru_cache(maxsize=4)
def _csv_cases(base):
    return tuple(csv_uploads(base))


def upload_sweep(base, kind, leaves=80):
    """Whole files of deep nesting or a lone surrogate, then each value of the real file
    (the first ``leaves``) replaced by a lone surrogate, a number past SQLite's integers,
    1e400, and 1000 levels of nesting; each top-level field nested 900 to 5000 deep."""
    if kind == "past":
        yield from csv_uploads(base)
        return
    if kind == "photo":
        yield from photo_uploads(base)
        return
    for depth in (1000, 5000, 100_000):
        for shape in ("list", "dict"):
            yield nested(depth, shape).encode(), f"{depth} nested {shape}s"
    yield b'"\\ud800"', 'the JSON text "\\ud800"'
    yield b'{"name": "\\ud800"}', '{"name": "\\ud800"}'
    data = json.loads(base)
    if kind == "history" and data.get("games"):
        data["games"][0]["uid"] = "fuzz" + "1" * 8  # a game not here yet, so its rows are written
    for key in list(data):
        for depth in (900, 1000, 5000):
            yield _replaced(data, (key,), nested(depth, "list")), f"{key} nested {depth} deep"
    for path in list(_leaves(data))[:leaves]:
        for raw in ('"\\ud800"', '"a\\udc00b"', "9223372036854775808", "1e400", nested(1000, "list")):
            yield _replaced(data, path, raw), f"{'.'.join(map(str, path))} = {raw[:20]}"


def _apply(pairs, changes):
    """Apply (name, op, value) changes to a pair list: "=" replace, "drop", "repeat" (append
    another), "repeat-first" (another before the real one)."""
    pairs = list(pairs)
    for name, op, value in changes:
        if op == "=":
            hit = False
            for i, (n, _) in enumerate(pairs):
                if n == name:
                    pairs[i] = (n, value)
                    hit = True
            if not hit:
                pairs.append((name, value))
        elif op == "drop":
            pairs = [(n, v) for n, v in pairs if n != name]
        elif op == "repeat":
            pairs.append((name, value))
        elif op == "repeat-first":
            pairs.insert(0, (name, value))
    return pairs


def _photo():
    """A small JPEG (no sheet in it: the reader refuses it)."""
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 190, 180)).save(buffer, "JPEG")
    return buffer.getvalue()


def photo_uploads(base):
    """Pictures a phone should never send: none, cut short, a header alone, a bomb's
    header (a PNG that says 100,000 × 100,000 pixels), another format, text, noise."""
    bomb = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (100_000).to_bytes(4, "big") * 2 + b"\x08\x02\x00\x00\x00"
    yield b"", "an empty file"
    yield base[: len(base) // 2], "a JPEG cut in half"
    yield base[:4], "a JPEG's first bytes"
    yield bomb, "a PNG header of 10^10 pixels"
    yield b"GIF89a" + b"\x00" * 20, "a GIF header"
    yield b"Team,Score\nAnn,10\n", "a CSV"
    yield bytes(range(256)) * 40, "noise"


def _default_files(world, target):
    if target.upload == "photo":
        return [("file", "sheet.jpg", _photo())]
    if target.upload == "history":
        return [("file", "history.json", download(world, "/export.json"))]
    if target.upload == "past":
        return [("file", "past.csv", download(world, "/export.csv"))]
    if target.upload == "rules":
        return [
            (
                "file",
                "rules.json",
                download(world, f"/rules/{world.ids['house']}.json").replace(b"Fuzz house", b"Fuzz import"),
            )
        ]
    return []


SWEPT = [
    "games.new",
    "rounds.new",
    "rounds.edit",
    "rounds.delete",
    "rounds.undo",
    "games.end",
    "games.played",
    "paper.sheet",
    "photos.read",
    "games.reopen",
    "deleted.delete",
    "deleted.restore",
    "rules.new",
    "rules.edit",
    "rules.delete",
    "rules.import_file",
    "players.rename",
    "players.colour",
    "exchange.import_file",
    "exchange.import_past",
    "share.renew",
    "share.stop",
    "auth.settings",
    "auth.sign_in",
    "auth.sign_out",
    "auth.household",
    "trust.every_phone",
    "language.household",
    "evenings.new",
    "evenings.next_game",
    "evenings.renew_share",
    "evenings.stop_share",
]


# The longest sweeps are sent in parts, each part its own test, so that they spread over
# the test processes: part k of n sends every n-th request from the k-th (all are sent).
SWEEP_PARTS = {"rules.new": 4, "rules.edit": 4, "games.new": 2, "rounds.new": 2, "rounds.edit": 2}
SWEEPS = [
    pytest.param(endpoint, part, parts, id=endpoint if parts == 1 else f"{endpoint}-{part + 1}of{parts}")
    for endpoint in SWEPT
    for parts in [SWEEP_PARTS.get(endpoint, 1)]
    for part in range(parts)
]


@pytest.mark.long  # make check has test_fuzz_route's quick pass over every form instead
@pytest.mark.deep  # make test-deep sweeps what make test leaves out (PAPER_ALIKE, csv_uploads)
@pytest.mark.parametrize("endpoint, part, parts", SWEEPS)
def test_every_field_of_every_form(world, endpoint, part, parts):
    target = post_targets(world.ids)[endpoint]
    found = {}
    with arranged_for(world, target):
        for i, (url, body, ctype, note) in enumerate(sweep_requests(world, endpoint, target)):
            if i % parts == part:
                send(world, found, endpoint, "POST", url, body, ctype, note)
    assert not found, report(found)


# --- every path argument and query argument, deterministically ------------------------------

QUERY_SWEEP = ["-1", str(2**63), str(10**30), "abc", LONE_SURROGATE, "x" * 5000]
PDF_QUERY = ["paper", "rounds", "team"]


def valid_arguments(ids):
    return {
        "game_id": ids["playing"],
        "number": 2,
        "player_id": 1,
        "key": ids["house"],
        "filename": "style.css",
        "name": "1-0-melded_points",  # a box cut out of a photo of the sheet
        "token": ids["token"],
        "year": 2026,
        "night": ids["night"],
        "shared": ids["evening_token"],
        "code": "pt_BR",
        "layout": "games",
    }


def _fill(rule, values):
    return re.sub(r"<([^>]+)>", lambda m: path_segment(values[m[1].split(":")[-1]]), rule)


def get_sweep(world, endpoint, rule):
    """(url, note) for: each path argument set to each hostile id or key (the others
    real), and each query argument set to each hostile value on the real path."""
    valid = valid_arguments(world.ids)
    names = re.findall(r"<(?:[^>:]+:)?([^>]+)>", rule)
    for name in names:
        bad = (
            [*BAD_KEYS, "9999-12-31", "0001-01-01", "2026-02-30", "2026-13-01"]  # the calendar's ends
            if name == "night"
            else BAD_KEYS
            if name in ("key", "token", "shared")
            else ["../x", "%00", "x" * 300]
            if name in ("filename", "name")
            else BAD_IDS
        )
        for value in bad:
            yield _fill(rule, {**valid, name: value}), f"<{name}> = {_short(value, 40)}"
    path = _fill(rule, valid)
    pdf = endpoint.endswith("_pdf")
    for qname in PDF_QUERY if pdf else QUERY_NAMES:
        for value in (QUERY_SWEEP[1], LONE_SURROGATE) if pdf else QUERY_SWEEP:
            yield path + query([(qname, value)]), f"?{qname}={_short(value, 40)}"


def all_targets():
    """Every (endpoint, method) the fuzz covers: GET rules from the app's url_map,
    POST ones from post_targets."""
    return [
        "GET " + e
        for e in (
            "static",
            "home.index",
            "rules.index",
            "rules.show",
            "rules.download",
            "rules.new",
            "rules.edit",
            "rules.delete",
            "rules.import_file",
            "games.new",
            "games.show",
            "games.export",
            "rounds.new",
            "rounds.edit",
            "rounds.delete",
            "games.end",
            "games.played",
            "deleted.delete",
            "deleted.index",
            "paper.sheet",
            "photos.read",
            "photos.photo",
            "photos.box",
            "players.index",
            "players.index_json",
            "players.show",
            "players.show_json",
            "players.year_picture",
            "records.index",
            "records.index_json",
            "records.year",
            "records.year_json",
            "records.book",
            "players.rename",
            "sheets.game",
            "sheets.game_pdf",
            "sheets.blank",
            "sheets.blank_pdf",
            "sheets.game_blank",
            "sheets.game_blank_pdf",
            "sheets.game_blank_svg",
            "history.index",
            "exchange.export_json",
            "exchange.export_csv",
            "exchange.export_game_json",
            "exchange.export_game_csv",
            "exchange.past_games_template",
            "exchange.import_file",
            "exchange.import_past",
            "share.follow",
            "share.qr",
            "share.game_picture",
            "share.picture",
            "auth.sign_in",
            "auth.settings",
            "auth.household",
            "backups.latest",
            "webapp.manifest",
            "webapp.service_worker",
            "webapp.offline",
            "trust.index",
            "trust.certificate",
            "trust.profile",
            "trust.check",
            "trust.later",
            "language.choose",
            "evenings.new",
            "evenings.next_game",
            "evenings.show",
            "evenings.show_json",
            "evenings.qr",
            "evenings.follow",
            "evenings.follow_table",
            "evenings.picture",
            "evenings.follow_picture",
            "evenings.evening_pdf",
            "evenings.blank_pdf",
        )
    ] + ["POST " + e for e in SWEPT]


def get_endpoints():
    """Every GET endpoint the fuzz knows (test_every_route_is_fuzzed: all the url_map's)."""
    return [route.split(" ", 1)[1] for route in all_targets() if route.startswith("GET ")]


@pytest.mark.long
@pytest.mark.parametrize("endpoint", get_endpoints())
def test_every_path_and_query_argument(world, endpoint):
    """Each GET route of the url_map: each argument hostile in turn (deterministic)."""
    found = {}
    rules = [r for e, r in get_rules(world.app) if e == endpoint]
    assert rules, f"{endpoint} is not a GET route any more"
    for rule in rules:
        for url, note in get_sweep(world, endpoint, rule):
            send(world, found, endpoint, "GET", url, note=note)
    assert not found, report(found)


# --- dates at the edges ------------------------------------------------------------------------------

# Every way a day or a time can be odd: the ends of the calendar, a day that is not one,
# times, zones, empty. Sent on the household's clock in UTC and far from it on both sides.
DATE_EDGES = [
    "",
    " ",
    "0001-01-01",
    "0001-01-02",
    "9999-12-30",
    "9999-12-31",
    "0000-12-31",
    "10000-01-01",
    "2024-02-29",
    "2026-02-29",
    "2026-13-01",
    "2026-1-5",
    "2026-01-05T19:30:00",
    "2026-01-05T19:30:00+14:00",
    "2026-01-05T19:30:00-12:00",
    "2026-01-05Z",
    "+2026-01-05",
    "2026-W02-1",
    "yesterday",
]
STAMP_EDGES = [
    "0001-01-01T00:00:00+00:00",
    "0001-01-01T00:00:00+14:00",
    "0001-01-01T23:59:59-12:00",
    "9999-12-31T23:59:59+00:00",
    "9999-12-31T23:59:59-12:00",
    "9999-12-31T00:00:00+14:00",
    "2026-01-05T19:30:00",
    "2026-01-05T19:30:00.123456+05:30",
    "2026-01-05T19:30:00Z",
    "2026-01-05",
    "2026-01-05T24:00:00+00:00",
    "2026-02-29T19:30:00+00:00",
    "",
    "yesterday",
]
ZONES = ["UTC", "Pacific/Kiritimati", "Etc/GMT+12"]


@contextlib.contextmanager
def household_clock(zone):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TZ", zone)
        time.tzset()
        try:
            yield
        finally:
            mp.undo()
            time.tzset()


@pytest.mark.long
def test_every_date_at_the_edges(world):
    """The history's filters and an imported file's times, each at every edge of the
    calendar, on clocks from UTC−12 to UTC+14: used or refused, never a 5xx; and the
    pages that show an imported game at an edge open."""
    found = {}
    history = download(world, "/export.json")
    form, page = base_form(world, "import", "/import")
    for zone in ZONES:
        with household_clock(zone):
            for since in DATE_EDGES:
                for until in ("", "0001-01-01", "9999-12-31", since):
                    for who in ([], [("player", "1")]):
                        url = "/history" + query([*who, ("since", since), ("until", until)])
                        send(world, found, "history.index", "GET", url, note=f"TZ={zone}")
            for stamp in STAMP_EDGES:
                data = json.loads(history)
                game = data["games"][0]
                game["uid"] = "fuzz-edge-of-time"
                for key in ("created_at", "updated_at", "finished_at"):
                    if game.get(key) is not None or key == "created_at":
                        game[key] = stamp
                body, ctype = encode(
                    form, form.pairs(), [("file", "history.json", json.dumps(data).encode())]
                )
                note = f"TZ={zone}; the first game's times = {stamp!r}"
                resp = send(
                    world, found, "exchange.import_file", "POST", form.target(page), body, ctype, note
                )
                if resp.redirect:  # imported: every page that shows it opens (no restore in between)
                    for url in ("/", "/history", "/players", "/players/1", "/export.json", "/export.csv"):
                        shown = world.phone.get(url)
                        STATS["requests"] += 1
                        if shown.status >= 500:
                            key = ("5xx", url, shown.error or f"HTTP {shown.status}", shown.where or "")
                            _record(found, key, f"GET {url} [{note}]", _normalised(shown.error))
    assert not found, report(found)


# --- Hypothesis: every route ------------------------------------------------------------------------

SETTINGS = dict(
    deadline=None,
    database=None,
    derandomize=not os.environ.get("FUZZ_RANDOM"),
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
)

nasty = st.one_of(
    st.sampled_from(NASTY_TEXT),
    st.sampled_from(RAW_BYTES),
    st.integers(-(2**70), 2**70).map(str),
    st.text(max_size=30),
    st.text(st.characters(codec="utf-8"), min_size=1, max_size=12),
)


def _int_segment(valid):
    return st.one_of(
        st.sampled_from(valid),
        st.sampled_from(BAD_IDS),
        st.integers(-(2**70), 2**70),
        st.text(min_size=1, max_size=8),
    )


def path_strategies(ids):
    """A strategy per URL argument name: mostly real ids, often hostile ones."""
    keys = [ids["house"], ids["spare"], "roth", "partnership", "friends-family", "tablet", "forfeit"]
    return {
        "token": st.one_of(
            st.sampled_from([ids["token"], ids["token"][:-1], "x" * 22]),
            st.sampled_from(BAD_KEYS),
            st.text(min_size=1, max_size=30),
        ),
        "game_id": _int_segment([ids["playing"], ids["done"], ids["three"], ids["gone"]]),
        "number": _int_segment([1, 2, 3, 4, 5]),
        "player_id": _int_segment(ids["players"]),
        "year": _int_segment([2025, 2026, 1, 9999]),
        "shared": st.one_of(
            st.sampled_from([ids["evening_token"], ids["evening_token"][:-1], "x" * 22]),
            st.sampled_from(BAD_KEYS),
            st.text(min_size=1, max_size=30),
        ),
        "night": st.one_of(
            st.sampled_from([ids["night"], "2026-02-30", "2025-01-05", "0000-00-00", "9999-12-31"]),
            st.sampled_from(BAD_KEYS),
            st.dates().map(str),
            st.text(min_size=1, max_size=12),
        ),
        "code": st.one_of(
            st.sampled_from(["pt_BR", "es", "it", "en", "household", "pt", "pt-BR", "EN"]),
            st.sampled_from(BAD_KEYS),
            st.text(min_size=1, max_size=12),
        ),
        "layout": st.one_of(
            st.sampled_from(["games", "scores", "lines", "GAMES"]), st.text(min_size=1, max_size=12)
        ),
        "key": st.one_of(st.sampled_from(keys), st.sampled_from(BAD_KEYS), st.text(min_size=1, max_size=20)),
        "name": st.one_of(
            st.sampled_from(["1-0-melded_points", "1-0-melded_points-d0", "../read", "x" * 300, "\x00"]),
            st.text(min_size=1, max_size=20),
        ),
        "filename": st.one_of(
            st.sampled_from(
                [
                    "style.css",
                    "app.js",
                    "icon.svg",
                    "../pyproject.toml",
                    "%2e%2e/README.md",
                    "nope.css",
                    "x" * 300,
                    "\x00",
                ]
            ),
            st.text(min_size=1, max_size=20),
        ),
    }


query_args = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(QUERY_NAMES), nasty), st.one_of(st.sampled_from(QUERY_VALUES), nasty)
    ),
    max_size=5,
)

# Hypothesis examples per GET route in `make test` (ten times as many in `make test-deep`):
# every path and query argument is swept with each hostile value deterministically
# (test_every_path_and_query_argument), so these look for what several odd arguments
# at once find: a dozen draws cover one, a few and five query arguments
GET_EXAMPLES = 12
# a PDF rendered for each
PICTURES = (
    "share.game_picture",
    "share.picture",
    "evenings.picture",
    "evenings.follow_picture",
    "players.year_picture",
)
SLOW = {
    **dict.fromkeys(("sheets.game_pdf", "sheets.blank_pdf", "sheets.game_blank_pdf"), 6),
    **dict.fromkeys(("evenings.evening_pdf", "evenings.blank_pdf"), 6),
    # a picture is laid out too
    **dict.fromkeys(PICTURES, 6),
    # the year's book: queued for the worker (each paper and language once), its progress page
    "records.book": 6,
}


def get_rules(app):
    return sorted({(r.endpoint, r.rule) for r in app.url_map.iter_rules() if "GET" in r.methods})


def build_path(data, rule, strategies):
    def segment(match):
        name = match[1].split(":")[-1]
        return path_segment(data.draw(strategies[name], label=name))

    return re.sub(r"<([^>]+)>", segment, rule)


def fuzz_get(world, found, endpoint, rule):
    strategies = path_strategies(world.ids)

    @settings(max_examples=examples(SLOW.get(endpoint, GET_EXAMPLES)), **SETTINGS)
    @given(st.data())
    def run(data):
        path = build_path(data, rule, strategies)
        args = data.draw(query_args, label="query")
        send(world, found, endpoint, "GET", path + query(args))

    run()


@st.composite
def field_changes(draw, form, review):
    """Changes to a form: one field (often), a few, or many; hidden fields drawn more often."""
    names = [n for n in form.names() if n not in form.files and n != "csrf_token"]
    hidden = [n for n in names if form.kinds.get(n) == "hidden"]
    weighted = names + hidden * 6
    how_many = draw(st.sampled_from([0, 1, 1, 1, 2, 3, 8])) if names else 0
    changes = []
    for _ in range(how_many):
        name = draw(st.sampled_from(weighted), label="field")
        op = draw(st.sampled_from(["=", "=", "=", "=", "drop", "repeat", "repeat-first"]))
        value = draw(nasty, label="value") if op != "drop" else None
        if op == "=" and form.kinds.get(name) in ("select", "radio") and draw(st.booleans()):
            value = draw(st.sampled_from(form.choices.get(name) or [""]))  # another real choice
        changes.append((name, op, value))
    if draw(st.integers(0, 9)) == 0:
        changes.append(("csrf_token", draw(st.sampled_from(["=", "drop"])), "x"))
    return changes


def _button(draw_, form, review):
    real = list(form.buttons)
    if review:
        save = form.button("save", "action")
        choice = draw_(st.sampled_from(["save", "save", "save", "real", "bogus", "none"]))
        if choice == "save":
            return save
    else:
        choice = draw_(st.sampled_from(["real", "real", "real", "bogus", "none"]))
    if choice == "real" and real:
        return draw_(st.sampled_from(real))
    if choice == "bogus":
        name, value = draw_(st.sampled_from(BOGUS_BUTTONS))
        return (name, value, None)
    return None


# JSON uploads -----------------------------------------------------------------------------------

SENTINEL = "\u0001FUZZ\u0001"
JSON_VALUES = [
    '"\\ud800"',
    '"a\\udfffb"',
    '"\\u0000"',
    '"\\u2028"',
    '""',
    '" "',
    '"\\u200d"',
    '"=HYPERLINK(1)"',
    '"\\u0663"',
    '"-1"',
    "9223372036854775808",
    "1" + "0" * 30,
    "-1",
    "0",
    "1e400",
    "-1e400",
    "NaN",
    "Infinity",
    "1.5",
    "true",
    "false",
    "null",
    "[]",
    "{}",
    '"' + "x" * 5000 + '"',
    "[" + ",".join(["1"] * 5000) + "]",
]


def nested(depth, kind):
    return ("[" * depth + "]" * depth) if kind == "list" else ('{"a":' * depth + "1" + "}" * depth)


@st.composite
def json_upload(draw, base, kind):
    """An upload: the real file with one value replaced (deep nesting, lone surrogates,
    huge numbers...), or a whole file of something else."""
    shape = draw(st.sampled_from(["leaf", "leaf", "leaf", "leaf", "whole", "as-is"]))
    if shape == "as-is":
        return base
    if kind == "past":  # a spreadsheet: one of the sweep's hostile ones
        return draw(st.sampled_from(_csv_cases(base)))[0]
    if kind == "photo":  # a picture: one of the sweep's hostile ones
        return draw(st.sampled_from([content for content, _ in photo_uploads(base)]))
    if shape == "whole":
        depth = draw(st.sampled_from([1000, 5000, 100_000]))
        return draw(
            st.sampled_from(
                [
                    nested(depth, "list").encode(),
                    nested(depth, "dict").encode(),
                    b'"\\ud800"',
                    b'{"name": "\\ud800"}',
                    b"",
                    b"\x00" * 10,
                    b"\xff\xfe{\x00}\x00",
                    b"\xef\xbb\xbf" + base,
                    base.decode().encode("utf-16"),
                    base[: len(base) // 2],
                    base + b" " * (1024 * 1024 + 10),
                    b"[" + b"1," * 600_000 + b"1]",
                    b"NaN",
                    b"1e400",
                    b"[]",
                    b"{}",
                    b"null",
                ]
            )
        )
    data = json.loads(base)
    if kind == "history" and data.get("games") and draw(st.booleans()):
        data["games"][0]["uid"] = "fuzz" + "0" * 8  # a game not yet here: its rows get written
    # walk to a random place and put the sentinel there
    node, parent, key = data, None, None
    while isinstance(node, (dict, list)) and node and (parent is None or draw(st.booleans())):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        parent, key = node, draw(st.sampled_from(keys), label="path")
        node = node[key]
    if parent is None:
        return base
    if draw(st.integers(0, 5)) == 0 and isinstance(parent, dict):
        del parent[key]  # a field missing
        return json.dumps(data).encode()
    parent[key] = SENTINEL
    if draw(st.booleans()):
        raw = nested(draw(st.integers(1, 1200), label="depth"), draw(st.sampled_from(["list", "dict"])))
    else:
        raw = draw(st.sampled_from(JSON_VALUES))
    text = json.dumps(data)  # ASCII: a lone surrogate is written as \\ud800
    return text.replace(json.dumps(SENTINEL), raw, 1).encode()


def fuzz_post(world, found, endpoint, target):
    strategies = path_strategies(world.ids)

    @settings(max_examples=examples(target.examples), **SETTINGS)
    @given(st.data())
    def run(data):
        spec = data.draw(st.sampled_from(target.pages), label="page")
        form, page = form_for(world, spec, target.fill)
        review = spec[2]
        changes = data.draw(field_changes(form, review), label="changes")
        button = _button(data.draw, form, review)
        pairs = _apply(form.pairs(button=button), changes)
        if data.draw(st.integers(0, 4)) == 0:
            pairs.append(data.draw(st.sampled_from(EXTRA_FIELDS), label="extra"))
        url = form.target(page)
        if data.draw(st.integers(0, 5)) == 0:  # the same form posted at another id
            ids = re.findall(r"/(\d+)(?=/|$|\?)", url)
            if ids:
                i = data.draw(st.integers(0, len(ids) - 1))
                bad = path_segment(data.draw(strategies["game_id"]))
                parts = re.split(r"(/\d+)(?=/|$|\?)", url)
                seen = -1
                for j, part in enumerate(parts):
                    if re.fullmatch(r"/\d+", part):
                        seen += 1
                        if seen == i:
                            parts[j] = "/" + bad
                url = "".join(parts)
        files = []
        if target.upload:
            base = _default_files(world, target)[0][2]
            content = data.draw(json_upload(base, target.upload), label="upload")
            filename = data.draw(st.sampled_from(["x.json", "", "\u00e9.json", "a\x00b", "../../x"]))
            files = [("file", filename, content)]
            if data.draw(st.integers(0, 6)) == 0:
                files = []  # no file at all
        body, ctype = encode(form, pairs, files)
        note = "; ".join(f"{n} {op} {_short(v, 40)}" for n, op, v in changes)
        if button:
            note += f"; button {button[0]}={_short(button[1], 30)}"
        if files:
            note += f"; upload {_short(files[0][2][:60], 70)} ({len(files[0][2])} bytes)"
        send(world, found, endpoint, "POST", url, body, ctype, note)

    run()


def test_the_fuzz_sees_every_write_and_undoes_it(world):
    """What ``send`` relies on to skip a fingerprint and a restore: a commit by the app,
    or by any other connection, makes live.db differ from the arranged state; a restore
    makes it that state again, exactly."""
    world.restore()
    assert world.unchanged() and world.fingerprint() == world.template_fp
    make_house_rules(world.phone, "Written by the fuzz's own test")
    assert not world.unchanged() and world.fingerprint() != world.template_fp
    world.restore()
    assert world.unchanged() and fingerprint(world.live) == world.template_fp
    with closing(sqlite3.connect(world.live)) as other, other:
        other.execute("UPDATE players SET name = name || '!' WHERE id = 1")
    assert not world.unchanged() and world.fingerprint() != world.template_fp
    world.restore()
    assert fingerprint(world.live) == world.template_fp


def test_every_route_is_fuzzed(world):
    """A route added to the app without a fuzz strategy fails here."""
    targets = post_targets(world.ids)
    strategies = path_strategies(world.ids)
    listed = set(all_targets())
    missing = []
    for rule in world.app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if f"{method} {rule.endpoint}" not in listed:
                missing.append(f"{method} {rule.rule} ({rule.endpoint}): not in the fuzz's list")
            if method == "POST" and rule.endpoint not in targets:
                missing.append(f"POST {rule.rule}: no form to fuzz it from (post_targets)")
            if method not in ("GET", "POST"):
                missing.append(f"{method} {rule.rule}: the fuzz sends only GET and POST")
            for argument in rule.arguments:
                if argument not in strategies:
                    missing.append(f"{rule.rule}: no strategy for <{argument}>")
    assert not missing, "\n".join(missing)


@pytest.mark.hypothesis
@pytest.mark.parametrize("route", all_targets())
def test_fuzz_route(world, route):
    method, endpoint = route.split(" ", 1)
    found = {}
    if method == "GET":
        rules = [r for e, r in get_rules(world.app) if e == endpoint]
        assert rules, f"{endpoint} is not a GET route any more"
        for rule in rules:
            fuzz_get(world, found, endpoint, rule)
    else:
        target = post_targets(world.ids)[endpoint]
        with arranged_for(world, target):
            fuzz_post(world, found, endpoint, target)
    assert not found, report(found)


# --- bodies too big ------------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", SWEPT)
def test_a_body_over_a_megabyte(world, endpoint):
    """Each POST form with one field of 1.1 MB (and the uploads with a 1.1 MB file):
    refused (413 or a message), never a 5xx, nothing written."""
    target = post_targets(world.ids)[endpoint]
    found = {}
    with arranged_for(world, target):
        spec = target.pages[0]
        form, page = form_for(world, spec, target.fill)
        button = primary_button(form, spec[2])
        name = next((n for n in form.names() if n != "csrf_token" and n not in form.files), "padding")
        pairs = _apply(form.pairs(button=button), [(name, "=", "9" * (1024 * 1024 + 100))])
        body, ctype = encode(form, pairs, _default_files(world, target))
        send(world, found, endpoint, "POST", form.target(page), body, ctype, f"{name} = 1.1 MB of 9s")
        if target.upload:
            big = _default_files(world, target)[0][2] + b" " * (1024 * 1024 + 100)
            body, ctype = encode(form, form.pairs(button=button), [("file", "big.json", big)])
            send(world, found, endpoint, "POST", form.target(page), body, ctype, "1.1 MB upload")
    assert not found, report(found)


def test_an_import_over_64_megabytes(world):
    form, _page = base_form(world, "import", "/import")
    found = {}
    body, ctype = encode(form, form.pairs(), [("file", "big.json", b" " * (65 * 1024 * 1024))])
    resp = send(world, found, "exchange.import_file", "POST", "/import", body, ctype, "65 MB upload")
    assert not found, report(found)
    assert resp.status in (413, 422), resp.status
