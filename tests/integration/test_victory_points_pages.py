"""A tournament turn's victory points on its pages (issue 56): beside each team's total on the
game page, in the round's check, in the game's JSON, in each language, only where the rules
ask for them; and the house-rules editor keeps the rule. Values worked by hand from FIBUR's
table for turns of 3 hands (tests/unit/test_victory_points.py gives the table)."""

import html
import re

import pytest

from scorekeeper.scoring import TeamRound

from .test_games import fields, page_after
from .test_house_rules import posted, save
from .test_pictures import read_back
from .test_sheets import read

# Burraco, hand-worked: a clean burraco 200, dirty 100, the chiusura 100, cards as melded/left
OUT = TeamRound(books={"clean": 1}, melded_points=300, went_out=True)  # 200 + 300 + 100 = 600
SHORT = TeamRound(melded_points=150, unplayed_points=40)  # 150 − 40 = 110
DIRTY = TeamRound(books={"dirty": 1}, melded_points=200, unplayed_points=25)  # 100 + 200 − 25 = 275
OUT_LATE = TeamRound(books={"clean": 1}, melded_points=250, went_out=True)  # 200 + 250 + 100 = 550
EVEN = TeamRound(books={"clean": 1}, melded_points=300)  # 500 each hand


def page(client, url, language="en"):
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 200, url
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(response.get_data(as_text=True))).split())


# totals 1,150 and 1,210 after the turn's three hands: 60 apart, 9 and 11 (55–150: 11/9)
SAID = {
    "en": ("1,150 9 victory points", "1,210 11 victory points"),
    "pt-BR": ("1.150 9 pontos de vitória", "1.210 11 pontos de vitória"),
    "es": ("1150 9 puntos de victoria", "1210 11 puntos de victoria"),
    "it": ("1.150 9 punti vittoria", "1.210 11 punti vittoria"),
}


def test_the_game_page_shows_each_teams_victory_points_beside_its_total(client, make_game):
    game = make_game("burraco-torneo", [[OUT, SHORT], [DIRTY, OUT_LATE], [DIRTY, OUT_LATE]])
    assert game.standings.totals == [1150, 1210] and game.finished
    for language, (first, second) in SAID.items():
        text = page(client, f"/games/{game.id}", language)
        assert first in text and second in text, (language, text)
    data = client.get(f"/games/{game.id}.json").get_json()
    assert (data["totals"], data["victory_points"]) == ([1150, 1210], [9, 11])


def test_a_tied_turn_is_a_draw_of_ten_each(client, make_game):
    game = make_game("burraco-torneo", [[EVEN, EVEN]] * 3)
    assert game.standings.totals == [1500, 1500] and game.finished and game.standings.verdict.tie
    text = page(client, f"/games/{game.id}", "it")
    assert text.count("1.500 10 punti vittoria") == 2
    assert "un'altra smazzata" not in text  # a tournament turn's tie is not played off


def test_a_casual_game_shows_none(client, make_game):
    game = make_game("burraco", [[OUT, SHORT]])
    assert "victory point" not in page(client, f"/games/{game.id}")
    assert client.get(f"/games/{game.id}.json").get_json()["victory_points"] is None


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Victory points after it: Ann & Bo 12 · Cy & Di 8"),
        ("it", "Punti vittoria dopo questa smazzata: Ann & Bo 12 · Cy & Di 8"),
    ],
)
def test_the_rounds_check_shows_the_victory_points_after_it(client, make_game, language, said):
    # after 600 – 110, the second hand 275 – 550: 875 and 660, 215 apart (155–250: 12/8)
    game = make_game("burraco-torneo", [[OUT, SHORT]])
    url = f"/games/{game.id}/rounds/new"
    a = {"book_clean": 0, "book_dirty": 1, "melded_points": 200, "unplayed_points": 25}
    b = {"book_clean": 1, "book_dirty": 0, "melded_points": 250}
    data = posted(client.get(url)) | fields(a, b, went_out="1") | {"action": "check"}
    review = page_after(client, url, data)
    location = review.request.full_path
    assert said in page(client, location, language)


def test_the_rules_page_and_the_editor_say_the_rule(client, db):
    assert "by FIBUR's table for a tournament turn of 3 rounds" in page(client, "/rules/burraco-torneo")
    assert "tabella FIBUR per un turno di torneo di 3 smazzate" in page(client, "/rules/burraco-torneo", "it")
    values = posted(client.get("/rules/new?from=burraco-torneo"))
    assert values["victory_points"] == "fibur"
    # a turn that is not of 3 or 4 hands has no table: the field says so, in the reader's words
    refused = client.post(
        "/rules/new",
        data=values | {"name": "Five hands", "end_rounds": "5"},
        headers={"Accept-Language": "pt-BR"},
    )
    assert refused.status_code == 422, refused.status_code
    assert "As tabelas da FIBUR são para um turno de torneio de 3 ou 4 rodadas" in html.unescape(
        refused.get_data(as_text=True)
    )
    assert save(client, values | {"name": "Four hands", "end_rounds": "4"}, "/rules/new").startswith(
        "/rules/"
    )


@pytest.mark.long  # about 1.4 s: the picture laid out by WeasyPrint, drawn twice and read back
def test_the_picture_shows_them_under_each_total(app, make_game):
    """The result's picture, read back from the PDF it is drawn from, laid out whole."""
    game = make_game("burraco-torneo", [[OUT, SHORT], [DIRTY, OUT_LATE], [DIRTY, OUT_LATE]])
    said, _png = read_back(app, game)
    # the PDF's text runs a card's lines together: "1,1509 victory points"
    assert re.search(r"Ann & Bo 1,150 ?9 victory points Cy & Di 1,210 ?11 victory points", said), said


@pytest.mark.long  # two printed sheets laid out by WeasyPrint, half a second each
def test_the_printed_sheet_gives_them_after_the_result(client, make_game):
    game = make_game("burraco-torneo", [[OUT, SHORT], [DIRTY, OUT_LATE], [DIRTY, OUT_LATE]])
    said = {
        "en": "Winner: Cy & Di with 1,210. Victory points: Ann & Bo 9 · Cy & Di 11.",
        "it": "Vincitori: Cy & Di con 1.210. Punti vittoria: Ann & Bo 9 · Cy & Di 11.",
    }
    for language, line in said.items():
        response = client.get(f"/games/{game.id}/sheet.pdf", headers={"Accept-Language": language})
        assert line in " ".join(read(response.data)[1].split()), language
