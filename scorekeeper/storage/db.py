"""The database: one kept-open connection per server thread, and one write
transaction per user action.

- ``connect`` opens a connection with the settings every connection needs
  (foreign keys, WAL, synchronous=NORMAL, a busy timeout) in autocommit
  mode, so that the only transactions are the ones opened here.
- ``get_db`` gives the current thread its connection to the app's database,
  opened once and kept (the server answers from a few long-lived threads).
- ``transaction`` is every write: ``BEGIN IMMEDIATE`` takes the write lock
  before the first read, so a second phone waits its turn (up to
  ``BUSY_TIMEOUT_MS``) instead of failing halfway with "database is locked".
- ``snapshot`` reads several tables as of one moment.
- ``alone`` is work that spans many transactions done by one thread of one process at a
  time (an import): an OS lock on a file beside the database, held while it works.

A fault of the storage (a full disk, a read-only, missing or broken file) comes
out of ``get_db`` and ``transaction`` as a ``faults.Fault``; the connection
that met one that lasts is closed as the request ends and opened afresh by the
next, so the app recovers by itself once the disk or the file is fixed. The app
never makes a database file: a missing one is a fault (``migrate`` makes them).
"""

import contextlib
import fcntl
import os
import sqlite3
import threading
from pathlib import Path

from flask import current_app
from sqlite_utils import Database

from .faults import Fault, fault_of
from .private import make_private

BUSY_TIMEOUT_MS = 10_000


def connect(path, *, create=False, read_only=False):
    """Open the database with the settings every connection needs.

    :param create: make the file when it is missing (``migrate``); else a missing
        file is an error, never an empty database in its place.
    :param read_only: open it for reading only (a read-only file: pages still show);
        ``"immutable"`` on a read-only disk, where SQLite cannot make the shared-memory
        file a reader of a WAL database needs, and nobody can change the file.
    """
    target, uri = path, False
    made = create and str(path) != ":memory:" and not os.path.exists(path)
    if str(path) != ":memory:" and not create:
        mode = {False: "rw", True: "ro", "immutable": "ro&immutable=1"}[read_only]
        target, uri = f"{Path(path).resolve().as_uri()}?mode={mode}", True
    conn = sqlite3.connect(
        target, uri=uri, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
    )
    if made:
        make_private(path)  # before SQLite writes a byte (or a -wal file, which takes its mode)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    # sqlite-utils never turns foreign keys on, and SQLite forgets it per connection
    conn.execute("PRAGMA foreign_keys = ON")
    if read_only:
        conn.execute("PRAGMA schema_version")  # opened lazily: whether it can be read shows now
    else:
        # WAL lets phones read while a round is written; with it, NORMAL is safe
        # against a crash of the app (a power cut may lose the last commit, never corrupt)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
    database = Database(conn, execute_plugins=False)
    database.path = str(path)
    database.read_only = read_only
    database.broken = False  # met a lasting fault: opened again by the next request
    # which file: what services.game_model remembers of a game is kept per file
    database.memo_key = os.path.realpath(path) if str(path) != ":memory:" else None
    database.identity = _identity(path)
    database.commits = 0  # changes of the family's data committed: a request that made one is backed up after
    # what to do once the open transaction commits, by name (services.ratings.changed: catch up)
    database.after_commit = {}
    return database


def _identity(path):
    """The file's device and inode: a file deleted or replaced under an open connection
    (which would go on writing into the deleted one) is told by a new identity."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    return found.st_dev, found.st_ino


def open_app_database(path):
    """A connection for the app: read-write, or read-only when the file or its disk is
    (its pages still show; a change is refused with a ``Fault``); a ``Fault`` when neither opens."""
    try:
        return connect(path)
    except sqlite3.Error as error:
        fault = fault_of(error, path)
        if fault is None:
            raise
        if fault.kind == "read-only":
            for how in (True, "immutable"):  # kept for this request only (_end_request)
                with contextlib.suppress(sqlite3.Error):
                    return connect(path, read_only=how)
        raise fault from error


def get_db():
    """This thread's connection to the app's database, opened on first use and kept."""
    app = current_app._get_current_object()
    local = app.extensions.setdefault("scorekeeper.db", threading.local())
    db = getattr(local, "db", None)
    if db is not None and db.identity != _identity(db.path):  # deleted, moved or replaced
        _forget(local)
        db = None
    if db is None:
        db = local.db = open_app_database(app.config["DATABASE"])
        for opened in app.extensions.get("scorekeeper.db_opened", ()):
            opened(db)  # catch_up.init_app: where the ratings' catch-up goes
    return db


def forget_connection():
    """Close this thread's kept connection after a lasting fault: the next request opens a new one."""
    local = current_app.extensions.get("scorekeeper.db")
    if local is not None:
        _forget(local)


