"""The yearbook (issue 58): everything the family's year printed shows, read from the database.

No Flask, no words: numbers, names and keys, which ``printing/yearbook.py`` lays out in
the reader's language. What counts is what the year page counts (``years.year_review``:
finished games with a round, by the evening played); each game's facts are its
``game_records`` row, each player's games their ``player_games`` rows, read once in the
order played, so a year of 2,000 games is two passes over a few thousand rows.

``key`` says what a book shows short of reading it all: the year's games as of their
revisions, the players' and house rules' revisions (a rename, a rule set's words), the
players' colours and the ratings' catch-up mark; a book drawn from the same key is the same.
"""

from __future__ import annotations

import datetime
import hashlib
import statistics

from ..storage.db import snapshot
from . import evenings, ratings, years
from .rulesets import household_game

SHORT_ENTRY_GAMES = 1  # a player with this many games or fewer gets a short entry, not a page
# past this many nights the book lists its nights by month (a line a month: nights, games,
# who won most nights, the month's best round) rather than a line a night: 60 lines are
# two printed pages, a family's year of weekly nights listed whole
NIGHTS_LISTED = 60
RATING_POINTS = 60  # at most this many points on a player's rating chart (evenly chosen, the last kept)
HEAD_TO_HEAD_PLAYERS = 12  # the head-to-head table's players (most games first): 12 columns fit a page
PARTNERSHIPS_LISTED = 40  # the partnerships table's rows, the surest share won first
TELLS_RUN = 3  # a winning run this long is worth a line of its own


def _span(year):
    return f"{year:04d}", f"{year + 1:04d}"


def key(db, year, today=None):
    """What the year's book shows, short of its words and paper: a hash of the year's games
    (id and revision), the players' and house rules' revisions, and the ratings' mark; and,
    while the year is not over, the month ``today`` (an ISO date; now, unless given) is in:
    its chart of games by month runs to the month begun."""
    since, until = _span(year)
    today = today or evenings.evening(datetime.datetime.now(datetime.UTC).isoformat())
    digest = hashlib.sha256(f"{year} {today[:7] if today < until else ''}".encode())
    with snapshot(db):
        for row in db.execute(
            """SELECT g.id, g.revision FROM game_records r JOIN games g ON g.id = r.game_id
               WHERE r.night >= ? AND r.night < ? ORDER BY g.id""",
            [since, until],
        ):
            digest.update(repr(tuple(row)).encode())
        for sql in (
            "SELECT count(*), sum(revision) FROM players",
            "SELECT count(*), sum(revision) FROM house_rules",
            "SELECT group_concat(colour) FROM (SELECT colour FROM players ORDER BY id)",
        ):
            digest.update(repr(db.execute(sql).fetchone()).encode())
        digest.update(repr(ratings.behind(db)).encode())
    return digest.hexdigest()[:24]


def interval(wins, games):
    """A share of games won with its interval (low, high): the Wilson score interval at
    ``ratings.SURE`` sigmas the app ranks shares by (``ratings.sure_share``), its upper end
    the lower end of the share lost, turned round (the interval is symmetric so)."""
    if not games:
        return 0.0, 1.0
    return ratings.sure_share(wins, games), 1 - ratings.sure_share(games - wins, games)


def _standing(value, others, lowest):
    """How far ``value`` stands from the year's others: its distance from their median in
    median absolute deviations (robust: one wild game moves neither), the way a family
    would say "nothing else came close"; 0 when it is no further than the median, and
    infinite where the others all agree and it does not."""
    middle = statistics.median(others)
    distance = (middle - value) if lowest else (value - middle)
    if distance <= 0:
        return 0.0
    spread = statistics.median(abs(v - middle) for v in others)
    return distance / spread if spread else float("inf")


# The three stories a game of the year can tell, in the order a tie in rarity is settled
# by (a comeback is the best story, then a close finish, then a big score).
STORIES = ("comeback", "closest", "highest")


