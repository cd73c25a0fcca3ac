"""How cars move: legal destinations by breadth-first search, switches, the white car.

Positions are a tuple per car: a space index, ``FINISH`` once the car has crossed the
line, or ``OFF_TRACK`` before it is placed. A car moves one space at a time, straight
ahead or diagonally, never into or through a space another car holds. The search runs
over (space, steps) level by level, so its cost grows with the spaces a car can reach in
``count`` steps, never with the number of paths.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from racedeck.games.detroit_cleveland.data import WHITE
from racedeck.games.detroit_cleveland.track import FINISH

Positions = tuple[int, ...]
Successors = Sequence[tuple[int, ...]]
Option = tuple[int, int, int]
"""A car's possible move: (car, destination space or ``FINISH``, spaces moved)."""

IDENTITY: tuple[int, ...] = (0, 1, 2, 3, 4, 5, WHITE)


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


def moved(positions: Positions, car: int, to: int) -> Positions:
    """Return ``positions`` with ``car`` at ``to``."""
    return (*positions[:car], to, *positions[car + 1 :])


class CardPlay:
    """One movement card being played: the cars it moves after switches, and the rules for white.

    ``cars[i]`` is the car slot ``i`` moves (``WHITE`` for the wildcard), ``counts[i]``
    how far. ``own`` are the cars of the card's player, which the optional rule lets the
    white car move short of the full count.
    """

    __slots__ = ("cars", "counts", "excluded", "own", "successors", "white_own", "white_slot")

    def __init__(
        self,
        successors: Successors,
        moves: Sequence[tuple[int, int]],
        mapping: Sequence[int],
        own: frozenset[int] = frozenset(),
        white_own: bool = False,
    ) -> None:
        self.successors = successors
        self.cars = tuple(mapping[colour] for colour, _ in moves)
        self.counts = tuple(count for _, count in moves)
        self.white_slot = self.cars.index(WHITE) if WHITE in self.cars else -1
        self.excluded = frozenset(c for c in self.cars if c != WHITE)
        self.own = own
        self.white_own = white_own

    @classmethod
    def for_seat(
        cls,
        successors: Successors,
        moves: Sequence[tuple[int, int]],
        switches: Sequence[tuple[int, int]],
        owner: Sequence[int],
        seat: int,
        white_own: bool = False,
    ) -> CardPlay:
        """Return a card as ``seat`` plays it: ``switches`` in force, its own cars ``owner``'s."""
        own = frozenset(car for car, holder in enumerate(owner) if holder == seat)
        return cls(successors, moves, switch_mapping(switches), own, white_own)

    def options(self, positions: Positions, slot: int) -> list[Option]:
        """Return every legal (car, destination, steps) of ``slot``; empty if its car finished.

        Before the white slot, only destinations after which the white car can still
        make its move are legal: a card is only played if all of it can be.
        """
        car = self.cars[slot]
        if car == WHITE:
            return self.white_options(positions, slot)
        if positions[car] < 0:
            return []
        dests, steps, finish_at = reach(self.successors, positions, car, self.counts[slot])
        options = [(car, d, finish_at if d == FINISH else steps) for d in dests]
        if self.white_slot > slot:
            options = [o for o in options if self.feasible(moved(positions, car, o[1]), slot + 1)]
        return options

    def white_options(self, positions: Positions, slot: int) -> list[Option]:
        """Return the moves the white car may make: cars not on the card, moving in full."""
        count = self.counts[slot]
        options: list[Option] = []
        for car in range(6):
            if car in self.excluded or positions[car] < 0:
                continue
            dests, steps, finish_at = reach(self.successors, positions, car, count)
            if finish_at or steps == count or (self.white_own and car in self.own):
                options.extend((car, d, finish_at if d == FINISH else steps) for d in dests)
        return options

    def white_possible(self, positions: Positions) -> bool:
        """Return True when some car may take the white move from ``positions``."""
        count = self.counts[self.white_slot]
        for car in range(6):
            if car in self.excluded or positions[car] < 0:
                continue
            if (self.white_own and car in self.own) or can_move_full(
                self.successors, positions, car, count
            ):
                return True
        return False

    def feasible(self, positions: Positions, slot: int) -> bool:
        """Return True when the slots from ``slot`` on can be played through the white one."""
        if slot >= self.white_slot:
            return slot > self.white_slot or self.white_possible(positions)
        car = self.cars[slot]
        if positions[car] < 0:
            return self.feasible(positions, slot + 1)
        dests, _, _ = reach(self.successors, positions, car, self.counts[slot])
        return any(self.feasible(moved(positions, car, d), slot + 1) for d in dests)

    def playable(self, positions: Positions) -> bool:
        """Return True when the card can be played: its white move, if any, can be made."""
        return self.white_slot < 0 or self.feasible(positions, 0)
