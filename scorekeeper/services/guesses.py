"""Wrong passcodes, counted for the whole household and per address, in the database.

A guest who gives a laptop a hundred addresses on the home Wi-Fi gets no more guesses
than one phone would: after ``FREE["household"]`` wrong guesses from anywhere (and
``FREE["address"]`` from one address), each further guess waits twice as long as the one
before (from ``FIRST_WAIT`` seconds, at most ``LONGEST_WAIT``), and the wait is kept in
the database, so a restart forgets nothing. A guess is counted before the passcode is
checked, in one write transaction, so guesses answered at once on several threads are
counted one after another; a right one then clears its address's count and the
household's. The per-address burst limit of ``views/auth.py`` (Flask-Limiter) stays in
front of this.
"""

from __future__ import annotations

import datetime

from ..scoring.language import ngettext
from ..storage.db import transaction

FREE = {"household": 10, "address": 5}
FIRST_WAIT = 2  # seconds, doubled with each further wrong guess
LONGEST_WAIT = 3600


def _scopes(address):
    return ["household", f"address {address or 'unknown'}"]


def _free(scope):
    return FREE["household" if scope == "household" else "address"]


def wait_for(wrong, scope):
    """Seconds the next guess waits after ``wrong`` wrong guesses in ``scope`` (0: none)."""
    over = wrong - _free(scope)
    return 0 if over < 0 else min(LONGEST_WAIT, FIRST_WAIT * 2**over)


def admit(db, address, now=None):
    """Count a guess from ``address`` before it is checked; return the seconds it must
    wait first instead (and then nothing is counted), or 0."""
    now = now or datetime.datetime.now(datetime.UTC)
    with transaction(db, counted=False):
        rows = {
            scope: (wrong, until)
            for scope, wrong, until in db.execute(
                "SELECT scope, wrong, waiting_until FROM passcode_guesses WHERE scope IN (?, ?)",
                _scopes(address),
            )
        }
        waits = [
            (datetime.datetime.fromisoformat(until) - now).total_seconds()
            for _, until in rows.values()
            if until
        ]
        if waits and max(waits) > 0:
            return max(waits)
        for scope in _scopes(address):
            wrong = rows.get(scope, (0, None))[0] + 1
            until = now + datetime.timedelta(seconds=wait_for(wrong, scope))
            db.execute(
                """INSERT INTO passcode_guesses (scope, wrong, last_at, waiting_until) VALUES (?, ?, ?, ?)
                   ON CONFLICT (scope) DO UPDATE SET wrong = excluded.wrong, last_at = excluded.last_at,
                   waiting_until = excluded.waiting_until""",
                [scope, wrong, now.isoformat(), until.isoformat() if until > now else None],
            )
        return 0


def right(db, address):
    """The guess from ``address`` was right: its count and the household's are cleared."""
    with transaction(db, counted=False):
        db.conn.executemany("DELETE FROM passcode_guesses WHERE scope = ?", [(s,) for s in _scopes(address)])


def forget(db):
    """Every count cleared: the passcode set (or removed) at the computer, so a family kept
    waiting by a guest's guesses can sign in at once."""
    with transaction(db, counted=False):
        db.execute("DELETE FROM passcode_guesses")


def spoken(seconds):
    """A wait as the page says it: "2 seconds", "1 minute", "16 minutes"."""
    seconds = max(1, round(seconds))
    if seconds < 60:
        return ngettext("%(num)s second", "%(num)s seconds", seconds)
    minutes = -(-seconds // 60)
    return ngettext("%(num)s minute", "%(num)s minutes", minutes)
