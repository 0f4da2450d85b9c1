"""Work done after the answer: the one count, for the whole app, of the requests it is
answering now, and the one kind of worker thread that does the work.

Sheets printed in the background (``printing/ahead.py``) wait for a quiet moment; the ratings'
catch-up (``services/catch_up.py``) waits, between two of its transactions, for a moment with no
request (up to its ``GIVE_WAY``). Both read this count. They, the automatic backups
(``exchange/autobackup.py``, a job that waits for its hour) and the server's hourly look at its
certificates (``serve.keep_certificates``) each run on a ``Worker`` (issue 45: one counter
and one worker class, not one of each per kind of work).
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
    that returns a number of seconds runs again after that long (or sooner, when it is
    submitted again or the worker is woken): how the backups wait for their hour. A job
    that fails is logged and the next goes on (a thread has no one else to tell);
    ``wait`` is how a test, or anything that must see the work done, waits for it."""

    def __init__(self, name, idle=30):
        self.name = name
        self.idle = idle
        self._cond = threading.Condition()
        self._jobs = collections.deque()
        self._unfinished = 0  # queued or running
        self._later = {}  # job: time.monotonic() when it runs again
        self._thread = None
        self._running = None  # the job running now
        self._woken = False  # wake() came while it ran: if it asks to run later, it runs now
        self._stopping = False  # stop() asked: nothing runs again, the thread ends

    def submit(self, job, *, once=False, after=None):
        """Queue ``job`` (a function of no argument); with ``once``, not when the same job
        waits already (one that is running may be queued again: it looks afresh); with
        ``after``, to run that many seconds from now."""
        with self._cond:
            self._stopping = False
            if after is None:
                self._queue(job, once)
            else:
                self._later[job] = time.monotonic() + after
                self._start()
                self._cond.notify_all()

    def _start(self):
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def _queue(self, job, once):
        self._later.pop(job, None)  # it runs now rather than later
        if once and job in self._jobs:
            return
        self._jobs.append(job)
        self._unfinished += 1
        self._start()
        self._cond.notify_all()

    def wake(self):
        """Run now the jobs waiting to run again later, and the one running now again
        if it asks to (a test that moved its clock)."""
        with self._cond:
            if self._stopping:
                return
            self._woken = self._running is not None
            for job in list(self._later):
                self._queue(job, once=True)

    def stop(self, timeout=10):
        """Drop the jobs queued or waiting to run later, and end the thread once a job
        running now is done (it does not run again); whether it ended within ``timeout``
        seconds. A job submitted afterwards starts the worker again."""
        with self._cond:
            self._unfinished -= len(self._jobs)
            self._jobs.clear()
            self._later.clear()
            self._stopping = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            return not thread.is_alive()
        return True

    def wait(self, timeout=None):
        """Until every job queued so far is done (a job waiting to run later is not
        queued); whether that happened within ``timeout`` seconds."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._unfinished, timeout)

    def _next(self):
        """The next job to run, waiting for it; None when idle or stopped (the thread
        then ends)."""
        with self._cond:
            while not self._jobs:
                if self._stopping:
                    self._later.clear()
                    self._thread = None
                    return None
                now = time.monotonic()
                for job in [job for job, when in self._later.items() if when <= now]:
                    self._queue(job, once=True)
                if self._jobs:
                    break
                soonest = min(self._later.values(), default=None)
                timed_out = not self._cond.wait(self.idle if soonest is None else soonest - now)
                if timed_out and not self._jobs and not self._later:
                    self._thread = None  # idle: the next job starts a thread again
                    return None
            self._running = self._jobs.popleft()
            return self._running

    def _run(self):
        while (job := self._next()) is not None:
            again = None
            try:
                again = job()
            except Exception:
                logging.getLogger(__name__).exception("%s: a job failed", self.name)
            finally:
                with self._cond:
                    # seconds (a bool is no number of seconds): run again, unless stopped
                    # or queued again meanwhile
                    if type(again) in (int, float) and not self._stopping and job not in self._jobs:
                        if self._woken:
                            self._queue(job, once=True)
                        else:
                            self._later[job] = time.monotonic() + max(again, 0)
                    self._running, self._woken = None, False
                    self._unfinished -= 1
                    self._cond.notify_all()
