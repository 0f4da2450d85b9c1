"""`flask --app scorekeeper doctor`: what a family would otherwise find out at the table.

Each check prints one line, "ok" or "FIX" and what to do; the command exits
with 1 when any needs fixing. It only reads, but for a one-byte file it writes
and removes again in the database's folder (the one way to know it can be
written, whoever runs it).
"""

import datetime
import http.client
import os
import socket
import tempfile
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ..exchange import autobackup, backup
from ..storage import faults
from ..storage.migrations import migrations
from ..web import certificates, passcode
from .common import database


def check_database(path):
    path = Path(path)
    if not path.is_file():
        return False, f"{path} is missing. Run `make run` to make an empty one, or restore a backup."
    try:
        applied = backup.check_database(path)
    except ValueError as error:
        return False, f"{error}. Restore the latest backup (README: “Backing up”)."
    pending = len(migrations._migrations) - len(applied)  # sqlite-utils has no public list of them
    games = backup.count_games(path) or 0
    text = f"{path} opens and passes integrity_check; {games:,} games"
    if pending > 0:
        return False, f"{text}, but {pending} update(s) of its layout wait: run `make run` once."
    return True, text


def check_writable(path):
    folder = Path(path).resolve().parent
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-") as probe:
            probe.write(b"x")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as error:
        fault = faults.fault_of(error, path)
        what = fault.message("rounds cannot be saved", "run doctor again") if fault else str(error)
        return False, f"{folder} cannot be written to: {what}"
    return True, f"{folder} can be written to"


def check_space(path, folder, floor):
    results = []
    for disk in faults.disks(path, folder, *floor):
        space = disk.space
        if space is None:
            results.append((False, f"disk space ({disk.what}): {disk.path} cannot be looked at"))
            continue
        text = f"{faults.size_text(space.free)} free of {faults.size_text(space.total)} ({disk.what})"
        if space.low:
            text += (
                f": less than the {faults.size_text(space.floor)} kept free. Free some space "
                "(old downloads, other programs' files): automatic backups stop, then saving."
            )
        results.append((not space.low, text.replace("\u00a0", " ")))
    return results


def check_backups(auto, now, automatic):
    if not automatic:
        return False, "automatic backups are off (BACKUPS_AUTOMATIC): copy the scores with `flask … backup`."
    latest = autobackup.list_backups(auto.folder)
    status = auto.status()
    if status["problem"]:
        if status["no_room"]:
            return False, f"{status['problem']} Free some space on it, or point BACKUP_DIR at a bigger disk."
        return False, f"{status['problem']} Point BACKUP_DIR at a folder this computer can write to."
    if not latest:
        if backup.count_games(auto.database):
            return False, f"none in {auto.folder}, yet there are games: change something in the app."
        return True, f"none yet in {auto.folder}: the first is made after the first change in the app"
    newest = latest[0]
    space, needed = faults.space(auto.folder, *auto.floor), backup.copy_size(auto.database)
    if space is not None and space.free - needed < space.floor:
        return False, (
            f"the next copy will not fit: {auto.folder}'s disk has {faults.size_text(space.free)} free, "
            f"a copy takes {faults.size_text(needed)}, and {faults.size_text(space.floor)} is kept free "
            "(older copies go first). Free some space, or point BACKUP_DIR at a bigger disk."
        ).replace("\u00a0", " ")
    try:
        backup.check_database(newest.path)
    except ValueError as error:
        return False, f"the latest, {newest.name}, is not sound ({error}): the next change replaces it."
    hours = (now - newest.made).total_seconds() / 3600
    age = f"{hours:.0f} hours" if hours < 48 else f"{hours / 24:.0f} days"
    changed = datetime.datetime.fromtimestamp(auto.database.stat().st_mtime, datetime.UTC)
    if changed - newest.made > 2 * auto.interval + datetime.timedelta(minutes=5):
        return False, f"the latest is {age} old, older than the scores' last change: see the settings page."
    return True, f"the latest is {age} old and sound ({newest.name}); {len(latest)} kept in {auto.folder}"


