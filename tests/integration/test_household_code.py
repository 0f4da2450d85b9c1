"""The household code (issue 53): a phone that gave it keeps a proof that reveals nothing of
it to whoever reads the session cookie (signed, but readable, and it crosses the Wi-Fi over
http), for 30 days from when it was typed; the computer makes a new code on demand, which
asks every phone again; `make run` prints the code to a terminal only, never into a log."""

import argparse
import os
import pty
import sys

import pytest
from flask.json.tag import TaggedJSONSerializer
from itsdangerous import URLSafeTimedSerializer

from scorekeeper import create_app, serve
from scorekeeper.web import passcode

from ..helpers import at_home, csrf_token, text

CODE = "314159"
# what a phone's cookie kept of it before issue 53: sha256("household 314159")[:16], which a
# loop over the 10^6 codes finds again (0.3 s in the issue)
OLD_FINGERPRINT = "a3d55a86d57a34a1"
DAY = 24 * 3600


@pytest.fixture
def household(app):
    """The app with the household code 314159 (written as a family's would be)."""
    with open(os.path.join(app.instance_path, passcode.HOUSEHOLD_FILE), "w", encoding="ascii") as file:
        file.write(CODE + "\n")
    return app


def read_cookie(phone):
    """The phone's session as a guest on the Wi-Fi reads it off the air: without the key."""
    cookie = phone.get_cookie("session")
    reader = URLSafeTimedSerializer(
        "not the computer's key", salt="cookie-session", serializer=TaggedJSONSerializer()
    )
    verified, payload = reader.loads_unsafe(cookie.value)
    assert not verified and isinstance(payload, dict)
    return payload


def leaves(value):
    """Every number and string inside a decoded session."""
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]


def give(phone, code):
    return phone.post("/household", data={"csrf_token": csrf_token(phone, "/household"), "code": code})


def test_the_code_cannot_be_read_back_from_the_cookie(household):
    """The loop over every code needs something computable from the code alone to compare
    with: the code is not in the cookie, nor what was kept before (the loop stops at the
    code's own value, which is not there). What is kept is made with the computer's
    secret key: the next test."""
    phone = at_home(household.test_client(), household)
    payload = read_cookie(phone)
    found = leaves(payload)
    assert not any(OLD_FINGERPRINT in leaf for leaf in found if isinstance(leaf, str))
    assert CODE not in found and int(CODE) not in found
    assert set(payload["household"]) == {"proof", "at"}
    assert len(payload["household"]["proof"]) == 64  # HMAC-SHA256, in hex


def test_the_proof_is_made_with_the_computers_secret_key(household):
    """The same code under another key gives another proof: nothing in it is computed
    from the code alone, so a guest with every code to try has nothing to try them on."""
    ours = read_cookie(at_home(household.test_client(), household))["household"]["proof"]
    elsewhere = create_app(
        {"TESTING": True, "DATABASE": household.config["DATABASE"], "SECRET_KEY": "k" * 64}
    )
    assert elsewhere.instance_path == household.instance_path  # the same code file
    theirs = read_cookie(at_home(elsewhere.test_client(), elsewhere))["household"]["proof"]
    assert ours != theirs


def test_a_proof_lasts_thirty_days_from_when_the_code_was_typed(household):
    phone = at_home(household.test_client(), household)
    with phone.session_transaction() as session:
        typed = session["household"]["at"]
        session["household"] = {**session["household"], "at": typed - 30 * DAY + 60}
    assert phone.get("/import").status_code == 200  # a minute left
    with phone.session_transaction() as session:
        assert session["household"]["at"] == typed - 30 * DAY + 60  # not renewed by use
        session["household"] = {**session["household"], "at": typed - 30 * DAY - 1}
    answer = phone.get("/import")
    assert answer.status_code == 303 and answer.headers["Location"] == "/household?next=/import"
    page = text(phone.get("/household?next=/import"))
    assert "This phone is asked again after 30 days, or once a new code is made" in page
    # simply asked again
    right = phone.post(
        "/household", data={"csrf_token": csrf_token(phone, "/household"), "code": CODE, "next": "/import"}
    )
    assert right.status_code == 303 and right.headers["Location"] == "/import"
    assert phone.get("/import").status_code == 200


