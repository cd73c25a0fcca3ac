"""Tournament Rules: the owners sit in the order of their cars on the grid.

"Once the cars are positioned on the track, the car owners seat themselves in order from
the left of the pole position. If a player owns more than one car, he uses the car with
the highest position to determine the seating."

The option ``tournament_seating`` turns it on; seating is the turn order of the race
(``turn_order.turn_order``). Players without a car follow, clockwise.
"""

from __future__ import annotations

from collections.abc import Sequence


def seating(owners_on_grid: Sequence[int], clockwise: Sequence[int]) -> tuple[int, ...]:
    """Return the seats in tournament order.

    ``owners_on_grid`` are the owners of the owned cars from start position #1 down, so
    an owner's first appearance is his best-placed car; ``clockwise`` is the usual order,
    which seats the players without a car after the owners.
    """
    seated: list[int] = []
    for seat in owners_on_grid:
        if seat not in seated:
            seated.append(seat)
    seated.extend(seat for seat in clockwise if seat not in seated)
    return tuple(seated)
