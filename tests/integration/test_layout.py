"""One description of the sheet (issue 55): the blank sheet's PDF prints the lines of
``printing/layout.py`` and the typing page asks for them, in the same order with the same
labels; real requests on a real SQLite file, the PDF read back with poppler's pdftotext."""

import re
import subprocess

import pytest

from scorekeeper.printing import layout
from scorekeeper.scoring import RULESETS

from ..helpers import TEAMS, posted, text

# Each rule set's sheet, line by line as printed (a label and its points each, as the
# paper has them), and the name of what the typing page types there (None: not typed).
FRIENDS_FAMILY = [
    ("book_clean", "Clean (red) books × 500"),
    ("book_dirty", "Dirty (black) books × 300"),
    ("melded_points", "Melded"),
    ("unplayed_points", "Left in hand and foot"),
    ("red_threes", "Red 3s caught"),
    ("black_threes", "Black 3s caught × −5"),
    ("went_out", "Went out"),
    ("sheet_score", "Round score"),
    ("sheet_total", "Total"),
]
CANASTA = [  # a meld minimum by score (a note to play by) and a bonus worked out from a line
    (None, "Meld minimum"),
    ("book_clean", "Natural canastas × 500"),
    ("book_dirty", "Mixed canastas × 300"),
    ("melded_points", "Melded"),
    ("unplayed_points", "Left in hand"),
    ("red_threes", "Red 3s caught × −500"),
    ("black_threes", "Black 3s caught × −5"),
    ("red_threes_melded", "Red 3s laid down"),
    (None, "All 4 red 3s"),
    ("black_threes_out", "Black 3s melded going out × 5"),
    ("went_out", "Went out"),
    ("went_out_concealed", "Went out concealed"),
    ("sheet_score", "Round score"),
    ("sheet_total", "Total"),
]
SHEETS = {"friends-family": FRIENDS_FAMILY, "canasta": CANASTA}


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def printed(line):
    return f"{line.label} × {line.per:,}".replace("-", "−") if line.per is not None else line.label


def squeezed(words):
    """Words one space apart, and points each without the space after "×" (pdftotext reads
    "× 5" wrapped under its label as "×5")."""
    return " ".join(words.split()).replace("× ", "×")


def pdf_words(pdf):
    """The PDF's text, its words one space apart (a label wrapped on paper reads whole)."""
    words = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    return squeezed(words.decode())


def typing_page_lines(client, key):
    """(name, label) of each box a team has in a round of a new game's typing page."""
    page = client.get(f"/games/new?rules={key}")
    response = client.post("/games/new", data={**posted(page), **TEAMS, "kept": "sheet"})
    assert response.status_code == 303, text(response)[:2000]
    game = response.headers["Location"].removeprefix("/games/")
    form = text(client.get(f"/games/{game}/paper"))
    found = re.findall(r'<label for="rounds-0-teams-0-([a-z_]+)">(.*?)</label>', form)
    # the label and its points each ("× 500"), not the hint beside a yes-or-no line ("1: yes")
    hints = re.compile(r'<span class="per">[^×<]*</span>')
    return [(name, " ".join(re.sub(r"<[^>]*>", " ", hints.sub("", inner)).split())) for name, inner in found]


@pytest.mark.parametrize("key", SHEETS)
def test_the_layout_says_every_line_of_the_sheet_in_its_order(key):
    lines = layout.sheet_lines(RULESETS[key])
    assert [printed(line) for line in lines] == [label for _name, label in SHEETS[key]]
    assert [line.name for line in lines if line.typed] == [name for name, _label in SHEETS[key] if name]
    assert [line.kind for line in lines][-2:] == ["sum", "sum"]  # the round score, then the total


@pytest.mark.parametrize("key", SHEETS)
def test_the_pdf_prints_and_the_typing_page_asks_the_layouts_lines(client, db, key):
    rules = RULESETS[key]
    lines = layout.sheet_lines(rules)
    # the blank sheet: every row of the layout, under the head of the teams, in its order
    words = pdf_words(client.get(f"/rules/{key}/blank.pdf?paper=letter").data)
    rows = squeezed(" ".join(label for _name, label in SHEETS[key]))
    after = "(Round|" + re.escape(rules.title) + ")"  # the next band, or the cheat sheet: no other row
    assert re.search(f"Team {re.escape(rows)} {after}", words), words
    assert re.search(f"Team {re.escape(squeezed(' '.join(printed(line) for line in lines)))} {after}", words)
    # the typing page: the lines a person types, with the same labels, in the same order
    asked = typing_page_lines(client, key)
    assert asked == [(name, label) for name, label in SHEETS[key] if name]
    assert asked == [(line.name, printed(line)) for line in lines if line.typed]
