"""The generic picture: the game's own text, no drawing, no laps."""

from __future__ import annotations

from typing import Any

from racedeck.core.game import AnyGame


class Picture:
    """What the viewers and charts know of one game; subclasses add drawing and laps.

    ``scene`` takes a *view*: the state (for the omniscient view) or one seat's
    observation. The chart's methods (``standings``, ``tick``, ``series``) and ``board``
    take the state: a chart is drawn from the log's own knowledge, and the board (the
    track) is public.
    """

    drawing = "text"
    """The name of this game's drawing (the HTML page reports it; "text": none)."""
    script = ""
    """The HTML replay page's drawing of a scene, in JavaScript: a function expression
    that takes one ``scene`` and returns its markup, run with the page's helpers in scope
    (``D``, the page's data with ``D.board``; ``esc``; ``colour``; ``swatch``). Empty: the
    page shows the game's text alone. It lives with the game, so a new game's drawing
    needs no edit outside its package."""
    axis = "lap"
    """What a tick counts, as the chart's axis names it."""
    axis_series = "race.lap"
    """The axis's name when ticks also count races (they then hold a dot)."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    def car_labels(self, view: Any) -> list[str]:
        """Return a short label per car (or racer), by car number."""
        return []

    def standings(self, view: Any) -> list[int] | None:
        """Return the cars from the leader back, or ``None`` when no race is running."""
        return None

    def tick(self, view: Any) -> str | None:
        """Return the lap or turn in progress; the chart takes a point each time it changes."""
        return None

    def series(self, view: Any) -> dict[str, list[int]]:
        """Return values per car worth charting over the race (such as a car sheet's columns)."""
        return {}

    def board(self, view: Any) -> dict[str, Any]:
        """Return what never changes during the match (the track), drawn under every scene."""
        return {}

    def scene(self, view: Any) -> dict[str, Any]:
        """Return what the page draws of this view (positions, hands, track), JSON-ready."""
        return {}
