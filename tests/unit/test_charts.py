from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.charts import line_chart, nice_ticks


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
