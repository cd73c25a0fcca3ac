"""Budgets of effort: forward-model steps in each game's own unit.

A forward-model step costs more in some games than in others (Famous 500's and
Detroit-Cleveland's heuristics do more a step than LACORSA's), so ISMCTS's ``effort`` is
counted in a unit of steps set per game: deterministic, as any count of steps is, and about
the same processor time in every game.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

GAME_STEPS: Mapping[str, int] = MappingProxyType(
    {"lacorsa": 1_000, "wacky-races": 1_250, "famous-500": 700, "detroit-cleveland": 550}
)
"""Per game, the forward-model steps of one unit of ``Budget.effort`` a decision.

Set per game for ``ismcts:simulations=none,effort=1,horizon=20`` against ``ismcts`` (200
full playouts a decision), two players, one race (``docs/bots.md``, "Budgets of effort"):
Famous 500's 700 steps played level with it (0.50 over 12 duplicate deals) for about a
twelfth of its processor time; LACORSA's 400 steps took a tenth and scored 0.23, so it
takes 1,000 (0.45, about a quarter of the time); Wacky Races' 500 took a tenth and scored
0.30, so it takes 1,250 (0.38); Detroit-Cleveland's 1,400 steps took a fifth, so it takes
550, about a tenth (its strength against ``ismcts`` unmeasured). None of these is shown as
strong as ``ismcts``, which is why the registered searches count simulations.
"""
DEFAULT_GAME_STEPS = 500
"""The steps of one unit of effort in a game ``GAME_STEPS`` does not list."""


def effort_steps(game: str, effort: float) -> int:
    """Return the forward-model steps a decision that ``effort`` buys in ``game``."""
    return max(1, round(GAME_STEPS.get(game, DEFAULT_GAME_STEPS) * effort))


def step_limit(steps: int | None, effort: float | None, game: str) -> int | None:
    """Return the forward-model steps a decision of ``game`` may take.

    The fewer of ``steps`` and the steps ``effort`` buys in the game; None when neither
    limits the search.
    """
    limits = [steps] if steps is not None else []
    if effort is not None:
        limits.append(effort_steps(game, effort))
    return min(limits) if limits else None
