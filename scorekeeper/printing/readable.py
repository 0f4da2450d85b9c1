"""A game's sheet printed to be read back (issue 55): each page of ``layout.geometry``
drawn as one SVG whose user unit is the paper's millimetre, so that every box, marker
and the QR code land at the geometry's millimetres in the PDF (WeasyPrint) and scale as
one picture on a phone's screen (``templates/sheets/readable.html``).

Over 400 lines: one page's drawing, whose parts (the head, the columns' heads, the rows'
labels, the table of meld minimums) are fitted by the same measures of text; apart, each
would import them back from the other.

This module works out what each page says and where, its texts broken into lines by the
sheet font's own widths (``blank_sheets._text_mm``); the template only writes it out.
Nothing here is a score.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from urllib.parse import urlencode

import segno

from ..scoring.language import _
from ..services.evenings import local
from ..web.formatting import night, number
from . import blank_sheets, layout
from .blank_sheets import _text_mm

PT_MM = 25.4 / 72  # a point, in millimetres (the SVG's unit)
LEADING = 1.18  # a line of text, in its size
ASCENT = 0.74  # a capital's height, in the text's size (DejaVu: 0.73)
GLYPHS_UP, GLYPHS = 0.93, 1.17  # DejaVu's glyphs above the baseline, and in all (with below)
MIN_PT = 7.0  # no text under 7 pt
BOX_LINE_MM = 0.3  # the boxes' lines (at least 0.25 mm: a printer keeps them)
HEAD_GAP_MM = 3.0  # between the head's text and the QR code
QR_BORDER = 4  # the QR code's quiet zone, in modules, inside QR_SIZE_MM
TICK = "\u2713"  # beside a yes-or-no line's label: a tick, not a number


@dataclass(frozen=True)
class Text:
    """Lines of text at a place on the page (mm): ``x``, ``y`` the first line's baseline
    at its anchor (start, middle or end); a ``turned`` text reads bottom to top, its lines
    stacked rightwards from ``x`` (``y``: where its lines start, at the bottom)."""

    x: float
    y: float
    lines: tuple
    size: float  # pt
    bold: bool = False
    anchor: str = "start"
    turned: bool = False
    grey: bool = False
    spacing: float = LEADING  # a line, in the text's size

    @property
    def size_mm(self):
        return round(self.size * PT_MM, 3)

    @property
    def leading(self):
        return round(self.size * PT_MM * self.spacing, 3)

    def placed(self):
        """(x, y) of each line's baseline, in the text's own frame (a turned text: rotated)."""
        if self.turned:
            return [(0, round(i * self.leading, 3)) for i in range(len(self.lines))]
        return [(round(self.x, 3), round(self.y + i * self.leading, 3)) for i in range(len(self.lines))]


@dataclass(frozen=True)
class SheetPage:
    """One page of a game's readable sheet, ready to be written out as SVG."""

    page: layout.Page
    size: tuple  # (width, height) mm
    lines: str  # the path of every box's lines (LINE_COLOUR)
    rules: str  # the path of the thin rules between rounds
    texts: tuple  # Text
    code: str  # what the QR code says: the typing page's address and the sheet's page
    qr: str  # the path of the QR code's dark modules, in modules
    qr_scale: float  # a module, in mm


