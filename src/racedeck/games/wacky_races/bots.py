"""Wacky Races' heuristic bot.

It plans the rest of its turn from its hand and the tiles ahead: every sequence of card
steps it could still play (first step any card, then the terrain of the tile it stands
on), landing past full positions, stopping at face-down traps, and scores each plan by
the distance it gains. It plays the first step of the best plan, so it re-plans after
every card. Advantages are spent where they pay: a trap just ahead is removed, a wild
card or Sawtooth is used when no card matches the tile, cards are drawn or stolen when
the hand runs low, and the free moves, swaps and pushes come last, once the cards are
spent.
"""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import ChooseRacer, EndTurn, PlayStep, UseAdvantage
from racedeck.games.wacky_races.data import ADVANTAGE_EFFECTS, CROSSROADS, FINISH, SLOTS, SWAMP
from racedeck.games.wacky_races.state import WackyObservation

TRAP_COST = 0.8
"""What stepping onto a face-down trap is worth less than the position it gains."""
FINISH_VALUE = 100.0
RACER_PREFERENCE = (
    "pat_pending",
    "peter_perfect",
    "penelope_pitstop",
    "ant_hill_mob",
    "red_max",
    "lazy_luke",
    "gruesome_twosome",
    "rufus_ruffcut",
    "slag_brothers",
    "army_surplus",
)
"""Racers with more ways to move come first."""


def _target(counts: dict[int, int], p: int) -> int:
    """Where a step from ``p`` lands, given the other racers' occupancy."""
    t = p + 1
    while t < FINISH and counts.get(t, 0) >= SLOTS:
        t += 1
    return t


class _Planner:
    """Scores the card steps a racer can still take this turn."""

    def __init__(self, obs: WackyObservation) -> None:
        self.obs = obs
        me = obs.seat
        self.start = obs.pos[me]
        counts: dict[int, int] = {}
        for car, q in enumerate(obs.pos):
            if car != me:
                counts[q] = counts.get(q, 0) + 1
        self.counts = counts
        self.behind = [q for car, q in enumerate(obs.pos) if car != me]

    def best(self, p: int, steps: int, hand: tuple[int, ...], wild: bool) -> float:
        """Return the best value reachable from here, ending the turn when it is best."""
        value = self.rest_value(p, hand)
        if steps >= data.MAX_STEPS:
            return value
        for cards in self.options(p, steps, hand, wild):
            value = max(value, self.step_value(p, steps, hand, wild, cards))
        return value

    def options(
        self, p: int, steps: int, hand: tuple[int, ...], wild: bool
    ) -> list[tuple[int, ...]]:
        tile = self.obs.tiles[p]
        kinds = sorted(set(hand))
        if tile == SWAMP:
            pairs: list[tuple[int, ...]] = [(c, c) for c in kinds if hand.count(c) >= 2]
            return pairs or ([tuple(sorted(hand)[:3])] if len(hand) >= 3 else [])
        terrain = data.terrain_of(tile)
        if steps == 0 or wild or terrain < 0:
            return [(c,) for c in kinds]
        return [(terrain,)] if terrain in hand else []

    def step_value(
        self, p: int, steps: int, hand: tuple[int, ...], wild: bool, cards: tuple[int, ...]
    ) -> float:
        t = _target(self.counts, p)
        if t >= FINISH:
            return FINISH_VALUE
        if self.obs.traps[t]:
            return t - self.start - TRAP_COST
        if self.obs.tiles[t] == CROSSROADS:
            back = [q for q in self.behind if q < t]
            if back:
                return min(back) - self.start
        rest = list(hand)
        for c in cards:
            rest.remove(c)
        return self.best(t, steps + 1, tuple(rest), False)

    def rest_value(self, p: int, hand: tuple[int, ...]) -> float:
        """Value of ending the turn on ``p``: distance gained, a little less on the Swamp."""
        value = float(p - self.start)
        if self.obs.tiles[p] == SWAMP and len(set(hand)) == len(hand) and len(hand) < 3:
            value -= 0.5
        return value


class WackyHeuristic(Bot):
    """Plans its steps from hand and terrain ahead; spends advantages where they pay."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Choose a legal action for the Wacky Races situation in ``observation``."""
        assert isinstance(observation, WackyObservation)
        obs = observation
        if obs.phase == "choose":
            return self._choose(legal)
        steps = [a for a in legal if isinstance(a, PlayStep)]
        advantages = [a for a in legal if isinstance(a, UseAdvantage)]
        racer = obs.racer_of_seat[obs.seat]
        effects = ADVANTAGE_EFFECTS[racer]
        me = obs.seat
        p = obs.pos[me]
        planner = _Planner(obs)
        hand = obs.hand

        def use(effect: str) -> list[UseAdvantage]:
            return [a for a in advantages if effects[a.advantage] == effect]

        ahead = _target(planner.counts, p)
        # Clear a trap right in front before stepping into it.
        for a in use("remove_trap"):
            if a.target == ahead and (steps or use("move")):
                return a
        # Low on cards: draw or steal first, the new cards may open longer plans.
        if len(hand) <= 1 or (obs.steps == 0 and len(hand) <= 2):
            if use("draw"):
                return use("draw")[0]
            steals = use("steal")
            if steals:
                return max(steals, key=lambda a: obs.hand_sizes[a.target])
        # Plan the card steps.
        best_step: PlayStep | None = None
        best_value = planner.rest_value(p, hand)
        for step in steps:
            value = planner.step_value(p, obs.steps, hand, obs.wild, step.cards)
            if value > best_value + 1e-9:
                best_step, best_value = step, value
        if best_step is not None:
            return best_step
        # No card step pays: make one possible, or take the free moves.
        if obs.steps < data.MAX_STEPS and hand and not obs.traps[ahead]:
            if use("wild"):
                return use("wild")[0]
            saw = use("sawtooth")
            if saw and obs.steps > 0 and p + 1 < len(obs.tiles):
                nxt = data.terrain_of(obs.tiles[p + 1])
                if nxt >= 0 and nxt in hand and not obs.traps[p + 1]:
                    return saw[0]
        for a in use("move"):
            if not obs.traps[ahead] or ahead >= FINISH:
                return a
        for a in use("swap_ahead"):
            if obs.pos[a.target] - p >= 2 and a.target < obs.players:
                return a
        for a in use("swap_ahead"):
            if obs.pos[a.target] - p >= 3:
                return a
        pushes = [a for a in use("push_back") if a.target < obs.players]
        if pushes:
            return pushes[0]
        lead = max(obs.pos)
        for a in use("dastardly_back"):
            if obs.dastardly > p and lead - p <= 1:
                return a
        if len(hand) <= 2:
            if use("draw"):
                return use("draw")[0]
            if use("steal"):
                return max(use("steal"), key=lambda a: obs.hand_sizes[a.target])
        for action in legal:
            if isinstance(action, EndTurn):
                return action
        return legal[0]

    def _choose(self, legal: Sequence[Action]) -> Action:
        choices = {a.racer: a for a in legal if isinstance(a, ChooseRacer)}
        for key in RACER_PREFERENCE:
            racer = data.RACER_KEYS.index(key)
            if racer in choices:
                return choices[racer]
        return legal[0]
