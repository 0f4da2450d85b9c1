"""Game nights: the evening a game was played, on the household's clock.

A game belongs to the evening of the day it started, on the clock of the
computer that runs the app (as every date the pages show), and a game
started before 6 in the morning to the evening before: a game night that
runs past midnight is one night.
"""

import contextlib
import datetime

MORNING = 6  # a game started before this hour belongs to the evening before


def evening(stamp):
    """ "2026-01-05T23:30:00+00:00" -> "2026-01-05"; 01:30 the next morning too."""
    try:
        moment = datetime.datetime.fromisoformat(stamp)
    except (TypeError, ValueError):  # never written by the app: its first ten characters
        return str(stamp)[:10]
    if moment.tzinfo is None:  # stored times are UTC
        moment = moment.replace(tzinfo=datetime.UTC)
    with contextlib.suppress(OverflowError, ValueError):  # at the calendar's ends: as stored
        moment = moment.astimezone()
    if moment.hour < MORNING and moment.date() > datetime.date.min:
        moment -= datetime.timedelta(days=1)
    return moment.date().isoformat()
