"""Long commands show their progress (issue 21): Click's progress bar with counts on
stderr when it is a terminal (a real pseudo-terminal here), nothing with --quiet or
when it is not one, and one line saying what was done either way."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest

GAMES = 40


@pytest.fixture
def env(tmp_path):
    return {
        **os.environ,
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"),
        "SCOREKEEPER_DATABASE": str(tmp_path / "family.db"),
        "COLUMNS": "100",
    }


def flask(*args):
    return [sys.executable, "-m", "flask", "--app", "scorekeeper", *args]


def in_a_terminal(args, env):
    """Run the command with a pseudo-terminal as its stdin, stdout and stderr; (exit code, all it wrote)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(args, stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    out = b""
    try:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the command ended and closed the terminal
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(leader)
        code = process.wait(timeout=30)
    return code, out.decode("utf-8", "replace")


def in_a_pipe(args, env):
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=30, check=False)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.long
@pytest.mark.timeout(120)  # three commands, each a Python process that imports the app
def test_demo_data_shows_a_bar_on_a_terminal_and_nothing_else_elsewhere(env):
    code, out = in_a_terminal(flask("demo-data", "--games", str(GAMES), "--seed", "1"), env)
    assert code == 0, out
    assert "Making games" in out and f"{GAMES}/{GAMES}" in out
    assert out.rstrip().splitlines()[-1].startswith(f"Added {GAMES} games (")

    code, out = in_a_terminal(flask("demo-data", "--games", "5", "--quiet"), env)
    assert code == 0 and "Making games" not in out and "Added 5 games" in out
    code, out = in_a_pipe(flask("demo-data", "--games", "5"), env)
    assert code == 0 and "Making games" not in out and out.strip().startswith("Added 5 games")


@pytest.mark.long
@pytest.mark.timeout(120)  # nine commands, each a Python process that imports the app
def test_export_import_backup_and_restore_show_their_bars(env, tmp_path):
    assert in_a_pipe(flask("demo-data", "--games", str(GAMES), "--seed", "2"), env)[0] == 0
    history = tmp_path / "history.json"
    code, out = in_a_terminal(flask("export", str(history)), env)
    assert code == 0, out
    assert "Exporting games" in out and f"{GAMES}/{GAMES}" in out
    assert f"Exported {GAMES} games to {history} (JSON)." in out
    code, out = in_a_terminal(flask("export", "-q", str(tmp_path / "history.csv")), env)
    assert code == 0 and "Exporting games" not in out and f"Exported {GAMES} games" in out

    other = {**env, "SCOREKEEPER_DATABASE": str(tmp_path / "other.db")}
    assert in_a_pipe(flask("init-db"), other)[0] == 0
    code, out = in_a_terminal(flask("import", str(history)), other)
    assert code == 0, out
    assert "Checking games" in out and "Importing games" in out and f"{GAMES}/{GAMES}" in out
    assert f"Imported {GAMES} games" in out
    code, out = in_a_pipe(flask("import", str(history)), other)
    assert "Importing games" not in out and "0 games" in out

    copy = tmp_path / "copy.db"
    code, out = in_a_terminal(flask("backup", str(copy)), env)
    assert code == 0 and "Copying pages" in out and f"Backed up {env['SCOREKEEPER_DATABASE']}" in out, out
    code, out = in_a_terminal(flask("restore", str(copy)), other)
    assert code == 0 and "Restoring pages" in out and f"Restored {copy}" in out, out
    code, out = in_a_terminal(flask("restore", "--quiet", str(copy)), other)
    assert code == 0 and "Restoring pages" not in out and f"Restored {copy}" in out, out
