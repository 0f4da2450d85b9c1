"""`flask --app scorekeeper service …` (issue 21): the systemd unit it writes, accepted
by `systemd-analyze verify` where that exists; install, status and remove against
a systemctl and loginctl on PATH that record what they were asked (this machine's
systemd is not ours to change); and nothing changed where systemd is not running."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.cli import service


def a_service(tmp_path, *, system=False, **changes):
    values = {
        "system": system,
        "host": "0.0.0.0",
        "port": 5000,
        "instance": tmp_path / "instance",
        "python": sys.executable,
        "workdir": tmp_path,
        "environment": {},
        "user": None,
        "writable": (tmp_path / "instance",),
    }
    values.update(changes)
    return service.Service(**values)


def unit_lines(text):
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_a_user_unit_runs_the_server_with_its_host_port_and_instance(tmp_path):
    text = service.unit_text(a_service(tmp_path, host="127.0.0.1", port=5123))
    lines = unit_lines(text)
    assert f"ExecStart={sys.executable} -m scorekeeper.serve --host 127.0.0.1 --port 5123" in lines
    assert f"ExecStartPre={sys.executable} -m flask --app scorekeeper init-db" in lines
    assert f"Environment=SCOREKEEPER_INSTANCE_PATH={tmp_path / 'instance'}" in lines
    assert f"WorkingDirectory={tmp_path}" in lines
    assert "Restart=always" in lines and "WantedBy=default.target" in lines
    assert not any(line.startswith("User=") for line in lines)
    assert lines.index("[Unit]") < lines.index("[Service]") < lines.index("[Install]")


def test_a_system_unit_runs_as_its_user_sandboxed_and_starts_at_boot(tmp_path):
    text = service.unit_text(
        a_service(
            tmp_path,
            system=True,
            user="ann",
            environment={"SCOREKEEPER_DATABASE": "/srv/family.db"},
            database=Path("/srv/family.db"),
        )
    )
    lines = unit_lines(text)
    assert "User=ann" in lines and "WantedBy=multi-user.target" in lines
    assert "Environment=SCOREKEEPER_DATABASE=/srv/family.db" in lines
    for line in ("NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes", "UMask=0077"):
        assert line in lines
    # the only places it may write: its instance folder, and beside a scores file kept elsewhere
    assert [line for line in lines if line.startswith("ReadWritePaths=")] == [
        f"ReadWritePaths=-{tmp_path / 'instance'}",
        "ReadWritePaths=-/srv",
    ]


def test_a_user_unit_keeps_only_what_needs_no_namespaces(tmp_path):
    lines = unit_lines(service.unit_text(a_service(tmp_path)))
    assert "NoNewPrivileges=yes" in lines and "UMask=0077" in lines
    assert not any(line.startswith(("ProtectSystem=", "PrivateTmp=", "ReadWritePaths=")) for line in lines)


def test_odd_paths_are_quoted_as_systemd_reads_them(tmp_path):
    odd = tmp_path / "Ann's 100% scores $HOME"
    text = service.unit_text(a_service(tmp_path, instance=odd, workdir=odd))
    assert f'Environment="SCOREKEEPER_INSTANCE_PATH={str(odd).replace("%", "%%")}"' in text
    assert f"WorkingDirectory={str(odd).replace('%', '%%')}" in text.splitlines()
    assert f"ExecStartPre={sys.executable} -m flask" in text


def verify(unit_text, tmp_path, *, user):
    """`systemd-analyze verify` on the unit, as a user's or a system one."""
    folder = tmp_path / "verify"
    folder.mkdir(exist_ok=True)
    path = folder / service.UNIT
    path.write_text(unit_text)
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime)}
    args = ["systemd-analyze", "verify", *(["--user"] if user else []), str(path)]
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=60, check=False)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
@pytest.mark.parametrize("system", [False, True], ids=["user", "system"])
def test_systemd_analyze_accepts_the_unit(tmp_path, system):
    odd = tmp_path / "Ann's scores 100% $HOME"  # spaces, a quote, a specifier, a variable
    odd.mkdir()
    python = odd / "python 3$"
    python.symlink_to(sys.executable)
    wanted = a_service(tmp_path, system=system, workdir=odd, instance=odd, python=str(python))
    text = service.unit_text(wanted)
    result = verify(text, tmp_path, user=not system)
    assert result.returncode == 0, result.stderr
    assert "ExecStart=/usr/bin/env " in text  # systemd takes no such path as a program: env runs it
    # and it is a real check: a unit whose program is missing is refused
    broken = a_service(tmp_path, system=system, python="/nowhere/python")
    assert verify(service.unit_text(broken), tmp_path, user=not system).returncode != 0


