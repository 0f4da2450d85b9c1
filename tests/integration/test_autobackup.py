"""Automatic backups (issue 21): after a change, at most once an hour and when a game
ends, a checked copy in the backups folder, kept in hourly, daily and weekly buckets.

Rounds are saved over real requests (``FlaskPhone`` closes each response, as a
server does, which is when the app looks at its backups); the test waits on
the app's worker (``AutoBackup.wait``), never on time, and moves the worker's
clock itself.
"""

from __future__ import annotations

import datetime
import sqlite3
import subprocess
import sys

import pytest

from scorekeeper.exchange import autobackup

from ..helpers import served
from ..httpkit import FlaskPhone, HttpPhone, end_game, make_app, reopen_game, save_round, start_game

ROUND = {"went_out": "0", 0: {"book_clean": 1, "melded_points": 150}, 1: {"melded_points": 60}}
START = datetime.datetime(2026, 1, 5, 19, 30, tzinfo=datetime.UTC)  # a Monday evening


class Clock:
    """A clock the test moves."""

    def __init__(self, now=START):
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, **delta):
        self.now += datetime.timedelta(**delta)


@pytest.fixture
def family(tmp_path, monkeypatch):
    """The app with automatic backups on, its worker on a clock the test moves; a phone."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("SCOREKEEPER_DATABASE", raising=False)
    monkeypatch.delenv("SCOREKEEPER_BACKUP_DIR", raising=False)
    monkeypatch.delenv("BACKUP_DIR", raising=False)
    app = make_app(tmp_path / "scorekeeper.db")
    app.config["BACKUPS_AUTOMATIC"] = True
    auto = autobackup.for_app(app)
    auto.clock = clock = Clock()
    yield app, FlaskPhone(app), auto, clock
    assert auto.stop() and auto.wait(), "the worker did not end"


def rows(path, sql):
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def backups(auto):
    return autobackup.list_backups(auto.folder)


def test_a_saved_round_leaves_a_sound_backup_holding_it(family, tmp_path):
    _app, phone, auto, clock = family
    assert auto.folder == tmp_path / "instance" / "backups"
    game = start_game(phone, "tablet")
    assert auto.wait()
    [first] = backups(auto)  # the first change of all: copied at once
    assert rows(first.path, "SELECT count(*) FROM games") == [(1,)]
    assert rows(first.path, "SELECT count(*) FROM rounds") == [(0,)]

    clock.advance(hours=1, seconds=1)
    assert save_round(phone, game, ROUND).status == 303
    assert auto.wait()
    newest = backups(auto)[0]
    assert newest.path != first.path and newest.made == clock.now.replace(microsecond=0)
    assert rows(newest.path, "PRAGMA integrity_check") == [("ok",)]
    assert rows(newest.path, "SELECT number FROM rounds") == [(1,)]
    assert sorted(rows(newest.path, "SELECT melded_points FROM round_entries")) == [(60,), (150,)]
    # one self-contained file, nothing left beside it
    assert sorted(p.name for p in auto.folder.iterdir()) == sorted(b.name for b in backups(auto))


def test_at_most_one_an_hour_and_the_change_waits_for_its_hour(family):
    _app, phone, auto, clock = family
    game = start_game(phone, "tablet")
    assert auto.wait()
    clock.advance(minutes=10)
    assert save_round(phone, game, ROUND).status == 303
    assert auto.wait()  # nothing due: the worker sleeps until the hour is up
    assert len(backups(auto)) == 1
    assert rows(backups(auto)[0].path, "SELECT count(*) FROM rounds") == [(0,)]
    clock.advance(minutes=50)
    auto.wake()
    assert auto.wait()
    assert len(backups(auto)) == 2
    assert rows(backups(auto)[0].path, "SELECT count(*) FROM rounds") == [(1,)]
    # nothing changed since: the clock moving on makes no copy
    clock.advance(hours=3)
    auto.wake()
    assert auto.wait() and len(backups(auto)) == 2


def test_a_game_that_ends_is_backed_up_at_once(family):
    _app, phone, auto, clock = family
    game = start_game(phone, "tablet")
    assert save_round(phone, game, ROUND).status == 303
    assert auto.wait()
    clock.advance(minutes=5)
    assert end_game(phone, game).status == 303
    assert auto.wait()
    # made at once; the copy of 19:30 is gone, as the newest of its hour is kept
    [newest] = backups(auto)
    assert newest.made == clock.now
    assert rows(newest.path, "SELECT finished_at IS NOT NULL FROM games") == [(1,)]
    # a game reopened and ended again: at once too
    clock.advance(hours=1, minutes=5)
    assert reopen_game(phone, game).status == 303
    assert auto.wait() and len(backups(auto)) == 2
    clock.advance(minutes=5)
    assert end_game(phone, game).status == 303
    assert auto.wait() and backups(auto)[0].made == clock.now


def test_a_page_that_changes_nothing_makes_no_backup(family):
    _app, phone, auto, _clock = family
    for url in ("/", "/history", "/rules", "/settings"):
        assert phone.get(url).status == 200
    assert auto.wait() and backups(auto) == []


def test_an_unwritable_folder_leaves_saving_alone_and_the_settings_page_says_why(family, tmp_path, caplog):
    app, phone, auto, _clock = family
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be")
    auto.folder = blocker / "backups"
    game = start_game(phone, "tablet")
    assert auto.wait()
    assert save_round(phone, game, ROUND).status == 303
    assert auto.wait()
    assert rows(app.config["DATABASE"], "SELECT count(*) FROM rounds") == [(1,)]
    assert auto.last_error is not None
    assert any(
        r.levelname == "WARNING" and f"automatic backup into {auto.folder} failed" in r.getMessage()
        for r in caplog.records
    )
    page = phone.get("/settings").text
    assert "Backups cannot be written" in page and "The last automatic backup failed" in page
    assert str(blocker) in page
    # the folder fixed: the next change is backed up and the message goes
    auto.folder = tmp_path / "usb"
    assert save_round(phone, game, ROUND).status == 303
    assert auto.wait() and len(backups(auto)) == 1
    assert "Backups cannot be written" not in phone.get("/settings").text


def test_a_failed_copy_never_costs_an_old_one(family, tmp_path):
    _app, phone, auto, clock = family
    game = start_game(phone, "tablet")
    assert auto.wait()
    [kept] = backups(auto)
    real = auto.database
    auto.database = tmp_path / "gone.db"  # the copy fails: no database there
    clock.advance(hours=2)
    assert save_round(phone, game, ROUND).status == 303
    assert auto.wait()
    assert auto.last_error and backups(auto) == [kept]
    auto.database = real


def test_a_full_disk_costs_the_new_copy_never_an_old_one(family):
    """The copy is written by a process that may write no more than 4 KB to a file (as a
    full disk refuses the rest, mid-file): it fails, leaves nothing, and the old copy stays."""
    _app, phone, auto, _clock = family
    start_game(phone, "tablet")
    assert auto.wait()
    [old] = backups(auto)
    before = old.path.read_bytes()
    assert len(before) > 4096
    script = f"""
