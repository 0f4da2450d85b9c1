"""The household passcode: optional (off until set), kept only as werkzeug's salted
hash in the instance folder (``instance/passcode``, owner-only), beside the
secret key. See docs/decisions.md for why not in the database.

Set, changed or removed by ``flask --app scorekeeper passcode`` or on the
settings page; both write the file whole (a new file moved into place), and
every request reads it, so a change takes effect at once without a restart.
"""

import hashlib
import hmac
import os
import re
import secrets

from werkzeug.security import check_password_hash, generate_password_hash

from ..scoring.language import _
from ..storage.private import write_whole

FILE_NAME = "passcode"
MIN_LENGTH = 4
MAX_LENGTH = 128


def problem(passcode):
    """Why this passcode cannot be set, or None."""
    if len(passcode) < MIN_LENGTH:
        return _("Use at least %(count)s characters.", count=MIN_LENGTH)
    if len(passcode) > MAX_LENGTH:
        return _("Use at most %(count)s characters.", count=MAX_LENGTH)
    if passcode != passcode.strip():
        return _("Leave out spaces at the start and the end: they are easy to mistype.")
    return None


def _path(instance_path):
    return os.path.join(instance_path, FILE_NAME)


#: what ``stored_hash`` gives for a passcode file that is there but holds no hash it can
#: read: empty (a power cut as it was written), damaged, a folder, or not readable by the
#: app's user. No passcode matches it, no phone is signed in with it: every page but those
#: open without a passcode stays locked, and the sign-in page says how to set it again at
#: the computer (issue 53: an empty file opened the app to every phone).
UNREADABLE = "unreadable"
# what werkzeug's generate_password_hash writes: method and its figures, salt, digest
HASH = re.compile(
    rb"(?:scrypt:([0-9]{1,8}):([0-9]{1,3}):([0-9]{1,3})|pbkdf2:([a-z0-9_]{1,16}):([0-9]{1,9}))"
    rb"[$][A-Za-z0-9]{1,64}[$][0-9a-f]{32,256}"
)
LARGEST = 1024  # a hash is under 200 bytes
#: what sets the passcode at the computer (cli/household.py), as the README writes it
COMMAND = ".venv/bin/flask --app scorekeeper passcode"


def _usable(text):
    """Whether ``text`` is a hash werkzeug can check a passcode against (so a damaged one
    locks the app rather than failing every sign-in with a server error)."""
    found = HASH.fullmatch(text)
    if not found:
        return False
    n, r, p, digest, rounds = found.groups()
    if digest is not None:
        return digest.decode() in hashlib.algorithms_available and int(rounds) > 0
    n, r, p = int(n), int(r), int(p)
    # hashlib.scrypt: n a power of 2 above 1, and the memory werkzeug allows it under 2 GiB
    return n > 1 and n & (n - 1) == 0 and r > 0 and p > 0 and 132 * n * r * p < 2**31


def _read(instance_path):
    """(the hash, None when no file, or ``UNREADABLE``; why it is unreadable, or None)."""
    try:
        with open(_path(instance_path), "rb") as file:
            data = file.read(LARGEST + 1)
    except FileNotFoundError:
        return None, None
    except OSError as error:  # not this user's to read, a folder, an input/output error
        return UNREADABLE, _("it cannot be read (%(error)s)", error=error.strerror or error)
    text = data.strip()
    if not text:
        return UNREADABLE, _("it is empty")
    if len(data) > LARGEST or not _usable(text):
        return UNREADABLE, _("it holds no passcode's hash")
    return text.decode("ascii"), None


def stored_hash(instance_path):
    """The passcode's hash; None when no passcode is set (no file); ``UNREADABLE`` when the
    file is there but cannot be used (the app is then locked: ``locked_because``)."""
    return _read(instance_path)[0]


def locked_because(instance_path):
    """What the computer says when the passcode file locks the app (``UNREADABLE``): the file,
    why, and the command that sets the passcode again; None when it does not."""
    stored, why = _read(instance_path)
    if stored != UNREADABLE:
        return None
    command, remove = f"`{COMMAND}`", f"`{COMMAND} --remove`"  # code, said as it is typed
    return _(
        "%(path)s: %(why)s, so the app is locked: no phone can sign in. Set the passcode again "
        "with %(command)s, or remove it with %(remove)s.",
        path=_path(instance_path),
        why=why,
        command=command,
        remove=remove,
    )