def exposure(unit_text, tmp_path, threshold):
    """`systemd-analyze security --offline` on a system unit: its exit status past ``threshold``
    (tenths: 49 is "4.9", the top of "OK") and its verdict line."""
    folder = tmp_path / "security"
    folder.mkdir(exist_ok=True)
    path = folder / service.UNIT
    path.write_text(unit_text)
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", f"--threshold={threshold}", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return result.returncode, (result.stdout.strip().splitlines() or [""])[-1]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_security_rates_the_system_unit_ok(tmp_path):
    """The boot service's sandbox, as systemd rates it: "OK" (at most 4.9 of 10) where a
    bare unit is "UNSAFE"; the threshold is a real check, as the bare unit shows."""
    wanted = a_service(tmp_path, system=True, user="nobody")
    status, verdict = exposure(service.unit_text(wanted), tmp_path, 49)
    assert status == 0 and verdict.endswith(("OK 🙂", "SAFE 😀")), verdict
    bare = "\n".join(line for line in service.unit_text(wanted).splitlines() if line not in service.HARDENING)
    status, verdict = exposure(bare, tmp_path, 49)
    assert status != 0, verdict


# --- the command ------------------------------------------------------------------------------


@pytest.fixture
def systemd(tmp_path, monkeypatch):
    """systemd "running" (its marker folder), a unit folder under tmp_path, and a systemctl,
    loginctl, useradd, chown and runuser on PATH that record their arguments (one line per
    call) and succeed (this machine's users and services are not ours to change)."""
    booted = tmp_path / "run-systemd-system"
    booted.mkdir()
    monkeypatch.setattr(service, "BOOTED", booted)
    monkeypatch.setattr(service, "SYSTEM_UNIT_DIR", tmp_path / "etc-systemd-system")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    for name in ("systemctl", "loginctl", "useradd", "chown", "runuser"):
        tool = bin_dir / name
        tool.write_text(
            f'#!/bin/sh\necho "{name} $*" >> "{calls}"\n'
            '[ "$2" = "is-active" ] && echo active\n'
            # a unit that cannot start, as systemctl says so
            f'[ "$2" = "enable" ] && [ -e "{tmp_path}/fail-enable" ] && echo "Job failed" >&2 && exit 1\n'
            # a user who cannot read the app's folder
            f'[ "{name}" = runuser ] && [ -e "{tmp_path}/fail-runuser" ]'
            ' && echo "Permission denied" >&2 && exit 1\n'
            "exit 0\n"
        )
        tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return lambda: calls.read_text().splitlines() if calls.exists() else []


def test_install_status_and_remove_a_user_service(runner, app, systemd, tmp_path):
    unit = tmp_path / "config" / "systemd" / "user" / service.UNIT
    result = runner.invoke(args=["service", "install", "--user", "--port", "5050"])
    assert result.exit_code == 0, result.output
    text = unit.read_text()
    assert "--port 5050" in text and f"SCOREKEEPER_INSTANCE_PATH={app.instance_path}" in text
    assert f"SCOREKEEPER_DATABASE={app.config['DATABASE']}" in text  # not the instance folder's: passed on
    user = __import__("pwd").getpwuid(os.getuid()).pw_name
    assert systemd() == [
        "systemctl --user daemon-reload",
        f"systemctl --user enable --now {service.UNIT}",
        f"loginctl enable-linger {user}",
    ]
    assert "journalctl --user -u scorekeeper -f" in result.output
    assert not list(unit.parent.glob("*.partial"))

    status = runner.invoke(args=["service", "status", "--user"])
    assert (
        status.exit_code == 0 and f"Installed: {unit}" in status.output and "Running: active" in status.output
    )

    removed = runner.invoke(args=["service", "remove", "--user"])
    assert removed.exit_code == 0, removed.output
    assert not unit.exists()
    assert systemd()[-2:] == [
        f"systemctl --user disable --now {service.UNIT}",
        "systemctl --user daemon-reload",
    ]
    assert "Not installed" in runner.invoke(args=["service", "status", "--user"]).output
    assert "Not installed" in runner.invoke(args=["service", "remove", "--user"]).output


