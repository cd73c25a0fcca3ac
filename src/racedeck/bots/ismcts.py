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
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from racedeck.bots.effort import step_limit
from racedeck.bots.evaluation import Evaluation, evaluation_of
from racedeck.bots.sampling import Sampler, sampler_for
from racedeck.bots.selection import (
    SEALED_RULES,
    WIDEN_ABOVE,
    Row,
    SealedRule,
    Update,
    learn,
    select_sealed,
    select_ucb1,
)
from racedeck.bots.weighed import Weighing, search_choices
from racedeck.core.bot import Bot, BotFactory, BotFault
from racedeck.core.driver import Driver
from racedeck.core.errors import RacedeckError
from racedeck.core.game import AnyGame
from racedeck.core.model import ENGINE, Action, Observation, Options, Result
from racedeck.core.rng import Rng
from racedeck.core.step import Turn, choose

Rollout = Literal["random", "heuristic", "light"]
"""How playouts choose: uniformly, or mostly as the game's heuristic bot would, or as its
light bot would (a cheaper stand-in the game may register as ``light``; its heuristic where
it registers none)."""

ROLLOUTS = ("random", "heuristic", "light")
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

    __parameter_docs__: ClassVar[dict[str, str]] = {
        "simulations": "playouts a decision (none: no limit)",
        "steps": "forward-model steps a decision (none: no limit)",
        "seconds": "wall-clock seconds a decision (none: no limit; not reproducible)",
        "effort": "forward-model steps a decision in the game's own unit, about the same "
        "processor time in every game (GAME_STEPS: LACORSA 1000, Wacky Races 1250, Famous 500 "
        "700, Detroit-Cleveland 550; none: no limit)",
        "exploration": "UCB1's exploration constant c",
        "rollout": "playout policy: random, the game's heuristic, or its light bot (the "
        "heuristic where the game has none)",
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
    }

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
            if limit is not None and limit <= 0:
                raise ValueError(f"{name} must be positive, got {limit}")
        if self.rollout not in ROLLOUTS:
            raise ValueError(
                f"unknown rollout policy {self.rollout!r}; use random, heuristic or light"
            )
        if self.sealed not in SEALED_RULES:
            raise ValueError(
                f"unknown sealed-node rule {self.sealed!r}; use {', '.join(SEALED_RULES)}"
            )
        if self.horizon is not None and self.horizon <= 0:
            raise ValueError(f"horizon must be positive, got {self.horizon}")
        if self.bias is not None and not self.bias >= 0:
            raise ValueError(f"bias must be 0 or more, got {self.bias}")
        if not self.bias_scale >= 0:
            raise ValueError(f"bias_scale must be 0 or more, got {self.bias_scale}")
        if not self.exploration >= 0:
            raise ValueError(f"exploration must be 0 or more, got {self.exploration}")
        for name in ("epsilon", "rank_weight"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be between 0 and 1, got {getattr(self, name)}")
        if not 0 < self.mix <= 1:
            raise ValueError(f"mix must be above 0 and at most 1, got {self.mix}")


class _Node:
    """One point of the action tree: per acting seat, statistics of its choices."""

    __slots__ = ("children", "favourites", "listings", "tables")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.tables: dict[int, dict[Action, Row]] = {}
        self.favourites: dict[int, Action | None] = {}
        """Per seat, the heuristic's choice here, asked once (of the first determinization)."""
        self.listings: dict[int, tuple[Sequence[Action], dict[Action, int] | None]] = {}
        """Per seat, the last long legal list seen here and, once it came back, its index."""

    def index(self, seat: int, legal: Sequence[Action]) -> dict[Action, int] | None:
        """Return each of ``legal``'s actions and its position, when ``legal`` comes back.

        A game that hands out the very same legal object every time (Famous 500's 1,330
        car designs) gets its index built once and kept; a list built anew each time is
        not worth indexing, and gets None.
        """
        seen = self.listings.get(seat)
        if seen is None or seen[0] is not legal:
            self.listings[seat] = (legal, None)
            return None
        index = seen[1]
        if index is None:
            index = {action: position for position, action in enumerate(legal)}
            if len(index) != len(legal):  # equal actions listed twice: no index
                return None
            self.listings[seat] = (legal, index)
        return index


def rewards(result: Result, rank_weight: float = RANK_WEIGHT) -> list[float]:
    """Return each seat's reward in [0, 1]: mostly its place, partly its share of the scores."""
    ranks, scores = result.ranks, result.scores
    players = len(ranks)
    low, high = min(scores), max(scores)
    spread = high - low
    out = []
    for rank, score in zip(ranks, scores, strict=True):
        place = (players - rank) / (players - 1) if players > 1 else 1.0
        share = (score - low) / spread if spread else 0.5
        out.append(rank_weight * place + (1 - rank_weight) * share)
    return out


class Ismcts(Weighing, Bot):
    """Searches the game's forward model from sampled states; plays the most-tried action."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()
        self.last_simulations = 0
        self.last_steps = 0
        self._game: AnyGame | None = None
        self._sampler: Sampler | None = None
        """The game's ``sample_state``; a game that cannot sample returns None from it."""
        self._seat = 0
        self._options: Options | None = None
        self._policy: list[Bot] | None = None
        """Per seat, the bot that plays its playout decisions (None: uniformly random)."""
        self._advisers: list[Bot] | None = None
        """Per seat, the heuristic whose choice at a node gets the progressive bias."""
        self._bias = 0.0
        self._horizon: int | None = None
        self._evaluate: Evaluation | None = None
        """The game's judge of a playout cut at the horizon (``bots.evaluation``)."""
        self._steps: int | None = None
        """The steps a decision: ``Budget.steps`` or what ``Budget.effort`` buys, the fewer."""

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
            self._advisers = _started(self._game, "heuristic", players, options)
            light = _started(self._game, "light", players, options) if rollout == "light" else None
            self._policy = light or self._advisers

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Search within the budget and return the legal action tried most often."""
        if len(legal) == 1:
            return legal[0]
        game, options = self._game, self._options
        assert game is not None and options is not None
        search_rng = random.Random(rng.getrandbits(64))
        root = _Node()
        budget = self.budget
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
            steps += self._simulate(root, state, search_rng)
            simulations += 1
            # Stop once no runner-up could catch the leader in the simulations left: the
            # choice is the one the whole budget makes, for less (the leader needs more
            # visits than are left, so not before half the budget).
            limit = budget.simulations
            if (
                limit is not None
                and 2 * simulations > limit
                and _settled(root.tables.get(self._seat, {}), legal, limit - simulations)
            ):
                break
        self.last_simulations, self.last_steps = simulations, steps
        table = root.tables.get(self._seat, {})
        if budget.explain:
            self.record_weighed(
                search_choices(table, legal, game.presentation.describe), simulations
            )
        return _most_tried(table, legal)[0]

    def _simulate(self, root: _Node, state: Any, rng: random.Random) -> int:
        """Run one simulation from ``state``; return how many forward-model steps it took.

        One run of the play driver: down the tree, each seat's choice selected from its
        node's statistics, until a node is added (or the match ends), then a playout to
        the end, or to the horizon where the game's evaluation judges the position. The engine's
        chance is drawn from the search's own generator.
        """
        game = self._game
        assert game is not None
        descent = _Descent(self, game, root, rng)
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


class _Descent:
    """One simulation as the play driver's seats: the tree's selection, then the playout.

    ``ask`` selects from the current node's statistics while there is a node (recording
    each choice on ``path`` and the step's joint choice on ``joint``), and plays the
    playout policy once the tree has been left: uniformly, or as the seats' heuristic bots
    would with chance ``epsilon`` of a uniform choice instead (and a uniform one where a
    heuristic fails or answers something not legal). ``played`` counts the playout's
    steps; at the horizon the game's evaluation ends the playout (``verdict``).
    """

    __slots__ = (
        "_advisers",
        "_bias",
        "_budget",
        "_evaluate",
        "_game",
        "_limit",
        "_own",
        "_policy",
        "_rng",
        "_step_seats",
        "_step_state",
        "joint",
        "node",
        "path",
        "played",
        "playing",
        "verdict",
    )

    def __init__(self, search: Ismcts, game: AnyGame, root: _Node, rng: random.Random) -> None:
        self._game = game
        self._budget = search.budget
        self._advisers = search._advisers
        self._policy = search._policy
        self._bias = search._bias
        self._own = search._seat
        self._rng = rng
        self._evaluate = search._evaluate
        horizon = search._horizon
        self._limit = horizon if horizon is not None else -1
        self._step_state: Any = None
        self._step_seats: tuple[int, ...] = ()
        self.node: _Node | None = root
        self.path: list[tuple[int, Row, Update]] = []
        self.joint: list[Action] = []
        self.played = 0
        self.playing = False
        """Whether the step being resolved belongs to the playout (the tree was left)."""
        self.verdict: Result | None = None

    def engine_turn(self, state: Any, seq: int) -> Turn[Any, Any]:
        """Resolve the engine's turn with the search's generator."""
        self.playing = self.node is None
        turn: Turn[Any, Any] = Turn(self._game, state, self._rng)
        self._game.resolve(turn, ENGINE, None)
        return turn

    def ask(self, state: Any, seat: int, legal: tuple[Action, ...]) -> Action | None:
        """Return ``seat``'s choice: selected in the tree, else the playout policy's."""
        node = self.node
        if node is not None:
            self.playing = False
            return self._select(node, state, seat, legal)
        self.playing = True
        limit = self._limit
        if self.played >= limit >= 0:
            assert self._evaluate is not None  # a horizon is set only where there is one
            verdict = self._evaluate(state)
            if verdict is not None:
                self.verdict = verdict
                return None  # the playout stops here, judged by the game's evaluation
            self._limit = -1  # no judgement here: play on to the end
        rng = self._rng
        count = len(legal)
        policy = self._policy
        if policy is None:
            return legal[rng.randrange(count)]
        if count == 1:
            return legal[0]
        listed = None
        if rng.random() >= self._budget.epsilon:
            try:
                answer = policy[seat].act(self._game.observe(state, seat), legal, rng)
            except Exception:  # a heuristic that trips on a sampled state plays randomly
                answer = None
            if answer is not None:
                listed = choose(legal, answer)
        return legal[rng.randrange(count)] if listed is None else listed

    def _select(self, node: _Node, state: Any, seat: int, legal: tuple[Action, ...]) -> Action:
        """Select ``seat``'s choice at ``node`` (UCB1, or a sealed step's learnt mix)."""
        game, rng, budget = self._game, self._rng, self._budget
        table = node.tables.get(seat)
        if table is None:
            table = node.tables[seat] = {}
        prior = None
        advisers = self._advisers
        if advisers is not None and len(legal) > 1:
            prior = partial(_node_favourite, node, game, advisers[seat], state, seat, legal, rng)
        index = node.index(seat, legal) if len(legal) > WIDEN_ABOVE else None
        update: Update = None
        if seat != self._own and budget.sealed != "ucb1" and len(self._seats(state)) > 1:
            # The searching seat best-responds (UCB1) to the others' learnt mix.
            action, stats, update = select_sealed(
                table, legal, budget.sealed, budget.mix, rng, prior, index
            )
        else:
            action, stats = select_ucb1(
                table, legal, budget.exploration, rng, prior, self._bias, index
            )
        self.joint.append(action)
        self.path.append((seat, stats, update))
        return action

    def _seats(self, state: Any) -> tuple[int, ...]:
        """Return the seats of the step at ``state`` (asked once a step)."""
        if state is not self._step_state:
            self._step_state, self._step_seats = state, self._game.next_step(state).seats
        return self._step_seats

    def descend(self) -> None:
        """Go down to the child of the step's joint choice, adding it when new (and stop)."""
        joint, node = self.joint, self.node
        assert node is not None
        key = joint[0] if len(joint) == 1 else tuple(joint)
        child = node.children.get(key)
        if child is None:
            node.children[key] = _Node()
        self.node = child
        joint.clear()


