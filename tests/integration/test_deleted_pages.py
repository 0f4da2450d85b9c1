"""Deleting a game from a phone (issue 54), as a person does it: the button on its page, a
question that names it, Undo on the next page, the deleted games with Restore and the
household's log, a deleted game's own address, and the games gone for good as the app
opens, once 30 days have passed."""

import contextlib
import re
import sqlite3

from scorekeeper import create_app
from scorekeeper.exchange import backup
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import deleted, games
from scorekeeper.storage.db import connect

from ..helpers import on_the_clock
from ..httpkit import FlaskPhone, parse_forms, post_form, query_db


def a_game(db, *, day="2026-01-05"):
    """Ann & Bo against Cy & Di, two rounds, ended, played at noon on ``day`` on the
    household's clock (that day in every zone)."""
    game = games.create_game(
        db,
        RULESETS["partnership"],
        "partnership",
        [("", ["Ann", "Bo"]), ("", ["Cy", "Di"])],
        played_at=on_the_clock(day),
    )
    for number, melded in enumerate(([1200, 300], [360, 990]), start=1):
        rows = [TeamRound(melded_points=m) for m in melded]
        game = games.add_round(db, game.id, game.revision, number, rows)
    return games.end_game(db, game.id, game.revision)


def words(resp):
    """What the page's main part says, tags gone (an inline one joins its neighbours),
    spaces squeezed."""
    main = resp.text.split("<main", 1)[1].split("</main>", 1)[0].split(">", 1)[1]
    main = re.sub(r"</?(?:span|a|strong|em|b)\b[^>]*>", "", main)
    return " ".join(re.sub(r"<[^>]+>", " ", main).replace("&amp;", "&").split())


def listed(phone):
    return re.search(r"(\d+) games?\b", words(phone.get("/history")))[1]


def test_asked_naming_the_game_deleted_then_undone_with_one_tap(app, db):
    game = a_game(db)
    phone = FlaskPhone(app)
    page = phone.get(f"/games/{game.id}")
    assert f'href="/games/{game.id}/delete">Delete this game</a>' in page.text
    asked = phone.get(f"/games/{game.id}/delete")
    assert asked.status == 200
    assert (
        "Delete this game? Ann & Bo vs Cy & Di Partnership rules (22-card cut) · played 2026-01-05 · 2 rounds"
        " · Ann & Bo won Ann & Bo: 1,560 Cy & Di: 1,290"
    ) in words(asked)
    assert "restore it from Deleted games (under History) for 30 days; then it is gone for good" in words(
        asked
    )

    form, url = phone.open_form(f"/games/{game.id}/delete")
    answer = phone.submit(form, url)
    assert (answer.status, answer.location) == (303, "/history")
    history = phone.follow(answer)
    assert history.flashes() == [("success", "Game deleted: Ann & Bo vs Cy & Di, played 2026-01-05.")]
    assert "0 games" in words(history)
    undo = post_form(history.text, f"/games/{game.id}/restore")
    assert undo is not None and "Undo: restore the game" in history.text
    assert post_form(phone.get("/history").text, "/restore") is None  # offered once, right after

    back = phone.submit(undo, "/history")
    assert (back.status, back.location) == (303, f"/games/{game.id}")
    shown = phone.follow(back)
    assert shown.status == 200
    assert shown.flashes() == [("success", "Game restored: Ann & Bo vs Cy & Di, played 2026-01-05.")]
    assert listed(phone) == "1"
    changes = re.findall(r"</time> ([^<]+)</li>", shown.text)
    assert changes[:2] == ["Game restored.", "Game deleted."]


def test_restored_from_the_deleted_games_with_the_households_log(app, db):
    game, other = a_game(db), a_game(db, day="2026-01-06")
    phone = FlaskPhone(app)
    for each in (game, other):
        form, url = phone.open_form(f"/games/{each.id}/delete")
        assert phone.follow(phone.submit(form, url)).status == 200  # History, with Undo
    assert '<a class="inline-tap" href="/games/deleted">Deleted games</a>' in phone.get("/history").text
    page = phone.get("/games/deleted")
    said = words(page)
    assert said.startswith("Deleted games A deleted game counts nowhere.")
    assert (
        "Ann & Bo vs Cy & Di 2026-01-06 · Partnership rules (22-card cut) · 2 rounds · Ann & Bo won" in said
    )
    assert said.count("can be restored until") == 2 and said.count("Restore") == 2
    restores = [f for f in parse_forms(page.text) if f.method == "post" and "/restore" in (f.action or "")]
    assert [f.action for f in restores] == [f"/games/{other.id}/restore", f"/games/{game.id}/restore"]

    answer = phone.submit(restores[1], "/games/deleted")
    assert (answer.status, answer.location) == (303, f"/games/{game.id}")
    log = words(phone.get("/games/deleted"))
    assert re.findall(r"\(played (2026-01-0\d)\): (Game \w+\.)", log) == [
        ("2026-01-05", "Game restored."),
        ("2026-01-06", "Game deleted."),
        ("2026-01-05", "Game deleted."),
    ]
    # the same Restore pressed again, from another phone's copy of the list
    again = phone.submit(restores[1], "/games/deleted")
    assert again.location == f"/games/{game.id}"
    assert phone.follow(again).flashes()[0] == (
        "error",
        "This game is back already: it was restored on another phone, perhaps.",
    )


