"""A file the app writes whole survives a power cut as the old file or the new, never an
empty one (issue 53: an empty passcode file opened the app): its data is synced to the
disk before it takes its name, and its folder after, so the new name is on the disk too.

A power cut cannot be made in a test, so the order is read where it happens: the system
calls themselves. The test attaches strace to its own process (``strace -p``), takes the
family's way (the passcode set at the computer, ``flask … https``, ``flask … backup``), and
reads back, for each file renamed into place, whether the file was synced between being
written and renamed, and whether its folder was synced after. Nothing of the app is
replaced or wrapped.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import time

import pytest

TRACED = "trace=openat,fsync,fdatasync,close,rename,renameat,renameat2,link,linkat"
CALL = re.compile(r"^(?:\[pid\s+\d+\]\s+|\d+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+)")


@contextlib.contextmanager
def system_calls(log):
    """Trace this process's system calls (every thread) into ``log`` while inside."""
    strace = shutil.which("strace")
    assert strace, "strace is missing: `make test` installs it (scripts/system-packages)"
    tracer = subprocess.Popen(
        [strace, "-f", "-qq", "-p", str(os.getpid()), "-o", str(log), "-e", TRACED],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # strace says nothing with -qq once attached: the first line it writes to the log is
        # a system call of ours, so wait for one we make on purpose
        probe, deadline = log.with_name("attached"), time.monotonic() + 10
        while not (log.exists() and str(probe) in log.read_text()):
            if tracer.poll() is not None or time.monotonic() > deadline:
                pytest.skip(f"strace cannot attach to this process: {tracer.stderr.read().strip()}")
            os.close(os.open(probe, os.O_CREAT | os.O_WRONLY, 0o600))
            time.sleep(0.002)  # strace attaching: a moment, not a decision
        yield
    finally:
        tracer.terminate()
        tracer.wait(timeout=10)
        tracer.stderr.close()


def calls(log):
    """The traced calls in order: (name, [its quoted strings], first number argument,
    whether it creates a file, result)."""
    found = []
    for line in log.read_text().splitlines():
        matched = CALL.match(line.strip())
        if matched:
            name, args, result = matched.groups()
            strings = re.findall(r'"([^"]*)"', args)
            number = re.match(r"\s*(\d+)", args)
            found.append((name, strings, int(number[1]) if number else None, "O_CREAT" in args, int(result)))
    return found


def steps_for(traced, path):
    """What happened to ``path``, in order, as written whole: "written" (a new file opened
    beside it), "file synced" (that file's descriptor synced before it was closed),
    "renamed" (moved or linked into ``path``), "folder synced" (``path``'s folder opened
    and synced after that)."""
    steps, written, folder_fd, partial = [], None, None, None
    folder = os.path.dirname(path)
    for name, strings, number, creates, result in traced:
        if name == "openat" and creates and strings[0].startswith(path + ".") and result >= 0:
            steps, written, partial, folder_fd = ["written"], result, strings[0], None
        elif name in ("fsync", "fdatasync") and written is not None and number == written:
            steps.append("file synced")
        elif name == "close" and number == written:
            written = None
        elif name.startswith(("rename", "link")) and partial in strings and path in strings:
            steps.append("renamed")
        elif name == "openat" and strings[:1] == [folder] and steps[-1:] == ["renamed"] and result >= 0:
            folder_fd = result
        elif name in ("fsync", "fdatasync") and folder_fd is not None and number == folder_fd:
            steps.append("folder synced")
            folder_fd = None
    return steps


WHOLE = ["written", "file synced", "renamed", "folder synced"]


def test_the_passcode_set_at_the_computer_is_synced_before_its_name_and_its_folder_after(
    app, runner, tmp_path
):
    log = tmp_path / "strace.log"
    with system_calls(log):
        result = runner.invoke(args=["passcode", "--stdin"], input="Plum-2024\n")
    assert result.exit_code == 0, result.output
    assert steps_for(calls(log), os.path.join(app.instance_path, "passcode")) == WHOLE


def test_the_certificates_are_synced_before_their_names_and_their_folder_after(app, runner, tmp_path):
    log = tmp_path / "strace.log"
    with system_calls(log):
        result = runner.invoke(args=["https"])
    assert result.exit_code == 0, result.output
    traced = calls(log)
    folder = os.path.join(app.instance_path, "https")
    written = {name: steps_for(traced, os.path.join(folder, name)) for name in sorted(os.listdir(folder))}
    files = ["household-root.key", "household-root.pem", "server.key", "server.pem"]
    assert written == dict.fromkeys(files, WHOLE)


def test_a_backup_is_synced_before_its_name_and_its_folder_after(app, runner, tmp_path):
    log = tmp_path / "strace.log"
    target = tmp_path / "backups" / "by-hand.db"
    target.parent.mkdir()
    with system_calls(log):
        result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert steps_for(calls(log), str(target)) == WHOLE
