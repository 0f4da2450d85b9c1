"""The database and the history: init-db, import-rules, recompute-scores, export, import, demo-data."""

import contextlib
import logging
import os
import secrets
import time
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ..exchange import autobackup, backup, csvfile, demo, importer, jsonfile
from ..scoring import RuleSet
from ..scoring.language import _
from ..services import deleted, games, rulesets
from ..services.schema import migrate
from ..storage.private import make_private
from ..web import passcode
from .common import Progress, connection, database, games_count, quiet_option, stoppable


@click.command("init-db")
@with_appcontext
def init_db_command():
    """Create the database or bring it up to date (safe to run again)."""
    handler = logging.StreamHandler()  # what a migration has to say (a renamed player)
    logging.getLogger("scorekeeper.storage.migrations").addHandler(handler)
    try:
        applied = migrate(database())
    finally:
        logging.getLogger("scorekeeper.storage.migrations").removeHandler(handler)
    with connection() as db:
        importer.resume(db, _pause)  # an import the last stop cut off: undone, or finished
        deleted.purge(db, photos=current_app.config["PHOTOS"])  # deleted 30 days ago and more: gone for good
    # files made before they were kept private (and a backups folder of years): owner-only now
    folder = autobackup.backup_folder(current_app)
    kept = [*folder.glob("*.db*"), *Path(database()).parent.glob(Path(database()).name + ".before-restore-*")]
    make_private(database(), current_app.instance_path, *kept)
    click.echo(
        _("Database %(database)s: applied %(applied)s.", database=database(), applied=", ".join(applied))
        if applied
        else _("Database %(database)s: up to date.", database=database())
    )
    # make run starts with this command: a passcode file that locks the app is said as it starts
    locked = passcode.locked_because(current_app.instance_path)
    if locked:
        click.echo(locked, err=True)


def _pause():
    """Between two of an import's transactions, a moment for another process's writers
    (the app's phones): SQLite's busy handler asks again every few milliseconds."""
    time.sleep(0.01)


@click.command("import-rules")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_rules_command(file):
    """Save a house-rules JSON file as a rule set."""
    try:
        rules = RuleSet.from_json(file.read())
        with connection() as db:
            key = rulesets.save_house_rules(db, rules)
    except ValueError as error:
        raise click.ClickException(f"{file.name}: {error}") from None
    click.echo(_("Saved “%(name)s” as /rules/%(key)s", name=rules.name, key=key))


@click.command("recompute-scores")
@with_appcontext
def recompute_scores_command():
    """Rewrite every stored round score and team total from its inputs with the engine."""
    with connection() as db:
        count = games.recompute_scores(db)
    click.echo(_("Recomputed %(count)s round scores.", count=count))


@click.command("export")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--force", is_flag=True, help="Replace PATH if it exists.")
@quiet_option
def export_command(path, force, quiet):
    """Export the whole history to PATH: CSV if it ends in .csv, else JSON (- for stdout)."""
    csv = path.lower().endswith(".csv")
    with connection() as db, Progress(_("Exporting games"), quiet) as progress:
        chunks = (
            csvfile.iter_csv(db, progress=progress.update)
            if csv
            else jsonfile.iter_history_json(db, progress=progress.update)
        )
        if path == "-":
            for chunk in chunks:
                click.echo(chunk, nl=False)
        else:
            if os.path.exists(path) and not force:
                raise click.ClickException(
                    _("%(path)s already exists (use --force to replace it)", path=path)
                )
            partial = f"{path}{backup.PARTIAL}{secrets.token_hex(4)}"
            try:
                with stoppable(), open(partial, "w", encoding="utf-8", newline="") as file:
                    for chunk in chunks:
                        file.write(chunk)
                os.replace(partial, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(partial)
    where = _("standard output") if path == "-" else path
    said = _(
        "Exported %(games)s to %(where)s (%(format)s).",
        games=games_count(progress.total),
        where=where,
        format="CSV" if csv else "JSON",
    )
    click.echo(said, err=True)


@click.command("import")
@with_appcontext
@click.argument("file", type=click.File("rb"))
@quiet_option
def import_command(file, quiet):
    """Import a JSON export (games already here are skipped)."""
    try:
        with (
            connection() as db,
            Progress(_("Checking games"), quiet) as checking,
            Progress(_("Importing games"), quiet) as progress,
        ):
            summary = importer.import_file(db, file.read(), progress.update, checking.update, _pause)
    except ValueError as error:
        raise click.ClickException(
            _("%(file)s: refused, nothing imported: %(error)s", file=file.name, error=error)
        ) from None
    click.echo(str(summary))


@click.command("demo-data")
@click.option(
    "--games", "count", type=click.IntRange(1, 1_000_000), required=True, help="How many games to add."
)
@click.option("--seed", type=int, default=None, help="The same seed makes the same games.")
@quiet_option
@with_appcontext
def demo_data_command(count, seed, quiet):
    """Fill the database with realistic generated games (scored by the engine)."""
    migrate(database())
    with connection() as db, Progress(_("Making games"), quiet) as progress:
        rounds = demo.generate(db, count, seed, progress=progress.update)
    click.echo(
        _(
            "Added %(count)s games (%(rounds)s rounds) to %(database)s.",
            count=format(count, ","),
            rounds=format(rounds, ","),
            database=database(),
        )
    )
