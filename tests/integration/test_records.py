"""Records and years equal a plain computation over the exported games (demo data),
and each page's JSON is what the page shows."""

import datetime
import json
import re
import sqlite3
from collections import Counter, defaultdict

import pytest

from scorekeeper.exchange import jsonfile
from scorekeeper.services import years
from scorekeeper.services.evenings import evening

from ..helpers import built_once, text


def local_evening(stamp):
    """The evening a game was played on this computer's clock (before 6 am: the day before)."""
    moment = datetime.datetime.fromisoformat(stamp).astimezone()
    return (moment - datetime.timedelta(hours=6)).date().isoformat()


def plain_records(export):
    """Every record worked out from the export alone: {rules name: {record: (value, {uids})}}, …"""
    games = sorted(
        (g for g in export["games"] if g["finished_at"] and g["rounds"]), key=lambda g: g["played_at"]
    )
    per_rules = defaultdict(lambda: defaultdict(list))  # rules -> record -> [(value, uid)]
    for g in games:
        scores = [r["scores"] for r in g["rounds"]]
        books = [[sum(e["books"].values()) for e in r["entries"]] for r in g["rounds"]]
        running, totals = [], [0] * len(g["teams"])
        for s in scores:
            totals = [t + x for t, x in zip(totals, s)]
            running.append(totals)
        top = max(totals)
        winners = [i for i, t in enumerate(totals) if t == top]
        rec = per_rules[g["rules"]["name"]]
        rec["high_total"].append((top, g["uid"]))
        rec["best_round"].append((max(max(s) for s in scores), g["uid"]))
        rec["worst_round"].append((min(min(s) for s in scores), g["uid"]))
        if max(max(b) for b in books) > 0:
            rec["most_books"].append((max(max(b) for b in books), g["uid"]))
        others = [t for t in totals if t != top]
        if others and top - max(others) > 0:
            rec["margin"].append((top - max(others), g["uid"]))
        comeback = max(max(after) - after[w] for after in running for w in winners)
        if comeback > 0:
            rec["comeback"].append((comeback, g["uid"]))
    result = {}
    for rules, records in per_rules.items():
        result[rules] = {}
        for key, values in records.items():
            best = min(v for v, _ in values) if key == "worst_round" else max(v for v, _ in values)
            result[rules][key] = (best, {uid for v, uid in values if v == best})
    # streaks, in the order played
    streak, longest = Counter(), (0, set())
    pair_streak, pair_longest = Counter(), (0, set())
    for g in games:
        totals = [sum(r["scores"][t] for r in g["rounds"]) for t in range(len(g["teams"]))]
        for t, team in enumerate(g["teams"]):
            won = totals[t] == max(totals)
            for p in team["players"]:
                streak[p] = streak[p] + 1 if won else 0
                if streak[p] > longest[0]:
                    longest = (streak[p], {(p, g["uid"])})
                elif streak[p] == longest[0] and won:
                    longest[1].add((p, g["uid"]))
            members = sorted(team["players"])
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    pair_streak[(a, b)] = pair_streak[(a, b)] + 1 if won else 0
                    if pair_streak[(a, b)] > pair_longest[0]:
                        pair_longest = (pair_streak[(a, b)], {((a, b), g["uid"])})
                    elif pair_streak[(a, b)] == pair_longest[0] and won:
                        pair_longest[1].add(((a, b), g["uid"]))
    evenings = Counter(local_evening(g["played_at"]) for g in games)
    return result, longest, pair_longest, evenings, games


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory):
    """150 demo games and a few evenings of several games, made once for the run
    (``built_once``: the test processes share it; 3 s a test when each made its own): the
    database file, its export, its games' uids by id."""

    def build(folder):
        from scorekeeper import create_app
        from scorekeeper.storage.db import connect

        from ..httpkit import checkpoint, migrated

        database = migrated(folder / "demo.db")
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("SCOREKEEPER_INSTANCE_PATH", str(folder / "instance"))
            runner = create_app({"TESTING": True, "DATABASE": str(database)}).test_cli_runner()
            assert runner.invoke(args=["demo-data", "--games", "150", "--seed", "8"]).exit_code == 0
            db = connect(str(database))
            try:
                # a few evenings with several games, so the busiest evening is a record worth the name
                db.execute("BEGIN IMMEDIATE")
                moved = db.execute(
                    "SELECT id, played_at FROM games ORDER BY id LIMIT 12 OFFSET 20"
                ).fetchall()
                for n, (game_id, _) in enumerate(moved):
                    stamp = f"2025-0{1 + n % 3}-1{n % 3}T1{n % 5}:00:00+00:00"
                    db.execute(
                        "UPDATE games SET played_at = ?, night = ? WHERE id = ?",
                        [stamp, evening(stamp), game_id],
                    )
                db.execute("COMMIT")
                assert runner.invoke(args=["recompute-scores"]).exit_code == 0
                export = json.loads("".join(jsonfile.iter_history_json(db)))
                uids = db.execute("SELECT id, uid FROM games").fetchall()
            finally:
                db.close()
        checkpoint(database)
        return str(database), export, uids

    path, export, uids = built_once(tmp_path_factory, "records-demo", build)
    return path, export, dict(uids)


