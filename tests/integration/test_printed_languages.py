"""What is printed, drawn and kept in each language (issue 47): a blank sheet in Portuguese,
Spanish and Italian still fits its page; a result's picture speaks the reader's language;
a game's change log is kept in English and read in each reader's."""

import html
import io

import pytest
from pypdf import PdfReader

from scorekeeper.printing import pictures
from scorekeeper.scoring import TeamRound
from scorekeeper.services import games

from ..helpers import DEEP
from .test_pictures import laid_out_whole
from .test_sheets import pages_of, pdf, read

LANGUAGES = {"pt-BR": ("Rodada", "Pontos"), "es": ("Mano", "Puntos"), "it": ("Smazzata", "Punti")}


# the presets with the most rows, on each paper
SHEETS = [(key, paper) for key in ("roth", "samba", "buraco", "burraco") for paper in ("letter", "a4")]


def sheets_in(language):
    """`make test`: each of ``SHEETS`` in one language, taken in turn (every sheet is laid
    out in a language of longer words, and each language lays out a third); make test-deep:
    every sheet in every language."""
    return SHEETS if DEEP else SHEETS[list(LANGUAGES).index(language) :: len(LANGUAGES)]


@pytest.mark.long  # three or four sheets laid out by WeasyPrint, half a second each
@pytest.mark.deep  # every sheet in every language in make test-deep
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_blank_sheet_in_each_language_fits_its_page(client, language):
    """The presets with the most rows, four teams, on Letter and A4: one page, in the words
    of the phone that asked (longer than English's)."""
    round_word, _ = LANGUAGES[language]
    for key, paper in sheets_in(language):
        response = client.get(
            f"/rules/{key}/blank.pdf?paper={paper}&teams=4", headers={"Accept-Language": language}
        )
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        assert len(pages_of(response.data)) == 1, (key, paper)
    _, text = read(pdf(client, "/rules/buraco/blank.pdf?teams=2"))  # and English as it was
    assert "Round 1" in text
    response = client.get("/rules/buraco/blank.pdf?teams=2", headers={"Accept-Language": language})
    _, text = read(response.data)
    assert f"{round_word} 1" in text and "Round 1" not in text, text


def picture_text(app, game, language):
    with app.test_request_context("/", headers={"Accept-Language": language}):
        html = pictures.game_picture_html(game)
        png = pictures.game_picture(game).png
    assert laid_out_whole(html) == []
    reader = PdfReader(io.BytesIO(pictures.pdf_of(html)))
    return " ".join(reader.pages[0].extract_text().split()), png


def test_a_results_picture_in_each_language(app, make_game):
    game = make_game(
        "roth",
        [[TeamRound(melded_points=1235), TeamRound(melded_points=40)]],
        teams=(("", ["Ana", "Bia"]), ("", ["Caio", "Davi"])),
        end=True,
    )
    english, english_png = picture_text(app, game, "en")
    assert "Ana & Bia win with 1,235!" in english
    seen = {english_png}
    for language, win in (("pt-BR", "venc"), ("es", "gan"), ("it", "vinc")):
        text, png = picture_text(app, game, language)
        # Spanish writes four digits whole (RAE; CLDR's minimum grouping digits of 2)
        assert ("1235" if language == "es" else "1.235") in text and "1,235" not in text, text
        assert win in text.lower(), text
        seen.add(png)
    assert len(seen) == 4  # each language its own picture, never another's from the cache


def test_the_change_log_is_kept_in_english_and_read_in_each_language(app, client, db, make_game):
    game = make_game("roth", [[TeamRound(melded_points=150), TeamRound(melded_points=60)]])
    games.update_round(
        db,
        game.id,
        game.revision,
        game.rounds[0].id,
        [TeamRound(melded_points=155, books={"clean": 1}), TeamRound(melded_points=60)],
    )
    kept = [summary for (summary,) in db.execute("SELECT summary FROM revisions ORDER BY id")]
    assert kept[0] == "Round 1 entered."
    assert kept[1].startswith("Round 1 edited: Ann & Bo: clean (red) books 0 → 1, melded 150 → 155")
    said = {
        "pt-BR": ("Rodada 1 anotada.", "Rodada 1 corrigida: Ann & Bo:"),
        "es": ("Mano 1 anotada.", "Mano 1 corregida: Ann & Bo:"),
        "it": ("Smazzata 1 segnata.", "Smazzata 1 corretta: Ann & Bo:"),
        "en": ("Round 1 entered.", "Round 1 edited: Ann & Bo: clean (red) books 0 → 1"),
    }
    for language, (entered, edited) in said.items():
        page = html.unescape(client.get(f"/games/{game.id}", headers={"Accept-Language": language}).text)
        assert entered in page and edited in page, (language, page)
    # an edit worded in the reader's words: no English left in the Portuguese line
    page = html.unescape(client.get(f"/games/{game.id}", headers={"Accept-Language": "pt-BR"}).text)
    line = page.split("Rodada 1 corrigida:", 1)[1].split("</li>", 1)[0]
    assert "melded" not in line and "clean" not in line, line


# the round column's width on a game's sheet (sheet.css .round-N, in mm), as wide as its
# head and foot in bold 8.5 pt: "Round" and "Final" 9.9 and 7.6 mm, "Rodada" 11.7, "Mano" 8.5,
# "Smazzata" and "Finale" 14.9 and 9.5 (and 1.2 mm of padding)
ROUND_COLUMNS = {"en": "round-12", "pt-BR": "round-13", "es": "round-12", "it": "round-17"}


@pytest.mark.parametrize("language", ROUND_COLUMNS)
def test_a_games_sheet_has_room_for_round_and_final_in_each_language(client, make_game, language):
    """Issue 54: "Rodada" and "Smazzata" ran out of a 12 mm column, and "Final" at 12 pt
    under the winner's box; the column is as wide as the language's words, "Final" as
    big as "Round"."""
    game = make_game("roth", [[TeamRound(melded_points=1235), TeamRound(melded_points=40)]], end=True)
    response = client.get(f"/games/{game.id}/sheet", headers={"Accept-Language": language})
    assert f'<table class="sheet game-sheet teams-2 {ROUND_COLUMNS[language]}">' in response.get_data(
        as_text=True
    )


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_a_landscape_blank_sheet_prints_on_its_side_in_each_language(client, language):
    """Six teams and eight rounds take a Letter page on its side; in Portuguese and Spanish,
    whose "Letter" is "Carta", the sheet's paper was its name in the reader's language and
    the sheet printed upright (issue 54)."""
    url = "/rules/friends-family/blank?teams=6&rounds=8"
    page = client.get(url, headers={"Accept-Language": language}).get_data(as_text=True)
    assert '<body class="paper-letter landscape">' in page
    response = client.get(url.replace("blank?", "blank.pdf?"), headers={"Accept-Language": language})
    box = pages_of(response.data)[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (792, 612)
