"""No change waits on the past: a change to an old game holds the write lock as briefly as
one to the newest, and the ratings catch up after it (services/ratings.py, catch_up.py).

How long the lock is held is a benchmark's figure (bench/locks.py); here the work done
inside the change's transaction is counted instead (rows written, statements run), which
must not grow with the games stored, and the catch-up is followed through pages, the
background worker and a server killed halfway.
"""

import datetime
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.exchange import demo
from scorekeeper.services import catch_up, deleted, game_model, games, ratings
from scorekeeper.storage.db import connect

from ..helpers import built_once, served, text
from ..httpkit import HttpPhone, migrated
from .test_ratings import kept, rebuilt

NOW = datetime.datetime(2026, 11, 1, 20, 0, tzinfo=datetime.UTC)


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """A family's 300 games over a year (built once for the run, ``built_once``: 2 s; each
    test copies it)."""

    def build(folder):
        path = migrated(folder / "history.db")
        db = connect(str(path))
        try:
            demo.generate(db, 300, seed=33, now=NOW, span=datetime.timedelta(days=365))
        finally:
            db.close()
        return str(path)

    return Path(built_once(tmp_path_factory, "catch-up-history", build))


def copy_of(history, tmp_path, name="scorekeeper.db"):
    path = tmp_path / name
    shutil.copy(history, path)
    return path


def oldest(db):
    return db.execute(
        "SELECT id FROM games WHERE finished_at IS NOT NULL ORDER BY created_at, id LIMIT 1"
    ).fetchone()[0]


def work_of(db, change):
    """(rows written, statements run) by ``change()``, its catch-up left for later."""
    statements = []
    db.catch_up_later = lambda: None
    db.conn.set_trace_callback(statements.append)
    before = db.conn.total_changes
    try:
        change()
    finally:
        db.conn.set_trace_callback(None)
    return db.conn.total_changes - before, len(statements)


def at_30_and_at_180(path, changes):
    """``changes(db, game id)`` (two changes to the oldest game, then the catch-up: (rows,
    statements) of each, and the catch-up's transactions) with 30 games after that game,
    then with 180; each time the summaries kept are what a rebuild makes. Asserts the two
    changes ran the same statements and wrote no more rows (fewer, where a sum the game
    emptied in a short history is kept), and that the catch-up grew instead."""
    db = connect(str(path))
    try:
        earlier = NOW - datetime.timedelta(days=400)
        demo.generate(db, 30, seed=5, now=earlier, span=datetime.timedelta(days=60))
        first = oldest(db)
        small = changes(db, first)
        assert kept(db) == rebuilt(db)
        demo.generate(db, 150, seed=6, now=NOW, span=datetime.timedelta(days=300))
        large = changes(db, first)
        assert kept(db) == rebuilt(db)
    finally:
        db.close()
    for before, after in zip(small[:2], large[:2]):
        assert after[1] == before[1]  # the same statements
        assert 0 < after[0] <= before[0]  # and no more rows
    assert large[2] > small[2]  # the catch-up's transactions grew instead


def caught_up(db):
    """The catch-up done, one chunk a transaction: how many (counted, not timed)."""
    steps = 0
    while ratings.step(db, budget=0):
        steps += 1
    return steps


@pytest.mark.long  # 180 games made: 1.5 to 2 s
@pytest.mark.timeout(60)
def test_reopening_and_ending_the_oldest_game_does_as_much_at_180_games_as_at_30(tmp_path):
    """The same oldest game, first with 30 games after it, then with 180: its reopening
    and its ending run the same statements and write no more rows; what grew is the
    catch-up, done after the commit in short transactions. (2 s: the 180 games are made
    here, one history grown in the middle of the test.)"""

    def reopen_then_end(db, first):
        game = game_model.load_game(db, first)
        reopened = work_of(db, lambda: games.reopen_game(db, game.id, game.revision))
        game = game_model.load_game(db, first)
        ended = work_of(db, lambda: games.end_game(db, game.id, game.revision))
        return reopened, ended, caught_up(db)

    at_30_and_at_180(migrated(tmp_path / "grows.db"), reopen_then_end)