def game_of_the_year(facts):
    """The rarest of the year's biggest comeback, closest finish and highest score.

    Rarest is decided by how far each stands from the year's other games of its rule set
    (``_standing``: distance from their median in median absolute deviations; totals
    compare only under one rule set), the furthest first, ties in ``STORIES`` order. A
    comeback of nothing is no story. ``facts``: the year's ``game_records`` rows as dicts
    (with ``teams``: each team's name and total, in team order).

    :returns: a dict of story, the game's facts, standing; None without a game.
    """
    if not facts:
        return None
    by_rules = {}
    for f in facts:
        by_rules.setdefault(f["rules_name"], []).append(f)
    # each story's game: the extreme one, the earliest played when several are as far
    candidates = {
        "comeback": min(facts, key=lambda f: (-f["comeback"], f["played_at"], f["game_id"])),
        "closest": min(facts, key=lambda f: (f["margin"], f["played_at"], f["game_id"])),
        "highest": min(facts, key=lambda f: (-f["high_total"], f["played_at"], f["game_id"])),
    }
    column = {"comeback": "comeback", "closest": "margin", "highest": "high_total"}
    chosen = []
    for order, story in enumerate(STORIES):
        game = candidates[story]
        if story == "comeback" and not game["comeback"]:
            continue
        others = [f[column[story]] for f in by_rules[game["rules_name"]]]
        standing = _standing(game[column[story]], others, lowest=story == "closest")
        chosen.append((-standing, order, story, game, standing))
    _, _, story, game, standing = min(chosen, key=lambda c: (c[0], c[1]))
    return {"story": story, "game": game, "standing": standing}


def _facts(db, year):
    """The year's games' ``game_records`` rows as dicts, in the order played, each with its
    teams (name, total, won, player ids) in team order."""
    since, until = _span(year)
    rows = db.execute(
        """SELECT game_id, rules_name, played_at, night, high_total, high_team, margin, comeback,
                  comeback_team, comeback_round, best_round, best_round_team, best_round_number
           FROM game_records WHERE night >= ? AND night < ? ORDER BY played_at, game_id""",
        [since, until],
    )
    columns = [column[0] for column in rows.description]
    facts = {row[0]: dict(zip(columns, row, strict=True), teams=[]) for row in rows}
    teams = {}
    for game_id, team_id, name, total, won in db.execute(
        """SELECT t.game_id, t.id, t.name, t.total, t.won FROM teams t
           JOIN game_records r ON r.game_id = t.game_id
           WHERE r.night >= ? AND r.night < ? ORDER BY t.game_id, t.position""",
        [since, until],
    ):
        team = {"id": team_id, "name": name, "total": total, "won": bool(won), "players": []}
        facts[game_id]["teams"].append(team)
        teams[team_id] = team
    for team_id, player_id in db.execute(
        """SELECT tp.team_id, tp.player_id FROM team_players tp JOIN teams t ON t.id = tp.team_id
           JOIN game_records r ON r.game_id = t.game_id WHERE r.night >= ? AND r.night < ?
           ORDER BY tp.team_id, tp.position""",
        [since, until],
    ):
        teams[team_id]["players"].append(player_id)
    return list(facts.values())


