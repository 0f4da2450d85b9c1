"""One source for a score sheet's layout (issue 55): what every line of the sheet is, in
the paper's order, for a rule set.

A team's column of a round reads, top to bottom: a box for the meld minimum (rules that
set it by the team's score), the books of each kind, each entry the rules score (points
melded, left in hand and foot, the 3s, going out…), a bonus worked out from another line,
then the round score and the running total the family adds up. The blank sheet prints
these lines (``blank_sheets``, ``templates/sheets/blank.html``), the typing page asks for
the ones a person types, in this order (``forms.paper``), and a photo's reader will cut
them out: none of them lists the lines again.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import scoring
from ..scoring.language import _

#: the names of the lines that are not an entry or a book: what the family writes there
MELD_MINIMUM = "meld_minimum"  # the meld minimum for the team's score, a note to play by
ROUND_SCORE = "sheet_score"  # the round's score as the family added it up
TOTAL = "sheet_total"  # the running total as the family added it up

#: what a line holds: the books of a kind; an entry of the engine (its ``kind``: points,
#: count or flag); a bonus worked out from another line (nothing typed); a note to play
#: by; the family's own sums (compared with the engine's, never saved)
KINDS = ("books", "points", "count", "flag", "bonus", "note", "sum")


@dataclass(frozen=True)
class Line:
    """One line of a sheet: a box for it per team and round."""

    name: str | None  # ``book_<kind>``, an entry's name, or one of the names above; None: a bonus
    label: str  # as printed, in the reader's language and the rule set's words
    per: int | None  # points per unit printed beside the label; None: written as counted
    kind: str  # one of KINDS

    @property
    def scored(self):
        """Whether the engine scores the round from it (the lines between the note and the sums)."""
        return self.kind not in ("note", "sum")

    @property
    def typed(self):
        """Whether the typing page asks for it (a bonus and a note are not typed)."""
        return self.kind not in ("note", "bonus")


def sheet_lines(rules):
    """Every line of the rule set's sheet, in the paper's order (a ``Line`` each)."""
    lines = []
    if rules.meld_minimum and "by_score" in rules.meld_minimum:
        lines.append(Line(MELD_MINIMUM, _("Meld minimum"), None, "note"))
    lines += [
        Line(f"book_{kind}", rules.book_label(kind), value, "books") for kind, value in rules.books.items()
    ]
    for entry in scoring.entry_fields(rules):
        if scoring.asked(rules, entry):
            value = getattr(rules, entry.rule) if entry.kind == "count" else None
            # a value that depends on who went out is on the cheat sheet
            lines.append(Line(entry.name, entry.line, value if isinstance(value, int) else None, entry.kind))
        if entry.name == "red_threes_melded" and rules.red_threes_all:
            bonus = rules.red_threes_all["bonus"]
            lines.append(
                Line(
                    None,
                    _("All %(count)s red 3s", count=rules.red_threes_all["count"]),
                    bonus if isinstance(bonus, int) else None,
                    "bonus",
                )
            )
    lines.append(Line(ROUND_SCORE, _("Round score"), None, "sum"))
    lines.append(Line(TOTAL, _("Total"), None, "sum"))
    return lines


def scored_lines(rules):
    """The lines the engine scores a round from, in order (books, entries, bonuses)."""
    return [line for line in sheet_lines(rules) if line.scored]


def typed_lines(rules):
    """The lines the typing page asks for, in order: what the engine scores, then the
    family's round score and total."""
    return [line for line in sheet_lines(rules) if line.typed]


# ---------------------------------------------------------------------------------------
# Where every box is: the sheet a game is played on, printed to be read back (issue 55).
#
# A page is portrait; four solid squares mark its corners and the QR code (top right)
# names the game, the layout and the page. Under the head, a row per round and team: the
# round and the team at the left, then a comb per line (a box per digit; a tick box for a
# yes-or-no line; a box for a minus before a sum's digits), in the lines' order. Rows
# grow to fill the page (8 to 12 mm tall, then the rounds spread); a rule set with more
# lines than a row holds at 5 mm a digit gives each team two rows (or more). The PDF draws these boxes at
# these millimetres (``templates/sheets/readable.html``), the reader cuts them out of a
# photo at the same millimetres (``scorekeeper/reading``), and the typing page names its
# boxes by the same lines: change one here and all three follow.

import hashlib  # noqa: E402  (the geometry's own imports, beside it)
import math  # noqa: E402

