"""The database brought up to date: the migrations, then what they ask to be
made again from the stored rounds (the players' summaries, ratings and
records: ``migrations.REBUILDS_SUMMARIES``).

It lives here, not in ``db.py``, because making the summaries again is the
services' work: ``db.py`` sits below the services and imports none of them.
"""

from ..storage.db import connect, transaction
from ..storage.migrations import REBUILDS_SUMMARIES, migrations
from . import colours, summaries
from .evenings import evening


def migrate(path):
    """Apply pending migrations; return the names applied."""
    db = connect(path, create=True)
    try:
        pending = [m.name for m in migrations.pending(db)]
        migrations.apply(db)
        if REBUILDS_SUMMARIES & set(pending):
            with transaction(db):
                _keep_nights(db)
                summaries.rebuild(db)
        colours.assign_missing(db)  # m021's: players made before colours were kept
        return pending
    finally:
        db.close()


def _keep_nights(db):
    """Each game that has no night kept yet (m014's) gets the one its played time has on
    this computer's clock now."""
    rows = db.execute("SELECT id, played_at FROM games WHERE night IS NULL").fetchall()
    kept = [(evening(played), game_id) for game_id, played in rows]
    db.conn.executemany("UPDATE games SET night = ? WHERE id = ?", kept)
