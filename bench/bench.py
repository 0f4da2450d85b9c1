"""make bench / make bench-large: every figure of issue 14, with its median, p95, floor and ratio.

- **Save a round**: POST the round form's "Save" → 303 → GET the game page,
  over one keep-alive connection to the app served in its own
  process on loopback (`python -m scorekeeper.serve`, what `make run`
  starts), the round form filled in and checked first, as a phone does
  (from the game page, "Enter round 4", Check); the floor is a static file
  from the same server (sent as stored, uncompressed: the cheapest answer it
  gives), measured in the same run. Each
  save is round 4 of a 4-team game; saves are measured back to back, like
  the static file, and last (each queues its sheet for the background). In
  turn with them, for reference, a POST → 303 → GET that saves nothing: what
  the stack costs for any change (CSRF, the session, a flash, the layout;
  ``bench/floor_app.py``, which serves the app as ``scorekeeper.serve`` does
  plus that route, and serves every figure of this section).
- **Save a round over https**: the same save from a phone made secure, over its own
  keep-alive TLS connection to the same server's https port (the household
  certificate, web/server.py), in turn with the http saves; the floor is the http save's
  median in the same run (issue 53: within 1.1×).
- **Print 1 s after a save**: save a round as above (POST → 303 → GET the
  game page), wait one second, as a family looks at the page before tapping
  "Print", and time GET the game's sheet.pdf alone; the floor is the static
  file again. The sheet rendered in the background after the save
  (``printing.render_later``, 0.3 s after it) should be waiting in the cache.
  Measured before the back-to-back saves, whose queued sheets would still be
  printing. BENCH_PRINT_RUNS (10) runs per size. For reference, the static
  file asked for alone a second after the last request: the first request
  after a pause costs a server more than one of a series (the floor).
- **Pages**: every history, player and leaderboard page, from the same server.
  The floor is again the static file; the goal is absolute (≤ 50 ms at 10,000
  games) and, at 100,000 games, ≤ 1.5× the page's own 10,000-game figure.
  One server per size runs at once and they are asked in turn (one request
  to each, then again), so that a busy moment of the machine falls on every
  size alike and the ratios between sizes hold.
- **Pictures** (issue 46): a finished game's picture (1200 × 630 PNG) on its first asking,
  BENCH_PICTURE_RUNS (8) games each drawn once (after two to warm up), and the same picture
  asked again, from the cache; the floor is the static file. Goals: ≤ 1 s, ≤ 20 ms.
- **Sheets**: a fresh 5-round 4-team sheet against WeasyPrint's one-line page
  in the same process (same font configuration); an unchanged sheet again;
  and the first sheet of a freshly started server: its game page opened
  first, then "Print" BENCH_PAUSE (2) seconds later, as a family does (and,
  for reference, at once, while WeasyPrint is still warming up).
- **Bytes**: the round-entry page with everything it loads, as sent to a
  browser that takes gzip and to one that does not; and what a second page
  view fetches again.

Databases: ``demo-data --seed 1`` at each size, built under a temporary
folder that is removed at the end (BENCH_CACHE=folder keeps and reuses them;
the runs always work on a copy). BENCH_GAMES picks the sizes (make bench:
1,000 and 10,000; make bench-large: 10,000 and 100,000), BENCH_RUNS the runs
per HTTP figure. ``--only save,pages,pictures,sheets,bytes`` runs some sections.
"""

import argparse
import contextlib
import datetime
import glob
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time

import common  # bench/common.py: the scripts run as `python bench/NAME.py`
from common import Client, Table, form_values, timings_ms

RUNS = int(os.environ.get("BENCH_RUNS", "20"))
THIS_YEAR = datetime.date.today().year  # demo-data spreads games over the five years before today
SHEET_RUNS = int(os.environ.get("BENCH_SHEET_RUNS", "15"))
STARTS = int(os.environ.get("BENCH_STARTS", "5"))
PAUSE = float(os.environ.get("BENCH_PAUSE", "2"))  # seconds between the game page and Print
PRINT_RUNS = int(os.environ.get("BENCH_PRINT_RUNS", "10"))
PRINT_AFTER = 1.0  # seconds between a save and "Print"
FLOOR_APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "floor_app.py")
SAVE_TEAMS = (("", ["Ann", "Bo"]), ("", ["Cy", "Di"]), ("", ["Eve", "Flo"]), ("", ["Gus", "Hal"]))


