"""The resolution of one decision: a thin layer over the core's ``Turn``.

The core's ``Turn`` folds each event as it is emitted; the rule sections read
``r.turn.state`` (the state after the events so far) to work out what follows. Beside
the turn, a resolution remembers the two things Wacky Races' rules need while one decision
is resolved: the racers a trap has stopped ("deberá detenerse y sufrir los efectos de
esta, perdiendo el turno" / "they must stop there and suffer its effects, losing the
turn"), and whether work that needs chance is queued for the engine.

Chance is the engine's alone: a seat's action that needs it (a steal, the Giant Magnet's
card, a draw that needs a shuffle) queues a task (``TaskQueued``) and the engine does it
next, in the order queued, then says so (``TasksDone``).

An effect that moves racers (a trap, a special tile, an advantage, the neutral racers'
round) does not make them meet their new positions itself: it yields each racer it moved
(``Arrivals``) and goes on once the caller, ``moving``, has made it arrive. The sections
thus never import the module that moves racers, and nothing here forwards to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from msgspec.structs import replace

from racedeck.core.rng import Rng
from racedeck.core.step import Turn
from racedeck.games.wacky_races.events import TaskQueued, TasksDone, WackyEvent
from racedeck.games.wacky_races.state import WackyState

TaskWork = Callable[["Resolution", int, int], None]
"""The chance work of a task: ``work(r, seat, target)``."""

Arrivals = Iterable[tuple[int, bool]]
"""What an effect that moves racers yields: ``(car, by_step)`` for each racer it moved,
which must meet its new position (``moving.arrive``) before the effect goes on."""


class Resolution:
    """One decision being resolved: its ``Turn``, the racers stopped, and how chance is met.

    ``queue`` is True for a seat's action: its chance work is queued for the engine.
    """

    __slots__ = ("emit", "queue", "stopped", "turn")

    def __init__(self, turn: Turn[WackyState, WackyEvent], queue: bool) -> None:
        self.turn = turn
        self.emit: Callable[[WackyEvent], WackyState] = turn.emit
        """Record an event and fold it into the state (the turn's own ``emit``)."""
        self.queue = queue
        self.stopped: set[int] = set()
        """The cars a trap stopped during this decision (in the neutral racers' round: since
        their round began)."""

    @property
    def racing(self) -> bool:
        """Whether the race goes on (no racer has ended it)."""
        return self.turn.state.phase != "race_end"

    def chance(self) -> Rng:
        """Return the engine's generator (a seat's decision has none: drawing raises)."""
        return self.turn.rng

    def task(
        self, kind: str, seat: int, target: int, work: TaskWork, needs_chance: bool = True
    ) -> None:
        """Do ``work`` now, or queue it for the engine when a seat's action needs chance."""
        if self.queue and needs_chance:
            self.emit(TaskQueued(kind=kind, seat=seat, target=target))
        else:
            work(self, seat, target)


# Folding --------------------------------------------------------------------------------------
def on_task_queued(state: WackyState, event: TaskQueued) -> WackyState:
    """Fold: a task joins the engine's queue."""
    return replace(state, pending=(*state.pending, (event.kind, event.seat, event.target)))


def on_tasks_done(state: WackyState, event: TasksDone) -> WackyState:
    """Fold: the engine's queue is empty again."""
    return replace(state, pending=())
