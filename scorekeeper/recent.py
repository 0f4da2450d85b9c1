"""The app's in-memory caches: ``Recent``, a dict that keeps its most recently used
entries (the games' memo, parts of pages, printed sheets); ``PerObject``, what is
made once for an object that cannot be a key (a rule set: its worded entry fields,
its round form classes)."""

from collections import OrderedDict


class Recent(OrderedDict):
    """At most ``size`` entries: ``get`` marks an entry used, setting one drops the
    least recently used past the size. Not locked: each cache holds its own lock."""

    def __init__(self, size):
        super().__init__()
        self.size = size

    def get(self, key, default=None):
        if key not in self:
            return default
        self.move_to_end(key)
        return self[key]

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class PerObject:
    """Values made once per object (and whatever else shapes them), found by the
    object's identity and kept with the object itself, so that an id Python gives
    again to a new object is never mistaken for it. At most ``size``, then all are
    dropped at once (a plain dict: safe to share between threads without a lock,
    where dropping the oldest one by one is not). For objects that are not
    hashable, such as a ``RuleSet`` (its values are dicts)."""

    def __init__(self, size):
        self.size = size
        self._made = {}

    def get(self, obj, make, *shape):
        """``make()``, or what it gave before for ``obj`` and the same ``shape``."""
        key = (id(obj), *shape)
        known = self._made.get(key)
        if known is not None and known[0] is obj:
            return known[1]
        value = make()
        if len(self._made) >= self.size:
            self._made.clear()
        self._made[key] = (obj, value)
        return value
