"""Running the Race: how a car moves; each test quotes the rulebook sentence it pins."""

from __future__ import annotations

import random
import time

import pytest

from racedeck.games.detroit_cleveland.events import (
    CarMoved,
)
from racedeck.games.detroit_cleveland.movement import can_move_full, destinations, reach, within
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.track import (
    FINISH,
    OFF_TRACK,
    Section,
    Track,
    build_track,
    builtin_track,
    compile_track,
)
from tests.games.detroit_cleveland.support import (
    SPREAD,
    K,
    figures_options,
    options,
    play_card,
    race_state,
)

OPTS = options()
TRACK = track_of(OPTS)


def figures_track() -> Track:
    return track_of(figures_options())


def test_a_blocked_car_stops_where_it_is_blocked() -> None:
    """Each car must be moved the full number of spaces, if possible."""
    at = {**SPREAD, "black": "pipe1:1C", "red": "pipe1:3C"}
    state = race_state(OPTS, at, {0: (39,), 1: (38,)})
    state, made = play_card(state, 0, 39)
    assert made == [CarMoved(car=K, to="pipe1:2C", steps=1)]


def test_cars_move_forward_never_sideways_backwards_or_over_cars() -> None:
    """All cars must move forward one space at a time, either diagonally from lane to lane
    or straight ahead. Cars cannot be moved sideways, backwards or over other cars. Two cars
    may not occupy the same space, nor may a car move through a space occupied by another
    car."""
    for name in ("detroit", "cleveland"):
        track = track_of(options(track=name))
        for space_index, nexts in enumerate(track.successors):
            for nxt in nexts:
                if nxt == FINISH:
                    continue
                assert track.distances[nxt] > track.distances[space_index]
                assert abs(track.lanes[nxt] - track.lanes[space_index]) <= 1
    # A car on the single-lane pipe cannot pass the car in front of it.
    at = {**SPREAD, "black": "narrows:3C", "red": "pipe1:2C"}
    state = race_state(OPTS, at, {0: (39,), 1: (38,)})
    state, made = play_card(state, 0, 39)
    assert made == [CarMoved(car=K, to="pipe1:1C", steps=1)]
    assert len(set(state.positions)) == 6


def _paths(successors, positions, car, count):
    """Every destination by enumerating every path: the slow reference for the search."""
    blocked = {p for i, p in enumerate(positions) if p >= 0 and i != car}
    best: dict[int, set[int]] = {}
    finish = False

    def walk(space, steps):
        nonlocal finish
        best.setdefault(steps, set()).add(space)
        if steps == count:
            return
        for nxt in successors[space]:
            if nxt == FINISH:
                finish = True
            elif nxt not in blocked:
                walk(nxt, steps + 1)

    walk(positions[car], 0)
    if finish:
        return {FINISH} | best.get(count, set())
    return best[max(best)]


@pytest.mark.parametrize("name", ["detroit", "cleveland"])
def test_the_search_agrees_with_enumerating_every_path(name: str) -> None:
    track = builtin_track(name)
    rng = random.Random(name)
    for _ in range(300):
        spaces = rng.sample(range(len(track.ids)), 6)
        count = rng.choice((1, 2, 4, 5, 6, 10))
        car = rng.randrange(6)
        positions = tuple(spaces)
        dests, steps, finish_at = reach(track.successors, positions, car, count)
        assert set(dests) == _paths(track.successors, positions, car, count)
        assert can_move_full(track.successors, positions, car, count) == (
            bool(finish_at) or steps == count
        )


def test_the_search_scales_with_the_track_not_the_paths() -> None:
    # A 3-lane straight of 160 rows (480 spaces, near a track's most): 80 steps have
    # about 2.5**80 paths, but few spaces.
    data = build_track(
        "long",
        "Long",
        [Section("s", {0: 160, 1: 160, 2: 160})],
        ["s:6L"]
        + [f"s:{k}{lane}" for k, lane in ((5, "C"), (4, "L"), (3, "C"), (2, "L"), (1, "C"))],
    )
    track = compile_track(data, "long")
    positions = (track.index["s:1L"], -2, -2, -2, -2, -2)
    started = time.perf_counter()
    dests, steps, _ = reach(track.successors, positions, 0, 80)
    assert time.perf_counter() - started < 0.5
    assert steps == 80
    assert {track.ids[d] for d in dests} == {"s:81L", "s:81C", "s:81R"}


@pytest.mark.parametrize("name", ["detroit", "cleveland", "figures"])
def test_looked_up_destinations_are_the_search_s(name: str) -> None:
    """``destinations`` answers from the cars within a count's reach; it must say what the
    search says, wherever the other cars stand."""
    track = figures_track() if name == "figures" else builtin_track(name)
    rng = random.Random(name)
    spaces = range(len(track.ids))
    for _ in range(400):
        others = rng.sample(spaces, rng.randrange(1, 6))
        positions = (*others, *(rng.choice((FINISH, OFF_TRACK)) for _ in range(6 - len(others))))
        car = rng.randrange(len(others))
        count = rng.choice((1, 2, 3, 4, 5, 6, 10))
        assert destinations(track, positions, car, count) == reach(
            track.successors, positions, car, count
        )


def test_within_is_every_space_a_car_could_pass_through() -> None:
    track = builtin_track("detroit")
    for count in (1, 3, 6):
        cones = within(track, count)
        for space in range(0, len(track.ids), 7):
            level = {space}
            seen: set[int] = set()
            for _ in range(count):
                level = {n for s in level for n in track.successors[s] if n != FINISH}
                seen |= level
            assert cones[space] == seen
            assert space not in cones[space], "no space is ahead of itself"
