"""A round of Buraco on a phone set to Portuguese (issue 47): the page is in pt-BR, the
words are the players' own (canastra limpa, morto, bateu), totals read 1.435 as a
Brazilian writes them, and the game's printed sheet is in Portuguese too.

Every number compared here comes from the engine run on the same entries.
"""

import io
import re

from playwright.sync_api import expect
from pypdf import PdfReader

from scorekeeper.scoring import RULESETS, TeamRound, standings
from scorekeeper.services import games

from .looks import fits_the_phone, numbers_whole

RULES = RULESETS["buraco"]
NAMES = ["Ana & Bia", "Caio & Davi"]
# Ana & Bia go out (batida) with 2 clean and 1 dirty canastra and 835 points melded; Caio &
# Davi melded 1 clean canastra and 600 points, hold 45 and never took their morto
ROUND = [
    TeamRound(books={"clean": 2, "dirty": 1}, melded_points=835, went_out=True),
    TeamRound(books={"clean": 1}, melded_points=600, unplayed_points=45, packet_not_taken=True),
]
MINUS = "\u2212"


def brazilian(value):
    """1435 -> "1.435", as the page writes it in Portuguese."""
    return (MINUS if value < 0 else "") + f"{abs(value):,}".replace(",", ".")


def test_a_round_of_buraco_in_portuguese(live_server, new_page, db, screenshot):
    game = games.create_game(db, RULES, "buraco", [("", ["Ana", "Bia"]), ("", ["Caio", "Davi"])])
    page = new_page(locale="pt-BR")  # 360 px, the phone set to Portuguese
    page.goto(f"{live_server}/games/{game.id}/rounds/new")
    expect(page.locator("html")).to_have_attribute("lang", "pt-BR")
    page.get_by_role("radio", name="Ana & Bia bateram").check()
    for name, entry in zip(NAMES, ROUND):
        team = page.get_by_role("group", name=name, exact=True)
        for label, kind in (("Canastras limpas", "clean"), ("Canastras sujas", "dirty")):
            if entry.books.get(kind):
                chips = team.get_by_role("group", name=label, exact=True)
                chips.get_by_role("radio", name=str(entry.books[kind]), exact=True).check()
        team.get_by_label("Pontos baixados", exact=True).fill(str(entry.melded_points))
        if entry.unplayed_points:
            team.get_by_label("Pontos na mão", exact=True).fill(str(entry.unplayed_points))
        if entry.packet_not_taken:
            team.get_by_label("Nunca pegou o morto", exact=True).check()
    with page.expect_navigation():
        page.get_by_role("button", name="Conferir a rodada 1").click()
    s = standings(RULES, [ROUND], teams=2)
    assert s.totals[0] >= 1000  # a total with a thousands' dot to read
    review = page.get_by_role("region", name="Conferir antes de salvar")
    expect(review).to_be_visible()
    with page.expect_navigation():
        review.get_by_role("button", name=re.compile("^Salvar")).click()
    expect(page.locator("html")).to_have_attribute("lang", "pt-BR")
    board = page.get_by_role("region", name="Classificação")
    totals = board.get_by_text(re.compile(f"^Total: [{MINUS}0-9]"))
    expect(totals).to_have_text([f"Total: {brazilian(t)}" for t in s.totals])
    # the change log (folded) in Portuguese
    expect(page.locator("li", has_text="Rodada 1 anotada.")).to_have_count(1)
    numbers_whole(page.locator("main"))
    fits_the_phone(page)
    screenshot(page, "buraco-pt-BR-game-360")

    # the printed sheet of that game, asked for by the same phone
    sheet = f"{live_server}/games/{game.id}/sheet.pdf"
    response = page.request.get(sheet, headers={"Accept-Language": "pt-BR"})
    assert response.ok and response.headers["content-type"] == "application/pdf"
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)
    assert "Rodada" in text and "Buraco" in text, text
    assert brazilian(s.totals[0]) in text, text
    assert "Round" not in text and "Total score" not in text, text
