"""The report page: one self-contained HTML file, the table and two inline SVG plots.

No script, no stylesheet or font from the network: the page opens the same offline, and
its content security policy allows nothing else (every name on it is escaped).
"""

from __future__ import annotations

import html
from pathlib import Path

from racedeck.core.files import write_atomically
from racedeck.inspect.page import policy
from racedeck.tournament.report import (
    bot_rows,
    crosstable_rows,
    head_to_head_rows,
    headline,
    opponent_rows,
    seat_rows,
)
from racedeck.tournament.standings import Standings

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
WIDTH, HEIGHT, PAD = 640, 300, 48


def _colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def rating_plot(standings: Standings) -> str:
    """Return an SVG line plot of each bot's mu against matches played."""
    history = standings.history
    names = [f.name for f in standings.bots]
    xs = [x for x, _ in history]
    ys = [mu for _, row in history for mu in row.values()]
    x_max = max(xs[-1], 1) if xs else 1
    y_low, y_high = (min(ys), max(ys)) if ys else (0.0, 1.0)
    if y_high - y_low < 1e-9:
        y_low, y_high = y_low - 1, y_high + 1

    def point(x: float, y: float) -> str:
        px = PAD + (WIDTH - 2 * PAD) * x / x_max
        py = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (y - y_low) / (y_high - y_low)
        return f"{px:.1f},{py:.1f}"

    parts = [_frame("rating (mu) over matches", f"0 … {x_max} matches", y_low, y_high)]
    for i, name in enumerate(names):
        line = " ".join(point(x, row[name]) for x, row in history)
        parts.append(
            f'<polyline fill="none" stroke="{_colour(i)}" stroke-width="2" points="{line}"/>'
        )
    parts.append(_legend(names))
    return _svg(parts)


def seat_plot(standings: Standings) -> str:
    """Return an SVG bar chart of each bot's mean points from each seat."""
    seats = sorted(standings.seats)
    names = [f.name for f in standings.bots]
    values = [
        (seat, i, f.seats[seat].score.mean)
        for seat in seats
        for i, f in enumerate(standings.bots)
        if seat in f.seats
    ]
    top = max([v for _, _, v in values] + [0.0])
    low = min([v for _, _, v in values] + [0.0])
    if top - low < 1e-9:
        top = low + 1
    parts = [_frame(f"mean {standings.score.name} per seat", "seat", low, top)]
    slot = (WIDTH - 2 * PAD) / max(len(seats), 1)
    bar = slot * 0.8 / max(len(names), 1)
    zero = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (0 - low) / (top - low)
    for seat_pos, seat in enumerate(seats):
        x0 = PAD + slot * seat_pos + slot * 0.1
        parts.append(
            f'<text x="{x0 + slot * 0.4:.1f}" y="{HEIGHT - PAD + 16}" font-size="12" '
            f'text-anchor="middle">{seat}</text>'
        )
        for s, i, value in values:
            if s != seat:
                continue
            y = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / (top - low)
            parts.append(
                f'<rect x="{x0 + bar * i:.1f}" y="{min(y, zero):.1f}" width="{bar:.1f}" '
                f'height="{abs(zero - y):.1f}" fill="{_colour(i)}"><title>{html.escape(names[i])}'
                f" seat {seat}: {value:.2f}</title></rect>"
            )
    parts.append(_legend(names))
    return _svg(parts)


def _frame(title: str, x_label: str, low: float, high: float) -> str:
    return (
        f'<text x="{WIDTH / 2}" y="20" font-size="14" text-anchor="middle">'
        f"{html.escape(title)}</text>"
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" '
        'stroke="#444"/>'
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#444"/>'
        f'<text x="{PAD - 4}" y="{PAD + 4}" font-size="11" text-anchor="end">{high:.1f}</text>'
        f'<text x="{PAD - 4}" y="{HEIGHT - PAD}" font-size="11" text-anchor="end">{low:.1f}</text>'
        f'<text x="{WIDTH / 2}" y="{HEIGHT - 8}" font-size="11" text-anchor="middle">'
        f"{html.escape(x_label)}</text>"
    )


def _legend(names: list[str]) -> str:
    items = []
    for i, name in enumerate(names):
        y = PAD + 14 * i
        items.append(
            f'<rect x="{WIDTH - PAD + 6}" y="{y - 9}" width="10" height="10" fill="{_colour(i)}"/>'
            f'<text x="{WIDTH - PAD + 20}" y="{y}" font-size="11">{html.escape(name)}</text>'
        )
    return "".join(items)


def _svg(parts: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH + 80}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH + 80} {HEIGHT}" font-family="sans-serif">' + "".join(parts) + "</svg>"
    )


def _table(rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in rows[0])
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
        for row in rows[1:]
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _failures(standings: Standings) -> str:
    if not standings.failures:
        return ""
    items = "".join(f"<li>{html.escape(line)}</li>" for line in standings.failures)
    return f"<h2>Failures (first ones)</h2><ul>{items}</ul>"


def _pairings(standings: Standings) -> str:
    out = ""
    gauntlet = standings.spec.bots[0] if standings.spec.format == "gauntlet" else None
    if gauntlet is not None:
        candidate = html.escape(gauntlet)
        out += f"<h2>{candidate} against each opponent</h2>{_table(opponent_rows(standings))}"
    pairs = head_to_head_rows(standings, leave_out=gauntlet)
    if len(pairs) > 1:
        out += (
            "<h2>Head to head</h2><p>A game per pair of seats in a match; the score, its"
            " Elo-style difference and the likelihood of superiority are the first"
            f" bot's (formulas: docs/tournaments.md).</p>{_table(pairs)}"
        )
    if gauntlet is None and len(standings.bots) > 2 and standings.head_to_head:
        out += (
            "<h2>Crosstable</h2><p>The score% of the row's bot against the column's.</p>"
            f"{_table(crosstable_rows(standings))}"
        )
    return out


STYLE = (
    "body{font-family:sans-serif;margin:2em;max-width:60em}"
    "table{border-collapse:collapse}td,th{padding:.3em .8em;border-bottom:1px solid #ddd}"
    "td{text-align:right}td:first-child,th:first-child{text-align:left}"
)
"""The page's one style element."""

POLICY = policy("", STYLE)
"""The page's content security policy: no script at all, only its own style."""


def render_page(standings: Standings) -> str:
    """Return the whole report page."""
    title = html.escape(headline(standings))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
        f"<title>{title}</title>"
        f"<style>{STYLE}</style></head><body>"
        f"<h1>racedeck tournament</h1><p>{title}</p>"
        f"<h2>Standings</h2>{_table(bot_rows(standings))}"
        f"{_pairings(standings)}"
        f"<h2>Results by seat</h2><p>Mean {html.escape(standings.score.name)}"
        f" ({standings.score.direction}) of each bot from each seat.</p>"
        f"{_table(seat_rows(standings))}{_failures(standings)}"
        f"<h2>Rating over matches</h2>{rating_plot(standings)}"
        f"<h2>Points per seat</h2>{seat_plot(standings)}"
        "</body></html>\n"
    )


def write_page(standings: Standings, path: Path) -> None:
    """Write the report page to ``path``, under a temporary name first.

    Like every page racedeck writes, into a folder that exists: a missing one is an error.
    """
    write_atomically(path, render_page(standings).encode("utf-8"), f"the report page {path}")
