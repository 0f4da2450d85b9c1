"""Every page in a language that marks each translated string (issue 47): a pseudo-language
made at test time from the strings the code marks (``scripts/catalogs pot``), each one
``⟦as in English⟧``, and the written rule sets' words (a book, each kind, the piles) marked
alike. Whatever a page shows outside the marks was never marked: the test finds none but
the family's own words (players', teams' and house rules' names) and values (numbers, and
dates as the language's calendar writes them).

The pseudo-language is ``en_001`` (Babel knows it, with English month names; we ship no
catalog for it), offered beside the real ones in this test's app alone.
"""

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from scorekeeper import create_app
from scorekeeper.scoring import RULESETS
from scorekeeper.scoring.local_words import LOCAL
from scorekeeper.scoring.words import Words, add_language
from scorekeeper.storage.db import connect
from scorekeeper.web.language import LANGUAGES

from .. import family
from ..helpers import at_home, built_once

ROOT = Path(__file__).resolve().parents[2]
PSEUDO = "en_001"
OPEN, CLOSE = "\u27e6", "\u27e7"
MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
# names that are no words of a language: the app's, the formats', and each language's own
# name in the chooser at the foot of the page (a guest finds theirs without reading ours)
NAMES = {
    "Scorekeeper",
    "A4",
    "JSON",
    "CSV",
    "PDF",
    "QR",
    "BG Stats",
    "Wi-Fi",
    "https",
    "http",
    *LANGUAGES.values(),
}

pytestmark = pytest.mark.long  # builds the family's history (300 games) and a catalog


def marked(message):
    return f"{OPEN}{message}{CLOSE}"


@pytest.fixture(scope="module")
def pseudo_translations(tmp_path_factory):
    """A folder with the pseudo-language's catalog: every string the code marks, marked
    (made once for the whole run: ``built_once``)."""
    return Path(built_once(tmp_path_factory, "pseudo", make_pseudo_catalog))


@pytest.fixture(scope="module", autouse=True)
def pseudo_rule_set_words_spoken():
    """The written rule sets' words in the pseudo-language, each one marked."""
    add_language(PSEUDO, pseudo_rule_set_words())


def make_pseudo_catalog(folder):
    pot = folder / "messages.pot"
    subprocess.run([sys.executable, "scripts/catalogs", "pot", str(pot)], cwd=ROOT, check=True)
    with open(pot, "rb") as file:
        catalog = read_po(file, locale=PSEUDO)
    for message in catalog:
        if not message.id:
            continue
        if message.pluralizable:
            message.string = tuple(marked(form) for form in message.id)
        else:
            message.string = marked(message.id)
    out = folder / PSEUDO / "LC_MESSAGES"
    out.mkdir(parents=True)
    with open(out / "messages.mo", "wb") as file:
        write_mo(file, catalog)
    return str(folder)


@pytest.fixture
def pseudo_phone(family_history, pseudo_translations, tmp_path, instance_path):
    path, playing, players, nights = family_history
    database = tmp_path / "scorekeeper.db"
    shutil.copyfile(path, database)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(database),
            "BABEL_TRANSLATION_DIRECTORIES": str(pseudo_translations),
            "LANGUAGES": {**LANGUAGES, PSEUDO: "Pseudo"},
        }
    )
    client = at_home(app.test_client(), app)
    assert client.get(f"/language/{PSEUDO}").status_code == 303
    return client, database, (playing, players, nights)


