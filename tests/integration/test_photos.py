"""A photo of the printed sheet, the web side (issue 55): the upload and its bounds, the
typing page filled in from what was read (each box's cut-out and mark, the first marked box
focused, nothing saved), the save that keeps the family's digits as samples, a stale save
refused, the photo private and gone with its game; real requests on a real SQLite file.

What was read is arranged here as ``printing.photos.take`` keeps it (``storage.photos.keep``),
so these tests hold the page to the stored reading whatever the reader makes of a photo;
``test_photo_reading.py`` sends photos the generator made through the reader itself.
"""

import datetime
import io
import os
import re
import stat

import pytest
from PIL import Image, ImageDraw

from scorekeeper.printing import photos
from scorekeeper.services import deleted, game_model, hand
from scorekeeper.storage import photos as kept
from scorekeeper.web import passcode
from scorekeeper.web.bodies import Limits

from ..helpers import TEAMS, posted, text
from .test_paper import LINES as PAPER_LINES

# Friends & Family's sheet, a team a tuple: books clean, dirty, melded, left, red 3s, black
# 3s, went out, round score, total (the same game as test_paper's first two rounds)
SHEET = [
    ((4, 5, 1210, 0, 0, 0, 1, 4810, 4810), (2, 3, 690, 85, 1, 0, 0, 2005, 2005)),
    ((2, 2, 560, 140, 0, 2, 0, 2010, 6820), (4, 5, 1150, 0, 0, 0, 1, 4750, 6755)),
]
# the typing page's lines (test_paper's), then the round score and running total written
LINES = (*PAPER_LINES, "sheet_score", "sheet_total")
COMBS = {"book_clean": 1, "book_dirty": 1, "melded_points": 4, "unplayed_points": 4}
COMBS |= {"red_threes": 1, "black_threes": 1, "went_out": 1, "sheet_score": 5, "sheet_total": 5}
SIGNED = {"sheet_score", "sheet_total"}


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # posted() carries no token then: the forms are the subject
    return app


def paper_game(client):
    page = client.get("/games/new?rules=friends-family")
    response = client.post("/games/new", data={**posted(page), **TEAMS, "kept": "sheet"})
    assert response.status_code == 303, text(response)[:2000]
    return int(response.headers["Location"].split("/games/")[1].split("/")[0])


def comb(value, cells, sign=False):
    """A comb's cut-out as a pen fills it: the digits right-aligned, a box each (PNG)."""
    width, height = 40 * (cells + sign), 48
    image = Image.new("L", (width, height), 250)
    draw = ImageDraw.Draw(image)
    if value is not None:
        digits = str(abs(value))
        for i, digit in enumerate(digits):
            cell = sign + cells - len(digits) + i
            draw.text((cell * 40 + 10, 6), digit, fill=10, font_size=34)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def keep_reading(app, game, sheet=SHEET, marks=None, values=None, first_round=1):
    """Keep a photo of the game's sheet as ``printing.photos.take`` does, as if the reader
    had read ``sheet`` (``values``: {box name: what it read instead}; ``marks``: {box name:
    mark}); return its number."""
    marks, values = marks or {}, values or {}
    boxes, cutouts = {}, {}
    for r, teams in enumerate(sheet, start=first_round):
        for t, written in enumerate(teams):
            for line, value in zip(LINES, written):
                name = photos.box_name(r, t, line)
                shown = value if value or line in SIGNED else None
                read = values.get(name, shown)
                boxes[name] = {
                    "value": read,
                    "mark": marks.get(name),
                    "was": None,
                    "note": "",
                    "confidence": 0.99,
                    "digits": [int(d) for d in str(abs(read))] if read is not None else [],
                }
                cutouts[name] = comb(shown, COMBS[line], line in SIGNED)
                if line != "went_out" and shown is not None:
                    for i, _digit in enumerate(str(abs(shown))):
                        cutouts[f"{name}-d{i}"] = comb(None, 1)  # the digit as the model saw it
    last = first_round + len(sheet) - 1
    read = {
        "page": 1,
        "pages": 1,
        "paper": "letter",
        "key": "00000000",
        "sheet_rounds": last,
        "rounds": list(range(first_round, last + 1)),
        "sheet_first": first_round,
        "sheet_last": last,
        "boxes": boxes,
    }
    photo = Image.new("RGB", (60, 80), "white")
    data = io.BytesIO()
    photo.save(data, "JPEG")
    return kept.keep(app.config["PHOTOS"], game.uid, data.getvalue(), "jpg", read, cutouts)


def box(page, box_id):
    """The attributes of the input ``box_id`` of a page."""
    tag = re.search(rf'<input[^>]*\bid="{box_id}"[^>]*>', page)[0]
    return dict(re.findall(r'([a-z_-]+)="([^"]*)"', tag)) | {
        "value": re.search(r'value="([^"]*)"', tag)[1] if "value=" in tag else ""
    }


def load(db, game_id):
    return game_model.load_game(db, game_id)


