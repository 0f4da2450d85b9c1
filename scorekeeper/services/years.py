"""A year at the table: its game nights, who won most, the best partnership, its records.

Read from sums kept with every change (``summaries``: ``nights``,
``night_players``, ``year_pairs``; ``records``: ``game_records``), so a year
page reads a few hundred rows however many games there are. A game belongs
to the evening it was played on (``evenings.evening``), and so to that
evening's year and month.
"""

from __future__ import annotations

from . import records

MIN_GAMES_TOGETHER = 2  # the year's best partnership: at least this many games together
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def years_played(db):
    """The years with a game that counts, newest first."""
    return [
        int(row[0])
        for row in db.execute("SELECT DISTINCT substr(night, 1, 4) FROM nights ORDER BY 1 DESC")
        if row[0].isdigit()
    ]


def year_review(db, year):
    """Everything the year page shows (finished games with a round, by the evening played).

    :returns: a dict of year, games, nights (the latest first, each: night,
        games, players (names), winners (who won most that night, names),
        most_wins (how many they won)), months (games per month), most_wins
        (players by wins), best_partnership, records (per rule set),
        busiest_night, years (every year played).
    """
    since, until = f"{year:04d}", f"{year + 1:04d}"
    names = {}
    nights = {}
    for night, games in db.execute(
        "SELECT night, games FROM nights WHERE night >= ? AND night < ? ORDER BY night", [since, until]
    ):
        nights[night] = {"night": night, "games": games, "players": [], "winners": [], "most_wins": 0}
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
    months = [0] * 12
    for night, entry in nights.items():
        months[int(night[5:7]) - 1] += entry["games"]
    most_wins = sorted(
        (
            {"id": pid, "name": names[pid], "games": games, "wins": wins, "win_rate": wins / games}
            for pid, (games, wins) in totals.items()
        ),
        key=lambda p: (-p["wins"], -p["win_rate"], p["name"].casefold()),
    )
    pair = db.execute(
        """SELECT a.id, a.name, b.id, b.name, y.games, y.wins FROM year_pairs y
           JOIN players a ON a.id = y.player_id JOIN players b ON b.id = y.partner_id
           WHERE y.year = ? AND y.games >= ?
           ORDER BY 1.0 * y.wins / y.games DESC, y.games DESC, a.name COLLATE NOCASE, b.name COLLATE NOCASE
           LIMIT 1""",
        [since, MIN_GAMES_TOGETHER],
    ).fetchone()
    best_partnership = None
    if pair:
        best_partnership = {
            "players": [{"id": pair[0], "name": pair[1]}, {"id": pair[2], "name": pair[3]}],
            "games": pair[4],
            "wins": pair[5],
            "win_rate": pair[5] / pair[4],
        }
    return {
        "year": year,
        "games": sum(months),
        "nights": list(reversed(nights.values())),  # the latest first
        "months": [{"month": f"{since}-{m + 1:02d}", "games": months[m]} for m in range(12)],
        "most_wins": most_wins,
        "best_partnership": best_partnership,
        "min_together": MIN_GAMES_TOGETHER,
        "records": records.game_records(db, year),
        "busiest_night": records.busiest_night(db, year),
        "years": years_played(db),
    }
