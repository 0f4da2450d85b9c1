"""A finished game sent to BG Stats (issue 46, exchange/bgstats.py): the play format BG Stats
publishes for other apps, field by field against the example of its documentation
("Push plays to BG Stats from other apps or websites", bgstatsapp.com/support)."""

import json
from urllib.parse import unquote

from scorekeeper.exchange import bgstats
from scorekeeper.scoring import TeamRound

from ..helpers import text

# the documentation's example, as published (its second player cut short here)
DOCUMENTED = {
    "board": "",
    "durationMin": 36,
    "comments": "Such a close play!",
    "game": {
        "bggId": 132531,
        "highestWins": True,
        "name": "Roll for the Galaxy",
        "noPoints": False,
        "sourceGameId": "21df231",
    },
    "location": "Home",
    "playDate": "2020-10-23 19:16:58",
    "players": [
        {
            "startPlayer": True,
            "name": "Eerko",
            "rank": 1,
            "role": "",
            "score": 47.3,
            "sourcePlayerId": "23432",
            "winner": True,
        },
    ],
}
NOT_SENT = {"bggId"}  # the family's rule sets are no BoardGameGeek games (the module says why)


def shape(value):
    """The keys and value types of a JSON value, all the way down (numbers as one type)."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items() if key not in NOT_SENT}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    if isinstance(value, bool):
        return "bool"
    return "number" if isinstance(value, int | float) else type(value).__name__


def test_a_finished_games_play_has_every_field_of_the_published_example(make_game, zone):
    zone("America/New_York")  # the play's date is on the household's clock, in any zone
    game = make_game(
        "partnership",
        [[TeamRound(melded_points=300), TeamRound(melded_points=150)]],
        teams=(("Reds", ["Ann", "Bo"]), ("", ["Cy", "Di"])),
        day="2026-11-26",
        end=True,
    )
    sent = bgstats.play(game)
    assert {k: v for k, v in shape(sent).items() if k in DOCUMENTED} == shape(DOCUMENTED)
    assert sent["sourceName"] == "Scorekeeper" and sent["sourcePlayId"] == game.uid
    assert sent["game"]["name"] == "Hand and Foot" and sent["board"] == game.rules.name
    assert sent["playDate"] == "2026-11-26 19:30:00"  # the evening it was played
    players = {p["name"]: p for p in sent["players"]}
    assert set(players) == {"Ann", "Bo", "Cy", "Di"}  # the names as the family typed them
    totals = game.standings.totals
    assert players["Ann"]["score"] == players["Bo"]["score"] == totals[0]
    assert (players["Ann"]["rank"], players["Ann"]["winner"], players["Ann"]["role"]) == (1, True, "Reds")
    assert (players["Cy"]["rank"], players["Cy"]["winner"]) == (2, False)
    assert all(p["startPlayer"] is False for p in players.values())


def test_the_game_page_links_to_bg_stats_with_the_play_once_the_game_is_over(client, make_game):
    rounds = [[TeamRound(melded_points=300), TeamRound(melded_points=300)]]
    game = make_game("canasta", rounds, teams=(("", ["Zoë"]), ("", ["Björn"])), end=True)
    page = client.get(f"/games/{game.id}").text
    start = page.index('href="' + bgstats.URL) + len('href="' + bgstats.URL)
    sent = json.loads(unquote(page[start : page.index('"', start)].replace("&amp;", "&")))
    assert [(p["name"], p["rank"], p["winner"]) for p in sent["players"]] == [
        ("Zoë", 1, True),
        ("Björn", 1, True),
    ]  # a tie: both first, both winners
    assert sent["game"]["name"] == "Canasta"
    unfinished = make_game("roth", rounds, teams=(("", ["Zoë"]), ("", ["Björn"])))
    assert "Send to BG Stats" not in text(client.get(f"/games/{unfinished.id}"))
