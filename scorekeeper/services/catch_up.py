"""The ratings brought up to date after a change, without holding the other phones up.

A change to a game that counts only moves the ratings' mark back to it
(``services.ratings.changed``), so it holds the write lock as briefly whatever
the history behind it. Once it commits, the connection hands the catch-up on
(``db.after_commit``): the replay from the mark to the newest game, in short
transactions of about ``ratings.STEP_SECONDS`` (``ratings.catch_up``), with the write
lock left free ``ratings.GAP_SECONDS`` between two for another process's writer, which
let a waiting phone's change go first between two (``db.let_writers_in``), and,
in the app, any request being answered (a page a family opens meanwhile; the app's
one count, ``background.answering``): the worker waits for a moment with none, up
to ``GIVE_WAY`` (50 ms), so that a steady stream of requests slows the catch-up
down but never stops it.

- **In the app** (``RATINGS_IN_BACKGROUND``, on but off under TESTING unless a
  test turns it on): one worker per app (``background.Worker``: a daemon thread
  alive while there is catching up to do; a catch-up that fails is logged, and
  the next change tries again). The change's response does not wait
  for it; until it is done, the pages that show ratings show them as they
  stood before the changed game and say "Ratings updating…".
- **Elsewhere** (the CLI, the services called directly, the app under TESTING):
  at once, after the commit and before the caller goes on.

Each connection the app opens looks at the mark: a catch-up cut short by a
crash or a kill is finished after the next start (``scorekeeper.serve`` opens
one as it starts).
"""

from __future__ import annotations

import sqlite3
import threading

from ..background import Answering, Worker, answering
from ..storage.db import connect, let_writers_in
from . import ratings

# seconds: the longest the worker waits for a moment with no request, between two of its
# transactions (15 to 40 ms each); under a steady stream of requests it then takes about a
# third of the time, and a page waits for one transaction at most
GIVE_WAY = 0.05


class CatchUp:
    """The background catch-up of one database's ratings (see the module), on its own
    worker (``background.Worker``)."""

    def __init__(self, database, requests=None):
        self.database = database
        self.requests = requests or Answering()  # the app's count of requests being answered
        self.worker = Worker("scorekeeper-ratings")

    def changed(self):
        """A change moved the mark (or one was found): catch up in the background (once
        more, if a catch-up is under way: the change may be behind where it has got to)."""
        self.worker.submit(self._catch_up, once=True)

    def _give_way(self):
        """Between two catch-up transactions: the phones first."""
        let_writers_in()
        self.requests.wait_for_none(GIVE_WAY)

    def wait(self, timeout=60):
        """Block until the worker has nothing left to do; return whether that happened
        within ``timeout`` seconds (the tests wait on it, never on a clock)."""
        return self.worker.wait(timeout)

    def _catch_up(self):
        db = connect(self.database)
        try:
            ratings.catch_up(db, turns=self._give_way)
        finally:
            db.close()


def behind_since(db):
    """What a page that shows ratings says: the date and time of the game from which they
    are being caught up, or None. A page that finds them behind with no catch-up under way
    (a change made by another process, such as the CLI) starts the app's worker."""
    mark = ratings.behind(db)
    later = getattr(db, "catch_up_later", None)
    if mark is not None and later is not None:
        later()  # nothing new when it is at work already
    return mark[0] if mark else None


_made = threading.Lock()


def for_app(app):
    """The app's CatchUp (made on first use)."""
    with _made:
        worker = app.extensions.get("scorekeeper.catch_up")
        if worker is None:
            worker = CatchUp(app.config["DATABASE"], answering(app))
            app.extensions["scorekeeper.catch_up"] = worker
        return worker


def init_app(app):
    """Each connection the app opens hands its catch-ups to the app's worker (or does them
    at once, under TESTING), and finishes one a crash cut short."""
    app.config.setdefault("RATINGS_IN_BACKGROUND", not app.testing)

    def opened(db):
        if db.read_only:
            return
        if app.config["RATINGS_IN_BACKGROUND"]:
            db.catch_up_later = for_app(app).changed
        try:
            behind = ratings.behind(db)
        except sqlite3.Error:  # not readable now: the page that asked says why
            return
        if behind is not None:
            (getattr(db, "catch_up_later", None) or (lambda: ratings.catch_up(db)))()

    app.extensions.setdefault("scorekeeper.db_opened", []).append(opened)
