"""The game's sheet to play on, printed to be read back (issue 55): real PDFs from
WeasyPrint, read back with poppler (pdftotext for the words and where they are, pdftoppm
for the page as a scanner sees it) and zxing-cpp (the QR code, as a phone reads it).

The PDF must draw every box, corner marker and the QR code where ``printing/layout.py``
says: the photo's reader cuts the boxes out at those millimetres."""

import html
import io
import re
import subprocess

import pytest
from PIL import Image

from scorekeeper.printing import layout
from scorekeeper.scoring import RULESETS
from scorekeeper.services import game_model, games
from scorekeeper.services.game_model import SCORES_ONLY
from scorekeeper.storage.db import transaction

from .. import photos

TWO = [("", ["Linda", "Mark"]), ("Sharks", ["Ann", "Bo"])]
SIX = [*TWO, ("", ["Cy", "Di"]), ("", ["Ed", "Flo"]), ("", ["Gus", "Hal"]), ("", ["Ivy", "Jo"])]
LONG = [  # names that take two lines of a row's label, or more than it has
    ("", ["Grandma", "Bartholomew"]),
    ("", ["Maximiliana", "Cy"]),
    ("The Unbeatable Card Sharks of Elm Street", ["Flo", "Gus"]),
    ("Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", ["Hal", "Ivy"]),
    ("", ["Christopher", "Di"]),
    ("", ["Josephine", "Ed"]),
]
DPI = 150
MM = DPI / 25.4  # pixels a millimetre
PT = 25.4 / 72  # millimetres a point
PAGE_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
# the corner markers' top left corners: 10 mm from each edge, 8 mm squares
MARKERS = {
    "letter": [(10, 10), (197.9, 10), (10, 261.4), (197.9, 261.4)],
    "a4": [(10, 10), (192, 10), (10, 279), (192, 279)],
}
TYPING = "http://192.168.1.20:5000/games/1/paper"


@pytest.fixture
def app(app):
    app.config["SHARE_ADDRESS"] = "192.168.1.20"  # the address phones reach the computer at
    app.config["TRUSTED_HOSTS"] = ["localhost", "192.168.1.20"]
    return app


def sheet(client, game, paper="letter", language="en"):
    response = client.get(
        f"/games/{game.id}/blank.pdf?paper={paper}",
        base_url="http://localhost:5000",
        headers={"Accept-Language": language},
    )
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    return response.data


