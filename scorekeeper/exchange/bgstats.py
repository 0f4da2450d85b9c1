"""A finished game sent to BG Stats, the play logger many board-game families use: the play
format it publishes for other apps ("Push plays to BG Stats from other apps or websites",
bgstatsapp.com/support): a link to ``https://app.bgstatsapp.com/createPlay.html?data=``
with the play as JSON, which opens BG Stats' own import dialog on the phone, where the
family matches the game and the players once (BG Stats remembers each match).

Every field of the published example is filled: the game by its own words' name
("Hand and Foot", "Canasta"), the variant as the board (the rule set), each player as
the family typed the name, with the team's total, rank and win (a team game: each player
of a team gets its score). Not sent: a BoardGameGeek id (the family's rule sets are not
BGG's games; BG Stats matches by name, once), and who played first (not kept: the start
player is false for all). The Android app refuses a play missing ``winner`` or
``startPlayer``, so both are always there.
"""

from __future__ import annotations

import datetime
import json
import re
from urllib.parse import quote

from .. import scoring
from ..services.evenings import local

URL = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE = "Scorekeeper"


def _minutes(game):
    """How long a game kept in the app lasted (from its start to its end), else 0."""
    if game.paper:
        return 0
    try:
        start = datetime.datetime.fromisoformat(game.created_at)
        end = datetime.datetime.fromisoformat(game.finished_at)
    except (TypeError, ValueError):
        return 0
    minutes = int((end - start).total_seconds() // 60)
    return minutes if 0 < minutes < 24 * 60 else 0


def play(game):
    """The play of a finished game, as BG Stats' format has it (a dict, ready for JSON)."""
    s = game.standings
    totals = s.totals
    places = scoring.ranks(totals)
    players = []
    for i, team in enumerate(game.teams):
        rank = places[i]
        for player in team.players:
            players.append(
                {
                    "startPlayer": False,
                    "name": player.name,
                    "rank": rank,
                    "role": team.name if len(team.players) > 1 else "",  # its team, in a team game
                    "score": totals[i],
                    "sourcePlayerId": str(player.id),
                    "winner": i in s.winners,
                }
            )
    when = local(game.played_at or game.created_at)
    words = game.rules.say.game
    return {
        "board": game.rules.name,
        "durationMin": _minutes(game),
        "comments": f"{len(game.rounds)} round{'s' if len(game.rounds) != 1 else ''}, kept with {SOURCE}",
        "game": {
            "highestWins": True,
            "name": words,
            "noPoints": False,
            "sourceGameId": re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-") or "game",
        },
        "location": "Home",
        "playDate": when.strftime("%Y-%m-%d %H:%M:%S") if when else "",
        "players": players,
        "sourceName": SOURCE,
        "sourcePlayId": game.uid,
    }


def play_link(game):
    """The link that opens BG Stats' import dialog with the game's play."""
    return URL + quote(json.dumps(play(game), ensure_ascii=False, separators=(",", ":")), safe="")
