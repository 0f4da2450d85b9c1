"""A result as a picture for the family chat (issue 46, printing/pictures.py): drawn from
its HTML by WeasyPrint and pypdfium2, its text read back from the PDF before the pixels,
served with an ETag, behind the passcode but through a game's own share link, and named
by the share page for a chat's link preview. (About 0.3 s a picture: each is laid out
by WeasyPrint.)"""

import io
import re

import pytest
from PIL import Image
from pypdf import PdfReader

from scorekeeper.printing import pictures
from scorekeeper.scoring import TeamRound
from scorekeeper.services import game_model, games
from scorekeeper.web import passcode

from ..helpers import text
from .test_passcode import SECRET, sign_in


def rounds_of(*melded):
    return [[TeamRound(melded_points=m) for m in scores] for scores in melded]


def laid_out_whole(html):
    """Every line of text of the picture as WeasyPrint lays it out (what the PNG shows):
    on its one page, inside the picture, and inside its team's card; the problems found."""
    from weasyprint.formatting_structure import boxes

    document = pictures.STYLED.document(html)
    problems = [] if len(document.pages) == 1 else [f"{len(document.pages)} pages"]
    page = document.pages[0]._page_box

    def inside(box, outer, what):
        right, bottom = box.position_x + box.width, box.position_y + box.height
        left, top = outer.position_x, outer.position_y
        if box.position_x < left - 0.5 or right > left + outer.border_width() + 0.5:
            problems.append(f"{box.text!r} sideways out of {what}")
        if bottom > top + outer.border_height() + 0.5:
            problems.append(f"{box.text!r} below {what}")

    def walk(box, card):
        if isinstance(box, boxes.TextBox) and box.text.strip():
            inside(box, page, "the picture")
            if card is not None:
                inside(box, card, "its card")
        element_classes = (box.element.get("class") or "").split() if box.element is not None else []
        if "team" in element_classes and isinstance(box, boxes.BlockContainerBox):
            card = box
        for child in getattr(box, "children", ()):
            walk(child, card)

    walk(page, None)
    return problems


def pixels(png):
    image = Image.open(io.BytesIO(png))
    return image.size, image.convert("RGB").tobytes()


def read_back(app, game, told=None):
    """(the picture's text, as its PDF holds it; the PNG's bytes), ``told`` told on it.
    The words are read from the PDF the served PNG is drawn from: that PDF drawn again is
    the very picture, pixel for pixel."""
    with app.app_context():
        html = pictures.game_picture_html(game, told)
        png = pictures.game_picture(game, told).png
    assert laid_out_whole(html) == []
    pdf = pictures.pdf_of(html)
    assert pixels(pictures.png_from_pdf(pdf)) == pixels(png), "the words read are not the picture's"
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1, "a picture is one page"
    return " ".join(reader.pages[0].extract_text().split()), png


TEAMS = {
    2: (("", ["Ann", "Bo"]), ("", ["Cy", "Di"])),
    3: (("Reds", ["Ann"]), ("Blues", ["Bo"]), ("Greens", ["Cy"])),
    6: tuple((f"Table {n}", [f"P{n}a", f"P{n}b"]) for n in range(1, 7)),
}


@pytest.mark.parametrize(
    "teams, melded, said",
    [
        (2, [(150, 60), (90, 40)], "Ann & Bo win with 240!"),
        (3, [(100, 300, 50)], "Blues wins with 300!"),
        (2, [(150, 60), (60, 150)], "A tie at 210: Ann & Bo and Cy & Di"),
        (6, [(10, 20, 30, 40, 50, 1060)], "Table 6 win with 1,060!"),
    ],
    ids=["two teams", "three teams", "a tie", "six teams"],
)
def test_a_finished_games_picture_says_the_winner_the_totals_and_the_date(
    app, make_game, teams, melded, said
):
    game = make_game("partnership", rounds_of(*melded), teams=TEAMS[teams], day="2026-11-26", end=True)
    words, png = read_back(app, game)
    assert said in words
    assert "Thursday 26 November 2026" in words
    assert f"{len(melded)} round{'s' if len(melded) > 1 else ''}" in words
    for team, total in zip(game.teams, game.standings.totals):
        assert team.name in words
        assert f"{total:,}" in words
    best = max(max(r) for r in melded)
    assert re.search(rf"Best round: .+, \+{best:,} in round \d", words)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (1200, 630)
    assert len(png) <= 300 * 1024


