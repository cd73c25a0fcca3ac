"""Encoders: one game's observations as fixed-size vectors, its actions as fixed indexes.

An encoder is made for one game, its options and its number of seats, and then never
changes. ``encode`` turns an observation (never a state) into ``size`` numbers in
[-1, 1]; ``path`` turns an action into the indexes that choose it, each below
``actions``. Most actions are one index. An action of a kind too numerous to list (a
Famous 500 car design, a Detroit-Cleveland bid or destination) is two or more: a first
index for its kind and the part that is small, then the rest, one stage at a time. The
paths of the legal actions of any one decision are distinct and none is the beginning of
another, so a decision is a walk down them (``Choice``).

Games without an encoder of their own get ``GenericEncoder``.
"""

from __future__ import annotations

import abc
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from racedeck.core.errors import IllegalActionError, RacedeckError
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options

Vector = npt.NDArray[np.float32]
"""A numeric observation: ``float32``, one dimension, values in [-1, 1]."""

Mask = npt.NDArray[np.int8]
"""An action mask: ``int8``, 1 for each index that may be chosen now."""


class EncodingError(RacedeckError):
    """An encoder cannot represent a game's action or observation (a bug in the encoder)."""


class Features:
    """A vector under construction: numbers appended in a fixed order, then frozen."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: list[float] = []

    def add(self, value: float) -> None:
        """Append one number."""
        self.values.append(value)

    def extend(self, values: Iterable[float]) -> None:
        """Append several numbers."""
        self.values.extend(values)

    def one_hot(self, index: int, size: int) -> None:
        """Append ``size`` numbers, 1 at ``index`` and 0 elsewhere (all 0 if out of range)."""
        row = [0.0] * size
        if 0 <= index < size:
            row[index] = 1.0
        self.values.extend(row)

    def counts(self, items: Iterable[int], size: int, scale: float = 1.0) -> None:
        """Append ``size`` numbers: how many of ``items`` equal each index, times ``scale``."""
        row = [0.0] * size
        for item in items:
            if 0 <= item < size:
                row[item] += scale
        self.values.extend(row)

    def array(self, size: int) -> Vector:
        """Return the numbers as a vector of ``size``, clipped to [-1, 1]."""
        if len(self.values) != size:
            raise EncodingError(f"encoded {len(self.values)} numbers, the encoder promises {size}")
        return np.clip(np.asarray(self.values, dtype=np.float32), -1.0, 1.0)


class Encoder(abc.ABC):
    """One game's observations and actions in numbers, for fixed options and seats."""

    name: str = ""
    """The game this encoder is for (empty for the generic one)."""

    def __init__(self, game: AnyGame, options: Options, players: int) -> None:
        self.game = game
        self.options = options
        self.players = players
        self.actions = 1
        """How many action indexes there are: the action space is ``Discrete(actions)``."""
        self.size = 1
        """How many numbers ``encode`` returns."""
        self.stages = 1
        """The most indexes one action's path has."""
        self._index_of: dict[Action, int] = {}
        self._path_of: dict[Action, tuple[int, ...]] = {}
        self._menus: dict[int, tuple[Sequence[Action], Menu]] = {}

    @abc.abstractmethod
    def path(self, action: Action) -> tuple[int, ...]:
        """Return the indexes that choose ``action``, first to last."""

    @abc.abstractmethod
    def features(self, observation: Observation, out: Features) -> None:
        """Append the ``size`` numbers of ``observation`` to ``out``."""

    def encode(self, observation: Observation) -> Vector:
        """Return ``observation`` as ``size`` numbers in [-1, 1]."""
        out = Features()
        self.features(observation, out)
        return out.array(self.size)

    def paths(self, legal: Sequence[Action]) -> list[tuple[int, ...]]:
        """Return the path of each legal action (for the generic encoder, by position)."""
        path_of = self._path_of
        if len(path_of) > KNOWN_LIMIT:
            path_of.clear()
        out = []
        for action in legal:
            path = path_of.get(action)
            if path is None:
                path = path_of[action] = self.path(action)
            out.append(path)
        return out

    def menu(self, legal: Sequence[Action]) -> Menu:
        """Return the legal actions as a tree of indexes (see ``Choice``).

        Games hand out the same tuple for a long list they keep (Famous 500's designs),
        so a long list's tree is kept by identity and built once.
        """
        if self.stages == 1 and len(legal) <= 64:
            index_of = self._index_of
            try:
                tree: Menu = dict(zip([index_of[action] for action in legal], legal, strict=True))
            except KeyError:
                if len(index_of) > KNOWN_LIMIT:
                    index_of.clear()
                for action in legal:
                    if action not in index_of:
                        (index_of[action],) = self.path(action)
                tree = dict(zip([index_of[action] for action in legal], legal, strict=True))
            if len(tree) != len(legal):
                raise EncodingError(f"two legal actions share an index: {self.paths(legal)}")
            return tree
        kept = self._menus.get(id(legal))
        if kept is not None and kept[0] is legal:
            return kept[1]
        tree = build_menu(legal, self.paths(legal))
        if len(legal) > 64:
            if len(self._menus) > 64:
                self._menus.clear()
            self._menus[id(legal)] = (legal, tree)
        return tree


