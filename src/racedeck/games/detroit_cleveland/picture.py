"""Detroit-Cleveland Grand Prix: the lane graph of the track with the six cars on it."""

from __future__ import annotations

from typing import Any

from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.drawing import SCRIPT as DRAWING
from racedeck.games.detroit_cleveland.rules import track_of
from racedeck.games.detroit_cleveland.state import DetroitClevelandState
from racedeck.games.detroit_cleveland.track import FINISH, OFF_TRACK
from racedeck.inspect.pictures.base import Picture

CAR_COLOURS = ("#e6c619", "#1f5fd1", "#2ca02c", "#222222", "#d62728", "#ff8c1a")
"""The cars' own colours: yellow, blue, green, black, red, orange."""


class DetroitClevelandPicture(Picture):
    """Spaces at their distance along the track, one row per lane."""

    drawing = "lanes"
    script = DRAWING
    axis = "round"
    axis_series = "race.round"

    def car_labels(self, view: Any) -> list[str]:
        """Return each car's colour name."""
        return list(data.CAR_NAMES)

    def board(self, view: Any) -> dict[str, Any]:
        """Return the track: each space's lane and distance, and the start positions."""
        track = track_of(view.options)
        return {
            "title": track.title,
            "lanes": list(track.lanes),
            "distances": list(track.distances),
            "start": list(track.start),
            "length": track.length,
            "colours": list(CAR_COLOURS),
            "codes": list(data.CAR_CODES),
        }

    def standings(self, view: Any) -> list[int] | None:
        """Return finished cars in order, then the others by distance covered."""
        if view.phase != "race":
            return None
        positions = view.positions
        distances = track_of(view.options).distances
        running = [c for c in range(len(positions)) if positions[c] >= 0]
        running.sort(key=lambda c: (-distances[positions[c]], c))
        waiting = [c for c in range(len(positions)) if positions[c] == OFF_TRACK]
        return [*view.finished, *running, *waiting]

    def tick(self, view: Any) -> str | None:
        """Return the round of turns (``race.round`` in a series of races)."""
        if view.phase != "race":
            return None
        number = view.turn // view.players + 1
        return f"{view.race + 1}.{number}" if view.options.races > 1 else str(number)

    def scene(self, view: Any) -> dict[str, Any]:
        """Return the cars' spaces (-1 not placed, -2 finished), owners, money and hands."""
        if isinstance(view, DetroitClevelandState):
            hands: list[list[int] | None] = [list(h) for h in view.hands]
            sizes = [len(h) for h in view.hands]
        else:
            hands = [None if h is None else list(h) for h in view.hands]
            sizes = list(view.hand_sizes)
        return {
            "phase": view.phase,
            "race": view.race + 1,
            "positions": list(view.positions),
            "finish": FINISH,
            "owner": list(view.owner),
            "money": list(view.money),
            "finished": list(view.finished),
            "hands": [None if h is None else [data.card_label(c) for c in h] for h in hands],
            "hand_sizes": sizes,
        }
