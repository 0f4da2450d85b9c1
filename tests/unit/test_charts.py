import itertools

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.web.charts import LABEL_GAP, label_width, line_chart, nice_ticks


def test_ticks_cover_every_value_and_zero():
    assert nice_ticks(100, 1150) == [0, 500, 1000, 1500]
    assert nice_ticks(-1315, 14365) == [-5000, 0, 5000, 10000, 15000]
    assert nice_ticks(0, 0) == [0, 25, 50, 75, 100]


@given(st.lists(st.integers(-50_000, 200_000), min_size=1, max_size=30))
def test_every_point_is_inside_the_plot(values):
    ticks = nice_ticks(min(values), max(values))
    assert ticks[0] <= min(min(values), 0) and ticks[-1] >= max(max(values), 0)
    chart = line_chart("t", "d", [str(i) for i in range(len(values))], [("a", values)])
    for x, y, _ in chart.series[0].points:
        assert chart.left <= x <= chart.right and chart.top - 0.01 <= y <= chart.bottom + 0.01


def _extents(chart):
    """Each bottom label's (left, right) in the drawing's units, as x_ticks estimates it."""
    spans = []
    for x, label, anchor in chart.x_ticks:
        w = label_width(label)
        left = x if anchor == "start" else x - w if anchor == "end" else x - w / 2
        spans.append((left, left + w))
    return spans


MONTHS = ["Jan ’26", "Feb ’26", "Mar ’26", "Apr ’26", "May ’26", "Jun ’26", "Jul ’26", "Aug ’26"]


@given(
    st.lists(st.sampled_from(MONTHS), min_size=1, max_size=50).map(sorted),
    st.lists(st.integers(-5000, 5000), min_size=50, max_size=50),
)
def test_a_months_label_once_and_none_over_another(labels, values):
    """Game by game (several games a month): each month labelled at most once, the
    labels apart by LABEL_GAP and inside the drawing, as wide as they are drawn."""
    chart = line_chart("t", "d", labels, [("a", values[: len(labels)])])
    shown = [label for _, label, _ in chart.x_ticks]
    assert shown and len(shown) == len(set(shown))
    assert shown[0] == labels[0]  # the first month is always named
    spans = _extents(chart)
    assert all(a[1] + LABEL_GAP <= b[0] for a, b in itertools.pairwise(spans))
    assert all(left >= 0 and right <= chart.width for left, right in spans)


def test_the_labels_thin_to_every_kth_and_keep_their_places():
    rounds = [str(n) for n in range(1, 41)]
    chart = line_chart("t", "d", rounds, [("a", list(range(40)))])
    shown = [label for _, label, _ in chart.x_ticks]
    step = int(shown[1]) - int(shown[0])
    assert step > 1 and shown == rounds[::step]
    assert [label for _, label, _ in line_chart("t", "d", ["1", "2", "3"], [("a", [1, 2, 3])]).x_ticks] == [
        "1",
        "2",
        "3",
    ]


def test_a_label_is_measured_wide_enough():
    """At 12 units a digit of DejaVu Sans (the widest of the phones' fonts here) is 7.6
    units wide: the estimate is never narrower."""
    assert label_width("8") >= 7.64 and label_width("10,000") >= 5 * 7.64 + 3
