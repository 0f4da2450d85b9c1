"""The yearbook (issue 58): the family's year printed at /years/<year>/book.pdf, drawn in the
background. Real PDFs from WeasyPrint, read back with poppler's pdftotext (the words, and
where each sits on its page), and the laid-out boxes walked as the pictures' tests walk
them (every line inside its page and its box)."""

import datetime
import html
import re
import subprocess

import pytest

from scorekeeper import create_app
from scorekeeper.exchange import demo
from scorekeeper.printing import yearbook
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import colours, evenings, game_model, games, players
from scorekeeper.services import yearbook as book_data
from scorekeeper.storage.db import connect, transaction

from ..helpers import DEEP, at_home, built_once, text
from ..httpkit import migrated

PT = 25.4 / 72  # millimetres a point
PAGE_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
PRINTER_EDGE = 5  # mm: what a home printer leaves blank at each edge; no word may sit there


def clean(*melded_with_books):
    """A round of canasta: each team's melded points and its clean canastas."""
    return [
        TeamRound(books={"clean": books} if books else {}, melded_points=m) for m, books in melded_with_books
    ]


ANN_BO, CY_DI = ("", ["Ann", "Bo"]), ("", ["Cy", "Di"])
SHARKS = "The Unbeatable Card Sharks of Elm Street"  # a team's name longer than its cell
# The year 2026, under Canasta's rules (totals: the melded points, 500 more a clean canasta):
# - Friday 9 January: Cy & Di 1,200 beat Ann & Bo 900, behind by 200 after round 1 (the
#   year's only comeback); Ann & Bo 1,000 (a clean canasta) beat Cy & Di 300
# - Saturday 14 February: Ann & Bo and Cy & Di tie at 600; Ann 700 beats Bo 200
# - Friday 20 March: Eve & Ann (the Sharks) 350 beat Cy & Di 150 (Eve's only game)
YEAR = [
    ("2026-01-09", [ANN_BO, CY_DI], [clean((500, 0), (300, 0)), clean((400, 0), (900, 0))]),
    ("2026-01-09", [ANN_BO, CY_DI], [clean((500, 1), (300, 0))]),
    ("2026-02-14", [ANN_BO, CY_DI], [clean((600, 0), (600, 0))]),
    ("2026-02-14", [("", ["Ann"]), ("", ["Bo"])], [clean((700, 0), (200, 0))]),
    ("2026-03-20", [(SHARKS, ["Eve", "Ann"]), CY_DI], [clean((350, 0), (150, 0))]),
    # a year of one game: a tie
    ("2025-06-06", [ANN_BO, CY_DI], [clean((400, 0), (400, 0))]),
]


def play(db, key, day, teams, rounds):
    when = evenings.stored(datetime.date.fromisoformat(day), datetime.time(19, 30))
    with transaction(db):
        game_id = games.insert_game(db, RULESETS[key], key, list(teams), created_at=when)
    game = game_model.load_game(db, game_id)
    for number, entries in enumerate(rounds, start=1):
        game = games.add_round(db, game.id, game.revision, number, entries)
    return games.end_game(db, game.id, game.revision)


@pytest.fixture(scope="module")
def family(tmp_path_factory):
    """The app on the family's 2025 and 2026 (``YEAR``), built once for the module's tests,
    which only read it: each test asks for a book in its own words."""
    folder = tmp_path_factory.mktemp("yearbook")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCOREKEEPER_INSTANCE_PATH", str(folder / "instance"))
        patch.delenv("SCOREKEEPER_DATABASE", raising=False)
        database = str(migrated(folder / "family.db"))
        app = create_app({"TESTING": True, "DATABASE": database, "HOUSEHOLD_NAME": "The Smiths"})
    db = connect(app.config["DATABASE"])
    try:
        for day, teams, rounds in YEAR:
            play(db, "canasta", day, teams, rounds)
    finally:
        db.close()
    yearbook.clear_cache()
    return app


def book(app, year, language="en", paper="letter"):
    """The year's book as a phone in ``language`` asks for it: the page saying it is being
    drawn first (or the book, when drawn already), then the book once the worker has drawn it."""
    client = at_home(app.test_client(), app)
    url = f"/years/{year}/book.pdf?paper={paper}"
    response = client.get(url, headers={"Accept-Language": language})
    if response.status_code == 202:
        assert yearbook.wait(60)
        response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return response.data


