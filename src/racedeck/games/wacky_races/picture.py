"""Wacky Races: the circuit's positions from grid to finish, racers, traps and Dastardly."""

from __future__ import annotations

from typing import Any

from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.drawing import SCRIPT as DRAWING
from racedeck.games.wacky_races.state import WackyState
from racedeck.inspect.pictures.base import Picture

_RACING = frozenset({"turn", "after_turn", "race_end"})


class WackyRacesPicture(Picture):
    """The circuit as a row of positions; each holds racers, maybe a trap and Dastardly."""

    drawing = "wacky"
    script = DRAWING
    axis = "round"
    axis_series = "race.round"

    def car_labels(self, view: Any) -> list[str]:
        """Return each car's racer, and the seat driving it (neutral racers have none)."""
        return [
            f"{data.RACER_NAMES[racer]}" + (f" (seat {car})" if car < view.players else "")
            for car, racer in enumerate(view.field)
        ]

    def board(self, view: Any) -> dict[str, Any]:
        """Return the names of the tiles and of the traps."""
        return {"tiles": list(data.TILE_NAMES), "traps": list(data.TRAP_NAMES)}

    def standings(self, view: Any) -> list[int] | None:
        """Return finished cars in order, then the others: furthest first, earlier arrival ahead."""
        if view.phase not in _RACING or not view.pos:
            return None
        finished = list(view.finished)
        rest = [c for c in range(len(view.pos)) if c not in finished]
        rest.sort(key=lambda c: (-view.pos[c], view.stamp[c], c))
        return finished + rest

    def tick(self, view: Any) -> str | None:
        """Return the round (``race.round`` in a championship) while a race runs."""
        if view.phase not in _RACING or not view.pos:
            return None
        number = view.round + 1
        return f"{view.race + 1}.{number}" if view.options.races > 1 else str(number)

    def scene(self, view: Any) -> dict[str, Any]:
        """Return the tiles, each car's position, the traps (named only in the log's view)."""
        if isinstance(view, WackyState):
            traps = list(view.traps)
            hands: list[list[str] | None] = [
                [data.TERRAINS[c] for c in hand] for hand in view.hands
            ]
        else:
            traps = [-2 if trap else -1 for trap in view.traps]  # -2: a trap, face down
            hands = [
                [data.TERRAINS[c] for c in view.hand] if seat == view.seat else None
                for seat in range(view.players)
            ]
        return {
            "phase": view.phase,
            "race": view.race + 1,
            "round": view.round + 1,
            "tiles": list(view.tiles),
            "pos": list(view.pos),
            "stamp": list(view.stamp),
            "labels": self.car_labels(view) if view.field else [],
            "traps": traps,
            "dastardly": view.dastardly,
            "finished": list(view.finished),
            "hands": hands,
            "points": list(view.points),
        }