@pytest.mark.long  # 2 s: the 180 games are made here, as above
@pytest.mark.timeout(60)
def test_deleting_and_restoring_the_oldest_game_does_as_much_at_180_games_as_at_30(tmp_path):
    """Issue 54: the oldest game deleted, then restored, first with 30 games after it, then
    with 180: the same statements, no more rows; the catch-up after each grew instead."""

    def delete_then_restore(db, first):
        game = game_model.load_game(db, first)
        gone = work_of(db, lambda: deleted.delete_game(db, game.id, game.revision, loaded=game))
        steps = caught_up(db)
        assert kept(db) == rebuilt(db)
        (revision,) = db.execute("SELECT revision FROM games WHERE id = ?", [first]).fetchone()
        back = work_of(db, lambda: deleted.restore_game(db, first, revision))
        return gone, back, steps + caught_up(db)

    at_30_and_at_180(migrated(tmp_path / "grows.db"), delete_then_restore)


@pytest.mark.long  # 300 games copied, the app's worker followed until caught up: 1.5 s
@pytest.mark.timeout(60)
def test_pages_show_the_ratings_before_the_changed_game_and_say_so_until_caught_up(history, tmp_path):
    """The app's worker, in the background: while it cannot catch up (another process
    holds the write lock), the players, player and records pages say "Ratings updating…"
    and show the ratings as they stood before the changed game; once it has, they show
    what a rebuild makes, and say nothing."""
    path = copy_of(history, tmp_path)
    app = create_app({"TESTING": True, "DATABASE": str(path), "RATINGS_IN_BACKGROUND": True})
    client = app.test_client()
    db = connect(str(path))
    try:
        whole = text(client.get("/players"))
        assert "Ratings updating" not in whole
        busiest = db.execute(
            "SELECT player_id FROM player_stats ORDER BY games DESC, player_id LIMIT 1"
        ).fetchone()[0]
        game = game_model.load_game(db, oldest(db))
        # the change from another phone: its catch-up left to the app, which is held up
        db.catch_up_later = lambda: None
        games.reopen_game(db, game.id, game.revision)
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            for url in ("/players", f"/players/{busiest}", "/records"):
                page = text(client.get(url))
                assert "Ratings updating… a change to a game of" in page, url
            # before the oldest game nobody had a rating; their games and wins still show
            assert client.get(f"/players/{busiest}.json").get_json()["rating"]["games"] == 0
            board = text(client.get("/players"))
            assert "none finished" not in board
            won, played = db.execute(
                "SELECT wins, games FROM player_stats WHERE player_id = ?", [busiest]
            ).fetchone()
            assert f"Rating updating… {won:,} wins in {played:,} games" in board
            board = client.get("/players.json").get_json()
            assert board["ratings_behind"] == game.created_at and board["leaderboard"] == []
        finally:
            db.conn.execute("ROLLBACK")
        worker = catch_up.for_app(app)
        worker.changed()  # at once, were its first try given up while the lock was held
        assert worker.wait(30)
        assert ratings.behind(db) is None
        assert kept(db) == rebuilt(db)
        for url in ("/players", f"/players/{busiest}", "/records"):
            assert "Ratings updating" not in text(client.get(url)), url
        assert client.get("/players.json").get_json()["leaderboard"]
    finally:
        db.close()


def _reopen_or_end(phone, game_id):
    """Reopen the game from its page, or end it again when it is open (as a phone would)."""
    url = f"/games/{game_id}"
    if f"{url}/reopen" not in phone.get(url).text:
        url += "/end"
    form, url = phone.open_form(url, "/reopen" if url == f"/games/{game_id}" else "/end")
    resp = phone.submit(form, url)
    assert resp.status == 303, f"{url}: {resp.status} {resp.text[:300]}"


