"""Photos of filled-in readable sheets, made in simulation and seeded (issue 55): for the
reader's tests and its benchmark (``bench/reader.py``).

- ``play``: a game's entries, drawn at random and scored by the engine (``scoring``): the
  round scores and running totals written on the sheet are the engine's;
- ``printed``: the blank page of the game's readable sheet as the family prints it: the
  PDF the app serves at ``/games/<id>/blank.pdf`` (a test with an app passes it in; else
  ``blank_pdf`` renders it with the view's own functions for a ``game`` not stored),
  rasterised by poppler's ``pdftoppm``;
- ``fill``: the numbers written in the boxes with handwritten digits the model never saw
  (``tests/unit/digits_heldout.npz``, MNIST's: docs/READER.md), one per box, in a pen's
  colour; ``family_style`` draws them another way (a family's continental 1s and 7s);
- ``photograph``: the page as a 12 MP phone photo: turned (upside down and sideways too),
  tilted, on a table, light falling off and a soft shadow, blurred, JPEG 60-85.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import hashlib
import io
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import segno
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from scorekeeper import scoring
from scorekeeper.printing import layout, readable

HELD_OUT = Path(__file__).parent / "unit" / "digits_heldout.npz"
DRAWN_DPI = 200  # the printed page, rasterised
PHOTO = (3000, 4000)  # 12 MP, portrait
RULES = "friends-family"
INK = ((28, 32, 95), (35, 35, 40), (20, 45, 120))  # blue and black pens
TEAMS = (("Ann", "Bo"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal"))
SHARE_ADDRESS = "192.168.1.20"  # the address phones reach the computer at, in the QR code
_C_LIBRARY = ctypes.CDLL(None)  # the process's C library, whose rand() ``Image.effect_noise`` uses


def held_out():
    """(images, labels) of the 1,000 held-out MNIST digits: bright ink on black, 28 × 28."""
    with np.load(HELD_OUT) as saved:
        return saved["images"], saved["labels"].astype(int)


@dataclass
class Sheet:
    """A game written on its readable sheet: where its boxes are and what each says."""

    rules: object
    geom: object
    rounds: list  # [[TeamRound per team] per round]
    values: dict  # {(round, team, line name): the number written, None: left blank}
    game_id: int = 7


def play(rules, teams, rounds, rng):
    """A game's rounds (``TeamRound`` lists) drawn at random, each passing the engine's
    checks (no error), for ``teams`` teams."""
    need = rules.books_to_go_out or {}
    played = []
    for number in range(1, rounds + 1):
        while True:
            out = int(rng.integers(teams)) if rng.random() < 0.9 else None
            entries = []
            for team in range(teams):
                went_out = team == out
                books = {
                    kind: int(max(need.get(kind, 0), rng.integers(0, 5)) if went_out else rng.integers(0, 5))
                    for kind in rules.books
                }
                values = {
                    "melded_points": int(5 * rng.integers(10, 500)),
                    "unplayed_points": 0 if went_out else int(5 * rng.integers(0, 90)),
                    "red_threes": int(rng.choice([0, 0, 0, 1, 1, 2, 3])),
                    "black_threes": int(rng.choice([0, 0, 0, 0, 1, 2])),
                    "went_out": went_out,
                }
                asked = {f.name for f in scoring.entry_fields(rules) if scoring.asked(rules, f)}
                entries.append(
                    scoring.TeamRound(books=books, **{k: v for k, v in values.items() if k in asked})
                )
            problems = scoring.check_round(rules, entries, number)
            if not any(p.level == "error" for p in problems):
                played.append(entries)
                break
    return played


def game(rules, teams, rounds, game_id=7):
    """The game as the app holds it (``game_model.Game``, not stored): ``teams`` teams of
    two (``TEAMS``), kept on a paper sheet, played on Saturday 28 November 2026, its rules
    played in ``rounds`` rounds (a house rule set's number of rounds, where the rule set
    plans another): its sheet has those rounds."""
    from scorekeeper.services.game_model import PAPER_SHEET, Game, Team
    from scorekeeper.services.players import Player

    if rules.planned_rounds != rounds:
        rules = dataclasses.replace(rules, end={**(rules.end or {}), "rounds": rounds})
    sides = tuple(
        Team(t + 1, t, " & ".join(names), tuple(Player(2 * t + p + 1, name) for p, name in enumerate(names)))
        for t, names in enumerate(TEAMS[:teams])
    )
    return Game(
        id=game_id,
        uid=f"photos-{game_id}",
        rules=rules,
        rules_key=None,
        teams=sides,
        rounds=(),
        first_dealer=None,
        ended_by_hand=False,
        finished_at=None,
        created_at="",
        updated_at="",
        revision=1,
        paper=PAPER_SHEET,
        night="2026-11-28",
    )


def sheet(rules, teams, rounds, rng, paper="letter", slip=None):
    """A ``Sheet``: a game played and its numbers as written (the engine's sums), on the
    sheet the app prints for it (``printing.readable.game_geometry``). ``slip`` (round,
    team, by): the family's running total off by ``by`` in that round, and every total
    after it added on from the slip, as a family carries a slip on."""
    geom = readable.game_geometry(game(rules, teams, rounds), paper)
    played = play(rules, teams, rounds, rng)
    s = scoring.standings(rules, played, teams=teams)
    values = {}
    for box in geom.boxes():
        entry = played[box.round - 1][box.team]
        name, kind = box.line.name, box.line.kind
        if name.startswith("book_"):
            value = entry.books.get(name.removeprefix("book_"), 0)
        elif name == layout.ROUND_SCORE:
            value = s.round_scores[box.round - 1][box.team].total
        elif name == layout.TOTAL:
            value = s.running_totals[box.round - 1][box.team]
            if slip and slip[1] == box.team and box.round >= slip[0]:
                value += slip[2]
        else:
            value = getattr(entry, name)
        if kind == "flag":
            value = 1 if value else None
        elif kind == "count" and value == 0 and rng.random() < 0.5:
            value = None  # a 0 left blank
        values[(box.round, box.team, name)] = value
    return Sheet(rules, geom, played, values)


def code_text(sheet, page):
    """What a QR code naming the sheet's page would say, written by another app (the
    printed one is the app's own: ``blank_pdf``)."""
    query = "&".join(f"{k}={v}" for k, v in layout.code_query(sheet.geom, page).items())
    return f"http://{SHARE_ADDRESS}:5000/games/{sheet.game_id}/paper?{query}"


def mm(value, dpi=DRAWN_DPI):
    return value * dpi / 25.4


@functools.cache
def _printer():
    """An app to print sheets with, on a folder of its own (no database: printing a
    game's sheet reads none), the address phones reach it at set as a family's is."""
    from scorekeeper import create_app

    folder = tempfile.TemporaryDirectory(prefix="photos-printer-")
    before = os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = folder.name
    try:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "photos",
                "DATABASE": os.path.join(folder.name, "unused.db"),
                "SHARE_ADDRESS": SHARE_ADDRESS,
                "TRUSTED_HOSTS": ["localhost", SHARE_ADDRESS],
            }
        )
    finally:
        if before is None:
            del os.environ["SCOREKEEPER_INSTANCE_PATH"]
        else:
            os.environ["SCOREKEEPER_INSTANCE_PATH"] = before
    app.extensions["photos-printer-folder"] = folder  # kept as long as the app
    return app


