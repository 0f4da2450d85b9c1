"""make bench: the yearbook (issue 58) of a year of 500 games, drawn as the app draws it.

A year of BENCH_YEARBOOK_GAMES (500) generated games (``demo.generate``: 12 players, five
rule sets, a few games a night) is built once in a temporary folder; the book is then
drawn RUNS times as the worker draws it (``printing.yearbook.draw``: the year's data read,
the HTML made, laid out and written by WeasyPrint), its cache emptied before each, and once
as a phone asks for it (``/years/<year>/book.pdf``, then the worker waited for). Printed:
the median wall time and processor time (the machine is shared), the pages, and the floor
measured in the same run: WeasyPrint drawing a one-page PDF with the book's stylesheet and
fonts; the goal is absolute, ≤ 5 s.

    BENCH_YEARBOOK_GAMES=2000 python bench/yearbook.py
"""

import datetime
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from scorekeeper import create_app  # noqa: E402
from scorekeeper.exchange import demo  # noqa: E402
from scorekeeper.printing import yearbook  # noqa: E402
from scorekeeper.services.schema import migrate  # noqa: E402
from scorekeeper.storage.db import connect  # noqa: E402

GAMES = int(os.environ.get("BENCH_YEARBOOK_GAMES", "500"))
RUNS = int(os.environ.get("BENCH_YEARBOOK_RUNS", "3"))
YEAR = 2025
GOAL_SECONDS = 5.0
ONE_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Floor</title></head>
<body class="paper-letter"><section class="cover"><h1>2025</h1><p class="household">The family</p>
<dl class="big"><div><dt>Games</dt><dd>500</dd></div></dl></section></body></html>"""


def timed(action):
    """(wall seconds, processor seconds) of ``action()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


def main():
    folder = tempfile.mkdtemp(prefix="bench-yearbook-")
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = os.path.join(folder, "instance")
    database = os.path.join(folder, "year.db")
    migrate(database)
    db = connect(database)
    try:
        end = datetime.datetime(YEAR, 12, 30, 22, 0, tzinfo=datetime.UTC)
        demo.generate(db, GAMES, seed=58, now=end, span=datetime.timedelta(days=360))
        (games,) = db.execute(
            "SELECT count(*) FROM game_records WHERE night >= ? AND night < ?", [str(YEAR), str(YEAR + 1)]
        ).fetchone()
    finally:
        db.close()
    app = create_app({"TESTING": True, "DATABASE": database})
    with app.app_context():
        book = yearbook.Book(YEAR, "bench", "en", "letter", "The family")
        yearbook.pdf_of(ONE_PAGE)  # WeasyPrint imported, the fonts and stylesheet loaded
        floors = [timed(lambda: yearbook.pdf_of(ONE_PAGE)) for _ in range(RUNS * 3)]

        def draw():
            yearbook.clear_cache()
            yearbook.draw(app, book)

        draw()  # the templates compiled, as in a running app
        runs = [timed(draw) for _ in range(RUNS)]
        pdf = yearbook.cached(book)
    # as a phone asks: the request queues it, the worker draws it
    yearbook.clear_cache()
    client = app.test_client()
    start = time.perf_counter()
    asked = client.get(f"/years/{YEAR}/book.pdf?paper=letter")
    yearbook.wait()
    served = client.get(f"/years/{YEAR}/book.pdf?paper=letter")
    asked_seconds = time.perf_counter() - start
    assert asked.status_code == 202 and served.status_code == 200, (asked.status_code, served.status_code)

    import io

    from pypdf import PdfReader

    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    floor = statistics.median(w for w, _ in floors)
    wall = statistics.median(w for w, _ in runs)
    cpu = statistics.median(c for _, c in runs)
    print(f"yearbook: a year of {games} games, {pages} pages, {len(pdf) / 1024:.0f} KB ({RUNS} runs)")
    print(f"{'figure':<44} {'median':>9} {'cpu':>9} {'floor':>9} {'ratio':>8}  goal")
    print(f"{'one-page PDF (the floor)':<44} {floor:>8.2f}s {statistics.median(c for _, c in floors):>8.2f}s")
    print(
        f"{'the book drawn (data, HTML, layout, PDF)':<44} {wall:>8.2f}s {cpu:>8.2f}s {floor:>8.2f}s "
        f"{wall / floor:>7.1f}×  ≤ {GOAL_SECONDS:.0f} s {'ok' if wall <= GOAL_SECONDS else 'OVER'}"
    )
    print(f"{'asked for, drawn by the worker, served':<44} {asked_seconds:>8.2f}s")


if __name__ == "__main__":
    main()
