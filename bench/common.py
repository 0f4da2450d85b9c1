"""What the benchmarks share: timings, the app served by `make run`'s server in its own
process, a small keep-alive HTTP client, and demo databases.

Nothing here is a test: the figures go to the terminal and docs/PERFORMANCE.md.
"""

import contextlib
import http.client
import os
import re
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --- timings ---------------------------------------------------------------------------


def timings_ms(action, runs, warm_up=1, between=None):
    """Wall times of ``action`` in milliseconds, after ``warm_up`` untimed calls
    (``between``, untimed, before each)."""
    for _ in range(warm_up):
        action()
    times = []
    for _ in range(runs):
        if between:
            between()
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def median_ms(action, runs):
    return statistics.median(timings_ms(action, runs))


def p95(times):
    """The 95th percentile (nearest rank): with 20 runs, the second slowest."""
    ordered = sorted(times)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


class Table:
    """Rows of figures, printed as one table at the end."""

    HEADER = f"{'figure':<44} {'games':>8} {'median':>9} {'p95':>9} {'floor':>9} {'ratio':>7}  goal"

    def __init__(self):
        self.rows = []

    def add(self, figure, games, times, floor, goal, *, unit="ms", ratio=None):
        median = statistics.median(times) if isinstance(times, list) else times
        high = p95(times) if isinstance(times, list) else None
        if ratio is None and floor:
            ratio = median / floor
        self.rows.append((figure, games, median, high, floor, ratio, goal, unit))
        return median

    def print(self, out=sys.stdout):
        print(self.HEADER, file=out)
        print("-" * len(self.HEADER), file=out)
        for figure, games, median, high, floor, ratio, goal, unit in self.rows:

            def fmt(value, unit=unit):
                if value is None:
                    return "—"
                return f"{value:.1f} ms" if unit == "ms" else f"{value / 1024:.1f} KB"

            ratio_text = f"{ratio:.2f}×" if ratio is not None else "—"
            print(
                f"{figure:<44} {games or '':>8} {fmt(median):>9} {fmt(high):>9} "
                f"{fmt(floor):>9} {ratio_text:>7}  {goal}",
                file=out,
            )


@contextlib.contextmanager
def folder(prefix):
    """A temporary folder for the run, removed at the end (BENCH_CACHE keeps databases)."""
    path = tempfile.mkdtemp(prefix=prefix)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# --- databases -------------------------------------------------------------------------


def demo_database(folder, games, environ):
    """A database of ``games`` demo games (demo-data --seed 1): (path, seconds to build, or 0 if kept)."""
    cache = os.environ.get("BENCH_CACHE")
    where = cache or folder
    os.makedirs(where, exist_ok=True)
    path = os.path.join(where, f"games-{games}.db")
    if os.path.exists(path):
        return path, 0.0
    partial = path + ".building"
    for leftover in (partial, partial + "-wal", partial + "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(leftover)
    start = time.perf_counter()
    subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "flask"), "--app", "scorekeeper", "demo-data"]
        + ["--games", str(games), "--seed", "1"],
        env={**environ, "SCOREKEEPER_DATABASE": partial},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    seconds = time.perf_counter() - start
    import sqlite3

    conn = sqlite3.connect(partial)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(partial + suffix)
    os.rename(partial, path)
    return path, seconds


# --- the app served by make run's server, in its own process -----------------------------


#: the https port of each server started by ``server`` (its http port the key)
HTTPS_PORTS = {}


@contextlib.contextmanager
def server(instance, database, extra_env=None, script=None):
    """`python -m scorekeeper.serve` on a free loopback port (what `make run` starts),
    or ``script``, which serves it the same way (bench/floor_app.py); yields (port,
    seconds from start until it answered). Its https port (a free one too) is
    ``HTTPS_PORTS[port]``; the household root it made, in ``instance``."""
    env = {
        **os.environ,
        "SCOREKEEPER_INSTANCE_PATH": instance,
        "SCOREKEEPER_DATABASE": database,
        **(extra_env or {}),
    }
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, *([script] if script else ["-m", "scorekeeper.serve"])]
        + ["--host", "127.0.0.1", "--port", "0", "--https-port", "0"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"localhost:(\d+)/(?: \(https on port (\d+))?", line)
        if not match:
            raise RuntimeError(f"the server did not start: {line!r}")
        port = int(match[1])
        HTTPS_PORTS[port] = int(match[2]) if match[2] else None
        yield port, time.perf_counter() - start
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stdout.close()


class Client:
    """One keep-alive connection, as a phone holds one, with its cookies."""

    def __init__(self, port, gzip=True, root=None):
        """:param root: the household root's file: the connection is https, trusting it
        alone (the name checked is the computer's, which the root vouches for; here the
        server is reached at 127.0.0.1, so the chain is checked and the name is not)."""
        if root:
            context = ssl.create_default_context(cafile=root)
            context.check_hostname = False
            self.connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=60, context=context)
            self.origin = f"https://127.0.0.1:{port}"
        else:
            self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            self.origin = None
        self.cookies = {}
        self.gzip = gzip

    def close(self):
        self.connection.close()

    def request(self, method, path, body=None, headers=None):
        """(status, headers as a dict of lower-case names, body bytes, wire bytes)."""
        sent = {"Accept-Encoding": "gzip" if self.gzip else "identity", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            if self.origin:  # Flask-WTF asks a same-origin Referer of every post over https
                sent.setdefault("Referer", self.origin + path)
        self.connection.request(method, path, body=body, headers=sent)
        response = self.connection.getresponse()
        data = response.read()
        received = {k.lower(): v for k, v in response.getheaders()}
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        wire = len(data)
        if received.get("content-encoding") == "gzip":
            import gzip

            data = gzip.decompress(data)
        return response.status, received, data, wire

    def get(self, path, **options):
        status, _, data, _ = self.request("GET", path, **options)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        return data.decode()

    def give_household_code(self, instance):
        """Give the household code, as a phone does before an import or a backup
        (views/auth.py ``household_required``); ``instance`` is the server's folder."""
        from urllib.parse import urlencode

        from scorekeeper.web import passcode

        fields = {**form_values(self.get("/household")), "code": passcode.household_code(instance)}
        status, _, data, _ = self.request("POST", "/household", body=urlencode(fields))
        if status != 303:
            raise RuntimeError(f"the household code was refused: {status} {data[:300]!r}")

    def post_and_follow(self, path, fields):
        """POST a form; follow its 303 with a GET, as a browser does. Returns the page."""
        from urllib.parse import urlencode

        status, headers, data, _ = self.request("POST", path, body=urlencode(fields, doseq=True))
        if status == 303:
            from urllib.parse import urlsplit

            location = urlsplit(headers["location"])
            return self.get(location.path + (f"?{location.query}" if location.query else ""))
        if status != 200:
            raise RuntimeError(f"POST {path}: {status} {data[:300]!r}")
        return data.decode()


class _Form(HTMLParser):
    """What a browser would post from a page's POST form, as the page fills it: a
    name given by several inputs (a book count's chips and its box) posts each."""

    def __init__(self):
        super().__init__()
        self.values, self._in_post = {}, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._in_post = a.get("method") == "post"
        elif self._in_post and tag == "input" and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("radio", "checkbox") and "checked" not in a:
                return
            value, before = a.get("value", ""), self.values.get(a["name"])
            if before is None:
                self.values[a["name"]] = value
            else:
                self.values[a["name"]] = [*(before if isinstance(before, list) else [before]), value]

    def handle_endtag(self, tag):
        if tag == "form":
            self._in_post = False


def form_values(page):
    parser = _Form()
    parser.feed(page)
    return parser.values
