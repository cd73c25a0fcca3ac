"""LACORSA: the strip of spaces with the cars on it, their hand sizes and sealed plays."""

from __future__ import annotations

from typing import Any

from racedeck.games.lacorsa import data
from racedeck.games.lacorsa.drawing import SCRIPT as DRAWING
from racedeck.games.lacorsa.state import LacorsaObservation, LacorsaState
from racedeck.inspect.pictures.base import Picture

_RUNNING = frozenset({"move", "challenge", "reveal", "score"})


class LacorsaPicture(Picture):
    """The LACORSA strip: back of the field on the left, the leader on the right."""

    drawing = "strip"
    script = DRAWING

    def car_labels(self, view: Any) -> list[str]:
        """Return ``C<car>/s<seat>`` per car."""
        return [f"C{car}/s{seat}" for car, seat in enumerate(view.owner)]

    def standings(self, view: Any) -> list[int] | None:
        """Return the cars from the leader back while a race runs."""
        if not view.order or view.phase not in _RUNNING:
            return None
        return list(reversed(view.order))

    def tick(self, view: Any) -> str | None:
        """Return ``race.lap`` (or the lap alone in a one-race match) while a race runs."""
        if not view.order or view.phase not in _RUNNING:
            return None
        return f"{view.race + 1}.{view.lap}" if _races(view) > 1 else str(view.lap)

    def scene(self, view: Any) -> dict[str, Any]:
        """Return the strip: each car's space, hand size, visible cards and sealed play."""
        if isinstance(view, LacorsaState):
            hands: list[list[str] | None] = [[data.label(c) for c in h] for h in view.hands]
            sealed = [x is not None for x in view.committed]
            sizes = [len(h) + len(x or ()) for h, x in zip(view.hands, view.committed, strict=True)]
            active = view.order[view.cursor] if view.phase in ("move", "challenge") else -1
            length = view.options.board_length
        else:
            assert isinstance(view, LacorsaObservation)
            hands = [None if h is None else [data.label(c) for c in h] for h in view.hands]
            sealed = list(view.committed)
            sizes = list(view.hand_sizes)
            active = view.active_car
            length = view.board_length
        on_strip = bool(view.order) and view.phase in _RUNNING
        return {
            "race": view.race + 1,
            "races": _races(view),
            "lap": view.lap,
            "phase": view.phase,
            "length": length,
            "active": active,
            "attacker": view.attacker,
            "defender": view.defender,
            "cars": [
                {
                    "label": label,
                    "space": view.spaces[car] if on_strip else None,
                    "cards": sizes[car] if sizes else 0,
                    "hand": hands[car] if hands else None,
                    "sealed": sealed[car] if sealed else False,
                    "points": view.points[car],
                }
                for car, label in enumerate(self.car_labels(view))
            ],
        }


def _races(view: Any) -> int:
    return int(view.options.races if isinstance(view, LacorsaState) else view.races)
