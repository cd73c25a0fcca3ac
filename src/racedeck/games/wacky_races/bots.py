"""Wacky Races' heuristic bot.

It plans the rest of its turn from its hand and the tiles ahead: every sequence of card
steps it could still play (first step any card, then the terrain of the tile it stands
on), landing past full positions, stopping at face-down traps, and scores each plan by
the distance it gains. It plays the first step of the best plan, so it re-plans after
every card. Advantages are spent where they pay: a trap just ahead is removed, a wild
card or Sawtooth is used when no card matches the tile, cards are drawn or stolen when
the hand runs low, and the free moves, swaps and pushes come last, once the cards are
spent.

Search bots ask it for a move at every step of every playout, so it reads the
observation once and sorts the legal actions in one pass.
"""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import ChooseRacer, EndTurn, PlayStep, UseAdvantage
from racedeck.games.wacky_races.data import (
    ADVANTAGE_EFFECTS,
    CROSSROADS,
    FINISH,
    GRID,
    MAX_STEPS,
    SLOTS,
    SWAMP,
)
from racedeck.games.wacky_races.state import WackyObservation

TRAP_COST = 0.8
"""What stepping onto a face-down trap is worth less than the position it gains."""
FINISH_VALUE = 100.0
"""What a plan that reaches the finish is worth: more than any distance."""
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

_NO_USES: tuple[UseAdvantage, ...] = ()


class Planner:
    """Scores the card steps a racer can still take this turn.

    Search bots ask for a move at every step of every playout, so the plan is a small
    depth-first search over plain tuples: where a step from each position lands is worked
    out once a plan (every branch steps the same way, the other racers stay put), and the
    ways to pay for a step are read straight off the sorted hand.
    """

    __slots__ = ("landings", "me", "pos", "start", "tiles", "traps")

    def __init__(self, obs: WackyObservation) -> None:
        self.tiles = obs.tiles
        self.traps = obs.traps
        self.pos = obs.pos
        """The racers' positions: the others stay put while the racer plans."""
        self.me = obs.seat
        self.start = obs.pos[obs.seat]
        self.landings: dict[int, tuple[int, float | None]] = {}
        """Per position stepped from: where the step lands, and what the plan is worth if
        it must end there (None: it goes on)."""

    def best(self, p: int, steps: int, hand: tuple[int, ...], wild: bool) -> float:
        """Return the best value reachable from here, ending the turn when it is best."""
        tile = self.tiles[p]
        value = float(p - self.start)
        if tile == SWAMP:
            if len(set(hand)) == len(hand) and len(hand) < 3:
                value -= 0.5  # (``rest_value``)
            if steps >= MAX_STEPS:
                return value
            # Two identical cards, or else any three: the hand less them is what is left.
            rests = [less(hand, (c, c)) for c in sorted(set(hand)) if hand.count(c) >= 2]
            if not rests:
                if len(hand) < 3:
                    return value
                rests = [tuple(sorted(hand)[3:])]
        elif steps >= MAX_STEPS or not hand:
            return value
        elif steps == 0 or wild or tile >= GRID:  # any card: one way per terrain held
            rests = None  # (made below, once the landing is known to go on)
        elif tile in hand:
            i = hand.index(tile)
            rests = [hand[:i] + hand[i + 1 :]]
        else:
            return value
        t, ends = self.landing(p)
        if ends is not None:  # every way of paying lands on the same ending
            return ends if ends > value else value
        if rests is None:
            rests = []
            last = -1
            for i, c in enumerate(hand):  # one way per terrain held (a sorted hand: each once)
                if c != last:
                    rests.append(hand[:i] + hand[i + 1 :])
                    last = c
        steps += 1
        for rest in rests:
            step = self.best(t, steps, rest, False)
            if step > value:
                value = step
        return value

    def landing(self, p: int) -> tuple[int, float | None]:
        """Return where a step from ``p`` lands, and the plan's value if it ends there."""
        known = self.landings.get(p)
        if known is None:
            # The racer itself stands on ``start``, behind every landing: only the others
            # fill the positions it counts.
            pos = self.pos
            t = p + 1
            while t < FINISH and pos.count(t) >= SLOTS:
                t += 1
            ends: float | None = None
            if t >= FINISH:
                ends = FINISH_VALUE
            elif self.traps[t]:
                ends = t - self.start - TRAP_COST
            elif self.tiles[t] == CROSSROADS:
                me = self.me
                back = [q for c, q in enumerate(pos) if c != me and q < t]
                if back:
                    ends = min(back) - self.start  # the last racer would swap it back
            known = self.landings[p] = (t, ends)
        return known

    def rest_value(self, p: int, hand: tuple[int, ...]) -> float:
        """Value of ending the turn on ``p``: distance gained, a little less on the Swamp."""
        value = float(p - self.start)
        if self.tiles[p] == SWAMP and len(set(hand)) == len(hand) and len(hand) < 3:
            value -= 0.5
        return value


