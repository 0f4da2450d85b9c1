"""Photos of the printed sheet sent to the app and read by the reader itself (issue 55):
the seeded generator's photos (``tests/photos.py``) of a game's own sheet, of another
game's, of a page typed in already, of a sheet printed for other teams, and what is no
sheet at all; each bad input with its message and nothing kept; a good one filled in,
corrected where marked, saved, and its digits teaching the next read."""

import functools
import html
import io
import os
import re

import numpy as np
import pytest
from PIL import Image, ImageDraw

from scorekeeper.printing import layout
from scorekeeper.scoring import RULESETS, standings
from scorekeeper.services import game_model, hand

from .. import photos as generator
from ..helpers import TEAMS, posted, text

RULES = RULESETS["friends-family"]
SEED = 5
# each test draws a photo (3 s) and has it read (3 s) on an idle machine: far more on a busy one
# A photo refused by what its QR code says alone (another game, other teams, rounds past the
# engine's bound) is a 5 MP phone's: the reader looks for the code in the photo scaled to
# 2,000 px first (``reading.page.QR_LONG_SIDE``), which is this photo's own size nearly, and
# drawing one takes a third of a 12 MP one's time.
SMALL = (1800, 2400)
pytestmark = [pytest.mark.timeout(240), pytest.mark.long]


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # posted() carries no token then: the forms are the subject
    return app


def paper_game(client, teams=TEAMS):
    page = client.get("/games/new?rules=friends-family")
    response = client.post("/games/new", data={**posted(page), **teams, "kept": "sheet"})
    assert response.status_code == 303, text(response)[:2000]
    return int(response.headers["Location"].split("/games/")[1].split("/")[0])


