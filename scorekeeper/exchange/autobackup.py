"""Automatic backups: a checked copy of the database after a change, kept in buckets.

Over 400 lines: when a copy is due, its making, its room on the disk, its rotation and
what the settings page says of it are one life cycle, on one worker, read together.

After a response whose request committed a change, the app tells its
``AutoBackup`` (``changed``). Its worker (``background.Worker``: one thread per app,
alive while a change is not yet in a backup) decides when to copy:

- at once when the folder holds no backup yet, or when a game has ended
  since the newest backup (the games' ``finished_at`` marker differs);
- otherwise once ``interval`` (an hour) has passed since the newest backup:
  changes in between wait for that moment (at most one copy an hour).

A copy is ``backup.backup_database``: SQLite's backup API, checked with
``PRAGMA integrity_check``, written under a temporary name and renamed into
place. Only after a good copy are old ones removed (``prune``: the newest of
each of the last N hours, days and ISO weeks, as restic's ``forget
--keep-hourly/--keep-daily/--keep-weekly``), so a failure never costs an old
backup. A failure (a missing, read-only or full folder) is logged and kept
as ``last_error`` for the settings page; saving never waits for any of it.

A copy never fills the disk: before it, ``make_room`` checks that the disk of
the folder keeps its floor free after the copy (``faults.floor``: 10 % of the
disk, at most 200 MB, as ``BACKUP_FLOOR_SHARE`` and ``BACKUP_FLOOR_MB`` say).
When it would not, the oldest copies go first (never the newest); when even
that is not enough, nothing is removed and the copy is skipped, said in the log
and on the settings page (``NoRoom``).

Times are UTC and come from ``clock`` (tests pass their own); the file name
carries the time: ``scorekeeper-20261125T210000Z.db``. The photos of its games' sheets
are beside it, ``scorekeeper-20261125T210000Z.photos/`` (``storage.photos.copy_into``:
linked to the photos, or the copy before's, where the disk allows), and go with it.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime
import logging
import os
import re
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from .. import background
from ..scoring.language import _
from ..storage import faults
from ..storage import photos as kept_photos
from ..storage.private import private_folder
from . import backup

log = logging.getLogger(__name__)

KEEP = {"hourly": 24, "daily": 14, "weekly": 8}
INTERVAL = 3600  # seconds: at most one automatic backup an hour (a game's end aside)
PREFIX = "scorekeeper-"
NAME = re.compile(rf"^{PREFIX}(\d{{8}}T\d{{6}}Z)(?:-(\d+))?\.db$")
STAMP = "%Y%m%dT%H%M%SZ"
RECHECK = 60  # seconds: a sleeping worker looks at its clock at least this often
FLUSH_WAIT = 30  # seconds: how long a stopping app waits for a copy under way


def utcnow():
    return datetime.datetime.now(datetime.UTC)


@dataclass(frozen=True)
class Backup:
    path: Path
    made: datetime.datetime  # UTC, from the name

    @property
    def name(self):
        return self.path.name

    @property
    def size(self):
        return self.path.stat().st_size


def list_backups(folder):
    """The automatic backups in ``folder``, newest first (none when it is missing)."""
    found = []
    with contextlib.suppress(OSError):
        for path in Path(folder).iterdir():
            match = NAME.match(path.name)
            if match and path.is_file():
                made = datetime.datetime.strptime(match[1], STAMP).replace(tzinfo=datetime.UTC)
                found.append((made, int(match[2] or 1), path))
    found.sort(reverse=True)
    return [Backup(path, made) for made, _, path in found]


def to_keep(backups, keep):
    """The backups to keep: the newest of each of the last ``keep[kind]`` hours,
    days and ISO weeks that have one (``backups`` newest first)."""
    buckets = {
        "hourly": lambda t: (t.date(), t.hour),
        "daily": lambda t: t.date(),
        "weekly": lambda t: t.isocalendar()[:2],
    }
    kept = set()
    for kind, bucket in buckets.items():
        seen = []
        for item in backups:
            key = bucket(item.made)
            if key in seen:
                continue
            if len(seen) >= keep.get(kind, 0):
                break
            seen.append(key)
            kept.add(item.path)
    return kept


def prune(folder, keep):
    """Remove the automatic backups ``to_keep`` does not keep; return the removed ones."""
    backups = list_backups(folder)
    kept = to_keep(backups, keep)
    removed = []
    for item in backups:
        if item.path not in kept:
            kept_photos.remove_beside(item.path)
            removed.append(item)
    return removed


class NoRoom(OSError):
    """A copy skipped: it would leave the disk less free space than its floor (said as it is read)."""

    def __init__(self, folder, free, needed, floor):
        super().__init__()
        self.folder, self.free, self.needed, self.floor = folder, free, needed, floor

    def __str__(self):
        return _(
            "the last automatic backup was skipped: the disk of %(folder)s has %(free)s free, "
            "a copy takes %(needed)s, and %(floor)s is kept free.",
            folder=self.folder,
            free=faults.size_text(self.free),
            needed=faults.size_text(self.needed),
            floor=faults.size_text(self.floor),
        )


def make_room(folder, needed, share, most):
    """Remove the oldest automatic backups in ``folder`` (never the newest) until a copy
    of ``needed`` bytes leaves the disk its floor; return the removed ones.

    :raises NoRoom: removing every copy but the newest would not be enough (then none is removed).
    """
    space = faults.space(folder, share, most)
    if space is None or space.free - needed >= space.floor:
        return []
    older = list_backups(folder)[1:][::-1]  # oldest first, the newest kept
    sizes = []
    for item in older:
        with contextlib.suppress(OSError):
            sizes.append((item, item.size))
    if space.free + sum(size for _, size in sizes) - needed < space.floor:
        raise NoRoom(folder, space.free, needed, space.floor)
    removed, free = [], space.free
    for item, size in sizes:
        if free - needed >= space.floor:
            break
        kept_photos.remove_beside(item.path)
        removed.append(item)
        free += size
    return removed


def _finished_marker(path):
    """What changes whenever a game ends: how many have, and the latest end."""
    with contextlib.closing(backup._read_only(path)) as conn:
        return tuple(conn.execute("SELECT count(finished_at), max(finished_at) FROM games").fetchone())


class AutoBackup:
    """The automatic backups of one database into one folder (see the module)."""

    def __init__(
        self, database, folder, *, interval=INTERVAL, keep=None, clock=utcnow, floor_share=0.10, floor_mb=200
    ):
        self.database = Path(database)
        self.folder = Path(folder)
        self.photos = None  # the app's photos of sheets (``for_app``): a copy carries its games' beside it
        self.floor = (floor_share, floor_mb * 2**20)  # see faults.floor
        self.interval = datetime.timedelta(seconds=interval)
        self.keep = dict(KEEP, **(keep or {}))
        self.clock = clock
        self.last_error = None  # (UTC time, message, error) of the last failed attempt, until one succeeds
        self.no_room = False  # that attempt was skipped for want of room (NoRoom)
        self._pending = False  # a change not yet in a backup
        self._worker = background.Worker("scorekeeper-backups")
        self._marker = None  # the finished-games marker of the newest backup
        self._making = threading.Lock()  # one copy at a time (the worker, or flush as the app stops)

    def changed(self):
        """A change was committed: back it up now or when due, in the background."""
        self._pending = True
        self._worker.submit(self._look, once=True)

    def wake(self):
        """Look at the clock again now (a test that moved its clock; the worker looks
        by itself every ``RECHECK`` seconds)."""
        self._worker.wake()

    def stop(self):
        """End the worker without a copy (a test's app goes away; the app itself uses
        ``flush`` as it stops); whether it ended."""
        self._pending = False
        return self._worker.stop()

    def wait(self, timeout=10):
        """Block until nothing is due now (the worker made its copy, or waits until
        the next is due); return whether that happened within ``timeout`` seconds."""
        return self._worker.wait(timeout)

    def _look(self):
        """The worker's job: a copy if one is due, else the seconds until it looks again."""
        if not self._pending:
            return None
        wait = self._step()
        return None if wait is None else min(wait, RECHECK)

    def _step(self):
        """Make a copy if one is due; else return the seconds until it is."""
        try:
            due = self._due()
        except (OSError, sqlite3.Error) as error:
            return self._failed(error)
        if due is not None:
            return max(due, 0.01)
        self._pending = False  # a change from now on is not in this copy: it marks again
        try:
            self.make()
        except (OSError, ValueError, sqlite3.Error) as error:
            return self._failed(error)
        return None

    def _failed(self, error):
        """Keep and log why; try again at the next change (the pending mark is dropped)."""
        self.last_error = (self.clock(), _said(error), error)
        self.no_room = isinstance(error, NoRoom)
        log.warning("automatic backup into %s failed: %s", self.folder, error)
        self._pending = False
        return None

    def _due(self):
        """None when a copy is due now; else the seconds until it is."""
        backups = list_backups(self.folder)
        if not backups:
            return None
        newest = backups[0]
        if self._marker is None:
            with contextlib.suppress(sqlite3.Error):
                self._marker = _finished_marker(newest.path)
        if _finished_marker(self.database) != self._marker:
            return None  # a game ended (or was reopened) since the newest copy
        wait = (newest.made + self.interval - self.clock()).total_seconds()
        return None if wait <= 0 else wait

    def make(self):
        """Copy the database into the folder now, then prune; return the new Backup."""
        with self._making:
            return self._make()

    def _make(self):
        private_folder(self.folder)
        for leftover in self.folder.glob(f"{PREFIX}*.db{backup.PARTIAL}*"):
            with contextlib.suppress(OSError):
                leftover.unlink()  # what a killed copy left
        now = self.clock()
        base = f"{PREFIX}{now.astimezone(datetime.UTC).strftime(STAMP)}"
        target, n = self.folder / f"{base}.db", 1
        while target.exists():
            n += 1
            target = self.folder / f"{base}-{n}.db"
        marker = _finished_marker(self.database)
        previous = next(iter(list_backups(self.folder)), None)  # its photos, linked to where alike
        previous = previous and previous.path
        needed = backup.copy_size(self.database)
        if self.photos is not None:  # the photos it copies: on another disk, those new since the last
            needed += kept_photos.room_needed(self.photos, self.folder, previous)
        made_room = make_room(self.folder, needed, *self.floor)
        if made_room:
            log.warning("removed %d old backups to keep %s free", len(made_room), self.folder)
        backup.backup_database(self.database, target, photos=self.photos, previous=previous)
        self._marker = marker
        self.last_error, self.no_room = None, False
        removed = prune(self.folder, self.keep)
        log.info("backed up to %s (%d old removed)", target, len(removed))
        return Backup(target, now.astimezone(datetime.UTC).replace(microsecond=0))

    def flush(self):
        """As the app stops: let a copy under way finish, then copy a change still
        waiting for its hour, now."""
        self.wait(FLUSH_WAIT)
        self._worker.stop()
        pending, self._pending = self._pending, False
        if pending:
            try:
                self.make()
            except (OSError, ValueError, sqlite3.Error) as error:
                log.warning("automatic backup into %s failed: %s", self.folder, error)

    def status(self):
        """What the settings page says: the folder, the newest copy, how many, any problem."""
        backups = list_backups(self.folder)
        return {
            "folder": self.folder,
            "latest": backups[0] if backups else None,
            "count": len(backups),
            "keep": self.keep,
            "problem": self.problem(),
            "no_room": self.no_room,
        }

    def problem(self):
        """Why backups cannot be written, as a sentence (None when they can, as far as we know)."""
        if self.last_error:
            said = _said(self.last_error[2])
            return f"{said[0].upper()}{said[1:]}"
        folder = faults.existing(self.folder)  # the first folder that exists must let us make the rest
        if not folder.is_dir():
            return _("%(folder)s is not a folder.", folder=folder)
        if not os.access(folder, os.W_OK | os.X_OK):
            return _("%(folder)s cannot be written to.", folder=folder)
        return None


