"""A guest's worst input, and another phone answered meanwhile (issue 53).

On the app's own server (`python -m scorekeeper.serve`, what `make run` starts, through
``common.server``), with no passcode set (the default), a guest (phone A) posts to every
text field of every form the worst input it accepts: the field's text at its length
(``scorekeeper/forms/lengths.py``), shaped against the patterns that read it (a run of
digits, a count of books followed by a run of spaces, entries split by ; and new lines),
then a megabyte, which is refused at once. Each post is sent RUNS (3) times. Meanwhile
another phone (B) asks for the home page again and again.

Printed for each field: A's slowest answer, B's median and slowest answer while A posts,
and the floor: B's median for the same page with nothing else going on, measured in the
same run before A starts; the ratio is B's slowest to the floor. The goal: B answered in
under 200 ms whatever A posts.

``--size N`` posts every shape at N characters whatever the field's length (N = 30000:
the issue's 29 KB), to measure the app from before the mend the same way (run it with
the old tree first on PYTHONPATH). Nothing here is a test: the figures go to the
terminal and docs/SECURITY.md.
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from urllib.parse import urlencode

import common  # bench/common.py: the scripts run as `python bench/NAME.py`

RUNS = int(os.environ.get("BENCH_WORST_RUNS", "3"))
FLOOR_RUNS = 60
GOAL_MS = 200
ONE_MB = 1_000_000


class _Each:
    """Every length the same (``--size``): the app from before the mend has no lengths module."""

    def __init__(self, size):
        self.size = size

    def __getattr__(self, name):
        return self.size


def fields(size=None):
    """(form page, where it posts, field name, its length, extra values) for each text field."""
    if size:
        n = _Each(size)
    else:
        from scorekeeper.forms import lengths as n
    editor = [
        ("name", n.RULES_NAME),
        ("going_out", n.NUMBERS),
        ("meld_by_round", n.NUMBERS),
        ("meld_by_score", n.PAIRS),
        ("books_by_round", n.BOOKS),
        ("first_meld_books", n.BOOKS),
        ("deal_decks", n.DECKS),
        ("words_game", n.WORD),
        ("words_book", n.WORD),
        ("words_books", n.WORD),
        ("words_piles", n.PILES),
        ("book_clean-called", n.WORD),
        ("extra_books-0-kind", n.WORD),
        ("card_values-K", n.NUMBER),
    ]
    modes = {"meld_mode": "by_round", "books_mode": "by_round"}
    rows = [("/rules/new?from=roth", "/rules/new", name, limit, modes) for name, limit in editor]
    players = {"teams-0-players-0": "Ann", "teams-1-players-0": "Bo"}
    game = "/games/new?rules=roth"
    rows += [
        (game, "/games/new", "teams-0-name", n.NAME, players),
        (game, "/games/new", "teams-1-players-1", n.NAME, players),
        (game, "/games/new", "first_dealer", n.NAME, players),
        (game, "/games/new", "played_day", n.NUMBER, players),
        (game, "/games/new", "rules-books_by_round", n.BOOKS, {**players, "rules-books_mode": "by_round"}),
        ("/evenings/new", "/evenings/new", "newcomers-0", n.NAME, {}),
        ("/players/1/rename", "/players/1/rename", "name", n.NAME, {}),
    ]
    return rows


def shapes(length):
    """The worst texts of ``length`` characters for the patterns that read a field."""

    def cut(unit):
        return (unit * (length // len(unit) + 1))[:length]

    return {
        "digits": "1" * (length - 1) + "x",
        "books, spaces": ("1 clean" + " " * length)[: length - 1] + "x",
        "entries": cut("1 clean + 2, 3: 4;\n"),
        "1 MB": "1" * ONE_MB,
    }


class Other:
    """Phone B: the home page again and again, each answer's time kept."""

    def __init__(self, port):
        self.client = common.Client(port)
        self.times = []
        self.stop = threading.Event()

    def once(self):
        start = time.perf_counter()
        self.client.get("/")
        return (time.perf_counter() - start) * 1000

    def run(self):
        while True:  # at least once, however quick A's posts
            self.times.append(self.once())
            if self.stop.is_set():
                return


def post(guest, page, to, values):
    start = time.perf_counter()
    status, _, _, _ = guest.request("POST", to, body=urlencode(values, doseq=True))
    took = (time.perf_counter() - start) * 1000
    if status >= 500:
        raise RuntimeError(f"POST {to}: {status}")
    return took, status


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--size", type=int, help="every shape at this many characters, whatever the field's length"
    )
    parser.add_argument("--only", help="only the fields whose name holds this")
    args = parser.parse_args()
    rows = [row for row in fields(args.size) if not args.only or args.only in row[2]]
    with tempfile.TemporaryDirectory(prefix="bench-worst-") as work:
        environ = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": os.path.join(work, "instance-build")}
        database, _ = common.demo_database(work, 20, environ)
        with common.server(os.path.join(work, "instance"), database) as (port, _):
            guest, other = common.Client(port), Other(port)
            for _ in range(5):
                other.once()  # warm: the first pages compile their templates
            floor = statistics.median(other.once() for _ in range(FLOOR_RUNS))
            pages = {page: common.form_values(guest.get(page)) for page in {row[0] for row in rows}}
            for page, to, _name, _length, extra in {row[0]: row for row in rows}.values():
                post(guest, page, to, {**pages[page], **extra})  # warm: each answer's templates
            command = " ".join(sys.argv)
            print(f"python {command}   (B: GET /, its floor {floor:.1f} ms, the median of {FLOOR_RUNS})")
            header = (
                f"{'field':<22} {'shape':<14} {'chars':>9} {'A slowest':>10} {'B median':>9} "
                f"{'B slowest':>10} {'ratio':>7}"
            )
            print(header + "  goal")
            print("-" * (len(header) + 12))
            slowest = []
            for page, to, name, length, extra in rows:
                for shape, text in shapes(length).items():
                    if shape == "1 MB" and args.size:
                        continue
                    values = {**pages[page], **extra, name: text}
                    other.times, other.stop = [], threading.Event()
                    thread = threading.Thread(target=other.run)
                    thread.start()
                    answers = [post(guest, page, to, values) for _ in range(RUNS)]
                    other.stop.set()
                    thread.join()
                    b = other.times
                    slowest.append(max(b))
                    print(
                        f"{name:<22} {shape:<14} {len(text):>9,} {max(a for a, _ in answers):>8.1f}ms "
                        f"{statistics.median(b):>7.1f}ms {max(b):>8.1f}ms {max(b) / floor:>6.1f}×"
                        f"  < {GOAL_MS} ms" + ("" if max(b) < GOAL_MS else "  MISSED")
                    )
            guest.close()
            other.client.close()
            worst = max(slowest)
            print(
                f"B's slowest answer of all: {worst:.1f} ms (floor {floor:.1f} ms, {worst / floor:.1f}×); "
                f"goal < {GOAL_MS} ms: {'met' if worst < GOAL_MS else 'MISSED'}"
            )


if __name__ == "__main__":
    main()