def test_a_phone_that_kept_the_readable_fingerprint_is_asked_again(household):
    """A session from before issue 53 (the fingerprint itself) proves nothing now."""
    phone = household.test_client()
    phone.get("/household")
    with phone.session_transaction() as session:
        session["household"] = OLD_FINGERPRINT
    assert phone.get("/import").headers["Location"] == "/household?next=/import"


def test_a_new_code_asks_every_phone_again(household, runner, db):
    phone = at_home(household.test_client(), household)
    assert phone.get("/import").status_code == 200
    guest = household.test_client()
    assert give(guest, "000000").status_code == 422  # a guest's guess, counted
    result = runner.invoke(args=["household", "--new"])
    assert result.exit_code == 0, result.output
    new = passcode.household_code(household.instance_path)
    assert new != CODE and len(new) == 6 and new.isdigit()
    assert result.output == f"New household code: {new}. Every phone that gave the old one is asked again.\n"
    assert db.execute("SELECT COUNT(*) FROM passcode_guesses").fetchone() == (0,)  # the guesses forgotten
    assert phone.get("/import").headers["Location"] == "/household?next=/import"
    assert give(phone, CODE).status_code == 422
    assert give(phone, new).status_code == 303
    assert phone.get("/import").status_code == 200


def test_the_household_command_shows_the_code_or_says_a_passcode_is_set(household, runner):
    assert runner.invoke(args=["household"]).output == (
        "Household code: 314159 (a phone asks for it before the first passcode, an import, "
        "or a download of the whole history, a game's export or a backup)\n"
    )
    passcode.set_passcode(household.instance_path, "Marmalade-42")
    assert runner.invoke(args=["household"]).output == (
        "A passcode is set: each phone signs in with it, and no household code is asked.\n"
    )


def said_by_make_run(app, stream):
    """What `make run` says of where to open it, written to ``stream``."""
    saved = sys.stdout
    sys.stdout = stream
    try:
        with app.app_context():
            serve._say_where(app, argparse.Namespace(host="127.0.0.1"), 5000, [], None, [])
    finally:
        sys.stdout = saved


def test_make_run_prints_the_code_in_a_terminal_and_never_into_a_log(household):
    main, tty = pty.openpty()
    shown = b""
    try:
        with open(tty, "w", encoding="utf-8", closefd=True) as terminal:
            said_by_make_run(household, terminal)
        # every line, however the terminal hands them over: a read gives what has arrived
        # (one line, on a busy machine), and EIO once the other end is closed and all is read
        while True:
            try:
                chunk = os.read(main, 1 << 16)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(main)
    shown = shown.decode()
    assert "Household code: 314159 (a phone asks for it before the first passcode" in shown
    reading, writing = os.pipe()
    with open(writing, "w", encoding="utf-8") as log, open(reading, encoding="utf-8") as journal:
        said_by_make_run(household, log)
        log.close()
        logged = journal.read()
    assert CODE not in logged
    assert (
        "Household code: run `.venv/bin/flask --app scorekeeper household` on this computer to read it "
        "(not written here: a log is read by others)\n"
    ) in logged


def test_a_signed_in_cookie_keeps_nothing_a_passcode_could_be_tried_on(household):
    """The sign-in's mark (``passcode.fingerprint``) is a hash of the salted hash: without the
    salt, which never leaves instance/passcode, no guessed passcode can be tried against it."""
    passcode.set_passcode(household.instance_path, "Marmalade-42")
    _, salt, hashed = passcode.stored_hash(household.instance_path).split("$")
    phone = household.test_client()
    signed = phone.post(
        "/sign-in", data={"csrf_token": csrf_token(phone, "/sign-in"), "passcode": "Marmalade-42"}
    )
    assert signed.status_code == 303
    found = [leaf for leaf in leaves(read_cookie(phone)) if isinstance(leaf, str)]
    assert "signed_in" in read_cookie(phone)
    assert not any("Marmalade" in leaf or salt in leaf or hashed[:16] in leaf for leaf in found)
