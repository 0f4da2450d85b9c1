"""Players' statistics against numbers worked out by hand, their pages, and demo-data."""

import datetime
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scorekeeper.scoring import RULESETS, TeamRound, check_round, score_team_round
from scorekeeper.services import game_model, games, players, ratings, stats, years

from ..helpers import text

PARTNERSHIP = RULESETS["partnership"]  # clean 500, dirty 300, out 100, red 3 −100, black 3 −5; ends by hand


def play(db, teams, rounds, *, end=True):
    """A partnership game with these rounds, ended by hand unless ``end`` is false."""
    game = games.create_game(db, PARTNERSHIP, "partnership", [("", names) for names in teams])
    for number, entries in enumerate(rounds, start=1):
        game = games.add_round(db, game.id, game.revision, number, [TeamRound(**e) for e in entries])
    if end:
        games.end_game(db, game.id, game.revision)
    return game.id


@pytest.fixture
def history(db):
    """Six games; each team's round score is worked out beside it (partnership rules).

    G1 Ann & Bo 720 vs Cy & Di 1,390          → Cy & Di win
    G2 Ann & Cy 1,300 vs Bo & Di 40           → Ann & Cy win
    G3 Ann & Bo 400 vs Eve 400                → a tie: both win
    G4 Ann & Bo 950 vs Cy 60 vs Di & Eve 535  → Ann & Bo win
    G5 Ann & Bo 2,100 vs Cy & Di 0, not ended → counts nowhere
    G6 Ann & Di vs Bo & Eve, ended, no rounds → no winner: counts nowhere
    """
    ids = [
        play(
            db,
            [["Ann", "Bo"], ["Cy", "Di"]],
            [
                # 500 clean + 100 melded + 100 out = 700 | 300 dirty + 60 − 20 = 340
                [
                    dict(books={"clean": 1}, melded_points=100, went_out=True),
                    dict(books={"dirty": 1}, melded_points=60, unplayed_points=20),
                ],
                # 50 − 30 = 20 | 500 + 300 + 150 + 100 out = 1,050
                [
                    dict(melded_points=50, unplayed_points=30),
                    dict(books={"clean": 1, "dirty": 1}, melded_points=150, went_out=True),
                ],
            ],
        ),
        play(
            db,
            [["Ann", "Cy"], ["Bo", "Di"]],
            [
                # 1,000 + 200 + 100 out = 1,300 | 40
                [dict(books={"clean": 2}, melded_points=200, went_out=True), dict(melded_points=40)]
            ],
        ),
        play(
            db,
            [["Ann", "Bo"], ["Eve"]],
            [
                # 300 + 100 = 400 | 300 + 100 = 400: nobody out
                [dict(books={"dirty": 1}, melded_points=100), dict(books={"dirty": 1}, melded_points=100)]
            ],
        ),
        play(
            db,
            [["Ann", "Bo"], ["Cy"], ["Di", "Eve"]],
            [
                # 500 + 300 + 150 + 100 out − 100 red 3 = 950 | 80 − 15 − 5 black 3 = 60 | 500 + 75 − 40 = 535
                [
                    dict(books={"clean": 1, "dirty": 1}, melded_points=150, went_out=True, red_threes=1),
                    dict(melded_points=80, unplayed_points=15, black_threes=1),
                    dict(books={"clean": 1, "dirty": 0}, melded_points=75, unplayed_points=40),
                ]
            ],
        ),
        play(
            db,
            [["Ann", "Bo"], ["Cy", "Di"]],
            [
                # 1,500 + 500 + 100 = 2,100 would be Ann's best round, but the game is not over
                [dict(books={"clean": 3}, melded_points=500, went_out=True), dict()]
            ],
            end=False,
        ),
        play(db, [["Ann", "Di"], ["Bo", "Eve"]], []),
    ]
    return ids, {name: players.find_player(db, name).id for name in ("Ann", "Bo", "Cy", "Di", "Eve")}


def test_the_history_is_what_the_engine_says(db, history):
    ids, _ = history
    totals = [game_model.load_game(db, game_id).standings.totals for game_id in ids]
    assert totals == [[720, 1390], [1300, 40], [400, 400], [950, 60, 535], [2100, 0], [0, 0]]
    assert [game_model.load_game(db, game_id).finished_at is not None for game_id in ids] == [
        True,
        True,
        True,
        True,
        False,
        True,
    ]


