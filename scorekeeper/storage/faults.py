"""Faults of the computer's storage, told plainly: a full disk, a read-only or
missing database, an input/output error.

SQLite reports them as ``sqlite3.OperationalError`` with a result code, the
operating system as ``OSError`` with an errno; ``fault_of`` turns either into a
``Fault`` that knows what to tell the family and which status to answer with
(507 for a full disk, 503 for the others), looking at the file where SQLite's
code alone is ambiguous ("unable to open" is a missing file, a read-only disk,
or a broken one). Anything else is not a fault of the storage: ``None``.

Also the free space of a disk (``space``), and the floor below which the
automatic backups stop making copies (``floor``). No Flask here: the app, the
backups and ``flask doctor`` all use it.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..scoring.language import N_, _

# SQLite's primary result codes (the low byte of the extended ones)
SQLITE_BUSY, SQLITE_LOCKED = 5, 6
SQLITE_READONLY, SQLITE_IOERR, SQLITE_CORRUPT = 8, 10, 11
SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 13, 14, 26

PROBLEMS = {
    "full": N_("The computer that runs Scorekeeper has no room left on its disk"),
    "read-only": N_(
        "The computer that runs Scorekeeper cannot write to its scores file "
        "(its disk or the file is read-only)"
    ),
    "missing": N_(
        "The scores file is gone from the folder Scorekeeper keeps it in (moved or deleted while it runs)"
    ),
    "io": N_("The computer that runs Scorekeeper could not read or write its disk (an input/output error)"),
    "damaged": N_("The scores file cannot be read: it is damaged"),
    "busy": N_(
        "The scores file was busy for longer than Scorekeeper waits (another program, or a very "
        "long import, held it)"
    ),
}
# Translators: %(again)s is what to do again, as "try again", "reload this page", "tap Save again"
REMEDIES = {
    "full": N_("Free some space on it, then %(again)s."),
    "read-only": N_("Whoever looks after that computer can make it writable again; then %(again)s."),
    "missing": N_("Put the file back where it was, then %(again)s."),
    "io": N_("Its disk may be failing: copy the latest backup somewhere safe, then %(again)s."),
    "damaged": N_("Restore the latest backup (see the README's “Backing up”), then %(again)s."),
    "busy": N_("Wait a moment, then %(again)s."),
}
STATUS = {"full": 507}  # Insufficient Storage; the others are 503 Service Unavailable


@dataclass
class Fault(Exception):
    """A fault of the storage, by kind (a key of ``PROBLEMS``); ``detail`` is the
    system's own words, for the log."""

    kind: str
    detail: str = ""

    def __str__(self):
        return self.message()

    @property
    def status(self):
        return STATUS.get(self.kind, 503)

    @property
    def lasting(self):
        """Whether a connection that met it should be opened again (a read-only,
        missing or broken file is not the one it was opened on once it is fixed)."""
        return self.kind not in ("full", "busy")

    def message(self, what=None, again=None):
        """The sentence for the top of the page: what happened, what was not done, what to do."""
        # Translators: what happened, what was not done ("nothing was changed"), what to do
        return _(
            "%(problem)s: %(what)s. %(remedy)s",
            problem=_(PROBLEMS[self.kind]),
            what=_("nothing was changed") if what is None else what,
            remedy=_(REMEDIES[self.kind], again=_("try again") if again is None else again),
        )


def fault_of(error, path=None):
    """The ``Fault`` an exception is (``path``: the file it was about), or None."""
    if isinstance(error, Fault):
        return error
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if code is None:
            return None
        code &= 0xFF
        if code == SQLITE_FULL:
            return Fault("full", str(error))
        if code in (SQLITE_BUSY, SQLITE_LOCKED):  # the busy timeout passed: said, never a 500
            return Fault("busy", str(error))
        if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
            return Fault("damaged", str(error))
        if code in (SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN):
            return Fault(_looking_at(path) or ("read-only" if code == SQLITE_READONLY else "io"), str(error))
        return None
    if isinstance(error, OSError):
        number = error.errno
        if number in (errno.ENOSPC, errno.EDQUOT):
            return Fault("full", str(error))
        if number == errno.EROFS:
            return Fault("read-only", str(error))
        if number == errno.EIO:
            return Fault("io", str(error))
    return None


def _looking_at(path):
    """What the file itself says: missing, or read-only (None: neither)."""
    if path is None or str(path) == ":memory:":
        return None
    path = Path(path)
    if not path.exists():
        return "missing"
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY or not os.access(path, os.W_OK):
            return "read-only"
    except OSError:
        return "io"
    return None


@dataclass(frozen=True)
class Space:
    """A disk's size and free space, in bytes (``floor``: below it, backups stop)."""

    free: int
    total: int
    floor: int

    @property
    def low(self):
        return self.free < self.floor


def floor(total, share, most):
    """The free space the automatic backups leave: ``share`` of the disk, at most ``most`` bytes."""
    return min(int(total * share), most)


def existing(path):
    """``path``, or the nearest folder above it that exists (a folder not made yet is
    on its parent's disk)."""
    path = Path(path)
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


def space(path, share=0.10, most=200 * 2**20):
    """The free space of the disk ``path`` is on, or None."""
    try:
        usage = shutil.disk_usage(existing(path))
    except OSError:
        return None
    return Space(usage.free, usage.total, floor(usage.total, share, most))


def same_disk(a, b):
    """Whether two paths are on one disk."""
    try:
        return existing(a).stat().st_dev == existing(b).stat().st_dev
    except OSError:
        return False


@dataclass(frozen=True)
class Disk:
    """A disk the app writes to: what it holds (words for a page), a path on it, its
    space (None when it cannot be looked at), and whether the backups are on it."""

    what: str
    path: Path
    space: Space | None
    backups: bool


def disks(database, backups, share=0.10, most=200 * 2**20):
    """The disks of the scores and of the backups: one when they share it."""
    if same_disk(database, backups):
        return [Disk(_("the scores and the backups"), Path(database), space(database, share, most), True)]
    return [
        Disk(_("the scores"), Path(database), space(database, share, most), False),
        Disk(_("the backups"), Path(backups), space(backups, share, most), True),
    ]


def size_text(n):
    """Bytes as a person reads them, never split over two lines: "512 KB", "3.4 MB", "12 GB"."""
    for unit, scale in (("GB", 2**30), ("MB", 2**20)):
        if n >= scale:
            value = n / scale
            return f"{value:.1f}\u00a0{unit}" if value < 10 else f"{value:,.0f}\u00a0{unit}"
    return f"{max(n, 0) / 2**10:,.0f}\u00a0KB"
