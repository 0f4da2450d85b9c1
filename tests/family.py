"""A family's history to open every kind of page on (the every-page tests, in a browser and
in each language): 300 games generated in one year and 20 the year before (demo.generate,
2 to 4 teams), a game of each size from 2 to 6 teams being played, an old sheet's game
being typed in, a game deleted, and the pages to open on it, by group.
"""

import datetime

from scorekeeper.exchange import demo
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import deleted, games
from scorekeeper.services.players import LISTED
from scorekeeper.storage.db import connect

from .httpkit import migrated

NOW = datetime.datetime(2026, 11, 20, 22, 0, tzinfo=datetime.UTC)
YEAR = 2026
NAMES = ["Grandma Jo", "Grandpa Walt", "Ann", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jack"]


def history(path):
    """A database at ``path`` of 300 games in 2026 and 20 the year before, one game of each
    size being played and an old sheet's being typed in: (path, the games being played by
    team count, the players' ids, two nights)."""
    path = migrated(path)
    db = connect(str(path))
    try:
        demo.generate(db, 300, seed=30, now=NOW, span=datetime.timedelta(days=315))
        # and a few the year before, for a second year page
        demo.generate(
            db, 20, seed=31, now=NOW - datetime.timedelta(days=340), span=datetime.timedelta(days=30)
        )
        playing = {}
        for teams in range(2, 7):
            seated = [("", NAMES[2 * t : 2 * t + 2]) for t in range(teams)]
            game = games.create_game(db, RULESETS["roth"], "roth", seated)
            row = [TeamRound(books={"clean": 1}, melded_points=1255 * (t + 1)) for t in range(teams)]
            game = games.add_round(db, game.id, game.revision, 1, row)
            playing[teams] = game.id
        # an old sheet's game being typed in: scores alone (its pages, its round form)
        seated = [("", NAMES[:2]), ("", NAMES[2:4]), ("", NAMES[4:6])]
        game = games.create_game(db, RULESETS["roth"], "roth", seated, paper="scores")
        row = [TeamRound(paper_score=score) for score in (1_235, -2_350, 0)]
        playing["scores"] = games.add_round(db, game.id, game.revision, 1, row).id
        # a game typed in by mistake and deleted (issue 54): the deleted games list it
        seated = [("", NAMES[:2]), ("", ["Newcomer Zed"])]
        game = games.create_game(db, RULESETS["roth"], "roth", seated, played_at="2026-11-19T20:00:00+00:00")
        row = [TeamRound(melded_points=points) for points in (2_450, 1_990)]
        game = games.add_round(db, game.id, game.revision, 1, row)
        game = games.end_game(db, game.id, game.revision)
        deleted.delete_game(db, game.id, game.revision)
        players = [pid for (pid,) in db.execute(f"SELECT id FROM players WHERE {LISTED} ORDER BY id")]
        # the demo's evening of the most tables and games, and a night of games played alone
        nights = [
            db.execute(
                "SELECT night FROM evening_games GROUP BY night "
                "ORDER BY MAX(table_number) DESC, COUNT(*) DESC"
            ).fetchone()[0],
            db.execute("SELECT night FROM nights WHERE night NOT IN (SELECT night FROM evenings)").fetchone()[
                0
            ],
        ]
    finally:
        db.close()
    return path, playing, players, nights


def page_groups():
    """(name, a function of (games being played, players) to the paths it opens)."""
    return {
        "home-and-lists": lambda playing, players, nights: [
            "/",
            "/history",
            "/players",
            "/records",
            f"/years/{YEAR}",
            f"/years/{YEAR - 1}",
        ],
        "players": lambda playing, players, nights: [f"/players/{pid}" for pid in players],
        "games": lambda playing, players, nights: [f"/games/{gid}" for gid in playing.values()],
        "round-forms": lambda playing, players, nights: [
            path
            for gid in playing.values()
            for path in (f"/games/{gid}/rounds/new", f"/games/{gid}/rounds/1/edit")
        ],
        "rules": lambda playing, players, nights: ["/rules", *(f"/rules/{key}" for key in RULESETS)],
        "settings-and-new-game": lambda playing, players, nights: ["/settings", "/games/new", "/rules/new"],
        "paper": lambda playing, players, nights: [
            *(f"/games/{playing[key]}/paper" for key in (2, 6, "scores")),
            f"/games/{playing[4]}/played",
            "/import/past-games",
        ],
        # a game's question before it is deleted; the deleted games and the household's log
        "deleted": lambda playing, players, nights: [f"/games/{playing[2]}/delete", "/games/deleted"],
        "evenings": lambda playing, players, nights: [
            "/evenings/new",
            *(f"/evenings/{night}" for night in nights),
            f"/evenings/{nights[0]}/next",
        ],
    }
