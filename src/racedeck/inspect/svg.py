"""A lap chart as SVG, written by hand: deterministic bytes and no dependency."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from racedeck.inspect.chart import LapChart

COLOURS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
    "#393b79",
    "#637939",
)
"""One colour per car, in car order (repeating past twelve cars)."""

_LEFT, _RIGHT, _TOP, _ROW, _STEP, _PANEL = 90, 90, 50, 28, 34, 120
_MARGIN = 10
"""Space kept between any text and the picture's edge."""

EM = 0.72
"""The widest a character of the sans-serif faces is on average, in ems: text is measured
with it so that a label is never wider than the room made for it (a little room spare is
the price of not shipping font metrics)."""


def text_width(text: str, size: float = 12, bold: bool = False) -> int:
    """Return an upper bound of the width ``text`` takes at ``size`` pixels."""
    return int(len(text) * size * (EM + (0.06 if bold else 0))) + 1


def colour(car: int) -> str:
    """Return the colour of car ``car``."""
    return COLOURS[car % len(COLOURS)]


def chart_svg(chart: LapChart) -> str:
    """Return the chart as an SVG document: positions on top, one panel per series below.

    The margins are made as wide as the labels they hold (the places and the axis on the
    left, the cars' names on the right) and the picture as wide as its title, so no text
    is cut at the edge, however long a racer's name or however few the laps.
    """
    cars, ticks = len(chart.cars), len(chart.ticks)
    step = _STEP if ticks < 40 else max(6, 1400 // max(ticks, 1))
    left_labels = [chart.axis, f"P{cars}"]
    left = max(
        _LEFT,
        _MARGIN + max(text_width(t) for t in left_labels) + 12,
        _MARGIN + max((text_width(n, bold=True) for n in chart.series), default=0) + 12,
    )
    right = max(_RIGHT, 8 + max((text_width(c) for c in chart.cars), default=0) + _MARGIN)
    plot = step * max(ticks - 1, 1)
    width = max(left + right + plot, text_width(chart.title, 14) + 2 * _MARGIN)
    top_height = _TOP + _ROW * max(cars - 1, 1) + 40
    height = top_height + (_PANEL + 30) * len(chart.series) + 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width // 2}" y="20" text-anchor="middle" font-size="14">'
        f"{escape(chart.title)}</text>",
    ]

    def x(i: int) -> int:
        return left + step * i

    def y(place: int) -> int:
        return _TOP + _ROW * (place - 1)

    for place in range(1, cars + 1):
        out.append(f'<text x="{_MARGIN}" y="{y(place) + 4}" fill="#555">P{place}</text>')
        out.append(
            f'<line x1="{_LEFT}" y1="{y(place)}" x2="{x(ticks - 1)}" y2="{y(place)}" '
            'stroke="#eee"/>'
        )
    label_every = max(1, ticks // 30)
    for i, tick in enumerate(chart.ticks):
        if i % label_every == 0 or i == ticks - 1:
            out.append(
                f'<text x="{x(i)}" y="{top_height - 15}" text-anchor="middle" fill="#555">'
                f"{escape(tick)}</text>"
            )
    out.append(f'<text x="{_MARGIN}" y="{top_height - 15}" fill="#555">{escape(chart.axis)}</text>')
    for car, label in enumerate(chart.cars):
        points = [(x(i), y(row[car])) for i, row in enumerate(chart.positions) if row[car]]
        if not points:
            continue
        path = " ".join(f"{px},{py}" for px, py in points)
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{colour(car)}" stroke-width="2.5"/>'
        )
        for px, py in points:
            out.append(f'<circle cx="{px}" cy="{py}" r="3" fill="{colour(car)}"/>')
        end_x, end_y = points[-1]
        out.append(
            f'<text x="{end_x + 8}" y="{end_y + 4}" fill="{colour(car)}">{escape(label)}</text>'
        )
    panel_top = top_height
    for name, rows in chart.series.items():
        out.extend(_panel(name, rows, chart.cars, panel_top, x, left))
        panel_top += _PANEL + 30
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _panel(
    name: str,
    rows: list[list[int]],
    cars: list[str],
    top: int,
    x: Callable[[int], int],
    left: int,
) -> list[str]:
    """Return one series panel: a line per car over the ticks."""
    low = min(min(row) for row in rows)
    high = max(max(row) for row in rows)
    span = max(high - low, 1)

    def y(value: int) -> int:
        return top + 20 + round((high - value) * _PANEL / span)

    out = [
        f'<text x="{_MARGIN}" y="{top + 14}" font-weight="bold">{escape(name)}</text>',
        f'<text x="{left - 6}" y="{y(high) + 4}" text-anchor="end" fill="#555">{high}</text>',
        f'<text x="{left - 6}" y="{y(low) + 4}" text-anchor="end" fill="#555">{low}</text>',
    ]
    for car in range(len(cars)):
        path = " ".join(f"{x(i)},{y(row[car])}" for i, row in enumerate(rows))
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{colour(car)}" stroke-width="2"/>'
        )
    return out
