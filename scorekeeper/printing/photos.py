"""A photo of a game's printed sheet taken in (issue 55): read, checked against the game,
kept with it, and what the family saves from it kept as samples of their hand.

``take`` is the upload: the reader finds the page (``reading.find``) and its QR code names
the game, the layout and the page; a sheet of another game, a page typed in already, a
page after rounds not typed yet, or a sheet printed before the game's rules or teams changed
is refused (``Refused``, with what to say and do), as is what is no photo of a sheet.
Otherwise each box is read (``reading.read``, with the family's own samples beside the
shipped model: ``reading.Hand``), the rules check what was read (``reading.check``: a value
a rule forbids, a round score or total that disagrees, a box repaired by one digit), and
the photo, what was read and each box's cut-out are kept (``storage.photos``), nothing
else: the typing page opens filled in from it (``views.paper``) and saves as it always does.

``samples`` is the other way: the boxes the family saved from the page, each digit's
cut-out beside the digit saved, for ``services.hand.keep`` in the save's transaction.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
from PIL import Image, UnidentifiedImageError

from .. import reading
from ..scoring import MAX_ROUNDS
from ..scoring.language import N_, _, number
from ..services import game_model
from ..services import hand as family_hand
from ..storage import photos as kept
from . import layout

#: the lines whose boxes hold digits a sample can be made of (not a tick box)
DIGIT_KINDS = frozenset(("books", "count", "points", "sum"))
#: what a box's mark says beside it, in words (colour is never the only sign)
MARKS = {
    "unsure": N_("Read, but unsure: check it against the sheet."),
    "unread": N_("Could not be read: type it from the sheet."),
    "repaired": N_("Mended by the sheet’s own sums: the photo read %(read)s. Check it."),
    "disagrees": N_("The sheet’s sums disagree in this round: check this box."),
    "forbidden": N_("These rules cannot score this: check it."),
}


class Refused(Exception):
    """The photo cannot fill this game's sheet: ``str()`` says why, ``hint`` what to try;
    ``other`` is the game whose sheet it is, when it is another's (its id, and the game
    when it is in the history)."""

    def __init__(self, message, hint=None, other=None, other_game=None):
        super().__init__(message)
        self.hint = hint
        self.other = other
        self.other_game = other_game


@dataclass(frozen=True)
class Taken:
    """A photo kept: its number among the game's photos, and the page it is of."""

    number: int
    page: int
    rounds: tuple


def box_name(round_number, team, line):
    """A box's name among a photo's cut-outs and read values (round, team index, line)."""
    return f"{round_number}-{team}-{line}"


def take(db, folder, game, data):
    """Read ``data`` (the photo's bytes) as a page of ``game``'s sheet and keep it (in
    ``folder``, the app's ``PHOTOS``); return the ``Taken`` photo, or raise ``Refused``."""
    try:
        found = reading.find(data)
    except (reading.NotAnImage, reading.NoSheet, reading.NoCode) as error:
        raise Refused(str(error)) from None  # the reader's message says what to try
    code = found.code
    if code.game_id != game.id:
        other = game_model.load_game(db, code.game_id)
        if other is None:
            raise Refused(
                _("This is the sheet of game %(id)s, which is not in this history.", id=code.game_id),
                _("Photograph this game’s own sheet: its QR code names the game."),
            )
        raise Refused(
            _("This is the sheet of another game: %(game)s.", game=other.title),
            other=code.game_id,
            other_game=other,
        )
    # a code's rounds past the engine's bound are no sheet the app printed (nor laid out here)
    geom = None
    if code.rounds <= MAX_ROUNDS:
        geom = layout.geometry(game.rules, len(game.teams), code.rounds, code.paper, game.scores_only)
    if geom is None or geom.key != code.key or code.page > len(geom.pages):
        raise Refused(
            _(
                "This sheet was printed before the game’s rules or teams changed: its boxes are "
                "not where the game’s sheet has them now."
            ),
            _("Type it in, or print the game’s sheet again for the rounds still to play."),
        )
    page = geom.pages[code.page - 1]
    first, last, next_round = page.rounds[0], page.rounds[-1], game.standings.next_round
    if last < next_round:
        raise Refused(page_typed(code.page, first, last))
    if game.standings.ended_after is not None or not game.is_open or game.finished:
        raise Refused(_("This game is finished: reopen it to type more rounds in."))
    if first > next_round:
        raise Refused(
            _(
                "Page %(page)s starts at round %(first)s, and round %(next)s is not typed in yet.",
                page=code.page,
                first=first,
                next=next_round,
            ),
            _("Read the page before it first, or type the rounds before it in."),
        )
    hand = hand_of(db)
    readings = reading.read(found, geom, hand)
    # the game's rounds before the page's: the page's running totals carry theirs on
    before = [played.entries for played in game.rounds[: first - 1]]
    readings = reading.check(game.rules, geom, readings, before).readings
    boxes, cutouts = {}, {}
    for (round_number, team, line), box in readings.items():
        if round_number < next_round:
            continue  # typed in already
        name = box_name(round_number, team, line)
        boxes[name] = {
            "value": box.value,
            "mark": box.mark,
            "was": box.was,
            "note": box.note,
            "confidence": round(float(box.confidence), 3),
            # the digits read in its boxes, left to right (what a correction is told by)
            "digits": [cell.digit for cell in box.cells if not cell.blank],
        }
        cutouts[name] = box.picture
        if box.box.line.kind in DIGIT_KINDS:
            written = [image for image in box.images if image is not None]
            for i, image in enumerate(written):  # each digit as the model saw it: a sample once saved
                cutouts[f"{name}-d{i}"] = _png(np.clip(np.asarray(image) * 255, 0, 255).astype(np.uint8))
    read = {
        "page": code.page,
        "pages": len(geom.pages),
        "paper": code.paper,
        "key": code.key,
        "sheet_rounds": code.rounds,
        "rounds": [r for r in page.rounds if r >= next_round],
        "sheet_first": first,
        "sheet_last": last,
        "boxes": boxes,
    }
    number = kept.keep(folder, game.uid, data, _extension(data), read, cutouts)
    return Taken(number, code.page, tuple(read["rounds"]))