import datetime, resource, signal
from scorekeeper.exchange import autobackup
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
later = datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC)
auto = autobackup.AutoBackup({str(auto.database)!r}, {str(auto.folder)!r}, clock=lambda: later)
try:
    auto.make()
except OSError as error:
    print("refused:", error)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 0 and done.stdout.startswith("refused:"), done.stdout + done.stderr
    assert [p.name for p in auto.folder.iterdir()] == [old.name]
    assert old.path.read_bytes() == before


def test_what_a_killed_copy_left_is_swept_and_other_files_are_left_alone(family):
    _app, phone, auto, _clock = family
    auto.folder.mkdir(parents=True)
    leftover = auto.folder / "scorekeeper-20260105T180000Z.db.partial-1a2b3c4d"
    leftover.write_bytes(b"half a copy")
    theirs = auto.folder / "photos.zip"
    theirs.write_bytes(b"not ours")
    start_game(phone, "tablet")
    assert auto.wait()
    assert not leftover.exists() and theirs.exists()
    assert sorted(p.name for p in auto.folder.iterdir()) == sorted([theirs.name, backups(auto)[0].name])


def test_a_change_still_waiting_for_its_hour_is_copied_as_the_app_stops(family):
    _app, phone, auto, clock = family
    game = start_game(phone, "tablet")
    assert auto.wait()
    clock.advance(minutes=20)
    assert save_round(phone, game, ROUND).status == 303
    assert auto.wait() and len(backups(auto)) == 1
    clock.advance(hours=1)  # another hour: flush() makes its own copy, not the sleeping worker
    auto.flush()
    assert rows(backups(auto)[0].path, "SELECT count(*) FROM rounds") == [(1,)]
    assert len(backups(auto)) == 2


