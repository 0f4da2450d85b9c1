"""The evening a game was played on, on the household's clock."""

import time

import pytest

from scorekeeper.services.evenings import evening

from ..helpers import on_the_clock


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


def test_the_tests_write_a_game_on_the_households_clock(zone):
    """tests.helpers.on_the_clock: noon on the 5th there, stored in UTC, and the 5th's
    evening in every zone from UTC-11 to UTC+14 (noon UTC was the 6th in Kiritimati)."""
    for name, stored in (
        ("Pacific/Kiritimati", "2026-01-04T22:00:00+00:00"),
        ("Pacific/Pago_Pago", "2026-01-05T23:00:00+00:00"),
        ("Asia/Kolkata", "2026-01-05T06:30:00+00:00"),
        ("UTC", "2026-01-05T12:00:00+00:00"),
    ):
        zone(name)
        assert on_the_clock("2026-01-05") == stored, name
        assert evening(stored) == "2026-01-05", name
    assert on_the_clock("2026-03-04", 20) == "2026-03-04T20:00:00+00:00"  # in UTC, the zone set last