def _not_a_folder(instance_path):
    """Refuse (``ValueError``) a folder where the passcode file goes: not ours to remove."""
    if os.path.isdir(_path(instance_path)):
        raise ValueError(
            _(
                "%(path)s is a folder, not the passcode file: move it away, then try again",
                path=_path(instance_path),
            )
        )


def set_passcode(instance_path, passcode):
    """Set or change the passcode (``ValueError`` with the reason if it will not do)."""
    reason = problem(passcode)
    if reason:
        raise ValueError(reason)
    _not_a_folder(instance_path)
    write_whole(_path(instance_path), generate_password_hash(passcode) + "\n")


def remove_passcode(instance_path):
    """Remove the passcode (an unreadable file too); return whether one was set."""
    _not_a_folder(instance_path)
    try:
        os.remove(_path(instance_path))
    except FileNotFoundError:
        return False
    return True


def matches(stored, passcode):
    """Whether ``passcode`` is the one whose hash is ``stored``."""
    return stored not in (None, UNREADABLE) and check_password_hash(stored, passcode)


def fingerprint(stored):
    """A short name for the passcode now set, kept in a signed-in phone's session:
    a new passcode (even the same one again: a new salt) signs every phone out.

    It reveals nothing of the passcode, though the cookie is readable: it is a hash of the
    salted hash, so a guess could be tried against it only with the salt (about 95 random
    bits, kept in ``instance/passcode`` and never sent), and then at the price of scrypt."""
    return hashlib.sha256(stored.encode("ascii")).hexdigest()[:16]


# --- the household code -----------------------------------------------------------------

#: proves a phone is held by someone at the computer, while no passcode is set: setting the
#: first passcode, importing, and downloading the whole history or a game's export ask for
#: it (issues 43 and 53)
HOUSEHOLD_FILE = "household_code"
HOUSEHOLD_DIGITS = 6


def _household_path(instance_path):
    return os.path.join(instance_path, HOUSEHOLD_FILE)


def _random_code():
    return "".join(secrets.choice("0123456789") for _ in range(HOUSEHOLD_DIGITS))


def household_code(instance_path):
    """The household code (six digits, made once, owner-only in the instance folder),
    which `make run` prints in its terminal and `flask … household` and `doctor` show."""
    path = _household_path(instance_path)
    missing = False
    try:
        with open(path, encoding="ascii") as file:
            code = file.read().strip()
        if code.isdigit() and len(code) == HOUSEHOLD_DIGITS:
            return code
    except FileNotFoundError:
        missing = True
    # made by the server and `flask … doctor` at once: the first one kept, and said by both
    write_whole(path, _random_code() + "\n", first=missing)
    with open(path, encoding="ascii") as file:
        return file.read().strip()


def new_household_code(instance_path):
    """Make a new household code, never the one it replaces, and return it: no phone's
    proof of the old one (``household_proof``) matches it, so every phone is asked again."""
    old = household_code(instance_path)
    code = old
    while code == old:
        code = _random_code()
    write_whole(_household_path(instance_path), code + "\n")
    return code


def household_matches(instance_path, typed):
    """Whether ``typed`` is the household code (spaces and dashes between digits allowed)."""
    cleaned = "".join(c for c in typed or "" if c not in " -\u00a0")
    return secrets.compare_digest(cleaned.encode(), household_code(instance_path).encode())


def household_proof(instance_path, secret_key):
    """What a phone that gave the household code keeps in its session: an HMAC-SHA256 of
    the code under the app's secret key. The session cookie is signed but readable, and
    crosses the Wi-Fi over http: without the key (``instance/secret_key``, owner-only, never
    sent) no guessed code can be tried against the proof, and a new code matches no proof
    made for the one before."""
    key = secret_key if isinstance(secret_key, bytes) else str(secret_key).encode()
    message = b"scorekeeper household code " + household_code(instance_path).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()
