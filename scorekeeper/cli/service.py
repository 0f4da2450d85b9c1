"""The app as a systemd service: it starts with the computer and restarts if it stops.

``flask --app scorekeeper service install`` writes a unit that runs
``python -m scorekeeper.serve`` (what ``make run`` runs) with the host, the
port and the instance folder it was installed with, then enables and starts
it. Run as root it is a system service (``/etc/systemd/system``); otherwise a user service
(``~/.config/systemd/user``) with lingering turned on, so that it starts at
boot without anyone logging in. Where systemd is not the running init (a
container, WSL without systemd, macOS), nothing is written or changed.

A system service never runs as root (issue 43): it runs as the user named at install
(``--as-user``), else the owner of the instance folder, else a system user ``scorekeeper``
made for it; the instance and backups folders are handed to that user, and the install
checks that the user can run the app's Python before anything is written. The system unit
is hardened (``HARDENING``: no new privileges, the whole file system read-only but the
instance and backups folders, a private /tmp, no capabilities, ...), which
``systemd-analyze security`` rates "OK"; a user unit keeps what needs no namespaces
(``NoNewPrivileges``, ``UMask``), since not every system lets a user's service make them.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..scoring.language import _

NAME = "scorekeeper"
UNIT = f"{NAME}.service"
SYSTEM_USER = NAME  # made for a system service when no one else is named or owns the instance
SYSTEM_UNIT_DIR = Path("/etc/systemd/system")
# what sd_booted() looks at: this directory exists only when systemd is the running init
BOOTED = Path("/run/systemd/system")


class NoSystemd(RuntimeError):
    """systemd is not running here: nothing was changed."""


@dataclass(frozen=True)
class Service:
    system: bool  # a system service (root), else a user service
    host: str
    port: int
    instance: Path
    python: str  # the interpreter of the app's virtual environment
    workdir: Path
    environment: dict = field(default_factory=dict)  # besides the instance folder
    user: str | None = None  # a system service runs as this user
    writable: tuple = ()  # folders the system service may write (the instance, the backups)
    database: Path | None = None  # the scores file, when it is not in the instance folder


def systemd_running():
    return BOOTED.is_dir()


def user_unit_dir():
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "systemd" / "user"


def unit_path(system):
    return (SYSTEM_UNIT_DIR if system else user_unit_dir()) / UNIT


def _quoted(value, *, command=False):
    """A value as a unit file reads it back: specifiers (%) and, in a command,
    variables ($) escaped; quoted when it holds spaces or quotes."""
    value = str(value).replace("%", "%%")
    if command:
        value = value.replace("$", "$$")
    if any(c.isspace() for c in value) or any(c in value for c in "\"'\\;"):
        value = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


# systemd takes a program's path only with plain characters (no spaces, quotes, $ or %)
PLAIN_PATH = re.compile(r"[A-Za-z0-9/._+-]+")


def _command_line(args):
    """ExecStart's value: a program with an unusual path is run through env, as an argument."""
    program, *rest = args
    if not PLAIN_PATH.fullmatch(program):
        program, rest = "/usr/bin/env", [program, *rest]
    return " ".join([program, *(_quoted(arg, command=True) for arg in rest)])


# A system service's sandbox: what `systemd-analyze security` looks for, less what would
# break the app (MemoryDenyWriteExecute: WeasyPrint's cffi writes code it runs; PrivateUsers
# and ProcSubset: little gained for what they can break). AF_NETLINK: `hostname -I` reads the
# machine's addresses with it (network.py).
HARDENING = [
    "UMask=0077",
    "NoNewPrivileges=yes",
    "ProtectSystem=strict",
    "ProtectHome=read-only",
    "PrivateTmp=yes",
    "PrivateDevices=yes",
    "ProtectKernelTunables=yes",
    "ProtectKernelModules=yes",
    "ProtectKernelLogs=yes",
    "ProtectControlGroups=yes",
    "ProtectClock=yes",
    "ProtectHostname=yes",
    "ProtectProc=invisible",
    "RestrictSUIDSGID=yes",
    "RestrictRealtime=yes",
    "RestrictNamespaces=yes",
    "LockPersonality=yes",
    "RemoveIPC=yes",
    "KeyringMode=private",
    "DevicePolicy=closed",
    "SystemCallArchitectures=native",
    "SystemCallFilter=@system-service",
    "SystemCallFilter=~@privileged",
    "CapabilityBoundingSet=",
    "AmbientCapabilities=",
    "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK",
]
USER_HARDENING = ["UMask=0077", "NoNewPrivileges=yes"]


