"""Registers the game-independent bots."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import Any

from racedeck.bots.human import HumanBot
from racedeck.bots.ismcts import ROLLOUTS, Budget, Ismcts
from racedeck.bots.random_bot import RandomBot
from racedeck.core.bot import BotFactory, BotParameter, BotSpec
from racedeck.hookspecs import hookimpl

ISMCTS_BUDGETS: dict[str, tuple[Budget, str]] = {
    "ismcts": (
        Budget(simulations=200, rollout="heuristic"),
        "200 simulations a decision, heuristic playouts",
    ),
    "ismcts-fast": (
        Budget(simulations=50, rollout="heuristic"),
        "50 simulations a decision, heuristic playouts",
    ),
    "ismcts-strong": (
        Budget(simulations=1000, rollout="heuristic"),
        "1000 simulations a decision, heuristic playouts",
    ),
    "ismcts-random": (
        Budget(simulations=200, rollout="random"),
        "200 simulations a decision, uniformly random playouts",
    ),
    "ismcts-timed": (
        Budget(simulations=None, seconds=0.5, rollout="heuristic"),
        "0.5 s of wall clock a decision (not reproducible), heuristic playouts",
    ),
}
"""The registered ISMCTS variants: name, budget, what the budget is."""


PARAMETER_HELP = {
    "simulations": "simulations a decision",
    "steps": "forward-model steps a decision",
    "seconds": "seconds of wall clock a decision (not reproducible)",
    "exploration": "UCB1 exploration constant",
    "rollout": "how playouts choose: random or heuristic",
    "epsilon": "in heuristic playouts, the chance of a random action",
    "rank_weight": "how much of a playout's reward is the finishing place",
}
"""The budget fields a name may set (``ismcts:simulations=500``), and what each is."""


def budget_parameters(budget: Budget) -> tuple[BotParameter, ...]:
    """Return the parameters of an ISMCTS variant: its budget's fields, defaults its own."""
    parameters = []
    for name, description in PARAMETER_HELP.items():
        default = getattr(budget, name)
        if default is None:
            continue  # a limit this variant does not use stays unused
        choices = ROLLOUTS if name == "rollout" else ()
        parameters.append(BotParameter(name, default, description, choices))
    return tuple(parameters)


def _configure(budget: Budget) -> Callable[[dict[str, Any]], BotFactory]:
    def configure(values: dict[str, Any]) -> BotFactory:
        for name in ("simulations", "steps"):
            if name in values and values[name] < 1:
                raise ValueError(f"{name} must be at least 1, got {values[name]}")
        return partial(Ismcts, dataclasses.replace(budget, **values))

    return configure


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the random, ISMCTS and human bots for every game."""
    register(BotSpec(name="random", factory=RandomBot, description="uniform over legal actions"))
    for name, (budget, what) in ISMCTS_BUDGETS.items():
        register(
            BotSpec(
                name=name,
                factory=partial(Ismcts, budget),
                description=f"information-set Monte Carlo tree search, {what}",
                reproducible=budget.seconds is None,
                parameters=budget_parameters(budget),
                configure=_configure(budget),
            )
        )
    register(
        BotSpec(
            name="human",
            factory=HumanBot,
            description="a person at the terminal: numbered legal actions, typed choices",
            time_limit=float("inf"),
            reproducible=False,
        )
    )
