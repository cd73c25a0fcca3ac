"""The choices a LACORSA seat makes, always for one named car."""

from __future__ import annotations

from racedeck.core.model import Action


class Play(Action, frozen=True, tag="play"):
    """Commit a card, or a Redline with one other card, face down (qualifying or challenge)."""

    car: int
    cards: tuple[int, ...]


class Extend(Action, frozen=True, tag="extend"):
    """Move one space forward into the open space ahead with an Extend card."""

    car: int
    card: int


class Discard(Action, frozen=True, tag="discard"):
    """Discard a card, or a Redline with one other card, to end the turn."""

    car: int
    cards: tuple[int, ...]


LacorsaAction = Play | Extend | Discard