def _said(error):
    """Why a backup failed, as the settings page says it."""
    if isinstance(error, NoRoom):
        return str(error)
    return _("the last automatic backup failed: %(error)s", error=error)


def backup_folder(app):
    """``BACKUP_DIR`` from the config or the environment, else ``instance/backups``."""
    configured = (
        app.config.get("BACKUP_DIR")
        or os.environ.get("SCOREKEEPER_BACKUP_DIR")
        or os.environ.get("BACKUP_DIR")
    )
    return Path(configured) if configured else Path(app.instance_path) / "backups"


_made = threading.Lock()  # two server threads asking at once make one AutoBackup


def for_app(app):
    """The app's AutoBackup (made on first use)."""
    with _made:
        return _for_app(app)


def _for_app(app):
    auto = app.extensions.get("scorekeeper.backups")
    if auto is None:
        auto = app.extensions["scorekeeper.backups"] = AutoBackup(
            app.config["DATABASE"],
            backup_folder(app),
            interval=app.config["BACKUP_INTERVAL"],
            keep=app.config["BACKUPS_KEEP"],
            floor_share=app.config["BACKUP_FLOOR_SHARE"],
            floor_mb=app.config["BACKUP_FLOOR_MB"],
        )
        auto.photos = app.config["PHOTOS"]
        if app.config["BACKUPS_AUTOMATIC"] and not app.testing:
            atexit.register(auto.flush)  # the evening's last rounds, if the app stops before their hour
    return auto


def _commits():
    """How many transactions this thread's connection has committed (0 before it has one)."""
    from flask import current_app

    local = current_app.extensions.get("scorekeeper.db")
    db = getattr(local, "db", None) if local else None
    return getattr(db, "commits", 0)


def init_app(app):
    """With ``BACKUPS_AUTOMATIC`` (on, but off under TESTING unless a test turns it
    on), a request that committed a change has its backup looked at once its
    response is sent."""
    from flask import g

    app.config.setdefault("BACKUPS_AUTOMATIC", not app.testing)
    app.config.setdefault("BACKUP_INTERVAL", INTERVAL)
    app.config.setdefault("BACKUPS_KEEP", dict(KEEP))
    # the free space a copy leaves on the backups' disk: this share of it, at most this many MB
    app.config.setdefault("BACKUP_FLOOR_SHARE", 0.10)
    app.config.setdefault("BACKUP_FLOOR_MB", 200)

    @app.before_request
    def _count_commits():
        g.commits_before = _commits()

    @app.after_request
    def _back_up_later(response):
        before = g.get("commits_before")  # None when an earlier hook answered first
        if app.config["BACKUPS_AUTOMATIC"] and before is not None and _commits() > before:
            response.call_on_close(for_app(app).changed)
        return response
