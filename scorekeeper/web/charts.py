"""Line charts drawn by the server as inline SVG: no chart library, no script.

``line_chart`` turns numbers into coordinates; ``templates/_charts.html``
draws them with a <title> and <desc> so the chart is announced as an image
with a description, and a table of the same numbers can sit beside it.
"""

import itertools
import math
from dataclasses import dataclass

from ..services.colours import PALETTE
from .formatting import figure

# The chart's own colours are the players' palette (services/colours.py: colours that
# stay apart for the common kinds of colour blindness, each with its own marker shape,
# so the lines differ by more than colour); a series may bring its own (a player's).


@dataclass(frozen=True)
class Series:
    label: str
    colour: str
    marker: str
    points: tuple  # (x, y, value) in SVG units
    key: str = ""  # the palette's key of its colour


@dataclass(frozen=True)
class Chart:
    title: str
    description: str
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    x_ticks: tuple  # (x, label, text-anchor)
    y_ticks: tuple  # (y, label)
    series: tuple

    @property
    def polylines(self):
        return [(s, " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in s.points)) for s in self.series]


def nice_ticks(low, high, count=4):
    """Round tick values covering low..high (0 always inside)."""
    low, high = min(low, 0), max(high, 0)
    if low == high:
        high = low + 100
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    ticks = [math.floor(low / step) * step]
    while ticks[-1] < high:  # the last tick is at or above the highest value
        ticks.append(ticks[-1] + step)
    return [int(t) if float(t).is_integer() else t for t in ticks]


# The labels' font, in the drawing's units (static/style.css: .chart .grid text). The
# drawing is 340 units wide and fills the page's width: 288 px on a 320 px phone, where
# 12 units are 10.2 px, the least a chart's label may be.
LABEL_SIZE = 12
LABEL_GAP = 8  # units between two labels along the bottom


def label_width(text):
    """How wide a label is drawn, in units, erring wide: a digit or a letter is at most
    0.68 of the font's size in the fonts phones use (DejaVu Sans's widest digit is 0.64),
    a space, comma, point or apostrophe 0.4."""
    narrow = sum(ch in " ,.’'−-" for ch in text)
    return LABEL_SIZE * (0.68 * (len(text) - narrow) + 0.4 * narrow)


def x_ticks(xs, labels, width):
    """(x, label, text-anchor) for the labels along the bottom: each label once (a month
    over several games at its first), then every k-th of those for the least k at which
    none overlaps the next or leaves the drawing."""
    firsts, seen = [], set()
    for x, label in zip(xs, labels):
        if label and label not in seen:
            seen.add(label)
            firsts.append((x, label))
    placed = []
    for x, label in firsts:
        w = label_width(label)
        if x - w / 2 < 0:  # leaning inwards at the edges rather than cut
            placed.append((x, label, "start", x, x + w))
        elif x + w / 2 > width:
            placed.append((x, label, "end", x - w, x))
        else:
            placed.append((x, label, "middle", x - w / 2, x + w / 2))
    for step in range(1, len(placed) + 1):
        chosen = placed[::step]
        if all(a[4] + LABEL_GAP <= b[3] for a, b in itertools.pairwise(chosen)):
            return tuple((x, label, anchor) for x, label, anchor, _, _ in chosen)
    return ()


def series_colours(wanted):
    """Each series' colour (a ``services.colours.Colour``): its own where it brings one no
    earlier series has, else the palette's first that no series of the chart has, so that
    no two series share a colour (up to the palette's length)."""
    taken, chosen = set(), []
    for colour in wanted:
        keep = colour is not None and colour.key not in taken
        chosen.append(colour if keep else None)
        if keep:
            taken.add(colour.key)
    spare = iter([c for c in PALETTE if c.key not in taken] or PALETTE)
    return [c if c is not None else next(spare, PALETTE[i % len(PALETTE)]) for i, c in enumerate(chosen)]


def line_chart(title, description, x_labels, series, *, width=340, height=210):
    """A chart of one line per series, (label, values) or (label, values, colour): values
    line up with x_labels; colour (a player's ``Colour``, or None) as ``series_colours``."""
    series = [(s[0], s[1], s[2] if len(s) > 2 else None) for s in series]
    colours = series_colours([colour for _, _, colour in series])
    values = [v for _, vs, _ in series for v in vs]
    ticks = nice_ticks(min(values, default=0), max(values, default=0))
    y_labels = [figure(t) for t in ticks]  # "4.195" on a Portuguese page
    # room for the longest value label at the left, never cut, and a gap
    left = max(30, math.ceil(max(map(label_width, y_labels))) + 8)
    right, top, bottom = width - 8, 10, height - 26
    low, high = ticks[0], ticks[-1]
    count = max(len(x_labels), 1)

    def x(i):
        return left + (right - left) * (i / (count - 1) if count > 1 else 0.5)

    def y(v):
        return bottom - (bottom - top) * (v - low) / ((high - low) or 1)

    return Chart(
        title=title,
        description=description,
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        x_ticks=x_ticks([x(i) for i in range(len(x_labels))], x_labels, width),
        y_ticks=tuple((y(t), label) for t, label in zip(ticks, y_labels)),
        series=tuple(
            Series(
                label,
                colour.hex,
                colour.marker,
                tuple((x(j), y(v), v) for j, v in enumerate(vs)),
                colour.key,
            )
            for (label, vs, _), colour in zip(series, colours)
        ),
    )


# Each marker shape as a path around (0, 0), about 9 units across: a circle, a square,
# a diamond, a triangle up, a wedge (a triangle down), a cross and a star, the palette's
# seven (services/colours.py), told apart in grey print where two colours are not.
_POINTS = [
    (r * math.sin(i * math.pi / 5), -r * math.cos(i * math.pi / 5)) for i, r in enumerate([5.2, 2.3] * 5)
]
_STAR = f"M{_POINTS[0][0]:.2f} {_POINTS[0][1]:.2f}l" + " ".join(
    f"{b[0] - a[0]:.2f} {b[1] - a[1]:.2f}" for a, b in itertools.pairwise(_POINTS)
)
SHAPES = {
    "circle": "M-3.8 0a3.8 3.8 0 1 0 7.6 0a3.8 3.8 0 1 0 -7.6 0z",
    "square": "M-3.5 -3.5h7v7h-7z",
    "diamond": "M0 -4.5l4.5 4.5 -4.5 4.5 -4.5 -4.5z",
    "triangle": "M0 -4.5l4.5 8h-9z",
    "wedge": "M-4.5 -3.5h9l-4.5 8z",
    "cross": "M-1.6 -4.5h3.2v2.9h2.9v3.2h-2.9v2.9h-3.2v-2.9h-2.9v-3.2h2.9z",
    "star": _STAR + "z",
}


def marker_path(shape, x=0, y=0):
    """The SVG path of a marker of ``shape`` centred on (x, y)."""
    return f"M{x:.1f} {y:.1f}m" + SHAPES.get(shape, SHAPES["circle"])[1:]


def init_app(app):
    app.jinja_env.globals["marker_path"] = marker_path