def check_secret_key(instance):
    path = Path(instance) / "secret_key"
    try:
        key = path.read_text(encoding="ascii").strip()
        mode = path.stat().st_mode & 0o777
    except (OSError, UnicodeDecodeError) as error:
        return False, f"{path} cannot be read ({error}). Remove it: the app makes a new one as it starts."
    if len(key) < 32:
        return False, f"{path} is too short. Remove it: the app makes a new one (every phone signs in again)."
    if mode & 0o077:
        return False, f"{path} can be read by other users of this computer: run `chmod 600 {path}`."
    return True, f"{path}, readable by its owner only"


def check_household(instance):
    """The passcode, or the household code a phone asks for while none is set."""
    if passcode.stored_hash(instance) is not None:
        return True, "a passcode is set: each phone signs in with it"
    return True, (
        f"no passcode yet; the household code is {passcode.household_code(instance)} (a phone asks it "
        "for the first passcode, an import, a download of the whole history)"
    )


def check_https(status, covered, now):
    """(ok, text) of the certificates for ``doctor``: what they cover, the days left,
    the name constraints, and whether this computer's addresses are among them."""
    if status is None:
        return True, "no household certificate yet: `make run` makes it as it starts (or `flask … https`)"
    permitted = status.permitted
    if permitted is None:
        return False, (
            f"the household root in {status.folder} has no name constraints: run `flask … https --new-root`"
        )
    hosts = status.covered.hosts
    names = ", ".join(hosts)
    days = status.days_left(now)
    text = (
        f"covers {names}; {days} days left; the root can vouch for this computer only; "
        f"fingerprint {status.fingerprint}"
    )
    if days < 0:
        return False, f"{text}: it ran out. Restart `make run`, which issues it again."
    if days < certificates.RENEW_DAYS:
        return False, f"{text}: restart `make run` (or `flask … https`) to issue it again."
    missing = [host for host in covered.hosts if host not in hosts]
    if missing:
        return False, (
            f"{text}; this computer is now also {', '.join(missing)}, which it does not cover: restart "
            "`make run` (a new root if need be: each phone then pairs again at /trust)."
        )
    return True, text


def check_port(host, port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            pass
        else:
            return True, f"port {port} is free for `make run`"
    if _answers_as_scorekeeper(port):
        return True, f"port {port}: Scorekeeper is running there (http://localhost:{port}/)"
    return False, f"port {port} is taken by another program: run `make run PORT={port + 1}`."


def _answers_as_scorekeeper(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=3)
    try:
        connection.request("GET", "/manifest.webmanifest")
        response = connection.getresponse()
        return b"Scorekeeper" in response.read(4096)
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


@click.command("doctor")
@click.option("--host", default="0.0.0.0", show_default=True, help="The address `make run` serves on.")
@click.option("--port", default=5000, show_default=True, help="The port `make run` serves on.")
@with_appcontext
def doctor_command(host, port):
    """Check the database, its disk, the backups, the secret key, https and the port; say what to fix."""
    app = current_app._get_current_object()
    auto = autobackup.for_app(app)
    now = datetime.datetime.now(datetime.UTC)
    lines = [("database", *check_database(database()))]
    lines.append(("database folder", *check_writable(database())))
    lines += [("disk space", ok, text) for ok, text in check_space(database(), auto.folder, auto.floor)]
    lines.append(("backups", *check_backups(auto, now, app.config["BACKUPS_AUTOMATIC"])))
    lines.append(("secret key", *check_secret_key(app.instance_path)))
    lines.append(("household", *check_household(app.instance_path)))
    covered = certificates.this_computer(app.config["EXTRA_HOSTS"])
    lines.append(("https", *check_https(certificates.load(app.instance_path), covered, now)))
    lines.append(("port", *check_port(host, port)))
    for name, ok, text in lines:
        click.echo(f"{'ok ' if ok else 'FIX'}  {name}: {text}")
    bad = sum(not ok for _, ok, _ in lines)
    click.echo("All is well." if not bad else f"{bad} thing(s) to fix, above.")
    if bad:
        raise SystemExit(1)
