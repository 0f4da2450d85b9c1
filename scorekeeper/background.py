"""Work done after the answer: the one count, for the whole app, of the requests it is
answering now, and the one kind of worker thread that does the work.

Sheets printed in the background (``printing.py``) wait for a quiet moment; the ratings'
catch-up (``catch_up.py``) waits, between two of its transactions, for a moment with no
request (up to its ``GIVE_WAY``). Both read this count, and both run on a ``Worker``
(issue 45: one counter and one worker class, not one of each per kind of work).
"""

from __future__ import annotations

import collections
import logging
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


class Worker:
    """One kind of work done after the answer: its jobs run one at a time on one daemon
    thread, started when a job comes and ended after ``idle`` seconds with none. A job
    that fails is logged and the next goes on (a thread has no one else to tell);
    ``wait`` is how a test, or anything that must see the work done, waits for it."""

    def __init__(self, name, idle=30):
        self.name = name
        self.idle = idle
        self._cond = threading.Condition()
        self._jobs = collections.deque()
        self._unfinished = 0  # queued or running
        self._thread = None

    def submit(self, job, *, once=False):
        """Queue ``job`` (a function of no argument); with ``once``, not when the same job
        waits already (one that is running may be queued again: it looks afresh)."""
        with self._cond:
            if once and job in self._jobs:
                return
            self._jobs.append(job)
            self._unfinished += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def wait(self, timeout=None):
        """Until every job queued so far is done; whether that happened within ``timeout``."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._unfinished, timeout)

    def _run(self):
        while True:
            with self._cond:
                if not self._cond.wait_for(lambda: self._jobs, self.idle):
                    self._thread = None  # idle: the next job starts a thread again
                    return
                job = self._jobs.popleft()
            try:
                job()
            except Exception:
                logging.getLogger(__name__).exception("%s: a job failed", self.name)
            finally:
                with self._cond:
                    self._unfinished -= 1
                    self._cond.notify_all()