# --- the upload -----------------------------------------------------------------------------------


def test_the_game_page_and_its_typing_page_open_the_camera(client):
    game_id = paper_game(client)
    for url in (f"/games/{game_id}", f"/games/{game_id}/paper"):
        page = text(client.get(url))
        assert f'action="/games/{game_id}/photo"' in page
        assert 'enctype="multipart/form-data"' in page
        assert 'accept="image/*"' in page and 'capture="environment"' in page
        assert "Photo of the sheet" in page and "Read the photo" in page


def test_a_photo_past_20_mb_is_refused_before_it_is_read(client, app):
    game_id = paper_game(client)
    assert Limits(app).of("POST", f"/games/{game_id}/photo") > 20 * 1024 * 1024
    assert Limits(app).of("POST", f"/games/{game_id}/paper") == app.config["MAX_CONTENT_LENGTH"]
    # a 21 MB photo as a phone sends it (written out here: the test client would spool it)
    huge = (
        b'--x\r\nContent-Disposition: form-data; name="file"; filename="huge.jpg"\r\n'
        b"Content-Type: image/jpeg\r\n\r\n\xff\xd8" + b"\0" * (21 * 1024 * 1024) + b"\r\n--x--\r\n"
    )
    response = client.post(
        f"/games/{game_id}/photo", data=huge, content_type="multipart/form-data; boundary=x"
    )
    assert response.status_code == 413
    assert "That photo is too big (at most 20 MB): nothing was read." in text(response)
    assert 'capture="environment"' in text(response)  # the form again, to take another
    assert not os.path.exists(app.config["PHOTOS"])


