"""Famous 500's evaluation: who is ahead in a race that is not over, for searches.

A search that cuts its playouts short (ISMCTS's ``horizon``) asks this who leads. Speed
points win at the finish, but only for a car that lasts: a car's prospect is its Speed
points less twice those it would have to spend in the pit to repair what the rest of the race
is expected to cost its Tires, Fuel and Engine (the heuristic's own ``repair_plan``). A
car already below zero has lost.
"""

from __future__ import annotations

from racedeck.core.model import Result
from racedeck.games.famous500.bots import repair_plan
from racedeck.games.famous500.finishing_the_race import is_out
from racedeck.games.famous500.state import Famous500State

BEFORE_THE_RACE = frozenset({"deal", "start", "design"})
"""The phases before the cars are designed: nothing to judge yet."""
OUT = -1_000.0
"""The prospect of a car below zero: it has lost."""
REPAIR_WEIGHT = 2.0
"""How many Speed points each Speed point of repairs still needed costs the prospect.

More than one: a pit stop also costs the sections spent in the pit, and a car short of
what the race needs drives slowly to save it. Calibrated against heuristic playouts
(``benchmarks/calibrate_evaluation.py``, 200 positions): pairs ordered alike at horizons
0, 10 and 20, 0.67, 0.71 and 0.74 with this weight; 0.61, 0.64 and 0.64 at 1; 0.53, 0.57
and 0.57 on Speed points alone; 0.66, 0.71 and 0.72 at 4.
"""


def prospect(state: Famous500State, seat: int) -> float:
    """Return ``seat``'s Speed points less what lasting the race would cost in the pit."""
    car = state.cars[seat]
    if is_out(car):
        return OUT
    return car[3] - REPAIR_WEIGHT * sum(repair_plan(state.setup, state.lap, state.section, car))


def evaluate(state: Famous500State) -> Result | None:
    """Return the result the race would have if the prospects held to the finish.

    None before the cars are designed and once the race is decided: the search plays on
    to where it can judge. Equal prospects share first place. Draws nothing.
    """
    if state.phase in BEFORE_THE_RACE or state.winner >= 0:
        return None
    first, second = prospect(state, 0), prospect(state, 1)
    ranks = (1, 1) if first == second else (1, 2) if first > second else (2, 1)
    scores = (state.cars[0][3], state.cars[1][3])
    return Result(ranks=ranks, scores=scores, unit="speed points")