LONG = ["Grandma Josephine", "Bartholomew", "Maximiliana", "Christopher"]
HARD = {
    "four teams of five-digit totals": (
        tuple(("", [a, b]) for a, b in (("Ann", "Bo"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal"))),
        [(12_000, 12_200, 12_400, 12_600)],
    ),
    "four teams of long names": (
        tuple(("", [LONG[n], LONG[(n + 1) % 4]]) for n in range(4)),
        [(1_000, 1_500, 2_000, 1_200)],
    ),
    "a tie of four long names": ((("", LONG[:2]), ("", LONG[2:])), [(100, 60), (60, 100)]),
    "a six-way tie of long names": (
        tuple((f"{LONG[n % 4]} {n}", [LONG[n % 4], LONG[(n + 1) % 4]]) for n in range(6)),
        [(100,) * 6],
    ),
    "a name of forty letters": ((("", ["A" * 40]), ("", ["Bo"])), [(60, 1_234)]),
}


@pytest.mark.parametrize("case", list(HARD))
def test_hard_cases_are_laid_out_whole_on_one_page(app, make_game, case):
    """Laid out by WeasyPrint itself (what the PNG shows): every line of text on the one
    page, inside the picture and inside its card; a review found a four-team game's
    winner's card cut off, and a six-way tie on a second page that the PNG dropped."""
    teams, melded = HARD[case]
    game = make_game("partnership", rounds_of(*melded), teams=teams, end=True)
    with app.app_context():
        html = pictures.game_picture_html(game)
    assert laid_out_whole(html) == []


def test_the_picture_is_served_with_its_etag_and_drawn_again_once_the_game_changes(client, db, make_game):
    game = make_game("partnership", rounds_of((150, 60)), end=True)
    first = client.get(f"/games/{game.id}/picture.png")
    assert first.status_code == 200 and first.mimetype == "image/png"
    etag = first.headers["ETag"]
    assert client.get(f"/games/{game.id}/picture.png", headers={"If-None-Match": etag}).status_code == 304
    # reopened and a round fixed: another picture
    game = games.reopen_game(db, game.id, game.revision)
    game = games.update_round(db, game.id, game.revision, game.rounds[0].id, rounds_of((500, 60))[0])
    game = games.end_game(db, game.id, game.revision)
    again = client.get(f"/games/{game.id}/picture.png", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.headers["ETag"] != etag
    page = text(client.get(f"/games/{game.id}"))
    assert "Share the picture" in page and f"/games/{game.id}/picture.png" in page


def test_a_game_not_finished_or_ended_with_no_round_has_no_picture(client, make_game):
    game = make_game("partnership", rounds_of((150, 60)))
    assert client.get(f"/games/{game.id}/picture.png").status_code == 404
    assert "Share the picture" not in text(client.get(f"/games/{game.id}"))
    empty = make_game("partnership", [], end=True)  # ended before any round: nothing to show
    assert client.get(f"/games/{empty.id}/picture.png").status_code == 404
    page = text(client.get(f"/games/{empty.id}"))
    assert "Share the picture" not in page and "Send to BG Stats" not in page


def test_a_picture_in_the_cache_never_waits_for_one_being_drawn(app, make_game):
    """A review found every picture asked for waiting on any other being drawn."""
    game = make_game("partnership", rounds_of((150, 60)), end=True)
    with app.app_context():
        first = pictures.game_picture(game)
        with pictures._drawing:  # another picture being drawn, as long as this test holds it
            assert pictures.game_picture(game) is first


def test_the_share_link_names_its_picture_which_opens_without_the_passcode_and_nothing_else(
    app, client, db, make_game
):
    game = make_game("partnership", rounds_of((150, 60)), end=True)
    game = games.share_game(db, game.id, game.revision)
    token = game_model.load_game(db, game.id).share_token
    passcode.set_passcode(app.instance_path, SECRET)
    page = client.get(f"/s/{token}")
    assert page.status_code == 200
    image = re.search(r'<meta property="og:image" content="([^"]+)">', page.text)
    assert image and image[1].endswith(f"/s/{token}/picture.png")
    assert '<meta name="twitter:card" content="summary_large_image">' in page.text
    shared = client.get(f"/s/{token}/picture.png")
    assert shared.status_code == 200 and shared.mimetype == "image/png"
    # the same picture under /games/ asks for the passcode; a wrong link shows nothing
    locked = client.get(f"/games/{game.id}/picture.png")
    assert locked.status_code in (302, 303) and "sign-in" in locked.headers["Location"]
    assert client.get("/s/not-a-link/picture.png").status_code == 404
    sign_in(client)
    assert client.get(f"/games/{game.id}/picture.png").data == shared.data


def test_an_evening_of_three_tables_as_a_picture_its_standings_and_best_round(app, db):
    """Twelve at three tables, each game played and ended: the night's picture holds its
    standings in their order and its best round; its share link names it and opens it
    without the passcode."""
    from scorekeeper.services import evening_tables
    from scorekeeper.web.formatting import night as night_name

    from ..httpkit import FlaskPhone
    from .test_evenings import TWELVE, evening_games, propose, start

    phone = FlaskPhone(app)
    night = start(phone, propose(phone, TWELVE))
    ids = evening_games(app.config["DATABASE"], night)
    assert len(ids) == 3
    assert phone.get(f"/evenings/{night}/picture.png").status == 404  # no game ended yet
    for n, game_id in enumerate(ids):
        game = game_model.load_game(db, game_id)
        game = games.add_round(db, game.id, game.revision, 1, rounds_of((100 + 50 * n, 60))[0])
        games.end_game(db, game.id, game.revision)
    evening = evening_tables.load_evening(db, night)
    with app.app_context():
        picture = pictures.evening_picture(evening)
        html = pictures.evening_picture_html(evening)
    pdf = pictures.pdf_of(html)
    assert pixels(pictures.png_from_pdf(pdf)) == pixels(picture.png), "the words read are not the picture's"
    words = " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())
    assert f"The evening of {night_name(night)}" in words and "3 games at 3 tables" in words
    order = [row.name for row in evening.standings[:8]]
    assert [words.index(name) for name in order] == sorted(words.index(name) for name in order)
    assert re.search(r"Best round: .+, \+\d+ in round 1\.", words)
    image = Image.open(io.BytesIO(picture.png))
    assert image.size == (1200, 630) and len(picture.png) <= 300 * 1024

    page = phone.get(f"/evenings/{night}").text
    assert f'href="/evenings/{night}/picture.png"' in page and "Share the picture" in page
    link = re.search(r'class="share-link"><a href="http://[^/]+(/e/[^"]+)"', page)[1]
    passcode.set_passcode(app.instance_path, SECRET)
    guest = FlaskPhone(app, at_home=False)
    shared = guest.get(link)
    image_url = re.search(r'<meta property="og:image" content="http://[^/]+([^"]+)">', shared.text)[1]
    assert image_url == f"{link}/picture.png"
    answer = guest.get(image_url)
    assert answer.status == 200 and answer.body == picture.png
    assert guest.get(f"/evenings/{night}/picture.png").status in (302, 303)  # sign in first


def test_a_players_year_as_a_picture_games_wins_rating_and_best_partner(app, client, make_game):
    rounds = rounds_of((300, 60))
    usual, swapped = (("", ["Ann", "Bo"]), ("", ["Cy", "Di"])), (("", ["Cy", "Di"]), ("", ["Ann", "Eve"]))
    for day in ("2025-03-01", "2025-03-08", "2025-03-15"):
        make_game("partnership", rounds, teams=usual, day=day, end=True)
    make_game("partnership", rounds, teams=swapped, day="2025-04-01", end=True)  # Ann loses, with Eve
    make_game("partnership", rounds, teams=usual, day="2026-01-10", end=True)
    from scorekeeper.services import colours, years
    from scorekeeper.services import players as player_service
    from scorekeeper.storage.db import connect

    db = connect(app.config["DATABASE"])
    try:
        ann = player_service.find_player(db, "Ann").id
        year = years.player_year(db, 2025, ann)
        colour = colours.player_colours(db, [ann])[ann]
        assert years.latest_year_of(db, ann) == 2026
        assert years.player_year(db, 2024, ann) is None
    finally:
        db.close()
    assert (year["games"], year["wins"]) == (4, 3) and year["best_partner"]["name"] == "Bo"
    assert year["rating"] is not None  # after her last game of the year
    with app.app_context():
        html = pictures.year_picture_html(year, colour)
        png = pictures.year_picture(year, colour).png
    pdf = pictures.pdf_of(html)
    assert pixels(pictures.png_from_pdf(pdf)) == pixels(png), "the words read are not the picture's"
    words = " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())
    assert "Ann’s 2025" in words and "Games 4" in words and "Won 3" in words
    assert "Best partner: Bo, 3 wins in 3 games together." in words
    assert Image.open(io.BytesIO(png)).size == (1200, 630) and len(png) <= 300 * 1024
    served = client.get(f"/years/2025/players/{ann}/picture.png")
    assert served.status_code == 200 and served.data == png
    assert client.get(f"/years/2024/players/{ann}/picture.png").status_code == 404
    page = text(client.get(f"/players/{ann}"))
    assert f"/years/2026/players/{ann}/picture.png" in page and "Share 2026 as a picture" in page
    # the year page offers its most winning player's year: Bo, 3 wins in 3 games
    page = text(client.get("/years/2025"))
    assert re.search(r"/years/2025/players/\d+/picture\.png", page) and "Share Bo’s 2025 as a picture" in page


@pytest.mark.long  # seven games played, three pictures drawn by WeasyPrint and read back: 1.5 s
def test_the_picture_tells_a_record_it_set_or_a_comeback_else_its_best_round(app, db, make_game):
    """The line worth telling (services/records.worth_telling): a record of its rule set
    from the fifth game of that rule set on, else a comeback from behind, else its best round."""
    from scorekeeper.services import records

    teams = (("", ["Ann", "Bo"]), ("", ["Cy", "Di"]))
    # behind by 240 after round 1, ahead at the end: a comeback (the rule set's third game)
    for _ in range(2):
        make_game("partnership", rounds_of((100, 60)), teams=teams, end=True)
    back = make_game("partnership", rounds_of((60, 300), (700, 60)), teams=teams, end=True)
    told = records.worth_telling(db, back)
    assert told == {"kind": "comeback", "label": "Biggest comeback", "value": 240, "team": 0, "round": 1}
    words, _ = read_back(app, back, told)
    assert "Ann & Bo came back from 240 behind after round 1." in words
    # the fifth game, with the highest total of all: a record
    make_game("partnership", rounds_of((100, 60)), teams=teams, end=True)
    high = make_game("partnership", rounds_of((2000, 60)), teams=teams, end=True)
    told = records.worth_telling(db, high)
    assert (told["kind"], told["record"], told["label"]) == ("record", "high_total", "Highest game total")
    words, _ = read_back(app, high, told)
    total = high.standings.totals[0]
    assert f"A record of {high.rules.name}: highest game total, {total:,} by Ann & Bo." in words
    # as high as the record, later: the record stays the earlier game's (the records page's order)
    same = make_game("partnership", rounds_of((2000, 60)), teams=teams, end=True)
    assert (records.worth_telling(db, same) or {}).get("record") != "high_total"
    # a plain game: its best round
    plain = make_game("partnership", rounds_of((100, 60)), teams=teams, end=True)
    assert records.worth_telling(db, plain) is None
    words, _ = read_back(app, plain, None)
    assert "Best round: Ann & Bo, +" in words


def test_a_record_is_told_in_the_games_own_words(app, make_game):
    """Canasta's record of books is its canastas (the rule set's words)."""
    game = make_game("canasta", rounds_of((300, 60)), end=True)
    told = {"kind": "record", "record": "most_books", "label": "Most books in a round", "value": 5}
    words, _ = read_back(app, game, {**told, "team": 0, "round": 1})
    assert "most canastas in a round, 5 by Ann & Bo in round 1." in words and "books" not in words
