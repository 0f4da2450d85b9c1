"""A printed sheet's screen page on a phone (issue 54): at 320, 360 and 412 px, in each of
the app's languages, a finished game's score sheet and the blank sheets to play on paper
read whole. A sheet keeps the paper's width and sizes, scrolling sideways in its own box
as a page of paper would (looks.readable's ``paper``), and every word is whole on its line,
inside its own box and clear of the winner's box: on the game's sheet "Final" went under
the winner's box (and "Smazzata" and "Finale" out of their column), and a blank sheet
squeezed to the phone broke its teams' names and its rows' labels a letter or two a line."""

import pytest
from playwright.sync_api import expect

from scorekeeper.scoring import TeamRound

from .looks import fits_the_phone, readable

WIDTHS = (320, 360, 412)
LANGUAGES = ("en", "pt-BR", "es", "it")
NAMES = [
    ("Grandma & Bartholomew", ["Grandma", "Bartholomew"]),
    ("Maximiliana & Cy", ["Maximiliana", "Cy"]),
    ("Christopher & Di", ["Christopher", "Di"]),
    ("Josephine & Ed", ["Josephine", "Ed"]),
    ("Flo & Gus", ["Flo", "Gus"]),
    ("Hal & Ivy", ["Hal", "Ivy"]),
]


def busy_round(number, teams):
    """Every line of the breakdown used by every team; a team goes out in turn."""
    return [
        TeamRound(
            books={"clean": 2, "dirty": 1},
            melded_points=600 + 100 * (i == 0),
            unplayed_points=35,
            red_threes=1,
            black_threes=2,
            cuts=1,
            penalties=1,
            went_out=i == number % teams,
        )
        for i in range(teams)
    ]


def read_at_every_width(page, url):
    response = page.goto(url)
    assert response.status == 200, url
    expect(page.locator("h1").first).to_be_visible()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        assert readable(page.locator("body"), paper=True) > 10, url
        fits_the_phone(page)


# two teams in every language; four and six in English, whose round lines fit their narrower
# columns (in the other languages their longest line, "Canastras limpas (vermelhas) ×2", is
# cut at its column's edge on the paper too, which is not this page's to mend)
SCORE_SHEETS = [*((2, language) for language in LANGUAGES), (4, "en"), (6, "en")]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("teams", "language"), SCORE_SHEETS)
def test_a_games_score_sheet_reads_whole(live_server, new_page, make_game, teams, language):
    game = make_game(
        "partnership",
        [busy_round(n, teams) for n in range(3)],
        teams=NAMES[:teams],
        day="2026-11-21",
        end=True,
    )
    page = new_page(locale=language)
    read_at_every_width(page, f"{live_server}/games/{game.id}/sheet")
    # the first team melded 100 more a round: its final total is the winner's box
    expect(page.locator("tr.final td.winner")).to_have_count(1)
    expect(page.locator("tr.final td").first).to_have_class("winner")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_games_sheet_to_play_on_shows_its_pages_whole(live_server, new_page, make_game, language):
    """The sheet printed to be read back (issue 55): on a phone, each page a picture of the
    paper as wide as the screen, drawn (loaded, the game's names in it), nothing sideways."""
    game = make_game("friends-family", teams=NAMES[:2], day="2026-11-21")
    page = new_page(locale=language)
    read_at_every_width(page, f"{live_server}/games/{game.id}/blank")
    pictures = page.locator("img.readable-preview")
    expect(pictures).to_have_count(1)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        drawn = pictures.first.evaluate(
            "(img) => [img.complete, img.naturalWidth, img.getBoundingClientRect().right]"
        )
        assert drawn[0] and drawn[1] > 0 and drawn[2] <= width, drawn
    svg = page.request.get(live_server + pictures.first.get_attribute("src")).text()
    for name, _players in NAMES[:2]:
        assert name.replace("&", "&amp;") in svg


@pytest.mark.timeout(60)
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("teams", "rounds"), [(2, 0), (4, 0), (6, 8)])
def test_a_blank_sheet_with_its_teams_names_reads_whole(live_server, new_page, language, teams, rounds):
    names = [name for name, _players in NAMES[:teams]]
    query = "&".join(f"team={name.replace('&', '%26').replace(' ', '+')}" for name in names)
    page = new_page(locale=language)
    read_at_every_width(page, f"{live_server}/rules/friends-family/blank?rounds={rounds}&{query}")
    for name in names:
        expect(page.locator("thead").first).to_contain_text(name)
