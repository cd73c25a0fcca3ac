"""The choices a Detroit-Cleveland seat makes."""

from __future__ import annotations

from racedeck.core.model import Action


class Bid(Action, frozen=True, tag="bid"):
    """Bid ``amount`` dollars (a multiple of $10,000) for the car on offer."""

    amount: int


class Pass(Action, frozen=True, tag="pass"):
    """Pass on the car on offer; final for that car."""


class Play(Action, frozen=True, tag="play"):
    """Play a movement or switch card from the hand."""

    card: int


class Move(Action, frozen=True, tag="move"):
    """Move the next car of the card in play to ``to`` (a space id, or ``finish``).

    For the white car, ``car`` is the car chosen to move as white.
    """

    car: int
    to: str


class Decline(Action, frozen=True, tag="decline"):
    """Play no card this turn: allowed by an optional rule once all one's cars have finished."""


DetroitClevelandAction = Bid | Pass | Play | Move | Decline
