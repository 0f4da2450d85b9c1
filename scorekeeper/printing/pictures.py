"""Pictures of a result for the family chat (issue 46): a finished game, an evening or a
player's year, as a PNG of 1200 × 630 pixels, the size of a link preview, to send from the
phone's share sheet or to show beside a share link pasted into a chat.

Drawn like the sheets: an HTML template (``templates/pictures/``) with its stylesheet
(``static/picture.css``, the app's colours and the sheets' fonts), laid out by WeasyPrint
into a one-page PDF, which pypdfium2 (a binary wheel, no system package) turns into
pixels; nothing is drawn by hand. Every number is the engine's (``game.standings``).

A picture is cached by what it shows (the game as of its revision, its teams' names), as
PNG bytes with their ETag; the first one of a finished game is drawn in the background
after the change that ended it (``ahead.render_later``), so that "Share the picture"
finds it made.
"""

from __future__ import annotations

import hashlib
import io
import logging
import threading

from ..recent import Recent
from ..scoring.language import language
from ..services import colours, records
from .styled import Styled

log = logging.getLogger(__name__)
WIDTH, HEIGHT = 1200, 630  # pixels: a link preview's size (Open Graph's 1.91:1)
CACHE_SIZE = 64  # a picture is 30 to 80 KB
_cache = Recent(CACHE_SIZE)  # (what a picture shows) -> Picture
_lock = threading.Lock()  # the cache's own: a picture found there never waits for one being drawn
_drawing = threading.Lock()  # one picture drawn at a time (WeasyPrint's memory on a small machine)
STYLED = Styled("picture.css", "a picture")  # the tests lay a picture out with it too


class Picture:
    """A PNG and its ETag (the hash of its bytes)."""

    def __init__(self, png):
        self.png = png
        self.etag = hashlib.sha256(png).hexdigest()[:20]


def best_round(game):
    """(round number, team index, its score) of the game's highest round score (the first
    if several are as high), as its records have it (``records.facts_by_name``); None without."""
    row = records.facts_by_name(game)
    return None if row is None else (row["best_round_number"], row["best_round_team"], row["best_round"])


def team_colours(game):
    """Each team's colour as the game page's chart draws its line (``charts.series_colours``
    of ``colours.of_teams``: a player's where a team takes it, else the chart's own)."""
    from ..storage.db import get_db
    from ..web.charts import series_colours

    return series_colours(colours.of_teams(get_db(), game))


def game_picture_html(game, told=None, drawn=None):
    """The HTML of a finished game's picture (inside an app context); ``told``: the line
    worth telling beyond its result (``services.records.worth_telling``), else its best
    round is told; ``drawn``: each team's colour (``team_colours``)."""
    from flask import render_template

    s = game.standings
    drawn = drawn if drawn is not None else team_colours(game)
    return render_template(
        "pictures/game.html", game=game, s=s, best=best_round(game), told=told, drawn=drawn
    )


def _shows(game):
    """Everything a game's picture shows, short of its HTML (as the sheets' ``_sheet_of``)."""
    return (game.uid, game.revision, game.updated_at, game.finished_at, game.played_at, game.teams)


def game_picture(game, told=None):
    """The picture of a finished game (inside an app context): from the cache when the
    game (and what is told of it, and its teams' colours) is as it was when last drawn,
    else drawn now."""
    drawn = team_colours(game)
    key = (*_shows(game), tuple(c.key for c in drawn), tuple(sorted((told or {}).items())))
    return _picture(key, lambda: game_picture_html(game, told, drawn))


def evening_colours(evening):
    """{player's name: Colour} of an evening's players (inside an app context)."""
    from ..storage.db import get_db

    return colours.of_players(get_db(), evening.games)


def evening_picture_html(evening, named=None):
    """The HTML of an evening's picture; ``named``: its players' colours (``evening_colours``)."""
    from flask import render_template

    named = named if named is not None else evening_colours(evening)
    return render_template("pictures/evening.html", evening=evening, colours=named)


def evening_picture(evening):
    """The picture of an evening (inside an app context): its standings and best round,
    cached by the evening's version (any change to any of its games), names and colours."""
    named = evening_colours(evening)
    drawn = tuple(sorted((name, c.key) for name, c in named.items()))
    key = ("evening", evening.night, evening.version, tuple(evening.standings), drawn)
    return _picture(key, lambda: evening_picture_html(evening, named))


def year_picture_html(year, colour=None):
    """The HTML of a player's year's picture (``year_picture``)."""
    from flask import render_template

    return render_template("pictures/year.html", year=year, colour=colour)


def year_picture(year, colour=None):
    """The picture of a player's year (``services.years.player_year``'s dict) beside their
    colour (a ``colours.Colour``), cached by everything it shows."""
    key = ("year", tuple(sorted((k, repr(v)) for k, v in year.items())), colour and colour.key)
    return _picture(key, lambda: year_picture_html(year, colour))


def _picture(key, html):
    """The picture cached under ``key`` (a hit never waits for a drawing), else the HTML
    ``html()`` makes, drawn. A picture is drawn in the words of whoever asks for it: the
    language is part of its key."""
    key = (language(), *key)
    with _lock:
        found = _cache.get(key)
    return found if found is not None else _drawn(key, html())


def _drawn(key, html):
    """The picture cached under ``key``, else ``html`` drawn (one at a time) and cached."""
    with _drawing:
        with _lock:
            found = _cache.get(key)
        if found is None:  # not drawn by another request while this one waited its turn
            found = Picture(png_from_pdf(pdf_of(html)))
            with _lock:
                _cache[key] = found
        return found


def clear_cache():
    with _lock:
        _cache.clear()


def pdf_of(html):
    """The one-page PDF a picture's HTML lays out to (its text can be read back)."""
    return STYLED.pdf(html)


def png_from_pdf(pdf):
    """The first page of ``pdf`` as a PNG of WIDTH × HEIGHT pixels."""
    import pypdfium2
    from PIL import Image

    document = pypdfium2.PdfDocument(pdf)
    try:
        if len(document) != 1:  # laid out past its one page: what the PNG shows is cut off
            log.warning("a picture was laid out on %d pages; the first is shown", len(document))
        page = document[0]
        width, _ = page.get_size()  # points: 1200 CSS pixels are 900 of them
        image = page.render(scale=WIDTH / width).to_pil().convert("RGB")
        if image.size != (WIDTH, HEIGHT):  # a rounding of the scale: a pixel either way
            image = image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
        return out.getvalue()
    finally:
        document.close()
