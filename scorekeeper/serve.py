"""Serve the app with waitress and say which address a phone should open.

Used by `make run`; `python -m scorekeeper.serve --help` lists the options.
"""

import argparse
import ipaddress
import socket
import subprocess

from waitress import serve

from . import create_app


def lan_addresses():
    """This machine's IPv4 addresses other than loopback, read locally.

    ``hostname -I`` lists every interface's address (Debian maps the host's
    own name to 127.0.1.1, so resolving the name alone usually finds nothing);
    no packet is sent either way, so it works with no internet at all.
    """
    found = []
    try:
        found = subprocess.run(["hostname", "-I"], capture_output=True, text=True,
                               timeout=5, check=False).stdout.split()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        found += [info[4][0] for info in
                  socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    addresses = set()
    for text in found:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if address.version == 4 and not address.is_loopback and not address.is_link_local:
            addresses.add(str(address))
    return sorted(addresses, key=ipaddress.ip_address)


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