@functools.cache
def blank_pdf(rules, teams, rounds, paper="letter", game_id=7):
    """The PDF of the game's sheet to play on, as ``/games/<id>/blank.pdf`` serves it
    (``views.sheets.game_blank_html``, ``printing.sheets.pdf_from_html``), for a game
    that is not stored (``game``); cached: WeasyPrint takes seconds a sheet."""
    from scorekeeper.printing import sheets as printing
    from scorekeeper.views import sheets as views

    with _printer().test_request_context("/", base_url="http://localhost:5000"):
        html = views.game_blank_html(game(rules, teams, rounds, game_id), paper, pdf=True)
        return printing.pdf_from_html(html)


@functools.cache
def todays_pdf(rules, teams, rounds, paper="letter"):
    """The PDF of today's blank sheet, the one printed to play on before the readable one:
    ``/rules/<key>/blank.pdf`` (``views.sheets.blank_html``), the teams' names in its head
    and a box per team and round, with no comb boxes, corner markers or QR code."""
    from scorekeeper.printing import sheets as printing
    from scorekeeper.views import sheets as views

    names = [" & ".join(names) for names in TEAMS[:teams]]
    if rules.planned_rounds != rounds:
        rules = dataclasses.replace(rules, end={**(rules.end or {}), "rounds": rounds})
    with _printer().test_request_context("/", base_url="http://localhost:5000"):
        return printing.pdf_from_html(views.blank_html(rules, names, rounds, paper, pdf=True))