def _thinned(points, most):
    """At most ``most`` of ``points``, evenly spread, the first and the last kept."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


def _players(db, year, facts, names):
    """Each player's year from the games in order: games, wins, interval, best round,
    longest winning run, nights, partners and opponents, rating through the year."""
    people = {}
    pairs = {}  # (a, b) with a < b: games and wins together
    rivals = {}  # (player, rival): games, wins, losses, ties
    for f in facts:
        for team in f["teams"]:
            for pid in team["players"]:
                p = people.setdefault(
                    pid,
                    {
                        "id": pid,
                        "name": names[pid],
                        "games": 0,
                        "wins": 0,
                        "run": 0,
                        "longest_run": 0,
                        "nights": set(),
                        "best_round": None,
                        "months": {},
                        "game_ids": set(),
                    },
                )
                p["games"] += 1
                p["game_ids"].add(f["game_id"])
                p["wins"] += team["won"]
                p["run"] = p["run"] + 1 if team["won"] else 0
                p["longest_run"] = max(p["longest_run"], p["run"])
                p["nights"].add(f["night"])
                month = f["night"][:7]
                p["months"][month] = p["months"].get(month, 0) + 1
            for pid in team["players"]:
                for mate in team["players"]:
                    if pid < mate:
                        pair = pairs.setdefault((pid, mate), [0, 0])
                        pair[0] += 1
                        pair[1] += team["won"]
            for other in f["teams"]:
                if other is team:
                    continue
                for pid in team["players"]:
                    for rival in other["players"]:
                        r = rivals.setdefault((pid, rival), [0, 0, 0, 0])
                        r[0] += 1
                        r[
                            1
                            if team["total"] > other["total"]
                            else 2
                            if team["total"] < other["total"]
                            else 3
                        ] += 1
    # each player's best round: the highest round score of their team in a game (records' facts)
    since, until = _span(year)
    for pid, best, game_id, night in db.execute(
        """SELECT pg.player_id, pg.best_round, pg.game_id, r.night FROM player_games pg
           JOIN game_records r ON r.game_id = pg.game_id
           WHERE r.night >= ? AND r.night < ? AND pg.best_round IS NOT NULL
           ORDER BY pg.best_round DESC, r.played_at, pg.game_id""",
        [since, until],
    ):
        p = people.get(pid)
        if p is not None and p["best_round"] is None:
            p["best_round"] = {"value": best, "game_id": game_id, "night": night}
    result = []
    for p in people.values():
        low, high = interval(p["wins"], p["games"])
        partners = sorted(
            (
                {
                    "id": b if a == p["id"] else a,
                    "name": names[b if a == p["id"] else a],
                    "games": g,
                    "wins": w,
                }
                for (a, b), (g, w) in pairs.items()
                if p["id"] in (a, b) and w > 0
            ),
            key=ratings.surest_first,
        )
        # the toughest opponent: the surest share of games lost to them (as a best partner is
        # the surest share won), then more games, then name
        opponents = sorted(
            (
                {"id": rival, "name": names[rival], "games": g, "wins": lost, "won": w, "lost": lost}
                for (pid, rival), (g, w, lost, _tied) in rivals.items()
                if pid == p["id"] and lost > 0
            ),
            key=ratings.surest_first,
        )
        rated = [
            (entry["played_at"], entry["ordinal"])
            for entry in ratings.history(db, p["id"])
            if entry["game_id"] in p["game_ids"]
        ]
        busiest = max(p["months"].items(), key=lambda m: (m[1], m[0]))
        result.append(
            {
                "id": p["id"],
                "name": p["name"],
                "games": p["games"],
                "wins": p["wins"],
                "win_rate": p["wins"] / p["games"],
                "interval": (low, high),
                "best_round": p["best_round"],
                "longest_run": p["longest_run"],
                "nights": len(p["nights"]),
                "best_partner": partners[0] if partners else None,
                "toughest": ({k: v for k, v in opponents[0].items() if k != "wins"} if opponents else None),
                "rating": _thinned(rated, RATING_POINTS),
                "busiest_month": {"month": busiest[0], "games": busiest[1]},
                "short": p["games"] <= SHORT_ENTRY_GAMES,
            }
        )
    # most games first, then most wins, then name: the family's regulars open the book
    result.sort(key=lambda p: (-p["games"], -p["wins"], p["name"].casefold()))
    return result, pairs, rivals


def _nights(review, facts):
    """Every night, oldest first: its games, who won most, its best round (value, team,
    game); by month instead (``months_of_nights``) past ``NIGHTS_LISTED``."""
    best = {}
    for f in facts:
        held = best.get(f["night"])
        if held is None or f["best_round"] > held["value"]:
            team = f["teams"][f["best_round_team"]]
            best[f["night"]] = {
                "value": f["best_round"],
                "team": team["name"],
                "game_id": f["game_id"],
                "round": f["best_round_number"],
            }
    return [
        {
            "night": n["night"],
            "month": n["month"],
            "games": n["games"],
            "winners": n["winners"],
            "most_wins": n["most_wins"],
            "best_round": best.get(n["night"]),
        }
        for n in reversed(review["nights"])
    ]


def months_of_nights(nights):
    """The nights summed up a line a month: nights, games, who won most nights (the most
    wins of a night, shared), the month's best round."""
    months = {}
    for n in nights:
        m = months.setdefault(
            n["month"], {"month": n["month"], "nights": 0, "games": 0, "top": {}, "best_round": None}
        )
        m["nights"] += 1
        m["games"] += n["games"]
        for name in n["winners"]:
            m["top"][name] = m["top"].get(name, 0) + 1
        if n["best_round"] and (
            m["best_round"] is None or n["best_round"]["value"] > m["best_round"]["value"]
        ):
            m["best_round"] = n["best_round"]
    result = []
    for m in months.values():
        most = max(m["top"].values(), default=0)
        result.append(
            {
                **{k: v for k, v in m.items() if k != "top"},
                "winners": sorted((name for name, won in m["top"].items() if won == most), key=str.casefold),
                "nights_won": most,
            }
        )
    return result