def page_words(pdf):
    """Each page's words, whitespace made single spaces (a label on several lines reads whole)."""
    text = subprocess.run(
        ["pdftotext", "-raw", "-enc", "UTF-8", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    return [" ".join(page.split()) for page in text.split("\f")[:-1]]


def word_boxes(pdf):
    """Each page's words with their boxes in mm from the page's top left: [(word, x0, y0, x1, y1)]."""
    text = subprocess.run(
        ["pdftotext", "-bbox", "-enc", "UTF-8", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    found = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
    return [
        [(html.unescape(w), *(float(n) * PT for n in (a, b, c, d))) for a, b, c, d, w in found.findall(page)]
        for page in text.split("<page ")[1:]
    ]


def drawn(pdf, number):
    """Page ``number`` as a grey picture at 150 dpi (PIL), as a scanner would see it: the
    photo generator's rasterising (poppler's pdftoppm), made grey."""
    return Image.open(io.BytesIO(photos.rasterized(pdf, number, DPI))).convert("L")


def px(mm):
    return round(mm * MM)


def area(picture, x0, y0, x1, y1):
    """The grey levels of a rectangle given in mm."""
    return picture.crop((px(x0), px(y0), px(x1), px(y1))).tobytes()  # a byte a pixel


def new_game(make_game, key, teams):
    return make_game(key, teams=teams, day="2026-11-28")  # a Saturday


# --- what it says ----------------------------------------------------------------------


def test_a_two_team_sheet_says_its_game_the_day_in_words_and_what_to_write(client, make_game):
    game = new_game(make_game, "friends-family", TWO)
    (words,) = page_words(sheet(client, game))
    for said in (
        "Hand and Foot score sheet",
        "page 1 of 1",
        "Saturday 28 November 2026 · Friends & Family online edition · game 1",
        "Teams: Linda & Mark · Sharks (Ann & Bo)",
        "Write one digit a box, the last digit in the last box; a minus in the first box of a sum "
        "below zero; a tick for the team that went out. Please add up the round score and the "
        "running total: they check the sheet when a photo of it is read.",
        "Scan to type the sheet in",
        # the columns' heads, in the sheet's order, turned on their side over a narrow comb
        "Clean (red) books × 500 Dirty (black) books × 300 Melded Left in hand and foot Red 3s caught "
        "Black 3s caught × −5 Went out ✓",
        "Round score",
        "Total",
        # a round's rows: the round, its meld minimum (by round in these rules), each team
        "Round 1 meld 50 Linda & Mark Sharks Round 2 meld 90 Linda & Mark Sharks Round 3 meld 120 "
        "Linda & Mark Sharks Round 4 meld 150 Linda & Mark Sharks",
        # under the rows, where the page has room: the rules in short, as the blank sheet has them
        "Friends & Family online edition. Cards: Jokers 50 · 2s and Aces 20 · 8–K 10 · 4–7 5.",
        "Meld minimum: 50, 90, 120, 150 by round.",
    ):
        assert said in words, said
    assert "Round 5" not in words  # the rules' four rounds


SIX_TEAMS = {  # (language, what the pages say of the game, the page, a round)
    "en": ("Partnership rules (22-card cut)", "page {n} of 2", "Round {r}", "Saturday 28 November 2026"),
    "pt-BR": (
        "Regras de parceria (corte de 22 cartas)",
        "página {n} de 2",
        "Rodada {r}",
        "sábado, 28 de novembro de 2026",
    ),
    "es": (
        "Reglas por parejas (corte de 22 cartas)",
        "página {n} de 2",
        "Mano {r}",
        "sábado, 28 de noviembre de 2026",
    ),
    "it": (
        "Regole a coppie (taglio di 22 carte)",
        "pagina {n} di 2",
        "Smazzata {r}",
        "sabato 28 novembre 2026",
    ),
}


@pytest.mark.parametrize("language", SIX_TEAMS)
def test_six_teams_take_two_pages_each_naming_itself_in_each_language(client, make_game, language):
    game = new_game(make_game, "partnership", SIX)  # open-ended: six rounds, three a page
    title, page, round_words, day = SIX_TEAMS[language]
    pages = page_words(sheet(client, game, "letter", language))
    assert len(pages) == 2
    for n, words in enumerate(pages, start=1):
        assert page.format(n=n) in words and day in words and title in words
        assert "Linda & Mark · Sharks (Ann & Bo) · Cy & Di · Ed & Flo · Gus & Hal · Ivy & Jo" in words
        shown = [r for r in range(1, 8) if re.search(rf"\b{round_words.format(r=r)}\b", words)]
        assert shown == ([1, 2, 3] if n == 1 else [4, 5, 6])
        # each row names its team: six rows a round
        assert words.count("Ivy & Jo") == 1 + 3


def test_a_game_kept_as_its_scores_has_the_sums_alone(client, db):
    with transaction(db):
        game = game_model.load_game(
            db, games.insert_game(db, RULESETS["roth"], "roth", TWO, paper=SCORES_ONLY)
        )
    assert game.scores_only
    pdf = sheet(client, game)
    (words,) = page_words(pdf)
    assert "Round score" in words and "Total" in words
    assert "Melded" not in words and "Went out" not in words and "books" not in words
    assert (
        "Write one digit a box, the last digit in the last box, and a minus in the first box of a "
        "score below zero: each round's score and the running total, which check the sheet when a "
        "photo of it is read."
    ) in words
    geom = layout.geometry(RULESETS["roth"], 2, 6, "letter", scores_only=True)
    assert {box.line.name for box in geom.boxes()} == {"sheet_score", "sheet_total"}
    assert_boxes_drawn(pdf, geom)


def test_rules_with_a_meld_minimum_by_score_print_its_table(client, make_game):
    game = new_game(make_game, "canasta", TWO)
    (words,) = page_words(sheet(client, game))
    # over the rows' labels: the minimum for each team's score
    assert "Meld minimum by score < 0 15 ≥ 0 50 ≥ 1,500 90 ≥ 3,000 120" in words


# --- where it is drawn -------------------------------------------------------------------


def assert_boxes_drawn(pdf, geom, sampled=None):
    """Every page: the corner markers solid black where written down, and a few boxes of
    each page with their lines in LINE_COLOUR at the geometry's millimetres, white inside."""
    for page in geom.pages:
        picture = drawn(pdf, page.number)
        width, height = PAGE_MM[geom.paper]
        assert abs(picture.size[0] - px(width)) <= 1 and abs(picture.size[1] - px(height)) <= 1
        assert [tuple(round(v, 1) for v in at) for at in page.markers] == MARKERS[geom.paper]
        for x, y in MARKERS[geom.paper]:
            inside = area(picture, x + 0.6, y + 0.6, x + 7.4, y + 7.4)
            assert max(inside) < 60, (x, y)  # solid dark
            ring = area(picture, x - 1.6, y - 1.6, x + 9.6, y - 0.6) + area(
                picture, x - 1.6, y + 8.6, x + 9.6, y + 9.6
            )
            assert min(ring) > 240, (x, y)  # and nothing beyond its edges: where it is said to be
        boxes = page.boxes
        for box in sampled(boxes) if sampled else (boxes[0], boxes[len(boxes) // 2], boxes[-1]):
            for x, y, w, h in box.cells():
                assert_cell(picture, x, y, w, h)


def assert_cell(picture, x, y, w, h):
    """A box's four lines where the geometry says (the line's light colour, not black), and
    white inside it and half a millimetre off each line."""
    line_grey = (150, 228)  # LINE_COLOUR, #f0a58c, is grey 185 printed in grey
    middle_y, middle_x = (y + h * 0.4, y + h * 0.6), (x + w * 0.4, x + w * 0.6)
    for edge in (x, x + w):
        column = area(picture, edge - 0.2, middle_y[0], edge + 0.2, middle_y[1])
        assert line_grey[0] <= min(column) <= line_grey[1], (x, y, edge, min(column))
        for off in (edge - 0.6, edge + 0.6):
            assert min(area(picture, off - 0.1, middle_y[0], off + 0.1, middle_y[1])) > 240, (x, y, off)
    for edge in (y, y + h):
        row = area(picture, middle_x[0], edge - 0.2, middle_x[1], edge + 0.2)
        assert line_grey[0] <= min(row) <= line_grey[1], (x, y, edge, min(row))
    assert min(area(picture, x + w * 0.15, y + h * 0.15, x + w * 0.85, y + h * 0.85)) > 245, (x, y)


def test_the_pdf_draws_every_box_where_the_geometry_says(client, make_game):
    game = new_game(make_game, "friends-family", TWO)
    pdf = sheet(client, game, "letter")
    geom = layout.geometry(RULESETS["friends-family"], 2, 4, "letter")
    # the geometry as written down for this sheet: the first box and the last
    first, last = geom.pages[0].boxes[0], geom.pages[0].boxes[-1]
    assert (first.line.name, first.x, first.y, first.cell_h) == ("book_clean", 30.0, 73.0, 12.0)
    assert (last.line.name, last.round, last.team, last.digits, last.sign) == ("sheet_total", 4, 1, 5, True)
    assert last.x + last.width == pytest.approx(205.9)
    # every box of the first round, and a few of the others
    assert_boxes_drawn(pdf, geom, lambda boxes: [b for b in boxes if b.round == 1] + list(boxes[-3:]))


def test_six_teams_on_a4_draw_every_page_where_the_geometry_says(client, make_game):
    game = new_game(make_game, "canasta", SIX)
    pdf = sheet(client, game, "a4")
    geom = layout.geometry(RULESETS["canasta"], 6, 6, "a4")
    assert len(geom.pages) == 2
    assert_boxes_drawn(pdf, geom)


@pytest.mark.parametrize(
    ("key", "teams", "paper", "pages"), [("friends-family", TWO, "a4", 1), ("tablet", SIX, "letter", 2)]
)
def test_each_pages_qr_code_opens_the_typing_page_and_names_the_game_layout_and_page(
    client, make_game, key, teams, paper, pages
):
    import zxingcpp

    game = new_game(make_game, key, teams)
    pdf = sheet(client, game, paper)
    geom = layout.geometry(RULESETS[key], len(teams), RULESETS[key].planned_rounds, paper)
    assert len(geom.pages) == pages
    for page in geom.pages:
        picture = drawn(pdf, page.number)
        (code,) = [found.text for found in zxingcpp.read_barcodes(picture)]
        assert code.startswith(TYPING + "?")  # a phone opens the typing page
        said = layout.read_code(code)
        assert (said.game_id, said.page, said.paper, said.rounds) == (
            1,
            page.number,
            paper,
            5 if key == "tablet" else 4,
        )
        assert said.key == geom.key
        # where the geometry puts it: its quiet zone white, its modules inside its square
        qx, qy = page.qr
        square = area(picture, qx + 2.5, qy + 2.5, qx + layout.QR_SIZE_MM - 2.5, qy + layout.QR_SIZE_MM - 2.5)
        assert min(square) < 60
        ring = area(picture, qx - 1, qy - 1, qx + layout.QR_SIZE_MM + 1, qy + 1.5)
        assert min(ring) > 240


# --- everything fits -------------------------------------------------------------------------


def allowed(geom, page):
    """Where words may be (mm rectangles): the head beside and under the QR code, the
    columns' heads, the rows' labels, the meld minimum's table over the labels."""
    width = geom.size[0]
    top = layout.EDGE_MM + layout.MARKER_MM + 1.0
    rects = [(layout.EDGE_MM, top, width - layout.EDGE_MM, top + layout.HEAD_MM)]
    rects += [(h.x, h.y, h.x + h.width, h.y + h.height) for h in page.heads]
    rects += [(r.x, r.y, r.x + r.width, r.y + r.height) for r in page.rows]
    first_row, last_row = min(r.y for r in page.rows), max(r.y + r.height for r in page.rows)
    rects.append(
        (layout.EDGE_MM, top + layout.HEAD_MM, layout.EDGE_MM + layout.ROW_LABEL_MM - 1.5, first_row)
    )
    # the rules in short under the last row, two millimetres clear of the bottom markers
    rects.append((layout.EDGE_MM, last_row, width - layout.EDGE_MM, geom.size[1] - layout.EDGE_MM - 10))
    return rects


def inside(word, rect, slack=0.4):
    _w, x0, y0, x1, y1 = word
    return x0 >= rect[0] - slack and y0 >= rect[1] - slack and x1 <= rect[2] + slack and y1 <= rect[3] + slack


def overlap(a, b, shrink=0.3):
    return min(a[2], b[2]) - max(a[0], b[0]) > shrink and min(a[3], b[3]) - max(a[1], b[1]) > shrink


FITS = [
    ("partnership", SIX, "letter", 6),  # the longest labels, six teams on two pages
    ("canasta", SIX, "a4", 6),  # the meld minimum's table
    ("friends-family", TWO, "letter", 4),
    ("friends-family", LONG, "letter", 4),  # long names, beside the round's meld minimum
]


@pytest.mark.parametrize("language", ["en", "pt-BR", "es", "it"])
@pytest.mark.parametrize(("key", "teams", "paper", "rounds"), FITS)
def test_every_word_fits_its_place_inside_the_page_in_each_language(
    client, make_game, language, key, teams, paper, rounds
):
    game = new_game(make_game, key, teams)
    pdf = sheet(client, game, paper, language)
    geom = layout.geometry(RULESETS[key], len(teams), rounds, paper)
    pages = word_boxes(pdf)
    assert len(pages) == len(geom.pages)
    for page, words in zip(geom.pages, pages):
        assert words
        rects = allowed(geom, page)
        cells = [(x, y, x + w, y + h) for box in page.boxes for x, y, w, h in box.cells()]
        qx, qy = page.qr
        solid = [(qx, qy, qx + layout.QR_SIZE_MM, qy + layout.QR_SIZE_MM)]
        solid += [(x - 2, y - 2, x + layout.MARKER_MM + 2, y + layout.MARKER_MM + 2) for x, y in page.markers]
        for word in words:
            where = word[1:]
            assert any(inside(word, rect) for rect in rects), (language, page.number, word)
            assert not any(overlap(where, cell) for cell in cells), (language, word)  # the boxes stay clean
            assert not any(overlap(where, rect, 0) for rect in solid), (language, word)
            # text never under 7 pt (a word's box is its line's height: 1.16 of its size)
            if len(word[0]) >= 3:
                assert min(word[3] - word[1], word[4] - word[2]) >= 7 * PT * 1.1, (language, word)
        for i, a in enumerate(words):
            for b in words[i + 1 :]:
                assert not overlap(a[1:], b[1:]), (language, a, b)


# --- on a screen ------------------------------------------------------------------------------


def test_the_sheet_on_a_screen_shows_each_page_as_a_picture_of_the_same_drawing(client, make_game):
    new_game(make_game, "tablet", SIX)  # two pages
    page = client.get("/games/1/blank?paper=a4", base_url="http://localhost:5000").get_data(as_text=True)
    assert (
        "<h1>Score sheet · Linda &amp; Mark vs Sharks vs Cy &amp; Di vs Ed &amp; Flo vs Gus &amp; Hal "
        "vs Ivy &amp; Jo</h1>" in page
    )
    assert 'href="/games/1"' in page and "Back to the game" in page
    assert 'href="/games/1/blank.pdf?paper=letter"' in page and 'href="/games/1/blank.pdf?paper=a4"' in page
    for n in (1, 2):
        assert f'src="/games/1/blank.svg?paper=a4&amp;page={n}"' in page and f'alt="page {n} of 2"' in page
    assert " style=" not in page and "<svg" not in page  # the pages' CSP allows no inline style
    # each picture: the page as the PDF draws it, its names escaped
    response = client.get("/games/1/blank.svg?paper=a4&page=2", base_url="http://localhost:5000")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    assert svg.startswith(
        '<svg class="readable-page" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 210.0 297.0"'
    )
    assert "page 2 of 2" in svg and "Round 4" in svg and "Round 1<" not in svg
    assert "Linda &amp; Mark" in svg and "Linda & Mark" not in svg
    assert "/games/1/paper?rounds=5&amp;paper=a4&amp;sheet=" in svg  # the QR code's title
    for bad in ("page=3", "page=0", "page=x", "page=%F0%9F%83%8F", "page=1" + "0" * 40):
        assert client.get(f"/games/1/blank.svg?{bad}").status_code == 404, bad
    assert client.get("/games/99/blank").status_code == 404
    assert client.get("/games/99/blank.svg").status_code == 404