@functools.cache
def rasterized(pdf, page_number, dpi=DRAWN_DPI):
    """Page ``page_number`` of a PDF as printed (RGB PNG bytes at ``dpi``: poppler's
    pdftoppm)."""
    return subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-png",
            "-f",
            str(page_number),
            "-l",
            str(page_number),
            "-singlefile",
            "-",
        ],
        input=pdf,
        capture_output=True,
        check=True,
    ).stdout


def printed(sheet, page_number, pdf=None, dpi=DRAWN_DPI):
    """The blank page as printed (RGB, ``dpi``): the sheet's PDF rasterised, ``pdf`` as the
    app served it for a stored game, else the app's own sheet of the game (``blank_pdf``)."""
    if pdf is None:
        pdf = blank_pdf(sheet.rules, sheet.geom.teams, sheet.geom.rounds, sheet.geom.paper, sheet.game_id)
    image = Image.open(io.BytesIO(rasterized(pdf, page_number, dpi))).convert("RGB")
    assert image.size == (round(mm(sheet.geom.size[0], dpi)), round(mm(sheet.geom.size[1], dpi))), image.size
    return image


def with_code(image, geom, page_number, text, dpi=DRAWN_DPI):
    """The page with another QR code pasted over its own (``text``: as another app, or a
    hand, wrote it), at the printed one's place and size."""
    code = segno.make(text, error="m")
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=1, border=4)
    side = round(mm(layout.QR_SIZE_MM, dpi))
    x, y = geom.pages[page_number - 1].qr
    image.paste(
        Image.open(buffer).convert("RGB").resize((side, side), Image.NEAREST),
        (round(mm(x, dpi)), round(mm(y, dpi))),
    )
    return image


def family_style(image, label, rng):
    """A held-out digit drawn the family's way: a continental 1 (a flag at its top), a 7
    with a bar, every digit leaning right and its strokes thicker."""
    picture = Image.fromarray(image)
    draw = ImageDraw.Draw(picture)
    ink = np.argwhere(image > 128)
    if label == 1 and len(ink):
        top = ink[ink[:, 0].argmin()]
        draw.line((top[1], top[0], top[1] - 6, top[0] + 5), fill=255, width=2)
    if label == 7 and len(ink):
        middle = (ink[:, 0].min() + ink[:, 0].max()) // 2 + 1
        row = ink[np.abs(ink[:, 0] - middle) <= 1]
        centre = int(row[:, 1].mean()) if len(row) else 14
        draw.line((centre - 5, middle, centre + 5, middle), fill=255, width=2)
    lean = rng.uniform(0.2, 0.35)
    picture = picture.transform(picture.size, Image.AFFINE, (1, lean, -lean * 14, 0, 1, 0), Image.BILINEAR)
    return np.asarray(picture.filter(ImageFilter.MaxFilter(3)))


class Pen:
    """Writes digits from a bank of handwritten ones (28 × 28, bright ink on black)."""

    def __init__(self, images, labels, rng, style=None):
        self.by_digit = {d: images[labels == d] for d in range(10)}
        self.rng = rng
        self.style = style

    def digit(self, label):
        bank = self.by_digit[label]
        image = bank[self.rng.integers(len(bank))]
        return self.style(image, label, self.rng) if self.style else image


def _write(image, ink, cell, colour, rng, dpi):
    """A digit (bright on black) written in the cell (x, y, w, h mm) of the page."""
    x, y, w, h = cell
    rows, columns = np.nonzero(ink > 40)
    if len(rows) == 0:
        return
    ink = ink[rows.min() : rows.max() + 1, columns.min() : columns.max() + 1]
    tall = rng.uniform(0.5, 0.72) * h
    scale = min(mm(tall, dpi) / ink.shape[0], mm(w - 1.6, dpi) / ink.shape[1])
    size = (max(1, round(ink.shape[1] * scale)), max(1, round(ink.shape[0] * scale)))
    mask = Image.fromarray(ink).resize(size, Image.BILINEAR)
    mask = mask.rotate(rng.uniform(-6, 6), resample=Image.BILINEAR, expand=True)
    room_x = mm(w, dpi) - mask.width - 2 * mm(0.7, dpi)
    room_y = mm(h, dpi) - mask.height - 2 * mm(0.9, dpi)
    left = mm(x, dpi) + mm(0.7, dpi) + rng.uniform(0.15, 0.85) * max(room_x, 0)
    top = mm(y, dpi) + mm(0.9, dpi) + rng.uniform(0.2, 0.8) * max(room_y, 0)
    image.paste(Image.new("RGB", mask.size, colour), (round(left), round(top)), mask)


