"""No change waits on the past (issue 33): how long each change holds SQLite's write lock,
what its catch-up then costs, and a second phone's Save while the oldest game is reopened.

At each size of demo history (BENCH_GAMES: 1,000 and 10,000 for `make bench`, 10,000 and
100,000 for `make bench-large`):

- **Each kind of change**, made through the services as a view makes it: a round saved,
  fixed, deleted and undone in tonight's game, that game ended, a player renamed, one old
  game imported (played before every other), and the oldest finished game reopened and
  ended again, then deleted, restored, and deleted and removed for good (issue 54). While
  it runs, a second process asks for the write lock (``BEGIN IMMEDIATE``, then
  ``ROLLBACK``) every 2 ms, as another phone's Save would; the longest it waited is how
  long the change held the lock (give or take 2 ms). The change's catch-up
  of the ratings (``ratings.catch_up``, after its commit) is timed apart: its short
  transactions (how many, the longest) and its whole time.
- **A second phone's Save** (POST the checked round → 303), on the app's own server
  (`python -m scorekeeper.serve`, what `make run` starts): once while nothing else
  happens, and once right after another phone reopened (or ended again) the oldest game,
  while the server's worker catches the ratings up (its automatic backups off: each end of
  the oldest game would copy the whole database at once). BENCH_LOCK_RUNS (10) of each, taking
  turns; the figure is the slowest Save of each kind, against the quiet median.
- **The history pages while the ratings catch up**: the players, a player, the records, this
  year and the busiest evening, asked in turn by that phone until the catch-up is done.
- **A writer outside the app while it catches up** (issue 45): the oldest game reopened, then
  ended again, on the app's own server; meanwhile another process asks for the write lock
  every 2 to 10 ms as the command line would (SQLite's busy handler) and reports its
  longest wait (the goal: 200 ms), and a third watches every 1 ms how long the lock stays
  taken (the longest catch-up transaction).
- **A second phone's Save during a long import** (issue 42): phone A imports an export of
  BENCH_IMPORT_GAMES (8,000) demo games through /import on the app's own server, while
  phone B saves round after round of its game (each checked first, untimed); B's slowest
  Save against its quiet median before the import.

Run: ``python bench/locks.py`` (``make bench`` runs it last). Nothing here is a test: the
figures go to the terminal and docs/PERFORMANCE.md.
"""

import argparse
import datetime
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

import common  # bench/common.py: the scripts run as `python bench/NAME.py`

RUNS = int(os.environ.get("BENCH_LOCK_RUNS", "10"))