def prepare_save_games(database, count):
    """``count`` 4-team games with 3 rounds each, so that every timed save is a round 4."""
    from scorekeeper.scoring import RULESETS, TeamRound
    from scorekeeper.services import games
    from scorekeeper.storage.db import connect

    db = connect(database)
    ids = []
    try:
        for _ in range(count):
            game = games.create_game(db, RULESETS["partnership"], "partnership", list(SAVE_TEAMS))
            for number in range(1, 4):
                out = number % 4
                entries = [
                    TeamRound(books={"clean": 1}, melded_points=150, went_out=True)
                    if i == out
                    else TeamRound(melded_points=60, unplayed_points=25)
                    for i in range(4)
                ]
                game = games.add_round(db, game.id, game.revision, number, entries)
            ids.append(game.id)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    return ids


def checked_form(client, game_id):
    """The round form of the game, filled in and checked: what "Save" posts. The phone
    comes to it from the game page (as after its last save), then "Enter round 4"."""
    client.get(f"/games/{game_id}")
    values = form_values(client.get(f"/games/{game_id}/rounds/new"))
    values.update(
        {
            "teams-0-book_clean": "1",
            "teams-0-book_dirty": "1",
            "teams-0-melded_points": "180",
            "went_out": "0",
            **{f"teams-{i}-melded_points": "75" for i in range(1, 4)},
            **{f"teams-{i}-unplayed_points": "30" for i in range(1, 4)},
            "action": "check",
        }
    )
    review = client.post_and_follow(f"/games/{game_id}/rounds/new", values)
    values = form_values(review)
    if not values.get("checked"):
        raise RuntimeError("the check did not give a digest to save")
    return {**values, "action": "save"}


