"""Famous 500's heuristic bot: it manages its columns.

It prices every column point: a point is free while the column holds more than the rest
of the race (or the stint until the next pit section) is expected to cost, and dear once it
is short: then it must be bought back in the pit (at 3 Tires, 2 Fuel or 1 Engine a Speed
point) or saved by driving slowly. Each section it plays the card whose chance of winning
(counting the cards it knows the opponent holds and the unseen ones) is worth most after
its cost at those prices, and never one that would put its car below zero while another
card would not. It designs its car for the track: Engine for the whole race (the dearest
column to repair), Tires and Fuel for about a lap and a half when the track has pit
sections (repairs are cheap there), the rest in Speed. It pits when the columns are short
of what the rest of the race needs, and repairs the column most in need first.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.games.famous500.actions import (
    Design,
    Discard,
    FalseStart,
    LeavePit,
    PitStop,
    Race,
    Repair,
    ReturnCard,
)
from racedeck.games.famous500.customizing_your_race_car import design_set, designs
from racedeck.games.famous500.state import Famous500Observation, Setup

STINT_LAPS = 1.5
"""With pit sections on the track, Tires and Fuel are designed for this many laps."""
PIT_WHEN_SHORT = 1.5
"""Pit when repairing what the rest of the race needs would take this many Speed points."""
NO_PIT_PRICE = 1.5
"""What a column point short of need costs (in Speed points) when no pit stop is left."""
INFEASIBLE = -1000.0


@functools.cache
def typical_costs(setup: Setup) -> tuple[tuple[float, float, float], ...]:
    """Return, per kind of section, what an average card costs in each column."""
    n = len(setup.speeds)
    out = []
    for kind in range(3):
        t, f, e = (sum(setup.costs[i][kind][c] for i in range(n)) / n for c in range(3))
        out.append((t, f, e))
    return tuple(out)


def _worst(setup: Setup, kinds: Sequence[int], column: int) -> int:
    """Return the most any card costs in ``column`` on one of these kinds of section."""
    return max((max(cost[k][column] for cost in setup.costs) for k in set(kinds)), default=0)


@functools.cache
def _sections_after(
    laps: int, sections: int, lap: int, section: int
) -> tuple[tuple[int, int], ...]:
    """Return (lap, section) of every section after ``section`` of ``lap``, in race order."""
    out = []
    section += 1
    while lap <= laps:
        while section < sections:
            out.append((lap, section))
            section += 1
        lap, section = lap + 1, 0
    return tuple(out)


def remaining_sections(obs: Famous500Observation) -> list[tuple[int, int]]:
    """Return (lap, section) of every section after the current one, in race order."""
    setup = obs.setup
    return list(_sections_after(setup.laps, len(setup.kinds), obs.lap, obs.section))


# What follows is computed once per track and position, not once per decision: these are
# pure functions of the (frozen, hashable) set-up and the penny, and the search asks the
# heuristic at every step of every playout.
@functools.cache
def stint_needs(
    setup: Setup, lap: int, section: int, to_end: bool
) -> tuple[tuple[float, float, float], bool]:
    """Return what the sections after this one should cost, and whether a pit is left.

    The need is the average card's cost plus one worst section per column. Unless
    ``to_end``, the horizon is the next pit section after this one.
    """
    typical = typical_costs(setup)
    need = [0.0, 0.0, 0.0]
    pit_left = False
    stretch = []
    for _lap, s in _sections_after(setup.laps, len(setup.kinds), lap, section):
        if setup.pits[s]:
            pit_left = True
            if not to_end:
                break
        stretch.append(setup.kinds[s])
    for kind in stretch:
        for c in range(3):
            need[c] += typical[kind][c]
    for c in range(3):
        need[c] += _worst(setup, stretch, c)
    return (need[0], need[1], need[2]), pit_left


@functools.cache
def car_design(setup: Setup) -> Design:
    """Return the design for the track's sections and pit stops.

    Engine for the whole race; Tires and Fuel to reach the first pit section (all of
    the race without one); the rest in Speed, to be spent on cheap repairs.
    """
    typical = typical_costs(setup)
    laps = setup.laps
    kinds = setup.kinds
    first_pit = setup.pits.index(True) if any(setup.pits) else -1
    before = kinds if first_pit < 0 else kinds[:first_pit]
    want = []
    for c in range(3):
        whole_race = c == 2 or first_pit < 0
        stretch = [*kinds] * laps if whole_race else list(before)
        need = sum(typical[k][c] for k in stretch)
        want.append(need + (_worst(setup, stretch, c) if stretch else 0))
    cols = [math.ceil(w) for w in want]
    total = setup.difficulty
    while sum(cols) > total:
        c = max(range(3), key=lambda i: cols[i] * setup.repair[i])
        cols[c] -= 1
    return Design(tires=cols[0], fuel=cols[1], engine=cols[2], speed=total - sum(cols))


@functools.cache
def keep_values(
    setup: Setup, lap: int, section: int
) -> tuple[tuple[float, tuple[float, ...]], ...]:
    """Return, per card (slowest first), what it is worth to keep.

    That is its chance to beat a typical card, and its average cost per column on the
    sections still to race.
    """
    typical_share = 1.0 / len(setup.speeds)
    after = _sections_after(setup.laps, len(setup.kinds), lap, section)
    kinds = [setup.kinds[s] for _lap, s in after] or [0]
    out = []
    for i, card in enumerate(setup.speeds):
        beats = sum(1 for c in setup.speeds if c < card) * typical_share
        avg = tuple(sum(setup.costs[i][k][c] for k in kinds) / len(kinds) for c in range(3))
        out.append((beats, avg))
    return tuple(out)


class Famous500Heuristic(Bot):
    """Designs for the track, races hard while its columns can pay, pits to repair."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Choose a legal action for the Famous 500 situation in ``observation``."""
        assert isinstance(observation, Famous500Observation)
        obs = observation
        phase = obs.phase
        if phase == "choose":
            return self._choose(obs, legal)
        if phase == "pit_repair":
            return self._repair(obs, legal)
        if phase in ("pit_return", "discard"):
            return self._let_go(obs, legal)
        if phase == "design":
            return self._design(obs, legal)
        for action in legal:
            if isinstance(action, FalseStart):
                return action
        return legal[0]

    # Car design --------------------------------------------------------------------------
    def _design(self, obs: Famous500Observation, legal: Sequence[Action]) -> Action:
        """Design the car for the track's sections and pit stops (see ``car_design``)."""
        setup = obs.setup
        design = car_design(setup)
        every = designs(setup.difficulty)
        # Offered every design of the track (as always), membership is a set lookup.
        offered = design in design_set(setup.difficulty) if legal is every else design in legal
        return design if offered else legal[0]

    # Prices ------------------------------------------------------------------------------
    def _needs(
        self, obs: Famous500Observation, to_end: bool
    ) -> tuple[tuple[float, float, float], bool]:
        """Return what the sections after this one should cost, and whether a pit is left."""
        return stint_needs(obs.setup, obs.lap, obs.section, to_end)

    def _prices(self, obs: Famous500Observation) -> tuple[list[float], list[float]]:
        """Return each column's budget left over after need, and the price of a short point."""
        setup = obs.setup
        car = obs.cars[obs.seat]
        assert car is not None
        need, pit_left = self._needs(obs, to_end=False)
        spare = [car[c] - need[c] for c in range(3)]
        price = [(1.0 / setup.repair[c] + 0.3) if pit_left else NO_PIT_PRICE for c in range(3)]
        return spare, price

    def _card_odds(self, obs: Famous500Observation) -> list[tuple[int, float]]:
        """Return the opponent's possible cards with their chance of being played."""
        known = obs.opponent_known
        # The cards this driver can place. Speeds are positive, so the zeros of an unknown
        # pit deck card or of no card laid place nothing.
        seen = {*obs.hand, *known, obs.laid, *obs.pit_deck_known}
        seen.update([c for _s, c in obs.discards])
        unknown = [c for c in obs.setup.speeds if c not in seen]
        size = obs.hand_sizes[1 - obs.seat] + (1 if obs.opponent_laid else 0)
        size = max(size, 1)
        odds = [(c, 1.0 / size) for c in known]
        rest = max(size - len(known), 0)
        if unknown and rest:
            share = rest / size / len(unknown)
            odds.extend([(c, share) for c in unknown])
        return odds

    def _card_value(
        self,
        card: int,
        cost: tuple[int, int, int],
        car: tuple[int, ...],
        odds: list[tuple[int, float]],
        spare: list[float],
        price: list[float],
    ) -> float:
        """Return 2 x the chance of winning with ``card`` minus what its ``cost`` is worth."""
        penalty = 0.0
        for c in range(3):
            if car[c] - cost[c] < 0:
                return INFEASIBLE - cost[c]
            # max(0.0, x), spelled out: this runs at every step of every playout.
            before = -spare[c]
            short_before = before if before > 0.0 else 0.0
            after = cost[c] - spare[c]
            short_after = after if after > 0.0 else 0.0
            penalty += (short_after - short_before) * price[c]
        win = sum([p for c, p in odds if c < card])
        return 2.0 * win - penalty

    # Sections ----------------------------------------------------------------------------
    def _choose(self, obs: Famous500Observation, legal: Sequence[Action]) -> Action:
        races = [a for a in legal if isinstance(a, Race)]
        pits = [a for a in legal if isinstance(a, PitStop)]
        if pits and self._should_pit(obs):
            return min(pits, key=lambda a: a.card)
        spare, price = self._prices(obs)
        odds = self._card_odds(obs)
        setup = obs.setup
        car = obs.cars[obs.seat]
        assert car is not None
        row = setup.costs
        kind = setup.kinds[obs.section]
        index = setup.speeds.index
        values = {
            a.card: self._card_value(a.card, row[index(a.card)][kind], car, odds, spare, price)
            for a in races
        }
        best = max(races, key=lambda a: (values[a.card], -a.card))
        if pits and values[best.card] <= INFEASIBLE:
            return min(pits, key=lambda a: a.card)
        return best

    def _repair_plan(self, obs: Famous500Observation, to_end: bool = True) -> list[float]:
        """Return the Speed points each column should get to last the rest of the race."""
        setup = obs.setup
        car = obs.cars[obs.seat]
        assert car is not None
        need, _ = self._needs(obs, to_end=to_end)
        return [max(0.0, need[c] - car[c]) / setup.repair[c] for c in range(3)]

    def _should_pit(self, obs: Famous500Observation) -> bool:
        car = obs.cars[obs.seat]
        assert car is not None
        if car[3] < 1:
            return False
        if sum(self._repair_plan(obs, to_end=False)) > 0:
            return True
        return sum(self._repair_plan(obs)) >= PIT_WHEN_SHORT

    def _repair(self, obs: Famous500Observation, legal: Sequence[Action]) -> Action:
        plan = self._repair_plan(obs)
        column = max(range(3), key=lambda c: plan[c])
        if plan[column] > 0.34:
            repair = Repair(column=column)
            if repair in legal:
                return repair
        for action in legal:
            if isinstance(action, LeavePit):
                return action
        return legal[0]

    def _let_go(self, obs: Famous500Observation, legal: Sequence[Action]) -> Action:
        """Return (to the pit deck) or discard the card worth least to keep."""
        choices = [a for a in legal if isinstance(a, (ReturnCard, Discard))]
        setup = obs.setup
        car = obs.cars[obs.seat]
        if car is None:
            return min(choices, key=lambda a: a.card)
        spare, price = self._prices(obs)
        table = keep_values(setup, obs.lap, obs.section)
        index = setup.speeds.index

        def keep_value(card: int) -> float:
            beats, avg = table[index(card)]
            short = sum(avg[c] * price[c] for c in range(3) if spare[c] < avg[c])
            return 2.0 * beats - short

        return min(choices, key=lambda a: (keep_value(a.card), a.card))