#: the paper, portrait (mm)
PAGE_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
EDGE_MM = 10.0  # from the paper's edge to a corner marker (printers print to 5 mm)
MARKER_MM = 8.0  # a corner marker: a solid square
QR_SIZE_MM = 24.0  # the QR code, its quiet zone inside
HEAD_MM = 30.0  # the head (title, date in words, teams, what to write): beside the QR code
FIRST_HEAD_MM = HEAD_MM
LATER_HEAD_MM = 30.0  # a later page repeats the head and its own QR code
COLUMN_HEAD_MM = 24.0  # above the combs: what each is (turned on its side over a narrow comb)
ROW_LABEL_MM = 20.0  # the round and the team, at a row's left
GAP_MM = 1.8  # between two combs of a row
ROW_GAP_MM = 1.6  # between two rows of a round
ROUND_GAP_MM = 3.4  # between two rounds
CELL_W_MM = (7.0, 5.0)  # a digit's box: as wide as fits, at least 5 mm
CELL_H_MM = (8.0, 12.0)  # ... and as tall as the page lets the rows be, at least 8 mm
LINE_COLOUR = "#f0a58c"  # the boxes' lines: light, reddish (gone in a photo's red channel)
#: what a line is written as: (digits, a box for a minus first)
DIGITS = {"books": (1, False), "count": (1, False), "points": (4, False), "sum": (5, True)}


@dataclass(frozen=True)
class Box:
    """A number's comb (or a tick box) of one team in one round, on one page (mm from the
    page's top left corner)."""

    page: int  # 1, 2…
    round: int  # the round's number
    team: int  # the team's index
    line: Line
    x: float  # the comb's left edge (its minus box, where it has one)
    y: float
    cell_w: float
    cell_h: float
    digits: int  # boxes for digits (a tick box: 1)
    sign: bool  # a box for a minus before the digits

    @property
    def name(self):
        return self.line.name

    @property
    def width(self):
        return self.cell_w * (self.digits + self.sign)

    def cells(self):
        """(x, y, width, height) of each box, the minus box first where there is one."""
        return [
            (self.x + i * self.cell_w, self.y, self.cell_w, self.cell_h)
            for i in range(self.digits + self.sign)
        ]


@dataclass(frozen=True)
class Head:
    """What a comb is, printed above its column (mm)."""

    line: Line
    x: float
    y: float
    width: float
    height: float
    turned: bool  # written on its side (a comb too narrow for its words)


@dataclass(frozen=True)
class Row:
    """The label at the left of a team's row in a round (mm)."""

    round: int
    team: int
    part: int  # a team's first row (0), or its second… where the lines take two
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Page:
    number: int
    pages: int
    rounds: tuple  # the rounds on it, by number
    boxes: tuple  # Box
    heads: tuple  # Head
    rows: tuple  # Row
    markers: tuple  # (x, y) of each corner marker's top left: top left, top right, bottom left, bottom right
    qr: tuple  # (x, y) of the QR code's top left; it is QR_SIZE_MM a side


@dataclass(frozen=True)
class Geometry:
    """The readable sheet of a game: its pages and where every box is."""

    paper: str
    size: tuple  # (width, height) mm
    rounds: int
    teams: int
    key: str  # names this layout in the QR code: changed lines, teams, rounds or paper change it
    pages: tuple  # Page

    def boxes(self):
        return [box for page in self.pages for box in page.boxes]

    def page_of(self, round_number):
        return next(page.number for page in self.pages if round_number in page.rounds)


def readable_lines(rules, scores_only=False):
    """The lines of a readable sheet, in order: what the family writes and the reader reads
    (a bonus is worked out; the meld minimum by score is a table in the head, not a box);
    a game kept as its scores alone has the round score and the total."""
    if scores_only:
        return [line for line in sheet_lines(rules) if line.kind == "sum"]
    return [line for line in sheet_lines(rules) if line.typed]


def comb(line):
    """(digits, a minus box) of a line: a tick box for a yes-or-no line."""
    return (1, False) if line.kind == "flag" else DIGITS[line.kind]


