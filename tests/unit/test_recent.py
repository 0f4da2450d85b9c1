"""Recent: the bounded dict behind the app's in-memory caches."""

from scorekeeper.recent import Recent


def test_the_least_recently_used_entry_goes_first():
    kept = Recent(2)
    kept["a"], kept["b"] = 1, 2
    assert kept.get("a") == 1  # "a" is now the most recent
    kept["c"] = 3
    assert list(kept) == ["a", "c"]
    assert kept.get("b") is None and kept.get("b", 0) == 0


def test_setting_an_entry_again_makes_it_the_most_recent():
    kept = Recent(2)
    kept["a"], kept["b"] = 1, 2
    kept["a"] = 10
    kept["c"] = 3
    assert dict(kept) == {"a": 10, "c": 3}
