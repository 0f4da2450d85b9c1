"""A result's picture looks whole (issue 46): the page checks the phone pages pass (every
word whole on its line, nothing cut off or past the picture's edge, no text under 12 px,
every number on one line) run on each picture's HTML, laid out by Chromium at the
picture's own size (1200 × 630) with its own stylesheet, for the hardest cases: six teams,
a tie, long names, an evening of eight, a year. (WeasyPrint draws the PNG from the same
HTML and stylesheet: printing/pictures.py.)"""

import pytest

from scorekeeper.printing import pictures
from scorekeeper.scoring import TeamRound
from scorekeeper.services import colours, evening_tables, years
from scorekeeper.web.resources import resource_folder

from .looks import numbers_whole, readable

SIZE = {"width": pictures.WIDTH, "height": pictures.HEIGHT}
LONG = ["Grandma Josephine", "Bartholomew", "Maximiliana", "Christopher"]


def rounds_of(*melded):
    return [[TeamRound(melded_points=m) for m in scores] for scores in melded]


def looks_whole(browser, html):
    with open(f"{resource_folder('static')}/picture.css", encoding="utf-8") as file:
        style = file.read().replace("@page", "@page-unused")
    context = browser.new_context(viewport=SIZE)
    try:
        page = context.new_page()
        page.set_content(html.replace("</head>", f"<style>{style}</style></head>"))
        width, height = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        assert width <= pictures.WIDTH and height <= pictures.HEIGHT, (width, height)
        body = page.locator("body")
        assert readable(body) > 5
        assert numbers_whole(body)
    finally:
        context.close()


GAMES = {
    "six teams of long names": (
        tuple((f"{LONG[n % 4]} {n}", [LONG[n % 4], LONG[(n + 1) % 4]]) for n in range(6)),
        [(10, 20, 30, 40, 50, 12_060), (3_000, 2_000, 1_000, 500, 250, 9_999)],
    ),
    "a tie of four long names": (
        (("", LONG[:2]), ("", LONG[2:])),
        [(150, 60), (60, 150)],
    ),
    "three single players": ((("", ["Ann"]), ("", ["Bartholomew"]), ("", ["Cy"])), [(100, 300, 50)]),
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", list(GAMES))
def test_a_games_picture_looks_whole(app, browser, make_game, case):
    teams, melded = GAMES[case]
    game = make_game("partnership", rounds_of(*melded), teams=teams, day="2026-11-26", end=True)
    with app.app_context():
        looks_whole(browser, pictures.game_picture_html(game))


@pytest.mark.timeout(60)
def test_an_evening_and_a_years_pictures_look_whole(app, browser, db, make_game):
    names = [*LONG, "Ann", "Bo", "Cy", "Di", "Evangeline", "Fitzgerald"]
    for n in range(5):
        teams = (("", names[2 * n : 2 * n + 2]), ("", names[2 * n + 2 : 2 * n + 4]))
        make_game("partnership", rounds_of((100 * n + 50, 60)), teams=teams, day="2026-11-26", end=True)
    evening = evening_tables.load_evening(db, "2026-11-26")
    ann = db.execute("SELECT id FROM players WHERE name = ?", [LONG[0]]).fetchone()[0]
    year = years.player_year(db, 2026, ann)
    assert len(evening.standings) > 8 and year["games"]
    colour = colours.player_colours(db, [ann])[ann]
    with app.app_context():
        looks_whole(browser, pictures.evening_picture_html(evening))  # each player's swatch by their name
        looks_whole(browser, pictures.year_picture_html(year, colour))
