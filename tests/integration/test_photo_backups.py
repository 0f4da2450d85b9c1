"""The photos of the sheets in the backups (issue 55): an automatic backup taken after a
photo was kept carries it beside its file (``scorekeeper-<time>.photos/``), linked to the
photo rather than copied on the same disk, and goes with its backup; a restore brings the
photos back owner-only, those of the restored games alone, so that a game removed for good
never comes back with its photo; `flask backup` carries them too. Real requests on a real
SQLite file, the app's own worker waited on, its clock moved by the test.

The photos are kept as ``printing.photos.take`` keeps them (``test_photos.keep_reading``):
reading one is the reader's tests' subject, and takes seconds.
"""

import datetime
import os
import shutil
import stat
import tempfile
import types
from pathlib import Path

import pytest

from scorekeeper.services import deleted
from scorekeeper.storage import photos as kept
from scorekeeper.storage.db import connect

from ..httpkit import FlaskPhone, save_round, start_game
from . import test_autobackup
from .test_autobackup import ROUND, backups, rows
from .test_photos import keep_reading

family = test_autobackup.family  # the app with automatic backups on, its worker on a clock; a phone


def game_of(app, game_id):
    """The game as ``keep_reading`` takes it (its uid alone is used)."""
    [(uid,)] = rows(app.config["DATABASE"], f"SELECT uid FROM games WHERE id = {int(game_id)}")
    return types.SimpleNamespace(id=game_id, uid=uid)


def photo_taken(app, game_id):
    """A photo of the game's sheet kept; (its number, its bytes)."""
    game = game_of(app, game_id)
    number = keep_reading(app, game)
    return number, kept.photo_path(app.config["PHOTOS"], game.uid, number).read_bytes()


def files_under(folder):
    """{path relative to ``folder``: mode} of every file and folder under it."""
    folder = Path(folder)
    return {
        str(path.relative_to(folder)): stat.S_IMODE(path.stat().st_mode) for path in sorted(folder.rglob("*"))
    }


def a_change(phone, clock, game_id):
    """A round saved an hour and more after the last backup: the next one is due at once."""
    clock.advance(hours=1, seconds=1)
    assert save_round(phone, game_id, ROUND).status == 303


# under a second on an idle machine; more on a busy one: three backups made and a restore
def test_a_backup_after_a_photo_carries_it_and_a_restore_brings_it_back_owner_only(family):
    app, phone, auto, clock = family
    game_id = start_game(phone, "tablet")
    assert auto.wait()
    [first] = backups(auto)
    assert not kept.beside(first.path).exists()  # no photo yet: no folder beside it

    number, photo = photo_taken(app, game_id)
    a_change(phone, clock, game_id)
    assert auto.wait()
    newest = backups(auto)[0]
    assert newest.name.endswith("Z.db") and newest != first
    carried = kept.beside(newest.path)
    assert carried.name == newest.name.replace(".db", ".photos")
    game = kept.folder_of(app.config["PHOTOS"], game_of(app, game_id).uid).name
    assert files_under(carried) == {
        game: 0o700,
        f"{game}/{number}": 0o700,
        f"{game}/{number}/boxes.zip": 0o600,
        f"{game}/{number}/photo.jpg": 0o600,
        f"{game}/{number}/read.json": 0o600,
    }
    assert stat.S_IMODE(carried.stat().st_mode) == 0o700
    assert (carried / game / str(number) / "photo.jpg").read_bytes() == photo
    # on the scores' disk, a link to the photo: it takes its room once
    live = kept.photo_path(app.config["PHOTOS"], game_of(app, game_id).uid, number)
    assert os.stat(carried / game / str(number) / "photo.jpg").st_ino == live.stat().st_ino

    # the photos lost (a folder removed by hand): the restore brings them back, owner-only
    before = files_under(app.config["PHOTOS"])
    kept.remove(app.config["PHOTOS"], game_of(app, game_id).uid)
    assert phone.get(f"/games/{game_id}/photos/{number}").status == 404
    restored = app.test_cli_runner().invoke(args=["restore", "--latest"])
    assert restored.exit_code == 0, restored.output
    assert files_under(app.config["PHOTOS"]) == before
    assert stat.S_IMODE(os.stat(app.config["PHOTOS"]).st_mode) == 0o700
    shown = phone.get(f"/games/{game_id}/photos/{number}")
    assert shown.status == 200 and shown.body == photo
    # a copy, not the backup's own file: the backup stays as it was whatever happens to it
    assert live.stat().st_ino != os.stat(carried / game / str(number) / "photo.jpg").st_ino
    # the folder as it was, kept beside it as the database is
    [aside] = Path(app.config["PHOTOS"]).parent.glob("photos.before-restore-*")
    assert files_under(aside) == {}  # the game's folder had been removed: nothing else was there