def test_a_deleted_games_address_says_so_and_nothing_sent_to_it_is_saved(app, db):
    game = a_game(db)
    token = game.share_token
    phone, other = FlaskPhone(app), FlaskPhone(app)
    reopen, url = other.open_form(f"/games/{game.id}", "/reopen")  # open on another phone
    assert other.get(f"/s/{token}").status == 200
    form, asked = phone.open_form(f"/games/{game.id}/delete")
    assert phone.submit(form, asked).status == 303

    for path in (f"/games/{game.id}", f"/games/{game.id}/rounds/1/edit", f"/games/{game.id}/end"):
        gone = other.get(path)
        assert gone.status == 404, path
        assert words(gone).startswith(
            "This game was deleted Ann & Bo vs Cy & Di Partnership rules (22-card cut) · "
            "played 2026-01-05 Deleted"
        ), path
    refused = other.submit(reopen, url)
    assert refused.status == 404
    assert "Nothing was saved: the game was deleted, on another phone perhaps." in words(refused)
    assert query_db(app.config["DATABASE"], "SELECT finished_at IS NOT NULL FROM games") == [(1,)]
    for path in (
        f"/games/{game.id}.json",
        f"/games/{game.id}/export.json",
        f"/s/{token}",
        f"/games/{game.id}/sheet",
    ):
        assert other.get(path).status == 404, path
    assert "There is no game 99." in words(other.get("/games/99"))

    # Restore on the deleted game's own page: the share link works again, the same one
    back = other.submit(post_form(other.get(f"/games/{game.id}").text, "/restore"), f"/games/{game.id}")
    assert back.location == f"/games/{game.id}" and other.get(f"/s/{token}").status == 200


def deleted_long_ago(path, when):
    """A database whose game was deleted at ``when`` (a stored UTC time)."""
    db = connect(path)
    try:
        game = a_game(db)
        deleted.delete_game(db, game.id, game.revision)
        db.execute("UPDATE games SET deleted_at = ?", [when])
    finally:
        db.close()


def test_gone_for_good_as_the_app_opens_once_30_days_have_passed(app, tmp_path):
    database = app.config["DATABASE"]
    deleted_long_ago(database, "2026-01-01T00:00:00+00:00")
    fresh = create_app({"TESTING": True, "DATABASE": database})  # the app started again
    assert FlaskPhone(fresh).get("/").status == 200
    assert query_db(database, "SELECT COUNT(*) FROM games") == [(0,)]
    assert query_db(database, "SELECT COUNT(*) FROM players") == [(0,)]


def test_the_upkeep_worker_removes_them_in_the_background(app):
    database = app.config["DATABASE"]
    deleted_long_ago(database, "2026-01-01T00:00:00+00:00")
    served = create_app({"TESTING": True, "DATABASE": database, "PURGE_IN_BACKGROUND": True})
    assert FlaskPhone(served).get("/").status == 200
    assert deleted.for_app(served).wait(30)
    assert query_db(database, "SELECT COUNT(*) FROM games") == [(0,)]
    deleted.for_app(served).worker.stop()


def test_a_game_deleted_lately_stays_restorable(app):
    database = app.config["DATABASE"]
    db = connect(database)
    try:
        game = a_game(db)
        deleted.delete_game(db, game.id, game.revision)
    finally:
        db.close()
    fresh = create_app({"TESTING": True, "DATABASE": database})
    assert FlaskPhone(fresh).get("/").status == 200
    assert query_db(database, "SELECT COUNT(*) FROM games WHERE deleted_at IS NOT NULL") == [(1,)]


def test_init_db_removes_them_too_and_the_backups_count_what_the_history_counts(app, runner, tmp_path):
    database = app.config["DATABASE"]
    db = connect(database)
    try:
        kept = a_game(db)
        gone = a_game(db)
        deleted.delete_game(db, gone.id, gone.revision)
    finally:
        db.close()
    # a copy holds what it held: the deleted game too, and counts as the history does
    assert runner.invoke(args=["backup", str(tmp_path / "copy.db")]).exit_code == 0
    assert backup.count_games(tmp_path / "copy.db") == 1
    assert query_db(tmp_path / "copy.db", "SELECT COUNT(*) FROM games") == [(2,)]
    # a month later, `make run` starts with init-db: gone for good, and recompute-scores
    # leaves the summaries as they are
    with contextlib.closing(sqlite3.connect(database)) as conn, conn:
        conn.execute("UPDATE games SET deleted_at = '2026-01-01T00:00:00+00:00' WHERE deleted_at IS NOT NULL")
    assert runner.invoke(args=["init-db"]).exit_code == 0
    assert query_db(database, "SELECT id FROM games") == [(kept.id,)]
    assert runner.invoke(args=["recompute-scores"]).exit_code == 0
    assert backup.count_games(database) == 1


def test_a_backup_made_before_games_could_be_deleted_still_counts(tmp_path):
    """A copy made by an older app has no ``deleted_at``: every game in it counts."""
    old = tmp_path / "old.db"
    with contextlib.closing(sqlite3.connect(old)) as conn, conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        conn.executemany("INSERT INTO games (id) VALUES (?)", [(1,), (2,), (3,)])
    assert backup.count_games(old) == 3
