"""The Cards: switch cards.

"The switch cards cause the two colors shown on the card to be switched until the end of
the player's next turn. [...] any time the black car appears on a movement card, the
yellow car is moved; any time the yellow car appears on a movement card, the black car is
moved. The two colors need not both appear on a movement card for the color switch to
take effect."

A switch in force is a ``Switch`` in ``state.switches``, with the turn at whose end it
stops (the player's next turn comes ``players`` turns later). Two switches in force apply
in the order they were played; white is never switched.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from msgspec.structs import replace

from racedeck.games.detroit_cleveland.data import SWITCHES, WHITE
from racedeck.games.detroit_cleveland.state import DetroitClevelandState, Switch

IDENTITY: tuple[int, ...] = (0, 1, 2, 3, 4, 5, WHITE)
"""Each printed colour moves its own car while no switch is in force."""


def switch_mapping(switches: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Return which car each printed colour moves while ``switches`` are in force.

    Switches apply in the order they were played; white is never switched.
    """
    mapping = list(IDENTITY)
    for a, b in switches:
        for colour, car in enumerate(mapping):
            if car == a:
                mapping[colour] = b
            elif car == b:
                mapping[colour] = a
    return tuple(mapping)


@functools.lru_cache(maxsize=256)
def colours_in_force(switches: tuple[Switch, ...]) -> tuple[int, ...]:
    """Return which car each printed colour moves under the switch cards in force."""
    return switch_mapping([(s.a, s.b) for s in switches])


def switch_played(state: DetroitClevelandState, seat: int, card: int) -> DetroitClevelandState:
    """Put ``card``'s switch in force until the end of ``seat``'s next turn."""
    a, b = SWITCHES[card]
    switch = Switch(a=a, b=b, seat=seat, until=state.turn + state.players)
    return replace(state, switches=(*state.switches, switch))


def still_in_force(switches: tuple[Switch, ...], ending: int) -> tuple[Switch, ...]:
    """Return the switches that outlast turn ``ending``: the others stop as it ends."""
    # Most turns end none: the tuple is kept whole rather than copied.
    for switch in switches:
        if switch.until <= ending:
            return tuple(s for s in switches if s.until > ending)
    return switches
