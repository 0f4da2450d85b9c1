"""Template filters: numbers the way a score sheet shows them, times on the household's clock."""

import datetime

MINUS = "\u2212"  # a real minus sign: clearer than a hyphen at a glance


def number(value):
    """10000 -> "10,000"; -500 -> "−500"."""
    text = f"{abs(value):,}"
    return MINUS + text if value < 0 else text


def points(value):
    """Points with their sign: "+500", "−500", "0"."""
    return number(value) if value <= 0 else "+" + number(value)


def books(counts):
    """{"clean": 5, "dirty": 4} -> "5 clean + 4 dirty"."""
    return " + ".join(f"{count} {kind.replace('_', ' ')}" for kind, count in counts.items()) or "none"


def _local(stamp):
    """A stored time (ISO 8601, UTC) on this computer's clock: the household's."""
    try:
        moment = datetime.datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone()


def day(stamp):
    """ "2026-11-23T02:30:00+00:00" -> "2026-11-22" where the evening was."""
    moment = _local(stamp)
    return moment.date().isoformat() if moment else ""


def when(stamp):
    """ "2026-11-23T02:30:00+00:00" -> "2026-11-22 21:30" on the household's clock."""
    moment = _local(stamp)
    return moment.strftime("%Y-%m-%d %H:%M") if moment else ""


def init_app(app):
    app.jinja_env.filters.update(number=number, points=points, books=books, day=day, when=when)
