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
from ..scoring.language import N_, _, ngettext
from ..storage import faults
from ..storage.migrations import migrations
from ..web import certificates, passcode
from .common import database


def check_database(path):
    path = Path(path)
    if not path.is_file():
        return False, _(
            "%(path)s is missing. Run `make run` to make an empty one, or restore a backup.", path=path
        )
    try:
        applied = backup.check_database(path)
    except ValueError as error:
        return False, _("%(error)s. Restore the latest backup (README: “Backing up”).", error=error)
    pending = len(migrations._migrations) - len(applied)  # sqlite-utils has no public list of them
    games = backup.count_games(path) or 0
    text = _(
        "%(path)s opens and passes integrity_check; %(games)s games", path=path, games=format(games, ",")
    )
    if pending > 0:
        return False, _(
            "%(text)s, but %(pending)s update(s) of its layout wait: run `make run` once.",
            text=text,
            pending=pending,
        )
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
        what = fault.message(_("rounds cannot be saved"), _("run doctor again")) if fault else str(error)
        return False, _("%(folder)s cannot be written to: %(what)s", folder=folder, what=what)
    return True, _("%(folder)s can be written to", folder=folder)


def check_space(path, folder, floor):
    results = []
    for disk in faults.disks(path, folder, *floor):
        space = disk.space
        if space is None:
            results.append(
                (
                    False,
                    _("disk space (%(what)s): %(path)s cannot be looked at", what=disk.what, path=disk.path),
                )
            )
            continue
        text = _(
            "%(free)s free of %(total)s (%(what)s)",
            free=faults.size_text(space.free),
            total=faults.size_text(space.total),
            what=disk.what,
        )
        if space.low:
            text = _(
                "%(text)s: less than the %(floor)s kept free. Free some space "
                "(old downloads, other programs' files): automatic backups stop, then saving.",
                text=text,
                floor=faults.size_text(space.floor),
            )
        results.append((not space.low, text.replace("\u00a0", " ")))
    return results


def check_backups(auto, now, automatic):
    if not automatic:
        return False, _(
            "automatic backups are off (BACKUPS_AUTOMATIC): copy the scores with `flask … backup`."
        )
    latest = autobackup.list_backups(auto.folder)
    status = auto.status()
    if status["problem"]:
        if status["no_room"]:
            return False, _(
                "%(problem)s Free some space on it, or point BACKUP_DIR at a bigger disk.",
                problem=status["problem"],
            )
        return False, _(
            "%(problem)s Point BACKUP_DIR at a folder this computer can write to.", problem=status["problem"]
        )
    if not latest:
        if backup.count_games(auto.database):
            return False, _(
                "none in %(folder)s, yet there are games: change something in the app.", folder=auto.folder
            )
        return True, _(
            "none yet in %(folder)s: the first is made after the first change in the app", folder=auto.folder
        )
    newest = latest[0]
    space, needed = faults.space(auto.folder, *auto.floor), backup.copy_size(auto.database)
    if space is not None and space.free - needed < space.floor:
        return False, _(
            "the next copy will not fit: %(folder)s's disk has %(free)s free, "
            "a copy takes %(needed)s, and %(floor)s is kept free "
            "(older copies go first). Free some space, or point BACKUP_DIR at a bigger disk.",
            folder=auto.folder,
            free=faults.size_text(space.free),
            needed=faults.size_text(needed),
            floor=faults.size_text(space.floor),
        ).replace("\u00a0", " ")
    try:
        backup.check_database(newest.path)
    except ValueError as error:
        return False, _(
            "the latest, %(name)s, is not sound (%(error)s): the next change replaces it.",
            name=newest.name,
            error=error,
        )
    hours = (now - newest.made).total_seconds() / 3600
    # English says "hours" and "days" whatever the number
    age = (
        ngettext("%(num)s hours", "%(num)s hours", round(hours), num=format(hours, ".0f"))
        if hours < 48
        else ngettext("%(num)s days", "%(num)s days", round(hours / 24), num=format(hours / 24, ".0f"))
    )
    changed = datetime.datetime.fromtimestamp(auto.database.stat().st_mtime, datetime.UTC)
    if changed - newest.made > 2 * auto.interval + datetime.timedelta(minutes=5):
        return False, _(
            "the latest is %(age)s old, older than the scores' last change: see the settings page.", age=age
        )
    return True, _(
        "the latest is %(age)s old and sound (%(name)s); %(count)s kept in %(folder)s",
        age=age,
        name=newest.name,
        count=len(latest),
        folder=auto.folder,
    )


