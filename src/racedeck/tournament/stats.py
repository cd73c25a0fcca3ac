"""Running statistics that hold a few numbers however many values they see."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


class Running:
    """Count, mean and variance of a stream of numbers (Welford's method)."""

    __slots__ = ("_m2", "count", "mean")

    def __init__(self) -> None:
        self.count = 0
        self.mean = 0.0
        self._m2 = 0.0

    def add(self, value: float) -> None:
        """Take one more value into account."""
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self._m2 += delta * (value - self.mean)

    @property
    def stdev(self) -> float:
        """The sample standard deviation (0 with fewer than two values)."""
        return math.sqrt(self._m2 / (self.count - 1)) if self.count > 1 else 0.0

    @property
    def half_width(self) -> float:
        """Half the width of the normal 95% confidence interval of the mean."""
        return Z95 * self.stdev / math.sqrt(self.count) if self.count > 1 else math.inf