@pytest.mark.long
@pytest.mark.timeout(120)
def test_a_server_killed_while_catching_up_finishes_after_its_next_start(history, tmp_path):
    """`make run`'s server, killed with SIGKILL while its worker catches up after the oldest
    game was reopened: the file keeps its mark, the next start finishes the catch-up by
    itself, and the ratings are what a rebuild makes. (2 s: two starts of the server.)"""
    path = copy_of(history, tmp_path)
    instance = tmp_path / "instance"
    instance.mkdir()
    db = connect(str(path))
    try:
        first = oldest(db)
        with served(instance, path) as (process, port):
            phone = HttpPhone("127.0.0.1", port)
            for _ in range(20):  # the catch-up of 300 games takes a few transactions
                _reopen_or_end(phone, first)
                os.kill(process.pid, signal.SIGSTOP)  # frozen as it is, between or inside one
                if ratings.behind(db) is not None:
                    break
                os.kill(process.pid, signal.SIGCONT)  # it had caught up already: again
            else:
                pytest.fail("the catch-up always finished before the server could be stopped")
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        mark = ratings.behind(db)
        assert mark is not None
        with served(instance, path):
            while ratings.behind(db) is not None:  # the new server catches up by itself
                time.sleep(0.01)  # waits on the app (the test's time limit bounds it)
        assert kept(db) == rebuilt(db)
    finally:
        db.close()


class Clock:
    """A clock the test moves: ``tick`` seconds pass at each reading."""

    def __init__(self, tick):
        self.now, self.tick = 0.0, tick

    def __call__(self):
        self.now += self.tick
        return self.now


def test_a_catch_up_transaction_is_sized_by_time_and_leaves_the_lock_free_between_two(history, tmp_path):
    """A step replays chunks until its budget is spent (whatever a game costs on this
    computer), and the catch-up leaves the write lock free for ``GAP_SECONDS`` between two
    steps, so that another process's writer, polling on SQLite's busy handler, gets in (how
    long it waits is bench/locks.py's figure)."""
    db = connect(str(copy_of(history, tmp_path)))
    try:
        game = game_model.load_game(db, oldest(db))
        work_of(db, lambda: games.reopen_game(db, game.id, game.revision))
        start = ratings.behind(db)
        # a clock past the budget at its first look: one chunk a step; the rows the reopening
        # left behind go first (the mark stays), then each step replays one chunk of games
        late = Clock(0.05)
        stale = sum(
            db.execute(
                f"SELECT count(*) FROM {table} WHERE (played_at, game_id) >= (?, ?)", list(start)
            ).fetchone()[0]
            for table in ("player_ratings", "pair_games")
        )
        removing = 0
        while ratings.step(db, budget=0.02, clock=late) and ratings.behind(db) == start:
            removing += 1
        assert stale // ratings.CHUNK_ROWS - 1 <= removing <= stale // ratings.CHUNK_ROWS + 2
        moved = db.execute(
            "SELECT count(DISTINCT game_id) FROM player_games WHERE counted_at IS NOT NULL "
            "AND (played_at, game_id) >= (?, ?) AND (played_at, game_id) < (?, ?)",
            [*start, *ratings.behind(db)],
        ).fetchone()[0]
        assert moved == ratings.CHUNK_GAMES
        # a clock that stands still: the budget is never spent, the whole catch-up in one
        assert not ratings.step(db, budget=0.02, clock=Clock(0))
        assert ratings.behind(db) is None and kept(db) == rebuilt(db)

        game = game_model.load_game(db, game.id)  # reopened: ended again, it counts again
        work_of(db, lambda: games.end_game(db, game.id, game.revision))
        slept, turned = [], []
        ratings.catch_up(db, turns=lambda: turned.append(1), budget=0, sleep=slept.append)
        assert ratings.behind(db) is None and kept(db) == rebuilt(db)
        # a gap after each step but the last (one chunk each, budget 0)
        assert len(slept) == len(turned) > 300 // ratings.CHUNK_GAMES - 2
        assert all(0 <= gap <= ratings.GAP_SECONDS for gap in slept)
    finally:
        db.close()