# under a second on an idle machine; more on a busy one: two games, three backups, two restores
def test_a_game_removed_for_good_is_in_no_later_backup_and_no_restore_brings_its_photo_back(family):
    app, phone, auto, clock = family
    gone, stays = start_game(phone, "tablet"), start_game(phone, "tablet")
    assert auto.wait()
    photo_taken(app, gone)
    number, photo = photo_taken(app, stays)
    a_change(phone, clock, stays)
    assert auto.wait()
    both = backups(auto)[0]
    gone_folder = kept.folder_of(app.config["PHOTOS"], game_of(app, gone).uid)
    stays_folder = kept.folder_of(app.config["PHOTOS"], game_of(app, stays).uid)
    assert sorted(p.name for p in kept.beside(both.path).iterdir()) == sorted(
        [gone_folder.name, stays_folder.name]
    )

    # deleted, then removed for good 30 days on: its photo goes, and from the next backup
    other = FlaskPhone(app)  # another phone (this one's pages would offer to undo it)
    form, url = other.open_form(f"/games/{gone}/delete")
    assert other.submit(form, url).status == 303
    db = connect(app.config["DATABASE"])
    try:
        later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=31)
        assert deleted.purge(db, later, photos=app.config["PHOTOS"]) == 1
    finally:
        db.close()
    assert not gone_folder.exists()
    a_change(phone, clock, stays)
    assert auto.wait()
    after = backups(auto)[0]
    assert [p.name for p in kept.beside(after.path).iterdir()] == [stays_folder.name]

    # its photo put back by hand (a folder copied in): the restore of that backup sweeps it
    gone_folder.mkdir(mode=0o700)
    (gone_folder / "1").mkdir(mode=0o700)
    (gone_folder / "1" / "photo.jpg").write_bytes(photo)
    restored = app.test_cli_runner().invoke(args=["restore", after.name])
    assert restored.exit_code == 0, restored.output
    assert not gone_folder.exists()
    assert kept.numbers(app.config["PHOTOS"], game_of(app, stays).uid) == [number]

    # the backup from before its deletion brings the game back, and its photo with it
    restored = app.test_cli_runner().invoke(args=["restore", both.name])
    assert restored.exit_code == 0, restored.output
    assert rows(app.config["DATABASE"], "SELECT count(*) FROM games") == [(2,)]
    assert phone.get(f"/games/{gone}/photos/1").status == 200


def test_a_pruned_backup_takes_its_photos_with_it(family):
    app, phone, auto, clock = family
    auto.keep = {"hourly": 1, "daily": 0, "weekly": 0}
    game_id = start_game(phone, "tablet")
    assert auto.wait()
    photo_taken(app, game_id)
    a_change(phone, clock, game_id)
    assert auto.wait()
    [first] = backups(auto)
    assert kept.beside(first.path).is_dir()
    leftover = auto.folder / "scorekeeper-20260105T180000Z.photos.partial-1a2b3c4d"
    leftover.mkdir()  # what a killed copy left
    a_change(phone, clock, game_id)
    assert auto.wait()
    [second] = backups(auto)
    assert sorted(p.name for p in auto.folder.iterdir()) == sorted(
        [second.name, kept.beside(second.path).name]
    )


