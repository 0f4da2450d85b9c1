"""This machine's addresses on its networks: what ``make run`` tells the family
to open, and the names the Host check answers (``security.py``)."""

import contextlib
import ipaddress
import socket
import subprocess


def usable_addresses(candidates):
    """The IPv4 addresses a phone on the Wi-Fi could reach, sorted, without repeats:
    loopback, link-local, IPv6 and anything that is not an address are left out."""
    addresses = set()
    for text in candidates:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if address.version == 4 and not address.is_loopback and not address.is_link_local:
            addresses.add(address)
    return [str(address) for address in sorted(addresses)]


def lan_addresses():
    """This machine's addresses on its networks, read locally.

    ``hostname -I`` lists every interface's address (Debian maps the host's
    own name to 127.0.1.1, so resolving the name alone usually finds nothing);
    no packet is sent either way, so it works with no internet at all.
    """
    found = []
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        found = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False
        ).stdout.split()
    with contextlib.suppress(OSError):
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return usable_addresses(found)