def test_an_install_that_cannot_start_leaves_nothing_behind(runner, systemd, tmp_path):
    (tmp_path / "fail-enable").touch()
    result = runner.invoke(args=["service", "install", "--user"])
    assert result.exit_code == 1
    assert "systemctl enable --now scorekeeper.service failed: Job failed" in result.output
    assert "Nothing is installed." in result.output
    assert not (tmp_path / "config" / "systemd" / "user" / service.UNIT).exists()
    assert systemd()[-1] == "systemctl --user daemon-reload"


def test_install_a_system_service_as_a_named_user(runner, app, systemd, tmp_path):
    result = runner.invoke(
        args=["service", "install", "--system", "--host", "192.168.1.20", "--as-user", "nobody"]
    )
    assert result.exit_code == 0, result.output
    text = (tmp_path / "etc-systemd-system" / service.UNIT).read_text()
    assert "--host 192.168.1.20 --port 5000" in text and "WantedBy=multi-user.target" in text
    assert "User=nobody" in text.splitlines() and "ProtectSystem=strict" in text.splitlines()
    # the scores file is kept outside the instance folder here: it is handed over too, and
    # its folder is writable (SQLite's journal goes beside it)
    assert f"ReadWritePaths=-{Path(app.config['DATABASE']).parent}" in text.splitlines()
    calls = systemd()
    assert calls[:2] == [f"chown -R nobody: {app.instance_path}", f"chown nobody: {app.config['DATABASE']}"]
    assert calls[2].startswith("runuser -u nobody -- /bin/sh -c")
    assert calls[3:] == ["systemctl daemon-reload", f"systemctl enable --now {service.UNIT}"]
    assert "journalctl -u scorekeeper -f" in result.output


@pytest.mark.skipif(os.geteuid() != 0, reason="a root-owned instance folder needs root to make")
def test_a_system_service_never_runs_as_root(runner, app, systemd, tmp_path):
    """The instance folder is root's (as after `sudo make run`): a system user is made for
    the service (unless this computer has one already), and the folder handed to it."""
    os.makedirs(app.instance_path, exist_ok=True)
    assert os.stat(app.instance_path).st_uid == 0
    result = runner.invoke(args=["service", "install", "--system"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "etc-systemd-system" / service.UNIT).read_text()
    assert f"User={service.SYSTEM_USER}" in text.splitlines()
    made = [call for call in systemd() if call.startswith("useradd")]
    if service._uid(service.SYSTEM_USER) is None:
        assert made == [
            "useradd --system --user-group --home-dir /nonexistent --no-create-home"
            f" --shell /usr/sbin/nologin {service.SYSTEM_USER}"
        ]
        assert f"Made the system user {service.SYSTEM_USER}" in result.output
    else:
        assert made == []
    assert f"chown -R {service.SYSTEM_USER}: {app.instance_path}" in systemd()
    for user, said in [
        ("root", "The service does not run as root: name another user (--as-user)."),
        ("no-such-user-here", "There is no user no-such-user-here on this computer."),
    ]:
        result = runner.invoke(args=["service", "install", "--system", "--as-user", user])
        assert result.exit_code == 1 and said in result.output, result.output


def test_a_user_who_cannot_run_the_app_gets_nothing_installed(runner, systemd, tmp_path):
    (tmp_path / "fail-runuser").touch()
    result = runner.invoke(args=["service", "install", "--system", "--as-user", "nobody"])
    assert result.exit_code == 1
    assert "nobody cannot run" in result.output and "/opt/scorekeeper" in result.output
    assert not (tmp_path / "etc-systemd-system" / service.UNIT).exists()
    assert not any(call.startswith("systemctl") for call in systemd())


def test_where_systemd_is_not_running_nothing_changes(runner, tmp_path, monkeypatch):
    monkeypatch.setattr(service, "BOOTED", tmp_path / "no-such-folder")
    monkeypatch.setattr(service, "SYSTEM_UNIT_DIR", tmp_path / "etc-systemd-system")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for command in (["install"], ["install", "--system"], ["remove"], ["status"]):
        result = runner.invoke(args=["service", *command])
        assert result.exit_code == 1, result.output
        assert (
            "systemd is not running on this computer" in result.output
            and "nothing was changed" in result.output
        )
    assert not (tmp_path / "config").exists() and not (tmp_path / "etc-systemd-system").exists()


def test_the_unit_command_prints_what_install_writes(runner, app):
    result = runner.invoke(args=["service", "unit", "--user", "--port", "8000"])
    assert result.exit_code == 0
    assert (
        f"ExecStart={Path(sys.executable).absolute()} -m scorekeeper.serve --host 0.0.0.0 --port 8000"
        in result.output
    )
