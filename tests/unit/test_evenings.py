"""The evening a game was played on, on the household's clock."""

import time

import pytest

from scorekeeper.services.evenings import evening


@pytest.fixture
def new_york(monkeypatch):
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_night_that_runs_past_midnight_is_one_evening(new_york):
    assert evening("2026-01-05T23:30:00+00:00") == "2026-01-05"  # 18:30 in New York
    assert evening("2026-01-06T04:30:00+00:00") == "2026-01-05"  # 23:30 the same evening
    assert evening("2026-01-06T09:30:00+00:00") == "2026-01-05"  # 04:30: still that night
    assert evening("2026-01-06T11:30:00+00:00") == "2026-01-06"  # 06:30: a new day
    assert evening("2026-01-06T04:30:00") == "2026-01-05"  # a time without a zone is UTC


def test_times_at_the_edges_and_nonsense_never_fail(new_york):
    assert evening("0001-01-01T00:00:00+00:00") == "0001-01-01"
    assert evening("9999-12-31T23:59:59+00:00") == "9999-12-31"
    assert evening("x") == "x"