def test_player_stats_by_hand(db, history):
    _, player = history
    ann = stats.player_record(db, player["Ann"]).stats
    # G1 lost, G2 won, G3 tied (a win), G4 won; G5 unfinished and G6 roundless don't count
    assert (ann.games, ann.wins, ann.losses, ann.win_rate) == (4, 3, 1, 0.75)
    # rounds 700, 20 (G1), 1,300 (G2), 400 (G3), 950 (G4): 3,370 / 5 = 674
    assert (ann.rounds, ann.average_round, ann.best_round) == (5, 674, 1300)
    # clean 1 (G1) + 2 (G2) + 1 (G4) = 4; dirty 1 (G3) + 1 (G4) = 2
    assert ann.books == {"clean": 4, "dirty": 2}
    assert list(ann.books) == ["clean", "dirty"]  # most books first
    # out in G1 round 1, G2 and G4
    assert ann.went_out == 3

    cy = stats.player_record(db, player["Cy"]).stats
    # G1 won, G2 won, G4 lost; rounds 340 + 1,050 + 1,300 + 60 = 2,750 / 4 = 687.5
    assert (cy.games, cy.wins, cy.rounds, cy.average_round, cy.best_round) == (3, 2, 4, 687.5, 1300)
    # clean 1 (G1 r2) + 2 (G2); dirty 1 (G1 r1) + 1 (G1 r2); out G1 r2 and G2
    assert (cy.books, cy.went_out) == ({"clean": 3, "dirty": 2}, 2)

    eve = stats.player_record(db, player["Eve"]).stats
    # G3 tie (win), G4 lost; rounds 400, 535; books dirty 1 (G3), clean 1 (G4)
    assert (eve.games, eve.wins, eve.average_round, eve.best_round) == (2, 1, 467.5, 535)
    assert (eve.books, eve.went_out) == ({"clean": 1, "dirty": 1}, 0)


def test_a_player_with_no_finished_games(db):
    play(db, [["Zed"], ["Yan"]], [[dict(melded_points=50), dict()]], end=False)
    zed = stats.player_record(db, players.find_player(db, "Zed").id).stats
    assert zed == stats.PlayerStats(
        games=0, wins=0, win_rate=None, rounds=0, average_round=None, best_round=None, books={}, went_out=0
    )
    assert stats.leaderboard(db) == []


def test_best_partner_is_the_surest_share_won(db, history):
    _, player = history
    # Ann with Bo: G1 lost, G3 won, G4 won = 2 of 3; with Cy: G2 won, 1 of 1: the higher
    # rate, but on one game, and the sure share of 2 in 3 is the higher (0.11 to 0.10)
    assert stats.player_record(db, player["Ann"]).best_partner == {
        "id": player["Bo"],
        "name": "Bo",
        "games": 3,
        "wins": 2,
        "win_rate": 2 / 3,
    }
    assert [p["name"] for p in stats.partnerships(db, player["Ann"])] == ["Bo", "Cy"]
    # Eve partnered only Di, once (G4), and lost: no best partner
    assert stats.player_record(db, player["Eve"]).best_partner is None
    # Di with Cy: G1 won (1 game); with Bo: G2 lost; with Eve: G4 lost
    assert stats.player_record(db, player["Di"]).best_partner["name"] == "Cy"


@pytest.mark.parametrize(
    "few, many",
    [((4, 4), (30, 50)), ((1, 1), (2, 3)), ((3, 3), (11, 17)), ((2, 2), (6, 10))],
)
def test_a_short_lucky_run_ranks_below_a_long_good_one(few, many):
    """4 of 4 below 30 of 50, whatever share the few have: the rule of every "best" list."""
    assert ratings.sure_share(*few) < ratings.sure_share(*many)
    assert ratings.sure_share(*few) <= few[0] / few[1]


@given(st.integers(0, 500), st.integers(1, 500))
@example(wins=0, games=17)  # rounding once put the bound a hair above 0 wins (make test-deep)
def test_a_sure_share_is_a_share_below_the_rate_and_rises_with_games(wins, games):
    wins = min(wins, games)
    sure = ratings.sure_share(wins, games)
    assert 0 <= sure <= wins / games
    # the same rate over twice the games is surer
    assert ratings.sure_share(2 * wins, 2 * games) >= sure


