"""The server `make run` starts (web/server.py: http and https on one loop), the address
to open, real HTTP and TLS. A guest holding connections, and bodies: test_guests.py."""

import io
import os
import socket
import ssl
import urllib.request

import pytest
import segno
from cryptography.hazmat.primitives.serialization import Encoding

from scorekeeper.scoring import RULESETS
from scorekeeper.serve import qr_codes, renew_certificates, share_address, where_to_open
from scorekeeper.services import games
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect, transaction
from scorekeeper.web import certificates, passcode
from scorekeeper.web.network import usable_addresses

from ..helpers import InProcess, fingerprint_pairs, served, start_server


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
    # with https, its address beside the http one
    assert "Scan to open https://10.0.0.5:5443/\n" in qr_codes("0.0.0.0", 5000, ["10.0.0.5"], 5443)


FINGERPRINT = "7F 3A 19 C2 8B 01 44 D0 9E 5A 73 11 C4 2F 88 B6"


def test_the_address_lines_say_where_https_is_and_the_fingerprint_a_phone_shows():
    lines = where_to_open("0.0.0.0", 5000, ["192.168.1.20"], 5443, FINGERPRINT)
    assert lines[0].endswith("http://localhost:5000/ (https on port 5443, for phones made secure)")
    assert any(
        "http://192.168.1.20:5000/trust" in line and "https://192.168.1.20:5443/" in line for line in lines
    )
    at = lines.index("    7F 3A 19 C2 8B 01 44 D0 9E 5A 73 11 C4 2F 88 B6")
    assert lines[at - 1] == (
        "Before a phone trusts the household certificate, compare the start of its SHA-256 "
        "fingerprint (in the certificate's details) with these 16 pairs:"
    )


NAME = f"{socket.gethostname()}.local"


def https_get(port, root, path="/rules", timeout=5):
    """GET ``path`` over TLS at the computer's name (on loopback), trusting the household
    root alone, as a paired phone does (None: the system's roots, as a phone not paired):
    (status code, body)."""
    context = ssl.create_default_context(cafile=str(root) if root else None)
    with (
        socket.create_connection(("127.0.0.1", port), timeout=timeout) as raw,
        context.wrap_socket(raw, server_hostname=NAME) as tls,
    ):
        tls.sendall(f"GET {path} HTTP/1.1\r\nHost: {NAME}:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := tls.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.fixture(scope="module")
def make_run(tmp_path_factory):
    """`make run`'s server on a family's database with one game, started once for the
    module's tests that only talk to it (a start is a Python process and its certificates):
    (process, http port, instance folder, the game's id). What it printed is left unread
    for the test that reads it."""
    folder = tmp_path_factory.mktemp("served")
    migrate(folder / "family.db")
    db = connect(folder / "family.db")
    with transaction(db):
        game_id = games.insert_game(db, RULESETS["roth"], "roth", [("", ["Ann"]), ("", ["Bo"])])
    db.close()
    with served(folder / "instance", folder / "family.db") as (server, port):
        yield server, port, folder / "instance", game_id


@pytest.mark.long
def test_the_server_serves_https_with_the_household_certificate_whatever_a_guest_sends(make_run):
    """`make run` makes the household certificates and serves the app over https beside
    http. A connection that never shakes hands (a guest's port scan) holds up no one, and
    is closed at the handshake's deadline; plain http sent to the https port is dropped,
    and https goes on."""
    server, _, instance, _ = make_run
    root = instance / certificates.FOLDER / certificates.ROOT_CERT
    assert server.https_port and root.exists()
    status, body = https_get(server.https_port, root)
    assert status == 200 and b"Rules" in body

    with socket.create_connection(("127.0.0.1", server.https_port), timeout=30) as idle:
        status, _ = https_get(server.https_port, root, timeout=5)
        assert status == 200
        assert idle.recv(1) == b""  # closed by the server: no handshake within 3 s

    with socket.create_connection(("127.0.0.1", server.https_port), timeout=5) as plain:
        plain.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert b" 200 " not in plain.recv(4096)
    assert https_get(server.https_port, root)[0] == 200

    # headers past the server's bound (64 KB) are refused, not read into memory
    context = ssl.create_default_context(cafile=str(root))
    with (
        socket.create_connection(("127.0.0.1", server.https_port), timeout=5) as raw,
        context.wrap_socket(raw, server_hostname=NAME) as tls,
    ):
        big = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 400_000 + b"\r\n\r\n"
        try:
            tls.sendall(big)
            sent_whole = True
        except (ssl.SSLError, ConnectionError):
            # the server answered and closed at 64 KB while the rest was still on its way
            # (found by CI: a busy machine sends slower than the server refuses)
            sent_whole = False
        try:
            answer = tls.recv(4096)
        except (ssl.SSLError, ConnectionError):
            answer = b""
    assert b" 200 " not in answer, answer[:80]
    assert answer.startswith(b"HTTP/1.1 4") or not sent_whole, answer[:80]
    assert https_get(server.https_port, root)[0] == 200

    # a phone that trusts no household root refuses the certificate
    with pytest.raises(ssl.SSLCertVerificationError):
        https_get(server.https_port, None)


def test_share_links_name_the_address_phones_reach_the_server_at():
    assert share_address("0.0.0.0", ["192.168.1.20", "10.0.0.5"]) == "192.168.1.20"
    assert share_address("0.0.0.0", []) is None
    assert share_address("192.168.1.20", ["10.0.0.5"]) == "192.168.1.20"
    for loopback in ("127.0.0.1", "localhost", "::1", "127.0.1.1"):
        assert share_address(loopback, ["192.168.1.20"]) is None, loopback


def test_the_server_serves_the_rules_and_says_where(make_run):
    server, port, instance, game_id = make_run
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules", timeout=30) as response:
        page = response.read().decode()
    assert "Roth family house rules" in page
    assert (instance / "secret_key").exists()
    # no passcode yet: where to read the household code a phone asks for, but not the
    # code itself, which a terminal alone is shown (issue 53: not into a service's log)
    said = [server.stdout.readline()]
    while said[-1] and not said[-1].startswith("Household code"):  # "": the output ended
        said.append(server.stdout.readline())
    assert said[-1].startswith("Household code: run `.venv/bin/flask --app scorekeeper household`"), said
    assert passcode.household_code(instance) not in "".join(said)
    # the household root's fingerprint, 128 bits of it (issue 53), as a phone shows it
    pairs = fingerprint_pairs(os.path.join(certificates.folder_of(str(instance)), certificates.ROOT_CERT))
    assert f"    {' '.join(pairs[:16])}\n" in said
    # served on loopback only: a game's share link stays at the address it was opened at
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{game_id}", timeout=30) as response:
        page = response.read().decode()
    assert f'<p class="share-link"><a href="http://127.0.0.1:{port}/s/' in page, page


def handshake(port, status):
    """A TLS handshake with the server on ``port``, as a phone trusting the household root
    (of ``status``) makes it: the certificate the server showed (DER)."""
    phone = ssl.create_default_context(cafile=os.path.join(status.folder, certificates.ROOT_CERT))
    with (
        socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
        phone.wrap_socket(raw, server_hostname=NAME) as tls,
    ):
        return tls.getpeercert(binary_form=True)


def test_the_running_server_renews_its_certificate_and_follows_a_new_address(app, capsys):
    """What `make run` does every hour (serve.renew_certificates): a server certificate
    near its end is issued again and served from the next handshake, under the same root;
    a new address is answered by the Host check, and a root that cannot vouch for it is
    made again, with what the family must do said."""
    import datetime

    home = certificates.Covered((NAME,), ("192.0.2.2",))
    long_ago = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=380)
    old = certificates.ensure(app.instance_path, home, "vm", long_ago).status
    served = InProcess(app, old)
    try:
        renewing(app, served, home, old, capsys)
    finally:
        served.stop()


