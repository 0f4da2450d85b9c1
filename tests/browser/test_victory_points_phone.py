"""A tournament turn's victory points on a phone (issue 56): beside each total, in the
language of longest words, with long team names, at 320 px: whole, readable, no sideways
scroll."""

from playwright.sync_api import expect

from scorekeeper.scoring import TeamRound

from .looks import fits_the_phone, readable

TEAMS = (("Famiglia Bianchi-Esposito", ["Ann", "Bo"]), ("Cugini di Campagna", ["Cy", "Di"]))
OUT = TeamRound(books={"clean": 1}, melded_points=300, went_out=True)  # 600
SHORT = TeamRound(melded_points=150, unplayed_points=40)  # 110


def test_the_victory_points_fit_the_phone(make_game, new_page, live_server, screenshot):
    game = make_game("burraco-torneo", [[OUT, SHORT]], teams=TEAMS)  # 490 apart: 14 and 6
    for language, said in (("it", "14 punti vittoria"), ("pt-BR", "14 pontos de vitória")):
        page = new_page(
            viewport={"width": 320, "height": 740}, extra_http_headers={"Accept-Language": language}
        )
        page.goto(f"{live_server}/games/{game.id}")
        expect(page.locator(".standings .victory").first).to_have_text(said)
        fits_the_phone(page)
        readable(page.locator(".standings"))
        screenshot(page, f"victory-points-{language}")
