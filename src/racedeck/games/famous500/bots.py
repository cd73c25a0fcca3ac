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
from collections.abc import Collection, Sequence

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
from racedeck.games.famous500.customizing_your_race_car import (
    design_set,
    designs,
    listed_design,
)
from racedeck.games.famous500.state import Famous500Observation, Setup

STINT_LAPS = 1.5
"""With pit sections on the track, Tires and Fuel are designed for this many laps."""
PIT_WHEN_SHORT = 1.5
"""Pit when repairing what the rest of the race needs would take this many Speed points."""
NO_PIT_PRICE = 1.5
"""What a column point short of need costs (in Speed points) when no pit stop is left."""
INFEASIBLE = -1000.0


@functools.lru_cache(maxsize=256)
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


@functools.lru_cache(maxsize=1 << 14)
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
@functools.lru_cache(maxsize=1 << 14)
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


@functools.lru_cache(maxsize=256)
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
    # The very object the legal actions list: the engine finds it among 1,330 by identity.
    return listed_design(total, (cols[0], cols[1], cols[2], total - sum(cols)))


@functools.lru_cache(maxsize=1 << 14)
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


Car = tuple[int, ...]
"""A car sheet's current row: tires, fuel, engine, speed."""

_REPAIRS = (Repair(column=0), Repair(column=1), Repair(column=2))


