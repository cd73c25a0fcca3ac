"""What a seat sees: its own hands, and every hand's size (Notes on Play 7)."""

from __future__ import annotations

import msgspec

from .helpers import GAME, race


def test_hand_sizes_are_public() -> None:
    """It is important to keep track of how many cards your opponents have.

    When asked, drivers must show the number of cards they have left to the other drivers.
    """
    state = race([0, 1, 2], [0, 3, 6], {0: "7 8", 1: "5 6 9", 2: "8"})
    seen = GAME.observe(state, 0)
    assert seen.hand_sizes == (2, 3, 1)
    assert seen.hands[1] is None and seen.hands[2] is None
    assert msgspec.json.encode(seen)
