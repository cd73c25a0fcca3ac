"""The play driver: the one loop that asks who acts, asks a seat, resolves and folds.

Everything that plays a match or walks one is this loop with its own ``ask`` and its own
use of the decisions it yields: the runner (bots asked, faults refereed, each decision
written to the log), reading a log (each seat "answers" with its recorded action and each
decision's events are compared with the recorded ones), a fork's bots watching the
prefix, and the Python API. The loop itself, and so the order in which seats are asked
and decisions resolved, is written once.

A sealed step (several seats at once) asks every seat from the same state, each with its
legal actions in that state, and only then resolves their choices in seat order, each
from the state the previous one left. The engine's turn draws from the stream keyed by
the number of events so far (``engine_stream(seed, seq)``), so a match continued from
event N draws what the original drew.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, cast

from racedeck.core.game import AnyGame
from racedeck.core.model import ENGINE, Action
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, Turn

Ask = Callable[[Any, int, tuple[Action, ...]], Action | None]
"""``ask(state, seat, legal)``: the seat's action, one of the very objects of ``legal``.

``None`` stops the match before the step is resolved (a forfeit, the end of a record).
"""

EngineTurn = Callable[[Any, int], Turn[Any, Any]]
"""``engine_turn(state, seq)``: the engine's turn from ``state`` after ``seq`` events."""


Decided = tuple[int, Action | None, Turn[Any, Any], int]
"""One decision just resolved: ``(actor, action, turn, first)``.

The decision's events are ``turn.events[first:]`` (a sealed step's seats share one turn);
``turn.state`` is the state after them. A plain tuple: one is made every decision of
every match and search.
"""


class Asking(NamedTuple):
    """The driver waits for ``seat``'s action among ``legal`` in ``state`` (no ``ask`` given).

    ``seats`` are all the seats of the step, asked in that order from the same state. The
    caller sets ``Driver.answer`` to one of the very objects of ``legal`` (``None``
    stops the match, as ``ask`` returning ``None`` does) and goes on iterating.
    """

    state: Any
    seat: int
    legal: tuple[Action, ...]
    seats: tuple[int, ...]


class Driver:
    """Play ``game`` from ``state`` (after ``events`` events) until it ends or ``ask`` stops.

    Iterating resolves the match one decision at a time and yields each (``Decided``);
    ``state``, ``events`` and ``over`` say where it is once a step is done (``over``:
    the match ended rather than ``ask`` stopping it). ``turn_type`` is the ``Turn`` class
    decisions are resolved in (a reader that shows the state after every event uses one
    that keeps them); ``engine_turn`` stands in for the engine's own (a fork's copied
    prefix, drawn from another seed, is taken as recorded).

    Without ``ask``, ``steps()`` hands each seat's decision to the caller instead: it
    yields an ``Asking`` and plays on with ``answer`` (an environment driven from outside,
    one agent's choice at a time).
    """

    __slots__ = (
        "answer",
        "ask",
        "engine_turn",
        "events",
        "game",
        "over",
        "seed",
        "state",
        "turn_type",
    )

    def __init__(
        self,
        game: AnyGame,
        state: Any,
        seed: int,
        ask: Ask | None,
        events: int = 0,
        *,
        turn_type: type[Turn[Any, Any]] = Turn,
        engine_turn: EngineTurn | None = None,
    ) -> None:
        self.game = game
        self.state = state
        self.seed = seed
        self.ask = ask
        self.events = events
        self.over = False
        self.turn_type = turn_type
        self.engine_turn = engine_turn
        self.answer: Action | None = None
        """The action for the last ``Asking`` the driver yielded."""

    def __iter__(self) -> Iterator[Decided]:
        """Yield each decision resolved; the seats are asked through ``ask``."""
        assert self.ask is not None, "a driver without ask is iterated with steps()"
        return cast(Iterator[Decided], self.steps())

    def steps(self) -> Iterator[Decided | Asking]:
        """Yield each decision resolved and, without ``ask``, each seat the driver waits for."""
        game, ask, seed, make = self.game, self.ask, self.seed, self.turn_type
        next_step = game.next_step
        legal_actions = game.legal_actions
        resolve = game.resolve
        engine_turn = self.engine_turn
        state, events = self.state, self.events
        while True:
            step = next_step(state)
            seats = step.seats
            if seats:
                chosen: list[tuple[int, Action]] = []
                for seat in seats:
                    offered = legal_actions(state, seat)
                    # An immutable list: nothing the seat does to it reaches the engine.
                    legal = offered if type(offered) is tuple else tuple(offered)
                    if ask is None:
                        self.answer = None
                        yield Asking(state, seat, legal, seats)
                        action = self.answer
                    else:
                        action = ask(state, seat, legal)
                    if action is None:
                        return
                    chosen.append((seat, action))
                turn = make(game, state, NO_CHANCE)
                for seat, action in chosen:
                    first = len(turn.events)
                    resolve(turn, seat, action)
                    yield seat, action, turn, first
            elif step.engine:
                if engine_turn is None:
                    turn = make(game, state, engine_stream(seed, events))
                    resolve(turn, ENGINE, None)
                else:
                    turn = engine_turn(state, events)
                yield ENGINE, None, turn, 0
            else:
                self.over = True
                return
            state = turn.state
            events += len(turn.events)
            self.state, self.events = state, events


def play_through(driver: Driver) -> Driver:
    """Run ``driver`` to its end, for a caller that needs only where it stopped."""
    for _decided in driver:
        pass
    return driver