@functools.lru_cache(maxsize=1 << 14)
def stint_prices(
    setup: Setup, lap: int, section: int
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Return what the stint after this section needs per column, and a short point's price.

    The stint runs to the next pit section; a short point costs what buys it back there
    (plus a little for the stop), or ``NO_PIT_PRICE`` Speed points with no pit stop left.
    """
    need, pit_left = stint_needs(setup, lap, section, False)
    price = [(1.0 / setup.repair[c] + 0.3) if pit_left else NO_PIT_PRICE for c in range(3)]
    return need, (price[0], price[1], price[2])


def prices(
    setup: Setup, lap: int, section: int, car: Car
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """Return each column's budget left over after the stint's need, and a short point's price."""
    need, price = stint_prices(setup, lap, section)
    return (car[0] - need[0], car[1] - need[1], car[2] - need[2]), price


@functools.lru_cache(maxsize=1 << 14)
def repair_plan(
    setup: Setup, lap: int, section: int, car: Car, to_end: bool = True
) -> tuple[float, float, float]:
    """Return the Speed points each column should get to last the rest of the race.

    Unless ``to_end``, only up to the next pit section.
    """
    need, _ = stint_needs(setup, lap, section, to_end)
    plan = [max(0.0, need[c] - car[c]) / setup.repair[c] for c in range(3)]
    return plan[0], plan[1], plan[2]


def should_pit(setup: Setup, lap: int, section: int, car: Car) -> bool:
    """Return True when the car should pit on this (dotted) section.

    That is when its columns cannot reach the next pit section, or when repairing what the
    rest of the race needs would take ``PIT_WHEN_SHORT`` Speed points or more.
    """
    if car[3] < 1:
        return False
    if sum(repair_plan(setup, lap, section, car, False)) > 0:
        return True
    return sum(repair_plan(setup, lap, section, car)) >= PIT_WHEN_SHORT


def cost_penalty(
    cost: tuple[int, int, int],
    car: Car,
    spare: tuple[float, float, float],
    price: tuple[float, float, float],
) -> tuple[float, bool]:
    """Return what ``cost`` is worth at the column prices, and whether the car can pay it.

    A cost that would put the car below zero is worth ``INFEASIBLE`` less the cost of the
    first column it breaks: that is returned, with False. A column point is worth its
    price once the column is short of the stint's need: the penalty is what the card makes
    shorter.
    """
    t, f, e = cost
    if car[0] - t < 0:
        return INFEASIBLE - t, False
    if car[1] - f < 0:
        return INFEASIBLE - f, False
    if car[2] - e < 0:
        return INFEASIBLE - e, False
    # Spelled out per column; ``x if x > 0.0 else 0.0`` is max(0.0, x), summed in the
    # order of the columns.
    penalty = 0.0
    left = spare[0]
    after = t - left
    penalty += ((after if after > 0.0 else 0.0) - (-left if -left > 0.0 else 0.0)) * price[0]
    left = spare[1]
    after = f - left
    penalty += ((after if after > 0.0 else 0.0) - (-left if -left > 0.0 else 0.0)) * price[1]
    left = spare[2]
    after = e - left
    penalty += ((after if after > 0.0 else 0.0) - (-left if -left > 0.0 else 0.0)) * price[2]
    return penalty, True


def win_chance(card: int, odds: Sequence[tuple[int, float]]) -> float:
    """Return the chance that ``card`` beats the opponent's, summed in the order of ``odds``."""
    win: float = 0
    for c, p in odds:
        if c < card:
            win += p
    return win


def card_value(
    card: int,
    cost: tuple[int, int, int],
    car: Car,
    spare: tuple[float, float, float],
    price: tuple[float, float, float],
    odds: Sequence[tuple[int, float]],
) -> float:
    """Return 2 x the chance of winning with ``card`` minus what its ``cost`` is worth.

    A card that would put the car below zero is worth ``INFEASIBLE`` less that cost (of
    the first column it breaks); see ``cost_penalty``.
    """
    penalty, payable = cost_penalty(cost, car, spare, price)
    if not payable:
        return penalty
    return 2.0 * win_chance(card, odds) - penalty


def opponent_odds(
    speeds: tuple[int, ...],
    seen: Collection[int],
    known: tuple[int, ...],
    size: int,
) -> list[tuple[int, float]]:
    """Return the opponent's possible cards with their chance of being played.

    ``seen`` are the cards this driver can place (its own, the discards, those it put
    under the pit deck, and zeros for what it cannot see), ``known`` those it knows the
    opponent holds, ``size`` how many cards the opponent chooses from.
    """
    unknown = [c for c in speeds if c not in seen and c not in known]
    if size < 1:
        size = 1
    chance = 1.0 / size
    odds = [(c, chance) for c in known]
    rest = size - len(known)
    if unknown and rest > 0:
        share = rest / size / len(unknown)
        for c in unknown:
            odds.append((c, share))
    return odds


def _card(action: Race | PitStop | ReturnCard | Discard) -> int:
    return action.card


class Famous500Heuristic(Bot):
    """Designs for the track, races hard while its columns can pay, pits to repair."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Choose a legal action for the Famous 500 situation in ``observation``."""
        assert isinstance(observation, Famous500Observation)
        return self.choice(observation, legal)

    def choice(self, obs: Famous500Observation, legal: Sequence[Action]) -> Action:
        """Return the action the heuristic plays in ``obs``: it draws nothing."""
        phase = obs.phase
        if phase == "choose":
            return self.section_choice(obs, legal)
        if phase == "pit_repair":
            return self._repair(obs, legal)
        if phase in ("pit_return", "discard"):
            return self.let_go_choice(obs, legal)
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

    # Sections ----------------------------------------------------------------------------
    def card_odds(self, obs: Famous500Observation) -> list[tuple[int, float]]:
        """Return the opponent's possible cards with their chance of being played."""
        # The cards this driver can place. Speeds are positive, so the zeros of an unknown
        # pit deck card or of no card laid place nothing.
        seen = {*obs.hand, obs.laid, *obs.pit_deck_known}
        for _seat, card in obs.discards:
            seen.add(card)
        size = obs.hand_sizes[1 - obs.seat] + (1 if obs.opponent_laid else 0)
        return opponent_odds(obs.setup.speeds, seen, obs.opponent_known, size)

    def section_choice(
        self,
        obs: Famous500Observation,
        legal: Sequence[Action],
        values: Sequence[float] | None = None,
    ) -> Action:
        """Pit when short; else race the card worth most after its cost (``race_values``).

        ``values`` are the race cards' ``race_values`` (in ``legal``'s order), when the
        caller has them already; else they are worked out here, only if needed.
        """
        races: list[Race] = []
        pits: list[PitStop] = []
        for action in legal:
            if isinstance(action, Race):
                races.append(action)
            elif isinstance(action, PitStop):
                pits.append(action)
        car = obs.cars[obs.seat]
        assert car is not None
        if pits and should_pit(obs.setup, obs.lap, obs.section, car):
            return min(pits, key=_card)
        if values is None:
            values = self.race_values(obs, races)
        # The best value, the slower card on a tie (a (value, -card) key, compared in line).
        best, best_value, best_card = races[0], -math.inf, 0
        for race, value in zip(races, values, strict=True):
            card = race.card
            if value > best_value or (value == best_value and -card > -best_card):
                best, best_value, best_card = race, value, card
        if pits and best_value <= INFEASIBLE:
            return min(pits, key=_card)
        return best

    def race_values(
        self,
        obs: Famous500Observation,
        races: Sequence[Race],
        odds: Sequence[tuple[int, float]] | None = None,
    ) -> list[float]:
        """Return what racing each card is worth: 2 x its chance of winning, less its cost.

        The cost is priced at the column prices (``cost_penalty``); a card the car cannot
        pay is worth ``INFEASIBLE`` less the cost that breaks it. ``odds`` are
        ``card_odds(obs)``, when the caller has them already.
        """
        setup, lap, section = obs.setup, obs.lap, obs.section
        car = obs.cars[obs.seat]
        assert car is not None
        spare, price = prices(setup, lap, section, car)
        if odds is None:
            odds = self.card_odds(obs)
        kind = setup.kinds[section]
        costs = setup.costs
        index = setup.speeds.index
        values = []
        for race in races:
            card = race.card
            penalty, payable = cost_penalty(costs[index(card)][kind], car, spare, price)
            if payable:
                win: float = 0
                for c, p in odds:  # win_chance, in line: this runs for every card
                    if c < card:
                        win += p
                values.append(2.0 * win - penalty)
            else:
                values.append(penalty)
        return values

    # Pit stops and between laps -----------------------------------------------------------
    def _repair(self, obs: Famous500Observation, legal: Sequence[Action]) -> Action:
        """Repair the column most in need, one Speed point at a time, then leave."""
        car = obs.cars[obs.seat]
        assert car is not None
        plan = repair_plan(obs.setup, obs.lap, obs.section, car)
        # The first column of the most need (what max over the columns gives).
        column = 0
        if plan[1] > plan[column]:
            column = 1
        if plan[2] > plan[column]:
            column = 2
        if plan[column] > 0.34:
            repair = _REPAIRS[column]
            if repair in legal:
                return repair
        for action in legal:
            if isinstance(action, LeavePit):
                return action
        return legal[0]

    def let_go_choice(
        self,
        obs: Famous500Observation,
        legal: Sequence[Action],
        worths: Sequence[float] | None = None,
    ) -> Action:
        """Return (to the pit deck) or discard the card worth least to keep.

        ``worths`` are the cards' ``keep_worths`` (in ``legal``'s order), when the caller
        has them already.
        """
        choices = [a for a in legal if isinstance(a, (ReturnCard, Discard))]
        if obs.cars[obs.seat] is None or not choices:  # nothing to let go raises, as min did
            return min(choices, key=_card)
        if worths is None:
            worths = self.keep_worths(obs, choices)
        # min over (value to keep, card), in line: the first of the least, as min gives.
        least, least_value, least_card = choices[0], math.inf, 0
        for action, value in zip(choices, worths, strict=True):
            card = action.card
            if value < least_value or (value == least_value and card < least_card):
                least, least_value, least_card = action, value, card
        return least

    def keep_worths(
        self, obs: Famous500Observation, choices: Sequence[ReturnCard | Discard]
    ) -> list[float]:
        """Return what keeping each card let go of in ``choices`` is worth.

        2 x its chance to beat a typical card, less its average cost on the sections still
        to race in the columns short of it, at the column prices.
        """
        setup = obs.setup
        car = obs.cars[obs.seat]
        assert car is not None
        spare, price = prices(setup, obs.lap, obs.section, car)
        table = keep_values(setup, obs.lap, obs.section)
        index = setup.speeds.index
        values = []
        for action in choices:
            beats, avg = table[index(action.card)]
            short = sum(avg[c] * price[c] for c in range(3) if spare[c] < avg[c])
            values.append(2.0 * beats - short)
        return values
