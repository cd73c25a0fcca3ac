"""A light view of a long match for a notebook: its result and final state, not its replay.

The step-by-step HTML replay of a seven-race match weighs megabytes, which a notebook would
keep in the document whole. This view is a few kilobytes: the game, the seats, the result,
the final state as the game's text, and the one line that writes the full page.
"""

from __future__ import annotations

from html import escape
from typing import Any


def light_view(replay: Any) -> str:
    """Return ``replay`` (a ``racedeck.api.Replay``) as a small HTML summary."""
    header = replay.header
    seats = ", ".join(f"seat {n}: {escape(seat.bot)}" for n, seat in enumerate(header.seats))
    result = replay.result
    lines = list(result.summary) if result is not None else ["the match did not finish"]
    if result is not None:
        lines.insert(0, f"places {list(result.ranks)}, {result.unit} {list(result.scores)}")
    where = replay.path
    write = (
        f"racedeck html {escape(str(where))} --out replay.html"
        if where is not None
        else "open('replay.html', 'w').write(replay.html())"
    )
    final = escape(replay.render())
    return (
        '<div class="racedeck-match">'
        f"<p><b>{escape(header.game)}</b>, seed {header.seed}, {len(replay)} events; {seats}</p>"
        f"<pre>{escape(chr(10).join(lines))}</pre>"
        f"<details><summary>final state</summary><pre>{final}</pre></details>"
        f"<p>This match is long, so its step-by-step replay is not shown inline; write it"
        f" with <code>{write}</code>.</p></div>"
    )
