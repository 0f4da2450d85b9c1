"""Serve the app with waitress and say which address a phone should open.

Used by `make run`; `python -m scorekeeper.serve --help` lists the options.
"""

import argparse
import contextlib
import io
import signal
import sqlite3
import sys
import tempfile

import segno
from waitress import create_server

from . import create_app, passcode
from .db import get_db
from .faults import Fault
from .forms.exchange import MAX_IMPORT_SIZE
from .network import lan_addresses

#: seconds a thread runs before another waiting for the interpreter's lock gets it
SWITCH_INTERVAL = 0.0005
#: the largest request body the server reads: an import, and its form around it
LARGEST_BODY = MAX_IMPORT_SIZE + 1024 * 1024


def where_to_open(host, port, addresses):
    """The lines that tell the family which address to open."""
    lines = [f"Scorekeeper is running. On this computer: http://localhost:{port}/"]
    if host in ("0.0.0.0", ""):
        for address in addresses or ["<this computer's address>"]:
            lines.append(f"On a phone on the same Wi-Fi, open: http://{address}:{port}/")
    lines.append("Stop it with Ctrl+C.")
    return lines


def qr_codes(host, port, addresses):
    """Each address a phone opens, as a QR code to scan from the terminal (text)."""
    if host not in ("0.0.0.0", ""):
        return ""
    out = io.StringIO()
    for address in addresses:
        url = f"http://{address}:{port}/"
        out.write(f"Scan to open {url}\n")
        segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def share_address(host, addresses):
    """The address phones reach this server at, for the share links of pages
    opened on the computer itself: its first LAN address when it listens on
    every interface, the address it listens on otherwise, or None on loopback
    (no phone reaches it: the link stays as the page was opened)."""
    if host in ("0.0.0.0", "", "::"):
        return addresses[0] if addresses else None
    return None if host in ("localhost", "::1") or host.startswith("127.") else host


def main(argv=None, make_app=create_app):
    """Serve ``make_app()`` (the benchmarks serve the app with routes of their own)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=5000, help="0 picks a free port")
    args = parser.parse_args(argv)
    app = make_app()
    # A phone's Save waits for the interpreter's lock once per SQLite statement; beside a
    # thread busy for seconds in pure Python (an import checking years of games), each such
    # wait is the switch interval. During an 8,000-game import the slowest Save took 335 ms
    # at the default 5 ms, 46 ms at 0.5 ms (bench/locks.py, issue 42).
    sys.setswitchinterval(SWITCH_INTERVAL)
    with app.app_context(), contextlib.suppress(Fault, sqlite3.Error):
        # finishes, in the background, a ratings' catch-up a crash cut short (catch_up.py); a
        # database that cannot be opened now is said by the first page asked for
        get_db()
    # Bodies bounded by the server itself, before anything is buffered: the largest a phone
    # sends is an import (64 MB), so a guest on the Wi-Fi cannot have waitress spool a
    # gigabyte a request (its default) onto a disk; what it does spool past 512 KB goes to
    # the temporary folder named here, on purpose (UPLOAD_TMP, else the system's: not the
    # instance folder, whose disk holds the scores and the backups).
    tempfile.tempdir = app.config.get("UPLOAD_TMP") or tempfile.gettempdir()
    # bind first, so that the address printed is already answering
    server = create_server(app, host=args.host, port=args.port, max_request_body_size=LARGEST_BODY)
    addresses = lan_addresses()
    app.config["SHARE_ADDRESS"] = share_address(args.host, addresses)
    for line in where_to_open(args.host, server.effective_port, addresses):
        print(line, flush=True)
    if passcode.stored_hash(app.instance_path) is None:
        # proves a phone is held at home: the first passcode, an import, the whole history
        print(
            f"Household code: {passcode.household_code(app.instance_path)} (a phone asks for it before"
            " the first passcode, an import, or a download of the whole history)",
            flush=True,
        )
    codes = qr_codes(args.host, server.effective_port, addresses)
    with contextlib.suppress(UnicodeEncodeError):  # a terminal without block characters gets none
        codes.encode(sys.stdout.encoding or "ascii")
        print(codes, end="", flush=True)
    # stopped by a service manager (SIGTERM) as by Ctrl+C: an orderly exit, so
    # that what waits for it (a change's backup, autobackup.flush) is done
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


if __name__ == "__main__":
    main()
