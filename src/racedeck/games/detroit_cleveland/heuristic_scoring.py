"""The Detroit-Cleveland heuristic's score of positions, for one view of the cars' owners.

A position scores, car by car in car order, each owned car's term: how far it has come
and how free it is to move on (``hemmed``), the bot's own cars counted in full and its
rivals' at ``-RIVAL_WEIGHT``; a car across the line counts the line and its place. The
sum runs in the same order every time, so equal positions score equal, float for float.

``Scoring.spread`` scores one car's destinations together: the other cars' terms are
worked out once (``Scoring.lift``), and a destination changes only the terms of the cars
whose cone holds it.
"""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.games.detroit_cleveland.heuristic_tables import (
    MOBILITY_LOOKAHEAD,
    MOBILITY_WEIGHT,
    MOVING,
    PLACE_BONUS,
    RIVAL_WEIGHT,
    _tables,
    hemmed,
)
from racedeck.games.detroit_cleveland.movement import Positions
from racedeck.games.detroit_cleveland.track import FINISH, Track

Part = tuple[int, int, int, float]
"""One owned car in ``spread``: its space (``MOVING`` for the car that moves), ``mine``,
its cone's mask (-1 for the car that moves: every destination recomputes its term) and
its term with the moving car lifted."""


Lifted = tuple[list[Part], float, int, int, list[float], int]
"""The owned cars' terms once the moving car is lifted off its space, for ``spread``:
``(parts, head, lead, moving, trail, trail_cones)``. ``head`` is the sum of the terms of
the cars before the moving car, added in order from 0.0, and ``lead`` the union of their
cones; ``moving`` the moving car's ``mine`` (-1 for an unowned car, whose term does not
count); ``trail`` the terms of the cars after it, and ``trail_cones`` the union of their
cones. A plain tuple: one is made at every ``spread``."""


class Scoring:
    """The heuristic's ``score`` and ``spread`` for one seat and one view of the cars.

    ``owned`` lists the owned cars in car order, each with 1 for the seat's own and 0 for
    a rival's (``heuristic_tables._owned``); ``already`` is the race's finishing order so
    far; ``known`` the scores already worked out for these owners and finishing order.
    """

    __slots__ = (
        "already",
        "bits",
        "cones",
        "free",
        "known",
        "length",
        "owned",
        "track",
    )

    def __init__(
        self,
        track: Track,
        owned: tuple[tuple[int, int], ...],
        already: tuple[int, ...],
        known: dict[Positions, float],
    ) -> None:
        self.track = track
        self.length = track.length
        self.bits, self.cones, self.free = _tables(track)
        self.owned = owned
        self.already = already
        self.known = known

    def across(self, finished: list[int], car: int) -> float:
        """Return the value of ``car`` across the line, placed after ``finished``.

        Cars that cross the line in a position take the next places, in car order;
        ``car`` joins ``finished`` if it is not there yet.
        """
        if car not in finished:
            finished.append(car)
        value = self.length + PLACE_BONUS * (6 - finished.index(car))
        return value + MOBILITY_WEIGHT * float(MOBILITY_LOOKAHEAD)

    def score(self, positions: Positions, taken: int) -> float:
        """Return the score of ``positions``, whose spaces are the mask ``taken``."""
        known = self.known
        total = known.get(positions)
        if total is not None:
            return total
        track, cones, free = self.track, self.cones, self.free
        finished: list[int] | None = None
        total = 0.0
        for car, mine in self.owned:
            space = positions[car]
            if space == FINISH:
                if finished is None:
                    finished = list(self.already)
                value = self.across(finished, car)
                total += value if mine else -RIVAL_WEIGHT * value
                continue
            near = taken & cones[space]
            total += (hemmed(track, space, near) if near else free[space])[mine]
        known[positions] = total
        return total

    def spread(
        self, positions: Positions, taken: int, car: int, dests: Sequence[int]
    ) -> list[float]:
        """Return the score of ``positions`` with ``car`` moved to each of ``dests``.

        The same floats as ``score`` of each, found with less work: with ``car`` off its
        space, every other car's term is worked out once (``lift``); for a destination,
        only the terms of ``car`` and of the cars whose cone holds it change. The sum
        still runs car by car in order: the terms before ``car`` are added up once, and a
        destination in none of their cones starts from that sum (the same float, as the
        same additions in the same order). No destination may cross the line, and ``car``
        must stand on a space.
        """
        base = taken & ~self.bits[positions[car]]
        lifted = self.lift(positions, base, car)
        parts, head, lead, moving, trail, trail_cones = lifted
        track, bits, cones, free = self.track, self.bits, self.cones, self.free
        totals: list[float] = []
        for dest in dests:
            bit = bits[dest]
            after = base | bit
            if not bit & lead:
                # The terms before ``car`` stand: their sum is ``head``.
                total = head
                if moving >= 0:
                    near = after & cones[dest]
                    total += (hemmed(track, dest, near) if near else free[dest])[moving]
                    if bit & trail_cones:
                        for space, mine, cone, term in parts[len(parts) - len(trail) :]:
                            if cone & bit:
                                near = after & cones[space]
                                terms = hemmed(track, space, near) if near else free[space]
                                term = terms[mine]
                            total += term
                    else:
                        for term in trail:
                            total += term
                totals.append(total)
                continue
            total = 0.0
            for space, mine, cone, term in parts:
                if cone & bit:
                    if space == MOVING:
                        space = dest
                    near = after & cones[space]
                    term = (hemmed(track, space, near) if near else free[space])[mine]
                total += term
            totals.append(total)
        return totals

    def lift(self, positions: Positions, base: int, car: int) -> Lifted:
        """Return the owned cars' terms with ``car`` lifted: the other cars take ``base``."""
        track, cones, free = self.track, self.cones, self.free
        parts: list[Part] = []
        finished: list[int] | None = None
        head = 0.0
        lead = 0
        moving = -1
        trail: list[float] = []
        trail_cones = 0
        for other, mine in self.owned:
            space = positions[other]
            if other == car:
                # Its term is the destination's: a cone of every bit recomputes it.
                parts.append((MOVING, mine, -1, 0.0))
                moving = mine
                continue
            if space == FINISH:
                if finished is None:
                    finished = list(self.already)
                value = self.across(finished, other)
                cone = 0
                term = value if mine else -RIVAL_WEIGHT * value
            else:
                cone = cones[space]
                near = base & cone
                term = (hemmed(track, space, near) if near else free[space])[mine]
            parts.append((space, mine, cone, term))
            if moving < 0:
                head += term
                lead |= cone
            else:
                trail.append(term)
                trail_cones |= cone
        return parts, head, lead, moving, trail, trail_cones
