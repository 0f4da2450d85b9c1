"""Export and import: the family's history is theirs to keep.

- ``jsonfile`` writes the *inputs* of every game (rules, teams, rounds as
  entered) in one versioned JSON format (docs/export-format.md), the
  lossless format: export → import → export gives the same file.
- ``csvfile`` writes a spreadsheet of one row per team per round whose scores
  are the engine's, with formula-like cells neutralised.
- ``importer`` reads the JSON back: the whole file is checked first (``checking``: the
  engine judges every rule set and round) and refused whole with the place
  of the first problem, or written in one transaction, merged by game uid.
"""

import contextlib
import datetime
import gc
import threading

FORMAT = "scorekeeper-history"
# Version 2 added the entries and house-rules values of issue 15 (books of 3s,
# going out concealed, values by who went out, the deal…); a version 1 file
# is a version 2 file without them, so both are read. Version 3 (issue 41) added
# a game's played_at and paper, and rounds kept as their scores alone
# (entries of paper_score); a version 2 file is a version 3 file without them.
# Version 4 (issue 47) added the entry packet_not_taken and the house-rules values
# packet_not_taken and packet_unplayed (Buraco's morto, Burraco's pozzetto); a
# version 3 file is a version 4 file without them. Version 5 (issue 54) added a game's
# night, so that it stays on the night it was played wherever the file is imported; a
# version 4 file is a version 5 file without it (each game's night is worked out on the
# importing computer's clock).
# The house-rules value tie (issue 56) came within version 5: at its default it is not
# written, so only rules that play a tie off carry it (docs/export-format.md).
# Version 6 (issue 58) added each player's colour (``colours``); a version 5 file is a
# version 6 file without it (a new player gets the least used colour, as one typed in).
# The house-rules value victory_points (issue 56) came within version 6 as tie did within
# version 5: at its default (null) it is not written.
VERSION = 6
READS = (1, 2, 3, 4, 5, 6)


def stamp_now():
    """Now, as the export format writes a time: UTC, to the second."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


_paused = {"count": 0, "was": True}
_pause_lock = threading.Lock()


@contextlib.contextmanager
def collector_paused():
    """Python's cycle collector off while years of games are read, checked and written (on
    again once the last such work ends). Their millions of objects hold no cycles, so the
    collector finds nothing in them; but every full pass over them held the interpreter's
    lock for a third of a second, and a phone's Save on another thread of the app waited
    that long (issue 42: 8,000 games, bench/locks.py). What has no cycles is freed as
    ever, when the last reference to it goes."""
    with _pause_lock:
        if _paused["count"] == 0:
            _paused["was"] = gc.isenabled()
            gc.disable()
        _paused["count"] += 1
    try:
        yield
    finally:
        with _pause_lock:
            _paused["count"] -= 1
            if _paused["count"] == 0 and _paused["was"]:
                gc.enable()
