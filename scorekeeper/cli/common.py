"""What the commands share: the database, a connection, a clean stop, a progress bar."""

import contextlib
import signal
import sys

import click
from flask import current_app

from ..scoring.language import ngettext
from ..storage.db import connect


def database():
    return current_app.config["DATABASE"]


@contextlib.contextmanager
def connection():
    db = connect(database())
    try:
        yield db
    finally:
        db.close()


@contextlib.contextmanager
def stoppable():
    """Ctrl+C or a kill (SIGTERM) still runs the clean-up of a half-written file."""
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class Progress:
    """Click's progress bar on stderr, drawn as ``update(done, total)`` is called, with
    the counts; nothing at all with --quiet or when stderr is not a terminal (a
    script, a pipe, a log). ``done`` and ``total`` keep the last counts, for the
    summary line."""

    def __init__(self, label, quiet):
        self.label = label
        self.shown = not quiet and sys.stderr.isatty()
        self.bar = None
        self.done = self.total = 0

    def update(self, done, total):
        """``total`` may change from one call to the next (an estimate, as an import's
        check gives while it reads the file)."""
        self.done, self.total = done, total
        if not self.shown:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr, show_pos=True)
            self.bar.render_progress()
        if self.bar.finished:
            return
        self.bar.length = total
        self.bar.update(done - self.bar.pos)
        if done >= total:  # done: its line stays, and the next bar starts on its own
            self.bar.render_finish()
            self.bar.finished = True

    def pages(self, status, remaining, total):
        """As ``sqlite3.Connection.backup`` reports: pages copied of the total."""
        self.update(total - remaining, total)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.bar is not None and not self.bar.finished:
            self.bar.render_finish()


quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress bar (only the summary line).")


def games_count(n):
    return ngettext("%(num)s game", "%(num)s games", n, num=format(n, ","))
