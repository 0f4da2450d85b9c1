"""Score sheets: a game's sheet and blank sheets, laid out for paper.

The numbers are the engine's (``scoring.standings`` and friends); this module
only arranges them into pages, and turns the HTML into a PDF with WeasyPrint.
Printing them in the background after a change is ``printing.py``.
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass

from . import scoring
from .resources import resource_folder

ROUNDS_PER_PAGE = 6  # with up to 4 teams, a page of the paper sheets people use
PAPERS = {"letter": "Letter", "a4": "A4"}
BLANK_ROUNDS = 6  # a blank sheet for rules that do not fix the number of rounds


@dataclass(frozen=True)
class SheetRound:
    number: int
    meld_minimums: list  # per team, the engine's minimum for this round (or None)
    scores: list  # per team, the engine's TeamRoundScore (its breakdown lines)
    totals: list  # per team, the running total after this round
    lines: list  # per team, its breakdown as the sheet prints it: one text (see breakdown_text)


def paper(value, default):
    """A known paper size from a query string value, else the default."""
    value = (value or "").lower()
    return value if value in PAPERS else default


# Blanks as wide as what they stand for in the sheet's font (DejaVu, as most fonts:
# digits all one width, a figure space as wide as a digit, a punctuation space as a
# comma, "+" as "−"), so that points padded with them line up on the right.
_BLANK = {**dict.fromkeys("0123456789", "\u2007"), ",": "\u2008", "+": "\u2007\u2009", "−": "\u2007\u2009"}


def breakdown_text(score, minimum, width):
    """A team's round as the sheet prints it: a line per breakdown line, its points
    first, padded on the left to ``width`` characters so that they line up on the
    right, then what they are for ("+1,000  Clean (red) books ×2"); the meld
    minimum above. One text with a line per line: WeasyPrint's cost is per box
    and per text run, so a cell of label lines beside a cell of points lines was
    twice the runs (docs/PERFORMANCE.md)."""
    from .formatting import points

    lines = [f"Meld minimum {minimum}"] if minimum is not None else []
    for line in score.breakdown:
        if line.count == 0:
            continue
        text = points(line.points)
        label = line.label if line.count is None else f"{line.label} ×{line.count}"
        lines.append(_pad(text, width) + text + "  " + label)
    return "\n".join(lines)


def _pad(text, width):
    """Blanks as wide as what ``text`` lacks of the widest points (``width`` characters, a sign
    and digits with their commas): "−35" padded to "+1,000" takes two digits' and a comma's."""
    digits = text.lstrip("+−")
    widest = "0,000,000,000,000"[-(width - 1) :] if width > 1 else ""
    blanks = "".join(_BLANK[c] for c in widest[: len(widest) - len(digits)])
    return blanks if digits != text else _BLANK["+"] + blanks  # "0" has no sign


def game_pages(game):
    """The game's rounds in pages of ``ROUNDS_PER_PAGE`` (at least one page)."""
    from .formatting import points

    s = game.standings
    every = (line for scores in s.round_scores for score in scores for line in score.breakdown)
    width = max((len(points(line.points)) for line in every), default=0)
    rounds = [
        SheetRound(
            played.number,
            s.meld_minimums[i],
            s.round_scores[i],
            s.running_totals[i],
            [breakdown_text(score, m, width) for score, m in zip(s.round_scores[i], s.meld_minimums[i])],
        )
        for i, played in enumerate(game.rounds)
    ]
    return [rounds[i : i + ROUNDS_PER_PAGE] for i in range(0, len(rounds), ROUNDS_PER_PAGE)] or [[]]


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


_widths = []  # [(character -> width in em, the width of any other character)], read once


def _font_widths():
    if not _widths:
        widths, other = {}, CHAR_MM / (8 * 25.4 / 72)
        try:
            from fontTools.ttLib import TTFont

            path = next(p for p in FONT_FILES if os.path.exists(p))
            with TTFont(path) as font:  # read once, and the file closed
                metrics, units = font["hmtx"], font["head"].unitsPerEm
                widths = {chr(c): metrics[name][0] / units for c, name in font.getBestCmap().items()}
            other = max(widths.values(), default=other)
        except (ImportError, StopIteration, OSError, KeyError):
            pass  # no font file here: every character is CHAR_MM
        _widths.append((widths, other))
    return _widths[0]


