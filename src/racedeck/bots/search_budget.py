"""ISMCTS's declared parameters: the budget of a decision, and how the search spends it.

Also the progressive bias each game's search takes by default (``GAME_BIAS``) and the
share of a playout's reward that is the finishing place (``RANK_WEIGHT``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Literal

from racedeck.bots.selection import SEALED_RULES, SealedRule
from racedeck.core.bot import BotParameterError
from racedeck.core.game import AnyGame, action_kinds

Rollout = Literal["random", "heuristic", "light", "distilled", "guided"]
"""How playouts choose: uniformly, or mostly as the game's heuristic bot would, or as its
light bot would (a cheaper stand-in the game may register as ``light``; its heuristic where
it registers none), or as its learned policy would (``distilled``, which then also names
the choice the progressive bias favours; the heuristic where the game registers none).
``guided`` plays the heuristic's playouts, cheaper, and lets the learned policy name the
favoured choice (the heuristic where the game registers none)."""

ROLLOUTS = ("random", "heuristic", "light", "distilled", "guided")
"""Every playout policy."""

GAME_BIAS: Mapping[str, Mapping[int, float]] = MappingProxyType(
    {
        "famous-500": MappingProxyType({2: 4.0}),
        "detroit-cleveland": MappingProxyType({2: 4.0, 3: 4.0, 4: 2.0, 5: 2.0, 6: 2.0}),
    }
)
"""Per game and number of players, the progressive bias a search gets when ``Budget.bias``
is None (every other game and table: 0).

Measured (``docs/bots.md``, "Why ISMCTS lost Famous 500"): Famous 500's heuristic plans a
whole race's resources, and without the bias the search's noisy departures from it lost
(0.04 against the heuristic at 50 simulations; 1.00 with ``bias = 4``). Detroit-Cleveland's
search lost the same way at two players, spreading 50 simulations over some 20 cards or
bids (``bias = 4``: 0.93 against the heuristic, every decided deal won; ``bias = 1``: 0.58).
At four players ``bias = 4`` held the search to the heuristic's card at 24 of 25 decisions
and the two split most deals; on the same 20 deals ``bias = 2`` won 9 of 10 decided ones,
``bias = 4`` 5 of 9 and ``bias = 1`` 8 of 12. In LACORSA the bias changed nothing
measurable (0.55 against the unbiased search), in Wacky Races it did worse (0.33), so they
keep none.
"""


def game_bias(game: str, players: int) -> float:
    """Return the progressive bias ``game``'s search takes at a table of ``players``."""
    return GAME_BIAS.get(game, {}).get(players, 0.0)


RANK_WEIGHT = 0.75
"""By default, how much of a simulation's reward is the finishing place; the rest is the score."""


