"""A guest on the Wi-Fi against `make run`'s server (issue 53): connections held open,
bodies larger than their page takes (a photo of the sheet past 20 MB too, issue 55), and
where a body waits. docs/SECURITY.md.

The guest connects from 127.0.0.2 (or .3) and the family's phone from 127.0.0.1: two
addresses, as two devices on the Wi-Fi. One server process is shared by the module (each test leaves it
as it found it: the guest's connections closed).
"""

import http.client
import json
import re
import socket
import ssl

import pytest

from scorekeeper.forms.photos import MAX_PHOTO_SIZE
from scorekeeper.scoring import RULESETS
from scorekeeper.services import games
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect, transaction
from scorekeeper.web import certificates
from scorekeeper.web.gate import _on_ram, upload_folder
from scorekeeper.web.server import CONNECTIONS_PER_ADDRESS, REQUEST_THREADS

from ..helpers import csrf_token, served
from ..httpkit import HttpPhone

#: past the per-address share, past cheroot's 16 https threads and waitress's 100 connections
GUEST_CONNECTIONS = 120
#: how long the phone waits for its page: the server's own deadlines are longer, so a
#: server held up by the guest fails the test instead of answering late
PHONE_PATIENCE = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """(http port, https port, the household root's file, a game's id) of one served
    process, on a family's database with one game (whose sheet's photo is sent)."""
    folder = tmp_path_factory.mktemp("guests")
    migrate(folder / "family.db")
    db = connect(folder / "family.db")
    with transaction(db):
        game_id = games.insert_game(db, RULESETS["roth"], "roth", [("", ["Ann"]), ("", ["Bo"])])
    db.close()
    with served(folder / "instance", folder / "family.db") as (process, port):
        root = folder / "instance" / certificates.FOLDER / certificates.ROOT_CERT
        yield port, process.https_port, str(root), game_id


def tls(root):
    context = ssl.create_default_context(cafile=root)
    context.check_hostname = False  # reached at 127.0.0.1: the chain is checked, not the name
    return context


def phone_page(port, root=None, path="/rules"):
    """The status of ``path`` asked by the family's phone on a new connection."""
    if root:
        connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=PHONE_PATIENCE, context=tls(root))
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PHONE_PATIENCE)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def guest_connection(port, root, guest):
    """A connection from the ``guest``'s address, the TLS handshake made over https; None
    if the server closed it at once."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=PHONE_PATIENCE, source_address=(guest, 0))
    if not root:
        return raw
    try:
        return tls(root).wrap_socket(raw)
    except (ssl.SSLError, OSError):
        raw.close()
        return None


def answered(connection):
    """Whether a request on ``connection`` is answered (kept alive after), or the server
    closed it unanswered."""
    try:
        connection.sendall(b"GET /rules HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return connection.recv(16).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


@pytest.mark.long
@pytest.mark.parametrize(
    ("scheme", "guest"),
    # a guest each: the server counts one's connections until it has seen them closed
    [("http", "127.0.0.2"), ("https", "127.0.0.3")],
)
def test_a_guest_holding_connections_open_holds_no_phone_up(server, scheme, guest):
    """120 connections from one guest, each left open and idle (over https after its
    handshake), then each with a request's first line and nothing more: the family's phone
    is answered at once beside them, over http and over https. The guest holds
    ``CONNECTIONS_PER_ADDRESS`` of them: the next one is closed as it is accepted.
    (Before: cheroot's 16 https threads each waited on one, and waitress stopped accepting
    at 100 connections; the phone timed out.)"""
    http_port, https_port, root, _ = server
    port, root = (http_port, None) if scheme == "http" else (https_port, root)
    held = []
    try:
        for _ in range(GUEST_CONNECTIONS):
            connection = guest_connection(port, root, guest)
            if connection is not None and answered(connection):
                held.append(connection)
            elif connection is not None:
                connection.close()
        assert len(held) == CONNECTIONS_PER_ADDRESS == 32
        assert phone_page(port, root) == 200
        for connection in held:  # a request begun, never finished: no thread waits on it
            connection.sendall(b"GET /rules HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
        assert phone_page(port, root) == 200
        extra = guest_connection(port, root, guest)
        if extra is not None:
            held.append(extra)
            assert not answered(extra)
    finally:
        for connection in held:
            connection.close()


def post_announcing(port, path, length):
    """POST ``path`` announcing a body of ``length`` bytes, none of it sent: the status the
    server answers with before the body (a server that waits for it fails here)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PHONE_PATIENCE)
    try:
        connection.putrequest("POST", path)
        connection.putheader("Content-Type", "application/x-www-form-urlencoded")
        connection.putheader("Content-Length", str(length))
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