KNOWN_LIMIT = 100_000
"""How many actions' paths an encoder keeps before it starts afresh."""

Menu = dict[int, Any]
"""A decision as a tree: each index leads to an action or to the menu of the next stage."""


def build_menu(legal: Sequence[Action], paths: Sequence[tuple[int, ...]]) -> Menu:
    """Return the tree of ``paths`` leading to ``legal``; refuse shared or nested paths."""
    if paths and all(len(path) == 1 for path in paths):
        tree: Menu = {path[0]: action for path, action in zip(paths, legal, strict=True)}
        if len(tree) != len(legal):
            raise EncodingError(f"two legal actions share an index: {sorted(paths)}")
        return tree
    tree = {}
    for action, path in zip(legal, paths, strict=True):
        node = tree
        for index in path[:-1]:
            below = node.setdefault(index, {})
            if not isinstance(below, dict):
                raise EncodingError(f"the path {path} of {action!r} goes through an action")
            node = below
        if path[-1] in node:
            raise EncodingError(f"the path {path} of {action!r} is another action's too")
        node[path[-1]] = action
    return tree


class Choice:
    """One seat's decision in indexes: a walk down the menu of its legal actions."""

    __slots__ = ("legal", "node", "prefix", "seat")

    def __init__(self, seat: int, legal: Sequence[Action], menu: Menu) -> None:
        self.seat = seat
        self.legal = legal
        self.node = menu
        self.prefix: tuple[int, ...] = ()

    @property
    def stage(self) -> int:
        """How many indexes of the action have been chosen."""
        return len(self.prefix)

    def indexes(self) -> list[int]:
        """Return the indexes that may be chosen now, ascending."""
        return sorted(self.node)

    def take(self, index: int) -> Action | None:
        """Choose ``index``: return the action once its path is complete, else None."""
        chosen = self.node.get(index)
        if chosen is None:
            raise IllegalActionError(
                index, self.seat, f"index {index} is not legal now (legal: {self.indexes()})"
            )
        self.prefix += (index,)
        if isinstance(chosen, dict):
            self.node = chosen
            return None
        return chosen  # type: ignore[no-any-return]


class GenericEncoder(Encoder):
    """For games without an encoder: actions by their place in the legal list, numbers in order.

    The legal list is in the game's fixed order, so index ``i`` is the game's ``i``-th
    legal action; lists longer than ``actions - 1`` go on a page at a time behind the last
    index. The observation is every number and flag of the observation, in field order,
    scaled by ``scale``, cut or padded to ``size``.
    """

    def __init__(
        self, game: AnyGame, options: Options, players: int, actions: int = 64, size: int = 512
    ) -> None:
        super().__init__(game, options, players)
        self.actions = actions
        self.size = size
        self.stages = 4
        self.scale = 100.0

    def path(self, action: Action) -> tuple[int, ...]:
        """Refuse: the generic encoder indexes actions by position (see ``paths``)."""
        raise EncodingError("the generic encoder indexes actions by their place in the list")

    def paths(self, legal: Sequence[Action]) -> list[tuple[int, ...]]:
        """Return each legal action's place, paged behind the last index when there are many."""
        page = self.actions - 1
        out = []
        for i in range(len(legal)):
            path: tuple[int, ...] = ()
            while i >= page:
                path += (page,)
                i -= page
            out.append((*path, i))
        if out and len(out[-1]) > self.stages:
            raise EncodingError(f"{len(legal)} legal actions need more than {self.stages} stages")
        return out

    def features(self, observation: Observation, out: Features) -> None:
        """Append every number of ``observation`` in field order, padded or cut."""
        numbers: list[float] = []
        _numbers(msgspec.to_builtins(observation), numbers, self.size)
        numbers = [x / self.scale for x in numbers[: self.size]]
        out.extend(numbers + [0.0] * (self.size - len(numbers)))


def _numbers(value: Any, out: list[float], limit: int) -> None:
    """Append the numbers in ``value`` (nested lists and mappings) to ``out``, up to ``limit``."""
    if len(out) >= limit:
        return
    if isinstance(value, bool):
        out.append(float(value))
    elif isinstance(value, int | float):
        out.append(float(value) if math.isfinite(value) else 0.0)
    elif isinstance(value, dict):
        for item in value.values():
            _numbers(item, out, limit)
    elif isinstance(value, list | tuple):
        for item in value:
            _numbers(item, out, limit)


EncoderFactory = Callable[[AnyGame, Options, int], Encoder]
"""Makes a game's encoder for its options and number of seats."""
