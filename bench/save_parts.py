"""Where a round's save goes beyond the stack's own post/redirect/get (issue 33).

In one process, with Flask's test client on a copy of the demo database (BENCH_GAMES,
10,000 by default): the save of round 4 of a 4-team game (POST the checked round → 303 →
GET the game page), beside bench/floor_app.py's post/redirect/get that saves nothing, in
turn, BENCH_RUNS (40) of each; then the save's transaction alone (``rounds.add_round``
through the services) and the game page alone. Medians, in ms.

Run: ``python bench/save_parts.py``. Nothing here is a test: the figures go to the terminal
and docs/PERFORMANCE.md.
"""

import os
import shutil
import statistics
import time

import common  # bench/common.py: the scripts run as `python bench/NAME.py`
from common import form_values

from bench import checked_form, prepare_save_games  # bench/bench.py

RUNS = int(os.environ.get("BENCH_RUNS", "40"))


class InProcess:
    """Flask's test client with common.Client's two calls, so that bench.py's round form
    (``checked_form``) is filled in here as there."""

    def __init__(self, client):
        self.client = client

    def get(self, path):
        return self.client.get(path).get_data(as_text=True)

    def post_and_follow(self, path, fields):
        return self.client.post(path, data=fields, follow_redirects=True).get_data(as_text=True)


def median_ms(times):
    return statistics.median(times) * 1000


def main():
    games = int(os.environ.get("BENCH_GAMES", "10000"))
    with common.folder("scorekeeper-save-parts-") as work:
        source, _ = common.demo_database(work, games, dict(os.environ))
        path = os.path.join(work, "parts.db")
        shutil.copy(source, path)
        os.environ["SCOREKEEPER_INSTANCE_PATH"] = os.path.join(work, "instance")
        import floor_app  # bench/floor_app.py

        app = floor_app.app_with_floor()
        app.config.update(DATABASE=path, BACKUPS_AUTOMATIC=False)
        ids = prepare_save_games(path, 2 * RUNS)
        client = app.test_client()

        phone = InProcess(client)
        forms = [(game_id, checked_form(phone, game_id)) for game_id in ids[:RUNS]]  # as bench.py's
        nothing = {**form_values(phone.get("/bench/floor")), "revision": "1"}
        parts = {key: [] for key in ("save post", "save get", "nothing post", "nothing get")}

        def timed(key, action):
            start = time.perf_counter()
            result = action()
            parts[key].append(time.perf_counter() - start)
            return result

        for game_id, values in forms:
            url = f"/games/{game_id}/rounds/new"
            saved = timed("save post", lambda u=url, v=values: client.post(u, data=v))
            assert saved.status_code == 303, saved.status_code
            page = timed("save get", lambda r=saved: client.get(r.headers["Location"]))
            assert b"Round 4 saved." in page.data
            posted = timed("nothing post", lambda: client.post("/bench/floor", data=nothing))
            assert posted.status_code == 303
            timed("nothing get", lambda r=posted: client.get(r.headers["Location"]))

        from scorekeeper.scoring import TeamRound
        from scorekeeper.services import game_model, rounds
        from scorekeeper.storage.db import connect

        db = connect(path)
        alone, shown = [], []
        for game_id in ids[RUNS:]:
            game = game_model.load_game(db, game_id)
            entries = [TeamRound(melded_points=180 if i == 0 else 75) for i in range(len(game.teams))]
            start = time.perf_counter()
            rounds.add_round(db, game.id, game.revision, 4, entries)
            alone.append(time.perf_counter() - start)
            start = time.perf_counter()
            client.get(f"/games/{game_id}")
            shown.append(time.perf_counter() - start)
        db.close()

    save = [p + g for p, g in zip(parts["save post"], parts["save get"])]
    floor = [p + g for p, g in zip(parts["nothing post"], parts["nothing get"])]
    print(f"{games:,} games, {RUNS} of each, in one process (Flask's test client); medians")
    print("part                                               save    nothing")
    print(
        f"the POST (form, CSRF, transaction, 303)        {median_ms(parts['save post']):6.1f} ms"
        f"  {median_ms(parts['nothing post']):6.1f} ms"
    )
    print(f"  of it, rounds.add_round alone (the transaction) {median_ms(alone):5.1f} ms")
    print(
        f"the GET after it (game page / one-line page)   {median_ms(parts['save get']):6.1f} ms"
        f"  {median_ms(parts['nothing get']):6.1f} ms"
    )
    print(f"  the game page again, without its message     {median_ms(shown):6.1f} ms")
    ratio = statistics.median(save) / statistics.median(floor)
    print(f"the whole                                      {median_ms(save):6.1f} ms", end="")
    print(f"  {median_ms(floor):6.1f} ms   {ratio:.2f}×")


if __name__ == "__main__":
    main()