@pytest.mark.long
def test_a_body_is_bounded_by_what_its_page_takes_before_it_is_read(server):
    """A form takes at most 1 MB, the import 64 MB: a body announced larger is refused at
    once (413, the app's own page), not a byte of it read. (Before: every path took 65 MB,
    spooled to the temporary folder.)"""
    port, _, _, _ = server
    for path in ("/rules/new", "/sign-in", "/no-such-page"):
        status, page = post_announcing(port, path, 2 * 1024 * 1024)
        assert status == 413, path
        assert "The data value transmitted exceeds the capacity limit." in page, path
    status, _ = post_announcing(port, "/import", 70 * 1024 * 1024)
    assert status == 413
    assert phone_page(port) == 200


@pytest.mark.long
def test_a_body_sent_in_chunks_is_cut_at_the_limit_of_its_page(server):
    """Without a length announced (chunked), the server stops reading at the page's limit
    and the app refuses it: the view never runs on part of a body. The rest is read and
    dropped, and the connection closed after the answer once the body is over (hypercorn
    hands a body over a few parts at a time: a rest left unread held the connection until
    the server stopped; closed while it still arrived, the phone got a reset, issue 55):
    every chunk is sent, none refused by a reset, and the answer is read whole."""
    port, _, _, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=PHONE_PATIENCE) as raw:
        raw.sendall(
            b"POST /rules/new HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n\r\n"
        )
        chunk = b"a" * 65536
        answer = b""
        for _ in range(32):  # 2 MB: the server answers after the first, and reads on
            raw.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        raw.sendall(b"0\r\n\r\n")  # the body's end
        while part := raw.recv(65536):  # the answer, then the end of the connection
            answer += part
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert b"\r\nconnection: close\r\n" in answer.lower()


TOO_BIG = "That photo is too big (at most 20 MB): nothing was read."


def photo_sent(server, scheme, data, filename="sheet.jpg"):
    """``data`` sent as the photo of the game's sheet from its photo page, over ``scheme``,
    as a phone's browser sends it (the form's token and cookie; the whole body sent, then
    the answer read): the answer."""
    http_port, https_port, root, game_id = server
    if scheme == "http":
        phone = HttpPhone("127.0.0.1", http_port, timeout=PHONE_PATIENCE)
    else:
        phone = HttpPhone("127.0.0.1", https_port, timeout=PHONE_PATIENCE, context=tls(root))
    form, url = phone.open_form(f"/games/{game_id}/photo", "/photo")
    return phone.submit(form, url, files=[("file", filename, data)])


# sending 21 MB over loopback, twice, and a 20 MB body read: about a second
@pytest.mark.long
@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_photo_past_20_mb_is_refused_with_the_familys_page_and_the_phone_reads_it(server, scheme):
    """A photo past the 20 MB the photo page takes is refused before it is read (413, the
    page's own words and its form, to take another), and the phone, which sends its whole
    body before it reads the answer, reads it: the rest of the body is read and dropped,
    not answered with a reset. (Before: the connection was closed with the body still
    arriving; http.client's send broke, and Chromium over https showed
    ERR_CONNECTION_RESET instead of the page.) One just under the limit is read: a file
    that is no picture is said so, beside the field."""
    huge = b"\xff\xd8" + b"\0" * (MAX_PHOTO_SIZE + 1024 * 1024)
    answer = photo_sent(server, scheme, huge)
    assert answer.status == 413, answer.text[:300]
    assert TOO_BIG in answer.text
    assert 'capture="environment"' in answer.text
    # twice: the connection it came on, lingering, holds nothing up
    assert photo_sent(server, scheme, huge).status == 413

    just_under = b"no picture: " + b"a" * (MAX_PHOTO_SIZE - 16)
    answer = photo_sent(server, scheme, just_under, filename="scores.txt")
    assert answer.status == 422, answer.text[:300]
    assert "This file is not a picture." in answer.text
    assert TOO_BIG not in answer.text