def test_head_to_head_by_hand(db, history):
    _, player = history
    rows = {
        row["name"]: (row["games"], row["wins"], row["losses"], row["ties"])
        for row in stats.player_record(db, player["Ann"]).head_to_head
    }
    assert rows == {
        "Di": (3, 2, 1, 0),  # G1 720 < 1,390; G2 1,300 > 40; G4 950 > 535
        "Cy": (2, 1, 1, 0),  # G1 lost; G4 950 > 60
        "Eve": (2, 1, 0, 1),  # G3 400 = 400; G4 950 > 535
        "Bo": (1, 1, 0, 0),  # G2 1,300 > 40
    }
    # the surest share won first (2 of 3: 0.11, 1 of 1: 0.10, 1 of 2: 0.05), then more
    # games, then name: 1 of 1 ranks above 1 of 2, and below 2 of 3
    assert [row["name"] for row in stats.player_record(db, player["Ann"]).head_to_head] == [
        "Di",
        "Bo",
        "Cy",
        "Eve",
    ]
    assert [row["name"] for row in stats.player_record(db, player["Ann"], rivals=2).head_to_head] == [
        "Di",
        "Bo",
    ]


def test_leaderboard_by_hand(db, history):
    _, _player = history
    board = stats.leaderboard(db)
    # the figures by hand: Ann 3/4, Cy 2/3, Bo 2/4, Eve 1/2, Di 1/3
    assert {row["name"]: (row["wins"], row["games"]) for row in board} == {
        "Ann": (3, 4),
        "Cy": (2, 3),
        "Bo": (2, 4),
        "Eve": (1, 2),
        "Di": (1, 3),
    }
    # ranked by each one's conservative rating now, highest first
    now = ratings.current(db, [row["id"] for row in board])
    assert [row["rating"] for row in board] == sorted((r.ordinal for r in now.values()), reverse=True)
    assert [row["rank"] for row in board] == [1, 2, 3, 4, 5]
    assert all(row["rating"] == pytest.approx(row["mu"] - 3 * row["sigma"]) for row in board)
    assert len(stats.leaderboard(db, limit=2)) == 2


def test_leaderboard_ranks_level_players_together(db):
    play(db, [["Ann"], ["Bo"]], [[dict(melded_points=50), dict(melded_points=50)]])  # a tie
    assert [(r["rank"], r["name"]) for r in stats.leaderboard(db)] == [(1, "Ann"), (1, "Bo")]


def test_timeline_and_recent_games(db, history):
    ids, player = history
    timeline = stats.timeline(db, player["Ann"])
    assert [(g["game_id"], g["total"], g["best"], g["won"]) for g in timeline] == [
        (ids[0], 720, 1390, False),
        (ids[1], 1300, 1300, True),
        (ids[2], 400, 400, True),
        (ids[3], 950, 950, True),
    ]
    assert [g["game_id"] for g in stats.timeline(db, player["Ann"], limit=2)] == ids[2:4]
    recent = stats.recent_games(db, player["Ann"])
    assert [(g["game_id"], g["total"], g["result"]) for g in recent] == [
        (ids[5], None, None),
        (ids[4], 2100, None),
        (ids[3], 950, "won"),
        (ids[2], 400, "won"),
        (ids[1], 1300, "won"),
        (ids[0], 720, "lost"),
    ]
    assert len(stats.recent_games(db, player["Ann"], limit=3)) == 3


# --- pages -------------------------------------------------------------------------------


def test_the_players_page_lists_everyone_once_best_rating_first(client, db, history):
    _, player = history
    play(db, [["Newcomer"], ["Ann"]], [[dict(), dict()]], end=False)  # no finished game
    page = text(client.get("/players"))
    board = page[page.index("<h1>Players</h1>") :]
    order = [row["name"] for row in stats.leaderboard(db)] + ["Newcomer"]
    assert [board.index(name) for name in order] == sorted(board.index(name) for name in order)
    for name in order:  # each once, with one link to their record and one to rename them
        pid = players.find_player(db, name).id
        assert board.count(f'href="/players/{pid}"') == 1
        assert board.count(f'href="/players/{pid}/rename"') == 1
    assert "3 wins in 4 games · 75%" in board
    assert "Not rated yet: 1 game, none finished" in board
    assert f'href="/players/{player["Ann"]}"' in page
    assert f'href="/players/{player["Ann"]}/rename"' in page
    assert client.get("/players?page=2").status_code == 404
    assert client.get("/players?page=0").status_code == 404


