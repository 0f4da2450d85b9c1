"""``Recent``: a dict that keeps its most recently used entries, for the app's
in-memory caches (the games' memo, parts of pages, printed sheets)."""

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