PROBE = """
import sqlite3, sys, time, os
conn = sqlite3.connect(sys.argv[1], timeout=60, isolation_level=None)
print("asking", flush=True)
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
    assert prober.stdout.readline().strip() == "asking"
    time.sleep(0.05)  # a few rounds of asking before the change
    start = time.perf_counter()
    change()
    took = (time.perf_counter() - start) * 1000
    time.sleep(0.02)
    open(stop, "w").close()
    longest = float(prober.communicate(timeout=60)[0])
    return longest, took


def caught_up(db):
    """Catch the ratings up as the app does after a change: (transactions, the longest
    in ms, the whole in ms)."""
    from scorekeeper.services import ratings

    steps = []
    start = time.perf_counter()
    while True:
        begun = time.perf_counter()
        more = ratings.step(db)
        steps.append((time.perf_counter() - begun) * 1000)
        if not more:
            break
    return len(steps), max(steps), (time.perf_counter() - start) * 1000


def one_old_game(db):
    """An export of one game, played before every other game (a new uid: imported anew)."""
    from scorekeeper.exchange import jsonfile

    first = db.execute("SELECT id, created_at FROM games ORDER BY created_at, id LIMIT 1").fetchone()
    data = json.loads(json.dumps(jsonfile.export_game(db, first[0]), default=str))
    for game in data["games"]:
        game["uid"] = "bench-" + game["uid"]
        for key in ("created_at", "updated_at", "finished_at"):
            if game.get(key):
                game[key] = "2000-01-01T19:00:00+00:00"
    return data


def changes(db):
    """(label, change) for the changes measured, on ``db``."""
    from scorekeeper.exchange import importer
    from scorekeeper.scoring import RULESETS, TeamRound
    from scorekeeper.services import deleted, game_model, games, players, rounds

    oldest = db.execute(
        "SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY created_at, id LIMIT 1"
    ).fetchone()[0]
    # tonight's game, started now: the newest of all, as at the table
    teams = [("", ["Ann", "Bo"]), ("", ["Cy", "Di"])]
    newest = games.create_game(db, RULESETS["partnership"], "partnership", teams).id
    imported = one_old_game(db)

    def tonight():
        return game_model.load_game(db, newest)

    def entries(game, melded):
        return [TeamRound(melded_points=melded if i == 0 else 60) for i in range(len(game.teams))]

    def save():
        game = tonight()
        rounds.add_round(db, game.id, game.revision, game.standings.next_round, entries(game, 150))

    def fix():
        game = tonight()
        rounds.update_round(db, game.id, game.revision, game.rounds[0].id, entries(game, 170))

    def delete():
        game = tonight()
        rounds.delete_round(db, game.id, game.revision, game.rounds[0].id)

    def undo():
        game = tonight()
        rounds.delete_round(db, game.id, game.revision, game.rounds[-1].id, action="undone")

    def end_tonight():
        game = tonight()
        games.end_game(db, game.id, game.revision)

    def rename():
        found, revision = players.player(db, players.find_player(db, "Ann").id)
        players.rename_player(db, found.id, revision, "Ann B.")

    def reopen():
        game = game_model.load_game(db, oldest)
        games.reopen_game(db, game.id, game.revision)

    def end_oldest():
        game = game_model.load_game(db, oldest)
        games.end_game(db, game.id, game.revision)

    def delete_oldest():
        game = game_model.load_game(db, oldest)
        deleted.delete_game(db, game.id, game.revision)

    def restore_oldest():
        (revision,) = db.execute("SELECT revision FROM games WHERE id = ?", [oldest]).fetchone()
        deleted.restore_game(db, oldest, revision)

    def gone_for_good():  # deleted again, and 31 days later removed for good
        delete_oldest()
        deleted.purge(db, datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=31))

    return [
        ("a round saved (tonight's game)", save),
        ("a round fixed", fix),
        ("a round deleted", delete),
        ("a round saved, then undone", lambda: (save(), undo())),
        ("a round saved (again)", save),
        ("tonight's game ended", end_tonight),
        ("a player renamed", rename),
        ("one game imported, older than all", lambda: importer.import_history(db, imported)),
        ("the oldest game reopened", reopen),
        ("the oldest game ended again", end_oldest),
        ("the oldest game deleted", delete_oldest),
        ("the oldest game restored", restore_oldest),
        ("the oldest game deleted, then purged", gone_for_good),
    ]


def each_change(path, work, games_count):
    from scorekeeper.storage.db import connect

    db = connect(path)
    db.catch_up_later = lambda: None  # the catch-up is timed apart, after the change
    try:
        for label, change in changes(db):
            longest, took = held(path, change, work)
            steps, step_longest, whole = caught_up(db)
            print(
                f"{label:36} {games_count:7}  {longest:7.1f} ms  {took:7.1f} ms"
                f"   {steps:5}  {step_longest:6.1f} ms  {whole:8.1f} ms"
            )
    finally:
        db.close()


def second_phone(path, work, games_count):
    """(quiet Saves in ms, Saves while the oldest game's catch-up runs, catch-up seconds,
    {history page: its times in ms while the catch-up runs})."""
    from bench import THIS_YEAR, checked_form, players_of_note, prepare_save_games  # bench/bench.py

    busiest, _, _, night = players_of_note(path)
    pages = {
        "/players": "/players",
        "/players/<busiest>": f"/players/{busiest}",
        "/records": "/records",
        "/years/<this year>": f"/years/{THIS_YEAR}",
        "/evenings/<busiest evening>": f"/evenings/{night}",
    }
    during = {label: [] for label in pages}
    save_games = prepare_save_games(path, 2 * RUNS + 2)
    oldest = (
        sqlite3.connect(path)
        .execute("SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY created_at, id LIMIT 1")
        .fetchone()[0]
    )
    reader = sqlite3.connect(path)
    quiet, busy, catching = [], [], []
    instance = os.path.join(work, f"instance-{games_count}")
    os.makedirs(instance, exist_ok=True)
    with open(os.path.join(instance, "config.py"), "w") as config:
        # each end of the oldest game would copy the whole database at once (a game ended
        # since the newest backup): measured here is the catch-up, not the backups
        config.write("BACKUPS_AUTOMATIC = False\n")
    with common.server(instance, path) as (port, _):
        phone = common.Client(port)
        forms = iter([(g, checked_form(phone, g)) for g in save_games])

        def save():
            game_id, values = next(forms)
            start = time.perf_counter()
            status, _, _, _ = phone.request("POST", f"/games/{game_id}/rounds/new", body=_encoded(values))
            took = (time.perf_counter() - start) * 1000
            assert status == 303, status
            return took

        def old_change():
            other = common.Client(port)  # another phone, which opens the game anew each time
            page = other.get(f"/games/{oldest}")
            action = "reopen" if f"/games/{oldest}/reopen" in page else "end"
            values = common.form_values(page if action == "reopen" else other.get(f"/games/{oldest}/end"))
            status, _, data, _ = other.request("POST", f"/games/{oldest}/{action}", body=_encoded(values))
            assert status == 303, (action, status, data[:300])
            other.close()

        save()  # a warm-up
        for _ in range(RUNS):
            quiet.append(save())
            old_change()
            started = time.perf_counter()
            busy.append(save())
            while reader.execute("SELECT 1 FROM ratings_behind").fetchone():
                for label, url in pages.items():  # a family opening the history meanwhile
                    begun = time.perf_counter()
                    phone.get(url)
                    during[label].append((time.perf_counter() - begun) * 1000)
            catching.append(time.perf_counter() - started)
        phone.close()
    reader.close()
    return quiet, busy, catching, during


# Two probes in other processes while the app's server catches the ratings up (issue 45):
# "writer" asks for the write lock as the command line's import or restore would (SQLite's
# busy handler, timeout 60 s), every 2 to 10 ms, and reports the longest it waited; "holder"
# asks every 1 ms without the busy handler and reports the longest the lock stayed taken
# (the longest catch-up transaction, seen from outside, give or take 1 ms).
OUTSIDE = """
import os, random, sqlite3, sys, time
kind, path, stop = sys.argv[1:4]
conn = sqlite3.connect(path, timeout=60 if kind == "writer" else 0, isolation_level=None)
random.seed(45)
print("asking", flush=True)
longest, taken_since, asked = 0.0, None, 0
while not os.path.exists(stop):
    start = time.perf_counter()
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError:  # only the holder: the lock is taken
        taken_since = start if taken_since is None else taken_since
        time.sleep(0.001)
        continue
    conn.execute("ROLLBACK")
    asked += 1
    if kind == "writer":
        longest = max(longest, time.perf_counter() - start)
        time.sleep(random.uniform(0.002, 0.010))
    else:
        if taken_since is not None:
            longest = max(longest, start - taken_since)
        taken_since = None
        time.sleep(0.001)
