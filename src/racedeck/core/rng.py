"""Named random streams derived from a match seed.

Every stream is its own ``random.Random`` seeded from a hash of the match seed and the
stream's name, so one consumer's draws never shift another's, and results do not depend
on the order or process in which matches run.
"""

from __future__ import annotations

import _random
import hashlib
import random
from typing import Any

Rng = random.Random

# ``random.Random.seed`` in Python only passes an int on to the C generator's own seed
# (and clears ``gauss_next``, which a fresh stream has clear); calling the C seed directly
# draws the same numbers without a frame and three type checks on every stream seeded.
_seed_c = _random.Random.seed


def derive_seed(seed: int, stream: str) -> int:
    """Return a 64-bit seed for ``stream`` derived from ``seed``."""
    digest = hashlib.blake2b(f"{seed}/{stream}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def stream(seed: int, name: str) -> Rng:
    """Return the random generator of stream ``name`` for the match seed ``seed``."""
    return random.Random(derive_seed(seed, name))


class _LazyStream(random.Random):
    """A stream that seeds its generator only when first drawn from.

    Seeding a Mersenne Twister costs microseconds, which add up over the engine steps of
    a short race (most draw nothing) and over the bots of a match (a heuristic bot never
    draws). What it draws is exactly what ``stream(seed, name)`` draws. It keeps only the
    stream's own derived seed, never the match seed: a bot holding its generator learns
    nothing about the engine's or another seat's streams (the hash is one-way).
    """

    def __init__(self, derived: int) -> None:
        # Deliberately not seeding here (random.Random.__init__ would): see _start.
        self.gauss_next = None
        self._pending: Any = derived

    def _derived(self) -> int:
        """Return the seed to start the generator from."""
        derived: int = self._pending
        return derived

    def _started(self) -> None:
        """Send later draws straight to the C generator, not through this class."""
        self._pending = None
        self.random = super().random  # type: ignore[method-assign]
        self.getrandbits = super().getrandbits  # type: ignore[method-assign]

    def _start(self) -> None:
        if self._pending is not None:
            derived = self._derived()
            self._started()
            _seed_c(self, derived)

    def random(self) -> float:
        """Return the next float in [0, 1)."""
        self._start()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        """Return an int with ``k`` random bits."""
        self._start()
        return super().getrandbits(k)

    def getstate(self) -> Any:
        """Return the generator's state."""
        self._start()
        return super().getstate()

    def setstate(self, state: Any) -> None:
        """Restore a state from ``getstate``: the stream's own seed is no longer wanted."""
        self._started()
        super().setstate(state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Seed the generator afresh: the stream's own seed is no longer wanted."""
        self._started()
        super().seed(a, version)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (for a bot's own process) or copied as a plain generator in the same state.
        return (random.Random, (), self.getstate())


class _LazyEngineStream(_LazyStream):
    """An engine stream, which also puts off hashing its name until it is first drawn from.

    Most engine steps draw nothing, so hashing eagerly would cost every step. It holds
    the match seed until then; no bot is ever handed one (the engine's own frames hold
    the seed anyway, see the threat model in docs/architecture.md).
    """

    def __init__(self, seed: int, name: str) -> None:
        self.gauss_next = None
        self._pending = (seed, name)

    def _derived(self) -> int:
        seed, name = self._pending
        return derive_seed(seed, name)


def engine_stream(seed: int, event_count: int) -> Rng:
    """Return the engine's generator for the decision taken after ``event_count`` events.

    Keying the engine's chance on the position in the log lets a match be forked from any
    event and still draw exactly what the original drew from there on.
    """
    return _LazyEngineStream(seed, f"game/{event_count}")


_BOT_STREAMS = tuple(f"bot/{seat}" for seat in range(16))
"""The names of the first seats' streams, made once: formatting one costs as much as
making its stream."""


def bot_stream(seed: int, seat: int) -> Rng:
    """Return the private generator of the bot in ``seat`` (seeded when it first draws).

    It holds only ``derive_seed(seed, "bot/<seat>")``, from which neither the match seed
    nor any other stream can be worked out.
    """
    name = _BOT_STREAMS[seat] if 0 <= seat < len(_BOT_STREAMS) else f"bot/{seat}"
    return _LazyStream(derive_seed(seed, name))
