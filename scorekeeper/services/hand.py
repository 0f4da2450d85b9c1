"""The family's own handwriting (issue 55): the digit boxes they confirmed or corrected on a
sheet read from a photo, kept as samples (``hand_samples``, m020) that the reader reads beside
its shipped model (``reading.Hand``), so a family's own 1s and 7s stop being misread.

``keep`` writes inside the transaction that saves the sheet's rounds (``rounds.add_rounds``'s
``also``): the samples are kept exactly when the rounds are. The newest ``KEPT`` samples are
kept; older ones make room.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..storage.db import snapshot
from .changes import now

KEPT = 4000  # samples kept: a few hundred games' digits (about 1 KB each)


@dataclass(frozen=True)
class Sample:
    """A digit the family wrote: its box cut from the photo (PNG), the digit they saved,
    and what the reader had read there (None: nothing)."""

    image: bytes
    digit: int
    read: int | None = None

    @property
    def corrected(self):
        return self.read != self.digit


def keep(db, samples):
    """Keep these samples (inside the caller's transaction); the oldest go past ``KEPT``."""
    stamp = now()
    db.conn.executemany(
        "INSERT INTO hand_samples (digit, image, read, created_at) VALUES (?, ?, ?, ?)",
        [(s.digit, s.image, s.read, stamp) for s in samples],
    )
    db.execute(
        """DELETE FROM hand_samples
           WHERE id <= (SELECT id FROM hand_samples ORDER BY id DESC LIMIT 1 OFFSET ?)""",
        [KEPT],
    )


def samples(db):
    """Every sample kept, oldest first."""
    with snapshot(db):
        rows = db.execute("SELECT image, digit, read FROM hand_samples ORDER BY id").fetchall()
    return [Sample(image, digit, read) for image, digit, read in rows]


def count(db):
    """How many samples are kept."""
    return db.execute("SELECT COUNT(*) FROM hand_samples").fetchone()[0]
