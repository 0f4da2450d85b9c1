"""Demo data: ``flask --app scorekeeper demo-data --games N [--seed S]`` (see cli/data.py).

Fills the database with a family's worth of realistic games, for trying the
history pages and for ``make bench`` (100,000 games in a few minutes).

Speed without a second scorer: a game is generated whole in memory, scored
by the engine (``scoring.standings``, which calls ``score_team_round`` for
every entry), and its rows are bulk-inserted, a batch of games per
transaction. It never goes through the services' ``add_round`` (one load
per round would take hours at 100,000 games), but every stored
``round_entries.score`` is still the engine's, exactly as ``add_round``
would have written it, and so are the players' summaries (``summaries.rows_for``
of each game, as ``add_round`` would refresh them); ``flask --app scorekeeper
recompute-scores`` leaves them all unchanged.

Ids are handed out here (max id + 1) inside each batch's transaction, after a
no-op write has taken SQLite's write lock, so a phone saving a round at the
same time cannot take the same ids.
"""

from __future__ import annotations

import datetime
import json
import random
import uuid

from .. import scoring
from ..scoring import RULESETS, TeamRound
from ..scoring.language import N_
from ..services import change_log, changes, game_model, records, seating, summaries
from ..services.changes import INSERT_ENTRY
from ..services.evenings import evening
from ..services.players import Player, player_id
from ..storage.db import transaction

# what a demo game's one change-log line says, worded in each reader's language
DEMO_SAID = json.dumps(change_log.said(N_("Demo game made by demo-data.")))

FAMILY = ("Grandma Jo", "Grandpa Walt", "Ann", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jack")
# how often a family picks each preset (the tablet game and Roth's are the favourites)
PRESET_WEIGHTS = {"tablet": 4, "roth": 3, "friends-family": 2, "partnership": 2, "forfeit": 1}
BATCH = 1_000  # games per transaction
MAX_ROUNDS = 25  # a Roth game nobody finishes is ended by hand here
IN_PROGRESS = 0.01  # games the family stopped partway and never ended
HOLIDAY = 0.08  # nights of several tables, started as an evening, partners changed each game


def _stamp(moment):
    return moment.isoformat(timespec="seconds")


class _Ids:
    """The next free id of each table, read inside the batch's transaction."""

    def __init__(self, db):
        self.next = {}
        for table in ("games", "teams", "rounds", "revisions"):
            (top,) = db.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}").fetchone()
            self.next[table] = top + 1

    def take(self, table):
        value = self.next[table]
        self.next[table] += 1
        return value


def _entry(rng, rules, number, out):
    """One team's realistic round: books, melded points that hold them, a few 3s."""
    needed = scoring.books_to_go_out(rules, number) or {"clean": 1, "dirty": 1}
    if out:
        books = {kind: needed.get(kind, 0) + rng.choice((0, 0, 1, 1, 2)) for kind in ("clean", "dirty")}
    else:
        books = {kind: rng.randint(0, needed.get(kind, 1)) for kind in ("clean", "dirty")}
    first_meld = scoring.first_meld_books(rules, number) or {}
    # a team's first meld holds the books its round asks for (and it ticks so)
    books = {kind: max(count, first_meld.get(kind, 0)) for kind, count in books.items()}
    books = {kind: count for kind, count in books.items() if count}
    # the books' cards, then a few more melds; the engine counts the points
    melded = scoring.least_meld_points(rules, books) + scoring.card_points(
        rules, {"K": rng.randint(3, 10 + 4 * sum(books.values())), "4": rng.randint(0, 12)}
    )
    left = (
        {}
        if out
        else {
            "joker": rng.choices((0, 1), (85, 15))[0],
            "A": rng.randint(0, 3),
            "K": rng.randint(0, 10),
            "7": rng.randint(0, 12),
        }
    )
    return TeamRound(
        books=books,
        melded_points=melded,
        unplayed_points=scoring.card_points(rules, left),
        red_threes=rng.choices((0, 1, 2), (85, 13, 2))[0],
        black_threes=0 if out else rng.choices((0, 1, 2), (80, 15, 5))[0],
        went_out=out,
        cuts=int(bool(rules.cut_22) and rng.random() < 0.1),
        penalties=int(bool(rules.penalty) and rng.random() < 0.03),
        first_meld_books=bool(first_meld),
    )