def fill(image, geom, page_number, values, pen, rng, dpi=DRAWN_DPI):
    """The page's boxes written in: each number right-aligned in its comb, a minus in its
    own box, a tick in a yes box."""
    colour = INK[rng.integers(len(INK))]
    draw = ImageDraw.Draw(image)
    for box in geom.pages[page_number - 1].boxes:
        value = values.get((box.round, box.team, box.name))
        if value is None:
            continue
        cells = box.cells()
        if box.line.kind == "flag":
            x, y, w, h = cells[0]
            a = (mm(x + w * 0.25, dpi), mm(y + h * 0.55, dpi))
            b = (mm(x + w * 0.45, dpi), mm(y + h * 0.75, dpi))
            c = (mm(x + w * 0.8, dpi), mm(y + h * 0.25, dpi))
            draw.line((a, b, c), fill=colour, width=round(mm(0.6, dpi)))
            continue
        if box.sign:
            sign, cells = cells[0], cells[1:]
            if value < 0:
                x, y, w, h = sign
                middle = y + h * rng.uniform(0.42, 0.58)
                draw.line(
                    (
                        mm(x + w * 0.25, dpi),
                        mm(middle, dpi),
                        mm(x + w * 0.75, dpi),
                        mm(middle + rng.uniform(-0.4, 0.4), dpi),
                    ),
                    fill=colour,
                    width=round(mm(0.6, dpi)),
                )
        text = str(abs(value))
        assert len(text) <= len(cells), (box, value)
        for cell, character in zip(cells[len(cells) - len(text) :], text):
            _write(image, pen.digit(int(character)), cell, colour, rng, dpi)
    return image


@dataclass
class Photo:
    data: bytes  # JPEG
    corners: (
        np.ndarray
    )  # the markers' centres in the photo: the page's top left, top right, bottom right, bottom left
    turn: int  # degrees the page was turned (0, 90, 180, 270) before the small rotation


def _homography(source, target):
    # The simulated camera's own solve, not the reader's ``reading.page.homography``: the
    # photo is made apart from the code that undoes it, so a fault there cannot cancel out.
    rows = []
    for (x, y), (u, v) in zip(source, target):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(rows, dtype=float))
    return vt[-1].reshape(3, 3) / vt[-1, -1]


