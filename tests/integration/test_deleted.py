"""A game deleted by mistake, and back (issue 54): what the delete takes out of every
summary, rating, record, night and year, what Undo and Restore put back, the changes
refused on both sides, the household's log, and the games gone for good after 30 days.

Every comparison is against a history where the game was never played, copied from the
same file just before it was (SQLite's backup API), or against the summaries as they
stood before the delete.
"""

import contextlib
import dataclasses
import datetime
import sqlite3

import pytest

from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import (
    Conflict,
    NotFound,
    deleted,
    evening_tables,
    game_model,
    games,
    players,
    rulesets,
)
from scorekeeper.storage.db import connect

from ..helpers import on_the_clock
from .test_summaries import assert_in_step, dump

UTC = datetime.UTC
FAMILY = (("", ["Ann", "Bo"]), ("", ["Cy", "Di"]))


def play(db, teams, melded, *, day, hour=20):
    """A game played on ``day`` (``YYYY-MM-DD``) at ``hour`` on the household's clock, that
    day's night in every zone, and ended: one round, each team melding ``melded`` (the
    highest wins)."""
    game = games.create_game(
        db, RULESETS["partnership"], "partnership", list(teams), played_at=on_the_clock(day, hour)
    )
    game = games.add_round(db, game.id, game.revision, 1, [TeamRound(melded_points=m) for m in melded])
    return games.end_game(db, game.id, game.revision)


def copy(db, path):
    """The database as it is now, in another file (the history where what comes next never happened)."""
    with contextlib.closing(sqlite3.connect(path)) as target:
        db.conn.backup(target)
    return connect(path)


def a_history(db):
    """Five games over a week, each a different night; the highest total is 900 (the record)."""
    play(db, FAMILY, [300, 100], day="2026-03-02")
    play(db, [("", ["Ann", "Cy"]), ("", ["Bo", "Di"])], [200, 400], day="2026-03-03")
    play(db, FAMILY, [900, 150], day="2026-03-05")
    play(db, [("", ["Ann", "Di"]), ("", ["Bo", "Cy"])], [250, 350], day="2026-03-06")
    play(db, FAMILY, [500, 50], day="2026-03-08")


@pytest.fixture
def never(db, tmp_path):
    """(the app's database with a history, a copy of it where the next game is never played)."""
    a_history(db)
    other = copy(db, tmp_path / "never.db")
    yield other
    other.close()


def the_mistake(db):
    """A game typed in by mistake, played in the middle of the history, on a night of its own,
    with a newcomer, Zed, and the history's highest total (so a record) and a win that moves
    every rating after it."""
    return play(db, [("", ["Ann", "Zed"]), ("", ["Bo", "Cy"])], [1500, 100], day="2026-03-04")


def test_a_deleted_game_counts_nowhere_and_comes_back_whole(db, never):
    game = the_mistake(db)
    with_it = assert_in_step(db)
    assert with_it != dump(never)
    assert [r["high_total"] for r in with_it["game_records"] if r["game_id"] == game.id] == [1500]

    gone = deleted.delete_game(db, game.id, game.revision)
    assert gone.deleted_at is not None and gone.revision == game.revision + 1
    # every summary, rating, streak, record, night and year as if it had never been played
    assert assert_in_step(db) == dump(never)
    assert game_model.load_game(db, game.id) is None
    assert [p.name for p in players.list_players(db)] == ["Ann", "Bo", "Cy", "Di"]

    back = deleted.restore_game(db, game.id, gone.revision)
    assert assert_in_step(db) == with_it
    # whole: its teams, players, rounds, result, night and share link, as before
    assert dataclasses.replace(back, revision=game.revision, updated_at=game.updated_at) == game
    assert back.share_token == game.share_token and back.night == "2026-03-04"
    assert [p.name for p in players.list_players(db)] == ["Ann", "Bo", "Cy", "Di", "Zed"]
    assert [(c.action, c.summary) for c in game_model.load_game(db, game.id, changes=True).changes[:2]] == [
        ("game-restored", "Game restored."),
        ("game-deleted", "Game deleted."),
    ]


def test_a_game_in_progress_deleted_leaves_the_counts_and_comes_back(db, never):
    game = games.create_game(db, RULESETS["roth"], "roth", [("", ["Ann"]), ("", ["Zed"])])
    game = games.add_round(db, game.id, game.revision, 1, [TeamRound(melded_points=90), TeamRound()])
    with_it = assert_in_step(db)
    gone = deleted.delete_game(db, game.id, game.revision)
    assert assert_in_step(db) == dump(never)
    deleted.restore_game(db, game.id, gone.revision)
    assert assert_in_step(db) == with_it


def test_a_stale_delete_and_any_change_to_a_deleted_game_are_refused(db):
    a_history(db)
    game = the_mistake(db)
    reopened = games.reopen_game(db, game.id, game.revision)  # on another phone, meanwhile
    kept = assert_in_step(db)
    with pytest.raises(Conflict, match="changed this game on another phone"):
        deleted.delete_game(db, game.id, game.revision)  # the page showed the game before
    assert dump(db) == kept and game_model.load_game(db, game.id) is not None

    gone = deleted.delete_game(db, reopened.id, reopened.revision)
    kept = assert_in_step(db)
    told = "This game was deleted on another phone, so nothing was saved."
    for change in (
        lambda: games.add_round(db, game.id, reopened.revision, 2, [TeamRound(), TeamRound()]),
        lambda: games.end_game(db, game.id, reopened.revision),
        lambda: games.update_round(db, game.id, reopened.revision, game.rounds[0].id, [TeamRound()] * 2),
        lambda: games.change_played(db, game.id, reopened.revision, "2026-03-01T20:00:00+00:00"),
        lambda: games.stop_sharing(db, game.id, reopened.revision),
        lambda: deleted.delete_game(db, game.id, reopened.revision),  # a second phone's delete
        lambda: games.add_round(db, game.id, gone.revision, 2, [TeamRound(), TeamRound()], loaded=reopened),
    ):
        with pytest.raises(Conflict, match=told):
            change()
        assert dump(db) == kept
    with pytest.raises(Conflict, match="changed on another phone"):
        deleted.restore_game(db, game.id, reopened.revision)  # a page from before the delete
    deleted.restore_game(db, game.id, gone.revision)
    with pytest.raises(Conflict, match="back already"):
        deleted.restore_game(db, game.id, gone.revision)  # Undo, and the list, on two phones
    # back as it was deleted: reopened, so counting nowhere yet
    assert game_model.load_game(db, game.id).is_open and not assert_in_step(db)["game_records"][5:]