def _forget(local):
    db = getattr(local, "db", None)
    local.db = None
    if db is not None:
        with contextlib.suppress(sqlite3.Error):
            db.close()


def _end_request(exception=None):
    """A request never leaves a transaction open on its kept connection; a connection
    that met a lasting fault, or opened read-only, is not kept."""
    local = current_app.extensions.get("scorekeeper.db")
    db = getattr(local, "db", None) if local else None
    if db is None:
        return
    if db.conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.conn.execute("ROLLBACK")
    if db.broken or db.read_only:
        _forget(local)


# The threads of this process waiting for the write lock: a background catch-up of the
# ratings lets them go first between two of its short transactions (let_writers_in)
_turns = threading.Condition()
_waiting = 0


def let_writers_in(timeout=1.0):
    """Wait (at most ``timeout`` seconds) until no thread of this process waits to write."""
    with _turns:
        _turns.wait_for(lambda: _waiting == 0, timeout)


def _begin(db):
    global _waiting
    with _turns:
        _waiting += 1
    try:
        db.conn.execute("BEGIN IMMEDIATE")
    finally:
        with _turns:
            _waiting -= 1
            if not _waiting:
                _turns.notify_all()


@contextlib.contextmanager
def transaction(db, *, counted=True):
    """One user action's writes, all or nothing, behind the write lock.

    The first statement inside should check what the phone saw (a game's
    revision), so that a stale change is refused before anything is written.
    ``counted=False``: not a change of the family's data (the passcode's guess counts),
    so no automatic backup is made for it.
    """
    if db.conn.in_transaction:
        raise RuntimeError("a transaction is already open: one user action is one transaction")
    path = getattr(db, "path", None)
    if path is not None and getattr(db, "identity", None) != _identity(path):
        db.broken = True  # writing on would write into a file that is no longer there
        raise Fault("missing", f"{path} was deleted, moved or replaced")
    hooks = getattr(db, "after_commit", None)
    if hooks:
        hooks.clear()  # left by a transaction that did not commit
    try:
        _begin(db)
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
    except sqlite3.Error as error:
        fault = fault_of(error, path)
        if fault is None:
            raise
        if db.conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.conn.execute("ROLLBACK")
        db.broken = db.broken or fault.lasting
        raise fault from error
    db.commits = getattr(db, "commits", 0) + counted
    if hooks:
        due = list(hooks.values())
        hooks.clear()
        for hook in due:
            hook()


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


@contextlib.contextmanager
def alone(db, work):
    """Do ``work`` (a name: "import") with nobody else doing it on this database: yields
    True once this holds its lock, or False at once, holding nothing, when another thread
    or process does. The lock is the operating system's (``flock``) on a file beside the
    database (``scorekeeper.db-import.lock``), so its holder is always alive: the kernel
    lets it go when the holder's file is closed, however its process ends (a stop, a
    crash, SIGKILL, a power cut). Each call opens the file afresh, so two threads of one
    process exclude each other too. The file stays (unlinking a lock file another process
    may be opening lets two hold "it" at once); it is empty and owner-only.
    """
    path = getattr(db, "path", None)
    if path is None or path == ":memory:":
        yield True  # no other connection can reach it
        return
    fd = os.open(f"{path}-{work}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held = True
        except BlockingIOError:
            held = False
        yield held  # closing the file lets the lock go
    finally:
        os.close(fd)


def init_app(app):
    app.teardown_request(_end_request)