def check_secret_key(instance):
    path = Path(instance) / "secret_key"
    try:
        key = path.read_text(encoding="ascii").strip()
        mode = path.stat().st_mode & 0o777
    except (OSError, UnicodeDecodeError) as error:
        return False, _(
            "%(path)s cannot be read (%(error)s). Remove it: the app makes a new one as it starts.",
            path=path,
            error=error,
        )
    if len(key) < 32:
        return False, _(
            "%(path)s is too short. Remove it: the app makes a new one (every phone signs in again).",
            path=path,
        )
    if mode & 0o077:
        return False, _(
            "%(path)s can be read by other users of this computer: run `chmod 600 %(path)s`.", path=path
        )
    return True, _("%(path)s, readable by its owner only", path=path)


def check_household(instance):
    """The passcode, or the household code a phone asks for while none is set; a passcode
    file that cannot be read (the app locked) is to fix, said as the sign-in page says it."""
    locked = passcode.locked_because(instance)
    if locked:
        return False, locked
    if passcode.stored_hash(instance) is not None:
        return True, _("a passcode is set: each phone signs in with it")
    return True, _(
        "no passcode yet; the household code is %(code)s (a phone asks it for the first "
        "passcode, an import, a download of the whole history, a game's export or a backup; "
        "`flask … household --new` makes a new one)",
        code=passcode.household_code(instance),
    )


def check_https(status, covered, now):
    """(ok, text) of the certificates for ``doctor``: what they cover, the days left,
    the name constraints, and whether this computer's addresses are among them."""
    if status is None:
        return True, _("no household certificate yet: `make run` makes it as it starts (or `flask … https`)")
    permitted = status.permitted
    if permitted is None:
        return False, _(
            "the household root in %(folder)s has no name constraints: run `flask … https --new-root`",
            folder=status.folder,
        )
    hosts = status.covered.hosts
    names = ", ".join(hosts)
    days = status.days_left(now)
    text = _(
        "covers %(names)s; %(days)s days left; the root can vouch for this computer only; "
        "fingerprint %(fingerprint)s",
        names=names,
        days=days,
        fingerprint=status.fingerprint,
    )
    if days < 0:
        return False, _("%(text)s: it ran out. Restart `make run`, which issues it again.", text=text)
    if days < certificates.RENEW_DAYS:
        return False, _("%(text)s: restart `make run` (or `flask … https`) to issue it again.", text=text)
    missing = [host for host in covered.hosts if host not in hosts]
    if missing:
        return False, _(
            "%(text)s; this computer is now also %(missing)s, which it does not cover: restart "
            "`make run` (a new root if need be: each phone then pairs again at /trust).",
            text=text,
            missing=", ".join(missing),
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
            return True, _("port %(port)s is free for `make run`", port=port)
    if _answers_as_scorekeeper(port):
        return True, _("port %(port)s: Scorekeeper is running there (http://localhost:%(port)s/)", port=port)
    return False, _(
        "port %(port)s is taken by another program: run `make run PORT=%(next)s`.", port=port, next=port + 1
    )


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
    lines = [(N_("database"), *check_database(database()))]
    lines.append((N_("database folder"), *check_writable(database())))
    lines += [(N_("disk space"), ok, text) for ok, text in check_space(database(), auto.folder, auto.floor)]
    lines.append((N_("backups"), *check_backups(auto, now, app.config["BACKUPS_AUTOMATIC"])))
    lines.append((N_("secret key"), *check_secret_key(app.instance_path)))
    lines.append((N_("household"), *check_household(app.instance_path)))
    covered = certificates.this_computer(app.config["EXTRA_HOSTS"])
    lines.append((N_("https"), *check_https(certificates.load(app.instance_path), covered, now)))
    lines.append((N_("port"), *check_port(host, port)))
    for name, ok, text in lines:
        # "ok" and "FIX" stay as they are: a script may look for them
        click.echo(f"{'ok ' if ok else 'FIX'}  {_(name)}: {text}")
    bad = sum(not ok for _name, ok, _text in lines)
    click.echo(_("All is well.") if not bad else _("%(count)s thing(s) to fix, above.", count=bad))
    if bad:
        raise SystemExit(1)
