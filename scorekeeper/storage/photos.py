"""The photos of a game's paper sheet, kept with the game (issue 55): files under the
instance folder (``photos/``, the app's ``PHOTOS``), owner-only (0600, folders 0700).

A game's photos are in a folder of its own, named from its uid (``folder_of``: a game's
uid never changes and is never given to another game, as its id may be after a restore);
each photo taken in is a numbered folder in it (1, 2…, made with ``mkdir``, so two photos
sent at once never share one), holding three files written whole (``private.write_whole``):

- ``photo.<jpg|png|webp…>``: the photo as the phone sent it;
- ``read.json``: what was read from it (the page, each box's value and mark);
- ``boxes.zip``: each box's cut-out from the photo (a PNG each, stored, not compressed).

The photos go with their game: when it is removed for good (``remove``,
``services.deleted.purge``), and a folder whose game is no longer in the database
(a backup restored from before it) goes with the next purge (``sweep``). A backup carries
the photos of its games in a folder beside its file (``copy_into``: linked, not copied,
where the disk allows), and a restore brings them back (``restore_from``). No Flask here.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import os
import re
import shutil
import zipfile
from pathlib import Path

from .private import FOLDER, open_private, private_folder, sync_folder, write_whole

#: what a photo is kept as, by the image format Pillow read in it
EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif", "BMP": "bmp", "TIFF": "tif"}
MIMETYPES = {
    "jpg": "image/jpeg",
    "png": "image/png",
    "webp": "image/webp",
    "gif": "image/gif",
    "bmp": "image/bmp",
    "tif": "image/tiff",
}
READ, BOXES = "read.json", "boxes.zip"
_NUMBER = re.compile(r"[1-9][0-9]{0,5}")
_BOX = re.compile(r"[0-9a-z_-]{1,80}\.png")


def folder_of(photos, uid):
    """The folder of a game's photos (``photos``: the app's photos folder)."""
    return Path(photos) / hashlib.sha256(uid.encode()).hexdigest()[:32]


def keep(photos, uid, data, extension, read, boxes):
    """Keep a photo taken in: ``data`` (its bytes, a ``extension`` file), ``read`` (what
    was read: JSON-ready) and ``boxes`` ({name: PNG bytes}); return its number."""
    private_folder(photos)
    game = folder_of(photos, uid)
    private_folder(game)
    number = max(numbers(photos, uid), default=0) + 1
    while True:
        try:
            os.mkdir(game / str(number), FOLDER)
            break
        except FileExistsError:  # another photo of this game, sent at the same moment
            number += 1
    here = game / str(number)
    os.chmod(here, FOLDER)
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_STORED) as archive:
        for name, png in boxes.items():
            archive.writestr(f"{name}.png", png)
    write_whole(here / BOXES, packed.getvalue())
    write_whole(here / READ, json.dumps(read, separators=(",", ":")))
    write_whole(here / f"photo.{extension}", data)  # last: a photo is listed once all of it is there
    return number


def numbers(photos, uid):
    """The numbers of a game's photos kept whole, in order."""
    game = folder_of(photos, uid)
    try:
        names = os.listdir(game)
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = [int(name) for name in names if _NUMBER.fullmatch(name)]
    return sorted(n for n in found if photo_path(photos, uid, n) is not None)


def photo_path(photos, uid, number):
    """The photo's file (None: no such photo)."""
    here = folder_of(photos, uid) / str(number)
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        for name in os.listdir(here):
            stem, _, extension = name.partition(".")
            if stem == "photo" and extension in MIMETYPES:
                return here / name
    return None


def read_of(photos, uid, number):
    """What was read from a photo (as ``keep`` was given it), or None."""
    if photo_path(photos, uid, number) is None:
        return None
    try:
        with open(folder_of(photos, uid) / str(number) / READ, encoding="utf-8") as file:
            return json.load(file)
    except (FileNotFoundError, ValueError):
        return None


def box_of(photos, uid, number, name):
    """A box's cut-out (PNG bytes), or None."""
    if not _BOX.fullmatch(f"{name}.png") or photo_path(photos, uid, number) is None:
        return None
    try:
        with zipfile.ZipFile(folder_of(photos, uid) / str(number) / BOXES) as archive:
            return archive.read(f"{name}.png")
    except (FileNotFoundError, KeyError, zipfile.BadZipFile):
        return None


def remove(photos, uid):
    """Remove every photo of a game (it is gone for good)."""
    shutil.rmtree(folder_of(photos, uid), ignore_errors=True)


def sweep(photos, uids):
    """Remove the photos of every game not in the database (``uids()``: every game's uid,
    deleted or not, asked after the folders are listed, so a game made meanwhile keeps its
    photo): a backup restored from before them, a game removed while its folder was busy."""
    try:
        names = [name for name in os.listdir(photos) if re.fullmatch(r"[0-9a-f]{32}", name)]
    except (FileNotFoundError, NotADirectoryError):
        return
    if not names:
        return
    kept = {folder_of(photos, uid).name for uid in uids()}
    for name in names:
        if name not in kept:
            shutil.rmtree(Path(photos) / name, ignore_errors=True)


# --- the photos in the backups --------------------------------------------------------------

#: the files of a photo taken in, as ``keep`` writes them (a backup carries these alone)
_KEPT_FILE = re.compile(r"photo\.(?:jpg|png|webp|gif|bmp|tif)|read\.json|boxes\.zip")
_GAME_FOLDER = re.compile(r"[0-9a-f]{32}")
PARTIAL = ".partial-"


def beside(backup):
    """The folder of a backup's photos: beside its file, named as it is (``….photos``)."""
    return Path(backup).with_suffix(".photos")