def test_players_are_paged(client, db, monkeypatch):
    monkeypatch.setattr(stats, "PLAYERS_PER_PAGE", 2)
    play(db, [["Ann"], ["Bo"], ["Cy"]], [[dict(), dict(), dict()]])
    first, second = text(client.get("/players")), text(client.get("/players?page=2"))
    assert (
        "Page 1 of 2" in first
        and 'href="/players?page=2"' in first
        and "Cy" not in first.split("<h1>Players</h1>")[1]
    )
    assert "Cy" in second and 'href="/players?page=1"' in second


def test_player_page(client, history):
    ids, player = history
    response = client.get(f"/players/{player['Ann']}")
    assert response.status_code == 200
    page = text(response)
    for figure in (
        "<dt>Games</dt><dd>4</dd>",
        "<dt>Wins</dt><dd>3</dd>",
        "<dt>Win rate</dt><dd>75%</dd>",
        "<dt>Average round</dt><dd>674</dd>",
        "<dt>Best round</dt><dd>1,300</dd>",
        "<dt>Rounds went out</dt><dd>3 of 5</dd>",
        "<dt>Clean books</dt><dd>4</dd>",
        "<dt>Dirty books</dt><dd>2</dd>",
    ):
        assert figure in page
    assert re.search(r">Bo</a>:\s+won 2 of 3 games together \(67%\)", page)
    row = re.search(
        r'<tbody><tr><th scope="rowgroup" colspan="4"><a href="/players/\d+">Di</a></th></tr>\s*'
        r"<tr><td>3</td><td>2</td><td>1</td><td>0</td></tr></tbody>",
        page,
    )
    assert row, "the head-to-head row against Di"
    # the chart: an image with a title and a description, two lines
    svg = re.search(r"<svg [^>]*>", page[page.index("Results over time") :]).group(0)
    assert 'role="img"' in svg and "results-title" in svg and "results-desc" in svg
    assert '<title id="results-title">Ann’s results, game by game</title>' in page
    desc = re.search(r'<desc id="results-desc">(.*?)</desc>', page).group(1)
    assert desc.startswith("Ann’s team’s final total in each of their last 4 finished games")
    assert "Won 3, lost 1. Highest total 1,300, lowest 400." in desc
    results = page[page.index("Results over time") :]
    assert results.count("<polyline") == 2
    assert '<title id="rating-title">Ann’s rating, game by game</title>' in page
    assert page[page.index("Rating over time") : page.index("Results over time")].count("<polyline") == 1
    for game_id in ids:  # recent games link to the game screens
        assert f'href="/games/{game_id}"' in page
    assert f'href="/players/{player["Ann"]}/rename"' in page


def test_a_players_games_are_dated_in_digits_in_each_language(client, db, make_game):
    """The numbers under a player's charts, a game a row: its day in digits, as the language
    writes them ("5 de nov. de 2026" made the table too wide for a phone: issue 54)."""
    make_game(
        "partnership",
        [[TeamRound(melded_points=300), TeamRound(melded_points=50)]],
        day="2026-11-05",
        end=True,
    )
    ann = players.find_player(db, "Ann").id
    for language, day in (
        ("en", "2026-11-05"),
        ("pt-BR", "05/11/2026"),
        ("es", "5/11/2026"),
        ("it", "05/11/2026"),
    ):
        page = client.get(f"/players/{ann}", headers={"Accept-Language": language}).get_data(as_text=True)
        assert page.count(f'">{day}</a></th>') == 2, language  # the rating's numbers and the chart's


def test_player_page_before_any_finished_game(client, db):
    play(db, [["Zed"], ["Yan"]], [[dict(melded_points=50), dict()]], end=False)
    page = text(client.get(f"/players/{players.find_player(db, 'Zed').id}"))
    assert "record starts when their first game ends" in page
    # no chart (its figure) before a finished game; the player's colour is an svg swatch of its own
    assert 'class="chart"' not in page and "In progress · 50" in page


def test_unknown_player_is_404(client):
    assert client.get("/players/999").status_code == 404
    assert client.get("/players/999/rename").status_code == 404


def test_rename_goes_back_to_the_player(client, app, history):
    app.config["WTF_CSRF_ENABLED"] = False
    _, player = history
    response = client.post(f"/players/{player['Bo']}/rename", data={"name": "Bobby", "revision": "0"})
    assert response.status_code == 303 and response.location == f"/players/{player['Bo']}"
    assert "Bo is now Bobby." in text(client.get(response.location))


# --- demo-data ------------------------------------------------------------------------------