def photograph(
    page,
    rng,
    *,
    turn=None,
    skew=None,
    blur=None,
    quality=None,
    markers_mm=None,
    dpi=DRAWN_DPI,
    shadow=True,
    out_of_focus=None,
    size=PHOTO,
):
    """The page as a 12 MP phone photo (``size``: another phone's, width × height): turned
    by ``turn`` degrees (drawn from 0, 90, 180, 270 when None) and up to 10° more (``skew``),
    its far edge narrower (tilt 5-15 %), on a table, light falling off to 65-85 %, a soft
    shadow, blurred, JPEG 60-85. ``out_of_focus`` (share, radius): the photo's lower
    ``share`` blurred by ``radius`` pixels more."""
    width, height = size
    turn = int(rng.choice([0, 0, 0, 90, 180, 270])) if turn is None else turn
    angle = np.deg2rad(turn + (rng.uniform(-10, 10) if skew is None else skew))
    tilt = rng.uniform(0.05, 0.15)
    w, h = page.size
    source = np.array([(0, 0), (w, 0), (w, h), (0, h)], dtype=float)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    target = (source - source.mean(axis=0)) @ rotation.T
    target[:, 0] *= np.where(target[:, 1] < 0, 1 - tilt, 1.0)  # the photo's top farther away
    target[:, 1] *= np.where(target[:, 1] < 0, 1 - tilt / 3, 1.0)
    span = target.max(axis=0) - target.min(axis=0)
    scale = rng.uniform(0.8, 0.93) * min(width / span[0], height / span[1])
    target = target * scale + (width / 2, height / 2) + rng.uniform(-0.03, 0.03, 2) * (width, height)
    forward = _homography(source, target)
    inverse = np.linalg.inv(forward)
    coefficients = tuple((inverse / inverse[2, 2]).ravel()[:8])
    table = tuple(int(v) for v in rng.integers(40, 110, 3))
    photo = Image.new("RGB", size, table)
    mask = Image.new("L", page.size, 255).transform(size, Image.PERSPECTIVE, coefficients)
    paper = page.transform(size, Image.PERSPECTIVE, coefficients, Image.BILINEAR)
    photo.paste(paper, (0, 0), mask)
    # light: falling off across the photo, and a soft shadow over a part of it
    ys, xs = np.mgrid[0:100, 0:75]
    ys, xs = ys / 100, xs / 75
    direction = rng.uniform(0, 2 * np.pi)
    along = (xs - 0.5) * np.cos(direction) + (ys - 0.5) * np.sin(direction)
    light = 1.0 - rng.uniform(0.15, 0.35) * (along - along.min()) / (np.ptp(along) or 1)
    if shadow:
        side = rng.uniform(0, 2 * np.pi)
        edge = (xs - 0.5) * np.cos(side) + (ys - 0.5) * np.sin(side)
        cut = rng.uniform(0.2, 0.45)
        light *= 1.0 - rng.uniform(0.15, 0.3) / (1 + np.exp(-(edge - cut) * 25))
    light_image = Image.fromarray((light * 255).astype(np.uint8)).resize(size, Image.BILINEAR)
    photo = ImageChops.multiply(photo, Image.merge("RGB", [light_image] * 3))
    # Pillow's noise draws from the C library's rand(), one sequence a process: set to its
    # start (a process's first photo's noise), or a photo made after another test's (or
    # any code calling rand()) would be another photo, and read otherwise (issue 55)
    _C_LIBRARY.srand(1)
    noise = Image.effect_noise(size, 6).convert("RGB")
    photo = ImageChops.add(photo, noise, scale=1.0, offset=-128)
    radius = rng.uniform(0.6, 1.6) if blur is None else blur
    photo = photo.filter(ImageFilter.GaussianBlur(radius))
    if out_of_focus:
        share, more = out_of_focus
        area = (0, round(height * (1 - share)), width, height)
        photo.paste(photo.crop(area).filter(ImageFilter.GaussianBlur(more)), area[:2])
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=int(rng.integers(60, 86)) if quality is None else quality)
    corners = None
    if markers_mm is not None:
        corners = np.c_[np.asarray(markers_mm) * dpi / 25.4, np.ones(4)] @ forward.T
        corners = corners[:, :2] / corners[:, 2:]
    return Photo(buffer.getvalue(), corners, turn)


def drawn_once(tmp_path_factory, key, draw):
    """The ``Photo`` ``draw()`` makes, drawn once for the whole run by the first test
    process to ask for it (``tests.helpers.built_once``: xdist's workers share it) and read
    back by the others; ``key`` says what drew it (a 12 MP photo takes a second or more)."""
    from .helpers import built_once

    def build(folder):
        photo = draw()
        (folder / "photo.jpg").write_bytes(photo.data)
        corners = None if photo.corners is None else photo.corners.tolist()
        return {"path": str(folder / "photo.jpg"), "corners": corners, "turn": photo.turn}

    name = "photo-" + hashlib.sha256(repr(key).encode()).hexdigest()[:16]
    made = built_once(tmp_path_factory, name, build)
    corners = None if made["corners"] is None else np.array(made["corners"])
    return Photo(Path(made["path"]).read_bytes(), corners, made["turn"])


def marker_centres(geom, page_number):
    """The page's marker centres (mm): top left, top right, bottom right, bottom left."""
    half = layout.MARKER_MM / 2
    tl, tr, bl, br = geom.pages[page_number - 1].markers
    return [(x + half, y + half) for x, y in (tl, tr, br, bl)]


def pages(sheet, rng, pen, **photo):
    """A ``Photo`` of each page of the sheet as the app prints it (``printed``), written in."""
    photos = []
    for page in sheet.geom.pages:
        image = printed(sheet, page.number)
        fill(image, sheet.geom, page.number, sheet.values, pen, rng)
        photos.append(photograph(image, rng, markers_mm=marker_centres(sheet.geom, page.number), **photo))
    return photos


def rules():
    return scoring.RULESETS[RULES]
