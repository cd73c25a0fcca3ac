"""Winning the Game: three races, and the richest player wins.

"The player with the most money after three races is the winner!" "The game ends when
three races have been completed. The player with the most money is the winner."

The number of races is the ``races`` option (3 by default); the result ranks the seats by
money, ties shared.
"""

from __future__ import annotations

from racedeck.core.model import Result, ranks_from_scores
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions
from racedeck.games.detroit_cleveland.render import describe_race
from racedeck.games.detroit_cleveland.state import DetroitClevelandState, Phase


def phase_after_race(races_run: int, options: DetroitClevelandOptions) -> Phase:
    """Return what follows once ``races_run`` races are over: the next deal, or the end."""
    return "over" if races_run >= options.races else "deal"


def result(state: DetroitClevelandState) -> Result:
    """Rank seats by money: the richest player wins."""
    scores = state.money
    summary = [
        describe_race(race, places, state.owners[race]) for race, places in enumerate(state.results)
    ]
    summary.append("money: " + ", ".join(f"seat {s} ${m:,}" for s, m in enumerate(scores)))
    return Result(
        ranks=ranks_from_scores(scores), scores=scores, unit="dollars", summary=tuple(summary)
    )
