"""A lap chart as PNG, drawn with matplotlib (the ``charts`` extra)."""

from __future__ import annotations

import io
from typing import Any

from racedeck.core.errors import UsageError
from racedeck.inspect.chart import LapChart
from racedeck.inspect.svg import colour


def chart_png(chart: LapChart) -> bytes:
    """Return the chart as PNG bytes: the same picture as the SVG, rasterised."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise UsageError(
            "PNG charts need matplotlib: pip install 'racedeck[charts]' (or write .svg)"
        ) from None
    panels = 1 + len(chart.series)
    ticks = len(chart.ticks)
    width = min(max(6.0, 0.35 * ticks + 2), 30.0)
    figure, axes = pyplot.subplots(
        panels,
        1,
        figsize=(width, 3 + 0.3 * len(chart.cars) + 2.2 * len(chart.series)),
        squeeze=False,
        height_ratios=[2] + [1] * len(chart.series),
    )
    top: Any = axes[0][0]
    xs = list(range(ticks))
    for car, label in enumerate(chart.cars):
        points = [(i, row[car]) for i, row in enumerate(chart.positions) if row[car]]
        if points:
            top.plot(*zip(*points, strict=True), marker="o", color=colour(car), label=label)
    top.set_title(chart.title)
    top.set_ylim(len(chart.cars) + 0.5, 0.5)
    top.set_yticks(range(1, len(chart.cars) + 1), [f"P{p}" for p in range(1, len(chart.cars) + 1)])
    every = max(1, ticks // 30)
    top.set_xticks(xs[::every], chart.ticks[::every])
    top.set_xlabel(chart.axis)
    top.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize="small")
    for row, (name, values) in enumerate(chart.series.items(), start=1):
        panel: Any = axes[row][0]
        for car in range(len(chart.cars)):
            panel.plot(xs, [v[car] for v in values], color=colour(car))
        panel.set_ylabel(name)
        panel.set_xticks(xs[::every], chart.ticks[::every])
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    pyplot.close(figure)
    return buffer.getvalue()
