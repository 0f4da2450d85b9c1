"""A guest on the Wi-Fi against `make run`'s server (issue 53): connections held open,
bodies larger than their page takes, and where a body waits. docs/SECURITY.md.

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

from scorekeeper.services.schema import migrate
from scorekeeper.web import certificates
from scorekeeper.web.gate import _on_ram, upload_folder
from scorekeeper.web.server import CONNECTIONS_PER_ADDRESS

from ..helpers import csrf_token, served

#: past the per-address share, past cheroot's 16 https threads and waitress's 100 connections
GUEST_CONNECTIONS = 120
#: how long the phone waits for its page: the server's own deadlines are longer, so a
#: server held up by the guest fails the test instead of answering late
PHONE_PATIENCE = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """(http port, https port, the household root's file) of one served process."""
    folder = tmp_path_factory.mktemp("guests")
    migrate(folder / "family.db")
    with served(folder / "instance", folder / "family.db") as (process, port):
        root = folder / "instance" / certificates.FOLDER / certificates.ROOT_CERT
        yield port, process.https_port, str(root)


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
    http_port, https_port, root = server
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
    port, _, _ = server
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
    dropped, and the connection closed after the answer (hypercorn hands a body over a few
    parts at a time: a rest left unread held the connection until the server stopped)."""
    port, _, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=PHONE_PATIENCE) as raw:
        raw.sendall(
            b"POST /rules/new HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n\r\n"
        )
        chunk = b"a" * 65536
        answer = b""
        for _ in range(32):  # 2 MB, unless the server answers first
            try:
                raw.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:
                break
        try:
            while part := raw.recv(65536):  # the answer, then the end of the connection
                answer += part
        except ConnectionResetError:
            pass
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert b"\r\nconnection: close\r\n" in answer.lower()


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
    port, _, _ = server
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
