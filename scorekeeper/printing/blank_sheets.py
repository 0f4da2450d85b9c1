"""Blank score sheets: the rounds a game has, and their layout on the page
(rounds side by side in bands, a row for each thing the rules score, boxes a
pen can use), measured so that two to four teams fit one page. What each row is comes
from ``layout.py``, the sheet's one description.

``sheets.py`` turns the HTML into a PDF; the numbers printed at the head of a
round (meld minimum, books to go out) are the engine's.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from .. import scoring
from ..scoring.language import _
from .layout import scored_lines, sheet_lines

BLANK_ROUNDS = 6  # a blank sheet for rules that do not fix the number of rounds


@dataclass(frozen=True)
class BlankRound:
    number: int
    meld_minimum: int | None  # printed when it follows the round; by score: see the table
    going_out: int
    books_to_go_out: dict | None
    first_meld_books: dict | None = None


def blank_rounds(rules, count=None):
    """The rounds of a blank sheet, with what the rules say about each."""
    count = count or rules.planned_rounds or BLANK_ROUNDS
    by_round = rules.meld_minimum is not None and "by_round" in rules.meld_minimum
    return [
        BlankRound(
            n,
            scoring.meld_minimum(rules, n, 0) if by_round else None,
            scoring.going_out_bonus(rules, n),
            scoring.books_to_go_out(rules, n),
            scoring.first_meld_books(rules, n),
        )
        for n in range(1, count + 1)
    ]


# The paper (mm), and what a pen needs: the blank sheet's geometry (static/sheet.css
# draws the same sizes; tests/integration/test_sheets.py counts the pages).
PAPER_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
#: left + right, top + bottom (sheet.css @page): portrait, and landscape (a blank sheet's
#: own page, with narrower margins: most printers print to 5 mm of the edge)
MARGINS_MM = {False: (20.0, 22.0), True: (12.0, 18.0)}
CELL_MM = 12.0  # a box a pen likes: five digits and a minus, written by hand
MIN_CELL_MM = 10.0  # the narrowest, where 12 mm would take a second page: five digits of 2 mm
CELL_STEPS_MM = (CELL_MM, 11.0, MIN_CELL_MM)
ROW_MM = 6.35  # a box 6.1 mm tall and its borders (never under 6 mm)
# One character of 8 pt DejaVu Sans Condensed, a little generous, where the font's own widths
# cannot be read (they are: _text_mm); its labels and heads measure 1.25 to 1.35 mm a character
CHAR_MM = 1.45
CHEAT_CHAR_MM = 1.32  # ... in the cheat sheet's long text (1.25 measured), counted without its words
TEXT_SLACK = 1.02  # measured widths, a little generous
FONT_FILES = (  # the sheet's font where Debian and Homebrew put it (fontconfig finds it for WeasyPrint)
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
    "/opt/homebrew/share/fonts/dejavu-fonts/DejaVuSansCondensed.ttf",
    "/usr/local/share/fonts/dejavu-fonts/DejaVuSansCondensed.ttf",
)
LINE_MM = 3.45  # a line of 8 pt text
LABEL_LINE_MM = (
    3.1  # ... in a row's label or a round's head (line-height 1.1: 3.1 mm; 2 lines and padding measure 7.0)
)
#: the text width of the column of what each row is (sheet.css .label-N, N even), and
#: what its padding and border add to it on paper
LABEL_MIN_MM, LABEL_MAX_MM, LABEL_PAD_MM = 24, 36, 2.3
SHEET_HEAD_MM = 8.5  # the title and the date, on one line (8.3 measured)
CHEAT_LINE_MM = 3.3  # a line of the cheat sheet's 8 pt text
ROUND_SPACING_MM = 3.0  # between one band of rounds and the next


@dataclass(frozen=True)
class BlankLayout:
    """How a blank sheet's rounds go onto paper: bands of rounds side by side, pages of bands."""

    landscape: bool
    label_mm: int  # the text width of the column of what each row is (sheet.css .label-N)
    pages: list  # pages, each a list of bands, each a list of BlankRound
    cell_mm: float = CELL_MM  # the narrowest a box may be (each is at least this wide)
    printed: int = 1  # the sheets of paper it takes (a band taller than a page takes two)


_widths = {}  # bold or not: (character -> width in em, the width of any other character), read once


