"""Swapping cards with your opponent, and the penny's advance that closes a section.

From the rulebook's section "The First Lap": "Swapping cards with your opponent" and
"Completing your first lap":

    Once you're done scoring, each driver takes the card played by his opponent. The
    penny then advances to the next section of track.

    Continue playing cards, earning Speed points, subtracting your costs, swapping cards,
    and advancing the penny until you've made it once around the track.

The swap closes every section, after any pit stops (a pit card, face down at the reveal,
goes to the opponent too), and puts the section on the public record. Then the penny
moves on: to the next section, to the break between laps after the last section, or to
the finish after the last section of the last lap.
"""

from __future__ import annotations

import functools

from msgspec.structs import replace

from racedeck.games.famous500 import between_laps
from racedeck.games.famous500.hands import add, remove
from racedeck.games.famous500.state import Car, Famous500State, Phase, SectionPlayed

_NOTHING_LAID = (0, 0)
_NO_PIT_STOPS = (False, False)
_NO_POINTS = (0, 0)


def swapped(
    state: Famous500State,
    points: tuple[int, ...],
    cars: tuple[Car, ...],
    section: int,
    trailing: int,
    phase: Phase,
) -> Famous500State:
    """Return ``state`` after the swap, the cars scored and the penny where it goes next.

    Each driver takes the card the other played, and the section goes on the record. Each
    now knows a card the other holds; a card it half-knew the other held is settled.
    """
    c0, c1 = state.laid
    h0, h1 = state.hands
    k0, k1 = state.opponent_known
    m0, m1 = state.opponent_maybe
    record = SectionPlayed(
        lap=state.lap, section=state.section, cards=(c0, c1), pits=state.pits, points=points
    )
    # One replace with every field spelled out: it is the commonest fold of a race.
    return replace(
        state,
        hands=(add(h0, c1), add(h1, c0)),
        opponent_known=(_learnt(k0, c0, c1), _learnt(k1, c1, c0)),
        opponent_maybe=(remove(m0, c1) if c1 in m0 else m0, remove(m1, c0) if c0 in m1 else m1),
        history=(*state.history, record),
        laid=_NOTHING_LAID,
        pits=_NO_PIT_STOPS,
        pit_order=(),
        points=_NO_POINTS,
        cars=cars,
        section=section,
        trailing=trailing,
        phase=phase,
    )


@functools.lru_cache(maxsize=1 << 12)  # a few cards of nine: see ``hands.add``
def _learnt(known: tuple[int, ...], gave: int, took: int) -> tuple[int, ...]:
    """Return what a driver knows its opponent holds after giving it ``gave`` for ``took``.

    The card it gave is known to be there now; the card it took is not there any more.
    """
    if took in known:
        return (*remove(known, took), gave)
    return (*known, gave)


def close_section(
    state: Famous500State, cars: tuple[Car, ...], points: tuple[int, ...]
) -> Famous500State:
    """Swap, then advance the penny: next section, between laps, or the finish."""
    section = state.section + 1
    if section < len(state.setup.kinds):
        return swapped(state, points, cars, section, -1, "choose")
    if state.lap >= state.setup.laps:
        # Across the finish line: ``finishing_the_race`` names the winner.
        return swapped(state, points, cars, state.section, -1, "finish")
    trailing = between_laps.trailing_driver(cars, state.laid)
    return swapped(state, points, cars, state.section, trailing, "discard")
