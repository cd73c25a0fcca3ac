"""An agent's info: a plain ``dict`` whose observation is built only when it is read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from racedeck.rl.aec import RacedeckEnv


class Info(dict[str, Any]):
    """An agent's info: a plain ``dict`` whose ``"observation"`` is built on first read.

    Every way of reading the mapping (a key, ``get``, ``in``, iteration, ``keys``,
    ``items``, ``len``, ``==``, copying) sees the observation; only the act of building
    it waits until someone looks.
    """

    __slots__ = ("_env", "_seat", "_state")

    def __init__(self, env: RacedeckEnv | None, seat: int, **items: Any) -> None:
        super().__init__(items)
        self._env = env
        self._seat = seat
        self._state: Any = None
        """None for the environment's own info, which shows the observation as it is when
        read; a copy handed out (``fresh``) keeps the state it was handed out at."""

    def _fill(self) -> None:
        env = self._env
        if env is not None:
            self._env = None
            state = self._state
            # A copy read while the match is where it was handed out shows the observation
            # the environment keeps; read later, it is worked out from that state, so a
            # kept info never shows a later decision's (or another episode's) observation.
            observed = (
                env.raw_observation(self._seat)
                if state is None or env.state_ is state
                else env.game.observe(state, self._seat)
            )
            dict.__setitem__(self, "observation", observed)

    def __getitem__(self, key: str) -> Any:
        if key == "observation":
            self._fill()
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        """Return the value of ``key``, or ``default``."""
        if key == "observation":
            self._fill()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        return (key == "observation" and self._env is not None) or dict.__contains__(self, key)

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def keys(self) -> Any:
        """Return the keys, ``"observation"`` among them."""
        self._fill()
        return dict.keys(self)

    def values(self) -> Any:
        """Return the values, the observation among them."""
        self._fill()
        return dict.values(self)

    def items(self) -> Any:
        """Return the items, the observation among them."""
        self._fill()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        """Return a plain ``dict`` with the same items."""
        self._fill()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, Info):
            other._fill()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def fresh(self, arrays: bool = True) -> Info:
        """Return a new info with the same items (arrays copied), the observation still lazy.

        The copy belongs to this moment of the match: read after the environment has
        moved on, its observation is still this moment's. Without ``arrays`` it shares
        this info's arrays (the action mask: read-only), so the two compare equal.
        """
        items = {
            key: value.copy() if arrays and isinstance(value, np.ndarray) else value
            for key, value in dict.items(self)
        }
        copy = Info(self._env, self._seat)
        env = self._env
        copy._state = self._state if env is None or self._state is not None else env.state_
        dict.update(copy, items)
        return copy

    def __reduce__(self) -> Any:
        return (dict, (self.copy(),))
