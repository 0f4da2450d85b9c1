"""What reading an import costs (issue 53): the peak memory a file adds, and the time,
for hostile files and for a family's real history of the same size.

Each file is read in a process of its own, as the import page reads it: a history export
by ``importer.check_file`` (what is done before anything is written), a spreadsheet of past
games by ``pastgames.read_past_games``. The figure is the process's peak resident memory
(VmHWM, set back to the resident memory just before, the file's bytes already held) less
the resident memory before, and the wall time.

Run: ``python bench/imports.py`` (``--size 8`` MB, the default, or e.g. ``--size 64``;
``--only json`` or ``csv``). Nothing here is a test: the figures go to the terminal and
docs/SECURITY.md ("Imports bounded while they are read").
"""

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common

MB = 1024 * 1024
#: the most games a spreadsheet of past games may hold (``limits.MAX_PAST_GAMES``, issue 53)
PAST_GAMES = 10_000


def _fill(head, item, tail, size, separator=","):
    """``head`` + ``item`` repeated (joined by ``separator``) + ``tail``, about ``size`` bytes."""
    count = max(1, (size - len(head) - len(tail)) // (len(item) + len(separator)))
    return (head + separator.join([item] * count) + tail).encode()


def _export_head(**members):
    return json.dumps(
        {"format": "scorekeeper-history", "version": 4, "players": [], "house_rules": [], **members}
    )


def hostile_json(size):
    """{name: bytes}: history exports made to grow in memory."""
    head = _export_head()[:-1]  # without its closing brace
    from scorekeeper.scoring import RULESETS

    rules = json.dumps(RULESETS["tablet"].to_dict())
    game = (
        '{"uid": "g", "created_at": "2020-01-01T00:00:00+00:00", "finished_at": null, '
        '"ended_by_hand": false, '
        f'"rules_key": null, "rules": {rules}, "first_dealer": null, '
        '"teams": [{"name": "", "players": ["A"]}, {"name": "", "players": ["B"]}], "rounds": ['
    )
    return {
        "[{},{},…] (empty objects)": _fill("[", "{}", "]", size),
        "games: [{},{},…]": _fill(head + ', "games": [', "{}", "]}", size),
        "players: [[],[],…] (empty lists)": _fill('{"players": [', "[]", "]}", size),
        'players: ["ab",…] (short texts)': _fill('{"players": [', '"ab"', "]}", size),
        "one game: rounds [[],[],…]": _fill(head + ', "games": [' + game, "[]", "]}]}", size),
        "one game: rounds of empty entries": _fill(
            head + ', "games": [' + game, '{"number": 1, "entries": [{}, {}]}', "]}]}", size
        ),
        "games of 999 rounds of empty entries": _games(size, lambda n: [{}, {}], 999),
        "games of 999 rounds, 6 teams, entries all unlike": _games(
            size,
            lambda n: [
                {"melded_points": 5 * ((n * 6 + t) % 20_000), "unplayed_points": 5 * ((n * 6 + t) // 20_000)}
                for t in range(6)
            ],
            999,
        ),
        "games of one round each": _games(size, lambda n: [{}, {}], 1),
        "an object of a million keys": (
            '{"x": {' + ",".join(f'"{i:x}":0' for i in range(size // 9)) + "}}"
        ).encode(),
    }


def _games(size, entries, rounds):
    """An export of games, each ``rounds`` rounds of ``entries(n)`` (the nth round of the
    file), as many as fit in ``size`` bytes: valid, and as short as a game can be."""
    from scorekeeper.scoring import RULESETS

    rules = json.dumps(RULESETS["tablet"].to_dict())
    parts, total, n, g = [], 0, 0, 0
    while total < size:
        teams = len(entries(n))
        played = []
        for number in range(1, rounds + 1):
            played.append(json.dumps({"number": number, "entries": entries(n)}, separators=(",", ":")))
            n += 1
        game = (
            f'{{"uid":"g{g}","created_at":"2020-01-01T00:00:00+00:00","finished_at":null,"ended_by_hand":true,'
            f'"rules_key":null,"rules":{rules},"first_dealer":null,"teams":['
            + ",".join(f'{{"name":"","players":["P{t}"]}}' for t in range(teams))
            + '],"rounds":['
            + ",".join(played)
            + "]}"
        )
        parts.append(game)
        total += len(game) + 1
        g += 1
    return (_export_head()[:-1] + ', "games": [' + ",\n".join(parts) + "]}").encode()


def hostile_csv(size):
    """{name: bytes}: spreadsheets of past games made to grow in memory."""
    header = "date,game,players," + ",".join(f"round {i}" for i in range(1, 100_001)) + "\n"
    row = "2019-12-24,1,Ann & Bo" + ",5" * 100_000 + "\n"
    columns = header + row * max(1, (size - len(header)) // len(row))
    cell = 'date,game,players,round 1\n2019-12-24,1,"' + "x" * (size - 60) + '",5\n'
    tiny = "date,game,players\n" + "1,1,1\n" * ((size - 20) // 6)
    unlike = "date,game,players," + ",".join(f"round {i}" for i in range(1, 254)) + "\n"
    n = 0
    while len(unlike) < size:
        n += 1
        unlike += (
            f"2019-12-24,g{n // 6},P{n % 6}," + ",".join(str(5 * (n * 253 + i)) for i in range(253)) + "\n"
        )
    wrong = "date,game,players,round 1\n" + "".join(
        f"2019-12-24,g{g},{team},x\n" for g in range(PAST_GAMES) for team in ("Ann & Bo", "Cy & Di")
    )
    return {
        "100,000 columns": columns.encode(),
        "253 round columns of unlike scores": unlike.encode(),
        "every line wrong, 10,000 games": wrong.encode(),
        "252 rounds of 5 points, two teams a game": _wide_games(size),
        "one enormous cell": cell.encode(),
        "millions of tiny lines": tiny.encode(),
        "tiny lines, a round column each": (
            "date,game,players,1\n" + "1,1,1,1\n" * ((size - 20) // 8)
        ).encode(),
    }


def legit_json(folder, size):
    """A real family's history (demo games) exported, about ``size`` bytes."""
    games = max(50, size // 4_000)  # a demo game exports to 3-5 KB
    path, _seconds = common.demo_database(folder, games, os.environ)
    from scorekeeper.exchange import jsonfile
    from scorekeeper.storage.db import connect

    db = connect(path)
    try:
        text = "".join(jsonfile.iter_history_json(db))
    finally:
        db.close()
    return {f"a real history: {games:,} demo games (export)": text.encode()}


RULES = "Canasta (classic)"


def _wide_games(size):
    """Games of 252 rounds of 5 points each under rules no round ends (Canasta, to 5,000),
    as many as fit in ``size`` bytes."""
    lines = ["date,game,players,rules," + ",".join(f"round {i}" for i in range(1, 253)) + "\n"]
    row = "," + ",".join(["5"] * 252) + "\n"
    total, g = len(lines[0]), 0
    while total < size:
        g += 1
        lines += [f"2019-12-24,g{g},Ann{g},{RULES}{row}", f"2019-12-24,g{g},Bo{g},{RULES}{row}"]
        total += len(lines[-1]) * 2
    return "".join(lines).encode()


def legit_csv(folder, size):
    """Years of a family's paper sheets, scores alone: the most games a file may hold
    (``PAST_GAMES``); and the app's own CSV export of a demo history, about ``size``
    bytes, a line per team and round."""
    import random

    rnd = random.Random(53)
    names = ["Ann", "Bo", "Cy", "Di", "Eve", "Flo"]
    lines = ["Date,Game,Players,Round 1,Round 2,Round 3,Round 4"]
    g = 0
    while g < PAST_GAMES:
        year, month, day = 2000 + g // 500, 1 + g % 12, 1 + g % 28
        pairs = rnd.sample(names, 4)
        for team in (pairs[:2], pairs[2:]):
            scores = [str(rnd.randrange(-60, 900) * 5) for _ in range(4)]
            line = ",".join([f"{year}-{month:02d}-{day:02d}", f"g{g + 1}", " & ".join(team), *scores])
            lines.append(line)
        g += 1
    games = max(50, size // 2_000)  # a demo game is 1-2 KB of the CSV export
    path, _seconds = common.demo_database(folder, games, os.environ)
    from scorekeeper.exchange import csvfile
    from scorekeeper.storage.db import connect

    db = connect(path)
    try:
        export = "".join(csvfile.iter_csv(db))
    finally:
        db.close()
    # the same games a line a game, as a family keeps them (issue 54): a game's number starts
    # again each night (a day comes back every 84 games of a year: its next number), the days in
    # two styles
    by_game = ["Date,Game,Team 1,Team 2,Team 1 score,Team 2 score"]
    for n, (first, second) in enumerate(zip(lines[1::2], lines[2::2])):
        day, _label, team, *scores = first.split(",")
        _day, _label, other, *others = second.split(",")
        written = day if n % 2 else "/".join(reversed(day.split("-")))
        by_game.append(
            ",".join(
                [
                    written,
                    str(1 + n // 84 % 7),
                    team,
                    other,
                    str(sum(map(int, scores))),
                    str(sum(map(int, others))),
                ]
            )
        )
    return {
        f"a real spreadsheet: {g:,} games, scores alone": ("\n".join(lines) + "\n").encode(),
        f"a real spreadsheet: {g:,} games, a line a game": ("\n".join(by_game) + "\n").encode(),
        f"the app's CSV export of {games:,} demo games": export.encode(),
    }


def _resident(name):
    """This process's resident memory (VmRSS) or its peak (VmHWM), in bytes. Not
    ``ru_maxrss``: Linux keeps it across exec, so a child would report its parent's peak."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith(name + ":"))


def measure(kind, path):
    """In this process: read the file as the import page does; print one JSON line."""
    import gc

    with open(path, "rb") as file:
        content = file.read()
    from scorekeeper.exchange import collector_paused, importer, pastgames
    from scorekeeper.names import name_key
    from scorekeeper.scoring import RULESETS

    gc.collect()
    before = _resident("VmRSS")
    with open("/proc/self/clear_refs", "w") as file:
        file.write("5")  # the peak (VmHWM) starts again from here
    start = time.perf_counter()
    outcome = "read"
    with collector_paused():
        try:
            if kind == "json":
                _players, _rules, checked = importer.check_file(content)
                outcome = f"accepted: {len(checked):,} games"
            else:
                by_name = {name_key(rules.name): (key, rules) for key, rules in RULESETS.items()}
                preview = pastgames.read_past_games(
                    content, by_name, ("friends-family", RULESETS["friends-family"]), "auto"
                )
                outcome = f"accepted: {len(preview.games):,} games"
        except ValueError as error:
            outcome = "refused: " + str(error)
    seconds = time.perf_counter() - start
    after = _resident("VmHWM")
    print(json.dumps({"added": after - before, "seconds": seconds, "outcome": outcome}))


def run(kind, name, content, folder):
    path = os.path.join(folder, "file")
    with open(path, "wb") as file:
        file.write(content)
    result = subprocess.run(
        [sys.executable, __file__, "--measure", kind, path], capture_output=True, text=True, check=True
    )
    figures = json.loads(result.stdout.splitlines()[-1])
    added, size = figures["added"], len(content)
    outcome = figures["outcome"]
    outcome = outcome if len(outcome) <= 110 else outcome[:107] + "…"
    print(
        f"{kind:<4} {name:<44} {size / MB:>6.1f} MB {added / MB:>8.1f} MB {added / size:>6.1f}× "
        f"{figures['seconds']:>7.2f} s  {outcome}",
        flush=True,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=float, default=8, help="each file's size in MB")
    parser.add_argument("--only", choices=["json", "csv"])
    parser.add_argument("--measure", nargs=2, metavar=("KIND", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(*args.measure)
        return
    size = int(args.size * MB)
    print(f"{'':<4} {'file':<44} {'size':>9} {'added':>11} {'÷ size':>7} {'time':>9}  outcome")
    with common.folder("bench-imports-") as folder:
        if args.only != "csv":
            for name, content in {**hostile_json(size), **legit_json(folder, size)}.items():
                run("json", name, content, folder)
        if args.only != "json":
            for name, content in {**hostile_csv(size), **legit_csv(folder, size)}.items():
                run("csv", name, content, folder)


if __name__ == "__main__":
    main()