def players_of_note(database):
    """(the busiest player's id, the quietest player's id, the last history page, the
    busiest evening)."""
    conn = sqlite3.connect(database)
    try:
        busiest, quietest = (
            conn.execute(
                f"SELECT player_id FROM player_stats ORDER BY played {order}, player_id LIMIT 1"
            ).fetchone()[0]
            for order in ("DESC", "ASC")
        )
        (count,) = conn.execute("SELECT COUNT(*) FROM games").fetchone()
        # the evening of several tables with the most games (else the busiest night)
        row = (
            conn.execute(
                "SELECT night FROM evening_games GROUP BY night ORDER BY COUNT(*) DESC, night DESC LIMIT 1"
            ).fetchone()
            or conn.execute("SELECT night FROM nights ORDER BY games DESC LIMIT 1").fetchone()
        )
    finally:
        conn.close()
    return busiest, quietest, max(1, -(-count // 20)), row[0] if row else "2026-01-01"


def interleaved(actions, runs, warm_up=2):
    """{size: wall times in ms} of one action per size, taking turns (one of each,
    then again), so that every size sees the machine as busy as the others."""
    for _ in range(warm_up):
        for action in actions.values():
            action()
    times = {size: [] for size in actions}
    for _ in range(runs):
        for size, action in actions.items():
            start = time.perf_counter()
            action()
            times[size].append((time.perf_counter() - start) * 1000)
    return times


def serve_and_measure(table, work, databases, sections):
    """The save, page and byte figures, from one server per size, all running at
    once and asked in turn."""
    sizes = list(databases)
    prepared = {}
    for games, database in databases.items():
        copy = os.path.join(work, f"run-{games}.db")
        shutil.copy(database, copy)
        # over http: the print runs and the saves (each with its warm-up); over https: the
        # saves; the last game: the bytes
        wanted = (RUNS + PRINT_RUNS + 3) + (RUNS + 2) + 1
        save_games = prepare_save_games(copy, wanted) if sections & {"save", "bytes"} else []
        two_teams = prepare_two_team_game(copy) if "bytes" in sections else None
        prepared[games] = (copy, save_games, two_teams, *players_of_note(copy))
    with contextlib.ExitStack() as stack:
        ports = {
            games: stack.enter_context(
                common.server(os.path.join(work, f"instance-{games}"), copy, script=FLOOR_APP)
            )[0]
            for games, (copy, *_) in prepared.items()
        }
        clients = {games: Client(port) for games, port in ports.items()}
        plain = {games: Client(port, gzip=False) for games, port in ports.items()}
        for client in [*clients.values(), *plain.values()]:
            stack.callback(client.close)
        for client in plain.values():
            # blocks until the server's background warm-up of WeasyPrint is done
            # (it holds the render lock), so that nothing timed competes with it
            assert client.request("GET", "/rules/tablet/blank.pdf")[0] == 200
        home = clients[sizes[0]].get("/")
        static = next(url for url in _assets(home) if url.endswith(".css") or ".css?" in url)
        # the floor: the static file as it is stored (no compression), the cheapest answer there is
        floors = interleaved({g: lambda c=c: c.request("GET", static) for g, c in plain.items()}, RUNS * 2, 3)
        floor = {games: statistics.median(times) for games, times in floors.items()}
        rows = {
            games: [(f"static file ({static.split('?')[0]})", floors[games], None, "the floor")]
            for games in sizes
        }
        if "pages" in sections:
            for label, url in (
                ("/history", lambda most, least, last, night: "/history"),
                ("/history, last page", lambda most, least, last, night: f"/history?page={last}"),
                ("/history?player= (busiest)", lambda most, least, last, night: f"/history?player={most}"),
                ("/history?status=finished", lambda most, least, last, night: "/history?status=finished"),
                ("/players (leaderboard)", lambda most, least, last, night: "/players"),
                ("/players/<busiest>", lambda most, least, last, night: f"/players/{most}"),
                ("/players/<quietest>", lambda most, least, last, night: f"/players/{least}"),
                ("/players.json", lambda most, least, last, night: "/players.json"),
                ("/players/<busiest>.json", lambda most, least, last, night: f"/players/{most}.json"),
                ("/records", lambda most, least, last, night: "/records"),
                ("/records.json", lambda most, least, last, night: "/records.json"),
                ("/years/<this year>", lambda most, least, last, night: f"/years/{THIS_YEAR}"),
                ("/years/<this year>.json", lambda most, least, last, night: f"/years/{THIS_YEAR}.json"),
                ("/years/<last year>", lambda most, least, last, night: f"/years/{THIS_YEAR - 1}"),
                ("/evenings/<busiest evening>", lambda most, least, last, night: f"/evenings/{night}"),
                ("/evenings/<busiest>.json", lambda most, least, last, night: f"/evenings/{night}.json"),
            ):
                urls = {games: url(*prepared[games][3:]) for games in sizes}
                actions = {games: (lambda c=clients[games], u=urls[games]: c.get(u)) for games in sizes}
                times = interleaved(actions, RUNS)
                for games in sizes:
                    goal = "≤ 50 ms"
                    if games > 10_000 and 10_000 in times:
                        ratio = statistics.median(times[games]) / statistics.median(times[10_000])
                        goal = f"≤ 50 ms at 10k; {ratio:.2f}× its 10k (≤ 1.5×)"
                    rows[games].append((label, times[games], floor[games], goal))
        if "pictures" in sections:
            picture_figures(rows, clients, prepared, floor, sizes)
        if "save" in sections:  # last: the server prints each saved game's sheet in the background
            over_http = RUNS + PRINT_RUNS + 3
            forms = {
                games: iter([(g, checked_form(clients[games], g)) for g in prepared[games][1][:over_http]])
                for games in sizes
            }

            def save(games):
                """Save the next prepared game's round 4 (POST → 303 → GET); its id."""
                game_id, values = next(forms[games])
                page = clients[games].post_and_follow(f"/games/{game_id}/rounds/new", values)
                assert "Round 4 saved." in page, page[page.find("<main") :][:3000]
                return game_id

            def save_then_print(games):
                """(ms) Save a round, wait PRINT_AFTER, then time "Print" alone."""
                game_id = save(games)
                time.sleep(PRINT_AFTER)
                start = time.perf_counter()
                status, _, data, _ = clients[games].request("GET", f"/games/{game_id}/sheet.pdf")
                took = (time.perf_counter() - start) * 1000
                assert status == 200 and data.startswith(b"%PDF"), status
                return took

            def idle_static(games):
                """(ms) The static file after a second with no request: what waking costs."""
                time.sleep(PRINT_AFTER)
                start = time.perf_counter()
                plain[games].request("GET", static)
                return (time.perf_counter() - start) * 1000

            printed = {games: [] for games in sizes}
            idle = {games: [] for games in sizes}
            for run in range(PRINT_RUNS + 1):  # the first, untimed: a warm-up
                for games in sizes:
                    took, woke = save_then_print(games), idle_static(games)
                    if run:
                        printed[games].append(took)
                        idle[games].append(woke)
            for games in sizes:
                label = "Print 1 s after a save (sheet.pdf)"
                rows[games].append((label, printed[games], floor[games], "≤ 2×"))
                label = "  static file, 1 s after the last request"
                rows[games].append((label, idle[games], floor[games], "for reference: waking up"))

            nothing = {}
            for games in sizes:
                page = clients[games].get("/bench/floor")
                nothing[games] = {**form_values(page), "revision": "1"}

            def save_nothing(games):
                page = clients[games].post_and_follow("/bench/floor", nothing[games])
                assert "Round 1 saved." in page, page[page.find("<main") :][:3000]

            # a phone made secure: its own keep-alive TLS connection to the same server's https,
            # opened just before the saves (the server closes a connection idle for 10 s)
            secure = {
                games: Client(
                    common.HTTPS_PORTS[ports[games]],
                    root=os.path.join(work, f"instance-{games}", "https", "household-root.pem"),
                )
                for games in sizes
            }
            for client in secure.values():
                stack.callback(client.close)
            secure_forms = {
                games: iter([(g, checked_form(secure[games], g)) for g in prepared[games][1][over_http:-1]])
                for games in sizes
            }

            def save_over_https(games):
                game_id, values = next(secure_forms[games])
                page = secure[games].post_and_follow(f"/games/{game_id}/rounds/new", values)
                assert "Round 4 saved." in page, page[page.find("<main") :][:3000]

            # back to back, as the static file is measured; the sheets they queue
            # start printing 0.3 s after each save (SHEETS_BACKGROUND_DELAY)
            actions = {}
            for games in sizes:
                actions[(games, "save")] = lambda g=games: save(g)
                actions[(games, "nothing")] = lambda g=games: save_nothing(g)
                actions[(games, "https")] = lambda g=games: save_over_https(g)
            times = interleaved(actions, RUNS)
            for games in sizes:
                stack_floor = statistics.median(times[(games, "nothing")])
                rows[games] += [
                    ("save a round (POST → 303 → GET game)", times[(games, "save")], floor[games], "≤ 3×"),
                    (
                        "  POST → 303 → GET that saves nothing",
                        times[(games, "nothing")],
                        floor[games],
                        "for reference: the stack (bench/floor_app.py)",
                    ),
                    (
                        "  the save against it",
                        times[(games, "save")],
                        stack_floor,
                        "for reference: what the save adds",
                    ),
                    (
                        "save a round over https (same, TLS kept alive)",
                        times[(games, "https")],
                        statistics.median(times[(games, "save")]),
                        "≤ 1.1× the same save over http",
                    ),
                ]
        for games in sizes:
            for label, times, row_floor, goal in rows[games]:
                table.add(label, games, times, row_floor, goal)
        if "bytes" in sections:
            games = sizes[0]
            page_bytes(table, ports[games], prepared[games][2], games, "2 teams")
            page_bytes(table, ports[games], prepared[games][1][-1], games, "4 teams")


PICTURE_RUNS = int(os.environ.get("BENCH_PICTURE_RUNS", "8"))


def picture_figures(rows, clients, prepared, floor, sizes):
    """A finished game's picture (issue 46): drawn on its first asking (a game the server
    has not drawn: the newest finished ones, one a run, after two to warm up), then the
    same picture asked again (from the cache)."""
    ids = {}
    for games in sizes:
        conn = sqlite3.connect(prepared[games][0])
        ids[games] = iter(
            [
                row[0]
                for row in conn.execute(
                    "SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY id DESC LIMIT ?",
                    [PICTURE_RUNS + 2],
                )
            ]
        )
        conn.close()

    def picture(client, game_id):
        status, headers, data, _ = client.request("GET", f"/games/{game_id}/picture.png")
        assert status == 200 and headers["content-type"] == "image/png", (status, headers)
        return data

    first = interleaved(
        {games: (lambda c=clients[games], i=ids[games]: picture(c, next(i))) for games in sizes}, PICTURE_RUNS
    )
    again = {}
    for games in sizes:
        conn = sqlite3.connect(prepared[games][0])
        again[games] = conn.execute(
            "SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()[0]
        conn.close()
    cached = interleaved(
        {games: (lambda c=clients[games], g=again[games]: picture(c, g)) for games in sizes}, RUNS
    )
    for games in sizes:
        rows[games].append(("a game's picture, first drawn", first[games], floor[games], "≤ 1 s"))
        rows[games].append(("a game's picture, cached", cached[games], floor[games], "≤ 20 ms"))


def _assets(page):
    """What a browser fetches to show the page: its stylesheet, script and favicon.
    Not the apple-touch-icon: Safari asks for it when the page is added to a home
    screen, and Chromium never (seen in Chromium's own requests for this page)."""
    import re

    return [
        url
        for tag, url in re.findall(r'(<(?:link|script)[^>]*(?:href|src)="(/static/[^"]+)")', page)
        if 'rel="apple-touch-icon"' not in tag
    ]


def prepare_two_team_game(database):
    from scorekeeper.scoring import RULESETS
    from scorekeeper.services import games
    from scorekeeper.storage.db import connect

    db = connect(database)
    try:
        return games.create_game(db, RULESETS["tablet"], "tablet", [("", ["Ann"]), ("", ["Bo"])]).id
    finally:
        db.close()


def page_bytes(table, port, game_id, games, teams):
    """The round-entry page and what it loads: in all, on the wire, and on a second view."""
    plain, zipped = Client(port, gzip=False), Client(port, gzip=True)
    url = f"/games/{game_id}/rounds/new"
    total = wire = 0
    cached = True
    for client in (plain, zipped):
        client.get("/")  # the session cookie, as any visit has
    body = plain.request("GET", url)[2]
    total += len(body)
    sent = zipped.request("GET", url)[3]
    wire += sent
    for asset in _assets(body.decode()):
        _, headers, body, _ = plain.request("GET", asset)
        total += len(body)
        _, headers, _, sent = zipped.request("GET", asset)
        wire += sent
        control = headers.get("cache-control", "")
        cached = cached and "immutable" in control and "max-age=31536000" in control
    table.add(
        f"round-entry page ({teams}) + what it loads", games, float(total), 25 * 1024, "≤ 25 KB", unit="B"
    )
    table.add("  the same, on the wire (gzip)", games, float(wire), 10 * 1024, "≤ 10 KB", unit="B")
    again = wire if not cached else sent_html(zipped, url)
    table.add(
        "  a second view (static files cached)" if cached else "  a second view (static refetched)",
        games,
        float(again),
        None,
        "static files fetched once",
        unit="B",
    )
    plain.close()
    zipped.close()


def sent_html(client, url):
    return client.request("GET", url)[3]


def sheets(table, work):
    """A fresh 4-team sheet, its floor and an unchanged sheet in this process; the
    first sheet after a server starts, in fresh processes."""
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = os.path.join(work, "instance-sheets")
    from weasyprint import HTML

    from scorekeeper import create_app
    from scorekeeper.printing import sheets
    from scorekeeper.scoring import RULESETS, TeamRound
    from scorekeeper.services import games
    from scorekeeper.services.schema import migrate
    from scorekeeper.storage.db import connect

    path = os.path.join(work, "sheets.db")
    migrate(path)
    app = create_app({"DATABASE": path, "SHEETS_IN_BACKGROUND": False})
    db = connect(path)
    game = games.create_game(db, RULESETS["tablet"], "tablet", list(SAVE_TEAMS))
    for number in range(1, 6):
        entries = [
            TeamRound(
                books={"clean": 2, "dirty": 1},
                melded_points=600,
                unplayed_points=35,
                red_threes=1,
                black_threes=2,
                went_out=i == number % 4,
            )
            for i in range(4)
        ]
        game = games.add_round(db, game.id, game.revision, number, entries)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    client = app.test_client()
    url = f"/games/{game.id}/sheet.pdf"
    with app.app_context():
        fonts, _ = sheets.fonts_and_style()
    floor_times = timings_ms(
        lambda: HTML(string="<p>Hand and Foot</p>").write_pdf(font_config=fonts), SHEET_RUNS, 2
    )
    floor = statistics.median(floor_times)
    table.add("WeasyPrint one-line page (same process)", None, floor_times, None, "the floor")

    def fresh():
        sheets.clear_cache()
        response = client.get(url)
        assert response.status_code == 200
        response.close()

    table.add("fresh 5-round 4-team sheet", None, timings_ms(fresh, SHEET_RUNS, 2), floor, "≤ 10×")

    def again():
        client.get(url).close()

    table.add("the same sheet again (unchanged)", None, timings_ms(again, RUNS * 2, 2), floor, "≤ 5 ms")
    ready, at_once, after_pause = [], [], []
    for run in range(STARTS * 2):
        with common.server(os.path.join(work, "instance-first"), path) as (port, seconds):
            first = Client(port)
            first.get(f"/games/{game.id}")  # the game page, then "Print"
            if run % 2:
                time.sleep(PAUSE)  # the family looks at the page before tapping Print
            start = time.perf_counter()
            status, _, data, _ = first.request("GET", url)
            (after_pause if run % 2 else at_once).append((time.perf_counter() - start) * 1000)
            assert status == 200 and data.startswith(b"%PDF")
            first.close()
            ready.append(seconds * 1000)
    table.add(f"first sheet after start ({PAUSE:g} s after the page)", None, after_pause, floor, "≤ 300 ms")
    table.add("  the same, Print at once (warm-up not done)", None, at_once, floor, "for reference")
    table.add("  server start until it answers", None, ready, None, "for reference")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="save,pages,pictures,sheets,bytes")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    sizes = [int(n) for n in os.environ.get("BENCH_GAMES", "1000,10000").split(",")]
    print(
        f"python {sys.version.split()[0]}, {platform.machine()}, {os.cpu_count()} cores, "
        f"sqlite {sqlite3.sqlite_version}; {RUNS} runs per HTTP figure, {SHEET_RUNS} per sheet, "
        f"{STARTS} server starts"
    )
    print("command: " + " ".join(f"{k}={os.environ[k]}" for k in ("BENCH_GAMES",) if k in os.environ), end="")
    print(f" python bench/bench.py {' '.join(sys.argv[1:])}".rstrip())
    table = Table()
    notes = []
    mine = os.path.join(tempfile.gettempdir(), "scorekeeper-bench-*")
    before = set(glob.glob(mine))
    with common.folder("scorekeeper-bench-") as work:
        environ = {**os.environ, "SCOREKEEPER_INSTANCE_PATH": os.path.join(work, "instance-build")}
        if sections & {"save", "pages", "pictures", "bytes"}:
            databases = {}
            for games in sizes:
                databases[games], seconds = common.demo_database(work, games, environ)
                if seconds:
                    notes.append(f"{games:,} demo games built in {seconds:.0f} s")
            serve_and_measure(table, work, databases, sections)
        if "sheets" in sections:
            sheets(table, work)
    print()
    table.print()
    for note in notes:
        print("note:", note)
    left = sorted(set(glob.glob(mine)) - before)
    print(f"left behind in {tempfile.gettempdir()}:", ", ".join(left) or "nothing")


if __name__ == "__main__":
    main()
