"""The step: the one place where a decision becomes events and the state after them.

A game's ``resolve`` emits the events of a decision into a ``Turn``; each ``emit`` folds
that event into the turn's state at once, so the game reads ``turn.state`` to decide what
follows (a challenge's outcome, a trap, a pit stop, a refill) and every event is folded
exactly once. The runner, replay, fork, resume, the tournament worker and search all go
through the functions here; no other module folds events or resolves decisions.

Legality is checked once per decision: the caller that asked a bot holds the legal actions
it offered and picks the engine's own copy of the answer with ``choose``; ``apply`` is for
callers that have no legal list yet (tests, tools) and checks against a fresh one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from racedeck.core.errors import IllegalActionError
from racedeck.core.game import AnyGame
from racedeck.core.model import ENGINE, Action
from racedeck.core.rng import Rng

StateT = TypeVar("StateT")
EventT = TypeVar("EventT")


class _NoChance(random.Random):
    """Handed to a seat's decision: a seat's action never draws random numbers."""

    def random(self) -> float:
        """Refuse: only the engine's turn may draw."""
        raise RuntimeError("a seat's decision drew a random number; only the engine may")

    def getrandbits(self, k: int, /) -> int:
        """Refuse: only the engine's turn may draw."""
        raise RuntimeError("a seat's decision drew a random number; only the engine may")


NO_CHANCE: Rng = _NoChance(0)
"""The generator of every seat's decision: drawing from it is a bug in the game."""


class Turn(Generic[StateT, EventT]):
    """One decision being resolved: the events it caused so far and the state they lead to.

    ``rng`` is the engine's generator on the engine's turn and ``NO_CHANCE`` on a seat's.
    """

    __slots__ = ("_evolve", "events", "rng", "state")

    def __init__(self, game: AnyGame, state: StateT, rng: Rng) -> None:
        self._evolve = game.evolve
        self.state: StateT = state
        self.events: list[EventT] = []
        self.rng = rng

    @property
    def engine(self) -> bool:
        """Whether this is the engine's turn: the only one whose work may draw random numbers."""
        return self.rng is not NO_CHANCE

    def emit(self, event: EventT) -> StateT:
        """Record ``event``, fold it into the state, and return the state after it."""
        state: StateT = self._evolve(self.state, event)
        self.state = state
        self.events.append(event)
        return state


class StatesTurn(Turn[Any, Any]):
    """A turn that also keeps the state after each of its events, for a log's readers.

    A reader that shows the state after every event needs those inside a decision too;
    the runner's ``Turn`` keeps only the last state.
    """

    __slots__ = ("states",)

    def __init__(self, game: AnyGame, state: Any, rng: Rng) -> None:
        super().__init__(game, state, rng)
        self.states: list[Any] = []

    def emit(self, event: Any) -> Any:
        """Record ``event`` and the state after it, and return that state."""
        # ``Turn.emit`` written out: this runs once an event of every log read.
        state = self._evolve(self.state, event)
        self.state = state
        self.events.append(event)
        self.states.append(state)
        return state


def resolve(
    game: AnyGame, state: Any, actor: int, action: Action | None, rng: Rng
) -> Turn[Any, Any]:
    """Return the turn of ``actor`` taking ``action`` (already known legal) from ``state``.

    ``actor`` is a seat with an action the caller took from ``legal_actions`` (see
    ``choose``), or ``ENGINE`` with ``None`` for the engine's own turn.
    """
    turn: Turn[Any, Any] = Turn(game, state, rng)
    game.resolve(turn, actor, action)
    return turn


class _Begun(Exception):
    """Raised by a ``_FirstEvent`` turn at the first event: the action has shown how it begins."""


class _FirstEvent(Turn[StateT, EventT]):
    """A turn that keeps the first event an action emits and stops there, folding nothing."""

    __slots__ = ()

    def emit(self, event: EventT) -> StateT:
        """Keep ``event`` and stop the action."""
        self.events.append(event)
        raise _Begun


def beginning_with(
    game: AnyGame, state: Any, seat: int, legal: Sequence[Action], event: object
) -> tuple[Action, ...]:
    """Return the actions of ``legal`` whose first event is ``event``.

    Only they can explain a decision that began with it. For readers of logs that record
    events but not the actions behind them: each legal action of ``seat`` is taken only as
    far as its first event, and nothing is folded. Usually one action; none when ``seat``
    did not make that decision.
    """
    found: list[Action] = []
    for action in legal:
        turn: _FirstEvent[Any, Any] = _FirstEvent(game, state, NO_CHANCE)
        try:
            game.take(turn, seat, action)
        except _Begun:
            pass
        except Exception:  # an action that cannot even begin explains no event
            continue
        if turn.events and turn.events[0] == event:
            found.append(action)
    return tuple(found)


def choose(legal: Sequence[Action], answer: object) -> Action | None:
    """Return the engine's own copy of ``answer`` from ``legal``, or ``None`` if it is not there.

    An answer counts only when it is of the very type of a legal action and equal to it:
    an object that claims to equal everything, or a subclass with its own ideas of
    equality, is not a legal action. What goes on is the engine's copy, never the answer.
    """
    for action in legal:
        if action is answer:  # the usual answer: one of the very objects offered
            return action
    kind = type(answer)
    for action in legal:
        if type(action) is kind and action == answer:
            return action
    return None


def apply(
    game: AnyGame, state: Any, actor: int, action: Action | None, rng: Rng = NO_CHANCE
) -> Turn[Any, Any]:
    """Check ``action`` against the legal actions of ``actor``, then resolve it.

    For callers that hold no legal list (tests, tools); raises ``IllegalActionError``
    naming the action, the seat and, where the game can say, why.
    """
    if actor == ENGINE:
        if not game.next_step(state).engine:
            raise IllegalActionError(None, ENGINE, "it is not the engine's turn")
        return resolve(game, state, ENGINE, None, rng)
    if action is None:
        raise IllegalActionError(action, actor, "a seat must choose an action")
    legal = game.legal_actions(state, actor)
    chosen = choose(legal, action)
    if chosen is None:
        if not legal:
            why = f"seat {actor} has nothing to decide now"
        else:
            why = game.explain_illegal(state, actor, action) or "it is not a legal action now"
        raise IllegalActionError(action, actor, why)
    return resolve(game, state, actor, chosen, NO_CHANCE)


def folder(game: AnyGame) -> Callable[[Any, Any], Any]:
    """Return the function that folds one event of ``game`` into a state.

    For a reader that folds events one at a time as it reads them (a log's fold) and
    wants no call in between; ``fold`` is the same for a batch.
    """
    evolve: Callable[[Any, Any], Any] = game.evolve
    return evolve


def fold(game: AnyGame, state: StateT, events: Iterable[Any]) -> StateT:
    """Return ``state`` with each of ``events`` (from a log, say) folded in, in order."""
    evolve = game.evolve
    for event in events:
        state = evolve(state, event)
    return state
