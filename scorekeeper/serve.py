"""Serve the app with waitress and say which address a phone should open.

Used by `make run`; `python -m scorekeeper.serve --help` lists the options.
"""

import argparse
import socket

from waitress import serve

from . import create_app


def lan_addresses():
    """This machine's IPv4 addresses other than loopback, from its own name.

    Read locally (no packet is sent), so it works with no internet at all.
    """
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return sorted({info[4][0] for info in infos if not info[4][0].startswith("127.")})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args(argv)
    app = create_app()
    print(f"Scorekeeper is running. On this computer: http://localhost:{args.port}/")
    if args.host == "0.0.0.0":
        addresses = lan_addresses() or ["<this computer's address>"]
        for address in addresses:
            print(f"On a phone on the same Wi-Fi, open: http://{address}:{args.port}/")
    print("Stop it with Ctrl+C.", flush=True)
    serve(app, host=args.host, port=args.port)


if __name__ == "__main__":
    main()