def test_a_backup_by_hand_carries_the_photos_and_its_restore_brings_them_back(family, tmp_path):
    app, phone, _auto, _clock = family
    game_id = start_game(phone, "tablet")
    number, photo = photo_taken(app, game_id)
    runner = app.test_cli_runner()
    made = runner.invoke(args=["backup", str(tmp_path / "evening.db")])
    assert made.exit_code == 0, made.output
    uid = game_of(app, game_id).uid
    carried = tmp_path / "evening.photos" / kept.folder_of(app.config["PHOTOS"], uid).name / str(number)
    assert (carried / "photo.jpg").read_bytes() == photo
    # a backup with no photos beside it (made before they were kept, or moved without them)
    # leaves the photos of its games as they are
    (tmp_path / "evening.db").rename(tmp_path / "alone.db")
    assert runner.invoke(args=["restore", str(tmp_path / "alone.db")]).exit_code == 0
    assert kept.numbers(app.config["PHOTOS"], uid) == [number]
    assert not list(Path(app.config["PHOTOS"]).parent.glob("photos.before-restore-*"))


@pytest.fixture
def other_disk(tmp_path):
    """A folder on another file system than the scores' (/dev/shm, kept in memory, as a USB
    disk would be another), removed after."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second file system (/dev/shm) to put the backups on")
    folder = Path(tempfile.mkdtemp(dir=shm, prefix="scorekeeper-test-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_on_another_disk_a_photo_is_copied_once_then_linked_from_the_copy_before(family, other_disk):
    """``BACKUP_DIR`` on a USB disk: no link to the photo can cross to it, so the first
    backup holding it copies it (and counts it in the room it needs first), the next links
    to that copy."""
    app, phone, auto, clock = family
    auto.folder = other_disk / "backups"
    game_id = start_game(phone, "tablet")
    assert auto.wait()
    number, _photo = photo_taken(app, game_id)
    here = kept.folder_of(app.config["PHOTOS"], game_of(app, game_id).uid) / str(number)
    sizes = sum(path.stat().st_size for path in here.iterdir())
    assert kept.room_needed(app.config["PHOTOS"], auto.folder, backups(auto)[0].path) == sizes

    a_change(phone, clock, game_id)
    assert auto.wait()
    second = backups(auto)[0]
    copied = kept.beside(second.path) / here.parent.name / str(number)
    for name in ("photo.jpg", "read.json", "boxes.zip"):
        assert (copied / name).read_bytes() == (here / name).read_bytes()
        assert (copied / name).stat().st_nlink == 1 and stat.S_IMODE((copied / name).stat().st_mode) == 0o600
    assert kept.room_needed(app.config["PHOTOS"], auto.folder, second.path) == 0

    a_change(phone, clock, game_id)
    assert auto.wait()
    third = backups(auto)[0]
    linked = kept.beside(third.path) / here.parent.name / str(number)
    for name in ("photo.jpg", "read.json", "boxes.zip"):
        assert (linked / name).stat().st_ino == (copied / name).stat().st_ino


def test_a_restore_copies_only_the_photos_files_of_its_games(family, tmp_path):
    """What a hand (or a crafted backup) put beside a backup's photos is left there: a link
    to a file elsewhere, a file of another name, a game the backup does not hold."""
    app, phone, _auto, _clock = family
    game_id = start_game(phone, "tablet")
    number, photo = photo_taken(app, game_id)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", str(tmp_path / "evening.db")]).exit_code == 0
    game = kept.folder_of(app.config["PHOTOS"], game_of(app, game_id).uid).name
    carried = tmp_path / "evening.photos"
    secret = tmp_path / "secret.txt"
    secret.write_text("not a photo")
    (carried / game / "2").mkdir()
    (carried / game / "2" / "photo.png").symlink_to(secret)
    (carried / game / str(number) / "run.sh").write_text("echo hi")
    stranger = carried / kept.folder_of(app.config["PHOTOS"], "a game not in the backup").name / "1"
    stranger.mkdir(parents=True)
    (stranger / "photo.jpg").write_bytes(photo)
    restored = runner.invoke(args=["restore", str(tmp_path / "evening.db")])
    assert restored.exit_code == 0, restored.output
    assert files_under(app.config["PHOTOS"]) == {
        game: 0o700,
        f"{game}/{number}": 0o700,
        f"{game}/{number}/boxes.zip": 0o600,
        f"{game}/{number}/photo.jpg": 0o600,
        f"{game}/{number}/read.json": 0o600,
    }