def _font_widths(bold=False):
    if bold not in _widths:
        widths, other = {}, CHAR_MM / (8 * 25.4 / 72)
        try:
            from fontTools.ttLib import TTFont

            files = (f.replace(".ttf", "-Bold.ttf") for f in FONT_FILES) if bold else FONT_FILES
            path = next(p for p in files if os.path.exists(p))
            with TTFont(path) as font:  # read once, and the file closed
                metrics, units = font["hmtx"], font["head"].unitsPerEm
                widths = {chr(c): metrics[name][0] / units for c, name in font.getBestCmap().items()}
            other = max(widths.values(), default=other)
        except (ImportError, StopIteration, OSError, KeyError):
            pass  # no font file here: every character is CHAR_MM
        _widths[bold] = (widths, other)
    return _widths[bold]


def _text_mm(text, size=8, bold=False):
    """How wide a text of ``size`` pt DejaVu Sans Condensed (8 pt) is, a little generously."""
    widths, other = _font_widths(bold)
    if not widths:
        return len(text) * CHAR_MM * size / 8 * (1.15 if bold else 1)
    return sum(widths.get(c, other) for c in text) * (size * 25.4 / 72) * TEXT_SLACK


#: the widths a game sheet's round column may take (sheet.css .round-N), and its cell's
#: padding (0.6 mm a side): "Round" and "Final" are 9.7 and 7.4 mm in bold 8.5 pt, "Rodada"
#: 11.4, "Smazzata" 14.6
ROUND_COL_MM = (12, 13, 14, 15, 16, 17, 18)
ROUND_PAD_MM = 1.2


def round_class(labels):
    """The class of a game sheet's round column (sheet.css .round-N): as wide as its widest
    label in bold 8.5 pt (its head, "Round", and its foot, "Final", in the reader's
    language), at least 12 mm; in English a 12 mm column, as it always was."""
    need = max(_text_mm(label, 8.5, bold=True) for label in labels) + ROUND_PAD_MM
    return f"round-{next((mm for mm in ROUND_COL_MM if mm >= need), ROUND_COL_MM[-1])}"


def _lines_of(text, width_mm):
    """How many lines a text of 8 pt takes in a box this wide (1 mm of padding each
    side), broken between words as the sheet breaks it."""
    room = max(width_mm - 2.4, 1.0)
    space = _text_mm(" ")
    lines, used = 1, 0.0
    for word in text.split():
        size = _text_mm(word)
        if used and used + space + size > room:
            lines, used = lines + 1, 0.0
        used = used + space + size if used else size
        while used > room:  # a word longer than a line breaks inside it
            lines, used = lines + 1, used - room
    return lines