def test_the_settings_page_says_where_when_and_how_many_and_downloads_the_latest(family):
    _app, phone, auto, _clock = family
    page = phone.get("/settings").text
    # the folder, breakable after each slash (a <wbr>) on a narrow phone
    assert str(auto.folder).replace("/", "/<wbr>") in page
    assert "none yet" in page and "Download the latest" not in page
    assert phone.get("/backups/latest").status == 404
    start_game(phone, "tablet")
    assert auto.wait()
    page = phone.get("/settings").text
    assert "Download the latest" in page and "the last 24 hourly, 14 daily and 8 weekly" in page
    assert "<dt>Kept</dt><dd>1 " in page
    download = phone.get("/backups/latest")
    assert download.status == 200
    assert download.body.startswith(b"SQLite format 3\x00")
    assert backups(auto)[0].name in download.headers["content-disposition"]


def test_the_download_asks_for_the_passcode(family):
    app, phone, auto, _clock = family
    start_game(phone, "tablet")
    assert auto.wait()
    assert app.test_cli_runner().invoke(args=["passcode", "--stdin"], input="table-7\n").exit_code == 0
    stranger = FlaskPhone(app)
    resp = stranger.get("/backups/latest")
    assert resp.status == 303 and "/sign-in" in resp.location
    assert b"SQLite" not in resp.body


def test_backup_dir_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("BACKUP_DIR", str(tmp_path / "synced"))
    app = make_app(tmp_path / "scorekeeper.db")
    assert autobackup.for_app(app).folder == tmp_path / "synced"


# --- rotation ---------------------------------------------------------------------------


def hourly_names(start, hours):
    return [
        f"scorekeeper-{(start + datetime.timedelta(hours=h)).strftime('%Y%m%dT%H%M%SZ')}.db"
        for h in range(hours)
    ]