def page_typed(page, first, last):
    """What a page of the sheet whose rounds are typed in already says."""
    if first == last:
        return _("Page %(page)s (round %(first)s) is typed in already.", page=page, first=first)
    return _(
        "Page %(page)s (rounds %(first)s–%(last)s) is typed in already.", page=page, first=first, last=last
    )


def hand_of(db):
    """The family's samples as the reader takes them (None: none yet)."""
    kept_samples = family_hand.samples(db)
    if not kept_samples:
        return None
    return reading.Hand([_gray(s.image) for s in kept_samples], [s.digit for s in kept_samples])


def _gray(png):
    """A PNG as a 2-D uint8 array (grayscale)."""
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("L"))


def _png(array):
    out = io.BytesIO()
    Image.fromarray(array).save(out, "PNG")
    return out.getvalue()


def _extension(data):
    try:
        with Image.open(io.BytesIO(data)) as image:
            return kept.EXTENSIONS.get(image.format, "jpg")
    except (UnidentifiedImageError, OSError, ValueError):
        return "jpg"


def samples(folder, game, number, saved):
    """The family's samples from a photo's boxes they saved: ``saved`` is {box name: the
    value saved} of the boxes of digits. A box whose digits written are as many as the
    value's gives a sample a digit, each beside what the reader read there (a box whose
    digits cannot be placed, one left empty or written otherwise, gives none), as
    ``reading.Hand.learn`` takes them."""
    read = kept.read_of(folder, game.uid, number)
    if read is None:
        return []
    found = []
    for name, value in saved.items():
        box = read["boxes"].get(name)
        if box is None or value is None:
            continue
        written = str(abs(value))
        images = [kept.box_of(folder, game.uid, number, f"{name}-d{i}") for i in range(len(written) + 1)]
        if None in images[: len(written)] or images[len(written)] is not None:
            continue  # as many digits written as the value has, no more
        was = box.get("digits") or []
        for position, (png, digit) in enumerate(zip(images, written)):
            before = was[position] if len(was) == len(written) else None
            found.append(family_hand.Sample(png, int(digit), before))
    return found


def marks(read, game):
    """{box name: (mark, the words beside it)} of a photo's marked boxes."""
    said = {}
    for name, box in read["boxes"].items():
        mark = box.get("mark")
        if mark is None:
            continue
        words = MARKS.get(mark, MARKS["unsure"])
        if mark == "repaired":
            was = box.get("was")
            words = _(words, read="?" if was is None else number(was))
        else:
            words = _(words)
        if mark == "forbidden" and box.get("note"):
            words = f"{words} {box['note']}"  # the rules' own message, said in the reader's language
        said[name] = (mark, words)
    return said