print(f"{longest * 1000:.1f} {asked}")
"""


def outside_writer(path, work, games_count):
    """[(what, the writer's longest wait in ms, the longest transaction in ms, seconds)]: the
    oldest game reopened, then ended again, on the app's own server, each caught up by its
    worker while two probes in other processes ask for the write lock."""
    instance = os.path.join(work, f"instance-outside-{games_count}")
    os.makedirs(instance, exist_ok=True)
    with open(os.path.join(instance, "config.py"), "w") as config:
        config.write("BACKUPS_AUTOMATIC = False\n")  # measured here is the catch-up
    oldest = (
        sqlite3.connect(path)
        .execute("SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY created_at, id LIMIT 1")
        .fetchone()[0]
    )
    reader = sqlite3.connect(path)
    found = []
    with common.server(instance, path) as (port, _):
        phone = common.Client(port)
        for action in ("reopen", "end"):
            stop = os.path.join(work, "stop-outside")
            if os.path.exists(stop):
                os.remove(stop)
            command = [sys.executable, "-c", OUTSIDE]
            probes = [
                subprocess.Popen([*command, kind, path, stop], stdout=subprocess.PIPE, text=True)
                for kind in ("writer", "holder")
            ]
            for probe in probes:
                assert probe.stdout.readline().strip() == "asking"
            page = phone.get(f"/games/{oldest}" if action == "reopen" else f"/games/{oldest}/end")
            started = time.perf_counter()
            status, _, data, _ = phone.request(
                "POST", f"/games/{oldest}/{action}", body=_encoded(common.form_values(page))
            )
            assert status == 303, (action, status, data[:300])
            while reader.execute("SELECT 1 FROM ratings_behind").fetchone():
                time.sleep(0.05)  # the bench's own reading, not a probe's
            seconds = time.perf_counter() - started
            open(stop, "w").close()
            (waited, _), (held, _) = (probe.communicate(timeout=60)[0].split() for probe in probes)
            found.append((action, float(waited), float(held), seconds))
        phone.close()
    reader.close()
    return found


IMPORT_GAMES = int(os.environ.get("BENCH_IMPORT_GAMES", "8000"))


def during_import(work):
    """(phone B's quiet Saves in ms, its Saves during phone A's import, the import's seconds,
    A's answer's status)."""
    import threading
    import uuid

    from bench import checked_form, prepare_save_games  # bench/bench.py
    from scorekeeper.exchange import jsonfile
    from scorekeeper.services.schema import migrate
    from scorekeeper.storage.db import connect

    source, _ = common.demo_database(work, IMPORT_GAMES, dict(os.environ))
    db = connect(source)
    upload = "".join(jsonfile.iter_history_json(db)).encode()
    db.close()
    path = os.path.join(work, "import-target.db")
    for leftover in (path, path + "-wal", path + "-shm"):
        if os.path.exists(leftover):
            os.remove(leftover)
    migrate(path)
    (game,) = prepare_save_games(path, 1)
    instance = os.path.join(work, "instance-import")
    os.makedirs(instance, exist_ok=True)
    with open(os.path.join(instance, "config.py"), "w") as config:
        config.write("BACKUPS_AUTOMATIC = False\n")
    quiet, during, answer = [], [], {}
    with common.server(instance, path) as (port, _):
        a, b = common.Client(port), common.Client(port)

        def save():
            values = checked_form(b, game)
            start = time.perf_counter()
            status, _, data, _ = b.request("POST", f"/games/{game}/rounds/new", body=_encoded(values))
            assert status == 303, (status, data[:300])
            return (time.perf_counter() - start) * 1000

        for _ in range(RUNS):
            quiet.append(save())
        a.give_household_code(instance)
        fields = common.form_values(a.get("/import"))
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
            for name, value in fields.items()
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="history.json"\r\n'
            "Content-Type: application/json\r\n\r\n".encode()
            + upload
            + f"\r\n--{boundary}--\r\n".encode()
        )

        a.connection.sock.settimeout(1800)  # years of games take a while to check and write

        def import_it():
            start = time.perf_counter()
            a.connection.request(
                "POST",
                "/import",
                body=b"".join(parts),
                headers={
                    "Content-Type": f"multipart/form-data; boundary={boundary}",
                    "Cookie": "; ".join(f"{k}={v}" for k, v in a.cookies.items()),
                },
            )
            response = a.connection.getresponse()
            response.read()
            answer["status"], answer["seconds"] = response.status, time.perf_counter() - start

        importing = threading.Thread(target=import_it)
        importing.start()
        begun = time.perf_counter()
        while importing.is_alive():
            during.append(save())
            if os.environ.get("BENCH_TRACE"):
                print(f"  {time.perf_counter() - begun:6.2f} s  {during[-1]:7.1f} ms", flush=True)
        importing.join()
        a.close()
        b.close()
    return quiet, during, answer["seconds"], answer["status"]


def _encoded(values):
    from urllib.parse import urlencode

    return urlencode(values, doseq=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        default="changes,phone,outside,import",
        help="changes, phone, outside, import (all by default)",
    )
    sections = parser.parse_args().only.split(",")
    sizes = [int(n) for n in os.environ.get("BENCH_GAMES", "1000,10000").split(",")]
    if "changes" in sections:
        print("each change: the lock it holds (a second process asking every 2 ms), then its catch-up")
        print(
            "change                                 games   lock held   the change   steps  longest"
            "     whole catch-up"
        )
    with common.folder("scorekeeper-locks-") as work:
        phones, outside = [], []
        for games_count in sizes:
            source, _ = common.demo_database(work, games_count, dict(os.environ))
            path = os.path.join(work, f"locks-{games_count}.db")
            if "changes" in sections:
                shutil.copy(source, path)
                each_change(path, work, games_count)
            if "phone" in sections:
                shutil.copy(source, path)
                for suffix in ("-wal", "-shm"):
                    if os.path.exists(path + suffix):
                        os.remove(path + suffix)
                phones.append((games_count, *second_phone(path, work, games_count)))
            if "outside" in sections:
                shutil.copy(source, path)
                for suffix in ("-wal", "-shm"):
                    if os.path.exists(path + suffix):
                        os.remove(path + suffix)
                outside += [(games_count, *found) for found in outside_writer(path, work, games_count)]
        if outside:
            print()
            print("a writer outside the app (another process, as the command line's import) while the")
            print("app's server catches the ratings up after the oldest game was reopened, then ended")
            print("games   change     writer's longest wait   longest catch-up transaction   catch-up took")
            for games_count, action, waited, held, seconds in outside:
                print(
                    f"{games_count:6}   {action:8}   {waited:14.1f} ms   {held:23.1f} ms"
                    f"   {seconds:10.2f} s   {'≤ 200 ms' if waited <= 200 else 'OVER 200 ms'}"
                )
        if "import" in sections:
            quiet, during, seconds, status = during_import(work)
            print()
            print(f"a second phone's Save while another imports {IMPORT_GAMES:,} games through /import")
            print("import took   Saves during   quiet median   during: median   slowest   slowest ÷ quiet")
            print(
                f"{seconds:8.1f} s   {len(during):12}   {statistics.median(quiet):9.1f} ms"
                f"   {statistics.median(during):11.1f} ms   {max(during):6.1f} ms"
                f"   {max(during) / statistics.median(quiet):12.1f}×   (import answered {status})"
            )
        if not phones:
            return
        print()
        print("a second phone's Save (POST → 303) on the app's own server, quiet and while the oldest")
        print("game's catch-up runs (right after another phone reopened or ended it again)")
        print("games   quiet median   quiet slowest   during: median   slowest   catch-up took")
        for games_count, quiet, busy, catching, _ in phones:
            print(
                f"{games_count:6}   {statistics.median(quiet):9.1f} ms   {max(quiet):10.1f} ms"
                f"   {statistics.median(busy):11.1f} ms   {max(busy):6.1f} ms"
                f"   {statistics.median(catching):8.2f} s"
            )
        print()
        print("the history pages while the ratings catch up (asked in turn until they have)")
        print("page                                 games   median    p95    slowest   asked")
        for games_count, *_, during in phones:
            for label, times in during.items():
                print(
                    f"{label:34} {games_count:7}  {statistics.median(times):5.1f} ms"
                    f"  {common.p95(times):5.1f} ms  {max(times):6.1f} ms  {len(times):5}"
                )


if __name__ == "__main__":
    main()
