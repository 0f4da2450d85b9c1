"""Where every box of a readable sheet is (``printing/layout.geometry``, issue 55): the
PDF draws them there and the reader cuts them out there, so the geometry itself must
keep every box on its page, apart from the others and from the corner markers and the
QR code, big enough for a pen, and its key must change with what the boxes mean."""

import itertools

import pytest

from scorekeeper.printing import layout
from scorekeeper.scoring import RULESETS

PAPERS = ("a4", "letter")


def _overlap(a, b):
    (ax, ay, aw, ah), (bx, by, bw, bh) = a, b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("key", ["friends-family", "partnership", "roth", "canasta", "bolivia", "buraco"])
@pytest.mark.parametrize(("teams", "rounds"), [(2, 3), (3, 5), (4, 6), (6, 12)])
def test_every_box_is_on_its_page_apart_from_the_others_and_big_enough_for_a_pen(paper, key, teams, rounds):
    geom = layout.geometry(RULESETS[key], teams, rounds, paper)
    width, height = layout.PAGE_MM[paper]
    seen = []
    for page in geom.pages:
        taken = [(x, y, layout.MARKER_MM, layout.MARKER_MM) for x, y in page.markers]
        taken.append((*page.qr, layout.QR_SIZE_MM, layout.QR_SIZE_MM))
        combs = [(b.x, b.y, b.width, b.cell_h) for b in page.boxes]
        for box, rect in zip(page.boxes, combs):
            x, y, w, h = rect
            # inside the four markers' frame, below the head
            assert x >= layout.EDGE_MM and x + w <= width - layout.EDGE_MM
            assert page.qr[1] + layout.QR_SIZE_MM < y and y + h <= height - layout.EDGE_MM - layout.MARKER_MM
            assert box.cell_h >= 8.0 and box.cell_w >= 5.0
            assert not any(_overlap(rect, other) for other in taken)
        for a, b in itertools.combinations(combs, 2):
            assert not _overlap(a, b)
        seen += [(b.round, b.team, b.name) for b in page.boxes]
    lines = [line.name for line in layout.readable_lines(RULESETS[key])]
    # each round, team and line once, in round order across the pages
    assert sorted(seen) == sorted(itertools.product(range(1, rounds + 1), range(teams), lines))
    assert len(seen) == len(set(seen))


# (rule set, teams, rounds): pages on A4, and a team's rows in a round
PAGES = [
    ("friends-family", 2, 4, 1, 1),
    ("friends-family", 4, 4, 1, 1),
    ("friends-family", 4, 6, 2, 1),
    ("friends-family", 6, 12, 4, 1),
    ("bolivia", 2, 4, 1, 1),  # 15 lines: 29 digit boxes across at 5.1 mm
]


@pytest.mark.parametrize(("key", "teams", "rounds", "pages", "parts"), PAGES)
def test_a_game_takes_the_pages_its_rounds_need(key, teams, rounds, pages, parts):
    geom = layout.geometry(RULESETS[key], teams, rounds, "a4")
    assert len(geom.pages) == pages
    assert {row.part for page in geom.pages for row in page.rows} == set(range(parts))
    assert [page.number for page in geom.pages] == list(range(1, pages + 1))


def test_a_number_has_the_boxes_the_sheet_asks_for():
    geom = layout.geometry(RULESETS["friends-family"], 2, 4, "a4")
    combs = {b.name: (b.digits, b.sign) for b in geom.pages[0].boxes if b.round == 1 and b.team == 0}
    assert combs == {
        "book_clean": (1, False),
        "book_dirty": (1, False),
        "melded_points": (4, False),
        "unplayed_points": (4, False),
        "red_threes": (1, False),
        "black_threes": (1, False),
        "went_out": (1, False),  # a tick box
        "sheet_score": (5, True),  # five digits and a minus
        "sheet_total": (5, True),
    }
    scores_only = layout.geometry(RULESETS["friends-family"], 2, 4, "a4", scores_only=True)
    assert {b.name for b in scores_only.boxes()} == {"sheet_score", "sheet_total"}


def test_the_rows_fill_the_page():
    """Four rounds of two teams reach past the page's middle: the boxes grow, the rounds spread."""
    geom = layout.geometry(RULESETS["friends-family"], 2, 4, "a4")
    bottom = max(b.y + b.cell_h for b in geom.boxes())
    assert bottom > 0.7 * 297
    assert {b.cell_h for b in geom.boxes()} == {12.0}


def test_the_key_changes_with_what_the_boxes_are():
    rules = RULESETS["friends-family"]
    key = layout.geometry(rules, 2, 4, "a4").key
    assert key == layout.geometry(rules, 2, 4, "a4").key
    others = {
        layout.geometry(rules, 3, 4, "a4").key,
        layout.geometry(rules, 2, 5, "a4").key,
        layout.geometry(rules, 2, 4, "letter").key,
        layout.geometry(rules, 2, 4, "a4", scores_only=True).key,
        layout.geometry(RULESETS["partnership"], 2, 4, "a4").key,
    }
    assert key not in others and len(others) == 5


def test_the_qr_code_names_the_game_the_layout_and_the_page():
    geom = layout.geometry(RULESETS["friends-family"], 6, 12, "letter")
    query = layout.code_query(geom, 3)
    assert query == {"rounds": 12, "paper": "letter", "sheet": geom.key, "page": 3}
    text = f"http://kitchen.local:5000/games/41/paper?rounds=12&paper=letter&sheet={geom.key}&page=3"
    assert layout.read_code(text) == layout.SheetCode(41, geom.key, 3, "letter", 12)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        # not the typing page
        "http://kitchen.local:5000/games/41/blank?rounds=12&paper=a4&sheet=abcdef12&page=1",
        "http://kitchen.local:5000/games/41/paper",  # no layout
        "http://kitchen.local:5000/games/41/paper?rounds=12&paper=a3&sheet=abcdef12&page=1",  # no such paper
        "http://kitchen.local:5000/games/x/paper?rounds=12&paper=a4&sheet=abcdef12&page=1",
        "http://kitchen.local:5000/games/41/paper?rounds=0&paper=a4&sheet=abcdef12&page=1",
        "http://kitchen.local:5000/games/41/paper?rounds=2&paper=a4&sheet=abc&page=1",
        "http://kitchen.local:5000/games/41/paper?rounds=2&paper=a4&sheet=abcdef12&page=-1",
    ],
)
def test_a_code_that_is_not_a_sheets_is_none(text):
    assert layout.read_code(text) is None
