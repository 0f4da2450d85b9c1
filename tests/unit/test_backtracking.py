"""No regular expression of the app backtracks without bound (issue 53).

Each pattern of the package, as it is used (``fullmatch``, ``match``, ``search``, or again and
again by ``split``/``sub``), is fed adversarial input of growing length; its work, counted
in the steps of a matcher that backtracks as ``re`` does (``tests/backtracking.py``), must
grow no faster than its input. The check is proved on the patterns issue 53 mended, which
it must report, and on the usual textbook ones.
"""

import re

import pytest

import scorekeeper
from tests.backtracking import FULLMATCH, MATCH, SCAN, SEARCH, Matcher, backtracks, compiled_globals, patterns

FOUND = patterns(scorekeeper)
CHECKS = [(found, mode) for found in FOUND for mode in sorted(found.modes)]


@pytest.mark.parametrize(("found", "mode"), CHECKS, ids=[f"{f.where} {mode}" for f, mode in CHECKS])
def test_no_pattern_backtracks(found, mode):
    assert found.problem is None, f"{found.where}: {found.problem}"
    shown = backtracks(found.pattern, found.flags, mode)
    assert shown is None, f"{found} used by {mode}: its work grows faster than its input: {shown}"


def test_every_pattern_is_found():
    """Each compiled pattern a module keeps is among those read from the source, and every
    call of ``re`` in the source was read (a pattern built at run time is reported)."""
    read = {(f.pattern, f.flags) for f in FOUND if f.pattern is not None}
    kept = compiled_globals(scorekeeper)
    assert kept, "the modules keep compiled patterns: the walk found none"
    for module, name, pattern in kept:
        assert (pattern.pattern, pattern.flags) in read, f"{module}.{name} was not read from the source"
    assert all(f.problem is None for f in FOUND), [str(f) for f in FOUND if f.problem]
    assert len(FOUND) >= 20


# --- the check itself -------------------------------------------------------------------------------

# The patterns issue 53 mended, as they were, and how they were used: the check must report each.
BEFORE_ISSUE_53 = [
    (r"\d+(?:,\d+)+", 0, SEARCH),  # forms/rule_lists.py: a comma between digits
    (r"(\d+)\s+(.+?)(?:\s+books?)?", re.IGNORECASE, FULLMATCH),  # forms/rule_lists.py: "2 clean books"
    (r"\s*(?:&|\+|/|,)\s*", 0, SCAN),  # exchange/pastgames.py: a cell's players split
    (r"\[(\d+)\](?:\[(\d)\])?(?:\.(.+))?$", 0, SEARCH),  # forms/rule_errors.py: "Round 3, sevens"
    (r"<[^>]*>", 0, SCAN),  # views/sheets.py: the cheat sheet's tags taken out
]
TEXTBOOK = [
    (r"(a+)+b", 0, MATCH),  # exponential
    (r"^(\w+\s?)*$", 0, MATCH),  # exponential
    (r"(a|aa)+c", 0, FULLMATCH),  # exponential
    (r"a*a*b", 0, FULLMATCH),  # quadratic where anchored
    (r"\s+$", 0, SEARCH),  # quadratic in a search
]
LINEAR = [
    (r"(?<!\d)\d+(?:,\d+)+", 0, SEARCH),
    (r"[&+/,]", 0, SCAN),
    (r"<[^<>]*>", 0, SCAN),
    (r"\d++(?:,\d++)+", 0, FULLMATCH),
    (r"[a-z][a-z0-9_]{0,29}", 0, FULLMATCH),
    (r"\s*(?>,)\s*", 0, MATCH),
    (r"house-([1-9][0-9]{0,17})", 0, FULLMATCH),
]


@pytest.mark.parametrize(("pattern", "flags", "mode"), BEFORE_ISSUE_53 + TEXTBOOK, ids=str)
def test_the_check_reports_patterns_that_backtrack(pattern, flags, mode):
    shown = backtracks(pattern, flags, mode)
    assert shown is not None, pattern
    assert shown.growth > 2.5, str(shown)  # its work more than doubled each time n doubled


@pytest.mark.parametrize(("pattern", "flags", "mode"), LINEAR, ids=str)
def test_the_check_passes_patterns_that_cannot_backtrack(pattern, flags, mode):
    assert backtracks(pattern, flags, mode) is None


def test_the_matcher_answers_as_re_does():
    """The matcher that counts the steps finds what re finds (on the mended patterns' own cases)."""
    cases = [
        (r"(\d+)\s+(.+?)(?:\s+books?)?", re.IGNORECASE, "2 clean books"),
        (r"(\d+)\s+(.+?)(?:\s+books?)?", re.IGNORECASE, "2clean"),
        (r"[-\u2212]?\d+", 0, "\u2212100"),
        (r"(?<!\d)\d+(?:,\d+)+", 0, "1,000"),
        (r"^(?:round[\s_]*|r)?(\d{1,3})$", 0, "round_12"),
        (r"^(?:round[\s_]*|r)?(\d{1,3})$", 0, "round"),
        (r"house-([1-9][0-9]{0,17})", 0, "house-01"),
        (r"(?P<path>[a-z_][a-z0-9_]*(?:\[\d+\]|\.(?:(?!: )[^.\[\]])+)*): (?P<detail>.+)", re.S, "a.b[1]: c"),
    ]
    for pattern, flags, text in cases:
        matcher = Matcher(pattern, flags)
        for mode, found in ((FULLMATCH, re.fullmatch), (MATCH, re.match), (SEARCH, re.search)):
            matched = matcher.matches(text, mode)
            assert matched == (found(pattern, text, flags) is not None), (pattern, text, mode)
    assert Matcher(r"\d+(?:,\d+)+").count("1,000", SCAN) > 0
