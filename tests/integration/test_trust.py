"""Making a phone secure (views/trust.py) and what changes over https: the page for each
kind of phone, the certificate in the form each installs, the offer on http pages, the
session cookie Secure over https, and "every phone here is paired" sending http to https.
Real requests on the Flask test client, at the computer's name as a phone opens it."""

import datetime
import os
import plistlib
import re
import socket

import pytest
from cryptography import x509

from scorekeeper.web import certificates, passcode

from ..helpers import csrf_token, fingerprint_pairs, text

NAME = f"{socket.gethostname()}.local"
HTTP, HTTPS = f"http://{NAME}:5000", f"https://{NAME}:5443"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Safari/604.1"
)
ANDROID = "Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36"
WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36"
SECRET = "Marmalade-42"


@pytest.fixture
def served(app):
    """The app as `make run` serves it: https on 5443 beside http on 5000, the household
    certificates made."""
    app.config.update(HTTPS_PORT=5443, HTTP_PORT=5000)
    made = certificates.ensure(app.instance_path, certificates.Covered((NAME,), ("192.0.2.2",)), "vm")
    return made.status


def phone(app, agent=ANDROID):
    client = app.test_client()
    client.environ_base["HTTP_USER_AGENT"] = agent
    return client


def post(client, base, path, data, page=None):
    """A form sent as a browser sends it: over https with the page's own Referer, which
    Flask-WTF asks of every post over https."""
    return client.post(path, base_url=base, data=data, headers={"Referer": base + (page or path)})


@pytest.mark.parametrize(
    ("agent", "download", "words"),
    [
        (IPHONE, "/trust/scorekeeper-household.mobileconfig", "Certificate Trust Settings"),
        (
            ANDROID,
            "/trust/scorekeeper-household.crt",
            "Encryption &amp; credentials › Install a certificate › CA",
        ),
        (WINDOWS, "/trust/scorekeeper-household.crt", "Trusted Root Certification Authorities"),
    ],
    ids=["iphone", "android", "computer"],
)
def test_the_trust_page_gives_each_kind_of_phone_its_own_certificate_and_steps(
    app, served, agent, download, words
):
    page = phone(app, agent).get("/trust", base_url=HTTP)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    steps = html.split('id="steps-title"', 1)[1].split("</section>", 1)[0]
    assert f'href="{download}"' in steps and words in steps
    assert shown_fingerprint(html) == served.fingerprint  # as make run printed it
    assert f'data-trust-check="{HTTPS}/trust/check"' in html and f'href="{HTTPS}/"' in html
    # the live check may ask https from this http page, and nothing else may
    assert f"connect-src 'self' {HTTPS};" in page.headers["Content-Security-Policy"]
    assert "How" not in html.split("<h1>", 1)[0]  # no offer on the trust page itself
    assert "To remove it again" in html and NAME in html


def shown_groups(html):
    """The fingerprint the trust page shows, as its groups of pairs."""
    block = re.search(r'<p class="fingerprint"[^>]*>(.*?)</p>', html, re.S)[1]
    return re.findall(r"<span>([^<]*)</span>", block)


def shown_fingerprint(html):
    """The fingerprint the trust page shows, its groups joined as make run prints it."""
    return " ".join(shown_groups(html))


@pytest.mark.parametrize(
    ("agent", "where"),
    [
        (IPHONE, "Scorekeeper at vm › More Details › Scorekeeper household root"),
        (ANDROID, "Encryption &amp; credentials › Trusted credentials › User › Scorekeeper household root"),
        (WINDOWS, "the certificate’s details"),
    ],
    ids=["iphone", "android", "computer"],
)
def test_the_trust_page_shows_128_bits_of_the_fingerprint_and_where_to_compare_them(
    app, served, agent, where
):
    """Sixteen pairs in four groups of four (32 bits before issue 53), as the phone shows the
    SHA-256; each kind of phone told where it shows it, and to compare with the computer."""
    pairs = fingerprint_pairs(os.path.join(served.folder, certificates.ROOT_CERT))
    html = phone(app, agent).get("/trust", base_url=HTTP).get_data(as_text=True)
    assert shown_groups(html) == [
        " ".join(pairs[0:4]),
        " ".join(pairs[4:8]),
        " ".join(pairs[8:12]),
        " ".join(pairs[12:16]),
    ]
    steps = html.split('id="steps-title"', 1)[1].split("</section>", 1)[0]
    assert where in steps
    assert "<code>make run</code>" in steps and "<code>flask --app scorekeeper doctor</code>" in steps


