"""A player's colour chosen on their page on a 360 px phone, with JavaScript and without
(issue 58): a radio a colour, each with its swatch and its name in words, 44 px to tap;
the game's chart draws them in it after."""

from playwright.sync_api import expect

from scorekeeper.scoring import TeamRound
from scorekeeper.services import players

from .looks import fits_the_phone, readable
from .test_tables_phone import tappable

ROUNDS = [[TeamRound(melded_points=300), TeamRound(melded_points=120)]] * 2


def test_a_players_colour_chosen_on_their_page_on_a_phone(db, make_game, new_page, live_server, screenshot):
    # about 1.5 s: two phones, one without JavaScript, each choosing once (one test, as asked)
    game = make_game("canasta", ROUNDS, teams=(("", ["Ann"]), ("", ["Bo"])), end=True)
    ann = players.find_player(db, "Ann").id
    for scripted, chosen in ((True, "Green"), (False, "Light blue")):
        page = new_page(java_script_enabled=scripted)
        page.goto(f"{live_server}/players/{ann}#colour")
        colours = page.get_by_role("group", name="Their colour")
        expect(colours.get_by_role("radio")).to_have_count(7)
        fits_the_phone(page)
        tappable(page)
        readable(colours)
        # the name in words is the radio's label: a tap on it (or its swatch) chooses it
        colours.get_by_text(chosen, exact=True).click()
        expect(colours.get_by_role("radio", name=chosen)).to_be_checked()
        with page.expect_navigation():
            page.get_by_role("button", name="Keep this colour").click()
        expect(page.get_by_text(f"Ann’s colour: {chosen}.")).to_be_visible()
        kept = page.get_by_role("group", name="Their colour").get_by_role("radio", name=chosen)
        expect(kept).to_be_checked()
        screenshot(page, f"player-colour-{'js' if scripted else 'no-js'}")
    page.goto(f"{live_server}/games/{game.id}")
    legend = page.locator("figcaption.legend span", has_text="Ann")
    expect(legend).to_have_attribute("data-colour", "light-blue")
    assert page.locator('g.series[data-colour="light-blue"] polyline').get_attribute("stroke") == "#56b4e9"
