"""Information Set Monte Carlo Tree Search (single-observer ISMCTS), for any game.

Each simulation samples a determinization (a state the bot cannot tell from the truth,
see ``racedeck.bots.sampling``), walks the tree of actions from the root, adds one node,
plays out to the end of the match (uniformly, or mostly as the game's heuristic or its
light bot would) and credits every seat's choices with that seat's reward. The tree is
keyed by actions only (open loop): chance and the hidden cards differ from one simulation
to the next.
Choices are picked by UCB1 counted against how often each was *available*, since what is
legal differs between samples, with a progressive bias toward the heuristic's choice
where the game needs one (``GAME_BIAS``). A sealed decision of several seats is
decoupled: each seat picks from its own statistics, none sees the others' picks; there
the other seats pick by regret matching (or Exp3, or UCB1: ``Budget.sealed``; see
``racedeck.bots.selection``) and the searching seat best-responds by UCB1.

The budget is counted in simulations or forward-model steps, so the bot is deterministic
for a seed on every machine; a wall-clock budget exists too, and is not reproducible.

The parts live beside this module: the budget (``search_budget``), the tree's node and
its statistics (``search_tree``), one simulation's descent (``descent``) and the tree
carried from one decision to the next (``search_reuse``, opt-in); the names other modules
import from here are re-exported.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from racedeck.bots.descent import Descent, Setup, started
from racedeck.bots.effort import step_limit
from racedeck.bots.evaluation import Evaluation, evaluation_of
from racedeck.bots.sampling import Sampler, sampler_for
from racedeck.bots.search_budget import (
    GAME_BIAS,
    RANK_WEIGHT,
    ROLLOUTS,
    Budget,
    Rollout,
    game_bias,
)
from racedeck.bots.search_reuse import Sightings, carried_root
from racedeck.bots.search_tree import Node, most_tried, rewards, settled
from racedeck.bots.selection import learn
from racedeck.bots.weighed import Weighing, search_choices
from racedeck.core.bot import Bot, BotFault
from racedeck.core.driver import Driver
from racedeck.core.game import AnyGame, action_kinds
from racedeck.core.model import Action, Observation, Options, action_kind
from racedeck.core.rng import Rng

__all__ = [
    "GAME_BIAS",
    "RANK_WEIGHT",
    "ROLLOUTS",
    "Budget",
    "Ismcts",
    "Rollout",
    "game_bias",
    "rewards",
]


class Ismcts(Weighing, Bot):
    """Searches the game's forward model from sampled states; plays the most-tried action."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()
        self.last_simulations = 0
        self.last_steps = 0
        self.last_visits: tuple[int, ...] = ()
        """The root visits of each legal action at the last decision searched, in order."""
        self._game: AnyGame | None = None
        self._sampler: Sampler | None = None
        """The game's ``sample_state``; a game that cannot sample returns None from it."""
        self._seat = 0
        self._options: Options | None = None
        self._policy: list[Bot] | None = None
        """Per seat, the bot that plays its playout decisions (None: uniformly random)."""
        self._advisers: list[Bot] | None = None
        self._learned = False
        """Whether the advisers are the game's learned policy (``rollout="distilled"``)."""
        """Per seat, the heuristic whose choice at a node gets the progressive bias."""
        self._bias = 0.0
        self._horizon: int | None = None
        self._evaluate: Evaluation | None = None
        """The game's judge of a playout cut at the horizon (``bots.evaluation``)."""
        self._steps: int | None = None
        """The steps a decision: ``Budget.steps`` or what ``Budget.effort`` buys, the fewer."""
        self._setup: Setup | None = None
        """What each simulation searches with, fixed by ``start_match``."""
        self._sightings: Sightings | None = None
        """With ``Budget.reuse``, the last search's nodes by the seat's observation there."""
        self.last_carried = 0
        """The visits the last decision's root held before it searched (``Budget.reuse``)."""
        self._unsearched: Bot | None = None
        """With ``Budget.searched``, the heuristic that decides the seat's other decisions."""

    def bind_game(self, game: AnyGame) -> None:
        """Keep the rules to simulate with, and find how to sample the game's hidden parts."""
        self._game = game
        self._sampler = sampler_for(game)

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Remember the seat and options; refuse to play without the game's rules."""
        if self._game is None or self._sampler is None:
            raise BotFault(f"ismcts cannot play {game}: it was not given the game's rules")
        self._seat = seat
        self._options = options
        self._sightings = None  # a tree is never carried from one match into another
        self._unsearched = self._heuristic_elsewhere(game, seat, players, options)
        bias = self.budget.bias
        if bias is None:
            bias = game_bias(game, players) * self.budget.bias_scale
        self._bias = bias
        self._steps = step_limit(self.budget.steps, self.budget.effort, game)
        # A game that gives no evaluation is played to the end whatever the horizon.
        self._evaluate = evaluation_of(self._game)
        self._horizon = self.budget.horizon if self._evaluate is not None else None
        rollout = self.budget.rollout
        if rollout != "random":
            # A learned policy names the favoured choice, and plays the playouts too unless
            # they are the heuristic's (``guided``).
            rules = self._game
            learned = None
            if rollout in ("distilled", "guided"):
                learned = started(rules, "distilled", players, options)
            # The heuristic only where it advises or plays: a distilled search never asks it.
            heuristic = None
            if learned is None or rollout == "guided":
                heuristic = started(rules, "heuristic", players, options)
            self._advisers = learned or heuristic
            self._learned = learned is not None
            light = started(rules, "light", players, options) if rollout == "light" else None
            playing = heuristic if rollout == "guided" else self._advisers
            self._policy = light or playing
        self._setup = Setup(
            self.budget,
            seat,
            self._bias,
            self._policy,
            self._advisers,
            self._evaluate,
            self._horizon,
        )

    def _heuristic_elsewhere(
        self, game: str, seat: int, players: int, options: Options
    ) -> Bot | None:
        """Return the heuristic that plays the decisions ``Budget.searched`` leaves out.

        None when every decision is searched. Refuses a kind of decision the game does not
        have, and a game with no heuristic: each would leave the seat playing no one.
        """
        kind = self.budget.searched
        rules = self._game
        if kind is None or rules is None:
            return None
        kinds = action_kinds(rules)
        if kind not in kinds:
            raise BotFault(
                f"ismcts cannot search {game}'s {kind!r} decisions: its actions are "
                f"{', '.join(kinds)}"
            )
        # A heuristic of its own, apart from the advisers the playouts ask.
        heuristic = started(rules, "heuristic", players, options)
        if heuristic is None:
            raise BotFault(f"ismcts cannot leave {game}'s other decisions to its heuristic: none")
        return heuristic[seat]

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Search within the budget and return the legal action tried most often.

        With ``Budget.searched``, a decision that offers no action of that kind is the
        heuristic's, asked at once.
        """
        if len(legal) == 1:
            return legal[0]
        unsearched = self._unsearched
        if unsearched is not None:
            kind = self.budget.searched
            if not any(action_kind(action) == kind for action in legal):
                self.last_simulations = self.last_steps = 0
                self.last_visits = ()
                return unsearched.act(observation, legal, rng)
        game, options = self._game, self._options
        assert game is not None and options is not None
        search_rng = random.Random(rng.getrandbits(64))
        budget = self.budget
        root = self._root(observation)
        deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else None
        simulations = steps = 0
        # One stream of determinizations for the decision: a game may chain them.
        worlds = game.sample_states(observation, options, self._seat, search_rng)
        while True:
            if budget.simulations is not None and simulations >= budget.simulations:
                break
            if self._steps is not None and steps >= self._steps:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            state = next(worlds)
            if state is None:
                raise BotFault(
                    f"ismcts cannot play {game.name}: "
                    "its sample_state builds no state from an observation"
                )
            steps += self._simulate(root, state, search_rng, self._sightings)
            simulations += 1
            # Stop once no runner-up could catch the leader in the simulations left: the
            # choice is the one the whole budget makes, for less (the leader needs more
            # visits than are left, so not before half the budget).
            limit = budget.simulations
            if (
                limit is not None
                and 2 * simulations > limit
                and settled(root.tables.get(self._seat, {}), legal, limit - simulations)
            ):
                break
        self.last_simulations, self.last_steps = simulations, steps
        table = root.tables.get(self._seat, {})
        self.last_visits = tuple(int(table[a][0]) if a in table else 0 for a in legal)
        if budget.explain:
            self.record_weighed(
                search_choices(table, legal, game.presentation.describe), simulations
            )
        # Where the search cannot tell its choice from a learned policy's (as many visits:
        # a small budget tries most actions once), the policy's stands.
        prefer = root.favourites.get(self._seat) if self._learned else None
        return most_tried(table, legal, prefer)[0]

    def _root(self, observation: Observation) -> Node:
        """Return the decision's root: a new node, or the last search's that ``observation`` names.

        Only with ``Budget.reuse`` (``bots.search_reuse``); ``last_carried`` says how many
        visits the root brings.
        """
        root = None
        if self.budget.reuse:
            root = carried_root(self._sightings, observation)
            self._sightings = Sightings()
        if root is None:
            root = Node()
        self.last_carried = int(sum(row[0] for row in root.tables.get(self._seat, {}).values()))
        return root

    def _simulate(
        self, root: Node, state: Any, rng: random.Random, sightings: Sightings | None = None
    ) -> int:
        """Run one simulation from ``state``; return how many forward-model steps it took.

        One run of the play driver: down the tree, each seat's choice selected from its
        node's statistics, until a node is added (or the match ends), then a playout to
        the end, or to the horizon where the game's evaluation judges the position. The engine's
        chance is drawn from the search's own generator.
        """
        game, setup = self._game, self._setup
        assert game is not None and setup is not None
        descent = Descent(setup, game, root, rng, sightings)
        driver = Driver(game, state, 0, descent.ask, engine_turn=descent.engine_turn)
        steps = 0
        for _decided in driver:
            steps += 1
            if descent.joint:
                descent.descend()  # every seat of the step has chosen: one node down
            if descent.playing:
                descent.played += 1
        # A playout cut at the horizon is judged by the game's evaluation; else the result.
        verdict = descent.verdict
        final = game.result(driver.state) if verdict is None else verdict
        reward = rewards(final, self.budget.rank_weight)
        sealed = self.budget.sealed
        for seat, stats, update in descent.path:
            stats[0] += 1
            stats[1] += reward[seat]
            if update is not None:
                learn(sealed, stats, update, reward[seat])
        return steps
