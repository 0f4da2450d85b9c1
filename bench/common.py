"""What the benchmarks share: a median of repeated timings after a warm-up."""

import statistics
import time


def median_ms(action, runs):
    """The median wall time of ``action`` in milliseconds, after one warm-up call
    (imports, fonts, templates and SQLite's page cache are not what we measure)."""
    action()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
