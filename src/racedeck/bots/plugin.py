"""Registers the game-independent bots."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from types import MappingProxyType

from racedeck.bots.human import HumanBot
from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.bots.random_bot import RandomBot
from racedeck.core.bot import BotSpec
from racedeck.hookspecs import hookimpl

LEARNED_BIAS = 4.0
"""The progressive bias toward a learned policy's choice in the searches it guides."""

STRONG_BIAS_SCALE = 2.5
"""How much more of the game's progressive bias ``ismcts-strong`` takes (Famous 500: 10)."""

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
        # Five times the visits of ``ismcts`` fade the game's progressive bias five times
        # sooner; without the larger bias its noisy departures from the heuristic's plan
        # cost what its budget gained (docs/bots.md, "Why ismcts-strong needs more bias").
        Budget(simulations=1000, rollout="heuristic", bias_scale=STRONG_BIAS_SCALE),
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


def _guided_by_policy(strong: Budget, what: str) -> Mapping[str, tuple[Budget, str]]:
    """Return the budgets of a game whose learned policy holds the old search's strength.

    A few simulations guided by the policy (``ismcts``), one (``ismcts-fast``), and
    ``strong`` for ``ismcts-strong``, which ``what`` describes. A search tries the policy's
    favourite first and gives it ties of visits, so with fewer simulations than legal
    actions it plays the policy's choice: ``ismcts-fast`` is the policy at the price of one
    sampled world and one heuristic playout a decision (``guided``: the cheaper playout).
    """
    return MappingProxyType(
        {
            "ismcts": (
                Budget(simulations=5, rollout="distilled", bias=LEARNED_BIAS),
                "5 simulations a decision, guided by the learned policy",
            ),
            "ismcts-fast": (
                Budget(simulations=1, rollout="guided", bias=LEARNED_BIAS),
                "1 simulation a decision: the learned policy's choice",
            ),
            "ismcts-strong": (strong, what),
        }
    )


def _cards_alone(
    name: str, playouts: str, *, simulations: int | None = None, horizon: int | None = None
) -> tuple[Budget, str]:
    """Return variant ``name``'s general budget searching only the cards played.

    Detroit-Cleveland's bids and moves go to its heuristic at once (``searched="play"``);
    ``simulations`` and ``horizon`` replace the general ones when given, and everything
    else, ``ismcts-strong``'s bias scale included, is the general one's.
    """
    general, _ = ISMCTS_BUDGETS[name]
    budget = replace(
        general,
        searched="play",
        simulations=general.simulations if simulations is None else simulations,
        horizon=general.horizon if horizon is None else horizon,
    )
    what = f"{budget.simulations} simulations at each card played, {playouts}"
    return budget, f"{what}; the heuristic bids and moves"


GAME_BUDGETS: Mapping[str, Mapping[str, tuple[Budget, str]]] = MappingProxyType(
    {
        # Famous 500's playouts are long and its evaluation orders seven pairs of seats in
        # ten from a horizon of 10, so playouts cut at 20 buy more than whole ones did
        # (docs/bots.md, "Famous 500's own budgets", with the gates that chose these).
        "famous-500": MappingProxyType(
            {
                "ismcts": (
                    Budget(simulations=None, effort=2.5, horizon=20, rollout="heuristic"),
                    "1750 forward-model steps a decision (effort 2.5), playouts cut at 20",
                ),
                "ismcts-strong": (
                    Budget(
                        simulations=None,
                        effort=4,
                        horizon=20,
                        rollout="heuristic",
                        bias_scale=STRONG_BIAS_SCALE,
                    ),
                    "2800 forward-model steps a decision (effort 4), playouts cut at 20",
                ),
                # A tenth of the general ``ismcts-fast``'s time leaves some 70 steps a
                # decision: a few playouts cut at 20, each decision's first try the
                # learned policy's choice (docs/bots.md, "The fast searches at a tenth").
                "ismcts-fast": (
                    Budget(
                        simulations=None,
                        effort=0.1,
                        horizon=20,
                        rollout="guided",
                        bias=LEARNED_BIAS,
                    ),
                    "70 forward-model steps a decision (effort 0.1), playouts cut at 20, "
                    "guided by the learned policy",
                ),
            }
        ),
        # Detroit-Cleveland's search earns its edge over the heuristic in which card to
        # play; searching the bids and the moves costs two thirds of its time and gains
        # nothing, so its ``ismcts`` searches the cards alone and the heuristic bids and
        # moves (docs/bots.md, "Where Detroit-Cleveland's search earns its edge").
        "detroit-cleveland": MappingProxyType(
            {
                "ismcts": _cards_alone("ismcts", "heuristic playouts"),
                # At a tenth of the general ``ismcts-fast``'s time, 40 simulations of
                # the cards with playouts cut at 20 beat 25 whole ones (docs/bots.md,
                # "The fast searches at a tenth").
                "ismcts-fast": _cards_alone(
                    "ismcts-fast", "playouts cut at 20", simulations=40, horizon=20
                ),
                "ismcts-strong": _cards_alone(
                    "ismcts-strong", "heuristic playouts", simulations=500
                ),
            }
        ),
        # LACORSA's learned policy plays about as well as 200 simulations of the
        # heuristic-guided search by itself, so a few simulations guided by it hold that
        # strength, for a tenth of the time (docs/bots.md, "A learned policy", with the
        # gates that chose these).
        "lacorsa": _guided_by_policy(
            Budget(
                simulations=35,
                rollout="distilled",
                bias=LEARNED_BIAS,
                bias_scale=STRONG_BIAS_SCALE,
            ),
            "35 simulations a decision, guided by the learned policy",
        ),
        # Wacky Races' learned policy plays about as well as 200 simulations of the
        # heuristic-guided search, and a few dozen simulations guided by it add nothing to
        # it: its ``ismcts`` is a few such simulations. Its ``ismcts-strong`` searches with
        # the heuristic's cheaper playouts and the policy's favourite (``guided``), under a
        # third of the old ``ismcts``'s simulations (docs/bots.md, "A learned policy").
        "wacky-races": _guided_by_policy(
            Budget(
                simulations=60,
                rollout="guided",
                bias=LEARNED_BIAS,
                bias_scale=STRONG_BIAS_SCALE,
            ),
            "60 simulations a decision, heuristic playouts, the learned policy's bias",
        ),
    }
)
"""Budgets a game registers under a variant's name in place of ``ISMCTS_BUDGETS``'s.

Each is registered for its game only, at the game's ``GAME_BUDGET_VERSIONS``; the general
budget is still reachable there by its parameters
(``ismcts:simulations=200,effort=none,horizon=none,rollout=heuristic,bias=none``).
"""

