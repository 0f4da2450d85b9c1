"""The yearbook (issue 58): the family's year printed, a booklet on the household's paper.

What it shows is ``services.yearbook``'s; this module words it (the game of the year's
sentence, the charts), lays it out (``templates/yearbook/book.html`` with
``static/yearbook.css``: black on white, each chart's line with its own marker shape, no
colour that carries meaning alone) and draws it with WeasyPrint, in the background, on
one ``background.Worker``, one book at a time.

A book is cached by what it shows (``Book``: the year's ``services.yearbook.key``, the
language, the paper, the household's name), so asking again for an unchanged year costs
one query; a book being drawn says how far it has got (``progress``), and asking for it
again while it is drawn queues nothing: concurrent asks draw once.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import threading
import time

from ..background import Worker, answering
from ..recent import Recent
from ..scoring.language import _, ngettext
from ..services import colours, years
from ..services import yearbook as data
from ..services.evenings import evening
from ..storage.db import connect
from ..web import charts, formatting
from ..web.language import speaking
from .styled import Styled

CACHE_SIZE = 4  # books, 100 to 400 KB each
IDLE_SECONDS = 30
_worker = Worker("scorekeeper-yearbook", IDLE_SECONDS)
_lock = threading.Lock()
_cache = Recent(CACHE_SIZE)  # Book -> PDF bytes
_drawing = {}  # Book -> its progress: {"step": 1.., "steps": STEPS, "since": time.monotonic()}
_styled = Styled("yearbook.css", "a yearbook")
_drawn = [0]  # books drawn since the process started (a test counts them)
# what drawing a book does, in order: the progress page names the step being done
STEPS = ("reading", "laying out", "writing")


@dataclasses.dataclass(frozen=True)
class Book:
    """What a book shows: its year and data's key, and how it is printed."""

    year: int
    key: str
    language: str
    paper: str
    household: str


def game_sentence(told):
    """The game of the year told in one sentence, in the reader's words."""
    game, story = told["game"], told["story"]
    night = formatting.night(game["night"])
    teams = sorted(game["teams"], key=lambda t: -t["total"])
    if story == "comeback":
        winner = game["teams"][game["comeback_team"]]["name"]
        return ngettext(
            "%(team)s were %(num)s point behind after round %(round)s and won on %(night)s: the comeback "
            "of the year.",
            "%(team)s were %(num)s points behind after round %(round)s and won on %(night)s: the comeback "
            "of the year.",
            game["comeback"],
            team=winner,
            num=formatting.number(game["comeback"]),
            round=game["comeback_round"],
            night=night,
        )
    if story == "highest":
        return ngettext(
            "%(team)s made %(num)s point on %(night)s: the highest score of the year.",
            "%(team)s made %(num)s points on %(night)s: the highest score of the year.",
            game["high_total"],
            team=teams[0]["name"],
            num=formatting.number(game["high_total"]),
            night=night,
        )
    tied = [t["name"] for t in teams if t["total"] == teams[0]["total"]]
    if len(tied) > 1:
        return _(
            "%(teams)s and %(last)s tied at %(total)s on %(night)s: the closest finish of the year.",
            teams=", ".join(tied[:-1]),
            last=tied[-1],
            total=formatting.number(teams[0]["total"]),
            night=night,
        )
    return ngettext(
        "%(team)s beat %(other)s by %(num)s point on %(night)s: the closest finish of the year.",
        "%(team)s beat %(other)s by %(num)s points on %(night)s: the closest finish of the year.",
        game["margin"],
        team=teams[0]["name"],
        other=teams[1]["name"],
        num=formatting.number(game["margin"]),
        night=night,
    )


def rating_chart(player, colour):
    """A player's rating through the year: a line of their rating after each game (at most
    ``services.yearbook.RATING_POINTS``), labelled by month, in the player's colour (a
    ``services.colours.Colour``), as their page and the game's race chart draw them."""
    labels = [formatting.short_month(at) for at, _ in player["rating"]]
    values = [round(value, 1) for _, value in player["rating"]]
    description = _(
        "%(name)s’s rating through the year: %(first)s after their first game, %(last)s after their last.",
        name=player["name"],
        first=formatting.rating(values[0]),
        last=formatting.rating(values[-1]),
    )
    return charts.line_chart(
        _("%(name)s’s rating", name=player["name"]), description, labels, [(player["name"], values, colour)]
    )


def months_chart(book):
    """Games played each month of the year."""
    counts = [m["games"] for m in book["months"]]
    labels = [_(years.MONTHS[int(m["month"][5:7]) - 1]) for m in book["months"]]
    return charts.line_chart(
        _("Games per month, %(year)s", year=book["year"]),
        _("Games played each month of %(year)s.", year=book["year"]),
        labels,
        [(_("Games"), counts, colours.INK)],
    )


