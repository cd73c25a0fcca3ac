"""The policy: a linear layer from the encoder's vector to one score per action index.

The legal indexes' scores go through a softmax when training; the bot plays the legal
index with the highest score, so its play is a function of what it sees.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float32]


class Policy:
    """Weights ``w`` (features by actions) and biases ``b`` (actions)."""

    def __init__(self, w: Array, b: Array) -> None:
        self.w = w
        self.b = b

    @classmethod
    def zeros(cls, features: int, actions: int) -> Policy:
        """Return a policy that scores every action alike."""
        return cls(np.zeros((features, actions), np.float32), np.zeros(actions, np.float32))

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Read a policy saved by ``save``."""
        with np.load(path) as data:
            return cls(data["w"].astype(np.float32), data["b"].astype(np.float32))

    def save(self, path: str | Path) -> None:
        """Write the policy as a numpy ``.npz`` file."""
        with open(path, "wb") as handle:
            np.savez_compressed(handle, w=self.w, b=self.b)

    def scores(self, x: Array) -> Array:
        """Return the score of every action index for the vector ``x``."""
        return x @ self.w + self.b  # type: ignore[no-any-return]

    def probabilities(self, x: Array, legal: npt.NDArray[np.intp]) -> Array:
        """Return the softmax of the legal indexes' scores, in the order of ``legal``."""
        z = self.scores(x)[legal]
        z = z - z.max()
        e = np.exp(z)
        return e / e.sum()  # type: ignore[no-any-return]

    def best(self, x: Array, legal: npt.NDArray[np.intp]) -> int:
        """Return the legal index with the highest score (the first of equals)."""
        return int(legal[int(np.argmax(self.scores(x)[legal]))])