def pages_read(pdf):
    """Each page's words, whitespace made single spaces."""
    words = subprocess.run(
        ["pdftotext", "-raw", "-enc", "UTF-8", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    return [" ".join(page.split()) for page in words.split("\f")[:-1]]


def words_off_the_printable_page(pdf, paper):
    """The words (pdftotext -bbox) that sit outside their page less a home printer's edge."""
    boxes = subprocess.run(
        ["pdftotext", "-bbox", "-enc", "UTF-8", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    width, height = PAGE_MM[paper]
    found = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
    off = []
    for number, page in enumerate(boxes.split("<page ")[1:], start=1):
        size = re.match(r'width="([\d.]+)" height="([\d.]+)"', page)
        assert abs(float(size[1]) * PT - width) < 0.5 and abs(float(size[2]) * PT - height) < 0.5, paper
        for a, b, c, d, word in found.findall(page):
            x0, y0, x1, y1 = (float(n) * PT for n in (a, b, c, d))
            if (
                x0 < PRINTER_EDGE
                or y0 < PRINTER_EDGE
                or x1 > width - PRINTER_EDGE
                or y1 > height - PRINTER_EDGE
            ):
                off.append((number, html.unescape(word), round(x0), round(y0)))
    return off


def lines_out_of_their_boxes(app, year, language, paper):
    """Every line of text of the book as WeasyPrint lays it out, inside its page and inside
    its box (a framed part or a table's cell): the problems found."""
    from weasyprint.formatting_structure import boxes

    db = connect(app.config["DATABASE"])
    try:
        with app.test_request_context("/", headers={"Accept-Language": language}):
            shown = book_data.yearbook(db, year)
            drawn = colours.player_colours(db)
            document = yearbook.document(yearbook.book_html(shown, paper, "The Smiths", drawn))
    finally:
        db.close()
    problems = []

    def inside(box, area, what):
        left, top, width, height = area
        right, bottom = box.position_x + box.width, box.position_y + box.height
        if box.position_x < left - 0.5 or right > left + width + 0.5:
            problems.append(f"{box.text!r} sideways out of {what}")
        if box.position_y < top - 0.5 or bottom > top + height + 0.5:
            problems.append(f"{box.text!r} above or below {what}")

    def walk(box, page, frame):
        if isinstance(box, boxes.TextBox) and box.text.strip():
            # the whole sheet (its margins hold the page numbers; the printer's edge is
            # words_off_the_printable_page's), then the box's border box
            inside(
                box, (page.position_x, page.position_y, page.margin_width(), page.margin_height()), "its page"
            )
            if frame is not None:
                area = (
                    frame.border_box_x(),
                    frame.border_box_y(),
                    frame.border_width(),
                    frame.border_height(),
                )
                inside(box, area, "its box")
        element = box.element
        framed = element is not None and (
            element.tag in ("td", "th") or "box" in (element.get("class") or "").split()
        )
        if framed and isinstance(box, boxes.BlockContainerBox):
            frame = box
        for child in getattr(box, "children", ()):
            walk(child, page, frame)

    for page in document.pages:
        walk(page._page_box, page._page_box, None)
    return problems


SAID = {
    "en": [
        "2026 The Smiths Canasta Games 5 Game nights 3 Players 5",
        "The game of the year Cy & Di were 200 points behind after round 1 and won on Friday 9 "
        "January 2026: the comeback of the year.",
        "Ann Games 5 Won 4 Win rate 80% likely 23% to 98% Game nights 3 Longest winning run 4 games "
        "Best round 1,000 2026-01-09 Best partner Bo 2 of 3 won together Toughest opponent Cy 1 of 4 "
        "lost to them",
        "Holds a record of the year: Best round, 1,000 (Canasta (classic)).",
        "Rating through the year",
        "Also at the table Eve played one game and won it.",
        "Highest game total 1,200 Cy & Di",
        "Most canastas in a round 1 canasta Ann & Bo",
        "Biggest comeback 200 Cy & Di",
        # each night, who won most (the tie a win for every tied team) and its best round
        "2026-01-09 2 Ann, Bo, Cy, Di (1) 1,000 · Ann & Bo 2026-02-14 2 Ann (2) 700 · Ann "
        f"2026-03-20 1 Ann, Eve (1) 350 · {SHARKS}",
        # the surest share won first: 1 in 1 counts above 2 in 4 (services/ratings.sure_share)
        "Partners Games Won Rate Ann & Bo 3 2 67% Ann & Eve 1 1 100% Cy & Di 4 2 50%",
        "Head to head Each row’s games won – lost against each column’s. Ann Bo Cy Di Ann 1–0 2–1 2–1 "
        "Bo 0–1 1–1 1–1 Cy 1–2 1–1 · Di 1–2 1–1 ·",
        "Games per month",
        "Month Games January 2026 2 February 2026 2 March 2026 1",
        "Games per month",
    ],
    "pt_BR": [
        "2026 The Smiths Canastra Partidas 5 Noites de jogo 3 Jogadores 5",  # the game's own word
        # a pair's verb agrees with "a equipe"; a weekday takes no "em" ("na sexta-feira")
        "A partida do ano A equipe Cy & Di estava 200 pontos atrás depois da rodada 1 e venceu "
        "(sexta-feira, 9 de janeiro de 2026): a virada do ano.",
        "Maior sequência de vitórias",
        "Mais canastras numa rodada 1 canastra Ann & Bo",
        "Também à mesa Eve jogou uma partida e venceu.",
    ],
    "es": [
        "La partida del año El equipo Cy & Di iba 200 puntos por detrás tras la mano 1 y ganó el viernes, 9 "
        "de enero de 2026: la remontada del año.",
        "Racha de victorias más larga",
        "Más canastas en una mano 1 canasta Ann & Bo",
        "También en la mesa Eve jugó una partida y la ganó.",
    ],
    "it": [
        "La partita dell’anno La squadra Cy & Di era sotto di 200 punti dopo la smazzata 1 e ha vinto "
        "venerdì 9 gennaio 2026: la rimonta dell’anno.",
        "Serie di vittorie più lunga",
        "Più canaste in una smazzata 1 canasta Ann & Bo",
        "Anche al tavolo Eve ha giocato una partita e l’ha vinta.",
    ],
}


@pytest.mark.long  # a book in each language, laid out twice (read back, then walked): 1 to 2 s each
@pytest.mark.parametrize(
    ("language", "paper"), [("en", "letter"), ("pt_BR", "a4"), ("es", "letter"), ("it", "a4")]
)
def test_the_year_in_each_language_on_its_paper(family, language, paper):
    pdf = book(family, 2026, language, paper)
    pages = pages_read(pdf)
    whole = " ".join(pages)
    for said in SAID[language]:
        assert said in whole, (said, whole)
    # a page for each of the four who played more than once, none for Eve, in the order of
    # most games: the cover, Ann, Bo, Cy, Di, then the records
    assert [page.split(" ")[0] for page in pages[1:5]] == ["Ann", "Bo", "Cy", "Di"]
    assert not any(page.startswith("Eve") for page in pages)
    assert words_off_the_printable_page(pdf, paper) == []
    assert lines_out_of_their_boxes(family, 2026, language, paper) == []


@pytest.mark.long  # a book drawn, then laid out again to walk its boxes: a second or two
def test_a_year_of_one_game_a_tie(family):
    pdf = book(family, 2025)
    pages = pages_read(pdf)
    whole = " ".join(pages)
    assert "Games 1 Game nights 1 Players 4" in whole
    assert "Ann & Bo and Cy & Di tied at 400 on Friday 6 June 2025: the closest finish of the year." in whole
    # one game each: four short entries, no page of zeros
    assert "Also at the table Ann played one game and won it. Bo played one game and won it." in whole
    assert "Longest winning run" not in pages[1]
    assert len(pages) <= 6, len(pages)
    assert words_off_the_printable_page(pdf, "letter") == []
    assert lines_out_of_their_boxes(family, 2025, "en", "letter") == []


@pytest.mark.long  # two books drawn (A4, then Letter): a second or two
def test_asked_twice_drawn_once_then_cached_until_the_year_changes(family):
    client = at_home(family.test_client(), family)
    yearbook.clear_cache()
    first = client.get("/years/2026/book.pdf?paper=a4")
    second = client.get("/years/2026/book.pdf?paper=a4")
    assert (first.status_code, second.status_code) in ((202, 202), (202, 200))
    page = text(first)
    assert "The 2026 yearbook" in page and re.search(r"Drawing the yearbook: step [123] of 3\.", page)
    assert '<meta http-equiv="refresh" content="2">' in page  # without JavaScript too
    assert first.headers["Cache-Control"] == "no-store"
    drawn = yearbook.drawn_count()
    assert yearbook.wait(60)
    assert yearbook.drawn_count() - drawn <= 1  # the second ask queued nothing
    made = client.get("/years/2026/book.pdf?paper=a4")
    assert made.status_code == 200
    assert client.get("/years/2026/book.pdf?paper=a4").data == made.data
    assert yearbook.drawn_count() - drawn <= 1
    # another paper is another book
    assert client.get("/years/2026/book.pdf?paper=letter").status_code in (200, 202)
    assert yearbook.wait(60)


@pytest.mark.long  # a book drawn: about a second
def test_last_years_book_is_drawn_when_the_year_has_ended(family):
    db = connect(family.config["DATABASE"])
    try:
        assert yearbook.at_new_year(family, "2026-12-31", db) is None  # not yet
        assert yearbook.at_new_year(family, "2025-01-02", db) is None  # 2024: no game
        drawn = yearbook.at_new_year(family, "2027-01-02", db)
    finally:
        db.close()
    # the household's paper, and its language (each phone its own here: English)
    assert (drawn.year, drawn.language, drawn.paper, drawn.household) == (2026, "en", "letter", "The Smiths")
    assert yearbook.wait(60)
    assert yearbook.cached(drawn).startswith(b"%PDF")
    # the first phone to ask for it finds it made
    client = at_home(family.test_client(), family)
    response = client.get("/years/2026/book.pdf", headers={"Accept-Language": "en"})
    assert response.status_code == 200 and response.data == yearbook.cached(drawn)


def test_a_changed_year_is_another_book(db, make_game):
    """The key of a year's book: the same while nothing it shows changes, another after a
    game of that year is played, or a player renamed; a game of another year leaves it."""
    make_game(
        "roth", [[TeamRound(melded_points=500), TeamRound(melded_points=300)]], day="2026-05-01", end=True
    )
    before = book_data.key(db, 2026)
    assert book_data.key(db, 2026) == before
    make_game(
        "roth", [[TeamRound(melded_points=100), TeamRound(melded_points=300)]], day="2025-05-02", end=True
    )
    assert book_data.key(db, 2026) == before
    make_game(
        "roth", [[TeamRound(melded_points=100), TeamRound(melded_points=300)]], day="2026-05-02", end=True
    )
    after = book_data.key(db, 2026)
    assert after != before
    # the year's months run on while it lasts; once it is over, they are what they were
    assert book_data.key(db, 2026, "2026-12-01") != book_data.key(db, 2026, "2026-11-30")
    assert book_data.key(db, 2026, "2027-03-01") == book_data.key(db, 2026, "2027-01-01")
    (ann,) = db.execute("SELECT id FROM players WHERE name = 'Ann'").fetchone()
    (revision,) = db.execute("SELECT revision FROM players WHERE id = ?", [ann]).fetchone()
    players.rename_player(db, ann, revision, "Annie")
    assert book_data.key(db, 2026) != after


def test_no_book_of_a_year_without_games(client):
    assert client.get("/years/2019/book.pdf").status_code == 404
    assert client.get("/years/0/book.pdf").status_code == 404


def many_nights(folder, count, days):
    """A database of ``count`` generated games over ``days`` days of 2026: (path,)."""
    path = migrated(folder / "nights.db")
    db = connect(str(path))
    try:
        now = datetime.datetime(2026, 12, 20, 22, 0, tzinfo=datetime.UTC)
        demo.generate(db, count, seed=58, now=now, span=datetime.timedelta(days=days))
    finally:
        db.close()
    return [str(path)]


def app_on(path, instance):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCOREKEEPER_INSTANCE_PATH", str(instance))
        patch.delenv("SCOREKEEPER_DATABASE", raising=False)
        return create_app({"TESTING": True, "DATABASE": path})


@pytest.mark.long  # 160 games generated, and their book drawn: 2 to 3 s (24 s on a loaded machine)
@pytest.mark.timeout(180)
def test_more_nights_than_listed_are_told_by_month(tmp_path_factory, tmp_path):
    (path,) = built_once(tmp_path_factory, "yearbook-nights", lambda folder: many_nights(folder, 160, 165))
    app = app_on(path, tmp_path / "instance")
    db = connect(path)
    try:
        (nights,) = db.execute("SELECT count(*) FROM nights WHERE night >= '2026'").fetchone()
    finally:
        db.close()
    assert nights > book_data.NIGHTS_LISTED  # what this test is for
    whole = " ".join(pages_read(book(app, 2026)))
    assert "More than 60 nights: each month in a line." in whole
    assert "Month Nights Games Most nights won Best round" in whole
    assert "September 2026" in whole and "December 2026" in whole
    assert "Night Games Most wins Best round" not in whole


@pytest.mark.deep  # 2,000 games generated (15 s) and their book drawn (5 s): make test-deep
@pytest.mark.skipif(not DEEP, reason="2,000 games: make test-deep")
@pytest.mark.timeout(300)
def test_a_year_of_two_thousand_games_prints_in_pages_a_family_reads(tmp_path_factory, tmp_path):
    (path,) = built_once(tmp_path_factory, "yearbook-2000", lambda folder: many_nights(folder, 2_000, 350))
    app = app_on(path, tmp_path / "instance")
    pdf = book(app, 2026, paper="a4")
    pages = pages_read(pdf)
    assert len(pages) <= 30, len(pages)
    assert "More than 60 nights: each month in a line." in " ".join(pages)
    assert words_off_the_printable_page(pdf, "a4") == []


@pytest.mark.long  # a book drawn: about a second
def test_a_burraco_familys_book_says_burrachi(app, db, make_game):
    """A Burraco family reads its year in its own words: burrachi, never canaste."""
    won = [TeamRound(books={"clean": 2}, melded_points=900), TeamRound(books={"dirty": 1}, melded_points=300)]
    make_game("burraco", [won], day="2026-05-01", end=True)
    yearbook.clear_cache()
    words = " ".join(pages_read(book(app, 2026, "it")))
    assert "Più burrachi in una smazzata 2 burrachi Ann & Bo" in words
    assert "canast" not in words.casefold()