def _writable(service):
    """The folders the system service writes: its own, and a scores file's kept elsewhere
    (SQLite writes its journal beside it)."""
    return [*service.writable, *([Path(service.database).parent] if service.database else [])]


def unit_text(service):
    """The unit file's text."""
    command = [service.python, "-m", "scorekeeper.serve", "--host", service.host, "--port", str(service.port)]
    migrate = [service.python, "-m", "flask", "--app", "scorekeeper", "init-db"]  # as `make run` does first
    environment = {"SCOREKEEPER_INSTANCE_PATH": str(service.instance), "PYTHONUNBUFFERED": "1"}
    environment.update(service.environment)
    lines = [
        "# Written by `flask --app scorekeeper service install`; removed by `… service remove`.",
        "[Unit]",
        f"Description=Scorekeeper (Hand and Foot scores) on port {service.port}",
        "Wants=network-online.target",
        "After=network-online.target",
        "",
        "[Service]",
        "Type=exec",
        # a path setting takes the rest of the line as it is (spaces too): only % is special
        f"WorkingDirectory={str(service.workdir).replace('%', '%%')}",
        *(f"Environment={_quoted(f'{key}={value}')}" for key, value in environment.items()),
        f"ExecStartPre={_command_line(migrate)}",
        f"ExecStart={_command_line(command)}",
        "Restart=always",
        "RestartSec=5",
        *([f"User={service.user}"] if service.system and service.user else []),
        *(HARDENING if service.system else USER_HARDENING),
        # "-": a folder missing at start is no reason to refuse to start (install makes them)
        *(
            f"ReadWritePaths={_quoted(f'-{folder}')}"
            for folder in (_writable(service) if service.system else ())
        ),
        "",
        "[Install]",
        f"WantedBy={'multi-user.target' if service.system else 'default.target'}",
        "",
    ]
    return "\n".join(lines)


def owner(path):
    """The name of the user that owns ``path`` (None when it is root or unknown)."""
    try:
        uid = Path(path).stat().st_uid
        return None if uid == 0 else pwd.getpwuid(uid).pw_name
    except (OSError, KeyError):
        return None


def _run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=120, check=False)


def service_user(named, instance):
    """Who a system service runs as: ``named`` (never root), else the instance folder's owner
    when that is not root, else ``SYSTEM_USER``; and whether that user is still to be made."""
    if named is not None:
        if named == "root" or _uid(named) == 0:
            raise RuntimeError(_("The service does not run as root: name another user (--as-user)."))
        if _uid(named) is None:
            raise RuntimeError(_("There is no user %(user)s on this computer.", user=named))
        return named, False
    found = owner(instance)
    if found is not None:
        return found, False
    return SYSTEM_USER, _uid(SYSTEM_USER) is None


def _uid(name):
    try:
        return pwd.getpwnam(name).pw_uid
    except KeyError:
        return None


def hand_over(service, make_user):
    """Make the service's user if it is still to be made, make its folders and give them to
    it, and check that it can run the app's Python from the working folder: nothing is
    installed for a user who could not start it. Return what was said."""
    said = []
    if make_user:
        _checked(
            _run(
                "useradd",
                "--system",
                "--user-group",
                "--home-dir",
                "/nonexistent",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                service.user,
            ),
            f"useradd {service.user}",
        )
        said.append(
            _("Made the system user %(user)s: the service runs as it, not as root.", user=service.user)
        )
    for folder in service.writable:
        Path(folder).mkdir(parents=True, exist_ok=True)
        _checked(_run("chown", "-R", f"{service.user}:", str(folder)), f"chown {folder}")
    if service.database is not None:
        for path in (service.database, Path(f"{service.database}-wal"), Path(f"{service.database}-shm")):
            if path.exists():
                _checked(_run("chown", f"{service.user}:", str(path)), f"chown {path}")
    if service.writable:
        said.append(
            _(
                "%(folders)s: now %(user)s's (the service writes there).",
                folders=", ".join(map(str, service.writable)),
                user=service.user,
            )
        )
    tried = _run(
        "runuser",
        "-u",
        service.user,
        "--",
        "/bin/sh",
        "-c",
        'cd "$1" && "$2" -c "import scorekeeper" && test -w "$3"',
        "sh",
        str(service.workdir),
        service.python,
        str(Path(service.database).parent if service.database else service.writable[0]),
    )
    if tried.returncode != 0:
        why = (tried.stderr or tried.stdout).strip()[-200:] or "refused"
        raise RuntimeError(
            _(
                "%(user)s cannot run %(python)s in %(folder)s, or write beside the scores "
                "(%(why)s). Put Scorekeeper in a folder every user can read (for example /opt/scorekeeper), "
                "or name a user who can with --as-user",
                user=service.user,
                python=service.python,
                folder=service.workdir,
                why=why,
            )
        )
    return said


