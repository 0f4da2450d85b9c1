"""Games alike: the history's games with the same night, the same players in the same teams
and the same totals as a game coming in (issue 54: one game, once).

However a game came in (scored on a phone, typed from its paper sheet, imported from a
spreadsheet or an export), the family knows it by its evening, who played with whom and
the totals; a spreadsheet that holds it again, or its sheet typed in a second time, is
caught by them. The look-up reads only the games of the nights asked (``games.night`` is
indexed) and their teams' stored totals (``teams.total``, the engine's, kept with every
change): no game's rounds are read and no look-up waits on the size of the history.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

#: nights asked in one statement (a spreadsheet of 10,000 games holds as many nights at most)
NIGHTS_AT_ONCE = 500


@dataclass(frozen=True)
class Alike:
    """A game of the history like one coming in."""

    id: int
    created_at: str  # when it was entered (typed, scored or imported)
    played_at: str
    uid: str

    @property
    def from_spreadsheet(self):
        """Imported from a spreadsheet of past games (its entry day is its played day)."""
        return self.uid.startswith("csv-")


def signature(players, totals):
    """What two games alike share besides their night: each team's players (their name keys)
    with its total, whatever the order of the teams."""
    return frozenset(zip((tuple(sorted(keys)) for keys in players), totals))


def find(db, wanted, leave_out=()):
    """The history's game like each one ``wanted``: {key: (night, signature)} -> {key: ``Alike``}
    for those that have one (the first entered, if several).

    :param leave_out: game ids not to compare with (the game being typed in).
    """
    by_night = {}
    for key, (night, sign) in wanted.items():
        by_night.setdefault(night, {}).setdefault(sign, key)
    nights = sorted(by_night)
    teams = {}  # game id -> its row and {team id: (its total, [player keys])}
    for start in range(0, len(nights), NIGHTS_AT_ONCE):
        rows = db.execute(
            """SELECT g.id, g.night, g.created_at, g.played_at, g.uid, t.id, t.total, p.key
               FROM games g
               JOIN teams t ON t.game_id = g.id
               JOIN team_players tp ON tp.team_id = t.id
               JOIN players p ON p.id = tp.player_id
               WHERE g.night IN (SELECT value FROM json_each(?)) AND g.importing IS NULL
                 AND g.deleted_at IS NULL
               ORDER BY g.id""",
            [json.dumps(nights[start : start + NIGHTS_AT_ONCE])],
        )
        for game_id, night, created_at, played_at, uid, team_id, total, key in rows:
            if game_id in leave_out:
                continue
            game = teams.setdefault(game_id, (night, Alike(game_id, created_at, played_at, uid), {}))
            game[2].setdefault(team_id, (total, []))[1].append(key)
    found = {}
    for night, alike, game_teams in teams.values():  # in the order entered
        sign = signature([keys for _total, keys in game_teams.values()], [t for t, _k in game_teams.values()])
        key = by_night[night].get(sign)
        if key is not None and key not in found:
            found[key] = alike
    return found


def uids_here(db, uids):
    """Which of ``uids`` the history holds (an import's games, shown or still being written)."""
    here = set()
    uids = list(uids)
    for start in range(0, len(uids), NIGHTS_AT_ONCE):
        chunk = json.dumps(uids[start : start + NIGHTS_AT_ONCE])
        rows = db.execute("SELECT uid FROM games WHERE uid IN (SELECT value FROM json_each(?))", [chunk])
        here.update(uid for (uid,) in rows)
    return here