def test_demo_data_is_realistic_and_scored_by_the_engine(runner, db):
    result = runner.invoke(args=["demo-data", "--games", "20", "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert "Added 20 games" in result.output
    assert db["games"].count == 20
    assert 8 <= db["players"].count <= 12
    checked = 0
    for (game_id,) in db.execute("SELECT id FROM games ORDER BY id").fetchall():
        game = game_model.load_game(db, game_id)
        assert 2 <= len(game.teams) <= 4 and all(1 <= len(t.players) <= 3 for t in game.teams)
        assert game.rules == RULESETS[game.rules_key]
        assert (game.finished_at is not None) == game.finished
        for played in game.rounds:
            stored = dict(
                db.execute(
                    "SELECT team_id, score FROM round_entries WHERE round_id = ?", [played.id]
                ).fetchall()
            )
            for team, entry in zip(game.teams, played.entries):
                assert stored[team.id] == score_team_round(game.rules, entry, played.number).total
                checked += 1
            # the engine finds nothing to refuse or question
            assert check_round(game.rules, played.entries, played.number) == []
            assert sum(e.went_out for e in played.entries) <= 1
    assert checked > 40


def test_demo_data_stats_agree_with_the_engine(runner, db):
    assert runner.invoke(args=["demo-data", "--games", "20", "--seed", "11"]).exit_code == 0
    wins, played = {}, {}
    for (game_id,) in db.execute("SELECT id FROM games").fetchall():
        game = game_model.load_game(db, game_id)
        if not game.finished_at or not game.rounds:
            continue
        for i, team in enumerate(game.teams):
            for p in team.players:
                played[p.name] = played.get(p.name, 0) + 1
                wins[p.name] = wins.get(p.name, 0) + (i in game.standings.winners)
    board = stats.leaderboard(db, limit=20)
    assert {row["name"]: (row["wins"], row["games"]) for row in board} == {
        name: (wins[name], played[name]) for name in played
    }


def test_demo_data_seed_repeats_and_adds(runner, db):
    assert runner.invoke(args=["demo-data", "--games", "3", "--seed", "1"]).exit_code == 0
    first = db.execute("SELECT rules_key, created_at FROM games ORDER BY id").fetchall()
    assert runner.invoke(args=["demo-data", "--games", "3", "--seed", "1"]).exit_code == 0
    rows = db.execute("SELECT id, rules_key, created_at FROM games ORDER BY id").fetchall()
    assert len(rows) == 6 and len({r[0] for r in rows}) == 6
    assert [r[1] for r in rows[3:]] == [r[0] for r in first]  # same games; the family is not duplicated
    assert 8 <= db["players"].count <= 12


def test_demo_data_refuses_nonsense(runner):
    result = runner.invoke(args=["demo-data", "--games", "0"])
    assert result.exit_code != 0 and "--games" in result.output


def test_four_of_four_ranks_below_thirty_of_fifty_in_every_best_list(client, db):
    """Xan won 4 of 4 with Al (against Cy & Fe) and 30 of 50 with Bea (against Dot & Gil):
    every "best" over a share puts the fifty games first, says why, and shows the games."""
    for _ in range(4):
        play(db, [["Xan", "Al"], ["Cy", "Fe"]], [[dict(melded_points=500), dict(melded_points=100)]])
    for n in range(50):
        ahead = n < 30
        play(
            db,
            [["Xan", "Bea"], ["Dot", "Gil"]],
            [[dict(melded_points=500 if ahead else 100), dict(melded_points=100 if ahead else 500)]],
        )
    xan = players.find_player(db, "Xan").id
    record = stats.player_record(db, xan)
    assert (record.best_partner["name"], record.best_partner["wins"], record.best_partner["games"]) == (
        "Bea",
        30,
        50,
    )
    assert [p["name"] for p in stats.partnerships(db, xan)] == ["Bea", "Al"]
    assert [r["name"] for r in record.head_to_head] == ["Dot", "Gil", "Cy", "Fe"]
    year = int(datetime.date.today().strftime("%Y"))
    best = years.year_review(db, year)["best_partnership"]
    assert sorted(p["name"] for p in best["players"]) == ["Bea", "Xan"] and best["games"] == 50
    page = text(client.get(f"/players/{xan}"))
    assert "Bea</a>:\n  won 30 of 50 games together (60%)." in page
    assert ratings.SHARE_RULE in page
    partnerships = page[page.index('class="values partnerships by-name"') :]
    assert partnerships.index(">Bea<") < partnerships.index(">Al<")
    year_page = text(client.get(f"/years/{year}"))
    assert ratings.SHARE_RULE in year_page and "games together (60%)" in year_page
