"""make bench: how long the history, player and leaderboard pages take as the history grows.

For 1,000, 10,000 and 100,000 games (``demo-data --seed 1``), each page is
fetched through the Flask test client and set beside its floor, measured in
the same run: the bare SQL behind the page on a plain connection, no Flask,
no template. Figures are medians after a warm-up.

The databases are built under a temporary folder for the run (set
BENCH_CACHE to a folder to keep and reuse them between runs). A size whose
build would take longer than BENCH_BUILD_LIMIT seconds (estimated from the
size before it) is skipped with a note. BENCH_GAMES picks the sizes
("1000,10000"), BENCH_RUNS the runs per figure.

The player page is that of the player with the most games, the heaviest one.
The history page (GET /history) is measured only if the app has it.
"""

import os
import sys
import tempfile
import time

import common  # bench/common.py: the scripts run as `python bench/NAME.py`

RUNS = int(os.environ.get("BENCH_RUNS", "7"))
SIZES = [int(n) for n in os.environ.get("BENCH_GAMES", "1000,10000,100000").split(",")]
BUILD_LIMIT = float(os.environ.get("BENCH_BUILD_LIMIT", "900"))


def median_ms(action, runs=RUNS):
    return common.median_ms(action, runs)


def build(folder, games):
    """The database with ``games`` demo games, and the seconds it took (0 if cached)."""
    from scorekeeper import create_app

    path = os.path.join(folder, f"games-{games}.db")
    if os.path.exists(path):
        return path, 0.0
    partial = path + ".building"
    for leftover in (partial, partial + "-wal", partial + "-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)
    app = create_app({"DATABASE": partial})
    start = time.perf_counter()
    result = app.test_cli_runner().invoke(args=["demo-data", "--games", str(games), "--seed", "1"])
    if result.exit_code:
        raise SystemExit(f"demo-data failed: {result.output}")
    seconds = time.perf_counter() - start
    from scorekeeper.db import connect

    db = connect(partial)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    os.rename(partial, path)
    return path, seconds


def measure(path):
    """[(page, page ms, floor ms)] for one database."""
    from scorekeeper import create_app
    from scorekeeper.db import connect
    from scorekeeper.services import history, players, stats

    app = create_app({"DATABASE": path})
    client = app.test_client()
    db = connect(path)
    (player,) = db.execute("""SELECT player_id FROM team_players GROUP BY player_id
                              ORDER BY COUNT(*) DESC LIMIT 1""").fetchone()
    rows = []

    def get(url):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    if client.get("/history").status_code == 404:
        rows.append(("/history", None, None))
    else:
        # the floor is the page's own SQL (the ids of one page and the count); the
        # page then loads those 20 games and scores them with the engine
        rows.append(
            (
                "/history",
                median_ms(lambda: get("/history")),
                median_ms(lambda: history.find_games(db, history.Filters())),
            )
        )

    def player_sql():
        players.player(db, player)
        stats.player_record(db, player)
        stats.timeline(db, player)
        stats.recent_games(db, player)

    rows.append((f"/players/{player}", median_ms(lambda: get(f"/players/{player}")), median_ms(player_sql)))

    def leaderboard_sql():
        stats.leaderboard(db)
        stats.players_page(db)

    rows.append(("/players", median_ms(lambda: get("/players")), median_ms(leaderboard_sql)))
    db.close()
    return rows


def main():
    cache = os.environ.get("BENCH_CACHE")
    folder = cache or tempfile.mkdtemp(prefix="scorekeeper-bench-pages-")
    os.makedirs(folder, exist_ok=True)
    os.environ["SCOREKEEPER_INSTANCE_PATH"] = folder
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {RUNS} runs each (median); "
        f"databases in {folder}"
    )
    print("floor = the bare SQL behind the page (same queries, plain connection, no Flask or template)")
    print()
    header = f"{'games':>8}  {'page':<14} {'page ms':>9} {'floor ms':>9} {'ratio':>7}"
    results, notes, rate = [], [], None
    for games in SIZES:
        if rate is not None and games * rate > BUILD_LIMIT:
            notes.append(
                f"{games:,} games skipped: building them would take about "
                f"{games * rate / 60:.0f} min here (limit BENCH_BUILD_LIMIT={BUILD_LIMIT:.0f} s)"
            )
            continue
        path, seconds = build(folder, games)
        if seconds:
            rate = seconds / games
            notes.append(f"{games:,} games built by demo-data in {seconds:.1f} s")
        for page, ms, floor in measure(path):
            results.append((games, page, ms, floor))
    print(header)
    print("-" * len(header))
    for games, page, ms, floor in results:
        if ms is None:
            print(f"{games:>8,}  {page:<14} {'—':>9} {'—':>9} {'—':>7}   no such page yet (404): skipped")
        else:
            print(f"{games:>8,}  {page:<14} {ms:9.1f} {floor:9.1f} {ms / floor:6.2f}x")
    for note in notes:
        print("note:", note)


if __name__ == "__main__":
    main()
