"""Registers the game-independent bots."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from types import MappingProxyType

from racedeck.bots.human import HumanBot
from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.bots.random_bot import RandomBot
from racedeck.core.bot import BotSpec
from racedeck.hookspecs import hookimpl

STRONG_BIAS_SCALE = 2.5
"""How much more of the game's progressive bias ``ismcts-strong`` takes (Famous 500: 10)."""

HORIZON = 20
"""Playout steps before the game's evaluation judges the position, in the registered searches."""

ISMCTS_BUDGETS: dict[str, tuple[Budget, str]] = {
    # A budget of effort (steps in the game's own unit, ``GAME_STEPS``) and playouts cut
    # at a horizon: a tenth of version 3's processor time a match (docs/bots.md, "A tenth
    # of the time"); version 3's budgets are ``simulations=200,effort=none,horizon=none``
    # and the like (``VERSION_3_PARAMETERS``).
    "ismcts": (
        Budget(simulations=None, effort=1.0, horizon=HORIZON, rollout="heuristic"),
        "effort 1 a decision, heuristic playouts cut at 20 steps",
    ),
    "ismcts-fast": (
        Budget(simulations=None, effort=0.25, horizon=HORIZON, rollout="heuristic"),
        "effort 0.25 a decision, heuristic playouts cut at 20 steps",
    ),
    "ismcts-strong": (
        # Five times the visits of ``ismcts`` fade the game's progressive bias five times
        # sooner; without the larger bias its noisy departures from the heuristic's plan
        # cost what its budget gained (docs/bots.md, "Why ismcts-strong needs more bias").
        Budget(
            simulations=None,
            effort=5.0,
            horizon=HORIZON,
            rollout="heuristic",
            bias_scale=STRONG_BIAS_SCALE,
        ),
        "effort 5 a decision, heuristic playouts cut at 20 steps",
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

VARIANT_VERSIONS: Mapping[str, str] = MappingProxyType(
    {"ismcts": "5", "ismcts-fast": "5", "ismcts-strong": "5"}
)
"""Variants whose own play changed after the search's: at 5, ``ismcts``, ``ismcts-fast``
and ``ismcts-strong`` search a budget of effort with playouts cut at a horizon; at 4,
``ismcts-strong`` took 2.5 times the game's progressive bias (``STRONG_BIAS_SCALE``)."""

VERSION_3_PARAMETERS: Mapping[str, str] = MappingProxyType(
    {
        "ismcts": "simulations=200,effort=none,horizon=none",
        "ismcts-fast": "simulations=50,effort=none,horizon=none",
        "ismcts-strong": "simulations=1000,effort=none,horizon=none",
    }
)
"""The parameters that give each variant its budget before version 5 (``ismcts-strong``
with them plays as its version 4): ``ismcts:simulations=200,effort=none,horizon=none``."""

SEARCH_VERSION = "3"
"""The version every ISMCTS variant is registered at, bumped whenever the search's play
changes (``VARIANT_VERSIONS`` names a variant whose own play changed since). Version 3
takes Detroit-Cleveland's progressive bias by the table's size (4 at two and three
players, 2 at four to six); version 2 was the search with regret matching at sealed
nodes, the progressive bias (4 at every Detroit-Cleveland table) and deals read from the
bids; version 1 searched with decoupled UCB1 everywhere."""


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
                version=VARIANT_VERSIONS.get(name, SEARCH_VERSION),
                reproducible=budget.seconds is None,
                parameters=budget,
                configure=Ismcts,
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