def test_gone_for_good_thirty_days_after_it_was_deleted(db, never):
    game = the_mistake(db)
    gone = deleted.delete_game(db, game.id, game.revision)
    db.execute("UPDATE games SET deleted_at = '2026-03-10T21:00:00+00:00' WHERE id = ?", [game.id])
    assert deleted.purge(db, datetime.datetime(2026, 4, 9, 20, 59, 59, tzinfo=UTC)) == 0
    assert deleted.deleted_games(db)[1] == 1
    assert deleted.due_in(db, datetime.datetime(2026, 4, 9, 20, 59, 59, tzinfo=UTC)) == 1.0
    # 30 days to the second, whatever zone the computer is in (the times are UTC)
    assert deleted.purge(db, datetime.datetime(2026, 4, 9, 21, 0, 0, tzinfo=UTC)) == 1
    assert deleted.deleted_games(db) == ([], 0) and deleted.due_in(db) is None
    for table in ("games", "teams", "rounds", "revisions", "player_games", "player_ratings", "game_records"):
        column = "id" if table == "games" else "game_id"
        assert db.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", [game.id]).fetchone() == (0,)
    # Zed sat at that game alone: gone with it; the family stays
    names = [name for (name,) in db.execute("SELECT name FROM players ORDER BY id")]
    assert names == ["Ann", "Bo", "Cy", "Di"]
    assert assert_in_step(db) == dump(never)
    with pytest.raises(NotFound, match="gone for good"):
        deleted.restore_game(db, game.id, gone.revision)


def test_an_evenings_table_deleted_leaves_the_evening_and_comes_back_to_its_seat(db):
    night = evening_tables.tonight()
    roth = rulesets.get_rule_set(db, "roth")
    evening_tables.start_sitting(db, night, roth, "rotate", [[["Ann"], ["Bo"]], [["Cy"], ["Di"]]])
    first, second = evening_tables.load_evening(db, night).sittings[0]
    gone = deleted.delete_game(db, second.game.id, second.game.revision)
    assert [t.game.id for s in evening_tables.load_evening(db, night).sittings for t in s] == [first.game.id]
    assert deleted.evening_seat(db, second.game.id) is None
    deleted.restore_game(db, second.game.id, gone.revision)
    seated = [(t.number, t.game.id) for t in evening_tables.load_evening(db, night).sittings[0]]
    assert seated == [(1, first.game.id), (2, second.game.id)]

    # the evening's second game, deleted whole: the evening is one game again, and the next
    # game started takes its number; the deleted one then comes back on the night on its own
    evening_tables.start_sitting(db, night, roth, "rotate", [[["Ann"], ["Cy"]]], seen=1)
    (later,) = evening_tables.load_evening(db, night).sittings[1]
    gone = deleted.delete_game(db, later.game.id, later.game.revision)
    assert len(evening_tables.load_evening(db, night).sittings) == 1
    evening_tables.start_sitting(db, night, roth, "rotate", [[["Bo"], ["Di"]]], seen=1)
    back = deleted.restore_game(db, later.game.id, gone.revision)
    evening = evening_tables.load_evening(db, night)
    assert [len(s) for s in evening.sittings] == [2, 1] and [g.id for g in evening.loose] == [back.id]
    assert game_model.load_game(db, back.id, changes=True).changes[0].summary == (
        "Game restored, as a game of its night on its own: "
        "its table at the evening was taken by a later game."
    )


def test_an_evening_whose_every_game_was_deleted_is_no_evening(db):
    night = evening_tables.tonight()
    evening_tables.start_sitting(db, night, rulesets.get_rule_set(db, "roth"), "rotate", [[["Ann"], ["Bo"]]])
    (table,) = evening_tables.load_evening(db, night).sittings[0]
    deleted.delete_game(db, table.game.id, table.game.revision)
    assert evening_tables.load_evening(db, night) is None


def test_the_household_log_says_every_deletion_and_restoration_newest_first(db):
    a_history(db)
    one, two = the_mistake(db), play(db, FAMILY, [10, 20], day="2026-03-09")
    gone = deleted.delete_game(db, one.id, one.revision)
    deleted.restore_game(db, one.id, gone.revision)
    deleted.delete_game(db, two.id, two.revision)
    logged = [
        (line.game.id, line.change.action, line.said, line.deleted) for line in deleted.household_log(db)
    ]
    assert logged == [
        (two.id, "game-deleted", "Game deleted.", True),
        (one.id, "game-restored", "Game restored.", False),
        (one.id, "game-deleted", "Game deleted.", True),
    ]
    listed, count = deleted.deleted_games(db)
    assert [item.game.id for item in listed] == [two.id] and count == 1
    assert listed[0].gone_at == deleted.gone_at(listed[0].game.deleted_at)
    assert deleted.gone_at("2026-03-10T21:00:00+00:00") == "2026-04-09T21:00:00+00:00"
