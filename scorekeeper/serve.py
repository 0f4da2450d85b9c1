"""Serve the app, over http and https, and say which address a phone should open.

Used by `make run`; `python -m scorekeeper.serve --help` lists the options.

One process, one app (one set of background workers, one connection per request
thread), one server (``web/server.py``: hypercorn, docs/HTTPS.md says why) on two ports:

- **http**: every phone opens the app there, paired or not;
- **https**, with the household certificate (``web/certificates.py``), for the phones that
  trust it: the offline page, the installed app, the screen kept awake, the passcode private.
"""

import argparse
import contextlib
import datetime
import io
import socket
import sqlite3
import ssl
import sys
import tempfile

import segno

from . import background, create_app
from .cli.household import household_line
from .scoring.language import _
from .storage.db import get_db
from .storage.faults import Fault
from .web import certificates, passcode
from .web.gate import upload_folder
from .web.network import lan_addresses
from .web.security import served_as
from .web.server import Server

#: seconds a thread runs before another waiting for the interpreter's lock gets it
SWITCH_INTERVAL = 0.0005
#: how often the running server looks at its certificates and this computer's addresses
CERTIFICATE_CHECK_SECONDS = 3600


def where_to_open(host, port, addresses, https_port=None, fingerprint=None):
    """The lines that tell the family which address to open."""
    if https_port:
        lines = [
            _(
                "Scorekeeper is running. On this computer: http://localhost:%(port)s/ "
                "(https on port %(https)s, for phones made secure)",
                port=port,
                https=https_port,
            )
        ]
    else:
        lines = [_("Scorekeeper is running. On this computer: http://localhost:%(port)s/", port=port)]
    if host in ("0.0.0.0", ""):
        for address in addresses or [_("<this computer's address>")]:
            lines.append(
                _(
                    "On a phone on the same Wi-Fi, open: http://%(address)s:%(port)s/",
                    address=address,
                    port=port,
                )
            )
        if https_port and addresses:
            lines.append(
                _(
                    "Secure, on a phone made secure once at http://%(address)s:%(port)s/trust: "
                    "https://%(address)s:%(https)s/",
                    address=addresses[0],
                    port=port,
                    https=https_port,
                )
            )
    if https_port and fingerprint:
        # the pairs on a line of their own, as a phone shows them: the family compares them
        lines.append(
            _(
                "Before a phone trusts the household certificate, compare the start of its SHA-256 "
                "fingerprint (in the certificate's details) with these %(count)s pairs:",
                count=len(fingerprint.split()),
            )
        )
        lines.append(f"    {fingerprint}")
    lines.append(_("Stop it with Ctrl+C."))
    return lines


def qr_codes(host, port, addresses, https_port=None):
    """Each address a phone opens (and its https one), as a QR code to scan from the terminal (text)."""
    if host not in ("0.0.0.0", ""):
        return ""
    out = io.StringIO()
    for address in addresses:
        urls = [f"http://{address}:{port}/"] + ([f"https://{address}:{https_port}/"] if https_port else [])
        for url in urls:
            out.write(_("Scan to open %(url)s", url=url) + "\n")
            segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def covered_now(app):
    """This computer's names and addresses, as the certificates must cover them now."""
    return certificates.this_computer(app.config["EXTRA_HOSTS"])


def told_of(made, port):
    """What ``make run`` says of a household root it just made again (none the first time)."""
    if not made.new_root or made.why == "there was none":
        return []
    first = made.status.covered.addresses[:1] or made.status.covered.names[:1] or [_("this computer")]
    return [
        _(
            "The household certificate is new (%(why)s). A phone made secure before sees a "
            "certificate warning at https: open http://%(host)s:%(port)s/trust on it, remove the old "
            "Scorekeeper certificate and install the new one (docs/HTTPS.md).",
            why=_(made.why),
            host=first[0],
            port=port,
        )
    ]


def renew_certificates(app, server, port, covered, now_covered):
    """One look at the certificates (``keep_certificates``): this computer was ``covered``
    and is now read as ``now_covered``. Names and addresses are only ever added while it
    runs (a reading taken as the Wi-Fi drops for a moment would otherwise shut every phone
    out until the next look; one gone is let go at the next start): the Host check answers
    the new ones, and a certificate issued again, here or by `flask … https`, is served
    from the next handshake. Returns what the certificates now cover."""
    wanted = covered.union(now_covered)
    if wanted != covered:
        names = served_as(wanted.addresses, socket.gethostname(), app.config["EXTRA_HOSTS"])
        app.config["TRUSTED_HOSTS"] = list(dict.fromkeys([*app.config["TRUSTED_HOSTS"], *names]))
    made = certificates.ensure(app.instance_path, wanted, socket.gethostname())
    if made.status.server != server.serving:
        server.reload(made.status)
        print(
            _(
                "%(when)s https certificate issued again.",
                when=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            ),
            flush=True,
        )
    for line in told_of(made, port):
        print(line, flush=True)
    return wanted


