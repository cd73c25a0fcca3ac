"""Strength of a bot against a field: duplicate-dealt matches and a confidence interval.

A *deal* is one seed played once per seat, with the candidate taking each seat in turn and
the baseline bot every other seat: each seat's cards and chance come from the same seed,
so luck cancels out. The candidate's score in a match is the share of the other seats it
finished ahead of (a tie counts half); a deal's score is the mean over its rotations, and
equal bots score 0.5. The interval is the normal approximation over deals.

Run ``python -m tools.strength GAME CANDIDATE BASELINE`` to measure.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from racedeck.core.bot import BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.model import Options
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

Z95 = 1.959964
"""The two-sided 95 % quantile of the normal distribution."""


@dataclass(frozen=True)
class Strength:
    """How a candidate fared over duplicate deals against a baseline field."""

    deals: int
    players: int
    mean: float
    low: float
    high: float
    wins: int
    matches: int
    faults: int = 0
    """Faults of the candidate (each played through by the substitute policy)."""

    @property
    def significant(self) -> bool:
        """True when the whole 95 % interval lies above 0.5 (better than the field)."""
        return self.low > 0.5

    def describe(self) -> str:
        """Return one readable line."""
        return (
            f"score {self.mean:.3f} (95% CI {self.low:.3f}-{self.high:.3f}) over {self.deals} "
            f"deals x {self.players} seats; wins {self.wins}/{self.matches}; "
            f"candidate faults {self.faults}"
        )


def seat_score(ranks: Sequence[int], seat: int) -> float:
    """Return the share of the other seats ``seat`` finished ahead of, ties counting half."""
    mine = ranks[seat]
    others = [r for s, r in enumerate(ranks) if s != seat]
    if not others:
        return 1.0
    return sum(1.0 if mine < r else 0.5 if mine == r else 0.0 for r in others) / len(others)


def measure(
    game: AnyGame,
    options: Options,
    candidate: BotSpec,
    baseline: BotSpec,
    players: int,
    seeds: Sequence[int],
) -> Strength:
    """Play every seed once per seat, the candidate in that seat, and summarize its scores."""
    per_deal: list[float] = []
    wins = matches = faults = 0
    for seed in seeds:
        scores = []
        for seat in range(players):
            seats = [baseline] * players
            seats[seat] = candidate
            outcome = run_match(game, options, seats, seed, fault_policy="substitute")
            scores.append(seat_score(outcome.result.ranks, seat))
            faults += sum(1 for fault in outcome.faults if fault.seat == seat)
            wins += outcome.result.ranks[seat] == 1
            matches += 1
        per_deal.append(sum(scores) / len(scores))
    mean = statistics.fmean(per_deal)
    spread = statistics.stdev(per_deal) if len(per_deal) > 1 else 0.0
    half = Z95 * spread / math.sqrt(len(per_deal))
    return Strength(len(per_deal), players, mean, mean - half, mean + half, wins, matches, faults)


def main(argv: list[str] | None = None) -> int:
    """Measure a candidate against a baseline field and print the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("candidate")
    parser.add_argument("baseline")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--option", "-o", action="append", default=[], help="KEY=VALUE")
    parser.add_argument(
        "--quick", action="store_true", help="start from the game's first quick option set"
    )
    args = parser.parse_args(argv)
    registry = load_registry()
    game = registry.game(args.game)
    raw: dict[str, Any] = dict(game.conformance_options[0]) if args.quick else {}
    for pair in args.option:
        key, _, value = pair.partition("=")
        raw[key] = int(value) if value.lstrip("-").isdigit() else value
    options = game.parse_options(raw)
    seeds = range(args.first_seed, args.first_seed + args.deals)
    strength = measure(
        game,
        options,
        registry.bot(args.candidate, game.name),
        registry.bot(args.baseline, game.name),
        args.players,
        seeds,
    )
    print(f"{args.game} {args.players}p {args.candidate} vs {args.baseline}: {strength.describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
