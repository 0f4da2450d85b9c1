"""Line charts drawn by the server as inline SVG: no chart library, no script.

``line_chart`` turns numbers into coordinates; ``templates/_charts.html``
draws them with a <title> and <desc> so the chart is announced as an image
with a description, and a table of the same numbers can sit beside it.
"""

import itertools
import math
from dataclasses import dataclass

from .formatting import figure

# Colours that stay apart for the common kinds of colour blindness (Okabe–Ito),
# each with its own marker shape, so the lines differ by more than colour.
COLOURS = ("#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
MARKERS = ("circle", "square", "diamond", "triangle", "circle", "square")


@dataclass(frozen=True)
class Series:
    label: str
    colour: str
    marker: str
    points: tuple  # (x, y, value) in SVG units


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


def line_chart(title, description, x_labels, series, *, width=340, height=210):
    """A chart of one line per series (label, values); values line up with x_labels."""
    values = [v for _, vs in series for v in vs]
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
                COLOURS[i % len(COLOURS)],
                MARKERS[i % len(MARKERS)],
                tuple((x(j), y(v), v) for j, v in enumerate(vs)),
            )
            for i, (label, vs) in enumerate(series)
        ),
    )
