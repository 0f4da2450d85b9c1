"""How long a change holds SQLite's write lock, as the history grows (issue 33's baseline).

At each size of demo history (BENCH_GAMES, 1,000 and 10,000 by default), a second
process asks for the write lock (``BEGIN IMMEDIATE``, then ``ROLLBACK``) every 2 ms,
as another phone's Save would, while one change runs in this process through the
services; the longest it waited is how long that change held the lock (give or take
2 ms). The changes: a round saved in the newest game, and the oldest finished game
reopened and ended again (each replays the ratings of every game after it today).

Run: ``python bench/locks.py`` (``make bench`` runs it after the others). Nothing here is a
test: the figures go to the terminal and docs/PERFORMANCE.md.
"""

import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import common

PROBE = """
import sqlite3, sys, time, os
conn = sqlite3.connect(sys.argv[1], timeout=60, isolation_level=None)
longest = 0.0
while not os.path.exists(sys.argv[2]):
    start = time.perf_counter()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("ROLLBACK")
    longest = max(longest, time.perf_counter() - start)
    time.sleep(0.002)
print(f"{longest * 1000:.1f}")
"""


def held(path, change, work):
    """(the longest wait of the prober in ms, the change's own time in ms)."""
    stop = os.path.join(work, "stop")
    if os.path.exists(stop):
        os.remove(stop)
    prober = subprocess.Popen([sys.executable, "-c", PROBE, path, stop], stdout=subprocess.PIPE, text=True)
    time.sleep(0.2)  # the prober is asking
    start = time.perf_counter()
    change()
    took = (time.perf_counter() - start) * 1000
    time.sleep(0.05)
    open(stop, "w").close()
    longest = float(prober.communicate(timeout=60)[0])
    return longest, took


def changes(db):
    """(label, change) for the changes measured, on ``db``."""
    from scorekeeper.scoring import RULESETS, TeamRound
    from scorekeeper.services import game_model, games, rounds

    oldest = db.execute(
        "SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY created_at, id LIMIT 1"
    ).fetchone()[0]
    # tonight's game, started now: the newest of all, as at the table
    teams = [("", ["Ann", "Bo"]), ("", ["Cy", "Di"])]
    newest = games.create_game(db, RULESETS["partnership"], "partnership", teams).id

    def save():
        game = game_model.load_game(db, newest)
        entries = [TeamRound(melded_points=150 if i == 0 else 60) for i in range(len(game.teams))]
        rounds.add_round(db, game.id, game.revision, game.standings.next_round, entries)

    def reopen():
        game = game_model.load_game(db, oldest)
        games.reopen_game(db, game.id, game.revision)

    def end():
        game = game_model.load_game(db, oldest)
        games.end_game(db, game.id, game.revision)

    return [
        ("a round saved (the newest game)", save),
        ("the oldest game reopened", reopen),
        ("the oldest game ended again", end),
    ]


def main():
    from scorekeeper.db import connect

    sizes = [int(n) for n in os.environ.get("BENCH_GAMES", "1000,10000").split(",")]
    print("figure                                   games   lock held   the change")
    with common.folder("scorekeeper-locks-") as work:
        for games in sizes:
            source, _ = common.demo_database(work, games, dict(os.environ))
            path = os.path.join(work, f"locks-{games}.db")
            shutil.copy(source, path)
            db = connect(path)
            try:
                for label, change in changes(db):
                    longest, took = held(path, change, work)
                    print(f"{label:40} {games:6}  {longest:7.1f} ms  {took:7.1f} ms")
            finally:
                db.close()


if __name__ == "__main__":
    main()
