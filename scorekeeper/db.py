"""The database: one kept-open connection per server thread, and one write
transaction per user action.

- ``connect`` opens a connection with the settings every connection needs
  (foreign keys, WAL, synchronous=NORMAL, a busy timeout) in autocommit
  mode, so that the only transactions are the ones opened here.
- ``get_db`` gives the current thread its connection to the app's database,
  opened once and kept (waitress serves from a few long-lived threads).
- ``transaction`` is every write: ``BEGIN IMMEDIATE`` takes the write lock
  before the first read, so a second phone waits its turn (up to
  ``BUSY_TIMEOUT_MS``) instead of failing halfway with "database is locked".
- ``snapshot`` reads several tables as of one moment.
"""

import contextlib
import os
import sqlite3
import threading

from flask import current_app
from sqlite_utils import Database

BUSY_TIMEOUT_MS = 10_000


def connect(path):
    """Open the database with the settings every connection needs."""
    conn = sqlite3.connect(
        path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
    )
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    # sqlite-utils never turns foreign keys on, and SQLite forgets it per connection
    conn.execute("PRAGMA foreign_keys = ON")
    # WAL lets phones read while a round is written; with it, NORMAL is safe
    # against a crash of the app (a power cut may lose the last commit, never corrupt)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    database = Database(conn, execute_plugins=False)
    # which file: what services.game_model remembers of a game is kept per file
    database.memo_key = os.path.realpath(path) if str(path) != ":memory:" else None
    database.commits = 0  # transactions committed: a request that made one is backed up after
    return database


def get_db():
    """This thread's connection to the app's database, opened on first use and kept."""
    app = current_app._get_current_object()
    local = app.extensions.setdefault("scorekeeper.db", threading.local())
    db = getattr(local, "db", None)
    if db is None:
        db = local.db = connect(app.config["DATABASE"])
    return db


def _end_request(exception=None):
    """A request never leaves a transaction open on its kept connection."""
    local = current_app.extensions.get("scorekeeper.db")
    db = getattr(local, "db", None) if local else None
    if db is not None and db.conn.in_transaction:
        db.conn.execute("ROLLBACK")


@contextlib.contextmanager
def transaction(db):
    """One user action's writes, all or nothing, behind the write lock.

    The first statement inside should check what the phone saw (a game's
    revision), so that a stale change is refused before anything is written.
    """
    if db.conn.in_transaction:
        raise RuntimeError("a transaction is already open: one user action is one transaction")
    db.conn.execute("BEGIN IMMEDIATE")
    db.writing = True  # what is read now may yet be rolled back (services.game_model.load_game)
    try:
        yield db
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
    finally:
        db.writing = False
    db.conn.execute("COMMIT")
    db.commits = getattr(db, "commits", 0) + 1


@contextlib.contextmanager
def snapshot(db):
    """Reads that see the database as of one moment (inside a write, that write's view)."""
    if db.conn.in_transaction:
        yield db
        return
    db.conn.execute("BEGIN")
    try:
        yield db
    finally:
        if db.conn.in_transaction:
            db.conn.execute("COMMIT")  # nothing was written: this only ends the read


def init_app(app):
    app.teardown_request(_end_request)
