"""Recent and PerObject: the app's in-memory caches."""

from scorekeeper.recent import PerObject, Recent


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


class _Unhashable:
    __hash__ = None  # as a RuleSet: its values are dicts


def test_per_object_makes_a_value_once_per_object_and_shape():
    made = PerObject(8)
    one, two = _Unhashable(), _Unhashable()
    calls = []

    def make(value):
        calls.append(value)
        return value

    assert made.get(one, lambda: make("one a"), "a") == "one a"
    assert made.get(one, lambda: make("again"), "a") == "one a"
    assert made.get(one, lambda: make("one b"), "b") == "one b"
    assert made.get(two, lambda: make("two a"), "a") == "two a"
    assert calls == ["one a", "one b", "two a"]


def test_per_object_never_takes_a_new_object_for_an_old_one_with_its_id():
    made = PerObject(8)
    old = _Unhashable()
    made.get(old, lambda: "old")
    made._made[(id(old),)] = (_Unhashable(), "another object's")  # an id given again
    assert made.get(old, lambda: "made again") == "made again"


def test_per_object_keeps_at_most_its_size():
    made = PerObject(2)
    objects = [_Unhashable() for _ in range(5)]
    for n, obj in enumerate(objects):
        made.get(obj, lambda n=n: n)
    assert len(made._made) <= 2
    assert made.get(objects[-1], lambda: "not made again") == 4