def test_no_photo_chosen_is_said_beside_the_field(client, app):
    game_id = paper_game(client)
    response = client.post(f"/games/{game_id}/photo", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose a photo of the sheet, or take one." in text(response)
    assert not os.path.exists(app.config["PHOTOS"])


# --- the typing page filled in from what was read ----------------------------------------------


def test_the_typing_page_opens_filled_in_from_the_photo_nothing_saved(client, app, db):
    game_id = paper_game(client)
    game = load(db, game_id)
    number = keep_reading(
        app,
        game,
        marks={
            "1-1-melded_points": "unsure",
            "2-0-sheet_total": "disagrees",
            "2-1-unplayed_points": "unread",
        },
        values={"2-1-unplayed_points": None},
    )
    response = client.get(f"/games/{game_id}/paper?photo={number}")
    assert response.status_code == 200
    page = text(response)
    assert "Page 1 of the sheet (rounds 1–2), read from the photo: nothing is saved yet." in page
    assert "3 boxes are marked “Look”: compare them with the sheet." in page
    # each box: its value beside its cut-out, served under the game's address
    assert box(page, "rounds-0-teams-0-melded_points")["value"] == "1210"
    assert box(page, "rounds-1-teams-1-unplayed_points")["value"] == ""  # unread: left empty
    assert f'src="/games/{game_id}/photos/{number}/1-0-melded_points.png"' in page
    # marked in words, and the first marked box has the focus
    assert "Read, but unsure: check it against the sheet." in page
    assert "The sheet’s sums disagree in this round: check this box." in page
    assert "Could not be read: type it from the sheet." in page
    focused = [line for line in page.split("<input") if "autofocus" in line]
    assert len(focused) == 1 and 'id="rounds-0-teams-1-melded_points"' in focused[0]
    assert box(page, "photo")["value"] == str(number)
    assert not load(db, game_id).rounds  # nothing saved


def test_the_cut_outs_and_the_photo_are_served(client, app, db):
    game_id = paper_game(client)
    number = keep_reading(app, load(db, game_id))
    png = client.get(f"/games/{game_id}/photos/{number}/1-0-melded_points.png")
    assert png.status_code == 200 and png.mimetype == "image/png" and png.data.startswith(b"\x89PNG")
    photo = client.get(f"/games/{game_id}/photos/{number}")
    assert photo.status_code == 200 and photo.mimetype == "image/jpeg"
    photo.close()
    assert f'href="/games/{game_id}/photos/{number}"' in text(client.get(f"/games/{game_id}"))
    for missing in (
        f"/games/{game_id}/photos/{number + 1}",
        f"/games/{game_id}/photos/{number}/9-0-melded_points.png",
        f"/games/{game_id}/photos/{number}/..%2Fread.json.png",
    ):
        assert client.get(missing).status_code == 404


def test_saving_a_sheet_from_a_photo_keeps_the_familys_digits(client, app, db):
    game_id = paper_game(client)
    number = keep_reading(
        app, load(db, game_id), values={"1-0-melded_points": 1710}, marks={"1-0-melded_points": "unsure"}
    )
    page = client.get(f"/games/{game_id}/paper?photo={number}")
    values = posted(page)
    values["rounds-0-teams-0-melded_points"] = "1210"  # the family corrects the 7 the reader saw
    checked = client.post(f"/games/{game_id}/paper", data={**values, "action": "check"})
    assert checked.status_code == 200, text(checked)[:3000]
    # looked at and put right: no longer marked, its cut-out still beside it
    assert 'id="rounds-0-teams-0-melded_points-read"' not in text(checked)
    assert f"/games/{game_id}/photos/{number}/1-0-melded_points.png" in text(checked)
    saved = client.post(f"/games/{game_id}/paper", data={**posted(checked), "action": "save"})
    assert saved.status_code == 303, text(saved)[:3000]
    game = load(db, game_id)
    assert [[e.melded_points for e in r.entries] for r in game.rounds] == [[1210, 690], [560, 1150]]
    samples = hand.samples(db)
    # every digit of every box of digits written (books, points, sums), none of the tick boxes
    written = sum(
        len(str(value))
        for teams in SHEET
        for team in teams
        for line, value in zip(LINES, team)
        if line != "went_out" and (value or line in SIGNED)
    )
    assert len(samples) == written
    corrected = [s for s in samples if s.corrected]
    assert [(s.digit, s.read) for s in corrected] == [(2, 7)]


def test_a_stale_save_from_a_photo_is_refused_and_keeps_nothing(client, app, db):
    game_id = paper_game(client)
    number = keep_reading(app, load(db, game_id))
    checked = client.post(
        f"/games/{game_id}/paper",
        data={**posted(client.get(f"/games/{game_id}/paper?photo={number}")), "action": "check"},
    )
    assert checked.status_code == 200
    client.post(
        f"/games/{game_id}/played",
        data={
            **posted(client.get(f"/games/{game_id}/played")),
            "played_day": "2026-01-02",
            "played_time": "20:00",
        },
    )
    assert load(db, game_id).revision > int(posted(checked)["revision"])
    refused = client.post(f"/games/{game_id}/paper", data={**posted(checked), "action": "save"})
    assert refused.status_code == 422
    assert "This game changed on another phone since you opened this page" in text(refused)
    assert not load(db, game_id).rounds and hand.samples(db) == []


def test_a_photo_of_a_page_typed_in_since_says_so(client, app, db):
    game_id = paper_game(client)
    number = keep_reading(app, load(db, game_id))
    values = posted(client.get(f"/games/{game_id}/paper?photo={number}"))
    del values["ended"]  # the game goes on after these rounds
    checked = client.post(f"/games/{game_id}/paper", data={**values, "action": "check"})
    client.post(f"/games/{game_id}/paper", data={**posted(checked), "action": "save"})
    assert len(load(db, game_id).rounds) == 2
    again = client.get(f"/games/{game_id}/paper?photo={number}", follow_redirects=True)
    assert "Page 1 (rounds 1–2) is typed in already." in text(again)


# --- kept private, and gone with the game ----------------------------------------------------------


def test_the_photo_is_private_and_gone_when_its_game_is_removed_for_good(client, app, db):
    game_id = paper_game(client)
    game = load(db, game_id)
    number = keep_reading(app, game)
    folder = kept.folder_of(app.config["PHOTOS"], game.uid)
    path = kept.photo_path(app.config["PHOTOS"], game.uid, number)
    for file in path.parent.iterdir():
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
    for here in (app.config["PHOTOS"], folder, path.parent):
        assert stat.S_IMODE(os.stat(here).st_mode) == 0o700, here
    page = client.get(f"/games/{game_id}/delete")
    assert client.post(f"/games/{game_id}/delete", data=posted(page)).status_code == 303
    assert path.exists()  # deleted, and can be restored for 30 days: the photo stays
    assert client.get(f"/games/{game_id}/photos/{number}").status_code == 404
    deleted.purge(
        db, datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=31), photos=app.config["PHOTOS"]
    )
    assert not folder.exists()


def test_photos_of_a_game_no_longer_in_the_database_are_swept(client, app, db):
    game_id = paper_game(client)
    game = load(db, game_id)
    keep_reading(app, game)
    stray = kept.folder_of(app.config["PHOTOS"], "a game of a backup restored since")
    stray.mkdir(mode=0o700)
    deleted.purge(db, photos=app.config["PHOTOS"])
    assert not stray.exists() and kept.folder_of(app.config["PHOTOS"], game.uid).exists()


def test_with_a_passcode_no_photo_or_cut_out_opens_without_it(app, db):
    client = app.test_client()
    from ..helpers import at_home

    at_home(client, app)
    game_id = paper_game(client)
    number = keep_reading(app, load(db, game_id))
    passcode.set_passcode(app.instance_path, "Marmalade-42")
    stranger = app.test_client()
    for url in (
        f"/games/{game_id}/photos/{number}",
        f"/games/{game_id}/photos/{number}/1-0-melded_points.png",
        f"/games/{game_id}/paper?photo={number}",
        f"/games/{game_id}/photo",
    ):
        response = stranger.get(url)
        assert response.status_code in (302, 303) and "/sign-in" in response.headers["Location"], url
