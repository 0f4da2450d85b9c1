"""Storage and the user's actions: one function per action, one transaction each.

Each action takes ids, plain values and the revision the phone saw, runs in
one ``db.transaction`` (``BEGIN IMMEDIATE``) whose first read checks that
revision, loads what it needs once, and returns engine objects. Views parse
a request, call one of these, and render. Queries for lists and statistics
live here too (``history``, ``stats``).
"""


class Conflict(Exception):
    """What the phone saw is no longer what is saved: nothing was written.

    ``changes`` are the change-log entries made since (``Change``), to show.
    """

    def __init__(self, message, changes=()):
        super().__init__(message)
        self.changes = list(changes)


class NotFound(LookupError):
    """The game, round, player or rule set asked for is not there."""