def _game(rng, family, teams=None, key=None):
    """(preset key, rules, teams as lists of player ids, rounds, ended by hand); ``teams``
    and ``key`` when an evening seated them."""
    key = key or rng.choices(list(PRESET_WEIGHTS), list(PRESET_WEIGHTS.values()))[0]
    rules = RULESETS[key]
    while teams is None:  # teams of equal size, as families deal them
        team_count, size = rng.randint(2, 4), rng.randint(1, 3)
        if team_count * size <= len(family):
            seated = rng.sample(family, team_count * size)
            teams = [seated[i * size : (i + 1) * size] for i in range(team_count)]
    team_count = len(teams)
    if rules.planned_rounds:
        planned = rules.planned_rounds
    elif rules.target_score:
        planned = MAX_ROUNDS
    else:  # partnership: play until the table stops
        planned = rng.randint(3, 8)
    rounds = []
    for number in range(1, planned + 1):
        out = rng.randrange(team_count) if rng.random() < 0.95 else None
        rounds.append([_entry(rng, rules, number, i == out) for i in range(team_count)])
    # the engine says when the rules end the game; past MAX_ROUNDS the table ends it
    ended_after = scoring.standings(rules, rounds).ended_after
    rounds = rounds[: ended_after or len(rounds)]
    ended = ended_after is None
    if rng.random() < IN_PROGRESS:  # stopped partway, never ended
        rounds = rounds[: rng.randint(1, len(rounds))]
        ended = False
    return key, rules, teams, rounds, ended


def _even(teams):
    return [1 / len(teams)] * len(teams)


def _schedule(rng, family, count, start, step):
    """When each game starts and, for a game of an evening of several tables, its seat:
    [(start, teams or None, preset key or None, (night, sitting, table) or None)].

    Most nights are one table and one to three games; some (``HOLIDAY``) are an
    evening of two or three tables of four, two or three games long, partners changed
    from game to game (``seating.arrange``, avoiding tonight's partners)."""
    plan, nights = [], set()  # a night holds one evening at most
    while len(plan) < count:
        day = (start + step * len(plan)).astimezone()
        evening_start = day.replace(hour=19, minute=0, second=0, microsecond=0).astimezone(datetime.UTC)
        tables = 3 if len(family) >= 12 and rng.random() < 0.5 else 2
        sittings = rng.randint(2, 3)
        night = evening(_stamp(evening_start))
        holiday = rng.random() < HOLIDAY and len(family) >= 8
        if holiday and night not in nights and len(plan) + tables * sittings <= count:
            nights.add(night)
            people = rng.sample(family, 4 * tables)
            key = rng.choice(["tablet", "roth", "partnership"])
            partnered = set()
            for sitting in range(1, sittings + 1):
                proposal = seating.arrange(
                    people, [[2, 2]] * tables, _even, avoid=partnered, seed=rng.randrange(1000)
                )
                for number, teams in enumerate(proposal.tables, start=1):
                    partnered |= {pair for team in teams for pair in seating.pairs_of(team)}
                    began = evening_start + datetime.timedelta(minutes=100 * (sitting - 1) + number)
                    plan.append((began, [list(team) for team in teams], key, (night, sitting, number)))
        else:
            for game in range(rng.randint(1, 3)):
                began = evening_start + datetime.timedelta(minutes=90 * game + rng.randint(0, 30))
                plan.append((began, None, None, None))
    return plan[:count]


def _family(db, rng):
    """8-12 family members: their player ids (added when new)."""
    return [player_id(db, name) for name in rng.sample(FAMILY, rng.randint(8, 12))]