def _cheat_lines(chars, width_mm):
    """How many lines the cheat sheet's text takes across the page."""
    per_line = max(1, int((width_mm - 2.4) / CHEAT_CHAR_MM))
    return max(1, -(-chars // per_line))


def round_head(rules, r):
    """What a blank sheet prints at the head of a round's column: its number and what it asks."""
    words = rules.say
    from ..web.formatting import books, points  # the sheet's own words for numbers

    parts = [_("Round %(number)s", number=r.number)]
    # Translators: the head of a round's column on a blank sheet, as "meld 90", "first meld 1 book",
    # "out with 2 books", "going out +100": one short line each under "Round 3"
    if r.meld_minimum is not None:
        parts.append(_("meld %(minimum)s", minimum=r.meld_minimum))
    if r.first_meld_books:
        parts.append(_("first meld %(books)s", books=books(r.first_meld_books, words)))
    if r.books_to_go_out:
        parts.append(_("out with %(books)s", books=books(r.books_to_go_out, words)))
    if r.going_out and not isinstance(rules.going_out, int):  # by round (else on the cheat sheet)
        parts.append(_("going out %(points)s", points=points(r.going_out)))
    return parts


def blank_layout(rules, teams, rounds, paper, *, cheat_chars=900):
    """Lay a blank sheet out: as many rounds side by side as boxes a pen can use allow, as
    many such bands as fit a page, portrait or landscape, whichever needs fewer pages.

    The boxes are 12 mm wide where that fits; where it would take a second page they
    narrow (to 10 mm at the least) and the labels wrap in a narrower column, so that
    a house of many rows still gets its rounds on one page.

    :param teams: the teams' names ("" for a column to write one in)
    :param rounds: the rounds asked for (0: the game's; for an open-ended game, as many
        as fit one page, at least ``BLANK_ROUNDS``)
    :param cheat_chars: about how long the cheat-sheet strip is
    """
    lines = blank_lines(rules)
    longest = max(_text_mm(f"{label} × {v:,}" if v is not None else label) for label, v in lines)
    natural = min(LABEL_MAX_MM, max(LABEL_MIN_MM, 2 * math.ceil(longest / 2)))
    count = rounds or rules.planned_rounds
    # the choices, the one a pen likes best first: wide boxes, labels on one line, portrait
    groups = [
        [
            BlankLayout(
                landscape,
                label,
                *_pack(
                    rules,
                    teams,
                    count,
                    paper,
                    landscape,
                    label,
                    cell,
                    cheat_chars,
                ),
            )
            for landscape in (False, True)
        ]
        for cell in CELL_STEPS_MM
        for label in sorted({natural, LABEL_MIN_MM}, reverse=True)
    ]
    if count:
        fewest = min(layout.printed for group in groups for layout in group)
        return next(layout for group in groups for layout in group if layout.printed == fewest)
    for group in groups:
        best = max(
            group, key=lambda layout: _shown(layout) if layout.printed == 1 else 0
        )  # portrait on a tie
        if best.printed == 1 and _shown(best) >= BLANK_ROUNDS:
            return best
    return blank_layout(rules, teams, BLANK_ROUNDS, paper, cheat_chars=cheat_chars)


def _pack(rules, teams, count, paper, landscape, label_mm, cell_mm, cheat_chars):
    """Pages of bands of rounds (``count`` rounds, or (None) as many as fit one page), the
    narrowest box, and the sheets of paper they take."""
    w, h = PAPER_MM[paper]
    sides, ends = MARGINS_MM[landscape]
    width, height = (h, w) if landscape else (w, h)
    width, height = width - sides, height - ends
    lines = blank_lines(rules)
    by_score = bool(rules.meld_minimum and "by_score" in rules.meld_minimum)
    names = max(_lines_of(name, cell_mm) for name in teams)  # a team's name over its column
    teams = len(teams)
    across = width - label_mm - LABEL_PAD_MM  # the boxes' share of the width
    per_band = max(1, int(across / (teams * cell_mm)))
    cell = across / (per_band * teams)
    body = (
        sum(
            max(
                ROW_MM,
                _lines_of(f"{label} × {v:,}" if v is not None else label, label_mm + 2.4) * LABEL_LINE_MM
                + 0.9,
            )
            for label, v in lines
        )
        # the note and the sums (meld minimum, round score, total): a row each
        + sum(1 for line in sheet_lines(rules) if not line.scored) * ROW_MM
    )
    room = height - SHEET_HEAD_MM - (_cheat_lines(cheat_chars, width) * CHEAT_LINE_MM + 4.8)
    room -= (LINE_MM + 2) if by_score else 0  # the meld minimums by score, a line of 8.5 pt

    def band_height(band):
        head = max(_lines_of(" · ".join(round_head(rules, r)), teams * cell) for r in band)
        return head * LABEL_LINE_MM + 1.2 + max(4.2, names * LABEL_LINE_MM) + 1.2 + body + ROUND_SPACING_MM

    every = blank_rounds(rules, count or min(scoring.MAX_ROUNDS, per_band * 12))
    pages, heights, page, used = [], [], [], 0.0
    for i in range(0, len(every), per_band):
        band = every[i : i + per_band]
        need = band_height(band)
        if page and used + need > room:
            pages.append(page)
            heights.append(used)
            if count is None:
                break  # open-ended: what fits one page
            page, used = [], 0.0
        page.append(band)
        used += need
    else:
        pages, heights = [*pages, page], [*heights, used]
    # a page of one band taller than the room runs onto more paper
    printed = sum(max(1, math.ceil(used / room)) if room > 0 else 2 for used in heights)
    return [_even(page) for page in pages], cell_mm, printed


def _even(page):
    """The page's rounds spread evenly over its bands (3 + 1 becomes 2 + 2), so that no
    band's boxes stretch wider than another's."""
    rounds = [r for band in page for r in band]
    size = -(-len(rounds) // len(page))
    return [rounds[i : i + size] for i in range(0, len(rounds), size)]


def label_class(layout):
    """The CSS class that sets the label column's width (even millimetres, 24 to 36)."""
    return f"label-{layout.label_mm}"


def _shown(layout):
    return sum(len(band) for page in layout.pages for band in page)


def blank_lines(rules):
    """The lines the engine scores, as a blank sheet measures them: (label, points per unit,
    or None where the points are written as counted or change by round). Every line of the
    sheet, with the note and the sums around these, is ``layout.sheet_lines``."""
    return [(line.label, line.per) for line in scored_lines(rules)]
