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
(a backup restored from before it) goes with the next purge (``sweep``). No Flask here.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import zipfile
from pathlib import Path

from .private import FOLDER, private_folder, write_whole

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
