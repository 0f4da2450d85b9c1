"""The server `make run` starts: waitress, the address to open, real HTTP."""

import ipaddress
import os
import socket
import subprocess
import sys
import time
import urllib.request

from scorekeeper.db import migrate
from scorekeeper.serve import lan_addresses


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_lan_addresses_are_ipv4_and_not_loopback():
    for address in lan_addresses():
        parsed = ipaddress.ip_address(address)
        assert parsed.version == 4 and not parsed.is_loopback


def test_the_server_serves_the_rules_and_says_where(tmp_path):
    instance = tmp_path / "instance"
    migrate(tmp_path / "family.db")
    port = _free_port()
    env = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": str(instance),
           "SCOREKEEPER_DATABASE": str(tmp_path / "family.db"), "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first_line = server.stdout.readline()
        assert f"http://localhost:{port}/" in first_line
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules", timeout=5) as response:
                    page = response.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        assert "Roth family house rules" in page
        assert (instance / "secret_key").exists()
    finally:
        server.terminate()
        server.wait(timeout=10)
        server.stdout.close()