def generate(db, count, seed=None, *, now=None, span=None, progress=None):
    """Add ``count`` generated games; return how many rounds they hold.

    Games are spread over ``span`` (a timedelta; by default two days a game, up
    to five years) before ``now``, oldest first, a batch of ``BATCH`` games per
    transaction.

    :param progress: called as ``progress(games done, count)`` as they are made.
    """
    rng = random.Random(seed)
    now = now or datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    with transaction(db):
        family = _family(db, rng)
    names = dict(db.execute("SELECT id, name FROM players").fetchall())
    span = span or min(datetime.timedelta(days=2) * count, datetime.timedelta(days=5 * 365))
    start = now - span
    step = span / max(count, 1)
    plan = _schedule(rng, family, count, start, step)
    # a night that already has an evening (demo-data run again): its games come after those
    earlier = dict(db.execute("SELECT night, MAX(sitting) FROM evening_games GROUP BY night").fetchall())
    rules_json = {key: rules.to_json() for key, rules in RULESETS.items()}
    made = rounds_made = 0
    while made < count:
        batch = min(BATCH, count - made)
        rows = {
            "games": [],
            "teams": [],
            "team_players": [],
            "rounds": [],
            "revisions": [],
            "evening_games": [],
        }
        evenings = {}
        entry_values, summary_rows, record_rows = [], [], []
        with transaction(db):  # BEGIN IMMEDIATE: the ids below stay ours
            ids = _Ids(db)
            for i in range(made, made + batch):
                began, seated, preset, seat = plan[i]
                key, rules, teams, rounds, ended = _game(rng, family, seated, preset)
                result = scoring.standings(rules, rounds, teams=len(teams), ended=ended)
                finished = began + datetime.timedelta(minutes=20 * len(rounds) + rng.randint(0, 30))
                game_id = ids.take("games")
                if seat is not None:
                    night, sitting, table = seat
                    evenings.setdefault(night, {"night": night, "mode": "rotate", "rules_key": key})
                    evenings[night].setdefault("created_at", _stamp(began))
                    sitting += earlier.get(night, 0)
                    rows["evening_games"].append(
                        {"game_id": game_id, "night": night, "sitting": sitting, "table_number": table}
                    )
                rows["games"].append(
                    {
                        "id": game_id,
                        "uid": uuid.uuid4().hex,
                        "rules": rules_json[key],
                        "rules_key": key,
                        "rules_name": rules.name,
                        "first_dealer": teams[0][0],
                        "ended_by_hand": int(ended),
                        "finished_at": _stamp(finished) if result.finished else None,
                        "created_at": _stamp(began),
                        "played_at": _stamp(began),
                        "night": evening(_stamp(began)),
                        "updated_at": _stamp(finished),
                        "revision": 0,
                    }
                )
                rows["revisions"].append(
                    {
                        "id": ids.take("revisions"),
                        "game_id": game_id,
                        "revision": 0,
                        "round_number": None,
                        "action": "started",
                        "summary": "Demo game made by demo-data.",
                        # worded in each reader's language (services/change_log.py)
                        "said": DEMO_SAID,
                        "before": None,
                        "after": None,
                        "created_at": _stamp(began),
                    }
                )
                team_ids, round_ids = [], []
                for position, players in enumerate(teams):
                    team_id = ids.take("teams")
                    team_ids.append(team_id)
                    rows["teams"].append(
                        {
                            "id": team_id,
                            "game_id": game_id,
                            "position": position,
                            "total": result.totals[position],
                            "won": int(position in result.verdict.winners),
                            "name": " & ".join(names[p] for p in players),
                        }
                    )
                    rows["team_players"] += [
                        {"team_id": team_id, "player_id": player, "position": seat}
                        for seat, player in enumerate(players)
                    ]
                for number, (entries, scores) in enumerate(zip(rounds, result.round_scores), start=1):
                    round_id = ids.take("rounds")
                    round_ids.append(round_id)
                    stamp = _stamp(began + datetime.timedelta(minutes=20 * number))
                    rows["rounds"].append(
                        {
                            "id": round_id,
                            "game_id": game_id,
                            "number": number,
                            "created_at": stamp,
                            "updated_at": stamp,
                        }
                    )
                    entry_values += changes.entry_rows(round_id, team_ids, entries, scores)
                rounds_made += len(rounds)
                if progress:
                    progress(i + 1, count)
                game = rows["games"][-1]
                made_game = game_model.Game(
                    id=game_id,
                    uid=game["uid"],
                    rules=rules,
                    rules_key=key,
                    teams=tuple(
                        game_model.Team(team_id, position, "", tuple(Player(p, names[p]) for p in players))
                        for position, (team_id, players) in enumerate(zip(team_ids, teams))
                    ),
                    rounds=tuple(
                        game_model.Round(round_id, number, tuple(entries))
                        for number, (round_id, entries) in enumerate(zip(round_ids, rounds), start=1)
                    ),
                    first_dealer=game["first_dealer"],
                    ended_by_hand=ended,
                    finished_at=game["finished_at"],
                    created_at=game["created_at"],
                    updated_at=game["updated_at"],
                    revision=0,
                    played_at=game["played_at"],
                    night=game["night"],
                )
                summary_rows += summaries.rows_for(made_game, result)
                record_rows.append(records.facts_of(made_game, result))
            db.conn.executemany(
                "INSERT OR IGNORE INTO evenings (night, mode, rules_key, created_at) VALUES (?, ?, ?, ?)",
                [(e["night"], e["mode"], e["rules_key"], e["created_at"]) for e in evenings.values()],
            )
            for table, table_rows in rows.items():
                db[table].insert_all(table_rows, batch_size=500)
            db.conn.executemany(INSERT_ENTRY, entry_values)
            summaries.add_new(db, summary_rows)
            records.add_new(db, record_rows)
        made += batch
    return rounds_made