def served(client, game_id):
    """The game's sheet to play on as the app serves it: the PDF the family prints."""
    response = client.get(f"/games/{game_id}/blank.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return response.data


@functools.cache
def photographed(
    game_id,
    seed=SEED,
    teams=2,
    rounds=4,
    style=None,
    no_code=False,
    turn=0,
    blur=None,
    pdf=None,
    size=generator.PHOTO,
):
    """(the ``Sheet`` written, the JPEG of its first page) for game ``game_id``, printed
    from ``pdf`` (``served``; None: a sheet this app no longer prints, the generator's
    own print of it): the same seed writes the same digits in the same hand (``style``:
    "family", drawn another way); ``size``: the photo's pixels (``SMALL``: a smaller phone's)."""
    rng = np.random.default_rng(seed)
    sheet = generator.sheet(RULES, teams, rounds, rng)
    sheet.game_id = game_id
    images, labels = generator.held_out()
    pen = generator.Pen(images, labels, rng, generator.family_style if style == "family" else None)
    page = generator.printed(sheet, 1, pdf)
    generator.fill(page, sheet.geom, 1, sheet.values, pen, rng)
    if no_code:  # the QR code torn off: the markers alone
        x, y = sheet.geom.pages[0].qr
        side = layout.QR_SIZE_MM
        ImageDraw.Draw(page).rectangle(
            [
                generator.mm(x - 1),
                generator.mm(y - 1),
                generator.mm(x + side + 1),
                generator.mm(y + side + 1),
            ],
            fill="white",
        )
    photo = generator.photograph(page, rng, turn=turn, blur=blur, size=size)
    return sheet, photo.data


def send(client, game_id, data, name="sheet.jpg"):
    """The photo as a phone sends it (the body written out: the test client would spool
    a large one into a file it never closes)."""
    body = (
        (
            f'--x\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + b"\r\n--x--\r\n"
    )
    return client.post(f"/games/{game_id}/photo", data=body, content_type="multipart/form-data; boundary=x")


def refused(client, app, game_id, data, status=422, name="sheet.jpg"):
    """The photo page's answer to a photo refused: its text; nothing kept."""
    response = send(client, game_id, data, name)
    assert response.status_code == status, text(response)[:3000]
    assert not os.path.exists(app.config["PHOTOS"]) or not any(os.scandir(app.config["PHOTOS"]))
    return text(response)


def field(name, first=1):
    """The typing page's box for a sheet's box (round, team, line); ``first``: the first
    round the page shows (the rounds typed in before it are not on it)."""
    number, team, line = name
    return f"rounds-{number - first}-teams-{team}-{line}"


def shown(page, box_id):
    tag = re.search(rf'<input[^>]*\bid="{box_id}"[^>]*>', page)[0]
    found = re.search(r'value="([^"]*)"', tag)
    return found[1] if found else ""


def marked(page):
    """The ids of the boxes marked to look at."""
    return set(re.findall(r'id="(rounds-[0-9]+-teams-[0-9]+-[a-z_]+)-read"', page))


def confirm(client, game_id, location, sheet, *, end=True, first=1):
    """The family's review: every box compared with the sheet and put right, then checked
    and saved; (the page as opened, the boxes corrected). ``first``: the first round the
    page shows."""
    page = text(client.get(location))
    values = posted(page)
    corrected = []
    for name, value in sheet.values.items():
        box, want = field(name, first), "" if value is None else str(value)
        if name[2] == "went_out" or box not in values or name[0] < first:
            continue
        if values[box] != want:
            corrected.append(box)
            values[box] = want
    if not end:
        values.pop("ended", None)
    checked = client.post(f"/games/{game_id}/paper", data={**values, "action": "check"})
    assert checked.status_code == 200, text(checked)[:3000]
    saved = client.post(f"/games/{game_id}/paper", data={**posted(checked), "action": "save"})
    assert saved.status_code == 303, text(saved)[:3000]
    return page, corrected


# --- bad input ---------------------------------------------------------------------------------


def test_a_file_that_is_no_picture_is_said(client, app):
    game_id = paper_game(client)
    said = refused(client, app, game_id, b"Team,Score\nAnn & Bo,4810\n", name="scores.csv")
    assert "This file is not a picture." in said


def test_a_photo_of_something_else_says_what_to_try(client, app):
    game_id = paper_game(client)
    picture = Image.effect_noise((1200, 900), 40).convert("RGB")
    data = io.BytesIO()
    picture.save(data, "JPEG")
    said = refused(client, app, game_id, data.getvalue())
    assert "No score sheet found in this photo." in said
    assert "Take it again with the whole page in the picture, its four black corners showing" in said
    # in each language, the sheet called what its printed title calls it (issue 56)
    told = {
        "pt-BR": "Nenhuma folha de pontos nesta foto. Tire a foto de novo",
        "es": "No se encontró ninguna planilla en esta foto.",
        "it": "In questa foto non c'è un foglio segnapunti.",
    }
    blank = io.BytesIO()
    Image.new("RGB", (120, 160), "white").save(blank, "JPEG")  # no page in it, found at once
    for language, words in told.items():
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
        assert words in html.unescape(refused(client, app, game_id, blank.getvalue())), language


def test_a_sheet_whose_code_cannot_be_read_says_so(client, app):
    game_id = paper_game(client)
    said = refused(client, app, game_id, photographed(game_id, no_code=True, pdf=served(client, game_id))[1])
    assert "This looks like a score sheet, but its QR code cannot be read" in said


def test_another_games_sheet_names_it_with_a_link(client, app, db):
    first = paper_game(client)
    second = paper_game(client, {**TEAMS, "teams-0-players-0": "Eve"})
    said = refused(client, app, second, photographed(first, pdf=served(client, first))[1])
    title = game_model.load_game(db, first).title
    assert f"This is the sheet of another game: {title}." in said
    assert f'href="/games/{first}"' in said and f"Open {title}" in said


def test_a_sheet_of_a_game_not_in_the_history_is_said(client, app):
    game_id = paper_game(client)
    said = refused(client, app, game_id, photographed(game_id + 40, size=SMALL)[1])  # another computer's game
    assert f"This is the sheet of game {game_id + 40}, which is not in this history." in said


def test_a_sheet_printed_for_other_teams_is_said(client, app):
    game_id = paper_game(client)
    said = refused(client, app, game_id, photographed(game_id, teams=3, size=SMALL)[1])  # printed for 3 teams
    assert "This sheet was printed before the game’s rules or teams changed" in said


def test_a_code_naming_a_million_rounds_is_no_sheet_of_this_game(client, app):
    """A QR code written by hand (or another app) is refused before a layout of its rounds
    is made: the engine's bound on a game's rounds bounds the sheets it reads."""
    game_id = paper_game(client)
    rng = np.random.default_rng(SEED)
    sheet = generator.sheet(RULES, 2, 4, rng)
    sheet.game_id = game_id
    text_code = generator.code_text(sheet, 1).replace("rounds=4", "rounds=1000000")
    page = generator.with_code(generator.printed(sheet, 1, served(client, game_id)), sheet.geom, 1, text_code)
    said = refused(client, app, game_id, generator.photograph(page, rng, turn=0, size=SMALL).data)
    assert "This sheet was printed before the game’s rules or teams changed" in said


def test_a_page_typed_in_already_is_said(client, app, db, make_game):
    game_id = paper_game(client)
    sheet, data = photographed(game_id, pdf=served(client, game_id))
    # the four rounds typed in by hand first, the game going on
    from scorekeeper.services import rounds as round_changes

    game = game_model.load_game(db, game_id)
    round_changes.add_rounds(db, game_id, game.revision, 1, sheet.rounds)
    said = refused(client, app, game_id, data)
    assert "Page 1 (rounds 1–4) is typed in already." in said


def test_a_photo_upside_down_is_read_anyway(client, app):
    game_id = paper_game(client)
    sheet, data = photographed(game_id, turn=180, pdf=served(client, game_id))
    response = send(client, game_id, data)
    assert response.status_code == 303, text(response)[:3000]
    page = text(client.get(response.headers["Location"]))
    right = [name for name, value in sheet.values.items() if shown(page, field(name)) == str(value or "")]
    assert len(right) > 0.8 * len(sheet.values)


def test_a_blurred_photo_is_said_with_what_to_try(client, app):
    """Blurred past reading, its QR code goes first: the family is told to take it again
    (a box blurred or cut off on a page found is left empty and marked "Could not be read":
    test_photos.py)."""
    game_id = paper_game(client)
    said = refused(client, app, game_id, photographed(game_id, blur=5, pdf=served(client, game_id))[1])
    assert "its QR code cannot be read: take the photo again, closer, in good light" in said


# --- a good one ------------------------------------------------------------------------------------


def test_a_photo_fills_the_typing_page_and_saves_as_the_sheet_says(client, app, db):
    game_id = paper_game(client)
    sheet, data = photographed(game_id, pdf=served(client, game_id))
    response = send(client, game_id, data)
    assert response.status_code == 303, text(response)[:3000]
    location = response.headers["Location"]
    assert location.endswith(f"/games/{game_id}/paper?photo=1")
    assert not game_model.load_game(db, game_id).rounds  # nothing saved before the family saves
    page, corrected = confirm(client, game_id, location, sheet)
    # every box the reader had wrong was marked for the family to look at
    assert set(corrected) <= marked(page), (corrected, marked(page))
    game = game_model.load_game(db, game_id)
    assert [[e.to_dict() for e in r.entries] for r in game.rounds] == [
        [e.to_dict() for e in entries] for entries in sheet.rounds
    ]
    assert game.standings.totals == standings(RULES, sheet.rounds, teams=2).totals
    written = sum(
        len(str(abs(v))) for (_r, _t, line), v in sheet.values.items() if v is not None and line != "went_out"
    )
    assert 0 < len(hand.samples(db)) <= written


def test_a_correction_teaches_the_next_read_of_that_hand(client, app, db):
    """A family's own hand (digits drawn another way) misread at first; once corrected and
    saved, the same hand on the next game's sheet is read right where it was wrong."""
    first = paper_game(client)
    sheet, data = photographed(first, seed=11, style="family", pdf=served(client, first))
    response = send(client, first, data)
    page, corrected = confirm(client, first, response.headers["Location"], sheet)
    assert corrected, "the family's hand was read right at once: nothing to learn from"
    learnt = len(hand.samples(db))
    assert learnt > 0
    second = paper_game(client, {**TEAMS, "teams-0-players-0": "Eve"})
    again, data = photographed(second, seed=11, style="family", pdf=served(client, second))  # the same hand
    response = send(client, second, data)
    assert response.status_code == 303
    page = text(client.get(response.headers["Location"]))
    still_wrong = [box for box in corrected if shown(page, box) != posted_value(again, box)]
    assert len(still_wrong) < len(corrected), still_wrong


def posted_value(sheet, box):
    number, team, line = re.fullmatch(r"rounds-([0-9]+)-teams-([0-9]+)-([a-z_]+)", box).groups()
    value = sheet.values[(int(number) + 1, int(team), line)]
    return "" if value is None else str(value)


def written(sheet, name):
    """What the sheet's box (round, team, line) says, as the typing page shows it."""
    value = sheet.values[name]
    return "" if value is None else str(value)


def test_the_second_page_of_a_sheet_lands_on_its_own_rounds(client, app, db):
    """Three teams of a rule set that fixes no number of rounds: its sheet is six rounds on
    two pages (rounds 1-3, 4-6). Page 1 typed in, a photo of page 2 fills rounds 4-6 (its
    QR code names the page), its running totals carried on from round 3; saved, the game's
    six rounds and totals are the sheet's."""
    rules = RULESETS["partnership"]
    three = {**TEAMS, "teams-2-players-0": "Ed", "teams-2-players-1": "Flo"}
    page = client.get("/games/new?rules=partnership")
    response = client.post("/games/new", data={**posted(page), **three, "kept": "sheet"})
    assert response.status_code == 303, text(response)[:2000]
    game_id = int(response.headers["Location"].split("/games/")[1].split("/")[0])
    rng = np.random.default_rng(SEED)
    sheet = generator.sheet(rules, 3, 6, rng)
    sheet.game_id = game_id
    assert [p.rounds for p in sheet.geom.pages] == [(1, 2, 3), (4, 5, 6)]
    from scorekeeper.services import rounds as round_changes

    game = game_model.load_game(db, game_id)
    round_changes.add_rounds(db, game_id, game.revision, 1, sheet.rounds[:3])
    images, labels = generator.held_out()
    second = generator.printed(sheet, 2, served(client, game_id))
    generator.fill(second, sheet.geom, 2, sheet.values, generator.Pen(images, labels, rng), rng)
    response = send(client, game_id, generator.photograph(second, rng, turn=0).data)
    assert response.status_code == 303, text(response)[:3000]
    page, corrected = confirm(client, game_id, response.headers["Location"], sheet, first=4)
    # every box the reader had wrong was marked, or is in a team's round marked (its sums
    # disagree: the family looks down that column)
    columns = {box.split("-")[1] + "-" + box.split("-")[3] for box in marked(page)}
    assert all(box.split("-")[1] + "-" + box.split("-")[3] in columns for box in corrected), (
        corrected,
        columns,
    )
    # the page's boxes filled from the photo, round 4 first: most of them right before review
    right = [
        name for name in sheet.values if name[0] >= 4 and shown(page, field(name, 4)) == written(sheet, name)
    ]
    assert len(right) > 0.8 * sum(1 for name in sheet.values if name[0] >= 4 and name[2] != "went_out")
    game = game_model.load_game(db, game_id)
    assert [[e.to_dict() for e in r.entries] for r in game.rounds] == [
        [e.to_dict() for e in entries] for entries in sheet.rounds
    ]
    assert game.standings.totals == standings(rules, sheet.rounds, teams=3).totals
