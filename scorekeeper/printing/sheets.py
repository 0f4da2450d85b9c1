"""Score sheets: a game's sheet laid out for paper, and any sheet turned into a PDF.

The numbers are the engine's (``scoring.standings`` and friends); this module
only arranges them into pages, and turns the HTML into a PDF with WeasyPrint.
Blank sheets are laid out by ``blank_sheets.py``; printing in the background
after a change is ``ahead.py``.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass

from .. import scoring
from ..recent import Recent
from ..scoring.language import N_, _, language
from ..web.resources import resource_folder
from .blank_sheets import round_class

ROUNDS_PER_PAGE = 6  # with up to 4 teams, a page of the paper sheets people use
PAPERS = {"letter": N_("Letter"), "a4": N_("A4")}


@dataclass(frozen=True)
class SheetRound:
    number: int
    scores: list  # per team, the engine's TeamRoundScore (its breakdown lines)
    totals: list  # per team, the running total after this round
    lines: list  # per team, its meld minimum and breakdown as the sheet prints them (breakdown_text)


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
    from ..web.formatting import points

    lines = [_("Meld minimum %(minimum)s", minimum=minimum)] if minimum is not None else []
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
    from ..web.formatting import points

    s = game.standings
    every = (line for scores in s.round_scores for score in scores for line in score.breakdown)
    width = max((len(points(line.points)) for line in every), default=0)
    rounds = [
        SheetRound(
            played.number,
            s.round_scores[i],
            s.running_totals[i],
            [breakdown_text(score, m, width) for score, m in zip(s.round_scores[i], s.meld_minimums[i])],
        )
        for i, played in enumerate(game.rounds)
    ]
    return [rounds[i : i + ROUNDS_PER_PAGE] for i in range(0, len(rounds), ROUNDS_PER_PAGE)] or [[]]


def game_sheet_html(game, paper, *, pdf, pdf_links=(), back_url=None):
    """The HTML of a game's sheet (inside an app context; ``pdf`` leaves out the toolbar)."""
    from flask import render_template

    return render_template(
        "sheets/game.html",
        pdf=pdf,
        game=game,
        pages=game_pages(game),
        round_class=round_class([_("Round"), _("Final")]),
        tiers=scoring.value_tiers(game.rules),
        deck=scoring.deck(game.rules, sum(len(team.players) for team in game.teams)),
        paper=paper,
        pdf_links=pdf_links,
        back_url=back_url,
    )


# --- PDF ------------------------------------------------------------------------

_render_lock = threading.Lock()
_style = None  # (font configuration, parsed sheet.css), made once per process
CACHE_SIZE = 32
_cache = Recent(CACHE_SIZE)  # a PDF by the hash of its HTML
_counts = {"hits": 0, "renders": 0}


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
    return _cached(hashlib.sha256(html.encode()).hexdigest(), lambda: _write_pdf(html), sheet)


def _cached(key, write, sheet=None):
    """The PDF cached under ``key``, else ``write()``'s, cached, one render at a time."""
    with _render_lock:
        pdf = _cache.get(key)
        if pdf is not None:
            _counts["hits"] += 1
        else:
            pdf = _cache[key] = write()
            _counts["renders"] += 1
        if sheet is not None:
            _sheets[sheet] = key
        return pdf


def _write_pdf(html):
    from weasyprint import HTML

    fonts, style = fonts_and_style()
    # the sheet's HTML names no file, image or stylesheet: nothing to fetch
    return HTML(string=html, url_fetcher=_refuse).write_pdf(stylesheets=[style], font_config=fonts)


def pdf_from_htmls(htmls):
    """One PDF of several sheets' HTML, each laid out as its own document, their pages
    one after another (an evening: every table's sheet, then its summary). Cached
    like ``pdf_from_html``, by all of the HTML."""
    return _cached(hashlib.sha256("\0".join(htmls).encode()).hexdigest(), lambda: _write_pdfs(htmls))


def _write_pdfs(htmls):
    from weasyprint import HTML

    fonts, style = fonts_and_style()
    documents = [
        HTML(string=html, url_fetcher=_refuse).render(stylesheets=[style], font_config=fonts)
        for html in htmls
    ]
    return documents[0].copy([page for document in documents for page in document.pages]).write_pdf()


def evening_pdf(evening, paper):
    """The evening printed: every table's sheet (game by game), then its summary page."""
    from flask import render_template

    from ..services.evening_tables import MODES

    htmls = [game_sheet_html(game, paper, pdf=True) for game in evening.games]
    htmls.append(
        render_template(
            "sheets/evening.html",
            evening=evening,
            modes=MODES,
            ranking_rule=evening.ranking_rule,
            paper=paper,
            pdf=True,
            pdf_links=(),
            back_url=None,
        )
    )
    return pdf_from_htmls(htmls)


def render_uncached(html):
    """Lay a sheet's HTML out and write its PDF, keeping nothing (the warm-up)."""
    with _render_lock:
        _write_pdf(html)


# What a game's sheet is drawn from, short of its HTML: the game as of its
# revision (rules, rounds and result change only with a new revision and
# updated_at; the uid tells games of different databases apart), its teams'
# and players' names as read with it (a rename changes no revision), and the
# paper, and the language it is printed in. A sheet asked for again (Print after the background printed it)
# then costs a look-up, not the template and a hash of its HTML.
_sheets = Recent(CACHE_SIZE)


def _sheet_of(game, paper):
    # the language too: a sheet is printed in the words of whoever asks for it
    return (
        game.uid,
        game.revision,
        game.updated_at,
        game.finished_at,
        game.ended_by_hand,
        game.teams,
        paper,
        language(),
    )


def game_pdf(game, paper):
    """The PDF of a game's sheet on ``paper`` (inside an app context): from the cache when
    the game is as it was when last printed, else rendered (``pdf_from_html``)."""
    sheet = _sheet_of(game, paper)
    with _render_lock:
        pdf = _cache.get(_sheets.get(sheet))
        if pdf is not None:
            _counts["hits"] += 1
            return pdf
    return _pdf(game_sheet_html(game, paper, pdf=True), sheet)
