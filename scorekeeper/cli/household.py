"""The household: its passcode, its household code, and the app as a service that starts with the computer."""

import datetime
import os
import socket
import sys
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ..exchange import autobackup
from ..scoring.language import _
from ..services import guesses
from ..web import certificates, passcode
from . import service
from .common import connection, database


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
        try:
            was_set = passcode.remove_passcode(instance)
        except ValueError as error:  # a folder where the passcode file goes
            raise click.ClickException(str(error)) from None
        _forget_guesses()
        click.echo(
            _("Passcode removed: the app opens without signing in.") if was_set else _("No passcode was set.")
        )
        return
    if from_stdin:
        new = sys.stdin.readline().rstrip("\r\n")
    else:
        new = click.prompt(
            _("New passcode"), hide_input=True, confirmation_prompt=_("The same passcode again")
        )
    try:
        passcode.set_passcode(instance, new)
    except ValueError as error:
        raise click.ClickException(_("Passcode not set: %(error)s", error=error)) from None
    _forget_guesses()
    click.echo(_("Passcode set: each phone signs in with it once an evening. Share links open without it."))


def _forget_guesses():
    """The wrong guesses counted so far are forgotten: whoever sets the passcode (or makes a
    new household code) at the computer is not kept waiting by a guest's guesses on the Wi-Fi."""
    if os.path.exists(database()):
        with connection() as db:
            if db["passcode_guesses"].exists():  # not before init-db has made it
                guesses.forget(db)


@click.command("household")
@click.option(
    "--new",
    "make_new",
    is_flag=True,
    help="Make a new household code: every phone that gave the old one is asked again.",
)
@with_appcontext
def household_command(make_new):
    """Show the household code a phone gives while no passcode is set, or make a new one.

    A phone is asked for it before the first passcode, an import, or a download of the
    whole history, a game's export or a backup. `make run` prints it only in a terminal.
    """
    instance = current_app.instance_path
    if make_new:
        code = passcode.new_household_code(instance)
        _forget_guesses()
        click.echo(
            _("New household code: %(code)s. Every phone that gave the old one is asked again.", code=code)
        )
    if passcode.stored_hash(instance) is not None:
        click.echo(_("A passcode is set: each phone signs in with it, and no household code is asked."))
    elif not make_new:
        click.echo(household_line(passcode.household_code(instance)))


def household_line(code):
    """The household code as `make run` (in a terminal) and `flask … household` say it."""
    return _(
        "Household code: %(code)s (a phone asks for it before the first passcode, an import, "
        "or a download of the whole history, a game's export or a backup)",
        code=code,
    )


@click.command("https")
@click.option(
    "--new-root",
    is_flag=True,
    help="Make a new household root: every phone paired before must pair again (after a lost key).",
)
@with_appcontext
def https_command(new_root):
    """Make the household certificates for https at home, or bring them up to date.

    `make run` does the same as it starts; this says what they cover. See docs/HTTPS.md.
    """
    covered = certificates.this_computer(current_app.config["EXTRA_HOSTS"])
    hostname = socket.gethostname()
    made = certificates.ensure(current_app.instance_path, covered, hostname, new_root=new_root)
    status = made.status
    if made.new_root:
        click.echo(_("New household root (%(why)s): each phone pairs at /trust.", why=_(made.why)))
    elif made.new_server:
        click.echo(_("Server certificate issued again, under the same root: paired phones stay paired."))
    else:
        click.echo(_("The certificates were up to date."))
    now = datetime.datetime.now(datetime.UTC)
    click.echo(_("Fingerprint (SHA-256) starts: %(fingerprint)s", fingerprint=status.fingerprint))
    click.echo(_("Covers: %(hosts)s", hosts=", ".join(status.covered.hosts)))
    click.echo(
        _("Valid for %(days)s more days (issued again by itself before it ends)", days=status.days_left(now))
    )
    click.echo(_("Kept in %(folder)s (owner-only)", folder=status.folder))


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


def _service(host, port, system, as_user=None):
    """The service as it would be installed from here: this Python, this instance folder;
    and whether its user (a system service's) is still to be made."""
    system = _system(system)
    environment = {}
    default_database = os.path.join(current_app.instance_path, "scorekeeper.db")
    elsewhere = None
    if os.path.abspath(database()) != default_database:
        environment["SCOREKEEPER_DATABASE"] = os.path.abspath(database())
        if not Path(database()).resolve().is_relative_to(Path(current_app.instance_path).resolve()):
            elsewhere = Path(os.path.abspath(database()))
    folder = autobackup.backup_folder(current_app)
    if os.environ.get("SCOREKEEPER_BACKUP_DIR") or os.environ.get("BACKUP_DIR"):
        environment["SCOREKEEPER_BACKUP_DIR"] = str(folder.resolve())
    user, make_user = service.service_user(as_user, current_app.instance_path) if system else (None, False)
    instance = Path(current_app.instance_path)
    writable = (
        (instance,) if folder.resolve().is_relative_to(instance.resolve()) else (instance, folder.resolve())
    )
    wanted = service.Service(
        system=system,
        host=host,
        port=port,
        instance=instance,
        python=os.path.abspath(sys.executable),
        workdir=Path.cwd(),
        environment=environment,
        user=user,
        writable=writable,
        database=elsewhere,
    )
    return wanted, make_user


def _service_options(function):
    port = click.option("--port", type=click.IntRange(1, 65535), default=5000, show_default=True)
    as_user = click.option(
        "--as-user",
        default=None,
        help="A system service runs as this user (never root). Default: the instance folder's owner, "
        f"else a system user {service.SYSTEM_USER} made for it.",
    )
    function = as_user(port(function))
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
def service_install(host, port, system, as_user):
    """Install and start the service, with this host, port and instance folder."""
    try:
        wanted, make_user = _service(host, port, system, as_user)
        _say(service.install(wanted, make_user))
    except (service.NoSystemd, RuntimeError, OSError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(_("Its log: %(command)s", command=service.log_command(wanted.system)))


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
    click.echo(_("Its log: %(command)s", command=service.log_command(_system(system))))


@service_group.command("unit")
@_service_options
@_system_option
@with_appcontext
def service_unit(host, port, system, as_user):
    """Print the unit `install` would write (changes nothing)."""
    try:
        wanted, _ = _service(host, port, system, as_user)
    except RuntimeError as error:
        raise click.ClickException(str(error)) from None
    click.echo(service.unit_text(wanted), nl=False)
