"""Only the hosts the app is served as are answered, and every response carries
the security headers."""

import re
import socket

import pytest

from scorekeeper import create_app
from scorekeeper.scoring import TeamRound
from scorekeeper.web import passcode
from scorekeeper.web.network import lan_addresses
from scorekeeper.web.security import served_as

from ..helpers import csrf_token, text

CSP = re.compile(r"^[a-z-]+(?: [^;]+)?(?:; [a-z-]+(?: [^;]+)?)*$")


def test_the_names_served_as():
    names = served_as(["192.168.1.20", "10.0.0.5"], "Kitchen-PC", ["scores.home.arpa"])
    assert names == [
        "localhost",
        "127.0.0.1",
        "192.168.1.20",
        "10.0.0.5",
        "kitchen-pc",
        "kitchen-pc.local",
        "scores.home.arpa",
    ]
    assert served_as([], "", []) == ["localhost", "127.0.0.1"]


def test_the_app_answers_at_localhost_its_lan_addresses_and_host_name(client):
    hosts = ["localhost", "localhost:5000", "127.0.0.1:5000", socket.gethostname(), *lan_addresses()]
    for host in hosts:
        assert client.get("/rules", headers={"Host": host}).status_code == 200, host


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:5000", "localhost.evil.example", "203.0.113.7"]
)
def test_a_foreign_host_is_refused_with_a_plain_400(app, client, make_game, method, host):
    game = make_game("roth", [[TeamRound(melded_points=300), TeamRound(melded_points=150)]])
    for url in ("/", "/export.json", f"/games/{game.id}", f"/s/{game.share_token}", "/no/such/page"):
        response = client.open(url, method=method, headers={"Host": host})
        assert response.status_code == 400, url
        page = text(response)
        assert "Unknown address" in page and "Ann" not in page and game.share_token not in page
        assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")


def test_a_foreign_host_is_refused_before_the_passcode_is_asked(app, client):
    passcode.set_passcode(app.instance_path, "Marmalade-42")
    response = client.get("/", headers={"Host": "evil.example"})
    assert response.status_code == 400 and "Location" not in response.headers


def test_more_hosts_from_the_instance_config(instance_path, tmp_path):
    instance_path.mkdir()
    (instance_path / "config.py").write_text(
        f'EXTRA_HOSTS = ["scores.home.arpa"]\nDATABASE = "{tmp_path / "x.db"}"\n'
    )
    client = create_app().test_client()
    assert client.get("/offline", headers={"Host": "scores.home.arpa:5000"}).status_code == 200
    assert client.get("/offline", headers={"Host": "other.home.arpa"}).status_code == 400


def headers_are_set(response, where):
    policy = response.headers["Content-Security-Policy"]
    assert CSP.match(policy), (where, policy)
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    assert directives["default-src"] == "'self'", where
    assert directives["script-src"] == "'self'", where
    assert directives["style-src"].split(" ")[0] == "'self'", where
    assert directives["frame-ancestors"] == "'none'", where
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "*" not in policy, where
    assert response.headers["X-Content-Type-Options"] == "nosniff", where
    assert response.headers["Referrer-Policy"] == "same-origin", where
    assert response.headers["X-Frame-Options"] == "DENY", where
    assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin", where


