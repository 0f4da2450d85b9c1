"""The fuzz's numbers for the whole run: requests sent, statuses, problems found.

tests/integration/test_fuzz.py counts in each test process; with `make test` its tests
are spread over several processes (pytest-xdist). Each process hands its counts over
when its fuzz tests end (``hand_over``): a worker through xdist's ``workeroutput``, which
reaches the main process when the worker stops; a run without workers keeps them in the
config. tests/conftest.py adds them up at the end of the run (``report``): printed under
the test summary and written to test-output/fuzz-stats.json.
"""

import json
from pathlib import Path

import pytest

COUNTS = pytest.StashKey[dict]()  # process name -> its counts (the JSON below)
OUTPUT = Path(__file__).resolve().parent / "test-output" / "fuzz-stats.json"


def hand_over(config, counts):
    """This process's counts so far (they only grow: the latest replace the earlier)."""
    if hasattr(config, "workeroutput"):
        config.workeroutput["fuzz"] = counts
    else:
        config.stash.setdefault(COUNTS, {})["main"] = counts


def received(node):
    """An xdist worker that stopped: keep the counts it handed over, if any."""
    counts = getattr(node, "workeroutput", {}).get("fuzz")
    if counts:
        node.config.stash.setdefault(COUNTS, {})[node.gateway.id] = counts


def merged(every):
    """The counts of several processes as one: sums, and each problem once (its shortest example)."""
    total = {"requests": 0, "5xx": 0, "writes": 0, "bad_data": 0, "statuses": {}, "problems": []}
    problems = {}
    for counts in every:
        for name in ("requests", "5xx", "writes", "bad_data"):
            total[name] += counts[name]
        for status, n in counts["statuses"].items():
            total["statuses"][status] = total["statuses"].get(status, 0) + n
        for problem in counts["problems"]:
            key = (problem["kind"], problem["route"], problem["error"], problem["where"])
            if key not in problems or len(problem["example"]) < len(problems[key]["example"]):
                problems[key] = problem
    total["statuses"] = dict(sorted(total["statuses"].items()))
    total["problems"] = [problems[key] for key in sorted(problems)]
    return total


def report(config):
    """The lines to print at the end of the run (none if no fuzz test ran); writes the JSON."""
    every = config.stash.get(COUNTS, {})
    if not every:
        return []
    total = merged(every.values())
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text(json.dumps(total, indent=1, ensure_ascii=False))
    by_status = {}
    for key, n in total["statuses"].items():
        status = key.rsplit(" ", 1)[1]
        by_status[status] = by_status.get(status, 0) + n
    lines = [
        f"fuzz: {total['requests']} requests sent, {total['5xx']} answered 5xx, "
        f"{total['writes']} non-redirects that wrote, {total['bad_data']} redirects that left "
        f"bad data; {len(total['problems'])} distinct problems",
        "  statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(by_status.items())),
    ]
    for p in total["problems"]:
        lines.append(f"  [{p['kind']}] {p['route']}: {p['error']} @ {p['where']} -- e.g. {p['example']}")
    return lines
