"""Strength of a bot against a field: duplicate-dealt matches and a confidence interval.

A *deal* is one seed played once per seat, with the candidate taking each seat in turn and
the baseline bot every other seat: each seat's cards and chance come from the same seed,
so luck cancels out. The candidate's score in a match is the share of the other seats it
finished ahead of (a tie counts half); a deal's score is the mean over its rotations, and
equal bots score 0.5. The interval is the normal approximation over deals.

Run ``python -m tools.strength GAME CANDIDATE BASELINE`` to measure.

``--only KIND`` asks where a bot's strength comes from: the candidate then plays only the
decisions that offer an action of that kind (its tag in the log, such as ``move``), and
``--rest`` (the heuristic unless named) plays every other decision of the same seat.
``python -m tools.strength detroit-cleveland ismcts heuristic --only move -o races=1``
is the search in Detroit-Cleveland's moves alone, the heuristic's bids and cards around it.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.game import AnyGame, action_kinds
from racedeck.core.model import Action, Observation, Options, Result, action_kind
from racedeck.core.rng import Rng
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


class Routed(Bot):
    """One seat played by two bots, split by the kind of decision.

    ``searched`` plays the decisions offering an action of ``kind``, ``rest`` every other;
    each is told of the match as if it played it all.
    """

    def __init__(self, kind: str, searched: BotSpec, rest: BotSpec) -> None:
        self.kind = kind
        self.searched, self.rest = searched.factory(), rest.factory()

    def bind_game(self, game: AnyGame) -> None:
        """Give both bots the rules."""
        self.searched.bind_game(game)
        self.rest.bind_game(game)

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Start both bots on the seat."""
        self.searched.start_match(game, seat, players, options)
        self.rest.start_match(game, seat, players, options)

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Ask ``searched`` where an action of the kind is legal, else ``rest``."""
        offered = any(action_kind(action) == self.kind for action in legal)
        return (self.searched if offered else self.rest).act(observation, legal, rng)

    def limit_time(self, seconds: float) -> None:
        """Hold both bots to the seat's time limit."""
        self.searched.limit_time(seconds)
        self.rest.limit_time(seconds)

    def end_match(self, result: Result) -> None:
        """Tell both bots how the match ended."""
        self.searched.end_match(result)
        self.rest.end_match(result)

    def close(self) -> None:
        """Close both bots."""
        self.searched.close()
        self.rest.close()


def routed(game: AnyGame, kind: str, searched: BotSpec, rest: BotSpec) -> BotSpec:
    """Return a bot that plays ``game``'s ``kind`` decisions as ``searched``, others as ``rest``.

    Raises ``ValueError`` when ``kind`` is none of the game's actions.
    """
    kinds = action_kinds(game)
    if kind not in kinds:
        raise ValueError(f"{game.name} has no {kind!r} action (its actions: {', '.join(kinds)})")
    return BotSpec(
        name=f"{searched.name} on {kind}, {rest.name} elsewhere",
        factory=partial(Routed, kind, searched, rest),
        description=f"{searched.name} at the decisions offering a {kind}, {rest.name} at others",
        reproducible=searched.reproducible and rest.reproducible,
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
    parser.add_argument(
        "--only",
        metavar="KIND",
        help="the candidate plays only the decisions offering an action of this kind",
    )
    parser.add_argument(
        "--rest", default="heuristic", help="with --only: who plays the seat's other decisions"
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
    candidate = registry.bot(args.candidate, game.name)
    if args.only is not None:
        try:
            candidate = routed(game, args.only, candidate, registry.bot(args.rest, game.name))
        except ValueError as exc:
            parser.error(f"--only: {exc}")
    strength = measure(
        game, options, candidate, registry.bot(args.baseline, game.name), args.players, seeds
    )
    print(f"{args.game} {args.players}p {candidate.name} vs {args.baseline}: {strength.describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
