"""The engine's draws: the shuffle of the deal and the die of qualifying.

Each draws exactly the numbers ``random.Random.shuffle`` and ``random.Random.randint``
draw from the same generator, so every match plays out as it always has. They are written
out because a deal's shuffle calls ``_randbelow`` (a Python method) once per card and a
die roll goes through ``randint`` and ``randrange`` first: here each draw is one call of
the generator's ``getrandbits`` in C. A generator that draws some other way (one that
overrides ``random`` but not ``getrandbits``) is handed to its own methods.
"""

from __future__ import annotations

import random

from racedeck.core.rng import Rng

_BY_BITS = random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
"""How ``random.Random`` and its usual subclasses draw below a bound: ``getrandbits(k)``
for the bound's bit length, again until the number is below the bound."""


def shuffle(cards: list[int], rng: Rng) -> None:
    """Shuffle ``cards`` in place with exactly the draws of ``rng.shuffle(cards)``."""
    if type(rng)._randbelow is not _BY_BITS:  # type: ignore[attr-defined]
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        # ``_randbelow(i + 1)``, as ``random.Random.shuffle`` asks it of each place.
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def roll(rng: Rng, sides: int) -> int:
    """Return a roll of a die of ``sides`` faces: what ``rng.randint(1, sides)`` returns."""
    if type(rng)._randbelow is not _BY_BITS:  # type: ignore[attr-defined]
        return rng.randint(1, sides)
    getrandbits = rng.getrandbits
    k = sides.bit_length()
    face = getrandbits(k)
    while face >= sides:
        face = getrandbits(k)
    return 1 + face