GAME_BUDGET_VERSIONS: Mapping[str, str] = MappingProxyType(
    {"detroit-cleveland": "5", "famous-500": "6", "lacorsa": "7", "wacky-races": "8"}
)
"""The version of each game's own budgets (``GAME_BUDGETS``): their play is not the general
one's. LACORSA's searches play with its learned policy: version 7 with the policy's
version 1 (a new policy is a new version of them too); Wacky Races' version 8 with its
policy's version 1."""

GAME_VARIANT_VERSIONS: Mapping[tuple[str, str], str] = MappingProxyType(
    {("wacky-races", "ismcts-strong"): "9", ("famous-500", "ismcts-strong"): "8"}
)
"""A game's own variants whose play changed after its ``GAME_BUDGET_VERSIONS``: Wacky
Races' ``ismcts-strong`` 9 searches 60 simulations, where version 8 searched 100 (its
``ismcts`` and ``ismcts-fast`` play as version 8 did). Famous 500's ``ismcts-strong`` 8
searches 2,800 forward-model steps a decision (effort 4), where version 6 searched 3,500
(effort 5); its ``ismcts`` plays as version 6 did."""

VARIANT_VERSIONS: Mapping[str, str] = MappingProxyType({"ismcts-strong": "4"})
"""Variants whose own play changed after the search's: ``ismcts-strong`` 4 takes 2.5
times the game's progressive bias (``STRONG_BIAS_SCALE``), which changes its play in
Famous 500 and Detroit-Cleveland, the games that have one."""

SEARCH_VERSION = "3"
"""The version every ISMCTS variant is registered at, bumped whenever the search's play
changes (``VARIANT_VERSIONS`` names a variant whose own play changed since). Version 3
takes Detroit-Cleveland's progressive bias by the table's size (4 at two and three
players, 2 at four to six); version 2 was the search with regret matching at sealed
nodes, the progressive bias (4 at every Detroit-Cleveland table) and deals read from the
bids; version 1 searched with decoupled UCB1 everywhere."""


def _search(
    name: str,
    budget: Budget,
    what: str,
    version: str,
    excluded: tuple[str, ...] = (),
    games: tuple[str, ...] | None = None,
) -> BotSpec:
    """Return the spec of an ISMCTS variant: ``name`` searching within ``budget``."""
    return BotSpec(
        name=name,
        factory=partial(Ismcts, budget),
        description=f"information-set Monte Carlo tree search, {what}",
        version=version,
        games=games,
        excluded=excluded,
        reproducible=budget.seconds is None,
        parameters=budget,
        configure=Ismcts,
    )


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the random, ISMCTS and human bots for every game."""
    register(BotSpec(name="random", factory=RandomBot, description="uniform over legal actions"))
    for name, (budget, what) in ISMCTS_BUDGETS.items():
        own = tuple(sorted(game for game, budgets in GAME_BUDGETS.items() if name in budgets))
        register(_search(name, budget, what, VARIANT_VERSIONS.get(name, SEARCH_VERSION), own))
        for game in own:
            game_budget, game_what = GAME_BUDGETS[game][name]
            version = GAME_VARIANT_VERSIONS.get((game, name), GAME_BUDGET_VERSIONS[game])
            register(_search(name, game_budget, game_what, version, games=(game,)))
    register(
        BotSpec(
            name="human",
            factory=HumanBot,
            description="a person at the terminal: numbered legal actions, typed choices",
            time_limit=float("inf"),
            reproducible=False,
        )
    )
