"""The engine's draws written out draw what ``random.Random`` draws, number for number."""

from __future__ import annotations

import random

import pytest

from racedeck.core.rng import stream
from racedeck.games.lacorsa import chance


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 13, 52, 65, 78, 104])
def test_a_shuffle_is_the_generators_own(size: int) -> None:
    for seed in range(40):
        ours, theirs = list(range(size)), list(range(size))
        mine, its = stream(seed, "engine"), stream(seed, "engine")
        chance.shuffle(ours, mine)
        its.shuffle(theirs)
        assert ours == theirs
        assert mine.getstate() == its.getstate()


def test_a_die_roll_is_randint() -> None:
    mine, its = random.Random(7), random.Random(7)
    assert [chance.roll(mine, 6) for _ in range(500)] == [its.randint(1, 6) for _ in range(500)]
    assert mine.getstate() == its.getstate()


def test_a_generator_that_draws_otherwise_is_left_its_own_methods() -> None:
    class Floats(random.Random):
        def random(self) -> float:
            return super().random()

    ours, theirs = list(range(30)), list(range(30))
    chance.shuffle(ours, Floats(3))
    Floats(3).shuffle(theirs)
    assert ours == theirs
    assert chance.roll(Floats(4), 6) == Floats(4).randint(1, 6)
