"""Standings drawn by rich on a terminal: the same rows as the plain table, in boxed tables.

Off a terminal (a pipe, a file, a CI log) the standings stay the plain aligned text of
``racedeck.tournament.report.standings_table``, which scripts and logs read; rich is
imported only to draw on a terminal.
"""

from __future__ import annotations

from typing import TextIO

from racedeck.cli.output import clean, uncleaned
from racedeck.tournament.report import (
    bot_rows,
    crosstable_rows,
    head_to_head_rows,
    headline,
    opponent_rows,
    seat_rows,
)
from racedeck.tournament.standings import Standings


def print_standings_table(standings: Standings, stream: TextIO) -> None:
    """Draw the standings, the pairings and the results by seat on ``stream`` with rich."""
    from rich.console import Console

    # rich's own escape sequences go straight to the terminal; every text it is given is
    # ``clean``ed first (``_table``, ``_say``), as ``cleaned`` would have done.
    stream = uncleaned(stream)
    console = Console(file=stream, highlight=False)
    widest = max(_width(rows) for rows in (bot_rows(standings), head_to_head_rows(standings)))
    if widest > console.width:
        # A row cut to fit would hide a figure: wider than the terminal, it wraps instead.
        console = Console(file=stream, highlight=False, width=widest)
    score = standings.score
    console.print(clean(headline(standings)), markup=False)
    console.print(
        _table(
            bot_rows(standings),
            caption=f"rank: the place among the seats, 1 first; {score.name}: the game's"
            f" score, {score.direction}; ordered by rating, from the finishing order",
        )
    )
    if standings.upsets:
        console.print(
            clean(
                f"{score.name} do not decide a match on their own: in {standings.upsets} of"
                f" {standings.recorded - standings.errors} matches the winner had not the best"
            ),
            markup=False,
        )
    gauntlet = standings.spec.bots[0] if standings.spec.format == "gauntlet" else None
    if gauntlet is not None:
        console.print(_table(opponent_rows(standings), title=f"{gauntlet} against each opponent"))
    pairs = head_to_head_rows(standings, leave_out=gauntlet)
    if len(pairs) > 1:
        console.print(_table(pairs, title="head to head (score% is the first bot's)", left=2))
    if gauntlet is None and len(standings.bots) > 2 and standings.head_to_head:
        console.print(_table(crosstable_rows(standings), title="crosstable (the row's score%)"))
    console.print(_table(seat_rows(standings), title="by seat"))
    if standings.failures:
        console.print("failures (first ones):", markup=False)
        for line in standings.failures:
            console.print(clean(f"  {line}"), markup=False)


def _width(rows: list[list[str]]) -> int:
    """Return the width a table of ``rows`` needs: its widest cells, padding and rules."""
    columns = len(rows[0])
    return sum(max(len(row[i]) for row in rows) for i in range(columns)) + 3 * columns + 1


def _table(rows: list[list[str]], title: str = "", caption: str = "", left: int = 1) -> object:
    """Return ``rows`` (the header first) as a rich table: names left, figures right."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(
        title=Text(clean(title)) if title else None,
        caption=Text(clean(caption)) if caption else None,
        title_justify="left",
        caption_justify="left",
        box=box.SIMPLE_HEAD,
    )
    for i, name in enumerate(rows[0]):
        table.add_column(Text(clean(name)), justify="left" if i < left else "right", no_wrap=True)
    for row in rows[1:]:
        table.add_row(*(Text(clean(cell)) for cell in row))
    return table
