"""Running the Race: how one car moves, and where it may stop.

"All cars must move forward one space at a time, either diagonally from lane to lane or
straight ahead. Cars cannot be moved sideways, backwards or over other cars. Two cars may
not occupy the same space, nor may a car move through a space occupied by another car."
"Each car must be moved the full number of spaces, if possible."

Positions are a tuple per car: a space index, ``FINISH`` once the car has crossed the
line, or ``OFF_TRACK`` before it is placed. The search runs over (space, steps) level by
level, so its cost grows with the spaces a car can reach in ``count`` steps, never with
the number of paths. Which car a card moves, and the white car, are in
``movement_cards``; switches in ``switch_cards``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from racedeck.games.detroit_cleveland.track import FINISH, Track

Positions = tuple[int, ...]
"""Per car, its space index, ``FINISH`` or ``OFF_TRACK``."""
Successors = Sequence[tuple[int, ...]]
"""Per space, the spaces one step ahead; ``FINISH`` crosses the line."""


def reach(
    successors: Successors, positions: Positions, car: int, count: int
) -> tuple[tuple[int, ...], int, int]:
    """Return ``(destinations, steps, finish_at)`` of ``car`` moving up to ``count`` spaces.

    A car must move the full count if any path allows it, otherwise as far as it can:
    ``destinations`` are the spaces ``steps`` spaces away (the greatest number reachable;
    0 means the car is blocked where it stands and the only destination is its own
    space). Crossing the finish line counts as a full move: when it can be crossed within
    ``count`` spaces, ``finish_at`` is the fewest spaces that cross it and ``FINISH`` comes
    first among the destinations, followed by any spaces exactly ``count`` away.
    """
    start = positions[car]
    # Cars off the track or finished hold negative positions, which no space leads to.
    blocked = set(positions)
    blocked.discard(start)
    level: Iterable[int] = (start,)
    steps = 0
    finish_at = 0
    while steps < count:
        following: set[int] = set()
        for space in level:
            for nxt in successors[space]:
                if nxt == FINISH:
                    if not finish_at:
                        finish_at = steps + 1
                elif nxt not in blocked:
                    following.add(nxt)
        if not following:
            break
        level = following
        steps += 1
    if finish_at:
        spaces = tuple(sorted(level)) if steps == count else ()
        return (FINISH, *spaces), count, finish_at
    return tuple(sorted(level)), steps, 0


Reach = tuple[tuple[int, ...], int, int]
"""What ``reach`` returns: (destinations, steps, finish_at)."""


@functools.lru_cache(maxsize=64)
def within(track: Track, count: int) -> tuple[frozenset[int], ...]:
    """Per space, the spaces a car there could pass through in ``count`` steps, cars aside.

    Only a car standing on one of them can change where a car on that space may go.
    """
    successors = track.successors
    cones: list[frozenset[int]] = []
    for space in range(len(successors)):
        cone: set[int] = set()
        level = {space}
        for _ in range(count):
            level = {nxt for s in level for nxt in successors[s] if nxt != FINISH}
            cone |= level
        cones.append(frozenset(cone))
    return tuple(cones)


Road = tuple[frozenset[int], Reach]
"""For a car on one space and one count: the spaces ahead within the count, and ``reach``
with no car in the way."""


@functools.lru_cache(maxsize=64)
def roads(track: Track, count: int) -> tuple[Road, ...]:
    """Per space, its ``Road`` for ``count`` spaces: what ``destinations`` looks up."""
    cones = within(track, count)
    return tuple(
        (cone, reach(track.successors, (space,), 0, count)) for space, cone in enumerate(cones)
    )


@functools.lru_cache(maxsize=1 << 15)
def reach_past(track: Track, space: int, count: int, near: frozenset[int]) -> Reach:
    """Return ``reach`` of a car on ``space`` moving ``count`` spaces with cars on ``near``."""
    return reach(track.successors, (space, *near), 0, count)


def destinations(track: Track, positions: Positions, car: int, count: int) -> Reach:
    """Return ``reach(track.successors, positions, car, count)``, looked up.

    Where a car may go depends only on the cars within ``count`` steps of it (``within``):
    with none, on the open road's answer, computed once per track; otherwise on which
    spaces ahead are taken, so the answer is cached by those.
    """
    start = positions[car]
    cone, open_road = roads(track, count)[start]
    if cone.isdisjoint(positions):
        return open_road
    return reach_past(track, start, count, cone.intersection(positions))


def can_move_full(successors: Successors, positions: Positions, car: int, count: int) -> bool:
    """Return True when ``car`` can move all ``count`` spaces (or cross the finish line)."""
    start = positions[car]
    blocked = set(positions)
    blocked.discard(start)
    level = {start}
    for _ in range(count):
        following: set[int] = set()
        for space in level:
            for nxt in successors[space]:
                if nxt == FINISH:
                    return True
                if nxt not in blocked:
                    following.add(nxt)
        if not following:
            return False
        level = following
    return True


def moved(positions: Positions, car: int, to: int) -> Positions:
    """Return ``positions`` with ``car`` at ``to``."""
    # A list changed in place and copied back costs less than slicing the tuple twice.
    changed = [*positions]
    changed[car] = to
    return tuple(changed)
