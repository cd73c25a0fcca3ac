"""The choices a Wacky Races seat makes: its racer, then each step of its turns."""

from __future__ import annotations

from racedeck.core.model import Action


class ChooseRacer(Action, frozen=True, gc=False, tag="choose_racer"):
    """Take one of the racers nobody has chosen yet (in seat order, before the first race)."""

    racer: int


class PlayStep(Action, frozen=True, gc=False, tag="play_step"):
    """Spend movement cards to step one position forward.

    One card normally (any terrain for the turn's first step, the terrain of the racer's
    tile for the second and third); on the Swamp two identical cards or any three cards.
    """

    cards: tuple[int, ...]


class UseAdvantage(Action, frozen=True, gc=False, tag="use_advantage"):
    """Exhaust one of the racer's advantages; ``target`` is a car, a position or -1."""

    advantage: int
    target: int = -1


class EndTurn(Action, frozen=True, gc=False, tag="end_turn"):
    """Stop moving: the engine refills the hand and moves Dick Dastardly."""


WackyAction = ChooseRacer | PlayStep | UseAdvantage | EndTurn
"""Every choice a Wacky Races seat can make."""
