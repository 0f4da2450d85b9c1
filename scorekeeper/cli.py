"""Every `flask --app scorekeeper …` command, in one place.

Each opens its own connection to the app's database (``DATABASE``), so they
work while the app serves; ``restore`` wants the app stopped.
"""

import contextlib
import logging
import os
import secrets
import signal
import sqlite3
import sys
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from . import autobackup, backup, demo, passcode, service
from .db import connect
from .exchange import csvfile, importer, jsonfile
from .scoring import RuleSet
from .services import games, rulesets
from .services.schema import migrate


def _database():
    return current_app.config["DATABASE"]


@contextlib.contextmanager
def _connection():
    db = connect(_database())
    try:
        yield db
    finally:
        db.close()


@contextlib.contextmanager
def _stoppable():
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
        self.done, self.total = done, total
        if not self.shown:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr, show_pos=True)
            self.bar.render_progress()
        if self.bar.finished:
            return
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


@click.command("init-db")
@with_appcontext
def init_db_command():
    """Create the database or bring it up to date (safe to run again)."""
    handler = logging.StreamHandler()  # what a migration has to say (a renamed player)
    logging.getLogger("scorekeeper.migrations").addHandler(handler)
    try:
        applied = migrate(_database())
    finally:
        logging.getLogger("scorekeeper.migrations").removeHandler(handler)
    click.echo(f"Database {_database()}: " + (f"applied {', '.join(applied)}." if applied else "up to date."))


@click.command("import-rules")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_rules_command(file):
    """Save a house-rules JSON file as a rule set."""
    try:
        rules = RuleSet.from_json(file.read())
        with _connection() as db:
            key = rulesets.save_house_rules(db, rules)
    except ValueError as error:
        raise click.ClickException(f"{file.name}: {error}") from None
    click.echo(f"Saved “{rules.name}” as /rules/{key}")


@click.command("recompute-scores")
@with_appcontext
def recompute_scores_command():
    """Rewrite every stored round score and team total from its inputs with the engine."""
    with _connection() as db:
        count = games.recompute_scores(db)
    click.echo(f"Recomputed {count} round scores.")


