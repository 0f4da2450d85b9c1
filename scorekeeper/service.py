"""The app as a systemd service: it starts with the computer and restarts if it stops.

``flask --app scorekeeper service install`` writes a unit that runs
``python -m scorekeeper.serve`` (what ``make run`` runs) with the host, the
port and the instance folder it was installed with, then enables and starts
it. Run as root it is a system service (``/etc/systemd/system``, run as the
owner of the instance folder); otherwise a user service
(``~/.config/systemd/user``) with lingering turned on, so that it starts at
boot without anyone logging in. Where systemd is not the running init (a
container, WSL without systemd, macOS), nothing is written or changed.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

NAME = "scorekeeper"
UNIT = f"{NAME}.service"
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
            f"systemd is not running on this computer (no {BOOTED}): nothing was changed. "
            "Start the app with `make run`, or with this system's own way of starting programs at boot."
        )


def _checked(result, what):
    if result.returncode != 0:
        raise RuntimeError(f"{what} failed: {(result.stderr or result.stdout).strip()}")
    return result


def install(service):
    """Write the unit, then enable and start it (lingering for a user service); return what was said."""
    _must_have_systemd()
    path = unit_path(service.system)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(unit_text(service), encoding="utf-8")
    os.replace(partial, path)
    said = [f"Wrote {path}."]
    try:
        _checked(_systemctl(service.system, "daemon-reload"), "systemctl daemon-reload")
        _checked(_systemctl(service.system, "enable", "--now", UNIT), f"systemctl enable --now {UNIT}")
    except RuntimeError as error:  # a unit that cannot start is not left behind
        path.unlink(missing_ok=True)
        _systemctl(service.system, "daemon-reload")
        raise RuntimeError(f"{error}. Nothing is installed.") from None
    if not service.system:
        user = pwd.getpwuid(os.getuid()).pw_name
        linger = subprocess.run(
            ["loginctl", "enable-linger", user], capture_output=True, text=True, timeout=60, check=False
        )
        if linger.returncode == 0:
            said.append(f"Lingering is on for {user}: the app starts at boot, before anyone logs in.")
        else:
            said.append(
                f"Could not turn lingering on ({(linger.stderr or '').strip()}): the app starts when "
                f"{user} logs in. As root: loginctl enable-linger {user}"
            )
    said.append(f"Started: it answers on port {service.port} and starts again with the computer.")
    return said


def remove(system):
    """Stop, disable and remove the unit; return what was said."""
    _must_have_systemd()
    path = unit_path(system)
    if not path.exists():
        return [f"Not installed: there is no {path}."]
    _systemctl(system, "disable", "--now", UNIT)  # a unit already stopped or disabled is fine
    path.unlink()
    _checked(_systemctl(system, "daemon-reload"), "systemctl daemon-reload")
    return [f"Stopped and removed {path}."]


def status(system):
    """Whether the unit is installed, enabled and running, as lines."""
    _must_have_systemd()
    path = unit_path(system)
    if not path.exists():
        return [f"Not installed (no {path})."]
    enabled = _systemctl(system, "is-enabled", UNIT).stdout.strip() or "unknown"
    active = _systemctl(system, "is-active", UNIT).stdout.strip() or "unknown"
    return [f"Installed: {path}", f"Starts with the computer: {enabled}", f"Running: {active}"]


def log_command(system):
    return f"journalctl {'' if system else '--user '}-u {NAME} -f"