class _Shown(HTMLParser):
    """The text a page shows: its text (not scripts' or styles', nor code: a command to
    type, a folder's path, a file format's own lines), and the attributes read aloud or
    shown (aria-label, title, alt, placeholder, a button's value)."""

    HIDDEN = frozenset({"script", "style", "template", "code", "pre", "kbd", "samp"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts, self._hidden = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self._hidden += 1
        attrs = dict(attrs)
        for name in ("aria-label", "title", "alt", "placeholder"):
            if attrs.get(name):
                self.texts.append(attrs[name])
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.texts.append(attrs["value"])
        if tag == "meta" and attrs.get("name") == "description":
            self.texts.append(attrs.get("content") or "")

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.texts.append(data)


def family_words(database):
    """The family's own words: players', teams' and rule sets' names."""
    db = connect(str(database))
    try:
        words = {name for (name,) in db.execute("SELECT name FROM players")}
        words |= {name for (name,) in db.execute("SELECT name FROM house_rules")}
        words |= {name for (name,) in db.execute("SELECT name FROM teams")}
    finally:
        db.close()
    return [w for w in words if w]


def pseudo_rule_set_words():
    """The written rule sets' own words in the pseudo-language (scoring/local_words.py has a
    table for each language): their English words, each marked as a message is, so that a
    page's word outside them is found, a rule set's word too ("Books" written in a
    template)."""
    kinds = {kind for rules in RULESETS.values() for kind in rules.books}
    tables = []
    for english, _languages in LOCAL:
        say = Words.of(english)
        tables.append(
            (
                english,
                {
                    "game": marked(say.game),
                    "book": marked(say.book),
                    "books": marked(say.books),
                    "kinds": {kind: marked(say.kind(kind)) for kind in kinds},
                    "labels": {kind: marked(say.book_label(kind)) for kind in kinds},
                    "piles": tuple(marked(pile) for pile in say.piles),
                    "round": marked(say.round),
                    "going_out": marked(say.going_out),
                },
            )
        )
    return tables


def calendar_words():
    """The pseudo-language's month and day names, as Babel writes its dates."""
    locale = Locale.parse(PSEUDO)
    words = set()
    for width in ("wide", "abbreviated"):
        words |= set(locale.months["format"][width].values()) | set(locale.days["format"][width].values())
    return list(words)


SEPARATOR = "\x00"  # between two texts of a page (a mark may span an element: <strong>)
# an address shown (a share link, broken into parts at each slash)
ADDRESS = re.compile(rf"https?:[{SEPARATOR}/\w.:%?=&-]*")
# a card's rank (10–K, A, 2s), the same letters in every language the app speaks
RANKS = re.compile(r"(?<!\w)(?:[2-9]|10|J|Q|K|A)(?:s)?(?!\w)")


def unmarked(html, own):
    """What ``html`` shows outside the marks, the family's words (``own``, a pattern) and
    values."""
    parser = _Shown()
    parser.feed(html)
    text = SEPARATOR.join(parser.texts)
    text = ADDRESS.sub(" ", text)
    before = None
    while before != text:  # a mark inside a mark: the innermost first
        before, text = text, MARKED.sub(" ", text)
    found = []
    for piece in text.split(SEPARATOR):
        piece = RANKS.sub(" ", own.sub(" ", piece))
        if re.search(r"[^\W\d_]", piece):
            found.append(" ".join(piece.split()))
    return found


@pytest.mark.parametrize("group", family.page_groups())
def test_every_page_says_only_what_is_marked(pseudo_phone, group):
    client, database, ids = pseudo_phone
    words = family_words(database) + calendar_words() + [*NAMES, "Pseudo"]
    # each a whole word or words ("Fri" a player, not the start of "Friends"), the longest first
    own = re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in sorted(words, key=len, reverse=True)))
    problems = {}
    for path in family.page_groups()[group](*ids):
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.get_data(as_text=True)
        assert f'lang="{PSEUDO.replace("_", "-")}"' in html, path
        left = unmarked(html, own)
        if left:
            problems[path] = sorted(set(left))
    assert not problems, "\n".join(f"{path}: {texts}" for path, texts in problems.items())


@pytest.mark.parametrize("path", ["/games/999999", "/no/such/page", "/games/1/rounds/1/delete"])
def test_an_error_page_says_only_what_is_marked(pseudo_phone, path):
    """werkzeug's own names and words for an error (404, 405) as well as ours."""
    client = pseudo_phone[0]
    response = client.get(path) if "delete" not in path else client.put(path)
    assert response.status_code in (404, 405)
    own = re.compile("|".join(re.escape(w) for w in [*NAMES, "Pseudo"]))
    assert not unmarked(response.get_data(as_text=True), own)


def test_a_deleted_games_page_says_only_what_is_marked(pseudo_phone):
    """A deleted game's own address (issue 54): a 404 that says what it was and offers Restore."""
    client, database, _ids = pseudo_phone
    db = connect(str(database))
    try:
        (game_id,) = db.execute("SELECT id FROM games WHERE deleted_at IS NOT NULL").fetchone()
    finally:
        db.close()
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 404
    words = family_words(database) + calendar_words() + [*NAMES, "Pseudo"]
    own = re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in sorted(words, key=len, reverse=True)))
    html = response.get_data(as_text=True)
    assert "/restore" in html and not unmarked(html, own)


def test_the_locked_page_says_only_what_is_marked(pseudo_phone):
    """The sign-in page while the passcode file cannot be read (issue 53): its words, the
    commands to type aside."""
    client = pseudo_phone[0]
    (Path(client.application.instance_path) / "passcode").write_bytes(b"")
    response = client.get("/sign-in")
    assert response.status_code == 503
    html = response.get_data(as_text=True)
    assert f'lang="{PSEUDO.replace("_", "-")}"' in html and "flask --app scorekeeper passcode" in html
    own = re.compile("|".join(re.escape(w) for w in [*NAMES, "Pseudo"]))
    assert not unmarked(html, own)
