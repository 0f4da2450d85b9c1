"""Copies of the database: backup, the automatic backups (backups), restore."""

import os
import sqlite3

import click
from flask import current_app
from flask.cli import with_appcontext

from ..exchange import autobackup, backup
from ..scoring.language import _, ngettext
from .common import Progress, database, quiet_option, stoppable


@click.command("backup")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace PATH if it exists.")
@quiet_option
def backup_command(path, force, quiet):
    """Copy the database to PATH, consistently, even while the app runs (and the photos of
    its games' sheets into a folder beside it, PATH's name ending in .photos)."""
    try:
        with stoppable(), Progress(_("Copying pages"), quiet) as progress:
            photos = current_app.config["PHOTOS"]  # the photos of its games' sheets, beside it
            backup.backup_database(database(), path, force=force, progress=progress.pages, photos=photos)
    except (OSError, ValueError, sqlite3.Error) as error:
        raise click.ClickException(str(error)) from None
    click.echo(_("Backed up %(database)s to %(path)s.", database=database(), path=path))


def _size(n):
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:,} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024


@click.command("backups")
@with_appcontext
def backups_command():
    """List the automatic backups, newest first: name, time, size and games."""
    auto = autobackup.for_app(current_app)
    found = autobackup.list_backups(auto.folder)
    click.echo(
        _("Backups in %(folder)s:", folder=auto.folder)
        if found
        else _("No automatic backup in %(folder)s yet.", folder=auto.folder)
    )
    for item in found:
        count = backup.count_games(item.path)
        click.echo(
            f"  {item.name}  {item.made.astimezone():%Y-%m-%d %H:%M}  {_size(item.size):>10}  "
            + (
                ngettext("%(num)s game", "%(num)s games", count, num=format(count, ","))
                if count is not None
                else _("unreadable")
            )
        )
    problem = auto.problem()
    if problem:
        click.echo(_("Backups cannot be written: %(problem)s", problem=problem), err=True)


def _backup_to_restore(path, latest):
    """The file ``restore`` restores: PATH, a name ``backups`` listed, or the newest."""
    folder = autobackup.for_app(current_app).folder
    if latest:
        if path:
            raise click.UsageError(_("Give either a backup or --latest, not both."))
        found = autobackup.list_backups(folder)
        if not found:
            raise click.ClickException(_("No automatic backup in %(folder)s to restore.", folder=folder))
        return found[0].path
    if not path:
        raise click.UsageError(
            _("Give the backup to restore (a file, or a name `backups` lists), or --latest.")
        )
    if not os.path.exists(path) and os.sep not in path and (folder / path).is_file():
        return folder / path
    return path


@click.command("restore")
@with_appcontext
@click.argument("path", required=False, type=click.Path(dir_okay=False))
@click.option("--latest", is_flag=True, help="Restore the newest automatic backup.")
@quiet_option
def restore_command(path, latest, quiet):
    """Replace the database with a backup: PATH, a name `backups` lists, or --latest
    (the current one is kept beside it)."""
    path = _backup_to_restore(path, latest)
    try:
        with stoppable(), Progress(_("Restoring pages"), quiet) as progress:
            photos = current_app.config["PHOTOS"]  # and those of its games' sheets, beside it
            kept = backup.restore_database(path, database(), progress=progress.pages, photos=photos)
    except (OSError, ValueError, sqlite3.Error) as error:
        raise click.ClickException(str(error)) from None
    if kept:
        said = _(
            "Restored %(path)s into %(database)s. The database as it was is kept at %(kept)s.",
            path=path,
            database=database(),
            kept=kept,
        )
    else:
        said = _("Restored %(path)s into %(database)s.", path=path, database=database())
    click.echo(said)
