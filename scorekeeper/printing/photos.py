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
import itertools
from dataclasses import dataclass

from .. import reading
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


#: what to try when no sheet could be read in a photo
TRY = N_(
    "Take it again in good light, from above, with the whole page in the picture and its four "
    "black corner squares showing."
)


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
        hint = None if isinstance(error, reading.NotAnImage) else _(TRY)
        raise Refused(str(error), hint) from None
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
    if game.standings.ended_after is not None or not game.is_open or game.finished:
        raise Refused(_("This game is finished: reopen it to type more rounds in."))
    geom = layout.geometry(game.rules, len(game.teams), code.rounds, code.paper, game.scores_only)
    if geom.key != code.key or code.page > len(geom.pages):
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
    totals = game.standings.running_totals
    before = list(totals[first - 2]) if first > 1 else [0] * len(game.teams)
    readings = reading.read(found, geom, hand_of(db))
    checked = reading.check(game.rules, geom, readings, before)
    if checked is not None:  # the reader may mark in place, or give the marked readings
        readings = checked
    boxes, cutouts = {}, {}
    lines = {box.line.name: box for box in page.boxes}
    for (round_number, team, line), box in readings.items():
        if round_number < next_round:
            continue  # typed in already
        name = box_name(round_number, team, line)
        digits, sign = layout.comb(lines[line].line) if line in lines else (0, False)
        boxes[name] = {
            "value": box.value,
            "mark": getattr(box, "mark", None),
            "read": getattr(box, "read", None),
            "confidences": [None if c is None else round(float(c), 3) for c in (box.confidences or ())],
        }
        png = getattr(box, "image", None) or getattr(box, "cutout", None) or getattr(box, "png", None)
        if png:
            cutouts[name] = png
            if line in lines and lines[line].line.kind in DIGIT_KINDS:
                for i, cell in enumerate(_cells(png, digits, sign)):
                    cutouts[f"{name}-{i}"] = cell
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
    return reading.Hand([(_gray(s.image), s.digit) for s in kept_samples])


def _gray(png):
    """A PNG as a 2-D uint8 array (grayscale)."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("L"))


def _png(array):
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(array).save(out, "PNG")
    return out.getvalue()


def _cells(png, digits, sign):
    """A comb's cut-out split into its digits' boxes (the minus box left out), as PNGs."""
    image = _gray(png)
    width = image.shape[1] / (digits + sign)
    edges = [round((i + sign) * width) for i in range(digits + 1)]
    return [_png(image[:, left:right].copy()) for left, right in itertools.pairwise(edges)]


def _extension(data):
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            return kept.EXTENSIONS.get(image.format, "jpg")
    except (UnidentifiedImageError, OSError, ValueError):
        return "jpg"


def samples(folder, game, number, saved):
    """The family's samples from a photo's boxes they saved: ``saved`` is {box name: the
    value saved} of the boxes of digits; a box whose inked cells are as many as the value's
    digits gives one sample a digit (the others are left: a digit that cannot be placed)."""
    from ..reading import digits as digit_model

    read = kept.read_of(folder, game.uid, number)
    if read is None:
        return []
    found = []
    for name, value in saved.items():
        box = read["boxes"].get(name)
        if box is None or value is None or value < 0:
            continue
        written = str(value)
        cells, i = [], 0
        while True:
            png = kept.box_of(folder, game.uid, number, f"{name}-{i}")
            if png is None:
                break
            cells.append(png)
            i += 1
        inked = [png for png in cells if digit_model.normalize(_gray(png)) is not None]
        if len(inked) != len(written):
            continue
        was = box.get("read", box.get("value"))
        was = str(was) if isinstance(was, int) and was >= 0 and len(str(was)) == len(written) else None
        for position, (png, digit) in enumerate(zip(inked, written)):
            before = int(was[position]) if was else None
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
            was = box.get("read")
            words = _(words, read="?" if was is None else number(was))
        else:
            words = _(words)
        said[name] = (mark, words)
    return said
