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


def stored_hash(instance_path):
    """The passcode's hash, or None when no passcode is set."""
    try:
        with open(_path(instance_path), encoding="ascii") as file:
            return file.read().strip() or None
    except FileNotFoundError:
        return None


def set_passcode(instance_path, passcode):
    """Set or change the passcode (``ValueError`` with the reason if it will not do)."""
    reason = problem(passcode)
    if reason:
        raise ValueError(reason)
    write_whole(_path(instance_path), generate_password_hash(passcode) + "\n")


def remove_passcode(instance_path):
    """Remove the passcode; return whether one was set."""
    try:
        os.remove(_path(instance_path))
    except FileNotFoundError:
        return False
    return True


def matches(stored, passcode):
    """Whether ``passcode`` is the one whose hash is ``stored``."""
    return stored is not None and check_password_hash(stored, passcode)


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
