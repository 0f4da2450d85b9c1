"""Work done after the answer gives way to the answers: the one count, for the whole app,
of the requests it is answering now.

Sheets printed in the background (``printing.py``) wait for a quiet moment; the ratings'
catch-up (``catch_up.py``) waits, between two of its transactions, for a moment with no
request (up to its ``GIVE_WAY``). Both read this count (issue 45: one counter, not one per
worker).
"""

from __future__ import annotations

import threading
import time

from flask import current_app, g


class Answering:
    """The requests an app is answering now, and when the last one ended."""

    def __init__(self):
        self._cond = threading.Condition()
        self._count = 0
        self._ended = 0.0  # time.monotonic() of the last request answered

    def started(self):
        with self._cond:
            self._count += 1

    def ended(self):
        with self._cond:
            self._count -= 1
            self._ended = time.monotonic()
            if not self._count:
                self._cond.notify_all()

    def now(self):
        """(requests being answered, seconds since the last one ended)."""
        with self._cond:
            return self._count, time.monotonic() - self._ended

    def wait_for_none(self, timeout):
        """Until no request is being answered, or ``timeout`` seconds; whether none is."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._count, timeout)


_made = threading.Lock()


def answering(app):
    """The app's ``Answering`` (made on first use)."""
    with _made:
        return app.extensions.setdefault("scorekeeper.answering", Answering())


def _started():
    g.answering_counted = True
    answering(current_app).started()


def _ended(_error=None):
    if g.pop("answering_counted", False):  # an earlier hook may have answered first
        answering(current_app).ended()


def init_app(app):
    """Count every request from its first hook to its teardown."""
    answering(app)
    app.before_request(_started)
    app.teardown_request(_ended)
