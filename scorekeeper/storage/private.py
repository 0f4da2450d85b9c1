"""The family's files are theirs: every file the app writes under ``instance/`` and in
the backups' folder is readable by its owner alone (0600), every folder it makes there
0700, whatever the account's umask (issue 43: the scores, their WAL file and every backup
were 0644, readable by every account on the computer).

SQLite gives a database's ``-wal`` and ``-shm`` files the database file's own mode, so a
private database keeps them private.
"""

import contextlib
import os
import secrets

FILE, FOLDER = 0o600, 0o700


def open_private(path, mode="wb"):
    """A new file for writing, made private before anything is written into it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), FILE)
    os.fchmod(fd, FILE)  # O_CREAT's mode passes through the umask: set it whole
    return os.fdopen(fd, mode)


def sync_folder(folder):
    """Make what was just renamed or linked into ``folder`` survive a power cut: its entry is
    on the disk once the folder itself is synced (the durable rename's second half). A file
    system that cannot sync a folder keeps the rename as the kernel does."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_whole(path, data, *, first=False):
    """Write a small file (text or bytes) whole and owner-only: a new file synced to the disk,
    then moved into place and its folder synced, so a reader sees the old contents or the
    new, never half of them, and a power cut leaves one or the other, never an empty file
    (issue 53: a rename before the data reached the disk left the passcode file empty).
    With ``first``, a file already there is kept: of two processes making it at once, both
    then read the one that came first."""
    partial = f"{path}.{secrets.token_hex(4)}.partial"
    folder = os.path.dirname(os.path.abspath(path))
    try:
        with open_private(partial, "w" if isinstance(data, str) else "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())  # the data on the disk before the name points at it
        if first:
            try:
                os.link(partial, path)  # fails, rather than replaces, when it is there
                sync_folder(folder)
                return
            except FileExistsError:
                return
            except OSError:  # a file system without hard links: moved into place
                pass
        os.replace(partial, path)
        sync_folder(folder)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(partial)


def make_private(*paths):
    """Make files (and their SQLite companions, when there) owner-only; folders 0700."""
    for path in paths:
        path = os.fspath(path)
        with contextlib.suppress(FileNotFoundError):
            os.chmod(path, FOLDER if os.path.isdir(path) else FILE)
        for suffix in ("-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.chmod(path + suffix, FILE)


def private_folder(path):
    """Make the folder (and its parents, as ``os.makedirs``) if need be; itself 0700."""
    os.makedirs(path, exist_ok=True)
    with contextlib.suppress(PermissionError):  # a folder the family pointed at, not ours
        os.chmod(path, FOLDER)
