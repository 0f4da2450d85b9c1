"""A year at the table: its game nights, who won most, the best partnership, its records.

Read from sums kept with every change (``summaries``: ``nights``,
``night_players``, ``year_pairs``; ``records``: ``game_records``), so a year
page reads a few hundred rows however many games there are. A game belongs
to the evening it was played on (``evenings.evening``), and so to that
evening's year and month.
"""

from __future__ import annotations

import datetime

from ..scoring.language import N_, _
from . import evenings, ratings, records

MONTHS = (
    # Translators: the months, short, as the chart of a year's games labels them
    N_("Jan"),
    N_("Feb"),
    N_("Mar"),
    N_("Apr"),
    N_("May"),
    N_("Jun"),
    N_("Jul"),
    N_("Aug"),
    N_("Sep"),
    N_("Oct"),
    N_("Nov"),
    N_("Dec"),
)


def years_played(db):
    """The years with a game that counts, newest first."""
    return [
        int(row[0])
        for row in db.execute("SELECT DISTINCT substr(night, 1, 4) FROM nights ORDER BY 1 DESC")
        if row[0].isdigit()
    ]


def months_shown(year, played, today):
    """The months of ``year`` its chart draws (1..12): from its first month with a game to
    the last month that has begun by ``today`` (an ISO date), or its last month with a
    game if later (a game dated ahead). ``played`` holds the months with a game."""
    if not played:
        return range(1, 1)
    this_year, this_month = int(today[:4]), int(today[5:7])
    begun = 12 if year < this_year else this_month if year == this_year else 0
    return range(min(played), max(begun, max(played)) + 1)


def year_review(db, year, today=None):
    """Everything the year page shows (finished games with a round, by the evening played).

    :returns: a dict of year, games, nights (the latest first, each: night,
        games, players (names), winners (who won most that night, names),
        most_wins (how many they won)), months (games per month, those
        ``months_shown``), most_wins
        (players by wins), best_partnership (the surest share of games won
        together), share_rule (that rule in a sentence), records (per rule set),
        busiest_night, years (every year played).
    """
    since, until = f"{year:04d}", f"{year + 1:04d}"
    names = {}
    nights = {}
    for night, games in db.execute(
        "SELECT night, games FROM nights WHERE night >= ? AND night < ? ORDER BY night", [since, until]
    ):
        nights[night] = {
            "night": night,
            "month": night[:7],
            "games": games,
            "players": [],
            "winners": [],
            "most_wins": 0,
        }
    totals = {}
    for night, pid, name, games, wins in db.execute(
        """SELECT n.night, p.id, p.name, n.games, n.wins
           FROM night_players n JOIN players p ON p.id = n.player_id
           WHERE n.night >= ? AND n.night < ? ORDER BY n.night, n.wins DESC, p.name COLLATE NOCASE""",
        [since, until],
    ):
        names[pid] = name
        entry = nights.get(night)
        if entry is not None:  # most wins first: the first player's wins are the night's most
            entry["players"].append(name)
            if wins and wins >= entry["most_wins"]:
                entry["most_wins"] = wins
                entry["winners"].append(name)
        played, won = totals.get(pid, (0, 0))
        totals[pid] = (played + games, won + wins)
    months = [0] * 13  # by month number
    for night, entry in nights.items():
        months[int(night[5:7])] += entry["games"]
    today = today or evenings.evening(datetime.datetime.now(datetime.UTC).isoformat())
    shown = months_shown(year, [m for m in range(1, 13) if months[m]], today)
    most_wins = sorted(
        (
            {"id": pid, "name": names[pid], "games": games, "wins": wins, "win_rate": wins / games}
            for pid, (games, wins) in totals.items()
            if games > 0
        ),
        key=lambda p: (-p["wins"], -p["win_rate"], p["name"].casefold()),
    )
    # the surest share of games won together (ratings.sure_share), then more games, then
    # names: the pairs who won together that year, a few dozen in a family
    pairs = db.execute(
        """SELECT a.id, a.name, b.id, b.name, y.games, y.wins FROM year_pairs y
           JOIN players a ON a.id = y.player_id JOIN players b ON b.id = y.partner_id
           WHERE y.year = ? AND y.wins > 0""",
        [since],
    ).fetchall()
    ranked = sorted(
        (
            {
                "players": [{"id": a, "name": a_name}, {"id": b, "name": b_name}],
                "name": f"{a_name} & {b_name}",
                "games": games,
                "wins": wins,
                "win_rate": wins / games,
            }
            for a, a_name, b, b_name, games, wins in pairs
        ),
        key=ratings.surest_first,
    )
    best_partnership = None
    if ranked:
        best_partnership = {k: v for k, v in ranked[0].items() if k != "name"}
    return {
        "year": year,
        "games": sum(months),
        "nights": list(reversed(nights.values())),  # the latest first
        "months": [{"month": f"{since}-{m:02d}", "games": months[m]} for m in shown],
        "most_wins": most_wins,
        "best_partnership": best_partnership,
        "share_rule": _(ratings.SHARE_RULE),
        "records": records.game_records(db, year),
        "busiest_night": records.busiest_night(db, year),
        "years": years_played(db),
    }


def player_year(db, year, player_id):
    """One player's year, for their picture: a dict of year, name, games and wins (finished
    games with a round, by the evening played), rating (the ordinal after their last rated
    game of the year, None without one), best_partner (the surest share of games won
    together that year, as on the year page: name, games, wins; None), or None when the
    player played no game that year."""
    since, until = f"{year:04d}", f"{year + 1:04d}"
    row = db.execute(
        """SELECT p.name, coalesce(sum(n.games), 0), coalesce(sum(n.wins), 0) FROM players p
           LEFT JOIN night_players n ON n.player_id = p.id AND n.night >= ? AND n.night < ?
           WHERE p.id = ? GROUP BY p.id""",
        [since, until, player_id],
    ).fetchone()
    if row is None or not row[1]:
        return None
    name, games, wins = row
    # the rating after their last game of the year, by the evening played (as the games
    # are counted: a New Year's Eve game after midnight in UTC belongs to the old year)
    of_year = {
        game_id
        for (game_id,) in db.execute(
            "SELECT game_id FROM game_records WHERE night >= ? AND night < ?", [since, until]
        )
    }
    rated = [entry for entry in ratings.history(db, player_id) if entry["game_id"] in of_year]
    pairs = db.execute(
        """SELECT b.name, y.games, y.wins FROM year_pairs y JOIN players b ON b.id = y.partner_id
           WHERE y.year = ? AND y.player_id = ? AND y.wins > 0""",
        [since, player_id],
    ).fetchall()
    ranked = sorted(
        ({"name": n, "games": g, "wins": w, "win_rate": w / g} for n, g, w in pairs), key=ratings.surest_first
    )
    return {
        "year": year,
        "name": name,
        "games": games,
        "wins": wins,
        "rating": rated[-1]["ordinal"] if rated else None,
        "best_partner": ranked[0] if ranked else None,
    }


def latest_year_of(db, player_id):
    """The latest year in which the player played a game that counts, or None."""
    row = db.execute("SELECT max(night) FROM night_players WHERE player_id = ?", [player_id]).fetchone()
    return int(row[0][:4]) if row and row[0] and row[0][:4].isdigit() else None