@pytest.fixture
def demo(demo_file, db):
    """The app's database made ``demo_file``'s (SQLite's backup, through the app's own
    file): its export and its games' uids by id."""
    path, export, uids = demo_file
    source = sqlite3.connect(path)
    try:
        source.backup(db.conn)
    finally:
        source.close()
    return export, uids


def test_each_record_equals_a_plain_computation_over_the_export(client, demo):
    export, uids = demo
    per_rules, longest, pair_longest, evenings, _ = plain_records(export)
    data = client.get("/records.json").get_json()
    assert {r["rules_name"] for r in data["rule_sets"]} == set(per_rules)
    checked = 0
    for rule_set in data["rule_sets"]:
        expected = per_rules[rule_set["rules_name"]]
        assert {r["key"] for r in rule_set["records"]} == set(expected)
        for record in rule_set["records"]:
            value, holders = expected[record["key"]]
            assert record["value"] == value, (rule_set["rules_name"], record["key"])
            assert uids[record["game_id"]] in holders
            checked += 1
    assert checked >= 20
    player = data["streaks"]["player"]
    assert player["value"] == longest[0]
    assert (player["players"][0]["name"], uids[player["game_id"]]) in longest[1]
    pair = data["streaks"]["partnership"]
    assert pair["value"] == pair_longest[0]
    names = tuple(sorted(p["name"] for p in pair["players"]))
    assert (names, uids[pair["game_id"]]) in pair_longest[1]
    night = data["busiest_night"]
    assert night["games"] == max(evenings.values()) >= 4
    assert evenings[night["night"]] == night["games"]


def test_the_records_page_shows_what_its_json_holds(client, demo):
    data = client.get("/records.json").get_json()
    page = text(client.get("/records"))
    for rule_set in data["rule_sets"]:
        section = page[page.index(f">{rule_set['rules_name']}</h2>") :]
        for record in rule_set["records"]:
            value = f"{abs(record['value']):,}"
            value = "−" + value if record["value"] < 0 else value
            link = rf'href="/games/{record["game_id"]}">\s*'
            shown = rf'<strong>{record["label"]}: <span class="num">{value}</span>'
            assert re.search(link + shown, section), (rule_set["rules_name"], record["key"])
    player = data["streaks"]["player"]
    link = rf'href="/games/{player["game_id"]}">\s*'
    assert re.search(
        link + rf'<strong>Longest winning streak: <span class="num">{player["value"]}</span>', page
    )
    assert f'Most games in one evening: <span class="num">{data["busiest_night"]["games"]}</span>' in page


