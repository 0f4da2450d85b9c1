"""Fair ratings: kept with every change, equal to a replay from scratch, fair to evidence."""

import itertools
import json
import shutil

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.exchange import importer, jsonfile
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import deleted, game_model, games, players, ratings, summaries
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect, transaction

from ..helpers import examples
from .test_summaries import assert_in_step, dump


def kept(db):
    """Every rating and streak row, and every summary (the records and nights among them)."""
    return (
        [dump(db)]
        + [
            tuple(row)
            for row in db.execute(
                "SELECT player_id, game_id, played_at, mu, sigma, games, won, streak FROM player_ratings "
                "ORDER BY player_id, game_id"
            )
        ]
        + [
            tuple(row)
            for row in db.execute("SELECT * FROM pair_games ORDER BY player_id, partner_id, game_id")
        ]
    )


def rebuilt(db):
    """What a replay from scratch makes of the database as it is (nothing is kept)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        summaries.rebuild(db)
        return kept(db)
    finally:
        db.execute("ROLLBACK")


def play(db, teams, winner, *, day, rounds=1):
    """A finished game on ``day``; team ``winner`` melds more each round."""
    with transaction(db):
        game_id = games.insert_game(
            db, RULESETS["partnership"], "partnership", teams, created_at=f"{day}T19:30:00+00:00"
        )
    game = game_model.load_game(db, game_id)
    for number in range(1, rounds + 1):
        entries = [TeamRound(melded_points=400 if i == winner else 50) for i in range(len(teams))]
        game = games.add_round(db, game.id, game.revision, number, entries)
    return games.end_game(db, game.id, game.revision)


def day(n):
    return f"2026-{1 + n // 28:02d}-{1 + n % 28:02d}"


def test_one_lucky_win_ranks_below_forty_wins_of_eighty(db):
    for n in range(80):  # Ann wins every other game, against changing partners
        partner, rivals = ["Bo", "Cy", "Di"][n % 3], [["Eve", "Flo"], ["Gus", "Hal"], ["Eve", "Gus"]][n % 3]
        play(db, [("", ["Ann", partner]), ("", rivals)], n % 2, day=day(n))
    play(db, [("", ["Lucky", "Ivy"]), ("", ["Jack", "Kim"])], 0, day=day(80))
    board = ratings.board(db, 50)
    by_name = {row["name"]: row for row in board}
    assert by_name["Ann"]["games"] == 80 and by_name["Lucky"]["games"] == 1
    assert by_name["Ann"]["rank"] < by_name["Lucky"]["rank"]
    assert by_name["Ann"]["rating"] > by_name["Lucky"]["rating"]


def test_the_players_page_ranks_by_rating(client, db):
    for n in range(12):
        play(db, [("", ["Ann"]), ("", ["Bo"])], 0 if n % 3 else 1, day=day(n))
    play(db, [("", ["Lucky"]), ("", ["Cy"])], 0, day=day(13))
    page = client.get("/players").get_data(as_text=True)
    board = page[page.index("leaderboard") :]
    assert board.index("Ann") < board.index("Lucky")


def independent_ratings(export):
    """openskill run by hand over the exported games, in the order played: {(name, uid): mu, sigma}."""
    model = PlackettLuce()
    current, after = {}, {}
    finished = [g for g in export["games"] if g["finished_at"] and g["rounds"]]
    for game in sorted(finished, key=lambda g: g["created_at"]):
        totals = [sum(r["scores"][t] for r in game["rounds"]) for t in range(len(game["teams"]))]
        names = [team["players"] for team in game["teams"]]
        lineup = [[current.get(p, model.rating()) for p in team] for team in names]
        ranks = [1 + sum(o > t for o in totals) for t in totals]
        for team, new in zip(names, model.rate(lineup, ranks=ranks)):
            for p, r in zip(team, new):
                current[p] = model.rating(mu=r.mu, sigma=r.sigma)
                after[(p, game["uid"])] = (r.mu, r.sigma)
    return after


def by_name(db):
    return {
        (name, uid): (mu, sigma)
        for name, uid, mu, sigma in db.execute(
            """SELECT p.name, g.uid, r.mu, r.sigma FROM player_ratings r
               JOIN players p ON p.id = r.player_id JOIN games g ON g.id = r.game_id"""
        )
    }


@pytest.mark.long  # 60 demo games made, their ratings replayed against openskill's: 2 to 4 s
def test_ratings_equal_openskill_over_the_export_whatever_order_the_games_came_in(runner, db, tmp_path):
    assert runner.invoke(args=["demo-data", "--games", "60", "--seed", "5"]).exit_code == 0
    export = json.loads("".join(jsonfile.iter_history_json(db)))
    # demo games are not made in the order they were played: no two share a time
    assert len({g["created_at"] for g in export["games"]}) == len(export["games"])
    expected = independent_ratings(export)
    got = by_name(db)
    assert got.keys() == expected.keys() and len(expected) > 100
    assert all(got[key] == pytest.approx(expected[key], rel=1e-12) for key in expected)
    assert kept(db) == rebuilt(db)
    # the same games imported one at a time, newest first, into another database
    path = tmp_path / "other.db"
    migrate(path)
    other = connect(path)
    try:
        for game in reversed(export["games"]):
            importer.import_history(other, {**export, "games": [game]})
        assert by_name(other) == by_name(db)
        assert kept(other) == rebuilt(other)
    finally:
        other.close()


def test_the_leaderboard_trend_and_a_players_history(db):
    for n in range(8):
        play(db, [("", ["Ann"]), ("", ["Bo"])], 0, day=day(n))
    ann = players.find_player(db, "Ann").id
    history = ratings.history(db, ann)
    assert [h["games"] for h in history] == list(range(1, 9))
    assert all(a["ordinal"] < b["ordinal"] for a, b in itertools.pairwise(history))  # won every game
    row = next(r for r in ratings.board(db, 10) if r["id"] == ann)
    before = history[-1 - ratings.TREND_GAMES]["ordinal"]
    assert row["trend"] == pytest.approx(history[-1]["ordinal"] - before)
    assert ratings.history(db, ann, limit=3) == history[-3:]


def test_win_chances_favour_the_stronger_team(db):
    for n in range(10):
        play(db, [("", ["Ann"]), ("", ["Bo"])], 0, day=day(n))
    ann, bo = players.find_player(db, "Ann").id, players.find_player(db, "Bo").id
    chances = ratings.win_chances(db, [[ann], [bo]])
    assert chances[0] > 0.8 and sum(chances) == pytest.approx(1)
    newcomer = ratings.win_chances(db, [[ann], [999_999]])  # a new player is rated as a beginner
    assert newcomer[0] > 0.5
    assert ratings.win_chances(db, [[ann]]) is None


# (mu, sigma): any, and some with the same ordinal (mu - 3 sigma = 0), whose order openskill
# settles by the team's order as given
A_RATING = st.one_of(
    st.tuples(st.floats(0, 50), st.floats(0.5, 9)),
    st.sampled_from([(25.0, 25 / 3), (28.0, 28 / 3), (13.0, 13 / 3), (30.5, 2.0)]),
)


@settings(max_examples=examples(200))  # pure arithmetic, well under a millisecond an example
@given(rated=st.lists(A_RATING, min_size=2, max_size=12), data=st.data())
def test_the_seatings_chances_are_openskills_to_the_bit(rated, data):
    """An evening's seating weighs thousands of lineups with ``ratings.predictor``, which
    adds each team up once: the very numbers openskill's own ``predict_win`` gives, 2 to 6
    teams of 1 to 11 players."""
    model = PlackettLuce(mu=25.0, sigma=25 / 3)
    order = data.draw(st.permutations(range(len(rated))))
    most = min(5, len(rated) - 1)
    cuts = sorted(data.draw(st.sets(st.integers(1, len(rated) - 1), min_size=1, max_size=most)))
    teams = [list(order[a:b]) for a, b in zip([0, *cuts], [*cuts, len(rated)])]
    expected = model.predict_win(
        [[model.rating(mu=rated[p][0], sigma=rated[p][1]) for p in team] for team in teams]
    )
    chances = ratings.predictor(dict(enumerate(rated)))
    assert chances(teams) == expected
    assert chances(teams) == expected  # again, from the sums it kept


# --- any sequence of changes leaves what a replay from scratch makes ----------------------

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve"]


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    path = tmp_path_factory.mktemp("ratings") / "template.db"
    migrate(path)
    return path


steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("new"), st.integers(0, 20), st.permutations(NAMES), st.integers(1, 2), st.integers(0, 2)
        ),
        st.tuples(st.just("round"), st.integers(0, 9), st.integers(0, 1)),
        st.tuples(st.just("fix"), st.integers(0, 9), st.integers(0, 3), st.integers(0, 1)),
        st.tuples(st.just("delete"), st.integers(0, 9), st.integers(0, 3)),
        st.tuples(st.just("end"), st.integers(0, 9)),
        st.tuples(st.just("reopen"), st.integers(0, 9)),
        # its date corrected to another of the 20 days (issue 41): earlier or later
        st.tuples(st.just("date"), st.integers(0, 9), st.integers(0, 20)),
        # deleted, or restored if it was (issue 54)
        st.tuples(st.just("gone"), st.integers(0, 9)),
    ),
    max_size=14,
)


def entries(winner):
    return [TeamRound(melded_points=300 if t == winner else 100) for t in range(2)]


def change(db, made, step):
    """Make the change ``step`` (a game played on any of 20 days, so an old game can come in
    late; a round added, fixed or deleted, then ended again; a game ended or reopened; a
    game's date corrected, moving it before or after others; a game deleted, or restored)."""
    kind, *args = step
    if kind == "new":
        when, names, size, winner = args  # winner 2: left in progress
        teams = [("", names[:size]), ("", names[size : 2 * size])]
        with transaction(db):
            made.append(
                games.insert_game(
                    db, RULESETS["partnership"], "partnership", teams, created_at=f"{day(when)}T20:00"
                )
            )
        if winner < 2:
            game = games.add_round(db, made[-1], 0, 1, entries(winner))
            games.end_game(db, game.id, game.revision)
        return
    if not made:
        return
    game_id = made[args[0] % len(made)]
    game = game_model.load_game(db, game_id)
    if kind == "gone":
        if game is not None:
            deleted.delete_game(db, game.id, game.revision)
        else:
            (revision,) = db.execute("SELECT revision FROM games WHERE id = ?", [game_id]).fetchone()
            deleted.restore_game(db, game_id, revision)
        return
    if game is None:  # deleted: nothing else changes it
        return
    if kind in ("round", "fix", "delete") and game.finished_at:
        game = games.reopen_game(db, game.id, game.revision)
    if kind == "round":
        game = games.add_round(db, game.id, game.revision, len(game.rounds) + 1, entries(args[1]))
    elif kind == "fix" and game.rounds:
        played = game.rounds[args[1] % len(game.rounds)]
        game = games.update_round(db, game.id, game.revision, played.id, entries(args[2]))
    elif kind == "delete" and game.rounds:
        played = game.rounds[args[1] % len(game.rounds)]
        game = games.delete_round(db, game.id, game.revision, played.id)
    elif kind == "end" and not game.finished_at:
        game = games.end_game(db, game.id, game.revision)
    elif kind == "reopen" and game.finished_at:
        game = games.reopen_game(db, game.id, game.revision)
    elif kind == "date":
        game = games.change_played(db, game.id, game.revision, f"{day(args[1])}T21:00")
    if kind in ("round", "fix", "delete"):  # and finished again, as the table would
        games.end_game(db, game.id, game.revision)


def test_a_game_moved_later_replays_the_games_it_passed(template, tmp_path):
    """Ann beats Bo on day 1, Bo beats Ann on day 2; day 1's game then turns out to have
    been played on day 3: day 2's game is now their first, and its ratings are replayed
    from the earlier of the two dates, not from the new one."""
    path = tmp_path / "moved.db"
    shutil.copy(template, path)
    db = connect(path)
    try:
        made = []
        change(db, made, ("new", 1, ["Ann", "Bo", "Cy", "Di", "Eve"], 1, 0))
        change(db, made, ("new", 2, ["Bo", "Ann", "Cy", "Di", "Eve"], 1, 0))
        first_rows = kept(db)
        change(db, made, ("date", 0, 3))
        assert kept(db) != first_rows and kept(db) == rebuilt(db)
        bo = players.find_player(db, "Bo").id
        assert [h["game_id"] for h in ratings.history(db, bo)] == [made[1], made[0]]
    finally:
        db.close()


@settings(max_examples=examples(60))
@given(steps)
def test_ratings_after_any_sequence_of_changes_equal_a_replay_from_scratch(template, tmp_path_factory, steps):
    path = tmp_path_factory.mktemp("example") / "ratings.db"
    shutil.copy(template, path)
    db = connect(path)  # catches up at once after each change's commit
    try:
        made = []
        for step in steps:
            change(db, made, step)
            assert ratings.behind(db) is None
            assert kept(db) == rebuilt(db)
    finally:
        db.close()


new_games = st.tuples(
    st.just("new"), st.integers(0, 20), st.permutations(NAMES), st.integers(1, 2), st.integers(0, 2)
)
gone_or_back = st.tuples(st.just("gone"), st.integers(0, 9))


@settings(max_examples=examples(40))
@given(
    st.lists(new_games, min_size=2, max_size=6),
    st.lists(st.one_of(gone_or_back, gone_or_back, steps.filter(bool).map(lambda s: s[0])), max_size=8),
)
def test_games_deleted_and_restored_in_any_order_leave_what_a_replay_from_scratch_makes(
    template, tmp_path_factory, played, later
):
    """Issue 54: a few games played on any days, then deleted and restored (and changed
    between) in any order: the ratings, streaks and every summary equal a rebuild of the
    games not deleted, after each step."""
    path = tmp_path_factory.mktemp("example") / "deleted.db"
    shutil.copy(template, path)
    db = connect(path)
    try:
        made = []
        for step in played + later:
            change(db, made, step)
            assert ratings.behind(db) is None
            assert kept(db) == rebuilt(db)
            assert_in_step(db)
    finally:
        db.close()


def shown(db):
    """The rating and streak rows a page reads: those before the mark (every one without)."""
    mark = ratings.behind(db)
    return (
        [
            tuple(row)
            for row in db.execute(
                "SELECT player_id, game_id, played_at, mu, sigma, games, won, streak FROM player_ratings r "
                f"WHERE {ratings.up_to_date('r', mark)} ORDER BY player_id, game_id",
                ratings.mark_params(mark),
            )
        ],
        [
            tuple(row)
            for row in db.execute(
                f"SELECT * FROM pair_games s WHERE {ratings.up_to_date('s', mark)} "
                "ORDER BY player_id, partner_id, game_id",
                ratings.mark_params(mark),
            )
        ],
    )


def as_read(db, ratings_rows):
    """What the readers give for every player (rating, history, streaks), against what
    they should give from ``ratings_rows`` (a rebuild's rows before the mark)."""
    got, expected = {}, {}
    for (player,) in db.execute("SELECT id FROM players"):
        mine = sorted((r for r in ratings_rows if r[0] == player), key=lambda r: r[5])  # by games
        got[player] = (
            ratings.current(db, [player])[player],
            [(h["game_id"], h["mu"]) for h in ratings.history(db, player)],
            ratings.streaks(db, player),
        )
        expected[player] = (
            ratings.Rating(*mine[-1][3:6]) if mine else ratings.UNRATED,
            [(r[1], r[3]) for r in mine],
            (mine[-1][7] if mine else 0, max((r[7] for r in mine), default=0)),
        )
    board = {row["id"]: row["games"] for row in ratings.board(db, -1)}
    return (got, set(board)), (expected, {p for p, (_, seen, _) in expected.items() if seen})


def before(rows, mark, at):
    """The rows of games played before ``mark``; a row's (played_at, game_id) at ``at``."""
    return [row for row in rows if mark is None or (row[at[0]], row[at[1]]) < mark]


def interrupted(path):
    """A catch-up step cut off halfway, as by kill -9: a transaction that removed rows and
    never committed, its connection gone. Return a new connection, as after a start."""
    db = connect(path)
    db.catch_up_later = lambda: None
    db.conn.execute("BEGIN IMMEDIATE")
    db.conn.execute("DELETE FROM player_ratings WHERE rowid % 2 = 0")
    db.conn.execute("UPDATE ratings_behind SET game_id = game_id + 1")
    db.conn.close()
    fresh = connect(path)
    fresh.catch_up_later = lambda: None  # catching up is the example's to do
    return fresh


later_steps = st.lists(
    st.one_of(
        steps.filter(bool).map(lambda changes: ("change", changes[0])),
        st.tuples(st.just("catch up"), st.integers(1, 4)),
        st.just(("crash",)),
    ),
    max_size=16,
)


@settings(max_examples=examples(40))
@given(later_steps)
def test_changes_catch_ups_and_crashes_in_any_order_show_a_whole_state_and_end_as_a_rebuild(
    template, tmp_path_factory, later_steps
):
    """The app's way: the change only moves the mark back; catching up happens later, a few
    short transactions at a time (one chunk each: two games, three rows here), and may be cut off by a
    crash at any point. At every moment the rows a page reads are exactly a rebuild's rows
    of the games before the mark; once caught up, everything equals a rebuild."""
    path = tmp_path_factory.mktemp("example") / "ratings.db"
    shutil.copy(template, path)
    db = connect(path)
    db.catch_up_later = lambda: None  # the worker's part, done here by the steps
    small = {"CHUNK_GAMES": 2, "CHUNK_ROWS": 3}
    saved = {name: getattr(ratings, name) for name in small}
    try:
        for name, value in small.items():
            setattr(ratings, name, value)
        made = []
        for step in later_steps:
            if step[0] == "change":
                change(db, made, step[1])
            elif step[0] == "catch up":
                for _ in range(step[1]):
                    ratings.step(db, budget=0)  # one chunk each
            else:
                db.close()
                db = interrupted(path)
            whole, mark = rebuilt(db), ratings.behind(db)
            rated = ("player_ratings", "pair_games")
            summed = {table: rows for table, rows in whole[0].items() if table not in rated}
            assert {t: rows for t, rows in kept(db)[0].items() if t not in rated} == summed  # never behind
            ratings_rows = [row for row in whole[1:] if len(row) == 8]
            pair_rows = [row for row in whole[1:] if len(row) == 6]
            assert shown(db) == (before(ratings_rows, mark, (2, 1)), before(pair_rows, mark, (3, 2)))
            got, expected = as_read(db, before(ratings_rows, mark, (2, 1)))
            assert got == expected
            if mark is not None and len(before(ratings_rows, mark, (2, 1))) < len(ratings_rows):
                event("a page read the games before the mark while the rest were behind")
        ratings.catch_up(db, turns=lambda: None, sleep=lambda _: None)
        assert ratings.behind(db) is None
        assert kept(db) == rebuilt(db)
    finally:
        for name, value in saved.items():
            setattr(ratings, name, value)
        db.close()


def test_the_new_game_and_game_pages_show_each_teams_chance_to_win(client, db):
    import re

    from ..helpers import posted, text

    for n in range(10):
        play(db, [("", ["Ann"]), ("", ["Bo"])], 0, day=day(n))
    ann, bo = players.find_player(db, "Ann").id, players.find_player(db, "Bo").id
    expected = [f"{c:.0%}" for c in ratings.win_chances(db, [[ann], [bo]])]
    games_before = db["games"].count
    form = posted(client.get("/games/new?rules=partnership"))
    typed = {**form, "teams-0-players-0": "ann", "teams-1-players-0": "Bo"}
    page = text(client.post("/games/new", data={**typed, "action": "chances"}))
    shown = re.findall(r'<strong class="chance">([^<]+)</strong>', page)
    assert shown == expected and int(shown[0].rstrip("%")) > 80
    assert 'value="ann"' in page and db["games"].count == games_before  # typed kept, nothing started
    # a new name is a beginner: even against a beginner, one team alone is no prediction
    page = text(client.post("/games/new", data={**typed, "teams-1-players-0": "Zed", "action": "chances"}))
    assert len(re.findall(r'<strong class="chance">', page)) == 2
    alone = {**typed, "teams-1-players-0": "", "action": "chances"}
    assert "Type the players of two teams or more" in text(client.post("/games/new", data=alone))
    started = client.post("/games/new", data=typed)
    assert started.status_code in (302, 303)
    game_page = text(client.get(started.headers["Location"]))
    assert re.findall(r'<strong class="chance">([^<]+)</strong>', game_page) == expected
    game_id = int(re.search(r"/games/(\d+)", started.headers["Location"]).group(1))
    game = game_model.load_game(db, game_id)
    games.add_round(db, game.id, game.revision, 1, [TeamRound(melded_points=50), TeamRound()])
    assert "Chance to win" not in text(client.get(f"/games/{game_id}"))


def test_winning_streaks_of_players_and_partners(db):
    # Ann & Bo: won, won, won, lost, won, won; Ann with Cy in between (won)
    results = [("Bo", 0), ("Bo", 0), ("Cy", 0), ("Bo", 0), ("Bo", 1), ("Bo", 0), ("Bo", 0)]
    for n, (partner, winner) in enumerate(results):
        play(db, [("", ["Ann", partner]), ("", ["Di", "Eve"])], winner, day=day(n))
    ann, bo = players.find_player(db, "Ann").id, players.find_player(db, "Bo").id
    assert ratings.streaks(db, ann) == (2, 4)
    assert ratings.streaks(db, bo) == (2, 3)  # Bo sat out the game with Cy: it does not break his
    pair = db.execute(
        "SELECT MAX(streak) FROM pair_games WHERE player_id = ? AND partner_id = ?", sorted([ann, bo])
    ).fetchone()[0]
    assert pair == 3  # Ann & Bo: won, won, (Cy), won, lost, won, won
    assert ratings.streaks(db, 999_999) == (0, 0)
