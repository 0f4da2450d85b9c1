"""A guest on the Wi-Fi who holds connections open (issue 53): another phone's page meanwhile.

On the app's own server (`python -m scorekeeper.serve`, what `make run` starts), one guest
at one address (127.0.0.2) holds ``BENCH_GUEST_CONNECTIONS`` (200) connections, kept at that
count (one the server closes is opened again at once), in each of these ways:

- **idle**: the connection opened, nothing sent (a port scan, a phone walking out of the Wi-Fi);
- **slow headers**: a request's first line and headers sent a byte a second, never finished
  (the "slowloris" attack); over https, after a finished TLS handshake;
- **slow body**: a POST's headers whole, announcing a body of 60 KB, then a byte a second of it.

Meanwhile another phone, at its own address (127.0.0.1), asks for a page (the rules) on a
new connection each time, ``BENCH_GUEST_RUNS`` (20) times, over http and over https; the
figure is its slowest answer against its median with no guest (the floor, measured in the
same run). The goal: every answer under 200 ms. The last column says how many connections the
guest held when the phone asked (a server that caps one address's connections holds fewer).

The round's save over https against the same save over http is bench.py's (`--only save`).

Run: ``python bench/guests.py`` (``make bench`` runs it). Nothing here is a test: the figures
go to the terminal and docs/HTTPS.md.
"""

import asyncio
import os
import socket
import ssl
import statistics
import sys
import threading
import time

import common  # bench/common.py: the scripts run as `python bench/NAME.py`

CONNECTIONS = int(os.environ.get("BENCH_GUEST_CONNECTIONS", "200"))
RUNS = int(os.environ.get("BENCH_GUEST_RUNS", "20"))
GUEST = "127.0.0.2"
PAGE = "/rules"
GOAL_MS = 200
#: seconds the phone waits for a page before it counts as not answered
PATIENCE = 10


class Guest:
    """``CONNECTIONS`` connections from ``GUEST``, each doing ``how`` until ``stop()``."""

    def __init__(self, port, how, root=None):
        self.port, self.how, self.root = port, how, root
        self.held = 0
        self.opened = 0
        self.loop = asyncio.new_event_loop()
        self.stopping = None
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.main(),), daemon=True)
        self.thread.start()

    async def main(self):
        self.stopping = asyncio.Event()
        tasks = [asyncio.create_task(self.keep_one()) for _ in range(CONNECTIONS)]
        await self.stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def keep_one(self):
        while True:
            writer = None
            try:
                context = None
                if self.root and self.how != "idle":
                    context = ssl.create_default_context(cafile=self.root)
                    context.check_hostname = False
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(GUEST, 0), ssl=context
                )
                self.opened += 1
                self.held += 1
                try:
                    await self.hold(reader, writer)
                finally:
                    self.held -= 1
            except (OSError, ssl.SSLError, asyncio.IncompleteReadError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            # closed or refused: opened again a second later (a guest who keeps the count up)
            await asyncio.sleep(1)

    async def hold(self, reader, writer):
        """Until the server closes the connection (or the guest stops)."""
        if self.how == "idle":
            await reader.read(1)
            return
        if self.how == "slow headers":
            head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * 100_000
        else:  # slow body
            head = (
                b"POST /rules/new HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\n"
            ) + b"a" * 60_000
        for byte in head:
            writer.write(bytes([byte]))
            await writer.drain()
            try:
                await asyncio.wait_for(reader.read(1), timeout=1)
            except TimeoutError:
                continue  # a second went by, still open: the next byte
            return  # closed by the server, or answered (refused): the connection is done

    def stop(self):
        self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(30)


def page_ms(port, root):
    """One page on a new connection, as a phone opens it: milliseconds."""
    start = time.perf_counter()
    client = common.Client(port, root=root)
    client.connection.timeout = PATIENCE
    try:
        status, _, _, _ = client.request("GET", PAGE)
    finally:
        client.close()
    if status != 200:
        raise RuntimeError(f"GET {PAGE}: {status}")
    return (time.perf_counter() - start) * 1000


def guest_rows(table, port, https_port, root):
    for scheme, phone_port, phone_root in (("http", port, None), ("https", https_port, root)):
        floor = statistics.median([page_ms(phone_port, phone_root) for _ in range(RUNS)])
        for how in ("idle", "slow headers", "slow body"):
            guest = Guest(phone_port, how, phone_root)
            try:
                deadline = time.monotonic() + 10
                while guest.opened < CONNECTIONS and time.monotonic() < deadline:
                    time.sleep(0.05)
                times, held = [], []
                for _ in range(RUNS):
                    try:
                        times.append(page_ms(phone_port, phone_root))
                    except (OSError, ssl.SSLError, RuntimeError):
                        times.append(PATIENCE * 1000)  # not answered: counted as the wait
                    held.append(guest.held)
                    time.sleep(0.3)  # spread over the guest's byte-a-second trickle
            finally:
                guest.stop()
            slowest = max(times)
            print(
                f"{scheme}, guest {how}: slowest {slowest:.0f} ms, median {statistics.median(times):.0f} ms"
                f" (floor {floor:.1f} ms)",
                file=sys.stderr,
                flush=True,
            )
            table.add(
                f"page over {scheme}, guest {how}",
                None,
                times,
                floor,
                f"slowest {slowest:.0f} ms < {GOAL_MS} ms (guest held {min(held)}–{max(held)})",
            )


def main():
    table = common.Table()
    with common.folder("bench-guests-") as work:
        database, _ = common.demo_database(work, 20, os.environ)
        instance = os.path.join(work, "instance")
        with common.server(instance, database) as (port, _):
            https_port = common.HTTPS_PORTS[port]
            root = os.path.join(instance, "https", "household-root.pem")
            guest_rows(table, port, https_port, root)
    table.print()
    return 0


if __name__ == "__main__":
    socket.setdefaulttimeout(60)
    sys.exit(main())