def _text_mm(text):
    """How wide a text of 8 pt DejaVu Sans Condensed is, a little generously."""
    widths, other = _font_widths()
    if not widths:
        return len(text) * CHAR_MM
    return sum(widths.get(c, other) for c in text) * (8 * 25.4 / 72) * TEXT_SLACK


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
    from .formatting import books, points  # the sheet's own words for numbers

    parts = [f"Round {r.number}"]
    if r.meld_minimum is not None:
        parts.append(f"meld {r.meld_minimum}")
    if r.first_meld_books:
        parts.append(f"first meld {books(r.first_meld_books, words)}")
    if r.books_to_go_out:
        parts.append(f"out with {books(r.books_to_go_out, words)}")
    if r.going_out and not isinstance(rules.going_out, int):  # by round (else on the cheat sheet)
        parts.append(f"going out {points(r.going_out)}")
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
                landscape, label, *_pack(rules, teams, count, paper, landscape, label, cell, cheat_chars)
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
        + (2 + by_score) * ROW_MM
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
    """The boxes to fill in per team and round: (label, points per unit, or None
    where the points are written as counted or change by round)."""
    lines = [(rules.book_label(kind), value) for kind, value in rules.books.items()]
    for entry in scoring.entry_fields(rules):
        if scoring.asked(rules, entry):
            value = getattr(rules, entry.rule) if entry.kind == "count" else None
            # a value that depends on who went out is on the cheat sheet
            lines.append((entry.line, value if isinstance(value, int) else None))
        if entry.name == "red_threes_melded" and rules.red_threes_all:
            bonus = rules.red_threes_all["bonus"]
            lines.append(
                (f"All {rules.red_threes_all['count']} red 3s", bonus if isinstance(bonus, int) else None)
            )
    return lines


def game_sheet_html(game, paper, *, pdf, pdf_links=(), back_url=None):
    """The HTML of a game's sheet (inside an app context; ``pdf`` leaves out the toolbar)."""
    from flask import render_template

    return render_template(
        "sheets/game.html",
        pdf=pdf,
        game=game,
        pages=game_pages(game),
        tiers=scoring.value_tiers(game.rules),
        deck=scoring.deck(game.rules, sum(len(team.players) for team in game.teams)),
        paper_name=PAPERS[paper],
        pdf_links=pdf_links,
        back_url=back_url,
    )


# --- PDF ------------------------------------------------------------------------

_render_lock = threading.Lock()
_style = None  # (font configuration, parsed sheet.css), made once per process
_cache: OrderedDict[str, bytes] = OrderedDict()
_counts = {"hits": 0, "renders": 0}
CACHE_SIZE = 32


def cache_info():
    """How many PDFs came from the cache and how many were rendered, since start."""
    with _render_lock:
        return dict(_counts)


def clear_cache():
    with _render_lock:
        _cache.clear()
        _sheets.clear()


def css_path():
    return os.path.join(resource_folder("static"), "sheet.css")


def fonts_and_style():
    """One font configuration and one parsed stylesheet for every render:
    building them per PDF is slow, and a PDF then fetches nothing."""
    global _style
    if _style is None:
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        fonts = FontConfiguration()
        with open(css_path(), encoding="utf-8") as file:  # CSS(filename=) leaves it open
            _style = fonts, CSS(string=file.read(), font_config=fonts)
    return _style


def _refuse(url):
    raise ValueError(f"a sheet fetches nothing (asked for {url})")


def pdf_from_html(html):
    """The PDF of a sheet's HTML (rendered without its <link>), in this process.

    Cached by the HTML itself: printing an unchanged sheet twice costs one
    hash, and any change (a round, a name, the paper) prints fresh. Renders
    take turns: one WeasyPrint at a time keeps memory flat on a small machine,
    and a request for a sheet being rendered in the background waits for it
    and takes it from the cache.
    """
    return _pdf(html)


def _pdf(html, sheet=None):
    """``pdf_from_html``; ``sheet``, when given, is remembered as naming this HTML."""
    key = hashlib.sha256(html.encode()).hexdigest()
    with _render_lock:
        if key in _cache:
            _cache.move_to_end(key)
            _counts["hits"] += 1
        else:
            from weasyprint import HTML

            fonts, style = fonts_and_style()
            # the sheet's HTML names no file, image or stylesheet: nothing to fetch
            pdf = HTML(string=html, url_fetcher=_refuse).write_pdf(stylesheets=[style], font_config=fonts)
            _counts["renders"] += 1
            _cache[key] = pdf
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
        if sheet is not None:
            _sheets[sheet] = key
            while len(_sheets) > CACHE_SIZE:
                _sheets.popitem(last=False)
        return _cache[key]


def render_uncached(html):
    """Lay a sheet's HTML out and write its PDF, keeping nothing (the warm-up)."""
    with _render_lock:
        from weasyprint import HTML

        fonts, style = fonts_and_style()
        HTML(string=html, url_fetcher=_refuse).write_pdf(stylesheets=[style], font_config=fonts)


# What a game's sheet is drawn from, short of its HTML: the game as of its
# revision (rules, rounds and result change only with a new revision and
# updated_at; the uid tells games of different databases apart), its teams'
# and players' names as read with it (a rename changes no revision), and the
# paper. A sheet asked for again (Print after the background printed it)
# then costs a look-up, not the template and a hash of its HTML.
_sheets: OrderedDict[tuple, str] = OrderedDict()


def _sheet_of(game, paper):
    return (game.uid, game.revision, game.updated_at, game.finished_at, game.ended_by_hand, game.teams, paper)


def game_pdf(game, paper):
    """The PDF of a game's sheet on ``paper`` (inside an app context): from the cache when
    the game is as it was when last printed, else rendered (``pdf_from_html``)."""
    sheet = _sheet_of(game, paper)
    with _render_lock:
        key = _sheets.get(sheet)
        if key is not None and key in _cache:
            _cache.move_to_end(key)
            _counts["hits"] += 1
            return _cache[key]
    return _pdf(game_sheet_html(game, paper, pdf=True), sheet)
