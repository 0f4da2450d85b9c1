"""Every comb of a found page cut out at the layout's millimetres and read (issue 55).

A digit box is cut inside its printed lines (``INSET_MM``) from the flattened page's red
channel, where the lines fade into the paper, and read by ``digits`` (with the family's
samples, ``Hand``, where given); a minus box reads as minus when it holds a stroke, a
tick box as yes when it holds one. A number is its comb's digits read left to right, the
blank boxes before them left out. A box is marked "unread" where it was outside the
photo or the photo is too blurred to read, "unsure" where a digit's confidence is under
``UNSURE`` or the writing has a gap.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np

from . import digits

INSET_MM = 0.65  # a box is cut this far inside its printed lines
MARGIN_MM = 1.2  # a comb's cut-out shows this much around it
#: a digit read with less confidence makes its box "unsure"
UNSURE = 0.9
UNREAD, UNSURE_MARK = "unread", "unsure"


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


def _picture(found, box):
    margin = MARGIN_MM
    area = _cut(found, box.x, box.y, box.width, box.cell_h, -margin)
    buffer = io.BytesIO()
    found.image.crop(area).save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


def read(found, geom, hand=None):
    """{(round, team, line name): ``BoxReading``} of every comb of the page ``found`` is,
    cut at the layout ``geom`` (the game's ``printing.layout.geometry``, its ``key`` the
    one the QR code names); ``hand``: the family's ``Hand``."""
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
        features = digits.features(np.stack([images[i] for i in written]))
        found_chances = digits.chances_of(features)
        if hand is not None:
            found_chances = hand.blend(features, found_chances)
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
        if b in outside or found.blurred:
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
