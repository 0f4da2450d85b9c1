"""A deleted game appears nowhere (issue 54): every page and JSON twin, the exports and the
pictures of a family's history with a game deleted read exactly as those of the same
history where the game was never played, built in the same test from the same file; once
restored, they read as they did before it was deleted.

The deleted game is played in the middle of the history (its ratings replayed after it),
on one of the family's busiest evenings, by three of the family and a newcomer, under a
rule set no other game was played under (the history's filter offers it, the records
page has a part for it). A second one is tonight's evening's second game
(its sitting goes with it). Only what a page makes afresh for each phone is set aside:
its CSRF token and an export's time.
"""

import contextlib
import datetime
import hashlib
import re
import sqlite3

import pytest

from scorekeeper import create_app
from scorekeeper.exchange import demo
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import evening_tables, games, rulesets
from scorekeeper.services.evenings import evening
from scorekeeper.storage.db import connect

from ..httpkit import FlaskPhone, migrated

NOW = datetime.datetime(2026, 10, 1, 20, 0, tzinfo=datetime.UTC)


@contextlib.contextmanager
def opened(path):
    db = connect(path)
    try:
        yield db
    finally:
        db.close()


def pages(db, tonight):
    """Every page a family reads of this history, and its JSON twins, exports and pictures."""
    years = [row[0] for row in db.execute("SELECT DISTINCT substr(night, 1, 4) FROM nights ORDER BY 1")]
    players = [row[0] for row in db.execute("SELECT id FROM players ORDER BY id")]
    nights = [row[0] for row in db.execute("SELECT night FROM nights ORDER BY games DESC, night LIMIT 3")]
    rules = [row[0] for row in db.execute("SELECT DISTINCT rules_name FROM games ORDER BY 1")]
    return [
        "/",
        "/history",
        "/history?page=2",
        "/history?status=finished",
        *(f"/history?player={p}" for p in players[:4]),
        *(f"/history?rules={name}" for name in rules),
        "/players",
        "/players.json",
        *(f"/players/{p}" for p in players),
        *(f"/players/{p}.json" for p in players),
        "/records",
        "/records.json",
        *(f"/years/{year}" for year in years),
        *(f"/years/{year}.json" for year in years),
        *(f"/evenings/{night}" for night in [*nights, tonight]),
        *(f"/evenings/{night}.json" for night in [*nights, tonight]),
        f"/evenings/{tonight}/next",
        "/evenings/new",
        "/games/new",
        "/export.json",
        "/export.csv",
        # the pictures for the family chat: a player's year and the busiest evening
        f"/years/{years[-1]}/players/{players[2]}/picture.png",
        f"/evenings/{nights[0]}/picture.png",
    ]


def read(phone, paths):
    """{path: (status, what it shows)}: a picture by its bytes' digest; a page without its
    CSRF token (each phone its own) and an export without its time."""
    shown = {}
    for path in paths:
        resp = phone.get(path)
        assert resp.status in (200, 404), (path, resp.status, resp.error)
        if resp.headers.get("content-type", "").startswith("image/"):
            body = hashlib.sha256(resp.body).hexdigest()
        else:
            body = re.sub(r'(name="csrf_token"[^>]*value=")[^"]+"', r"\1", resp.text)
            body = re.sub(r'"exported_at": ?"[^"]+"', "", body)
        shown[path] = (resp.status, body)
    return shown


def differences(got, expected):
    """The paths whose pages differ, with the first line of each that does."""
    found = []
    for path in expected:
        if got[path] != expected[path]:
            lines = zip(got[path][1].splitlines(), expected[path][1].splitlines())
            first = next(((a, b) for a, b in lines if a != b), ("", ""))
            statuses = f"{got[path][0]} for {expected[path][0]}"
            found.append(f"{path} ({statuses}):\n  {first[0][:300]}\n  {first[1][:300]}")
    return "\n".join(found)


@pytest.mark.long  # a history of 120 games made, then some 60 pages read four times (about 6 s)
@pytest.mark.timeout(120)
def test_a_deleted_game_appears_nowhere_and_comes_back_whole(app, tmp_path):
    database = app.config["DATABASE"]
    tonight = evening_tables.tonight()
    with opened(database) as db:
        demo.generate(db, 120, seed=54, now=NOW, span=datetime.timedelta(days=120))
        # tonight's evening: its first game, at one table
        roth = rulesets.get_rule_set(db, "roth")
        evening_tables.start_sitting(db, tonight, roth, "rotate", [[["Ann", "Bo"], ["Cy", "Di"]]])
        with contextlib.closing(sqlite3.connect(migrated(tmp_path / "never.db"))) as never:
            db.conn.backup(never)  # the same history, where what comes next never happens
        busiest, played = db.execute(
            """SELECT n.night, MIN(g.played_at) FROM nights n JOIN games g ON g.night = n.night
               GROUP BY n.night ORDER BY n.games DESC, n.night LIMIT 1"""
        ).fetchone()
        # the game typed in by mistake, on the busiest evening, a second after its first game
        moment = datetime.datetime.fromisoformat(played) + datetime.timedelta(seconds=1)
        mistake = games.create_game(
            db,
            RULESETS["canasta"],  # the only game of its rule set: the history's filter offers it
            "canasta",
            [("", ["Ann", "Zed"]), ("", ["Bo", "Cy"])],
            played_at=moment.isoformat(timespec="seconds"),
        )
        assert mistake.night == busiest == evening(mistake.played_at)
        mistake = games.add_round(
            db, mistake.id, 0, 1, [TeamRound(melded_points=20_000), TeamRound(melded_points=5)]
        )
        mistake = games.end_game(db, mistake.id, mistake.revision)
        # and tonight's evening's second game, started by mistake
        evening_tables.start_sitting(db, tonight, roth, "rotate", [[["Ann", "Cy"], ["Bo", "Di"]]], seen=1)
        (table,) = evening_tables.load_evening(db, tonight).sittings[1]
        second = table.game

    phone = FlaskPhone(app)
    never_phone = FlaskPhone(create_app({"TESTING": True, "DATABASE": str(tmp_path / "never.db")}))
    with opened(tmp_path / "never.db") as db:
        paths = pages(db, tonight)
    with_them = read(phone, paths)
    assert differences(with_them, read(never_phone, paths))  # they show, before

    for game in (mistake, second):
        form, url = phone.open_form(f"/games/{game.id}/delete")
        assert phone.follow(phone.submit(form, url)).status == 200
    assert not differences(read(phone, paths), read(never_phone, paths))

    for _game in (mistake, second):  # each restored from the deleted games, the latest first
        form, url = phone.open_form("/games/deleted")
        assert phone.follow(phone.submit(form, url)).status == 200  # the game, restored
    after = read(phone, paths)
    # back whole: as before it was deleted, but for what says the evening changed since (its
    # version and ETag: every game's revision, added up) and when the games were last changed
    for shown in (after, with_them):
        for path, (status, body) in shown.items():
            body = re.sub(r'("version": ?"|data-etag=")[^"]+"', "", body)
            shown[path] = (status, re.sub(r'"updated_at": ?"[^"]+"', "", body))
    assert not differences(after, with_them)
