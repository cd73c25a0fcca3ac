"""Famous 500: the circuit's sections around a ring, the two car sheets, the cards."""

from __future__ import annotations

from typing import Any

from racedeck.games.famous500.drawing import SCRIPT as DRAWING
from racedeck.games.famous500.state import Famous500State
from racedeck.inspect.pictures.base import Picture

COLUMNS = ("tires", "fuel", "engine", "speed")
"""A car sheet's four columns, in the sheet's order."""

_OFF_TRACK = frozenset({"deal", "start", "design", "over"})


class Famous500Picture(Picture):
    """Two drivers side by side on one circuit; the car sheets tell who leads."""

    drawing = "circuit"
    script = DRAWING
    axis = "lap.section"
    axis_series = "lap.section"

    def car_labels(self, view: Any) -> list[str]:
        """Return ``seat 0`` and ``seat 1``."""
        return [f"seat {seat}" for seat in range(len(view.pits))]

    def board(self, view: Any) -> dict[str, Any]:
        """Return the circuit: section names, kinds (0 black, 1 grey, 2 white), pits, laps."""
        setup = view.setup
        return {
            "track": setup.track,
            "laps": setup.laps,
            "names": list(setup.names),
            "kinds": list(setup.kinds),
            "pits": list(setup.pits),
        }

    def _sheets(self, view: Any) -> list[list[int] | None]:
        return [None if car is None else list(car) for car in view.cars]

    def standings(self, view: Any) -> list[int] | None:
        """Return the drivers by Speed points (the sheet's last column), most first."""
        if view.lap <= 0 or view.phase in _OFF_TRACK:
            return None
        sheets = self._sheets(view)
        return sorted(range(len(sheets)), key=lambda s: (-(sheets[s] or [0] * 4)[3], s))

    def tick(self, view: Any) -> str | None:
        """Return ``lap.section`` while the race runs."""
        if view.lap <= 0 or view.phase in _OFF_TRACK:
            return None
        return f"{view.lap}.{view.section + 1}"

    def series(self, view: Any) -> dict[str, list[int]]:
        """Return the four car-sheet columns per driver."""
        sheets = [sheet or [0, 0, 0, 0] for sheet in self._sheets(view)]
        return {name: [sheet[i] for sheet in sheets] for i, name in enumerate(COLUMNS)}

    def scene(self, view: Any) -> dict[str, Any]:
        """Return the lap and section, the sheets, the hands seen and the cards face up."""
        if isinstance(view, Famous500State):
            hands: list[list[int] | None] = [list(h) for h in view.hands]
            laid = list(view.laid)
        else:
            hands = [list(view.hand) if s == view.seat else None for s in range(len(view.pits))]
            laid = [view.laid if s == view.seat else 0 for s in range(len(view.pits))]
        shown = list(getattr(view, "revealed", ()) or [0] * len(laid))
        return {
            "lap": view.lap,
            "section": view.section,
            "phase": view.phase,
            "sheets": self._sheets(view),
            "hands": hands,
            "laid": laid,
            "revealed": shown,
            "pits": list(view.pits),
            "winner": view.winner,
            "history": len(view.history),
        }