def yearbook(db, year, today=None):
    """Everything the year's book shows (see the module): a dict, or None without a game."""
    with snapshot(db):
        review = years.year_review(db, year, today)
        if not review["games"]:
            return None
        facts = _facts(db, year)
        names = dict(db.execute("SELECT id, name FROM players").fetchall())
        players, pairs, rivals = _players(db, year, facts, names)
        nights = _nights(review, facts)
        game = game_of_the_year(facts)
        household = household_game(db)
    by_games = [p for p in players if not p["short"]][:HEAD_TO_HEAD_PLAYERS]
    partnerships = sorted(
        (
            {"players": [names[a], names[b]], "name": f"{names[a]} & {names[b]}", "games": g, "wins": w}
            for (a, b), (g, w) in pairs.items()
        ),
        key=ratings.surest_first,
    )
    # who holds one of the year's records (their team did): a player's line worth telling
    holders = {}
    for rule_set in review["records"]:
        for record in rule_set["records"]:
            if record["key"] == "worst_round":
                continue  # no boast
            for holder in record["players"]:
                holders.setdefault(holder["id"], {**record, "rules_name": rule_set["rules_name"]})
    for p in players:
        p["record"] = holders.get(p["id"])
    longest = max(players, key=lambda p: p["longest_run"])
    return {
        "year": year,
        "games": review["games"],
        "nights_count": len(nights),
        "players_count": len(players),
        "game": household,
        "rules_names": sorted({f["rules_name"] for f in facts}),
        "game_of_the_year": game,
        "players": players,
        "records": review["records"],
        "busiest_night": review["busiest_night"],
        "longest_run": (
            {"value": longest["longest_run"], "name": longest["name"]} if longest["longest_run"] > 1 else None
        ),
        "nights": nights,
        "by_month": months_of_nights(nights) if len(nights) > NIGHTS_LISTED else None,
        "partnerships": partnerships[:PARTNERSHIPS_LISTED],
        "partnerships_left": max(0, len(partnerships) - PARTNERSHIPS_LISTED),
        "head_to_head": {
            "players": [{"id": p["id"], "name": p["name"]} for p in by_games],
            # (row player, column player): the row's wins, losses and ties against the column's
            "cells": {
                f"{a}-{b}": {"games": g, "wins": w, "losses": lost, "ties": t}
                for (a, b), (g, w, lost, t) in rivals.items()
                if a in {p["id"] for p in by_games} and b in {p["id"] for p in by_games}
            },
        },
        "months": review["months"],
    }
