"""The server `make run` starts: waitress, the address to open, real HTTP."""

import io
import urllib.request

import segno

from scorekeeper.db import connect, transaction
from scorekeeper.network import usable_addresses
from scorekeeper.scoring import RULESETS
from scorekeeper.serve import qr_codes, share_address, where_to_open
from scorekeeper.services import games
from scorekeeper.services.schema import migrate

from ..helpers import served


def test_only_addresses_a_phone_can_reach_are_offered():
    found = [
        "192.168.1.20",
        "127.0.0.1",
        "127.0.1.1",
        "169.254.7.7",
        "10.0.0.5",
        "::1",
        "fe80::1",
        "2001:db8::5",
        "not-an-address",
        "",
        "192.168.1.20",
    ]
    assert usable_addresses(found) == ["10.0.0.5", "192.168.1.20"]
    assert usable_addresses([]) == []


def test_the_address_lines_name_each_lan_address_or_say_what_to_look_for():
    lines = where_to_open("0.0.0.0", 5000, ["192.168.1.20", "10.0.0.5"])
    assert lines[0].endswith("http://localhost:5000/")
    assert "On a phone on the same Wi-Fi, open: http://192.168.1.20:5000/" in lines
    assert "On a phone on the same Wi-Fi, open: http://10.0.0.5:5000/" in lines
    assert "http://<this computer's address>:5000/" in "\n".join(where_to_open("0.0.0.0", 5000, []))
    # served on loopback only: no phone can reach it, so none is offered
    assert not any("phone" in line for line in where_to_open("127.0.0.1", 5000, ["10.0.0.5"]))


def test_each_address_a_phone_opens_is_also_a_qr_code_to_scan():
    text = qr_codes("0.0.0.0", 5000, ["192.168.1.20", "10.0.0.5"])
    for url in ("http://192.168.1.20:5000/", "http://10.0.0.5:5000/"):
        expected = io.StringIO()
        segno.make(url, error="m").terminal(out=expected, compact=True)
        assert f"Scan to open {url}\n{expected.getvalue()}" in text
    assert {"█", "▀", "▄"} <= set(text)
    # served on loopback only, or no address known: nothing to scan
    assert qr_codes("127.0.0.1", 5000, ["10.0.0.5"]) == ""
    assert qr_codes("0.0.0.0", 5000, []) == ""


def test_share_links_name_the_address_phones_reach_the_server_at():
    assert share_address("0.0.0.0", ["192.168.1.20", "10.0.0.5"]) == "192.168.1.20"
    assert share_address("0.0.0.0", []) is None
    assert share_address("192.168.1.20", ["10.0.0.5"]) == "192.168.1.20"
    for loopback in ("127.0.0.1", "localhost", "::1", "127.0.1.1"):
        assert share_address(loopback, ["192.168.1.20"]) is None, loopback


def test_the_server_serves_the_rules_and_says_where(tmp_path):
    instance = tmp_path / "instance"
    migrate(tmp_path / "family.db")
    db = connect(tmp_path / "family.db")
    with transaction(db):
        game_id = games.insert_game(db, RULESETS["roth"], "roth", [("", ["Ann"]), ("", ["Bo"])])
    db.close()
    with served(instance, tmp_path / "family.db") as (server, port):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules", timeout=30) as response:
            page = response.read().decode()
        assert "Roth family house rules" in page
        assert (instance / "secret_key").exists()
        # no passcode yet: the household code a phone asks for, printed (it comes before the QR code)
        said = [server.stdout.readline()]
        while said[-1] and not said[-1].startswith("Household code"):  # "": the output ended
            said.append(server.stdout.readline())
        code = (instance / "household_code").read_text().strip()
        assert said[-1].startswith(f"Household code: {code} "), said
        # served on loopback only: a game's share link stays at the address it was opened at
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{game_id}", timeout=30) as response:
            page = response.read().decode()
        assert f'<p class="share-link"><a href="http://127.0.0.1:{port}/s/' in page, page


def test_the_server_refuses_a_body_past_the_largest_import_before_reading_it(tmp_path):
    """A guest on the Wi-Fi announcing a body of 70 MB is refused at once (413), before
    waitress buffers a byte of it onto a disk (its default takes a gigabyte a request)."""
    import http.client

    from scorekeeper.serve import LARGEST_BODY

    database = tmp_path / "scorekeeper.db"
    migrate(database)
    with served(tmp_path / "instance", database) as (_, port):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.putrequest("POST", "/import")
        conn.putheader("Content-Type", "multipart/form-data; boundary=x")
        conn.putheader("Content-Length", str(LARGEST_BODY + 1))
        conn.endheaders()
        response = conn.getresponse()  # answered without a byte of the body sent
        assert response.status == 413
        conn.close()
        assert LARGEST_BODY < 70 * 2**20