def answer_on(connection):
    """The status and body of the answer on ``connection`` (raw socket), read as far as
    its Content-Length, whatever the connection does after."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += connection.recv(65536)
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(re.search(rb"\r\ncontent-length: *(\d+)", head, re.IGNORECASE)[1])
    while len(body) < length:
        body += connection.recv(65536)
    return int(head.split(b" ", 2)[1]), body.decode()


@pytest.mark.long
def test_a_guest_trickling_a_huge_photo_holds_no_thread(server):
    """A guest announces a photo past 20 MB on twice as many connections as the app has
    threads, and sends a few bytes of each: each is refused (413, the page's words) without
    waiting for its body, and while every one of them is still sending, the family's phone
    is answered. What more they send is read and dropped on the server's loop."""
    port, _, _, game_id = server
    length = MAX_PHOTO_SIZE + 1024 * 1024
    held = []
    try:
        for _ in range(2 * REQUEST_THREADS):
            connection = guest_connection(port, None, "127.0.0.4")
            connection.sendall(
                f"POST /games/{game_id}/photo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {length}\r\n\r\n"
                '--x\r\nContent-Disposition: form-data; name="file"; filename="sheet.jpg"\r\n\r\n'.encode()
            )
            held.append(connection)
        for connection in held:
            status, page = answer_on(connection)
            assert status == 413 and TOO_BIG in page
            connection.sendall(b"\xff\xd8\0\0")  # the guest trickles on
        assert phone_page(port) == 200
    finally:
        for connection in held:
            connection.close()


MOUNTS = """\
22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
23 22 0:21 / /proc rw shared:12 - proc proc rw
26 22 0:24 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,size=4G
27 22 0:25 / /dev/shm rw shared:6 - tmpfs tmpfs rw
28 22 254:1 / /home/family rw shared:7 - ext4 /dev/vdb rw
29 22 0:26 / /mnt/my\\040ram rw shared:8 - ramfs ramfs rw
"""


def test_a_body_waits_on_a_disk_never_in_memory(tmp_path):
    """A body past what is kept in memory is spooled to a file: never on a file system kept
    in RAM (Debian's /tmp can be tmpfs), /var/tmp then (issue 53)."""
    assert _on_ram("/tmp", MOUNTS) is True
    assert _on_ram("/tmp/uploads", MOUNTS) is True
    assert _on_ram("/tmpfiles", MOUNTS) is False  # a folder of / whose name starts alike
    assert _on_ram("/dev/shm", MOUNTS) is True
    assert _on_ram("/mnt/my ram/x", MOUNTS) is True
    assert _on_ram("/var/tmp", MOUNTS) is False
    assert _on_ram("/home/family/uploads", MOUNTS) is False
    assert upload_folder("/home/family/uploads") == "/home/family/uploads"  # UPLOAD_TMP, as set
    assert upload_folder(None, "/tmp", MOUNTS) == "/var/tmp"
    assert upload_folder(None, "/home/family/tmp", MOUNTS) == "/home/family/tmp"


def test_a_json_body_is_refused_on_every_page_that_takes_a_form(client, db, make_game):
    """Every page takes a form; Flask-WTF would read a JSON body (its CSRF token in a header)
    as one, and a list or a number in it made every form answer 500 (issue 53's review).
    Whatever it holds, a JSON body is refused (415) before a form reads it, nothing written."""
    from scorekeeper.scoring import TeamRound

    game = make_game("roth", [[TeamRound(melded_points=300, went_out=True), TeamRound(melded_points=100)]])
    token = csrf_token(client, "/games/new")
    before = db.execute("SELECT count(*) FROM revisions").fetchone()[0]
    posts = sorted(
        rule.rule
        for rule in client.application.url_map.iter_rules()
        if "POST" in rule.methods and rule.endpoint != "static"
    )
    assert len(posts) > 20  # the walk does see the app's forms
    for rule in posts:
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(game.id) if "id" in m[1] else "x", rule)
        for body in ([1, 2], "x", 5, {"name": [1, {"a": 2}]}, None):
            answer = client.post(
                path, data=json.dumps(body), content_type="application/json", headers={"X-CSRFToken": token}
            )
            assert answer.status_code == 415, (path, body, answer.status_code)
    assert db.execute("SELECT count(*) FROM revisions").fetchone()[0] == before


@pytest.mark.long
def test_every_answer_says_its_date_once(server):
    """A page the app gives no Date gets the server's; a file that has its own keeps it,
    alone (hypercorn's own would have made two)."""
    port, _, _, _ = server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PHONE_PATIENCE)
    try:
        for path in ("/rules", "/static/style.css"):
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            assert response.status == 200, path
            dates = [value for name, value in response.getheaders() if name.lower() == "date"]
            assert len(dates) == 1 and dates[0].endswith(" GMT"), (path, dates)
    finally:
        connection.close()