@click.command("export")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--force", is_flag=True, help="Replace PATH if it exists.")
@quiet_option
def export_command(path, force, quiet):
    """Export the whole history to PATH: CSV if it ends in .csv, else JSON (- for stdout)."""
    csv = path.lower().endswith(".csv")
    with _connection() as db, Progress("Exporting games", quiet) as progress:
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
                raise click.ClickException(f"{path} already exists (use --force to replace it)")
            partial = f"{path}{backup.PARTIAL}{secrets.token_hex(4)}"
            try:
                with _stoppable(), open(partial, "w", encoding="utf-8", newline="") as file:
                    for chunk in chunks:
                        file.write(chunk)
                os.replace(partial, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(partial)
    where = "standard output" if path == "-" else path
    click.echo(f"Exported {_games(progress.total)} to {where} ({'CSV' if csv else 'JSON'}).", err=True)


@click.command("import")
@with_appcontext
@click.argument("file", type=click.File("rb"))
@quiet_option
def import_command(file, quiet):
    """Import a JSON export (games already here are skipped)."""
    try:
        data = importer.read_history(file.read())
        with (
            _connection() as db,
            Progress("Checking games", quiet) as checking,
            Progress("Importing games", quiet) as progress,
        ):
            summary = importer.import_history(db, data, progress.update, checking.update)
    except ValueError as error:
        raise click.ClickException(f"{file.name}: refused, nothing imported: {error}") from None
    click.echo(str(summary))


@click.command("backup")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace PATH if it exists.")
@quiet_option
def backup_command(path, force, quiet):
    """Copy the database to PATH, consistently, even while the app runs."""
    try:
        with _stoppable(), Progress("Copying pages", quiet) as progress:
            backup.backup_database(_database(), path, force=force, progress=progress.pages)
    except (OSError, ValueError, sqlite3.Error) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Backed up {_database()} to {path}.")


def _games(n):
    return f"{n:,} game{'' if n == 1 else 's'}"


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
    click.echo(f"Backups in {auto.folder}:" if found else f"No automatic backup in {auto.folder} yet.")
    for item in found:
        games_count = autobackup.count_games(item.path)
        click.echo(
            f"  {item.name}  {item.made.astimezone():%Y-%m-%d %H:%M}  {_size(item.size):>10}  "
            + (
                f"{games_count:,} game{'' if games_count == 1 else 's'}"
                if games_count is not None
                else "unreadable"
            )
        )
    problem = auto.problem()
    if problem:
        click.echo(f"Backups cannot be written: {problem}", err=True)


def _backup_to_restore(path, latest):
    """The file ``restore`` restores: PATH, a name ``backups`` listed, or the newest."""
    folder = autobackup.for_app(current_app).folder
    if latest:
        if path:
            raise click.UsageError("Give either a backup or --latest, not both.")
        found = autobackup.list_backups(folder)
        if not found:
            raise click.ClickException(f"No automatic backup in {folder} to restore.")
        return found[0].path
    if not path:
        raise click.UsageError("Give the backup to restore (a file, or a name `backups` lists), or --latest.")
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
        with _stoppable(), Progress("Restoring pages", quiet) as progress:
            kept = backup.restore_database(path, _database(), progress=progress.pages)
    except (OSError, ValueError, sqlite3.Error) as error:
        raise click.ClickException(str(error)) from None
    click.echo(
        f"Restored {path} into {_database()}."
        + (f" The database as it was is kept at {kept}." if kept else "")
    )


@click.command("demo-data")
@click.option(
    "--games", "count", type=click.IntRange(1, 1_000_000), required=True, help="How many games to add."
)
@click.option("--seed", type=int, default=None, help="The same seed makes the same games.")
@quiet_option
@with_appcontext
def demo_data_command(count, seed, quiet):
    """Fill the database with realistic generated games (scored by the engine)."""
    migrate(_database())
    with _connection() as db, Progress("Making games", quiet) as progress:
        rounds = demo.generate(db, count, seed, progress=progress.update)
    click.echo(f"Added {count:,} games ({rounds:,} rounds) to {_database()}.")


@click.command("passcode")
@click.option("--remove", is_flag=True, help="Remove the passcode: the app opens without signing in.")
@click.option(
    "--stdin", "from_stdin", is_flag=True, help="Read the new passcode from standard input's first line."
)
@with_appcontext
def passcode_command(remove, from_stdin):
    """Set or change the household passcode (asked twice, not shown), or remove it.

    Kept only as a hash, in the instance folder. Every phone signed in before
    signs in again.
    """
    instance = current_app.instance_path
    if remove:
        was_set = passcode.remove_passcode(instance)
        click.echo(
            "Passcode removed: the app opens without signing in." if was_set else "No passcode was set."
        )
        return
    if from_stdin:
        new = sys.stdin.readline().rstrip("\r\n")
    else:
        new = click.prompt("New passcode", hide_input=True, confirmation_prompt="The same passcode again")
    try:
        passcode.set_passcode(instance, new)
    except ValueError as error:
        raise click.ClickException(f"Passcode not set: {error}") from None
    click.echo("Passcode set: each phone signs in with it once an evening. Share links open without it.")


@click.group("service")
def service_group():
    """Run the app as a service that starts with the computer (systemd on Linux)."""


def _system_option(function):
    return click.option(
        "--system/--user",
        default=None,
        help="A system service (the default as root) or this user's (the default otherwise).",
    )(function)


def _system(system):
    return os.geteuid() == 0 if system is None else system


def _service(host, port, system):
    """The service as it would be installed from here: this Python, this instance folder."""
    system = _system(system)
    environment = {}
    default_database = os.path.join(current_app.instance_path, "scorekeeper.db")
    if os.path.abspath(_database()) != default_database:
        environment["SCOREKEEPER_DATABASE"] = os.path.abspath(_database())
    folder = autobackup.backup_folder(current_app)
    if os.environ.get("SCOREKEEPER_BACKUP_DIR") or os.environ.get("BACKUP_DIR"):
        environment["SCOREKEEPER_BACKUP_DIR"] = str(folder.resolve())
    return service.Service(
        system=system,
        host=host,
        port=port,
        instance=Path(current_app.instance_path),
        python=os.path.abspath(sys.executable),
        workdir=Path.cwd(),
        environment=environment,
        user=service.owner(current_app.instance_path) if system else None,
    )


def _service_options(function):
    port = click.option("--port", type=click.IntRange(1, 65535), default=5000, show_default=True)
    function = port(function)
    return click.option("--host", default="0.0.0.0", show_default=True, help="0.0.0.0: every network.")(
        function
    )


def _say(lines):
    for line in lines:
        click.echo(line)


@service_group.command("install")
@_service_options
@_system_option
@with_appcontext
def service_install(host, port, system):
    """Install and start the service, with this host, port and instance folder."""
    wanted = _service(host, port, system)
    try:
        _say(service.install(wanted))
    except (service.NoSystemd, RuntimeError, OSError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Its log: {service.log_command(wanted.system)}")


@service_group.command("remove")
@_system_option
@with_appcontext
def service_remove(system):
    """Stop the service and remove it."""
    try:
        _say(service.remove(_system(system)))
    except (service.NoSystemd, RuntimeError, OSError) as error:
        raise click.ClickException(str(error)) from None


@service_group.command("status")
@_system_option
@with_appcontext
def service_status(system):
    """Say whether the service is installed, starts with the computer, and runs."""
    try:
        _say(service.status(_system(system)))
    except (service.NoSystemd, RuntimeError, OSError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Its log: {service.log_command(_system(system))}")


@service_group.command("unit")
@_service_options
@_system_option
@with_appcontext
def service_unit(host, port, system):
    """Print the unit `install` would write (changes nothing)."""
    click.echo(service.unit_text(_service(host, port, system)), nl=False)


COMMANDS = (
    init_db_command,
    import_rules_command,
    recompute_scores_command,
    export_command,
    import_command,
    backup_command,
    backups_command,
    restore_command,
    demo_data_command,
    passcode_command,
    service_group,
)


def init_app(app):
    for command in COMMANDS:
        app.cli.add_command(command)