def test_rotation_keeps_exactly_the_configured_counts(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    start = datetime.datetime(2026, 1, 5, tzinfo=datetime.UTC)  # Monday of ISO week 2
    for name in hourly_names(start, 70 * 24):  # ten weeks, one an hour: to Sunday 2026-03-15 23:00
        (folder / name).write_bytes(b"")
    (folder / "notes.txt").write_text("not a backup: left alone")
    removed = autobackup.prune(folder, autobackup.KEEP)
    kept = sorted(p.name for p in folder.iterdir() if p.name.endswith(".db"))
    last_day = [f"scorekeeper-20260315T{h:02}0000Z.db" for h in range(24)]  # 24 hourly
    days = [f"scorekeeper-202603{d:02}T230000Z.db" for d in range(2, 15)]  # 14 daily, the 15th above
    sundays = ["20260301", "20260222", "20260215", "20260208", "20260201", "20260125"]
    weeks = [f"scorekeeper-{d}T230000Z.db" for d in sundays]  # 8 weekly: 03-15 and 03-08 above
    assert kept == sorted(last_day + days + weeks)
    assert len(kept) == 24 + 13 + 6 and len(removed) == 70 * 24 - len(kept)
    assert (folder / "notes.txt").exists()


def test_rotation_follows_the_settings(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    start = datetime.datetime(2026, 1, 5, tzinfo=datetime.UTC)
    names = hourly_names(start, 5 * 24)
    for name in names:
        (folder / name).write_bytes(b"")
    autobackup.prune(folder, {"hourly": 2, "daily": 3, "weekly": 0})
    kept = sorted(p.name for p in folder.iterdir())
    assert kept == sorted([names[-2], names[-1], names[-1 - 24], names[-1 - 48]])


def test_rotation_through_the_worker_with_a_clock(tmp_path):
    """Two days of a change every hour through the worker itself: 24 hourly and the day before."""
    database = tmp_path / "scorekeeper.db"
    make_app(database)
    clock = Clock(datetime.datetime(2026, 1, 5, 0, 0, tzinfo=datetime.UTC))
    auto = autobackup.AutoBackup(database, tmp_path / "backups", clock=clock, keep={"daily": 2, "weekly": 1})
    for _ in range(48):
        auto.changed()
        assert auto.wait()
        clock.advance(hours=1)
    names = [b.name for b in backups(auto)]
    assert len(names) == 25
    assert names[0] == "scorekeeper-20260106T230000Z.db" and names[-1] == "scorekeeper-20260105T230000Z.db"


# --- the commands -----------------------------------------------------------------------


def test_backups_lists_time_size_and_games_and_restore_takes_the_latest_or_a_name(family):
    app, phone, auto, clock = family
    runner = app.test_cli_runner()
    assert "No automatic backup" in runner.invoke(args=["backups"]).output
    game = start_game(phone, "tablet")
    assert auto.wait()
    first = backups(auto)[0]
    clock.advance(hours=1)
    start_game(phone, "roth")
    assert auto.wait()
    second = backups(auto)[0]
    listed = runner.invoke(args=["backups"])
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert lines[0] == f"Backups in {auto.folder}:"
    assert [line.split()[0] for line in lines[1:]] == [second.name, first.name]  # newest first
    assert lines[1].endswith("2 games") and lines[2].endswith(" 1 game")
    assert f"{second.made.astimezone():%Y-%m-%d %H:%M}" in lines[1] and "KB" in lines[1]

    # a round saved since the newest copy: --latest brings back the two games without it
    assert save_round(phone, game, ROUND).status == 303
    restored = runner.invoke(args=["restore", "--latest"])
    assert restored.exit_code == 0, restored.output
    assert f"Restored {second.path}" in restored.output and "kept at" in restored.output
    assert rows(app.config["DATABASE"], "SELECT count(*) FROM rounds") == [(0,)]
    assert rows(app.config["DATABASE"], "SELECT count(*) FROM games") == [(2,)]
    # a name the list shows
    restored = runner.invoke(args=["restore", first.name])
    assert restored.exit_code == 0, restored.output
    assert rows(app.config["DATABASE"], "SELECT count(*) FROM games") == [(1,)]
    assert phone.get(f"/games/{game}").status == 200


def test_restore_checks_a_listed_backup_as_any_other(family):
    app, phone, auto, _clock = family
    runner = app.test_cli_runner()
    start_game(phone, "tablet")
    assert auto.wait()
    damaged = auto.folder / "scorekeeper-20990101T000000Z.db"  # the newest by its name
    damaged.write_bytes(backups(auto)[0].path.read_bytes()[:4096])
    refused = runner.invoke(args=["restore", "--latest"])
    assert refused.exit_code == 1 and "damaged" in refused.output, refused.output
    assert rows(app.config["DATABASE"], "SELECT count(*) FROM games") == [(1,)]
    assert "unreadable" in runner.invoke(args=["backups"]).output
    assert runner.invoke(args=["restore"]).exit_code == 2
    assert runner.invoke(args=["restore", "--latest", damaged.name]).exit_code == 2


def test_restore_latest_with_no_backup_says_so(app):
    result = app.test_cli_runner().invoke(args=["restore", "--latest"])
    assert result.exit_code == 1 and "No automatic backup in" in result.output


@pytest.mark.long
def test_the_served_app_backs_up_a_saved_round_by_the_time_it_stops(tmp_path):
    """`make run`'s server (in its own process), stopped as a service manager does."""
    instance = tmp_path / "instance"
    database = tmp_path / "family.db"
    make_app(database)
    with served(instance, database) as (server, port):
        phone = HttpPhone("127.0.0.1", port)
        game = start_game(phone, "tablet")
        assert save_round(phone, game, ROUND).status == 303
    assert server.returncode == 0  # stopped in order, its waiting change copied
    [newest, *_] = autobackup.list_backups(instance / "backups")
    assert rows(newest.path, "PRAGMA integrity_check") == [("ok",)]
    assert rows(newest.path, "SELECT number FROM rounds") == [(1,)]
    assert sorted(rows(newest.path, "SELECT melded_points FROM round_entries")) == [(60,), (150,)]
