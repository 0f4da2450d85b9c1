"""Score sheets: a game's sheet and blank sheets, laid out for paper.

The numbers are the engine's (``scoring.standings`` and friends); this module
only arranges them into pages, and turns the HTML into a PDF with WeasyPrint.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

from . import scoring

ROUNDS_PER_PAGE = 6  # with up to 4 teams, a page of the paper sheets people use
PAPERS = {"letter": "Letter", "a4": "A4"}
BLANK_ROUNDS = 6  # a blank sheet for rules that do not fix the number of rounds


@dataclass(frozen=True)
class SheetRound:
    number: int
    meld_minimums: list  # per team, the engine's minimum for this round (or None)
    scores: list  # per team, the engine's TeamRoundScore (its breakdown lines)
    totals: list  # per team, the running total after this round


def paper(value, default):
    """A known paper size from a query string value, else the default."""
    value = (value or "").lower()
    return value if value in PAPERS else default


def game_pages(game):
    """The game's rounds in pages of ``ROUNDS_PER_PAGE`` (at least one page)."""
    s = game.standings
    rounds = [
        SheetRound(played.number, s.meld_minimums[i], s.round_scores[i], s.running_totals[i])
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


def blank_lines(rules):
    """The boxes to fill in per team and round: (label, points per unit, or None
    where the points are written as counted or change by round)."""
    lines = [(rules.book_label(kind), value) for kind, value in rules.books.items()]
    for entry in scoring.ENTRY_FIELDS:
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


def _fonts_and_style(css_path):
    """One font configuration and one parsed stylesheet for every render:
    building them per PDF is slow, and a PDF then fetches nothing."""
    global _style
    if _style is None:
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        fonts = FontConfiguration()
        with open(css_path, encoding="utf-8") as file:  # CSS(filename=) leaves it open
            _style = fonts, CSS(string=file.read(), font_config=fonts)
    return _style


def pdf_from_html(html, css_path):
    """The PDF of a sheet's HTML (rendered without its <link>), in this process.

    Cached by the HTML itself: printing an unchanged sheet twice costs one
    hash, and any change (a round, a name, the paper) prints fresh. Renders
    take turns: one WeasyPrint at a time keeps memory flat on a small machine.
    """
    from flask_weasyprint import HTML  # resolves any URL inside the app: never HTTP

    key = hashlib.sha256(html.encode()).hexdigest()
    with _render_lock:
        if key in _cache:
            _cache.move_to_end(key)
            _counts["hits"] += 1
            return _cache[key]
        fonts, style = _fonts_and_style(css_path)
        pdf = HTML(string=html).write_pdf(stylesheets=[style], font_config=fonts)
        _counts["renders"] += 1
        _cache[key] = pdf
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return pdf
