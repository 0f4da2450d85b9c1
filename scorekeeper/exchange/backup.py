"""Backup and restore: copies of the SQLite file made with SQLite's backup API.

The backup API copies every page under one read transaction, so a copy is
the database as it was at one moment, even while the app writes. Every file
is written beside its final name and renamed into place, so a failed or
killed run never leaves half a file where a good one was (and the next run
sweeps up a killed run's leftovers). A restore checks the backup first:
integrity, that it is Scorekeeper's, not newer than this app, and that its schema is the
one its migrations make (``storage/shape.py``): every table, column, index, key and check
as they make it, and nothing else.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import secrets
import sqlite3
from pathlib import Path

from sqlite_utils import Database

from ..scoring.language import N_, _
from ..services.schema import migrate
from ..storage import photos as kept_photos
from ..storage import shape
from ..storage.migrations import migrations
from ..storage.private import open_private, sync_folder

PARTIAL = ".partial-"


def _read_only(path):
    """A connection that can neither change nor create the file."""
    return sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)


def _sweep_partials(target):
    """Remove what a killed run left beside ``target``."""
    for leftover in target.parent.glob(f"{target.name}{PARTIAL}*"):
        with contextlib.suppress(OSError):
            leftover.unlink()


def _check_written(path):
    """Read the file just written back from the disk and check it, before it takes its name."""
    with contextlib.closing(_read_only(path)) as conn:
        result = conn.execute("PRAGMA integrity_check").fetchall()
    if result != [("ok",)]:
        raise ValueError(_("the written copy failed its integrity check: %(result)s", result=result[:3]))


def _copy(source_conn, target, progress=None):
    """Copy a database into ``target``: into memory first, checked there, then
    written beside the target and renamed into place.

    Nothing touches the disk until the copy is whole and sound (and the file
    written is read back and checked again before it is renamed), so a run
    killed during the copy leaves nothing behind; one killed while the bytes
    are written (a few milliseconds) leaves a ``.partial-*`` file that the
    next run sweeps up. A family's database is a few MB, so holding it in
    memory for a moment is cheap.

    :param progress: called as ``progress(status, remaining, total)`` (pages)
        while the copy goes on, as ``sqlite3.Connection.backup`` does.
    """
    _sweep_partials(target)
    with contextlib.closing(sqlite3.connect(":memory:")) as memory:
        source_conn.backup(memory, pages=1024, progress=progress)
        result = memory.execute("PRAGMA integrity_check").fetchall()
        if result != [("ok",)]:
            raise ValueError(_("the copy failed its integrity check: %(result)s", result=result[:3]))
        data = bytearray(memory.serialize())
    # a backup is one self-contained file: rollback journal, not WAL (header bytes 18 and 19)
    data[18:20] = b"\x01\x01"
    partial = target.with_name(f"{target.name}{PARTIAL}{secrets.token_hex(4)}")
    try:
        with open_private(partial) as file:  # the scores: owner-only from the first byte
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        _check_written(partial)
        os.replace(partial, target)
        sync_folder(target.parent)  # its name on the disk too, before the old copies are pruned
    finally:
        partial.unlink(missing_ok=True)
    return target


def backup_database(source, target, *, force=False, progress=None, photos=None, previous=None):
    """Copy the database at ``source`` to ``target`` consistently, even while the app writes;
    given the app's ``photos`` folder, the photos of the games in the copy beside it
    (``storage.photos.copy_into``: ``previous``, the backup before, whose photos a file may
    be linked to).

    :param progress: see ``_copy``.
    :raises FileExistsError: ``target`` exists and ``force`` is false.
    """
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise FileNotFoundError(_("%(path)s: no database there", path=source))
    if target.exists() and not force:
        raise FileExistsError(_("%(path)s already exists (use --force to replace it)", path=target))
    if target.exists() and target.resolve() == source.resolve():
        raise ValueError(_("%(path)s is the database itself", path=target))
    with contextlib.closing(_read_only(source)) as src:
        _copy(src, target, progress)
    if photos is not None and kept_photos.beside(target) != target:
        before = kept_photos.beside(previous) if previous else None
        kept_photos.copy_into(photos, game_uids(target), kept_photos.beside(target), before)
    return target


def game_uids(path):
    """The uid of every game in the database at ``path`` (deleted or not)."""
    with contextlib.closing(_read_only(path)) as conn:
        return [uid for (uid,) in conn.execute("SELECT uid FROM games")]


def _expected_shape(applied):
    """The schema (``shape.shape``) that the migrations ``applied`` make, from an empty database."""
    names = [m.name for m in migrations._migrations]  # sqlite-utils has no public list of them
    later = names[len(applied) :]
    reference = Database(memory=True)
    try:
        migrations.apply(reference, stop_before=later[0] if later else None)
        return shape.shape(reference.conn)
    finally:
        reference.close()


#: what differs, said of an object (``shape.differences``'s aspects)
ASPECTS = {
    "columns": N_("its columns"),
    "links": N_("what its rows point at"),
    "keys": N_("which values must be unique"),
    "rules": N_("the rules on its values"),
    "kind": N_("its kind of table"),
    "table": N_("the table it belongs to"),
    "unique": N_("whether its values must be unique"),
    "rows": N_("which rows it covers"),
    "statement": N_("what it does"),
}


def _named(kind, name):
    # Translators: %(kind)s is SQLite's word: table, index, trigger, view
    return _("the %(kind)s “%(name)s”", kind=kind, name=name)


def _column_names(table):
    return {column[0] for column in table["columns"]}


def _compare(path, conn, expected):
    """Refuse (``ValueError``) a schema that is not ``expected``: an object the migrations
    never make, one of theirs missing, or one not as they make it (its columns, keys,
    checks, an index's uniqueness or the rows it covers...), each named."""
    found = shape.shape(conn)
    # a trigger, a view or any other object the migrations never make: a file made to
    # do something as the app writes (a trigger setting every new share link to one
    # its author knows), copied into the live database whole by a restore
    extra = sorted(set(found) - set(expected))
    if extra:
        raise ValueError(
            _(
                "%(path)s: holds what Scorekeeper never makes (%(found)s): refused, nothing restored",
                path=path,
                found=", ".join(_named(kind, name) for kind, name in extra[:5]),
            )
        )
    for (kind, name), made in expected.items():
        there = found.get((kind, name))
        if there is None and kind == "table":
            raise ValueError(_("%(path)s: damaged: the %(table)s table is missing", path=path, table=name))
        if there is None:
            found_there = _named(kind, name)
            raise ValueError(_("%(path)s: damaged: %(found)s is missing", path=path, found=found_there))
        if kind == "table" and (missing := _column_names(made) - _column_names(there)):
            raise ValueError(
                _(
                    "%(path)s: damaged: the %(table)s table has no %(columns)s",
                    path=path,
                    table=name,
                    columns=", ".join(sorted(missing)),
                )
            )
    for (kind, name), made in expected.items():
        # the same object made otherwise: an index no longer unique, or partial (WHERE 0: share
        # links no longer unique), a CHECK that refuses what the app writes (no one signs in)
        aspects = shape.differences(made, found[kind, name])
        if aspects:
            raise ValueError(
                _(
                    "%(path)s: %(found)s is not as Scorekeeper makes it (%(what)s): "
                    "refused, nothing restored",
                    path=path,
                    found=_named(kind, name),
                    what=", ".join(_(ASPECTS[aspect]) for aspect in aspects),
                )
            )


def check_database(path):
    """Check that ``path`` is a sound Scorekeeper database; return its applied migrations.

    :raises ValueError: not SQLite, damaged, not Scorekeeper's, newer than this
        app, missing a table, column or index its migrations made, holding anything they
        never make (a trigger, a view, another table or index), or an object made otherwise
        than they make it (compared with a database migrated as far, ``storage/shape.py``).
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(_("%(path)s: no such file", path=path))
    known = [m.name for m in migrations._migrations]
    try:
        with contextlib.closing(_read_only(path)) as conn:
            result = conn.execute("PRAGMA integrity_check").fetchall()
            if result != [("ok",)]:
                raise ValueError(
                    _(
                        "%(path)s: the database is damaged (integrity check: %(result)s)",
                        path=path,
                        result="; ".join(r[0] for r in result[:3]),
                    )
                )
            if not conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [migrations.migrations_table]
            ).fetchone():
                raise ValueError(
                    _(
                        "%(path)s: not a Scorekeeper database (it has no %(table)s table)",
                        path=path,
                        table=migrations.migrations_table,
                    )
                )
            applied = [
                row[0]
                for row in conn.execute(
                    f"SELECT name FROM {migrations.migrations_table} WHERE migration_set = ? ORDER BY id",
                    [migrations.name],
                )
            ]
            if not applied:
                raise ValueError(
                    _("%(path)s: not a Scorekeeper database (no Scorekeeper migrations in it)", path=path)
                )
            newer = [name for name in applied if name not in known]
            if newer:
                raise ValueError(
                    _(
                        "%(path)s: made by a newer Scorekeeper (it has %(newer)s); "
                        "update Scorekeeper before restoring it",
                        path=path,
                        newer=", ".join(newer),
                    )
                )
            if applied != known[: len(applied)]:
                raise ValueError(
                    _(
                        "%(path)s: its migrations are out of order (%(applied)s)",
                        path=path,
                        applied=", ".join(applied),
                    )
                )
            _compare(path, conn, _expected_shape(applied))
            broken = conn.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise ValueError(
                    _(
                        "%(path)s: damaged: %(count)s rows (in %(table)s and perhaps others) "
                        "point at rows that are not there",
                        path=path,
                        count=len(broken),
                        table=broken[0][0],
                    )
                )
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error):
            raise ValueError(
                _("%(path)s: not a SQLite database (%(error)s)", path=path, error=error)
            ) from None
        raise ValueError(_("%(path)s: the database is damaged (%(error)s)", path=path, error=error)) from None
    return applied


def restore_database(backup, live, progress=None, photos=None):
    """Replace the database at ``live`` with the backup; return where the old one was kept.

    The backup is checked first; the current database is copied to
    ``<live>.before-restore-<UTC time>``; then the backup API writes the
    backup into the live file (so connections the app holds see the restored
    data, with no file swapped under them), and pending migrations are applied.
    Given the app's ``photos`` folder, the photos beside the backup replace it
    (``storage.photos.restore_from``: the folder as it was kept as
    ``<photos>.before-restore-<UTC time>``).

    :param progress: see ``_copy`` (the copy into the live file).
    """
    backup, live = Path(backup), Path(live)
    check_database(backup)
    if live.exists() and live.resolve() == backup.resolve():
        raise ValueError(_("%(path)s is the database itself", path=backup))
    kept = None
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    if live.exists():
        kept = live.with_name(f"{live.name}.before-restore-{stamp}")
        n = 1
        while kept.exists():
            n += 1
            kept = live.with_name(f"{live.name}.before-restore-{stamp}-{n}")
        backup_database(live, kept)
    with contextlib.closing(_read_only(backup)) as src, contextlib.closing(sqlite3.connect(live)) as dst:
        src.backup(dst, pages=256, progress=progress)
    migrate(live)
    if photos is not None:
        aside, n = Path(f"{photos}.before-restore-{stamp}"), 1
        while aside.exists():
            n += 1
            aside = Path(f"{photos}.before-restore-{stamp}-{n}")
        kept_photos.restore_from(kept_photos.beside(backup), photos, game_uids(live), aside)
    return kept


def copy_size(database):
    """What a copy of ``database`` takes at most: the file and its write-ahead log."""
    database = Path(database)
    size = database.stat().st_size
    with contextlib.suppress(OSError):
        size += Path(f"{database}-wal").stat().st_size
    return size


def count_games(path):
    """How many games the database at ``path`` holds, as its history counts them: not the
    deleted ones (a copy made before deleting was kept shows them; one made by an older
    app has none). None when it cannot be read."""
    try:
        with contextlib.closing(_read_only(path)) as conn:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
            live = " WHERE deleted_at IS NULL" if "deleted_at" in columns else ""
            return conn.execute(f"SELECT count(*) FROM games{live}").fetchone()[0]
    except sqlite3.Error:
        return None