def wrap(text, width, size, bold=False):
    """``text`` broken between words into lines at most ``width`` mm wide at ``size`` pt
    (a word wider than a line stays whole on its own)."""
    lines = []
    for word in text.split(" "):
        if lines and _text_mm(f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def fits(text, width, sizes, most, bold=False):
    """(lines, size): ``text`` at the largest of ``sizes`` that takes at most ``most``
    lines no wider than ``width``; None where none does."""
    for size in sizes:
        lines = wrap(text, width, size, bold)
        if len(lines) <= most and all(_text_mm(line, size, bold) <= width for line in lines):
            return lines, size
    return None


def fit(text, width, sizes, most, bold=False):
    """``fits``, else at the smallest of ``sizes`` its lines cut to ``most``, the last one
    shortened with "…" where it is too wide."""
    found = fits(text, width, sizes, most, bold)
    if found:
        return found
    size = sizes[-1]
    lines = wrap(text, width, size, bold)
    cut = [_shortened(line, width, size, bold) for line in lines[:most]]
    if len(lines) > most:
        cut[-1] = _shortened(cut[-1] + "…", width, size, bold)
    return cut, size


def _shortened(line, width, size, bold):
    while _text_mm(line, size, bold) > width and len(line) > 1:
        line = line[:-2].rstrip() + "…"
    return line


def game_day(game):
    """The day the game is played, in words: "Saturday 28 November 2026" ("sábado, 28 de
    novembro de 2026"): its evening, as the pages name it."""
    key = game.night
    if not key and game.played_at:
        moment = local(game.played_at)
        key = moment.date().isoformat() if moment else ""
    return night(key) if key else ""


def per_text(line):
    """What a line's points per unit read as on the sheet: "× 500", "× −5", or ""."""
    if line.kind == "flag":
        return TICK
    return f"×\u00a0{number(line.per)}" if line.per is not None else ""


def game_geometry(game, paper):
    """Where every box of the game's sheet to play on is (``layout.geometry``): its rules'
    planned rounds (``blank_sheets.BLANK_ROUNDS`` for an open-ended game, as its blank
    sheet had), its teams; a game kept as its scores alone, the round score and the total."""
    rounds = len(blank_sheets.blank_rounds(game.rules))
    return layout.geometry(game.rules, len(game.teams), rounds, paper, scores_only=game.scores_only)


def pages(game, geom, typing_url, cheat=""):
    """Every page of the game's readable sheet (a ``SheetPage`` each).

    :param geom: ``layout.geometry`` of the game's rules and teams
    :param typing_url: the typing page's address as a phone reaches it; each page's QR
        code adds the page's query (``layout.code_query``)
    :param cheat: the rules in short (the blank sheet's cheat sheet, as text), printed
        under the rows where a page has room for it
    """
    return [draw(game, geom, page, typing_url, cheat) for page in geom.pages]


def draw(game, geom, page, typing_url, cheat=""):
    """One page of the game's readable sheet (``pages``)."""
    code = f"{typing_url}?{urlencode(layout.code_query(geom, page.number))}"
    qr, scale = _qr_path(code)
    texts = [*_head(game, geom, page), *_column_heads(page), *_row_labels(game, page)]
    texts += _foot(cheat, geom, page)
    rules = _round_rules(geom, page)
    return SheetPage(page, geom.size, _box_lines(page), rules, tuple(texts), code, qr, scale)


def _head(game, geom, page):
    """The head, beside the QR code: the title and the page; the day, the rule set and the
    game; the teams; what to write (and, where the table of minimums by score has no room
    over the rows' labels, that table in a line). Each a size smaller, all of them, until
    they fit the head."""
    rules = game.rules
    left, top = layout.EDGE_MM, layout.EDGE_MM + layout.MARKER_MM + 1.0
    right = page.qr[0] - HEAD_GAP_MM
    width, bottom = right - left, top + layout.HEAD_MM - 1.0
    count = _("page %(page)s of %(pages)s", page=page.number, pages=page.pages)
    # Translators: the printed sheet's title: "Hand and Foot score sheet"
    title = _("%(game)s score sheet", game=rules.say.game)
    about = (game_day(game), rules.title, _("game %(number)s", number=game.id))
    teams = " · ".join(_team_words(team) for team in game.teams)
    items = [
        (" · ".join(part for part in about if part), (9, 8.5, 8, 7.5, 7), 2),
        # Translators: the printed sheet's teams, "Ann & Bo · Sharks (Cy & Di)"
        (_("Teams: %(teams)s", teams=teams), (9, 8.5, 8, 7.5, 7), 2),
        (_write_words(game), (8, 7.5, 7), 3),
    ]
    table = _meld_table(game, page)
    if table is None and _by_score(game):
        items.append((_meld_minimum_words(rules), (8, 7.5, 7), 2))
    for smaller in range(5):
        texts = []
        size = (14, 13, 12, 11, 10)[smaller]
        texts.append(
            Text(right, top + 1.0 + size * PT_MM * 0.93, (count,), min(size, 11), True, anchor="end")
        )
        room = width - _text_mm(count, min(size, 11), True) - 4
        lines, size = fit(title, room, (size, 10), 1, bold=True)
        y = top + 1.0 + size * PT_MM * 0.93  # its accents a millimetre clear of the corner marker's ring
        texts.append(Text(left, round(y, 3), tuple(lines), size, bold=True))
        y += size * PT_MM * 0.45
        for text, sizes, most in items:
            lines, size = fit(text, width, sizes[min(smaller, len(sizes) - 1) :], most)
            y += size * PT_MM * LEADING
            texts.append(Text(left, round(y, 3), tuple(lines), size))
            y += size * PT_MM * LEADING * (len(lines) - 1)
        if y <= bottom:
            break
    # under the QR code: what it is for
    qx, qy = page.qr
    # Translators: under the printed sheet's QR code, which opens the page that types it in
    lines, size = fit(_("Scan to type the sheet in"), layout.QR_SIZE_MM, (7,), 2)
    x, y = qx + layout.QR_SIZE_MM / 2, qy + layout.QR_SIZE_MM + 2.6
    texts.append(Text(x, y, tuple(lines), size, anchor="middle", grey=True))
    return [*texts, *(table or ())]


def _by_score(game):
    rules = game.rules
    return not game.scores_only and bool(rules.meld_minimum) and "by_score" in rules.meld_minimum


def _meld_table(game, page):
    """The meld minimum by the team's score as a small table over the rows' labels ("< 0
    15", "≥ 1,500 90"…), or None: the rules set no such minimum, or it has no room there."""
    if not _by_score(game):
        return None
    steps = game.rules.meld_minimum["by_score"]
    left = layout.EDGE_MM
    width = layout.ROW_LABEL_MM - 1.5
    top = min(head.y for head in page.heads)
    bottom = min(row.y for row in page.rows) - 0.8
    size, spacing = MIN_PT, 1.08  # a table's lines a little closer than a text's
    leading = size * PT_MM * spacing
    # Translators: the head of a small table on the printed sheet: the meld minimum for each team's score
    words = _("Meld minimum by score")
    title = fits(words, width, (7.5, 7), 2, bold=True) or fits(words, width, (7,), 3, bold=True)
    if title is None or len(steps) < 2:
        return None
    tall = len(title[0]) * title[1] * PT_MM * spacing + len(steps) * leading
    if tall > bottom - top:
        return None
    y = bottom - tall + title[1] * PT_MM * ASCENT
    texts = [Text(left, round(y, 3), tuple(title[0]), title[1], bold=True, spacing=spacing)]
    y += (len(title[0]) - 1) * title[1] * PT_MM * spacing
    for i, (threshold, minimum) in enumerate(steps):
        y += leading
        when = f"< {number(steps[1][0])}" if i == 0 else f"\u2265 {number(threshold)}"
        texts.append(Text(left, round(y, 3), (when,), size))
        texts.append(Text(round(left + width, 3), round(y, 3), (number(minimum),), size, True, anchor="end"))
    return texts


def _foot(cheat, geom, page):
    """The rules in short under the last row, where the page has room for all of it (clear
    of the bottom corner markers), else nothing."""
    top = max(row.y + row.height for row in page.rows) + 4.0
    bottom = geom.size[1] - layout.EDGE_MM - layout.MARKER_MM - 2.0
    width = geom.size[0] - 2 * layout.EDGE_MM
    for size in (8, 7.5, 7):
        lines = wrap(" ".join(cheat.split()), width, size)
        if cheat.strip() and top + _height(len(lines), size) <= bottom:
            return [
                Text(layout.EDGE_MM, round(top + size * PT_MM * GLYPHS_UP, 3), tuple(lines), size, grey=True)
            ]
    return []


def _height(lines, size):
    """How tall ``lines`` lines of ``size`` pt are, their glyphs whole."""
    return (lines - 1) * size * PT_MM * LEADING + GLYPHS * size * PT_MM


def _team_words(team):
    """A team as the head names it: "Ann & Bo", or "Sharks (Ann & Bo)" where its name is not its players'."""
    players = " & ".join(player.name for player in team.players)
    return team.name if not players or team.name == players else f"{team.name} ({players})"


def _write_words(game):
    """What the family writes, and why the sums matter: they check what a photo reads."""
    if game.scores_only:
        # Translators: the printed sheet's line on how to fill it in, for a game kept as each round's score
        return _(
            "Write one digit a box, the last digit in the last box, and a minus in the first box "
            "of a score below zero: each round's score and the running total, which check the "
            "sheet when a photo of it is read."
        )
    # Translators: the printed sheet's line on how to fill it in; "a sum": the round score or the total
    return _(
        "Write one digit a box, the last digit in the last box; a minus in the first box of a "
        "sum below zero; a tick for the team that went out. Please add up the round score and "
        "the running total: they check the sheet when a photo of it is read."
    )


def _meld_minimum_words(rules):
    steps = rules.meld_minimum["by_score"]
    parts = []
    for i, (threshold, minimum) in enumerate(steps):
        if i == 0:
            when = _("below %(score)s", score=number(steps[1][0])) if len(steps) > 1 else _("at any score")
        else:
            when = _("from %(score)s", score=number(threshold))
        parts.append(f"{minimum} {when}")
    return _("Meld minimum by the team's score before the round:") + " " + " · ".join(parts)


def _column_heads(page):
    """What each comb is, over its column: the label and its points a unit, bottom-aligned
    over the boxes; turned on its side over a narrow comb; a "−" over a sum's minus box."""
    texts = []
    for head in page.heads:
        line = head.line
        digits, sign = layout.comb(line)
        comb_w = head.width - layout.GAP_MM * 0.8
        cell_w = comb_w / (digits + sign)
        bottom = head.y + head.height
        per = per_text(line)
        label = f"{line.label} {per}" if per else line.label
        bold = line.kind == "sum"
        if head.turned:
            across, length = head.width - 0.4, head.height - 2.0  # its lines side by side, up the page
            # a yes-or-no line's tick where it fits beside its label
            lines, size = (
                _turned(label, across, length, bold)
                or _turned(line.label, across, length, bold)
                or fit(line.label, length, (MIN_PT,), 1, bold)
            )
            em = size * PT_MM
            block = (len(lines) - 1) * em * LEADING + GLYPHS * em
            # over the comb's middle, and never left of its head
            x = max(head.x + 0.1, head.x + comb_w / 2 - block / 2) + GLYPHS_UP * em
            texts.append(Text(round(x, 3), round(bottom - 1.0, 3), tuple(lines), size, bold, turned=True))
            continue
        # a sum's label over its digits, the minus box's guide over the minus box
        left = head.x + (cell_w if sign else 0)
        room = comb_w - (cell_w if sign else 0)
        lines, size = fit(label, room - 0.4, (9, 8.5, 8, 7.5, 7), 3, bold)
        y = bottom - 1.4 - (len(lines) - 1) * size * PT_MM * LEADING
        texts.append(Text(round(left + room / 2, 3), round(y, 3), tuple(lines), size, bold, anchor="middle"))
        if sign:
            x, y = round(head.x + cell_w / 2, 3), round(bottom - 1.4, 3)
            texts.append(Text(x, y, ("\u2212",), 9, anchor="middle", grey=True))
    return texts


def _turned(text, across, length, bold):
    """A turned head's lines and size: the largest size whose lines fit ``length`` and lie
    side by side within ``across``; None where none does."""
    for size in (8, 7.5, 7):
        em = size * PT_MM
        found = fits(text, length, (size,), max(1, int((across - GLYPHS * em) / (em * LEADING)) + 1), bold)
        if found:
            return found
    return None


def _row_labels(game, page):
    """At each row's left: the round on its first row (and what the rules ask of that round
    alone: "meld 90", on the round's next row where the first has no room), the team's name
    on each; each row's lines in the middle of its height."""
    texts = []
    said, queue = _round_words(game.rules, page.rounds), []
    for row in page.rows:
        width, room = row.width - 0.6, row.height - 1.2
        if row.team == 0 and row.part == 0:
            queue = list(said[row.round])
            size = 9 if row.height >= 9 else 8
            head = fit(_("Round %(number)s", number=row.round), width, (size, 8, 7), 1, True)[0]
            blocks = [(tuple(head), size, True, False)]
            room -= size * PT_MM * LEADING
        else:
            blocks = []
        name, info = game.teams[row.team].name, 7.5 * PT_MM * LEADING
        # a line of the round's words where the name still fits whole under it
        while queue and _fits_in(name, width, room - info):
            blocks.append(((fit(queue.pop(0), width, (7.5, 7), 1)[0][0],), 7.5, False, True))
            room -= info
        lines, size = _fits_in(name, width, room) or fit(name, width, (MIN_PT,), _lines_in(room))
        blocks.append((tuple(lines), size, False, row.part > 0))
        # the block's height: the first line's capitals, then a line's leading each
        tall = sum(len(lines) * size * PT_MM * LEADING for lines, size, _b, _g in blocks)
        tall -= blocks[0][1] * PT_MM * (LEADING - ASCENT)
        y = row.y + max(0.5, (row.height - tall) / 2) + blocks[0][1] * PT_MM * ASCENT
        for i, (lines, size, bold, grey) in enumerate(blocks):
            if i:
                y += size * PT_MM * LEADING
            texts.append(Text(row.x, round(y, 3), lines, size, bold, grey=grey))
            y += size * PT_MM * LEADING * (len(lines) - 1)
    return texts


def _lines_in(room, size=MIN_PT):
    """How many lines of ``size`` pt fit ``room`` mm tall (at least one)."""
    return max(1, int((room - size * PT_MM * ASCENT) / (size * PT_MM * LEADING)) + 1)


def _fits_in(text, width, room, sizes=(8, 7.5, 7)):
    """(lines, size) of ``text`` at the largest of ``sizes`` whose lines fit ``width`` and
    ``room`` mm tall, or None."""
    return next(
        (found for size in sizes if (found := fits(text, width, (size,), _lines_in(room, size)))), None
    )


def _round_words(rules, numbers):
    """{round: what the rules ask of it alone}: the words of a blank sheet's round head
    (``blank_sheets.round_head``: "meld 90", "out with 2 books"…) that are not the same in
    every round of the game (those are the rules, not the round's)."""
    every = blank_sheets.blank_rounds(rules)
    heads = {r.number: blank_sheets.round_head(rules, r)[1:] for r in every}
    same = set.intersection(*(set(words) for words in heads.values())) if heads else set()
    return {n: [w for w in heads.get(n, []) if w not in same] for n in numbers}


def _box_lines(page):
    """One path for the lines of every box of the page: each comb's outline and the lines
    between its boxes, on the geometry's millimetres."""
    parts = []
    for box in page.boxes:
        x, y, w, h = box.x, box.y, box.width, box.cell_h
        parts.append(f"M{x:.3f} {y:.3f}h{w:.3f}v{h:.3f}h{-w:.3f}z")
        for i in range(1, box.digits + box.sign):
            parts.append(f"M{x + i * box.cell_w:.3f} {y:.3f}v{h:.3f}")
    return "".join(parts)


def _round_rules(geom, page):
    """A thin rule between one round and the next, across the page, midway in the gap."""
    first, last = {}, {}
    for row in page.rows:
        first.setdefault(row.round, row.y)
        last[row.round] = row.y + row.height
    middles = ((last[before] + first[after]) / 2 for before, after in zip(page.rounds, page.rounds[1:]))
    return "".join(f"M{layout.EDGE_MM:.3f} {y:.3f}H{geom.size[0] - layout.EDGE_MM:.3f}" for y in middles)


def _qr_path(text):
    """(the path of a QR code's dark modules in modules, a module's size in mm): its quiet
    zone inside ``QR_SIZE_MM``."""
    code = segno.make(text, error="m")
    size = code.symbol_size(border=QR_BORDER)[0]
    parts = []
    for y, row in enumerate(code.matrix_iter(border=QR_BORDER)):
        x = 0
        for dark, run in groupby(row):
            n = len(list(run))
            if dark:
                parts.append(f"M{x} {y}h{n}v1h{-n}z")
            x += n
    return "".join(parts), layout.QR_SIZE_MM / size