def test_the_certificate_downloads_are_the_household_root(app, served):
    client = phone(app)
    der = client.get("/trust/scorekeeper-household.crt", base_url=HTTP)
    assert der.mimetype == "application/x-x509-ca-cert"
    assert x509.load_der_x509_certificate(der.data) == served.root
    profile = client.get("/trust/scorekeeper-household.mobileconfig", base_url=HTTP)
    assert profile.mimetype == "application/x-apple-aspen-config"
    assert plistlib.loads(profile.data)["PayloadContent"][0]["PayloadContent"] == der.data
    check = client.get("/trust/check", base_url=HTTPS)
    assert check.status_code == 204 and check.headers["Cross-Origin-Resource-Policy"] == "cross-origin"


def test_without_https_served_the_page_says_so_and_the_downloads_say_where_they_come_from(app):
    html = text(phone(app).get("/trust", base_url=HTTP))
    assert "This computer does not serve https now" in html
    missing = phone(app).get("/trust/scorekeeper-household.crt", base_url=HTTP)
    assert missing.status_code == 404 and "make run" in text(missing)


def test_http_pages_offer_it_once_and_https_pages_never(app, served):
    client = phone(app)
    assert "Make this phone secure" in text(client.get("/rules", base_url=HTTP))
    later = client.get("/trust/later?next=/rules", base_url=HTTP)
    assert later.status_code == 303 and later.location == "/rules"
    assert "Make this phone secure" not in text(client.get("/rules", base_url=HTTP))
    # a page of another site is never where "Not now" leads
    assert client.get("/trust/later?next=//example.com/", base_url=HTTP).location == "/"
    assert "Make this phone secure" not in text(phone(app).get("/rules", base_url=HTTPS))


def test_over_https_the_session_cookie_is_secure_and_its_own(app, served):
    passcode.set_passcode(app.instance_path, SECRET)
    client = phone(app)
    token = csrf_token(client, "/sign-in", base_url=HTTPS)
    signed = post(client, HTTPS, "/sign-in", {"csrf_token": token, "passcode": SECRET})
    assert signed.status_code == 303
    cookies = [value for name, value in signed.headers.items() if name == "Set-Cookie"]
    assert cookies and all(cookie.startswith("__Host-session=") for cookie in cookies), cookies
    assert all("Secure" in cookie and "HttpOnly" in cookie and "Path=/" in cookie for cookie in cookies)
    assert client.get("/rules", base_url=HTTPS).status_code == 200
    # over http the same phone has not signed in: its https cookie never crosses in the clear
    assert client.get("/rules", base_url=HTTP).status_code == 303
    token = csrf_token(client, "/sign-in", base_url=HTTP)
    plain = client.post("/sign-in", base_url=HTTP, data={"csrf_token": token, "passcode": SECRET})
    cookie = plain.headers["Set-Cookie"]
    assert cookie.startswith("session=") and "Secure" not in cookie