def test_a_year_equals_a_plain_computation_and_its_page_shows_it(client, demo):
    export, _ = demo
    *_, evenings, games = plain_records(export)
    year = max(int(night[:4]) for night in evenings)
    data = client.get(f"/years/{year}.json").get_json()
    in_year = [g for g in games if local_evening(g["played_at"]).startswith(str(year))]
    assert data["games"] == len(in_year)
    assert len(data["nights"]) == len({local_evening(g["played_at"]) for g in in_year})
    per_night = Counter(local_evening(g["played_at"]) for g in in_year)
    assert {n["night"]: n["games"] for n in data["nights"]} == dict(per_night)
    busiest = max(data["nights"], key=lambda n: n["games"])
    night_wins = Counter()
    for g in in_year:
        if local_evening(g["played_at"]) == busiest["night"]:
            totals = [sum(r["scores"][t] for r in g["rounds"]) for t in range(len(g["teams"]))]
            for t, team in enumerate(g["teams"]):
                night_wins.update({p: int(totals[t] == max(totals)) for p in team["players"]})
    assert sorted(busiest["players"]) == sorted(night_wins)
    top = max(night_wins.values())
    assert busiest["most_wins"] == top and sorted(busiest["winners"]) == sorted(
        p for p, w in night_wins.items() if w == top
    )
    months = Counter(int(local_evening(g["played_at"])[5:7]) for g in in_year)
    # from its first month with a game to the last month begun (the demo's latest games
    # are this month's): none still to come
    today = local_evening(datetime.datetime.now(datetime.UTC).isoformat())
    last = 12 if year < int(today[:4]) else max(int(today[5:7]), max(months))
    assert [m["month"] for m in data["months"]] == [f"{year}-{m:02d}" for m in range(min(months), last + 1)]
    assert [m["games"] for m in data["months"]] == [months[m] for m in range(min(months), last + 1)]
    wins = Counter()
    for g in in_year:
        totals = [sum(r["scores"][t] for r in g["rounds"]) for t in range(len(g["teams"]))]
        for t, team in enumerate(g["teams"]):
            wins.update({p: int(totals[t] == max(totals)) for p in team["players"]})
    assert {p["name"]: p["wins"] for p in data["most_wins"]} == dict(wins)
    assert data["most_wins"][0]["wins"] == max(wins.values())
    page = text(client.get(f"/years/{year}"))
    assert f"<h1>{year} at the table</h1>" in page
    assert f"<dt>Games</dt><dd>{data['games']:,}</dd>" in page
    assert f"<dt>Game nights</dt><dd>{len(data['nights']):,}</dd>" in page
    for m in data["months"]:
        assert f'<th scope="row">{m["month"]}</th><td>{m["games"]}</td>' in page
    best = data["best_partnership"]
    if best:
        assert (
            f'won <span class="num">{best["wins"]}</span> of <span class="num">{best["games"]}</span>' in page
        )
    for rule_set in data["records"]:
        for record in rule_set["records"]:
            assert f'href="/games/{record["game_id"]}"' in page
    assert client.get("/years/1990").status_code == 200
    assert "No finished games in 1990." in text(client.get("/years/1990"))
    assert client.get("/years/0").status_code == 404
    assert client.get("/years/10000.json").status_code == 404


@pytest.mark.parametrize(
    "year, played, today, shown",
    [
        (2026, [3, 5], "2026-11-26", list(range(3, 12))),  # this year: up to this month
        (2025, [2], "2026-11-26", list(range(2, 13))),  # a past year: to December
        (2027, [1, 4], "2026-11-26", [1, 2, 3, 4]),  # games dated ahead: to the last
        (2026, [], "2026-11-26", []),
    ],
)
def test_the_months_a_year_draws_none_still_to_come(year, played, today, shown):
    assert list(years.months_shown(year, played, today)) == shown
