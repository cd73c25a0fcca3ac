"""One ISMCTS simulation as the play driver's seats: selection down the tree, then a playout.

Also the bots a search consults (``started``): the heuristic whose choice gets the
progressive bias, and the playout policy.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from racedeck.bots.evaluation import Evaluation
from racedeck.bots.search_budget import Budget
from racedeck.bots.search_reuse import Sightings
from racedeck.bots.search_tree import Node
from racedeck.bots.selection import WIDEN_ABOVE, Row, Update, select_sealed, select_ucb1
from racedeck.core.bot import Bot, BotFactory
from racedeck.core.errors import RacedeckError
from racedeck.core.game import AnyGame
from racedeck.core.model import ENGINE, Action, Options, Result
from racedeck.core.step import Turn, choose


@dataclass(frozen=True)
class Setup:
    """What every simulation of one seat's match searches with, fixed at the match's start."""

    budget: Budget
    own: int
    """The searching seat."""
    bias: float
    """The progressive bias the heuristic's choice gets in UCB1."""
    policy: list[Bot] | None
    """Per seat, the bot that plays its playout decisions (None: uniformly random)."""
    advisers: list[Bot] | None
    """Per seat, the heuristic whose choice at a node gets the progressive bias."""
    evaluate: Evaluation | None
    """The game's judge of a playout cut at the horizon (``bots.evaluation``)."""
    horizon: int | None
    """Playout steps before ``evaluate`` judges (None: play to the end)."""


class Descent:
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
        "_root",
        "_sightings",
        "_step_seats",
        "_step_state",
        "joint",
        "node",
        "path",
        "played",
        "playing",
        "verdict",
    )

    def __init__(
        self,
        setup: Setup,
        game: AnyGame,
        root: Node,
        rng: random.Random,
        sightings: Sightings | None = None,
    ) -> None:
        self._game = game
        self._root = root
        self._sightings = sightings
        """Where the searching seat's observations at the nodes below the root are noted
        (``Budget.reuse``; None: not noted)."""
        self._budget = setup.budget
        self._advisers = setup.advisers
        self._policy = setup.policy
        self._bias = setup.bias
        self._own = setup.own
        self._rng = rng
        self._evaluate = setup.evaluate
        horizon = setup.horizon
        self._limit = horizon if horizon is not None else -1
        self._step_state: Any = None
        self._step_seats: tuple[int, ...] = ()
        self.node: Node | None = root
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
            sightings = self._sightings
            if sightings is not None and seat == self._own and node is not self._root:
                sightings.note(self._game.observe(state, seat), node)
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

    def _select(self, node: Node, state: Any, seat: int, legal: tuple[Action, ...]) -> Action:
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
            node.children[key] = Node()
        self.node = child
        joint.clear()


def started(game: AnyGame, name: str, players: int, options: Options) -> list[Bot] | None:
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
    node: Node,
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
