"""What the Detroit-Cleveland heuristic's score of positions reads, worked out once.

The heuristic scores positions by how far its cars have come, how little its rivals' cars
have, and how hemmed in each car is (``bots.DetroitClevelandHeuristic``). Search bots ask
it at every step of every playout, so what that score reads is computed once per track
(``_tables``, ``_cone_masks``), per space and cars in reach (``hemmed``, ``plain_options``)
or per card (``_slot_cones``) and shared by every bot of a process: pure functions of
frozen inputs, cached.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import NamedTuple

from racedeck.games.detroit_cleveland.movement import Positions, reach_past, roads, within
from racedeck.games.detroit_cleveland.movement_cards import CardPlay, Option
from racedeck.games.detroit_cleveland.track import FINISH, Track

RIVAL_WEIGHT = 0.5
"""How much a rival car's progress counts against the bot, per unit of its own."""
MOBILITY_LOOKAHEAD = 3
"""How many spaces ahead the bot looks when it judges whether a car is hemmed in."""
MOBILITY_WEIGHT = 1.0
PLACE_BONUS = 4.0
"""Extra score per place better, for a car across the line."""


Terms = tuple[float, float]
"""A car's term in the score, as (a rival's car, the bot's own car): indexed by ``mine``."""


ScoreAt = Callable[[Positions, int], float]
"""A score of positions, handed the mask of the spaces they take (``occupancy``)."""
Spread = Callable[[Positions, int, int, Sequence[int]], list[float]]
"""The scores of positions with one car moved to each of some destinations."""
MOVING = -3
"""In ``spread``, the space of the car that moves: none of the track's."""


Chosen = tuple[Positions, int, float]
"""Where a greedy slot left the cars: the positions, their taken spaces and their score."""
Pick = tuple[int, float]
"""One car's choice among spaces: the index of the destination picked, and its score."""


class _Tables(NamedTuple):
    """What scoring on one track reads, per space, computed once per track."""

    bits: tuple[int, ...]
    """Per position, its bit in a mask of the taken spaces: none for ``FINISH``/``OFF_TRACK``."""
    cones: tuple[int, ...]
    """Per space, ``within(track, MOBILITY_LOOKAHEAD)`` as a mask."""
    free: tuple[Terms, ...]
    """Per space, the terms of a car there with no car in its cone."""


@functools.lru_cache(maxsize=16)
def _tables(track: Track) -> _Tables:
    """Return the scoring tables of ``track``.

    The terms are computed with the very operations of the score, so they are the same
    floats. ``bits`` ends with two zeros so that the negative positions index no space.
    """
    free: list[Terms] = []
    for value in track.distances:
        value += MOBILITY_WEIGHT * float(MOBILITY_LOOKAHEAD)
        free.append((-RIVAL_WEIGHT * value, value))
    cones = tuple(sum(1 << s for s in cone) for cone in within(track, MOBILITY_LOOKAHEAD))
    bits = (*(1 << s for s in range(len(track.ids))), 0, 0)
    return _Tables(bits, cones, tuple(free))


@functools.lru_cache(maxsize=64)
def _cone_masks(track: Track, count: int) -> tuple[int, ...]:
    """Per space, ``within(track, count)`` as a mask: the spaces that shape a move there."""
    return tuple(sum(1 << s for s in cone) for cone in within(track, count))


@functools.lru_cache(maxsize=4096)
def _slot_cones(play: CardPlay) -> tuple[tuple[int, ...], ...]:
    """Per slot of ``play``, the ``_cone_masks`` of its count: looked up once a card."""
    return tuple(_cone_masks(play.track, count) for count in play.counts)


@functools.lru_cache(maxsize=1 << 16)
def hemmed(track: Track, space: int, near: int) -> Terms:
    """Return the terms of a car on ``space`` with cars on the spaces of the mask ``near``.

    A pure function of the track and the cars in the car's cone, so one table serves every
    bot of a process: a search starts new bots at every decision, and the cars ahead take
    few shapes.
    """
    # The cars in the cone, as ``cone.intersection(positions)`` would give them.
    cars = frozenset(s for s in within(track, MOBILITY_LOOKAHEAD)[space] if near >> s & 1)
    steps = reach_past(track, space, MOBILITY_LOOKAHEAD, cars)[1]
    value = track.distances[space]
    value += MOBILITY_WEIGHT * float(steps)
    return (-RIVAL_WEIGHT * value, value)


def spaces_to_spread(options: tuple[Option, ...]) -> tuple[int, ...] | None:
    """Return the destinations of ``options`` when they are one car's, on spaces only.

    Those are scored together (``spread``); None when there is no choice, or several
    cars, or the line among them (``FINISH`` comes first when it can be reached).
    """
    if len(options) < 2:
        return None
    car = options[0][0]
    if options[-1][0] != car or options[0][1] == FINISH:
        return None
    return tuple([dest for _, dest, _ in options])


@functools.lru_cache(maxsize=1 << 16)
def plain_options(
    track: Track, car: int, start: int, count: int, near: int
) -> tuple[tuple[Option, ...], tuple[int, ...] | None]:
    """Return the options of ``car`` on ``start`` moving its own colour ``count`` spaces.

    ``near`` is the mask of the taken spaces within ``count`` steps of ``start``: where a
    car may go depends on nothing else when no white move lies ahead on its card (what
    ``CardPlay.options`` gives then), so the answer is shared by every bot and card. With
    the options comes their ``spaces_to_spread``.
    """
    cone = within(track, count)[start]
    cars = frozenset(s for s in cone if near >> s & 1)
    if cars:
        dests, steps, finish_at = reach_past(track, start, count, cars)
    else:
        dests, steps, finish_at = roads(track, count)[start][1]
    options = tuple([(car, d, finish_at if d == FINISH else steps) for d in dests])
    return options, spaces_to_spread(options)


@functools.lru_cache(maxsize=1024)
def _owned(owner: tuple[int, ...], seat: int) -> tuple[tuple[int, int], ...]:
    """Return the owned cars in car order, each with 1 if ``seat`` owns it, else 0."""
    return tuple((car, int(holder == seat)) for car, holder in enumerate(owner) if holder >= 0)


def white_options(play: CardPlay, positions: Positions, taken: int) -> tuple[Option, ...]:
    """Return ``play.options(positions, play.white_slot)`` read from ``plain_options``.

    A car the white car may move goes where it would go for its own colour (the spaces in
    reach decide), so each car's answer is the shared table's; ``taken`` is the mask of
    the spaces ``positions`` take. A car qualifies as ``CardPlay.white_options`` says: it
    can cross the line, or move the full count, or it is the player's own under the
    optional rule.
    """
    track = play.track
    count = play.counts[play.white_slot]
    cones = _cone_masks(track, count)
    excluded, own, white_own = play.excluded, play.own, play.white_own
    options: list[Option] = []
    for car in range(6):
        start = positions[car]
        if start < 0 or car in excluded:
            continue
        found = plain_options(track, car, start, count, taken & cones[start])[0]
        # ``reach`` always answers (a blocked car: its own space, 0 steps); the line comes
        # first when it can be crossed, and every space is as far as the car can go.
        _, dest, steps = found[0]
        if dest == FINISH or steps == count or (white_own and car in own):
            options += found
    return tuple(options)


def occupancy(bits: Sequence[int], positions: Positions) -> int:
    """Return the mask of the spaces ``positions`` take (``bits`` from ``_tables``)."""
    taken = 0
    for space in positions:
        taken |= bits[space]
    return taken
