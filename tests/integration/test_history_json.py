"""Every history page is also JSON: the numbers the page shows, from the same service call."""

import re

import pytest

from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import game_model, games, players
from scorekeeper.storage.db import transaction

from ..helpers import text


def play(db, teams, winner, *, when):
    with transaction(db):
        game_id = games.insert_game(db, RULESETS["partnership"], "partnership", teams, created_at=when)
    game = game_model.load_game(db, game_id)
    entries = [TeamRound(melded_points=400 if i == winner else 50) for i in range(len(teams))]
    game = games.add_round(db, game.id, game.revision, 1, entries)
    return games.end_game(db, game.id, game.revision)


@pytest.fixture
def played(db):
    for n in range(9):
        play(
            db,
            [("", ["Ann", ["Bo", "Cy"][n % 2]]), ("", ["Di", "Eve"])],
            int(n % 3 == 0),
            when=f"2026-01-{n + 2:02d}T19:30:00+00:00",
        )
    return {name: players.find_player(db, name).id for name in ("Ann", "Bo", "Cy", "Di", "Eve")}


def test_players_json_is_the_list_the_page_shows(client, played):
    page = text(client.get("/players"))
    data = client.get("/players.json").get_json()
    board = page[page.index("<h1>Players</h1>") :]
    names = re.findall(
        r'<span class="rank">\d+\.</span> ([^<]+?)</strong>\s*'
        r'<span class="facts">Rating <span class="rating">([^<]+)</span>',
        board,
    )
    assert names == [(row["name"], f"{row['rating']:.1f}".replace("-", "−")) for row in data["players"]]
    assert len(names) == 5
    assert data["leaderboard"] == [{k: v for k, v in row.items() if k != "played"} for row in data["players"]]
    for row in data["players"]:
        trend = f"{abs(row['trend']):.1f}"
        trend = "0.0" if trend == "0.0" else ("▲ +" if row["trend"] > 0 else "▼ −") + trend
        assert f'<span class="trend">{trend}</span>' in board
        assert f"{row['wins']} win{'s' if row['wins'] != 1 else ''} in {row['games']} games" in board
    played = {p["name"]: p["played"] for p in data["players"]}
    assert played == {"Ann": 9, "Bo": 5, "Cy": 4, "Di": 9, "Eve": 9}
    assert data["page"] == 1 and data["pages"] == 1


def test_a_players_json_is_what_their_page_shows(client, played):
    ann = played["Ann"]
    page = text(client.get(f"/players/{ann}"))
    data = client.get(f"/players/{ann}.json").get_json()
    assert data["player"] == {"id": ann, "name": "Ann", "colour": "red"}  # the first player made: red
    s = data["stats"]
    assert s["games"] == 9 and s["wins"] == 6 and s["losses"] == 3
    for label, value in (("Games", s["games"]), ("Wins", s["wins"]), ("Best round", f"{s['best_round']:,}")):
        assert f"<dt>{label}</dt><dd>{value}</dd>" in page
    assert f"<dt>Rating</dt><dd>{data['rating']['rating']:.1f}</dd>" in page
    assert data["rating"]["games"] == 9 == len(data["rating_history"])
    numbers = page[page.index("The rating’s numbers") : page.index("Results over time")]
    chart_rows = re.findall(r"<td>(\d+)</td><td>(−?[\d.]+)</td></tr>", numbers)
    history = data["rating_history"]
    assert chart_rows == [(str(h["games"]), f"{h['ordinal']:.1f}".replace("-", "−")) for h in history]
    assert [g["played_at"][:10] for g in data["timeline"]] == [f"2026-01-{n + 2:02d}" for n in range(9)]
    assert client.get("/players/999.json").status_code == 404


def test_charts_are_dated_when_the_games_were_played(client, played):
    """Games played in January and finished (ended by hand) today: the charts say January."""
    page = text(client.get(f"/players/{played['Ann']}"))
    for chart in ("results", "rating"):
        svg = page[page.index(f'<title id="{chart}-title">') :]
        svg = svg[: svg.index("</svg>")]
        labels = set(re.findall(r'y="204" text-anchor="(?:start|middle|end)">([^<]+)</text>', svg))
        assert labels == {"Jan ’26"}, chart


def test_a_players_streaks_and_partnerships_on_their_page_and_json(client, played):
    # Ann: lost (n=0), won, won, lost (3), won, won, lost (6), won, won: current 2, longest 2
    ann = played["Ann"]
    data = client.get(f"/players/{ann}.json").get_json()
    assert data["streaks"] == {"current": 2, "longest": 2}
    page = text(client.get(f"/players/{ann}"))
    assert "<dt>Winning streak</dt><dd>2</dd>" in page and "<dt>Longest streak</dt><dd>2</dd>" in page
    # Bo partnered Ann in games 0, 2, 4, 6, 8 (won 2, 4, 8); Cy in 1, 3, 5, 7 (won 1, 5, 7)
    # the surer share first: 3 of 4 (0.18) before 3 of 5 (0.14)
    assert [(p["name"], p["games"], p["wins"], p["longest"]) for p in data["partnerships"]] == [
        ("Cy", 4, 3, 2),
        ("Bo", 5, 3, 2),
    ]
    table = page[page.index("Partnerships") : page.index("Head to head")]
    for p in data["partnerships"]:
        assert re.search(
            rf">{p['name']}</a></th></tr>\s*<tr><td>{p['games']}</td><td>{p['wins']}</td>"
            rf"<td>{p['win_rate']:.0%}</td><td>{p['longest']}</td></tr>",
            table,
        )
