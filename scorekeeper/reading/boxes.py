"""Every comb of a found page cut out at the layout's millimetres and read (issue 55).

A digit box is cut inside its printed lines (``INSET_MM``) from the flattened page's red
channel, where the lines fade into the paper, and read by ``digits`` (with the family's
samples, ``Hand``, where given); the lines, dark enough in the luminance, say whether the
comb is in focus (``line_depth``). A minus box reads as minus when it holds a stroke, a
tick box as yes when it holds one. A number is its comb's digits read left to right, the
blank boxes before them left out. A box is marked "unread" where it was outside the
photo or out of focus, "unsure" where a digit's confidence is under
``UNSURE`` or the writing has a gap.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np

from . import digits

INSET_MM = 0.65  # a box is cut this far inside its edges (the PDF's 0.3 mm lines reach 0.15 mm in)
MARGIN_MM = 1.2  # a comb's cut-out shows this much around it
#: a digit read with less confidence makes its box "unsure"
UNSURE = 0.9
UNREAD, UNSURE_MARK = "unread", "unsure"
#: a comb whose printed lines are fainter than this against the paper (``line_depth``) is
#: out of focus: not read. Measured on photos of the app's printed sheet (its PDF's 0.3 mm
#: lines in the layout's light red, rasterised and photographed by tests/photos.py): 0.12-0.27
#: in focus (blurred up to 1.6 px of the photo), 0.05-0.11 with 4 px more, under 0.03 (a
#: few to 0.06) with 12 px more
SHARP = 0.08


@dataclass(frozen=True)
class BoxReading:
    """What one comb (or tick box) of the sheet says.

    ``value``: the number (a tick box: 1 ticked), None when blank or unread; ``cells``:
    each digit box's ``digits.Reading``, left to right (a minus box apart: ``negative``);
    ``images``: each digit box as the model saw it (``digits.normalize``; None blank), the
    samples ``Hand.learn`` keeps; ``picture``: the comb cut out of the photo (PNG);
    ``mark``: None, "unread", "unsure", and after ``check`` "forbidden", "disagrees" or
    "repaired" (``was``: the value read before the repair; ``note``: why)."""

    box: object  # printing.layout.Box
    value: int | None
    confidence: float
    cells: tuple
    negative: bool
    images: tuple
    picture: bytes
    mark: str | None = None
    note: str = ""
    was: int | None = None

    @property
    def key(self):
        return (self.box.round, self.box.team, self.box.name)

    @property
    def blank(self):
        return self.value is None and self.mark is None


def _cut(found, x, y, w, h, inset=INSET_MM):
    left, top = round(found.px(x + inset)), round(found.px(y + inset))
    right, bottom = round(found.px(x + w - inset)), round(found.px(y + h - inset))
    return (left, top, right, bottom)


def line_depth(found, box):
    """How dark the comb's printed lines are against the paper (0-1): the darker of its top
    and bottom lines, or the median of the lines between and beside its boxes if fainter.
    Out of focus, a thin line spreads into the paper and fades; cut in the wrong place (a
    page placed by three markers, bent by perspective), the lines are not where looked for."""

    def depth(strip, axis):
        if strip.shape[0] < 3 or strip.shape[1] < 3:
            return None
        profile = np.median(strip.astype(np.float32), axis=axis)  # a digit's ink is not the line
        paper = max(float(profile[0]), float(profile[-1]), 1.0)
        return (paper - float(profile.min())) / paper

    def strip(top, bottom, left, right):
        top, bottom, left, right = (max(0, round(found.px(v))) for v in (top, bottom, left, right))
        return found.gray[top : bottom + 1, left : right + 1]

    across = [
        depth(strip(y - 1.0, y + 1.0, box.x + 0.5, box.x + box.width - 0.5), 1)
        for y in (box.y, box.y + box.cell_h)
    ]
    down = [
        depth(strip(box.y + 0.5, box.y + box.cell_h - 0.5, x - 1.0, x + 1.0), 0)
        for x in [box.x + i * box.cell_w for i in range(box.digits + box.sign + 1)]
    ]
    across = [d for d in across if d is not None]
    down = [d for d in down if d is not None]
    if not across or not down:
        return 0.0
    return min(max(across), float(np.median(down)))


def _picture(found, box):
    margin = MARGIN_MM
    area = _cut(found, box.x, box.y, box.width, box.cell_h, -margin)
    buffer = io.BytesIO()
    found.image.crop(area).save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


def read(found, geom, hand=None):
    """{(round, team, line name): ``BoxReading``} of every comb of the page ``found`` is,
    cut at the layout ``geom`` (the game's ``printing.layout.geometry``, its ``key`` the
    one the QR code names); ``hand``: the family's ``Hand``. A ``ValueError`` where the
    layout is not the one printed (the caller rebuilt another game's, or the rules changed
    since the sheet was printed)."""
    if geom.key != found.code.key or not 0 < found.code.page <= len(geom.pages):
        raise ValueError(
            f"the sheet printed layout {found.code.key}, page {found.code.page}; this is {geom.key}"
        )
    page = geom.pages[found.code.page - 1]
    cells, places = [], []  # every digit, minus and tick box: its image and (box, index)
    outside = set()
    for b, box in enumerate(page.boxes):
        for i, (x, y, w, h) in enumerate(box.cells()):
            left, top, right, bottom = _cut(found, x, y, w, h)
            inside = found.inside[max(top, 0) : max(bottom, 0), max(left, 0) : max(right, 0)]
            if inside.size == 0 or not inside.all():
                outside.add(b)
            cells.append(found.page[max(top, 0) : bottom, max(left, 0) : right])
            places.append((b, i))
    images = [digits.normalize(cell) if cell.size >= 4 else None for cell in cells]
    written = [i for i, image in enumerate(images) if image is not None]
    chances = np.zeros((len(cells), 10))
    if written:
        stacked = np.stack([images[i] for i in written])
        found_chances = digits.probabilities(stacked)
        if hand is not None:
            found_chances = hand.blend(digits.features(stacked), found_chances)
        chances[written] = found_chances
    per_box = {}
    for index, (b, _cell) in enumerate(places):
        per_box.setdefault(b, []).append(index)
    readings = {}
    for b, box in enumerate(page.boxes):
        indexes = per_box[b]
        if box.sign:
            negative = images[indexes[0]] is not None
            indexes = indexes[1:]
        else:
            negative = False
        cell_readings = tuple(
            digits.Reading(None, 1.0)
            if images[i] is None
            else digits.Reading(
                int(chances[i].argmax()), float(chances[i].max()), tuple(map(float, chances[i]))
            )
            for i in indexes
        )
        reading = _number(box, cell_readings, negative)
        value, confidence, mark = reading
        if b in outside or line_depth(found, box) < SHARP:
            value, mark = None, UNREAD
        readings[(box.round, box.team, box.name)] = BoxReading(
            box,
            value,
            confidence,
            cell_readings,
            negative,
            tuple(images[i] for i in indexes),
            _picture(found, box),
            mark,
        )
    return readings


def _number(box, cells, negative):
    """(value, confidence, mark) of a comb's digit readings."""
    if box.line.kind == "flag":
        return (None if cells[0].blank else 1), 1.0, None
    shown = [i for i, cell in enumerate(cells) if not cell.blank]
    if not shown:
        return None, 1.0, (UNSURE_MARK if negative else None)
    confidence = min(cells[i].confidence for i in shown)
    gap = shown[-1] - shown[0] + 1 != len(shown)
    value = int("".join(str(cells[i].digit) for i in shown))
    value = -value if negative else value
    return value, confidence, (UNSURE_MARK if gap or confidence < UNSURE else None)


def value_of(box, cells, negative):
    """The number the comb's digits make (digits changed by a repair), None where blank."""
    return _number(box, cells, negative)[0]
