"""When the computer fails: a full disk, a read-only disk, the scores file moved away,
an input/output error. Each answer is a page that says what happened and what to do
(507 or 503, never 500), with what was typed kept; nothing half-written; the app
recovers by itself once the fault is gone; every acknowledged round is kept.

These run `make run`'s own server on a real small disk (a tmpfs this test mounts:
it needs root or `sudo -n`, as `make test`'s set-up does) or, for the I/O error,
under a file-size limit set on the server process (``prlimit``), so that the
operating system itself refuses its writes.
"""

import contextlib
import datetime
import html
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.exchange import autobackup, backup
from scorekeeper.storage import faults
from tests.helpers import served
from tests.httpkit import (
    FlaskPhone,
    HttpPhone,
    check_round,
    make_app,
    migrated,
    press_save,
    query_db,
    save_round,
    share_token,
    start_game,
)

pytestmark = pytest.mark.timeout(120)

ROUND = {"went_out": "0", 0: {"book_clean": 1, "melded_points": 150}, 1: {"melded_points": 60}}
FULL = "has no room left on its disk"
READ_ONLY = "cannot write to its scores file"
MISSING = "The scores file is gone from the folder"
IO = "could not read or write its disk"


def _mount(*args):
    command = ["mount", *args] if os.geteuid() == 0 else ["sudo", "-n", "mount", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.fixture
def small_disk(tmp_path):
    """A folder on a tmpfs of ``size`` bytes (``small_disk(size)``), unmounted afterwards."""
    mounted = []

    def make(size, name="disk"):
        folder = tmp_path / name
        folder.mkdir()
        done = _mount("-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder))
        if done.returncode != 0:
            pytest.skip(f"mounting a small disk needs root or sudo -n: {done.stderr.strip()}")
        mounted.append(folder)
        return folder

    yield make
    for folder in mounted:
        command = ["umount", "-l", str(folder)]
        subprocess.run(command if os.geteuid() == 0 else ["sudo", "-n", *command], check=False)


def remount(folder, how):
    done = _mount("-o", f"remount,{how}", str(folder))
    assert done.returncode == 0, done.stderr


@contextlib.contextmanager
def server(tmp_path, database):
    instance = tmp_path / "instance"
    instance.mkdir(exist_ok=True)
    with served(instance, database) as (process, port):
        yield HttpPhone("127.0.0.1", port), process


def assert_told(resp, words, status):
    """A page that says ``words``, under ``status``: no traceback, no generic error."""
    assert resp.status == status, f"{resp.status}: {resp.text[:300]}"
    assert words in resp.text
    assert "Internal Server Error" not in resp.text and "Traceback" not in resp.text


def typed(resp, name, value):
    """Whether the page keeps ``value`` in the field ``name`` (what was typed)."""
    return re.search(rf'name="{re.escape(name)}"[^>]*value="{re.escape(value)}"', resp.text) or re.search(
        rf'value="{re.escape(value)}"[^>]*name="{re.escape(name)}"', resp.text
    )


def rounds_in(database, game):
    return query_db(database, "SELECT count(*) FROM rounds WHERE game_id = ?", (game,))[0][0]


def integrity(database):
    return query_db(database, "PRAGMA integrity_check")[0][0]


@pytest.mark.long
def test_a_full_disk_says_so_keeps_what_was_typed_and_saves_again_once_freed(tmp_path, small_disk):
    """Rounds saved one after another until the disk is full: every answer is a save or
    the full-disk page with the round's values (507); the pages that only read keep
    working; a new game is refused the same way; once space is freed the next save
    works, without a restart, and every acknowledged round is there."""
    disk = small_disk(1024 * 1024)
    database = disk / "scorekeeper.db"
    migrated(database)
    filler = disk / "filler"
    filler.write_bytes(b"\0" * 200 * 1024)  # freed at the end: the family's spring cleaning
    with server(tmp_path, database) as (phone, _):
        game = start_game(phone, "partnership")
        token = share_token(phone, game)
        saved = refused = 0
        for n in range(200):
            values = {**ROUND, 0: {**ROUND[0], "melded_points": 150 + 5 * n}}
            review = check_round(phone, f"/games/{game}/rounds/new", values)
            resp = press_save(phone, review)
            if resp.status == 303:
                saved += 1
                continue
            assert_told(resp, FULL, 507)
            assert f"round {review.number} was not saved" in resp.text and "tap Save again" in resp.text
            assert typed(resp, "teams-0-melded_points", str(150 + 5 * n)), "the typed points are gone"
            assert 'value="save"' in resp.text  # the review again, with its Save button
            refused += 1
            if refused == 3:
                break
        assert saved >= 1 and refused == 3, (saved, refused)
        # reading still works on the full disk: the pages, the sheet, the share view
        for url in ("/", f"/games/{game}", "/history", "/players", f"/games/{game}/sheet.pdf", f"/s/{token}"):
            assert phone.get(url).status == 200, url
        form, page = phone.open_form("/games/new")
        names = {"teams-0-players-0": "Ann", "teams-0-players-1": "Bo", "teams-1-players-0": "Eve"}
        started = phone.submit(form, page, {**names, "teams-1-players-1": "Fay"})
        assert_told(started, FULL, 507)
        assert "Send again" in started.text and typed(started, "teams-1-players-0", "Eve")
        # space freed: the very review the phone still shows saves now
        filler.unlink()
        again = press_save(phone, review)
        assert again.status == 303, again.text[:300]
        saved += 1
    assert rounds_in(database, game) == saved
    assert integrity(database) == "ok"


@pytest.mark.long
def test_a_read_only_disk_shows_the_scores_and_refuses_a_change_until_it_is_writable(tmp_path, small_disk):
    """The disk turned read-only (as a failing SD card is remounted): the app still
    shows the game; a save is refused with the read-only page (503) and its values;
    once the disk is writable again the same save goes through."""
    disk = small_disk(8 * 1024 * 1024)
    database = disk / "scorekeeper.db"
    migrated(database)
    with server(tmp_path, database) as (phone, _):
        game = start_game(phone, "partnership")
        assert save_round(phone, game, ROUND).status == 303
    remount(disk, "ro")
    with server(tmp_path, database) as (phone, _):
        assert phone.get(f"/games/{game}").status == 200
        review = check_round(phone, f"/games/{game}/rounds/new", ROUND)
        refused = press_save(phone, review)
        assert_told(refused, READ_ONLY, 503)
        assert typed(refused, "teams-0-melded_points", "150")
        remount(disk, "rw")
        assert press_save(phone, review).status == 303
    assert rounds_in(database, game) == 2 and integrity(database) == "ok"


@pytest.mark.long
def test_the_scores_file_moved_away_while_serving_is_said_and_nothing_goes_elsewhere(tmp_path):
    """The file moved (or deleted) while the app runs: a save is refused (503) with its
    values kept in a form that sends them again, never written into the file that is
    gone nor into a new empty one; moved back, the same save goes through."""
    database = tmp_path / "scorekeeper.db"
    migrated(database)
    away = tmp_path / "moved-away.db"
    with server(tmp_path, database) as (phone, _):
        game = start_game(phone, "partnership")
        review = check_round(phone, f"/games/{game}/rounds/new", ROUND)
        database.rename(away)
        refused = press_save(phone, review)
        assert_told(refused, MISSING, 503)
        assert "Send again" in refused.text or 'value="save"' in refused.text
        assert typed(refused, "teams-0-melded_points", "150")
        assert not database.exists(), "an empty database was made in its place"
        page = phone.get(f"/games/{game}")
        assert_told(page, MISSING, 503)
        assert rounds_in(away, game) == 0
        away.rename(database)
        assert press_save(phone, review).status == 303
        assert phone.get(f"/games/{game}").status == 200
    assert rounds_in(database, game) == 1 and integrity(database) == "ok"


@pytest.mark.long
def test_an_input_output_error_is_said_and_the_next_save_works_once_it_is_gone(tmp_path):
    """The operating system refuses the server's writes (a file-size limit of 0 set on
    its process stands in for a failing disk): the save answers the I/O error page
    (503) with its values; nothing is half-written; with the limit lifted it saves."""
    database = tmp_path / "scorekeeper.db"
    migrated(database)
    with server(tmp_path, database) as (phone, process):
        game = start_game(phone, "partnership")
        review = check_round(phone, f"/games/{game}/rounds/new", ROUND)
        limits = resource.prlimit(process.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (0, limits[1]))
        try:
            refused = press_save(phone, review)
        finally:
            resource.prlimit(process.pid, resource.RLIMIT_FSIZE, limits)
        assert_told(refused, IO, 503)
        assert typed(refused, "teams-0-melded_points", "150")
        assert rounds_in(database, game) == 0
        assert press_save(phone, review).status == 303
    assert rounds_in(database, game) == 1 and integrity(database) == "ok"


# --- the backups never fill their disk ------------------------------------------------------


@pytest.fixture
def backed_up(tmp_path, small_disk, monkeypatch):
    """The app with automatic backups into a 4 MB disk of their own (the floor: 10 % of
    it), its worker on a clock the test moves; a phone."""
    disk = small_disk(4 * 1024 * 1024, "backups")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_BACKUP_DIR", str(disk))
    monkeypatch.delenv("SCOREKEEPER_DATABASE", raising=False)
    app = make_app(tmp_path / "scorekeeper.db")
    app.config["BACKUPS_AUTOMATIC"] = True
    auto = autobackup.for_app(app)
    auto.clock = clock = Clock()
    yield app, FlaskPhone(app), auto, clock, disk
    auto.stop()
    assert auto.wait()


class Clock:
    def __init__(self):
        self.now = datetime.datetime(2026, 1, 5, 19, 30, tzinfo=datetime.UTC)

    def __call__(self):
        return self.now


def test_backups_prune_the_oldest_then_skip_and_never_take_the_disks_last_tenth(backed_up):
    """A copy an hour onto a disk that other files fill up: the free space never goes
    under the floor; the oldest copies make room first (the newest always stays); when
    even that is not enough the copy is skipped, said in the log and on the settings
    page, and nothing is removed; once space is freed, copies are made again."""
    _app, phone, auto, clock, disk = backed_up
    floor = faults.space(disk).floor
    assert floor == 4 * 1024 * 1024 // 10
    game = start_game(phone, "partnership")
    assert auto.wait() and len(autobackup.list_backups(disk)) == 1
    size = backup.copy_size(auto.database)
    fillers, pruned, skipped = [], False, False
    for hour in range(1, 40):
        clock.now += datetime.timedelta(hours=1, seconds=1)
        before = autobackup.list_backups(disk)
        assert save_round(phone, game, ROUND).status == 303
        assert auto.wait()
        after = autobackup.list_backups(disk)
        assert shutil.disk_usage(disk).free >= floor, f"hour {hour}: under the floor"
        if auto.last_error:
            assert "was skipped" in auto.last_error[1]
            assert after == before, "a skipped copy removed a backup"
            skipped = True
            break
        assert after[0].made == clock.now.replace(microsecond=0)
        if len(after) <= len(before):
            pruned = True
            assert before[-1] not in after  # the oldest went first
        # another program takes a copy's worth of the disk every other hour
        if hour % 2 == 0:
            filler = disk / f"other-{hour}"
            filler.write_bytes(b"\0" * size)
            fillers.append(filler)
    assert pruned and skipped
    page = html.unescape(phone.get("/settings").text)
    assert "was skipped" in page and "free some space on that disk" in page
    # the backups' disk as it is now: its free space, to the unit the page shows it in
    usage = shutil.disk_usage(disk)
    assert (
        f"Free space, the backups</dt><dd>{faults.size_text(usage.free)} of {faults.size_text(usage.total)}"
        in page
    )
    for filler in fillers:
        filler.unlink()
    clock.now += datetime.timedelta(hours=1, seconds=1)
    assert save_round(phone, game, ROUND).status == 303
    assert auto.wait() and auto.last_error is None
    assert autobackup.list_backups(disk)[0].made == clock.now.replace(microsecond=0)


def test_the_settings_page_shows_each_disks_free_space_and_warns_when_one_is_low(backed_up):
    _app, phone, _auto, _clock, disk = backed_up
    page = html.unescape(phone.get("/settings").text)
    assert "Free space, the scores" in page and "Free space, the backups" in page
    assert "nearly full" not in page
    free = shutil.disk_usage(disk).free
    (disk / "big").write_bytes(b"\0" * (free - 100 * 1024))
    page = html.unescape(phone.get("/settings").text)
    assert "The disk that holds the backups is nearly full" in page
    assert "backups stop when less than 410\u00a0KB is left" in page


# --- doctor -----------------------------------------------------------------------------------


def doctor(tmp_path, database, *args):
    """`flask … doctor` as the family runs it (the backups in instance/backups, as the server made them)."""
    env = {
        **os.environ,
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"),
        "SCOREKEEPER_DATABASE": str(database),
    }
    for name in ("SCOREKEEPER_BACKUP_DIR", "BACKUP_DIR"):
        env.pop(name, None)
    flask = Path(sys.executable).with_name("flask")
    return subprocess.run(
        [str(flask), "--app", "scorekeeper", "doctor", "--port", "0", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.long
def test_doctor_says_all_is_well_on_a_healthy_install_and_what_to_fix_on_a_full_disk(tmp_path, small_disk):
    disk = small_disk(2 * 1024 * 1024)
    database = disk / "scorekeeper.db"
    migrated(database)
    with server(tmp_path, database) as (phone, _):
        start_game(phone, "partnership")  # and, as the server stops, its backup
    healthy = doctor(tmp_path, database)
    assert healthy.returncode == 0, healthy.stdout + healthy.stderr
    lines = healthy.stdout.splitlines()
    for check in ("database", "database folder", "disk space", "backups", "secret key", "port"):
        assert any(line.startswith(f"ok   {check}:") for line in lines), (check, healthy.stdout)
    assert "passes integrity_check; 1 games" in healthy.stdout and lines[-1] == "All is well."
    (disk / "filler").write_bytes(b"\0" * shutil.disk_usage(disk).free)
    full = doctor(tmp_path, database)
    assert full.returncode == 1
    assert re.search(r"^FIX  database folder: .* has no room left on its disk", full.stdout, re.M), (
        full.stdout
    )
    assert re.search(r"^FIX  disk space: 0 KB free of 2\.0 MB .*Free some space", full.stdout, re.M), (
        full.stdout
    )
    assert "ok   database:" in full.stdout  # the scores themselves are sound