def _kept_files(folder):
    """(game folder, number, file name) of every file of a photo under ``folder`` (the
    photos, or a backup's), regular files alone (a link to elsewhere is never followed)."""
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        for game in os.scandir(folder):
            if not (_GAME_FOLDER.fullmatch(game.name) and game.is_dir(follow_symlinks=False)):
                continue
            for number in os.scandir(game.path):
                if not (_NUMBER.fullmatch(number.name) and number.is_dir(follow_symlinks=False)):
                    continue
                for file in os.scandir(number.path):
                    if _KEPT_FILE.fullmatch(file.name) and file.is_file(follow_symlinks=False):
                        yield game.name, number.name, file.name


def _copy_file(source, target):
    """``source`` copied into ``target``, owner-only, with its times (so that the next
    backup knows it again, ``copy_into``)."""
    with open(source, "rb") as read, open_private(target) as write:
        shutil.copyfileobj(read, write, 1024 * 1024)
        write.flush()
        os.fsync(write.fileno())  # on the disk before the folder's rename names it a backup's
    found = os.stat(source)
    os.utime(target, ns=(found.st_atime_ns, found.st_mtime_ns))


def _private_copy(files, source, target, link_from=None):
    """Each of ``files`` (``_kept_files``) of the folder ``source`` into the new folder
    ``target`` (0700, as its folders): linked to ``source``'s where ``link_from`` says so
    (``link_from(relative path, its stat)``: the file to link to, or None), else copied."""
    private_folder(target)
    for game, number, name in files:
        here = Path(target) / game / number
        if not here.is_dir():
            private_folder(here.parent)
            private_folder(here)
        relative = Path(game) / number / name
        found = Path(source) / relative
        try:
            linked = link_from(relative, found.stat()) if link_from else None
            try:
                if linked is None:
                    raise OSError("no file to link to")
                os.link(linked, here / name)
            except OSError:  # another disk, or a file system without links: a copy
                _copy_file(found, here / name)
        except FileNotFoundError:  # its game removed for good meanwhile: it has no photo now
            continue


def _linked_to(photos, folder, previous, relative, found):
    """What a backup's photo file at ``relative`` (``found``: the photo's stat), written in
    ``folder``, links to: the photo on its own disk, else the ``previous`` backup's photos'
    same file (same size and time), else None (copied)."""
    if os.stat(folder).st_dev == found.st_dev:
        return Path(photos) / relative
    if previous is not None:
        with contextlib.suppress(OSError):
            there = os.stat(Path(previous) / relative, follow_symlinks=False)
            if (there.st_size, there.st_mtime_ns) == (found.st_size, found.st_mtime_ns):
                return Path(previous) / relative
    return None


def room_needed(photos, folder, previous=None):
    """The bytes the next backup into ``folder`` writes for the photos (at most: every
    game's photos): those it copies, not links (``copy_into``; ``previous``: the backup
    before it, whose photos it links to); 0 on the photos' disk."""
    previous = beside(previous) if previous else None
    needed = 0
    for game, number, name in _kept_files(photos):
        relative = Path(game) / number / name
        with contextlib.suppress(OSError):
            found = os.stat(Path(photos) / relative)
            if _linked_to(photos, folder, previous, relative, found) is None:
                needed += found.st_size
    return needed


def copy_into(photos, uids, target, previous=None):
    """The photos of the games ``uids`` (those of a backup just written) into the folder
    ``target`` (``beside`` the backup), replacing one there; return how many files (0: no
    folder made). A photo's files are written once and never changed (a game's are only
    removed), so each is a hard link where the disk allows: to the photo itself (the
    backups on the scores' disk), else to the same file in the ``previous`` backup's photos
    (same size and time), else a copy: a photo takes its room once on each disk. Made in
    a folder beside ``target`` and renamed into place, so a backup's photos are whole."""
    target = Path(target)
    for leftover in target.parent.glob(f"*.photos{PARTIAL}*"):  # what a killed backup left
        shutil.rmtree(leftover, ignore_errors=True)
    wanted = {folder_of(photos, uid).name for uid in uids}
    files = [file for file in _kept_files(photos) if file[0] in wanted]
    if not files:
        shutil.rmtree(target, ignore_errors=True)
        return 0

    link_from = functools.partial(_linked_to, photos, target.parent, previous)
    partial = target.with_name(f"{target.name}{PARTIAL}{os.urandom(4).hex()}")
    try:
        _private_copy(files, photos, partial, link_from)
        shutil.rmtree(target, ignore_errors=True)
        os.replace(partial, target)
        sync_folder(target.parent)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return len(files)


def restore_from(source, photos, uids, aside):
    """The photos of a backup restored: with its photos folder (``source``, ``beside`` it),
    the folder ``photos`` becomes a copy of them (owner-only), those of the games ``uids``
    in the restored database alone; the photos as they were are moved to ``aside`` (the
    database's own copy is kept beside it too). A backup with no photos folder (one made
    before photos were backed up, or with none) leaves the photos as they are, but those
    of games no longer in the database (``sweep``). Return how many files were restored."""
    uids = list(uids)
    if not Path(source).is_dir():
        sweep(photos, lambda: uids)
        return 0
    wanted = {folder_of(photos, uid).name for uid in uids}
    files = [file for file in _kept_files(source) if file[0] in wanted]
    photos = Path(photos)
    partial = photos.with_name(f"{photos.name}{PARTIAL}{os.urandom(4).hex()}")
    try:
        _private_copy(files, source, partial)
        if photos.exists():
            os.replace(photos, aside)
        os.replace(partial, photos)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return len(files)


def remove_beside(backup):
    """Remove a backup's file and its photos (the photos of its games' sheets, ``copy_into``)."""
    with contextlib.suppress(FileNotFoundError):
        Path(backup).unlink()
    shutil.rmtree(beside(backup), ignore_errors=True)
