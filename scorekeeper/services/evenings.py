"""Game nights: the evening a game was played, on the household's clock.

A game belongs to the evening of the day it started, on the clock of the
computer that runs the app (as every date the pages show), and a game
started before 6 in the morning to the evening before: a game night that
runs past midnight is one night.
"""

import datetime

from ..scoring.language import _

MORNING = 6  # a game started before this hour belongs to the evening before
EVENING = datetime.time(20, 0)  # a game said to be played on a day, at no time: that evening
#: how far ahead of this computer's clock a phone's may run
CLOCKS_DIFFER = datetime.timedelta(minutes=10)


def evening(stamp):
    """ "2026-01-05T23:30:00+00:00" -> "2026-01-05"; 01:30 the next morning too."""
    moment = local(stamp)
    if moment is None:  # never written by the app: its first ten characters
        return str(stamp)[:10]
    if moment.hour < MORNING and moment.date() > datetime.date.min:
        moment -= datetime.timedelta(days=1)
    return moment.date().isoformat()


def local(stamp):
    """A stored time (ISO 8601, UTC) on this computer's clock, the household's; None
    for what is no time."""
    try:
        moment = datetime.datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    try:
        return moment.astimezone()
    except (OverflowError, ValueError):
        return moment  # at the very ends of the calendar: shown as stored, not moved a few hours


def stored(day, time):
    """A day and a time on the household's clock as a stored time (UTC, to the second):
    what a phone typed as when a game was played. ``ValueError`` past the calendar's ends."""
    try:
        moment = datetime.datetime.combine(day, time).astimezone()
        return moment.astimezone(datetime.UTC).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError) as error:
        # ValueError: Python's own "year 0 is out of range", in English, near either end of
        # the calendar on a clock away from UTC (0001-01-01 in Tokyo, 9999-12-31 in Los Angeles)
        raise ValueError(_("%(day)s %(time)s is beyond the calendar", day=day, time=time)) from error


def played(day, time, now=None):
    """When a game was played as the family says it (a day and a time on the household's
    clock, either may be None) as a stored time, or None for now: today with no time, or
    nothing said. A day alone is that evening (``EVENING``).

    :param now: this computer's time (aware); now, unless given.
    :raises ValueError: later than now (a phone's clock may run ``CLOCKS_DIFFER`` ahead:
        a game is typed in once it was played), or past the calendar's ends.
    """
    if day is None and time is None:
        return None
    now = now or datetime.datetime.now().astimezone()
    day = day or now.date()
    if time is None:
        if day == now.date():
            return None  # today, with no time: now
        time = EVENING
    stamp = stored(day, time)
    if datetime.datetime.fromisoformat(stamp) > now + CLOCKS_DIFFER:
        raise ValueError(_("That is later than now: a game is typed in once it was played."))
    return stamp


def clock(stamp):
    """A stored time as the pages show one: "2026-11-22 21:30" on the household's clock."""
    moment = local(stamp)
    return moment.strftime("%Y-%m-%d %H:%M") if moment else ""