def less(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    """Return ``hand`` with one copy of each of ``cards`` taken out.

    A plan's values depend only on which cards are left, not on their order.
    """
    if len(cards) == 1:
        i = hand.index(cards[0])
        return hand[:i] + hand[i + 1 :]
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


Uses = dict[str, list[UseAdvantage]]
"""The legal uses of the seat's advantages, by effect, in the order offered."""


def _sort_legal(
    obs: WackyObservation, legal: Sequence[Action]
) -> tuple[list[PlayStep], Uses, Action | None]:
    """Return the legal steps, the legal advantage uses by effect, and ending the turn.

    One pass over the legal actions: most decisions offer a step or two and an advantage
    or none.
    """
    steps: list[PlayStep] = []
    uses: Uses = {}
    end_turn: Action | None = None
    effects: tuple[str, ...] | None = None
    for action in legal:
        if type(action) is PlayStep:
            steps.append(action)
        elif type(action) is UseAdvantage:
            if effects is None:
                effects = ADVANTAGE_EFFECTS[obs.racer_of_seat[obs.seat]]
            effect = effects[action.advantage]
            if effect in uses:
                uses[effect].append(action)
            else:
                uses[effect] = [action]
        elif end_turn is None and type(action) is EndTurn:
            end_turn = action
    return steps, uses, end_turn


def _more_cards(obs: WackyObservation, uses: Uses) -> UseAdvantage | None:
    """Return drawing cards, else stealing from the fullest hand in reach, if the seat can."""
    if "draw" in uses:
        return uses["draw"][0]
    if "steal" in uses:
        hand_sizes = obs.hand_sizes
        return max(uses["steal"], key=lambda a: hand_sizes[a.target])
    return None


def _before_stepping(
    obs: WackyObservation, uses: Uses, can_step: bool, ahead: int
) -> UseAdvantage | None:
    """Return the advantage to use before any card step, if one pays first.

    A trap right in front is cleared before stepping into it; low on cards, drawing or
    stealing comes first, as the new cards may open longer plans.
    """
    for a in uses.get("remove_trap", _NO_USES):
        if a.target == ahead and (can_step or "move" in uses):
            return a
    hand = obs.hand
    if len(hand) <= 1 or (obs.steps == 0 and len(hand) <= 2):
        return _more_cards(obs, uses)
    return None


def _best_step(
    obs: WackyObservation, planner: Planner, steps: list[PlayStep], ahead: int, ends: float | None
) -> PlayStep | None:
    """Return the first step of the best plan of card steps, or None when stopping pays more."""
    hand = obs.hand
    rest = planner.rest_value(planner.start, hand)
    if ends is not None:  # every step lands where the plan ends: the first pays or none
        return steps[0] if ends > rest + 1e-9 else None
    best_step: PlayStep | None = None
    best_value = rest
    played = obs.steps + 1
    for step in steps:
        value = planner.best(ahead, played, less(hand, step.cards), False)
        if value > best_value + 1e-9:
            best_step, best_value = step, value
    return best_step


def _make_a_step(obs: WackyObservation, uses: Uses, ahead: int) -> UseAdvantage | None:
    """Return a wild card, or a Sawtooth that brings a tile the hand matches, if one helps."""
    hand, traps = obs.hand, obs.traps
    if obs.steps < data.MAX_STEPS and hand and not traps[ahead]:
        if "wild" in uses:
            return uses["wild"][0]
        p = obs.pos[obs.seat]
        if "sawtooth" in uses and obs.steps > 0 and p + 1 < len(obs.tiles):
            nxt = data.terrain_of(obs.tiles[p + 1])
            if nxt >= 0 and nxt in hand and not traps[p + 1]:
                return uses["sawtooth"][0]
    return None


def _free_move(obs: WackyObservation, uses: Uses, ahead: int) -> UseAdvantage | None:
    """Return a free move, a swap, a push or Dastardly sent back, where one gains ground."""
    pos = obs.pos
    p = pos[obs.seat]
    for a in uses.get("move", _NO_USES):
        if not obs.traps[ahead] or ahead >= FINISH:
            return a
    swaps = uses.get("swap_ahead", _NO_USES)
    for a in swaps:
        if pos[a.target] - p >= 2 and a.target < obs.players:
            return a
    for a in swaps:
        if pos[a.target] - p >= 3:
            return a
    for a in uses.get("push_back", _NO_USES):
        if a.target < obs.players:
            return a
    if "dastardly_back" in uses and obs.dastardly > p and max(pos) - p <= 1:
        return uses["dastardly_back"][0]
    return None


def choose(obs: WackyObservation, legal: Sequence[Action], planner: Planner) -> Action:
    """Return the heuristic's choice among ``legal`` in a turn, planned with ``planner``.

    ``planner`` is the observation's own (``Planner(obs)``): the learned policy plans with
    the same one, to weigh each step by the plan it starts.
    """
    steps, uses, end_turn = _sort_legal(obs, legal)
    ahead, ends = planner.landing(planner.start)
    chosen: Action | None = None
    if uses:
        chosen = _before_stepping(obs, uses, bool(steps), ahead)
    if chosen is None and steps:
        chosen = _best_step(obs, planner, steps, ahead, ends)
    if chosen is None and uses:
        # No card step pays: make one possible, or take the free moves.
        chosen = _make_a_step(obs, uses, ahead) or _free_move(obs, uses, ahead)
        if chosen is None and len(obs.hand) <= 2:
            chosen = _more_cards(obs, uses)
    if chosen is not None:
        return chosen
    return end_turn if end_turn is not None else legal[0]


class WackyHeuristic(Bot):
    """Plans its steps from hand and terrain ahead; spends advantages where they pay."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Choose a legal action for the Wacky Races situation in ``observation``."""
        assert isinstance(observation, WackyObservation)
        if observation.phase == "choose":
            return self.choose_racer(legal)
        return choose(observation, legal, Planner(observation))

    @staticmethod
    def choose_racer(legal: Sequence[Action]) -> Action:
        """Return the first racer on offer in ``RACER_PREFERENCE``'s order."""
        choices = {a.racer: a for a in legal if isinstance(a, ChooseRacer)}
        for key in RACER_PREFERENCE:
            racer = data.RACER_KEYS.index(key)
            if racer in choices:
                return choices[racer]
        return legal[0]