def _most_tried(table: Mapping[Action, Row], legal: Sequence[Action]) -> tuple[Action, float]:
    """Return the legal action with the most visits (the first on a tie) and its visits."""
    best, most = legal[0], -1.0
    for action in legal:
        stats = table.get(action)
        if stats is not None and stats[0] > most:
            best, most = action, stats[0]
    return best, most


def _settled(table: Mapping[Action, Row], legal: Sequence[Action], left: int) -> bool:
    """Whether ``left`` more visits to any one other action could not change the choice.

    Each simulation adds at most one visit at the root, so an action that trails the
    leader by more than ``left`` visits cannot draw level, whatever the simulations do.
    """
    best, most = _most_tried(table, legal)
    runner_up = max((stats[0] for action, stats in table.items() if action != best), default=0)
    return most - runner_up > left


def _started(game: AnyGame, name: str, players: int, options: Options) -> list[Bot] | None:
    """Return a started bot ``name`` per seat, or None if the game registers none."""
    factory = _policy_factory(game.name, name)
    if factory is None:
        return None
    bots = []
    for seat in range(players):
        bot = factory()
        bot.bind_game(game)
        bot.start_match(game.name, seat, players, options)
        bots.append(bot)
    return bots


@functools.cache
def _policy_factory(game: str, name: str) -> BotFactory | None:
    """Return the factory of the bot registered as ``name`` for ``game``, if any."""
    from racedeck.plugins import load_registry

    # Built-in games never depend on which plugins the environment allows.
    builtin = load_registry(entry_points=False)
    registry = builtin if game in builtin.games else load_registry()
    try:
        factory: BotFactory | None = registry.bot(name, game).factory
    except RacedeckError:
        factory = None
    return factory


def _node_favourite(
    node: _Node,
    game: AnyGame,
    bot: Bot,
    state: Any,
    seat: int,
    legal: Sequence[Action],
    rng: random.Random,
) -> Action | None:
    """Return the heuristic's choice for ``seat`` at ``node``, asking it the first time only."""
    favourites = node.favourites
    if seat in favourites:
        return favourites[seat]
    favourite = favourites[seat] = _favourite(game, bot, state, seat, legal, rng)
    return favourite


def _favourite(
    game: AnyGame, bot: Bot, state: Any, seat: int, legal: Sequence[Action], rng: random.Random
) -> Action | None:
    """Return what the heuristic would play here, or None if it fails."""
    try:
        action: Action = bot.act(game.observe(state, seat), legal, rng)
    except Exception:  # a heuristic that trips on a sampled state gives no advice
        return None
    return action