def test_every_phone_paired_sends_http_to_https_but_the_trust_page(app, served, make_game):
    game = make_game("roth")
    client = phone(app)
    # a guest on the Wi-Fi cannot turn it on: the household code is asked first
    token = csrf_token(client, "/settings", base_url=HTTP)
    refused = client.post("/settings/https", base_url=HTTP, data={"csrf_token": token, "paired": "yes"})
    assert refused.status_code == 303 and "/household" in refused.location
    assert client.get(f"/games/{game.id}", base_url=HTTP).status_code == 200

    home = phone(app)
    token = csrf_token(home, "/household", base_url=HTTP)
    code = passcode.household_code(app.instance_path)
    assert home.post("/household", base_url=HTTP, data={"csrf_token": token, "code": code}).status_code == 303
    token = csrf_token(home, "/settings", base_url=HTTP)
    turned = home.post("/settings/https", base_url=HTTP, data={"csrf_token": token, "paired": "yes"})
    assert turned.status_code == 303

    sent = client.get(f"/games/{game.id}?x=1", base_url=HTTP)
    assert sent.status_code == 302 and sent.location == f"{HTTPS}/games/{game.id}?x=1"
    posted = client.post("/games/new", base_url=HTTP, data={"a": "b"})
    assert posted.status_code == 307 and posted.location == f"{HTTPS}/games/new"
    for path in ("/trust", "/trust/scorekeeper-household.crt", "/static/style.css"):
        assert client.get(path, base_url=HTTP).status_code == 200, path
    # the address sent as it came, quoted: no newline into a header, no '#' out of the path
    odd = client.get("/x%0aY/a%23b?c=1", base_url=HTTP)
    assert odd.status_code == 302 and odd.location == f"{HTTPS}/x%0AY/a%23b?c=1"
    # the computer itself, at an address the certificate does not name, stays on http
    assert client.get(f"/games/{game.id}", base_url="http://localhost:5000").status_code == 200
    assert client.get(f"/games/{game.id}", base_url=HTTPS).status_code == 200
    # the headers hold on both ports, and the Host check
    secure_page = client.get(f"/games/{game.id}", base_url=HTTPS)
    assert secure_page.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in secure_page.headers["Content-Security-Policy"]
    assert "Strict-Transport-Security" not in secure_page.headers  # phones not paired keep http
    assert client.get("/", base_url="https://evil.example:5443").status_code == 400
    assert client.get("/", base_url="http://evil.example:5000").status_code == 400

    # turned off over https, where the phone proves itself again (its https session is another)
    token = csrf_token(home, "/household", base_url=HTTPS)
    assert post(home, HTTPS, "/household", {"csrf_token": token, "code": code}).status_code == 303
    token = csrf_token(home, "/settings", base_url=HTTPS)
    assert (
        post(home, HTTPS, "/settings/https", {"csrf_token": token, "paired": "no"}, "/settings").status_code
        == 303
    )
    assert client.get(f"/games/{game.id}", base_url=HTTP).status_code == 200


def test_a_share_link_opened_over_https_is_an_http_one_a_guest_can_open(app, served, client, make_game):
    game = make_game("roth")
    token = csrf_token(client, f"/games/{game.id}", base_url=HTTPS)
    shared = post(client, HTTPS, f"/games/{game.id}/share/new", {"csrf_token": token}, f"/games/{game.id}")
    assert shared.status_code == 303
    page = text(client.get(f"/games/{game.id}", base_url=HTTPS))
    assert f'<p class="share-link"><a href="{HTTP}/s/' in page
    assert 'data-share-url="http' in page  # the phone's own share sheet, where it has one


def test_doctor_reports_the_certificates(app, served, runner):
    result = runner.invoke(args=["doctor", "--port", "0"])
    line = next(line for line in result.output.splitlines() if " https:" in line)
    assert NAME in line and served.fingerprint in line and "days left" in line
    assert served.days_left(datetime.datetime.now(datetime.UTC)) >= 396


def test_the_https_command_makes_them_and_says_what_they_cover(app, runner):
    result = runner.invoke(args=["https"])
    assert result.exit_code == 0, result.output
    status = certificates.load(app.instance_path)
    assert f"Fingerprint (SHA-256) starts: {status.fingerprint}" in result.output
    again = runner.invoke(args=["https"])
    assert "up to date" in again.output
    new = runner.invoke(args=["https", "--new-root"])
    assert "New household root (a new one was asked for)" in new.output
    assert certificates.load(app.instance_path).root != status.root
