"""The database: one sqlite-utils connection per request, and its CLI."""

import click
from flask import current_app, g
from flask.cli import with_appcontext
from sqlite_utils import Database

from .migrations import migrations


def connect(path):
    """Open the database with the settings every connection needs."""
    db = Database(path)
    # sqlite-utils never turns foreign keys on, and SQLite forgets it per connection
    db.execute("PRAGMA foreign_keys = ON")
    # WAL lets the phone read while a round is being written; it sticks to the file
    db.enable_wal()
    return db


def get_db():
    """The request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(exception=None):
    db = g.pop("db", None)
    if db is not None:
        db.close()


def migrate(path):
    """Apply pending migrations; return the names applied."""
    db = connect(path)
    try:
        pending = [m.name for m in migrations.pending(db)]
        migrations.apply(db)
        return pending
    finally:
        db.close()


@click.command("init-db")
@with_appcontext
def init_db_command():
    """Create the database or bring it up to date (safe to run again)."""
    path = current_app.config["DATABASE"]
    applied = migrate(path)
    click.echo(f"Database {path}: " + (f"applied {', '.join(applied)}." if applied else "up to date."))


@click.command("import-rules")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_rules_command(file):
    """Save a house-rules JSON file as a rule set."""
    from . import rulesets
    from .scoring import RuleSet

    try:
        rules = RuleSet.from_json(file.read())
    except ValueError as error:
        raise click.ClickException(f"{file.name}: {error}") from None
    db = connect(current_app.config["DATABASE"])
    try:
        key = rulesets.save_house_rules(db, rules)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    finally:
        db.close()
    click.echo(f"Saved “{rules.name}” as /rules/{key}")


@click.command("recompute-scores")
@with_appcontext
def recompute_scores_command():
    """Rewrite every stored round score from its inputs with the engine."""
    from . import games

    db = connect(current_app.config["DATABASE"])
    try:
        count = games.recompute_scores(db)
    finally:
        db.close()
    click.echo(f"Recomputed {count} round scores.")


def init_app(app):
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    app.cli.add_command(import_rules_command)
    app.cli.add_command(recompute_scores_command)