def renewing(app, served, home, old, capsys):
    server, port = served.server, served.https_port

    assert renew_certificates(app, server, 5000, home, home) == home
    renewed = certificates.load(app.instance_path)
    assert renewed.root == old.root and renewed.server != old.server
    assert "https certificate issued again" in capsys.readouterr().out
    # the server's context now holds the new certificate: the next handshake gets it
    assert handshake(port, renewed) == renewed.server.public_bytes(Encoding.DER)

    moved = certificates.Covered((NAME,), ("10.0.0.7",))
    both = certificates.Covered((NAME,), ("192.0.2.2", "10.0.0.7"))
    assert renew_certificates(app, server, 5000, home, moved) == both
    assert {"10.0.0.7", "192.0.2.2"} <= set(app.config["TRUSTED_HOSTS"])
    said = capsys.readouterr().out
    assert "The household certificate is new" in said and "http://192.0.2.2:5000/trust" in said
    assert certificates.load(app.instance_path).root != old.root
    assert handshake(port, certificates.load(app.instance_path)) is not None

    # a reading taken as the Wi-Fi drops for a moment shuts no phone out
    assert renew_certificates(app, server, 5000, both, certificates.Covered((NAME,), ())) == both
    assert {"10.0.0.7", "192.0.2.2"} <= set(app.config["TRUSTED_HOSTS"])

    # a new root made by `flask … https --new-root` while it runs: served from the next look
    made = certificates.ensure(app.instance_path, both, "vm", new_root=True)
    renew_certificates(app, server, 5000, both, both)
    assert handshake(port, made.status) == made.status.server.public_bytes(Encoding.DER)


@pytest.mark.long  # a served process started and seen to stop: 1 to 2 s
def test_a_server_that_cannot_say_where_it_is_stops_whole(tmp_path):
    """Its output closed before it prints (a pipe whose reader is gone): it fails, and
    exits, https server and all (cheroot's threads are no daemons: it once waited for
    them for ever)."""
    import subprocess

    migrate(tmp_path / "family.db")
    server = start_server(
        tmp_path / "instance", tmp_path / "family.db", stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    server.stdout.close()  # the reader is gone: its first print fails
    try:
        assert server.wait(timeout=30) != 0
    finally:
        server.kill()