def geometry(rules, teams, rounds, paper, scores_only=False):
    """Where every box of a game's readable sheet is: ``teams`` teams (a count), rounds
    1 to ``rounds``, on ``paper`` ("a4" or "letter")."""
    width, height = PAGE_MM[paper]
    lines = readable_lines(rules, scores_only)
    inner_left, inner_right = EDGE_MM, width - EDGE_MM
    across = inner_right - inner_left - ROW_LABEL_MM
    parts = _split(lines, across)
    # the narrowest row sets every row's digit width (a hundredth of a mm under, never over)
    cell_w = math.floor(min(CELL_W_MM[0], *(_cell_width(part, across) for part in parts)) * 100) / 100
    top = EDGE_MM + MARKER_MM + 1.0  # the head starts under the top markers' level
    bottom = height - EDGE_MM - MARKER_MM - 1.0
    room = bottom - (top + HEAD_MM + COLUMN_HEAD_MM * len(parts))

    def round_mm(cell_h):
        return teams * len(parts) * (cell_h + ROW_GAP_MM) + ROUND_GAP_MM

    per_page = max(1, int(room // round_mm(CELL_H_MM[0])))
    page_count = -(-rounds // per_page)
    per_page = -(-rounds // page_count)  # spread evenly: 6 rounds on two pages are 3 + 3
    cell_h = min(
        CELL_H_MM[1], max(CELL_H_MM[0], (room / per_page - ROUND_GAP_MM) / (teams * len(parts)) - ROW_GAP_MM)
    )
    cell_h = round(cell_h, 2)
    spare = room / per_page - round_mm(cell_h)  # rows at their tallest: the rounds spread
    gap = ROUND_GAP_MM + max(0.0, min(spare, 12.0))
    pages = []
    for index in range(page_count):
        numbers = tuple(range(index * per_page + 1, min(rounds, (index + 1) * per_page) + 1))
        y = top + HEAD_MM
        heads, head_y = [], {}
        for p, part in enumerate(parts):
            x = inner_left + ROW_LABEL_MM
            for line in part:
                digits, sign = comb(line)
                w = cell_w * (digits + sign)
                heads.append(Head(line, x, y + p * COLUMN_HEAD_MM, w + GAP_MM * 0.8, COLUMN_HEAD_MM, w < 12))
                x += w + GAP_MM
            head_y[p] = y
        y += COLUMN_HEAD_MM * len(parts)
        boxes, rows = [], []
        for number in numbers:
            for team in range(teams):
                for p, part in enumerate(parts):
                    rows.append(Row(number, team, p, inner_left, y, ROW_LABEL_MM - 1.5, cell_h))
                    x = inner_left + ROW_LABEL_MM
                    for line in part:
                        digits, sign = comb(line)
                        boxes.append(
                            Box(
                                index + 1,
                                number,
                                team,
                                line,
                                round(x, 2),
                                round(y, 2),
                                cell_w,
                                cell_h,
                                digits,
                                sign,
                            )
                        )
                        x += cell_w * (digits + sign) + GAP_MM
                    y += cell_h + ROW_GAP_MM
            y += gap
        markers = (
            (EDGE_MM, EDGE_MM),
            (width - EDGE_MM - MARKER_MM, EDGE_MM),
            (EDGE_MM, height - EDGE_MM - MARKER_MM),
            (width - EDGE_MM - MARKER_MM, height - EDGE_MM - MARKER_MM),
        )
        qr = (width - EDGE_MM - QR_SIZE_MM, top)
        pages.append(
            Page(index + 1, page_count, numbers, tuple(boxes), tuple(heads), tuple(rows), markers, qr)
        )
    shape = [paper, teams, rounds, scores_only, [(line.name, comb(line)) for line in lines]]
    key = hashlib.sha256(repr(shape).encode()).hexdigest()[:8]
    return Geometry(paper, (width, height), rounds, teams, key, tuple(pages))


def _cells(part):
    return sum(sum(comb(line)[0:1]) + comb(line)[1] for line in part)


def _cell_width(part, across):
    return (across - GAP_MM * (len(part) - 1)) / _cells(part)


def _split(lines, across):
    """The lines in as few rows as give each digit at least ``CELL_W_MM[1]``, in order and
    balanced (the widest row as narrow as can be)."""
    for count in range(1, len(lines) + 1):
        best = None
        for cuts in _cut_points(len(lines), count):
            parts = [lines[a:b] for a, b in zip((0, *cuts), (*cuts, len(lines)))]
            narrowest = min(_cell_width(part, across) for part in parts)
            if narrowest >= CELL_W_MM[1] and (best is None or narrowest > best[0]):
                best = (narrowest, parts)
        if best:
            return best[1]
    return [[line] for line in lines]


def _cut_points(n, count):
    """Every way of cutting ``n`` lines into ``count`` runs (few: a sheet has under 20 lines)."""
    if count == 1:
        yield ()
        return
    from itertools import combinations

    yield from combinations(range(1, n), count - 1)


@dataclass(frozen=True)
class SheetCode:
    """What a readable sheet's QR code says: the game, and the layout and page printed."""

    game_id: int
    key: str  # ``Geometry.key``
    page: int
    paper: str
    rounds: int


def code_query(geom, page):
    """The query the QR code adds to the typing page's address: with it the reader rebuilds
    the page's geometry (``geometry`` of the game's rules and teams, these rounds and
    paper) and checks it is the one printed (``key``)."""
    return {"rounds": geom.rounds, "paper": geom.paper, "sheet": geom.key, "page": page}


def read_code(text):
    """A ``SheetCode`` from the text of a readable sheet's QR code (the typing page's
    address, ``/games/<id>/paper?rounds=&paper=&sheet=&page=``), or None: not one."""
    from urllib.parse import parse_qs, urlsplit

    try:
        parts = urlsplit(text.strip())
        query = {name: values[0] for name, values in parse_qs(parts.query).items()}
        segments = parts.path.rstrip("/").split("/")
        if segments[-3:-2] != ["games"] or segments[-1] != "paper":
            return None
        game_id, rounds, page = int(segments[-2]), int(query["rounds"]), int(query["page"])
        key, paper = query["sheet"], query["paper"]
    except (ValueError, KeyError, IndexError):
        return None
    if paper not in PAGE_MM or not (len(key) == 8 and key.isalnum()) or min(game_id, rounds, page) < 1:
        return None
    return SheetCode(game_id, key, page, paper, rounds)