def book_html(book, paper, household, drawn):
    """The book's HTML (inside an app context, in the language it is printed in); ``drawn``:
    {player id: Colour} (``services.colours.player_colours``)."""
    from flask import render_template

    players = [p for p in book["players"] if not p["short"]]
    return render_template(
        "yearbook/book.html",
        book=book,
        paper=paper,
        household=household,
        sentence=game_sentence(book["game_of_the_year"]) if book["game_of_the_year"] else None,
        players=players,
        short=[p for p in book["players"] if p["short"]],
        colours=drawn,
        rating_charts={p["id"]: rating_chart(p, drawn.get(p["id"])) for p in players if len(p["rating"]) > 1},
        months=months_chart(book) if len(book["months"]) > 1 else None,
        nights_listed=data.NIGHTS_LISTED,
    )


def document(html):
    """The book's HTML laid out (WeasyPrint's document: its pages and boxes)."""
    return _styled.document(html)


def pdf_of(html):
    """The book's PDF from its HTML."""
    return _styled.pdf(html)


# --- drawn in the background ---------------------------------------------------------------


def book_of(db, year, language, paper, household):
    """The ``Book`` the year's data is now, printed so."""
    return Book(year, data.key(db, year), language, paper, household)


def cached(book):
    """The book's PDF when drawn, else None."""
    with _lock:
        return _cache.get(book)


def progress(book):
    """How far the book's drawing has got: (step being done, 1-based; steps; seconds since
    it was asked for), or None when it is not being drawn."""
    with _lock:
        state = _drawing.get(book)
        if state is None:
            return None
        return state["step"], len(STEPS), time.monotonic() - state["since"]


def _step(book, number):
    with _lock:
        if book in _drawing:
            _drawing[book]["step"] = number


def draw(app, book):
    """Draw ``book`` now (in the worker) and cache it: the data read on a connection of its
    own, in the book's language, the HTML laid out and written."""
    try:
        with app.app_context(), speaking(book.language):
            db = connect(app.config["DATABASE"])
            try:
                shown = data.yearbook(db, book.year)
                drawn = colours.player_colours(db)
            finally:
                db.close()
            if shown is None:
                return
            _step(book, 2)
            laid_out = document(book_html(shown, book.paper, book.household, drawn))
            _step(book, 3)
            pdf = laid_out.write_pdf()
        with _lock:
            _cache[book] = pdf
            _drawn[0] += 1
    finally:
        with _lock:
            _drawing.pop(book, None)


def ask(app, book):
    """The book's PDF when it is drawn; else None, with its drawing queued unless it is
    queued or being drawn already (concurrent asks draw once)."""
    with _lock:
        pdf = _cache.get(book)
        if pdf is not None:
            return pdf
        if book in _drawing:
            return None
        _drawing[book] = {"step": 1, "since": time.monotonic()}
    _worker.submit(lambda: draw(app, book))
    return None


def wait(timeout=None):
    """Until every book asked for is drawn (a test, the benchmark); whether they were."""
    return _worker.wait(timeout)


def drawn_count():
    """How many books were drawn since the process started."""
    with _lock:
        return _drawn[0]


def clear_cache():
    with _lock:
        _cache.clear()


QUIET_SECONDS = 5.0  # a book drawn at the new year waits at most this long for no request


def at_new_year(app, today, db):
    """Queue last year's book when the year has ended (in January: ``today`` an ISO date)
    and it had games, in the household's language (English when each phone reads its own)
    and paper, once no request is being answered: the book the family asks for at the
    first evening of the year is then found made. The book queued, or None."""
    if today[5:7] != "01":
        return None
    year = int(today[:4]) - 1
    if year not in years.years_played(db):
        return None
    from ..web.language import household_language

    with app.app_context():
        language = household_language() or "en"
    book = book_of(db, year, language, app.config["PAPER"], app.config.get("HOUSEHOLD_NAME") or "")
    with _lock:
        if book in _cache or book in _drawing:
            return book
        _drawing[book] = {"step": 1, "since": time.monotonic()}

    def job():
        answering(app).wait_for_none(QUIET_SECONDS)  # never while a phone waits for a page
        draw(app, book)

    _worker.submit(job)
    return book


_looked = set()  # the days on which at_new_year was looked at, in this process


def _look_at_new_year(app):
    """Once a day, in January only (the database is not opened otherwise): never the reason
    a page fails (a disk turned read-only is the pages' to tell), so a failure is logged."""
    today = evening(datetime.datetime.now(datetime.UTC).isoformat())
    with _lock:
        if today in _looked:
            return
        _looked.add(today)
    if today[5:7] != "01":
        return
    try:
        db = connect(app.config["DATABASE"])
        try:
            at_new_year(app, today, db)
        finally:
            db.close()
    except Exception:
        logging.getLogger(__name__).exception("last year's yearbook was not queued")


def init_app(app):
    """With YEARBOOK_AT_NEW_YEAR (on unless TESTING), the first request of each day in
    January looks whether last year's book is drawn, and queues it if not."""
    app.config.setdefault("YEARBOOK_AT_NEW_YEAR", not app.testing)
    if app.config["YEARBOOK_AT_NEW_YEAR"]:
        app.before_request(lambda: _look_at_new_year(app))
