"""The fuzz's counts from several test processes add up to one report (tests/fuzzstats.py)."""

from .. import fuzzstats


def counts(requests, statuses, problems=()):
    return {
        "requests": requests,
        "5xx": sum(1 for p in problems if p["kind"] == "5xx"),
        "writes": 0,
        "bad_data": 0,
        "statuses": statuses,
        "problems": list(problems),
    }


def problem(example, route="rules.new"):
    return {"kind": "5xx", "route": route, "error": "ValueError: …", "where": "x.py:1", "example": example}


def test_two_processes_add_up_and_each_problem_is_told_once_by_its_shortest_example():
    one = counts(
        10, {"POST rules.new 422": 7, "GET home.index 200": 3}, [problem("POST /rules/new [a long one]")]
    )
    two = counts(5, {"POST rules.new 422": 4, "POST rules.new 500": 1}, [problem("POST /rules/new [short]")])
    total = fuzzstats.merged([one, two])
    assert total["requests"] == 15 and total["5xx"] == 2
    assert total["statuses"] == {"GET home.index 200": 3, "POST rules.new 422": 11, "POST rules.new 500": 1}
    assert total["problems"] == [problem("POST /rules/new [short]")]


def test_problems_of_different_routes_are_kept_apart():
    total = fuzzstats.merged(
        [counts(1, {}, [problem("a", "rules.new")]), counts(1, {}, [problem("b", "games.new")])]
    )
    assert [p["route"] for p in total["problems"]] == ["games.new", "rules.new"]
