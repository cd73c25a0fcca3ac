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


class Tally:
    """Wins, draws and losses of one side of a pairing, and the figures drawn from them.

    ``score`` counts a draw as half a win. Its interval is Wilson's with the trinomial
    variance of one game's points; the Elo-style difference maps the score (and
    each end of its interval) through the logistic curve; the likelihood of superiority
    is the chance that the side is the stronger, from wins and losses alone.
    """

    __slots__ = ("draws", "losses", "wins")

    def __init__(self, wins: int = 0, draws: int = 0, losses: int = 0) -> None:
        self.wins = wins
        self.draws = draws
        self.losses = losses

    def add(self, points: float) -> None:
        """Count one game: 1 a win, 0.5 a draw, 0 a loss."""
        if points > 0.5:
            self.wins += 1
        elif points < 0.5:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    def flipped(self) -> Tally:
        """Return the same games from the other side."""
        return Tally(self.losses, self.draws, self.wins)

    @property
    def score(self) -> float:
        """Points per game, a draw counting half (``nan`` before any game)."""
        n = self.games
        return (self.wins + 0.5 * self.draws) / n if n else math.nan

    def score_interval(self) -> tuple[float, float]:
        """Return the 95% interval of the score: Wilson's, with the trinomial variance.

        Wilson's score interval keeps its ends inside [0, 1] and does not shrink to a
        point when every game went one way (four wins in four games is not a certain
        100%); one game's points have the trinomial variance, which is Wilson's own
        ``s(1 - s)`` when there are no draws.
        """
        n = self.games
        if not n:
            return (0.0, 1.0)
        s = self.score
        variance = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2) / n
        z2 = Z95 * Z95
        centre = (s + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(variance / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def elo(self) -> float:
        """Return the Elo-style difference the score means (infinite at 0% or 100%)."""
        return elo_difference(self.score)

    def elo_interval(self) -> tuple[float, float]:
        """Return the 95% interval of the Elo-style difference: the score's, mapped."""
        low, high = self.score_interval()
        return (elo_difference(low), elo_difference(high))

    def los(self) -> float:
        """Return the likelihood of superiority: the chance this side is the stronger."""
        return likelihood_of_superiority(self.wins, self.losses)


def elo_difference(score: float) -> float:
    """Return ``-400 log10(1 / score - 1)``: the rating gap that expects this score."""
    if math.isnan(score):
        return math.nan
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """Return ``Phi((W - L) / sqrt(W + L))``; draws tell nothing about who is stronger."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """Return Wilson's 95% score interval of a proportion (``(0, 1)`` with no trials)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def finite(value: float) -> float | None:
    """Return ``value``, or None when it is infinite or not a number (for JSON)."""
    return value if math.isfinite(value) else None
