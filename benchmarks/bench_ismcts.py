"""ISMCTS: simulations a second, per game that can sample its hidden information.

Each benchmark searches from the same decision points of a seeded random match (the game's
first quick option set, four seats where the game allows) with a budget of simulations,
with uniformly random playouts and with playouts guided by the game's heuristic.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from benchmarks import lacorsa_reference
from benchmarks.harness import Benchmark, Ratio
from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.bots.plugin import GAME_BUDGETS, ISMCTS_BUDGETS
from racedeck.bots.sampling import sampler_for
from racedeck.core.bot import Bot
from racedeck.core.model import ENGINE, Action, Observation
from racedeck.core.rng import Rng, engine_stream
from racedeck.core.step import NO_CHANCE, resolve
from racedeck.plugins import load_registry

SIMULATIONS = 100
DECISIONS = 8
HEURISTIC_TARGETS = {
    "detroit-cleveland": 300,
    "famous-500": 800,
    "lacorsa": 3_150,
    "wacky-races": 1_450,
}
"""Simulations a second promised with heuristic playouts: three times the rates measured
before the core owned the step (Detroit-Cleveland 30, Famous 500 268, LACORSA 1,054, Wacky
Races 478), and at least 300 for Detroit-Cleveland."""

_registry = load_registry(entry_points=False)


def _decision_points(name: str) -> list[tuple[Any, ...]]:
    """Return (observation, legal, seat, players, options) at the first real decisions."""
    game = _registry.game(name)
    options = game.parse_options(dict(game.conformance_options[0]))
    players = min(max(4, game.min_players), game.max_players)
    state = game.initial_state(options, players)
    rng = random.Random(1)
    points: list[tuple[Any, ...]] = []
    events = 0
    while len(points) < DECISIONS and not (step := game.next_step(state)).over:
        if step.engine:
            turn = resolve(game, state, ENGINE, None, engine_stream(1, events))
        else:
            seat = step.seats[0]
            legal = game.legal_actions(state, seat)
            if len(legal) > 1:
                points.append((game.observe(state, seat), legal, seat, players, options))
            turn = resolve(game, state, seat, legal[rng.randrange(len(legal))], NO_CHANCE)
        state = turn.state
        events += len(turn.events)
    return points


class _FirstLegal(Bot):
    """A playout policy that costs nothing: the first legal action, always."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the first legal action."""
        return legal[0]


def _searcher(
    name: str,
    rollout: str,
    simulations: int,
    decisions: int,
    horizon: int | None = None,
    free_policy: bool = False,
) -> Any:
    """Return a run of ``simulations`` from each of the first ``decisions`` decision points.

    With ``free_policy`` the playouts' heuristic is replaced by ``_FirstLegal`` (set on
    the search's own policy, which no public parameter reaches): what is left is the
    game's steps, the ceiling of any playout policy's rate.
    """
    budget = Budget(simulations=simulations, rollout=rollout, horizon=horizon)
    return _budget_searcher(name, budget, decisions, free_policy)


def _registered(name: str, simulations: int) -> Budget:
    """Return the budget of ``name``'s registered ``ismcts`` counted in ``simulations``.

    Its playouts, horizon and bias as registered; the limit a number of simulations
    (not the game's steps), and every decision searched (Detroit-Cleveland's searches only
    its cards, which the first decision points of a match, its bids, do not offer; a
    simulation costs the same whichever decision it searches).
    """
    budget, _what = GAME_BUDGETS.get(name, ISMCTS_BUDGETS)["ismcts"]
    return dataclasses.replace(
        budget, simulations=simulations, steps=None, effort=None, seconds=None, searched=None
    )


def _budget_searcher(name: str, budget: Budget, decisions: int, free_policy: bool = False) -> Any:
    """Return a run of searches of ``budget`` from each of the first ``decisions`` points."""
    game = _registry.game(name)
    points = _decision_points(name)[:decisions]

    def run() -> int:
        total = 0
        for observation, legal, seat, players, options in points:
            bot = Ismcts(budget)
            bot.bind_game(game)
            bot.start_match(name, seat, players, options)
            if free_policy:
                bot._policy = [_FirstLegal() for _ in range(players)]
            bot.act(observation, legal, random.Random(seat))
            total += bot.last_simulations
        return total

    return run


def _plain_loop() -> int:
    """The plain LACORSA loop: 6-car races, the yardstick of the machine's speed."""
    return lacorsa_reference.races(100)


def _shares(games: list[str]) -> list[Ratio]:
    """Simulations a second as a share of the plain loop's races a second, side by side:
    heuristic playouts played out in full (the old default ``ismcts``), the same cut at a
    horizon of 20 steps (``horizon=20``, the budgets of effort measured in docs/bots.md),
    and each game's registered ``ismcts`` (its own playouts and horizon)."""
    return [
        Ratio(
            f"ismcts: {name}, heuristic playouts{label} / plain loop",
            Benchmark("ismcts", "sims", _searcher(name, "heuristic", 50, 4, horizon)),
            Benchmark("plain loop", "races", _plain_loop),
        )
        for name in games
        for label, horizon in (("", None), (", horizon 20", 20))
    ] + [
        # The registered ``ismcts``'s own simulations beside the old default's (the full
        # heuristic playouts above), both as shares of the same plain loop: what a
        # simulation of each costs, measured in the same run.
        Ratio(
            f"ismcts: {name}, the registered ismcts's playouts / plain loop",
            Benchmark("ismcts", "sims", _budget_searcher(name, _registered(name, 50), 4)),
            Benchmark("plain loop", "races", _plain_loop),
        )
        for name in games
    ]


def benchmarks() -> list[Benchmark | Ratio]:
    games = [name for name, game in sorted(_registry.games.items()) if sampler_for(game)]
    return (
        _shares(games)
        + [
            Benchmark(
                f"ismcts: {name}, {rollout} playouts",
                "sims",
                _searcher(name, rollout, sims, count),
                HEURISTIC_TARGETS.get(name) if rollout == "heuristic" else None,
            )
            for name in games
            for rollout, sims, count in (("random", SIMULATIONS, DECISIONS), ("heuristic", 50, 4))
        ]
        + [
            Benchmark(
                f"ismcts: detroit-cleveland, heuristic playouts, horizon {horizon}",
                "sims",
                _searcher("detroit-cleveland", "heuristic", 50, 4, horizon),
            )
            for horizon in (20, 40)
        ]
        + [
            # LACORSA's own searches play out with its distilled policy (docs/bots.md).
            Ratio(
                "ismcts: lacorsa, distilled playouts / plain loop",
                Benchmark("ismcts", "sims", _searcher("lacorsa", "distilled", 50, 4)),
                Benchmark("plain loop", "races", _plain_loop),
            )
        ]
        + [
            Benchmark(
                "ismcts: detroit-cleveland, light playouts (rollout=light)",
                "sims",
                _searcher("detroit-cleveland", "light", 50, 4),
            ),
            Benchmark(
                "ismcts: detroit-cleveland, first-legal playouts (the ceiling of full playouts)",
                "sims",
                _searcher("detroit-cleveland", "heuristic", 50, 4, free_policy=True),
            ),
        ]
    )
