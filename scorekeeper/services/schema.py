"""The database brought up to date: the migrations, then what they ask to be
made again from the stored rounds (the players' summaries, ratings and
records: ``migrations.REBUILDS_SUMMARIES``).

It lives here, not in ``db.py``, because making the summaries again is the
services' work: ``db.py`` sits below the services and imports none of them.
"""

from ..db import connect, transaction
from ..migrations import REBUILDS_SUMMARIES, migrations
from . import summaries


def migrate(path):
    """Apply pending migrations; return the names applied."""
    db = connect(path, create=True)
    try:
        pending = [m.name for m in migrations.pending(db)]
        migrations.apply(db)
        if REBUILDS_SUMMARIES & set(pending):
            with transaction(db):
                summaries.rebuild(db)
        return pending
    finally:
        db.close()
