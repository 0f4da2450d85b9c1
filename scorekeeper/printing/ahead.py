"""Sheets printed in the background, so that "Print" finds them made.

With SHEETS_IN_BACKGROUND (on unless TESTING), the app imports WeasyPrint
and renders a small page with the sheets' fonts as it starts (about a
second the first "Print" no longer waits for), and each change to a game
queues its sheet (``render_later``), so that "Print" finds it in the cache
(``sheets.game_pdf``). One worker (``background.Worker``) does the work, a job
at a time, once the app is quiet, and ends when idle; a job for a game changed again
since is skipped. ``wait_for_background`` lets a test wait.
"""

from __future__ import annotations

import threading
import time

from ..background import Worker, answering
from ..services import records
from ..storage.db import connect
from . import pictures
from .sheets import game_pdf, game_sheet_html, render_uncached

_latest: dict[str, int] = {}  # game uid (unique across databases) -> the newest revision queued
_warm_lock = threading.Lock()

IDLE_SECONDS = 30  # the worker thread ends after this long with nothing to do
_worker = Worker("scorekeeper-sheets", IDLE_SECONDS)
LONGEST_WAIT = 5.0  # a sheet waits at most this long for the app to be quiet

# set each time the worker holds a sheet back for a request being answered: its own word,
# which a test waits on instead of a clock
held_back = threading.Event()


def _wait_until_quiet(app, quiet, deadline):
    """Sleep until the app has answered no request for ``quiet`` seconds (or until
    ``deadline``): a sheet printed in the background never slows a request down (a render
    holds Python for a tenth of a second or more at a time). The count is the app's one
    (``background.answering``)."""
    requests = answering(app)
    while True:
        now = time.monotonic()
        count, since = requests.now()
        left = quiet - since if not count else quiet
        if left <= 0 or now >= deadline:
            return
        if count:
            held_back.set()
        time.sleep(min(left, deadline - now))


def _sample_game(teams):
    """A small game of ``teams`` teams in memory, never saved: what the warm-up prints."""
    from ..scoring import RULESETS, TeamRound
    from ..services.game_model import Game, Player, Round, Team

    return Game(
        id=0,
        uid="warm-up",
        rules=RULESETS["tablet"],
        rules_key="tablet",
        # an emoji (its font), and a team name apart from its players (their line)
        teams=tuple(
            Team(t, t, f"Team {t} 🃏", (Player(2 * t, "Ann"), Player(2 * t + 1, "Bo"))) for t in range(teams)
        ),
        rounds=(Round(1, 1, tuple(TeamRound(books={"clean": 1}, melded_points=100) for _ in range(teams))),),
        first_dealer=None,
        ended_by_hand=True,  # a result line and final totals, in their own sizes
        finished_at="2026-01-01T00:00:00+00:00",
        created_at="2026-01-01T00:00:00+00:00",
        updated_at="2026-01-01T00:00:00+00:00",
        revision=1,
        played_at="2026-01-01T00:00:00+00:00",
        night="2025-12-31",
    )


def _warm_up(app):
    """Import WeasyPrint, load the sheets' fonts (emoji too), compile the sheet's
    template and lay one out for each number of teams (the CSS matcher learns
    each table's classes): what the first "Print" would otherwise wait for."""
    from ..scoring import MAX_TEAMS, MIN_TEAMS

    for teams in range(MIN_TEAMS, MAX_TEAMS + 1):
        with app.app_context():
            html = game_sheet_html(_sample_game(teams), app.config["PAPER"], pdf=True)
        render_uncached(html)


def render_later(app, game):
    """Queue the PDF of ``game``'s sheet (default paper), as "Print" will ask for it.

    It starts ``SHEETS_BACKGROUND_DELAY`` seconds later, and once the app has
    answered no request for as long (at most ``LONGEST_WAIT`` seconds later):
    after the game page the phone asks for next, after any quick second change
    (only the newest is printed), and never while a phone waits for a page.
    """
    if not app.config["SHEETS_IN_BACKGROUND"]:
        return
    _latest[game.uid] = max(_latest.get(game.uid, -1), game.revision)
    delay = app.config["SHEETS_BACKGROUND_DELAY"]
    start = time.monotonic() + delay

    def job():
        time.sleep(max(0.0, start - time.monotonic()))
        _wait_until_quiet(app, delay, start + LONGEST_WAIT)
        if _latest.get(game.uid, -1) > game.revision:
            return  # changed again since: that change's job prints it
        with app.app_context():
            game_pdf(game, app.config["PAPER"])
            if game.finished and game.finished_at and game.rounds:  # "Share the picture" finds it made
                db = connect(app.config["DATABASE"])
                try:
                    told = records.worth_telling(db, game)
                finally:
                    db.close()
                pictures.game_picture(game, told)

    _worker.submit(job)


def wait_for_background():
    """Return once every queued sheet (and the warm-up) is done."""
    _worker.wait()


_warmed = []


def warm_up(app):
    """Get WeasyPrint ready in the background, once per process."""
    with _warm_lock:
        if _warmed:
            return
        _warmed.append(True)
    _worker.submit(lambda: _warm_up(app))


def init_app(app):
    """With SHEETS_IN_BACKGROUND, warm WeasyPrint up as the server starts (a CLI
    command never does: it prints nothing), or else on the first request."""
    app.config.setdefault("SHEETS_IN_BACKGROUND", not app.testing)
    app.config.setdefault("SHEETS_BACKGROUND_DELAY", 0.3)
    if not app.config["SHEETS_IN_BACKGROUND"]:
        return
    import click

    if click.get_current_context(silent=True) is None:
        warm_up(app)
    else:
        app.before_request(lambda: warm_up(app))