def keep_certificates(app, server, port):
    """Look every hour, on a worker of its own (stopped as the server stops): a certificate
    near its end is issued again, and so is one for new addresses (which the Host check
    then answers too)."""
    covered = covered_now(app)

    def look():
        nonlocal covered
        try:
            covered = renew_certificates(app, server, port, covered, covered_now(app))
        except (OSError, ValueError, ssl.SSLError) as error:  # a full disk: the old one serves on
            print(
                _("The https certificate could not be renewed: %(error)s", error=error),
                file=sys.stderr,
                flush=True,
            )
        return CERTIFICATE_CHECK_SECONDS

    worker = background.Worker("certificates")
    worker.submit(look, after=CERTIFICATE_CHECK_SECONDS)
    return worker


def share_address(host, addresses):
    """The address phones reach this server at, for the share links of pages
    opened on the computer itself: its first LAN address when it listens on
    every interface, the address it listens on otherwise, or None on loopback
    (no phone reaches it: the link stays as the page was opened)."""
    if host in ("0.0.0.0", "", "::"):
        return addresses[0] if addresses else None
    return None if host in ("localhost", "::1") or host.startswith("127.") else host


def _say_where(app, args, port, addresses, made, said):
    """Print the addresses to open (and their QR codes), the fingerprint, the household code."""
    https_port = app.config.get("HTTPS_PORT")
    fingerprint = made.status.fingerprint if made and https_port else None
    for line in where_to_open(args.host, port, addresses, https_port, fingerprint) + said:
        print(line, flush=True)
    if passcode.stored_hash(app.instance_path) is None:
        # proves a phone is held at home: the first passcode, an import, the whole history.
        # Only a terminal is shown it: a service's journal or a log file is read by others.
        if sys.stdout.isatty():
            print(household_line(passcode.household_code(app.instance_path)), flush=True)
        else:
            print(
                _(
                    "Household code: run `.venv/bin/flask --app scorekeeper household` on this "
                    "computer to read it (not written here: a log is read by others)"
                ),
                flush=True,
            )
    codes = qr_codes(args.host, port, addresses, https_port)
    with contextlib.suppress(UnicodeEncodeError):  # a terminal without block characters gets none
        codes.encode(sys.stdout.encoding or "ascii")
        print(codes, end="", flush=True)


def main(argv=None, make_app=create_app):
    """Serve ``make_app()`` (the benchmarks serve the app with routes of their own)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=5000, help="0 picks a free port")
    parser.add_argument(
        "--https-port", type=int, default=5443, help="0 picks a free port; -1 serves no https"
    )
    args = parser.parse_args(argv)
    app = make_app()
    # A phone's Save waits for the interpreter's lock once per SQLite statement; beside a
    # thread busy for seconds in pure Python (an import checking years of games), each such
    # wait is the switch interval. During an 8,000-game import the slowest Save took 335 ms
    # at the default 5 ms, 46 ms at 0.5 ms (bench/locks.py, issue 42).
    sys.setswitchinterval(SWITCH_INTERVAL)
    with app.app_context(), contextlib.suppress(Fault, sqlite3.Error):
        # finishes, in the background, a ratings' catch-up a crash cut short (services/catch_up.py); a
        # database that cannot be opened now is said by the first page asked for
        get_db()
    # bodies past what is kept in memory wait on a disk, never in a RAM-backed /tmp (the
    # server's own spool and werkzeug's for a form's files, through tempfile)
    folder = tempfile.tempdir = upload_folder(app.config.get("UPLOAD_TMP"))
    server = Server(app, args.host, args.port, folder)  # bound: the address printed answers
    made, said = None, []
    if args.https_port >= 0:
        try:
            made = certificates.ensure(app.instance_path, covered_now(app), socket.gethostname())
            server.secure(args.https_port, made.status)
        except (OSError, ValueError, ssl.SSLError) as error:
            made = None
            said.append(
                _("https is not served (%(error)s): phones open the app over http alone.", error=error)
            )
    addresses = lan_addresses()
    app.config["SHARE_ADDRESS"] = share_address(args.host, addresses)
    app.config["HTTP_PORT"] = server.http_port  # share links stay on http (views/share.py)
    if server.https_port:
        app.config["HTTPS_PORT"] = server.https_port
        said += told_of(made, server.http_port)
    keeper = None
    try:
        with app.app_context():  # in the household's language, if it chose one
            _say_where(app, args, server.http_port, addresses, made, said)
        if server.https_port:
            keeper = keep_certificates(app, server, server.http_port)
        # until Ctrl+C or a service manager's SIGTERM: an orderly stop either way, so that
        # what waits for it (a change's backup, autobackup.flush) is done
        server.run()
    finally:
        if keeper:
            keeper.stop()
        server.close()


if __name__ == "__main__":
    main()