@pytest.mark.long  # every kind of page, a PDF and a picture among them, drawn: about a second
def test_every_response_carries_the_security_headers(app, client, make_game):
    game = make_game("roth", [[TeamRound(melded_points=300), TeamRound(melded_points=150)]])
    urls = [
        "/",
        f"/games/{game.id}",
        f"/games/{game.id}.json",
        f"/games/{game.id}/sheet",
        f"/games/{game.id}/sheet.pdf",
        f"/games/{game.id}/share.svg",
        f"/s/{game.share_token}",
        "/s/no-such-link",
        "/export.csv",
        "/static/style.css",
        "/static/icon-192.png",
        "/manifest.webmanifest",
        "/sw.js",
        "/offline",
        "/settings",
        "/no/such/page",
    ]
    for url in urls:
        with client.get(url) as response:
            headers_are_set(response, url)
    # a refused post, a 304 and a refused host too
    with client.post("/games/new", data={}) as response:
        headers_are_set(response, "refused post")
    etag = client.get(f"/s/{game.share_token}").headers["ETag"]
    with client.get(f"/s/{game.share_token}", headers={"If-None-Match": etag}) as response:
        assert response.status_code == 304
        headers_are_set(response, "304")
    with client.get("/", headers={"Host": "evil.example"}) as response:
        headers_are_set(response, "foreign host")
    # and with a passcode set: the redirect to sign in, and the sign-in page
    passcode.set_passcode(app.instance_path, "Marmalade-42")
    for url in ("/", "/sign-in"):
        with client.get(url) as response:
            headers_are_set(response, url)


def test_pages_carry_no_inline_script_or_style(app, client, make_game):
    """Everything a page runs or styles comes from /static: the CSP allows nothing inline."""
    game = make_game("roth", [[TeamRound(melded_points=300), TeamRound(melded_points=150)]] * 2)
    for url in (
        "/",
        f"/games/{game.id}",
        f"/games/{game.id}/rounds/new",
        f"/s/{game.share_token}",
        "/settings",
    ):
        page = client.get(url).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\ssrc=)", page), url
        assert not re.search(r"\son[a-z]+=", page), url
        assert not re.search(r"\sstyle=", page), url
        assert "<style" not in page, url


def test_the_sheet_needs_no_inline_style(app, client, make_game):
    """The sheet's paper is a named page of sheet.css: no inline style, so the policy allows none."""
    game = make_game("roth", [[TeamRound(melded_points=300), TeamRound(melded_points=150)]])
    for url in (f"/games/{game.id}/sheet", f"/games/{game.id}/sheet?paper=a4", "/rules/roth/blank"):
        response = client.get(url)
        assert "<style" not in response.get_data(as_text=True), url
        assert "style-src 'self';" in response.headers["Content-Security-Policy"], url


def test_csrf_checks_the_referer_over_https_and_the_policy_sends_it_same_origin(app, client):
    """Flask-WTF refuses a post over https without a same-origin Referer; the
    Referrer-Policy (same-origin) is what lets a browser send that one."""
    base = "https://localhost"
    # over https the phone has a session of its own: it gives the household code there too
    token = csrf_token(client, "/household", base_url=base)
    code = {"csrf_token": token, "code": passcode.household_code(app.instance_path)}
    client.post("/household", base_url=base, data=code, headers={"Referer": base + "/household"})
    token = csrf_token(client, "/settings", base_url=base)
    data = {"csrf_token": token, "new": "ab", "confirm": "ab", "action": "save"}
    refused = client.post("/settings", base_url=base, data=data)
    assert refused.status_code == 400 and "form came from elsewhere" in text(refused)
    allowed = client.post("/settings", base_url=base, data=data, headers={"Referer": base + "/settings"})
    assert allowed.status_code == 422 and "Use at least 4 characters" in text(allowed)


def test_the_household_code_made_by_two_at_once_is_one_code(tmp_path):
    """`make run` and `flask … doctor` (or a test beside the server) may make the code at
    the same moment: each says the code that was kept, never one of its own that another
    replaced (a served test met it: the phone typed the code the test had made)."""
    import threading

    for attempt in range(20):
        folder = tmp_path / f"instance-{attempt}"
        folder.mkdir()
        start, said = threading.Barrier(8), []

        def make(folder=folder, start=start, said=said):
            start.wait(10)
            said.append(passcode.household_code(folder))

        threads = [threading.Thread(target=make) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        assert len(said) == 8 and len(set(said)) == 1, said
        assert passcode.household_code(folder) == said[0]
        assert sorted(p.name for p in folder.iterdir()) == [passcode.HOUSEHOLD_FILE]  # no partial file left
    (folder / passcode.HOUSEHOLD_FILE).write_text("not a code\n")  # a broken file is made again
    assert passcode.household_code(folder).isdigit()