def _systemctl(system, *args):
    return subprocess.run(
        ["systemctl", *([] if system else ["--user"]), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _must_have_systemd():
    if not systemd_running() or shutil.which("systemctl") is None:
        raise NoSystemd(
            _(
                "systemd is not running on this computer (no %(booted)s): nothing was changed. "
                "Start the app with `make run`, or with this system's own way of starting programs at boot.",
                booted=BOOTED,
            )
        )


def _checked(result, what):
    if result.returncode != 0:
        raise RuntimeError(
            _("%(what)s failed: %(why)s", what=what, why=(result.stderr or result.stdout).strip())
        )
    return result


def install(service, make_user=False):
    """For a system service, hand its folders to its user (``hand_over``; ``make_user``: make
    it first); write the unit, then enable and start it (lingering for a user service);
    return what was said."""
    _must_have_systemd()
    said = hand_over(service, make_user) if service.system else []
    path = unit_path(service.system)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(unit_text(service), encoding="utf-8")
    os.replace(partial, path)
    said.append(_("Wrote %(path)s.", path=path))
    try:
        _checked(_systemctl(service.system, "daemon-reload"), "systemctl daemon-reload")
        _checked(_systemctl(service.system, "enable", "--now", UNIT), f"systemctl enable --now {UNIT}")
    except RuntimeError as error:  # a unit that cannot start is not left behind
        path.unlink(missing_ok=True)
        _systemctl(service.system, "daemon-reload")
        raise RuntimeError(_("%(error)s. Nothing is installed.", error=error)) from None
    if not service.system:
        user = pwd.getpwuid(os.getuid()).pw_name
        linger = subprocess.run(
            ["loginctl", "enable-linger", user], capture_output=True, text=True, timeout=60, check=False
        )
        if linger.returncode == 0:
            said.append(
                _("Lingering is on for %(user)s: the app starts at boot, before anyone logs in.", user=user)
            )
        else:
            said.append(
                _(
                    "Could not turn lingering on (%(why)s): the app starts when "
                    "%(user)s logs in. As root: loginctl enable-linger %(user)s",
                    why=(linger.stderr or "").strip(),
                    user=user,
                )
            )
    said.append(
        _("Started: it answers on port %(port)s and starts again with the computer.", port=service.port)
    )
    return said


def remove(system):
    """Stop, disable and remove the unit; return what was said."""
    _must_have_systemd()
    path = unit_path(system)
    if not path.exists():
        return [_("Not installed: there is no %(path)s.", path=path)]
    _systemctl(system, "disable", "--now", UNIT)  # a unit already stopped or disabled is fine
    path.unlink()
    _checked(_systemctl(system, "daemon-reload"), "systemctl daemon-reload")
    return [_("Stopped and removed %(path)s.", path=path)]


def status(system):
    """Whether the unit is installed, enabled and running, as lines."""
    _must_have_systemd()
    path = unit_path(system)
    if not path.exists():
        return [_("Not installed (no %(path)s).", path=path)]
    enabled = _systemctl(system, "is-enabled", UNIT).stdout.strip() or "unknown"
    active = _systemctl(system, "is-active", UNIT).stdout.strip() or "unknown"
    return [
        _("Installed: %(path)s", path=path),
        _("Starts with the computer: %(enabled)s", enabled=enabled),
        _("Running: %(active)s", active=active),
    ]


def log_command(system):
    return f"journalctl {'' if system else '--user '}-u {NAME} -f"
