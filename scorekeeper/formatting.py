"""Template filters for showing numbers the way a score sheet does."""

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


def init_app(app):
    app.jinja_env.filters.update(number=number, points=points, books=books)
