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
from racedeck.games.famous500.state import Famous500Observation, Setup

STINT_LAPS = 1.5
"""With pit sections on the track, Tires and Fuel are designed for this many laps."""
PIT_WHEN_SHORT = 1.5
"""Pit when repairing what the rest of the race needs would take this many Speed points."""
NO_PIT_PRICE = 1.5
"""What a column point short of need costs (in Speed points) when no pit stop is left."""
INFEASIBLE = -1000.0


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


def remaining_sections(obs: Famous500Observation) -> list[tuple[int, int]]:
    """Return (lap, section) of every section after the current one, in race order."""
    setup = obs.setup
    n = len(setup.kinds)
    out = []
    lap, section = obs.lap, obs.section + 1
    while lap <= setup.laps:
        while section < n:
            out.append((lap, section))
            section += 1
        lap, section = lap + 1, 0
    return out


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
        """Design the car for the track's sections and pit stops.

        Engine for the whole race; Tires and Fuel to reach the first pit section (all of
        the race without one); the rest in Speed, to be spent on cheap repairs.
        """
        setup = obs.setup
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
        design = Design(tires=cols[0], fuel=cols[1], engine=cols[2], speed=total - sum(cols))
        return design if design in legal else legal[0]

    # Prices ------------------------------------------------------------------------------
    def _needs(self, obs: Famous500Observation, to_end: bool) -> tuple[list[float], bool]:
        """Return what the sections after this one should cost, and whether a pit is left.

        The need is the average card's cost plus one worst section per column. Unless
        ``to_end``, the horizon is the next pit section after this one.
        """
        setup = obs.setup
        typical = typical_costs(setup)
        need = [0.0, 0.0, 0.0]
        pit_left = False
        stretch = []
        for _lap, section in remaining_sections(obs):
            if setup.pits[section]:
                pit_left = True
                if not to_end:
                    break
            stretch.append(setup.kinds[section])
        for kind in stretch:
            for c in range(3):
                need[c] += typical[kind][c]
        for c in range(3):
            need[c] += _worst(setup, stretch, c)
        return need, pit_left

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
        setup = obs.setup
        other = 1 - obs.seat
        known = list(obs.opponent_known)
        seen = set(obs.hand) | set(known) | {c for _s, c in obs.discards}
        seen.add(obs.laid)
        seen.update(c for c in obs.pit_deck_known if c)
        unknown = [c for c in setup.speeds if c not in seen]
        size = obs.hand_sizes[other] + (1 if obs.opponent_laid else 0)
        size = max(size, 1)
        odds = [(c, 1.0 / size) for c in known]
        rest = max(size - len(known), 0)
        if unknown and rest:
            share = rest / size / len(unknown)
            odds.extend((c, share) for c in unknown)
        return odds

    def _card_value(
        self,
        obs: Famous500Observation,
        card: int,
        odds: list[tuple[int, float]],
        spare: list[float],
        price: list[float],
    ) -> float:
        """Return 2 x the chance of winning with ``card`` minus what its cost is worth."""
        setup = obs.setup
        car = obs.cars[obs.seat]
        assert car is not None
        cost = setup.cost(card, obs.section)
        penalty = 0.0
        for c in range(3):
            if car[c] - cost[c] < 0:
                return INFEASIBLE - cost[c]
            short_before = max(0.0, -spare[c])
            short_after = max(0.0, cost[c] - spare[c])
            penalty += (short_after - short_before) * price[c]
        win = sum(p for c, p in odds if c < card)
        return 2.0 * win - penalty

    # Sections ----------------------------------------------------------------------------
    def _choose(self, obs: Famous500Observation, legal: Sequence[Action]) -> Action:
        races = [a for a in legal if isinstance(a, Race)]
        pits = [a for a in legal if isinstance(a, PitStop)]
        if pits and self._should_pit(obs):
            return min(pits, key=lambda a: a.card)
        spare, price = self._prices(obs)
        odds = self._card_odds(obs)
        values = {a.card: self._card_value(obs, a.card, odds, spare, price) for a in races}
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
        typical_share = 1.0 / len(setup.speeds)
        spare, price = self._prices(obs)
        kinds = [setup.kinds[s] for _lap, s in remaining_sections(obs)] or [0]
        index = setup.speeds.index

        def keep_value(card: int) -> float:
            beats = sum(1 for c in setup.speeds if c < card) * typical_share
            i = index(card)
            avg = [sum(setup.costs[i][k][c] for k in kinds) / len(kinds) for c in range(3)]
            short = sum(avg[c] * price[c] for c in range(3) if spare[c] < avg[c])
            return 2.0 * beats - short

        return min(choices, key=lambda a: (keep_value(a.card), a.card))