@dataclass(frozen=True)
class Budget:
    """How much searching one decision may do, and how: ISMCTS's declared parameters.

    The first limit reached stops the search. ``simulations``, ``steps``
    (forward-model calls of ``decide``) and ``effort`` (steps in the game's own unit,
    ``GAME_STEPS``) are reproducible; ``seconds`` reads the clock, so
    play under it differs from run to run. Every field is a parameter a strategy author
    may set (``BotSpec.with_parameters``); ``__parameter_docs__`` says what each does.
    """

    simulations: int | None = 200
    steps: int | None = None
    seconds: float | None = None
    effort: float | None = None
    exploration: float = 0.7
    rollout: Rollout = "random"
    epsilon: float = 0.1
    rank_weight: float = RANK_WEIGHT
    sealed: SealedRule = "regret"
    mix: float = 0.1
    bias: float | None = None
    bias_scale: float = 1.0
    horizon: int | None = None
    explain: bool = False
    reuse: bool = False
    searched: str | None = None

    __parameter_docs__: ClassVar[dict[str, str]] = {
        "simulations": "playouts a decision (none: no limit)",
        "steps": "forward-model steps a decision (none: no limit)",
        "seconds": "wall-clock seconds a decision (none: no limit; not reproducible)",
        "effort": "forward-model steps a decision in the game's own unit, about the same "
        "processor time in every game (GAME_STEPS: LACORSA 1000, Wacky Races 1250, Famous 500 "
        "700, Detroit-Cleveland 550; none: no limit)",
        "exploration": "UCB1's exploration constant c",
        "rollout": "playout policy: random, the game's heuristic, its light bot, or its "
        "distilled policy, which then also gets the progressive bias (the heuristic where the "
        "game has no light bot or distilled policy); guided: the heuristic's playouts, the "
        "distilled policy's bias",
        "epsilon": "in heuristic playouts, the chance of a uniformly random action instead",
        "rank_weight": "share of a playout's reward that is the finishing place (the rest: score)",
        "sealed": "selection at sealed simultaneous nodes: regret matching, Exp3 or decoupled UCB1",
        "mix": "share of uniform play mixed into the sealed-node strategy (regret, exp3)",
        "bias": "progressive bias: the heuristic's choice gets bias / (visits + 1) more in UCB1 "
        "(none: the game's own at the table's size, GAME_BIAS, times bias_scale)",
        "bias_scale": "what the game's own bias is multiplied by when bias is none: a larger "
        "budget visits each choice more often, so the same bias fades sooner",
        "horizon": "playout steps before the game's evaluation judges the position (none: "
        "play to the end; a game with no evaluation always plays to the end)",
        "explain": "write what each decision weighed to the log: simulations, top actions",
        "reuse": "keep the tree between the seat's decisions: the node its new observation "
        "identifies becomes the root, its statistics kept (else, or where none or several "
        "match, a fresh tree)",
        "searched": "the one kind of decision searched, by its actions' kind in the log (such "
        "as Detroit-Cleveland's play): a decision offering none is the game's heuristic's, "
        "unsearched (none: every decision is searched)",
    }

    def check_game(self, game: AnyGame) -> None:
        """Raise ``BotParameterError`` unless ``searched`` names a kind of ``game``'s actions."""
        kinds = action_kinds(game)
        if self.searched is not None and self.searched not in kinds:
            raise BotParameterError(
                f"parameter searched: {game.name} has no {self.searched!r} decisions "
                f"(its kinds of action: {', '.join(kinds)})"
            )

    @property
    def reproducible(self) -> bool:
        """Whether a seed fixes the play under this budget: not where it reads the clock."""
        return self.seconds is None

    def __post_init__(self) -> None:
        limits = (self.simulations, self.steps, self.seconds, self.effort)
        if all(limit is None for limit in limits):
            raise ValueError("an ISMCTS budget needs simulations, steps, effort or seconds")
        for name in ("simulations", "steps", "seconds", "effort"):
            limit = getattr(self, name)
            # ``not 0 < limit < inf`` also refuses NaN, which every comparison fails: a
            # deadline of NaN seconds, or an infinite one, would never stop a search.
            if limit is not None and not 0 < limit < math.inf:
                raise ValueError(f"{name} must be positive and finite, got {limit}")
        if self.rollout not in ROLLOUTS:
            raise ValueError(
                f"unknown rollout policy {self.rollout!r}; "
                "use random, heuristic, light, distilled or guided"
            )
        if self.sealed not in SEALED_RULES:
            raise ValueError(
                f"unknown sealed-node rule {self.sealed!r}; use {', '.join(SEALED_RULES)}"
            )
        if self.horizon is not None and self.horizon <= 0:
            raise ValueError(f"horizon must be positive, got {self.horizon}")
        # An infinite weight turns UCB1's sums into inf - inf = NaN: refused with NaN.
        if self.bias is not None and not 0 <= self.bias < math.inf:
            raise ValueError(f"bias must be 0 or more and finite, got {self.bias}")
        if not 0 <= self.bias_scale < math.inf:
            raise ValueError(f"bias_scale must be 0 or more and finite, got {self.bias_scale}")
        if not 0 <= self.exploration < math.inf:
            raise ValueError(f"exploration must be 0 or more and finite, got {self.exploration}")
        for name in ("epsilon", "rank_weight"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be between 0 and 1, got {getattr(self, name)}")
        if not 0 < self.mix <= 1:
            raise ValueError(f"mix must be above 0 and at most 1, got {self.mix}")
