"""Wacky Races' learned policy: what each legal action shows, and the bot that weighs it.

Every action is described from the deciding racer's side by its *role* (a card step, an
advantage by its effect, ending the turn, choosing a racer) and what the heuristic's own
plan says of it (``bots``): what the best plan of card steps after a step gains over
stopping now, in positions; what ending the turn gives up; whether the heuristic would
play it. Each is paired with where the racer stands: cards in hand, steps taken this turn,
place, how far into the circuit, the gap to the leader, a face-down trap just ahead. A
feature is named ``role what value...`` and weighs what the trained file
(``data/policy.json``, made by ``python -m tools.distill wacky-races``) says.

The features are written once, as keys (``_Decision``); the names the trainer fits and the
bot's scores are both the keys' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from racedeck.bots.linear import Described, Key, KeyedPolicy, load_weights, names
from racedeck.core.model import Action, Observation
from racedeck.games.wacky_races.actions import ChooseRacer, EndTurn, PlayStep, UseAdvantage
from racedeck.games.wacky_races.bots import Planner, choose, less
from racedeck.games.wacky_races.dastardly import lays_a_trap, next_stop
from racedeck.games.wacky_races.data import ADVANTAGE_EFFECTS, FINISH
from racedeck.games.wacky_races.state import WackyObservation

WEIGHTS = load_weights(__package__ or "racedeck.games.wacky_races", "policy.json")
"""The trained weights of Wacky Races' policy."""

AHEAD = 6
"""How many tiles ahead a card's terrain is counted on (about two turns' steps)."""


def _band(gain: float) -> int:
    """Return a plan's gain in whole positions, -3 to 8 (reaching the finish counts 8)."""
    return max(-3, min(8, round(gain)))


class _Decision:
    """What every action of one decision shares: the plan, the heuristic's choice, the racer.

    ``context`` holds the keys of where the racer stands, named in every action's role.
    """

    __slots__ = ("ahead", "chosen", "context", "effects", "obs", "planner", "rest", "size")

    def __init__(self, obs: WackyObservation, legal: Sequence[Action]) -> None:
        self.obs = obs
        planner = self.planner = Planner(obs)
        self.chosen = choose(obs, legal, planner)
        self.effects = ADVANTAGE_EFFECTS[obs.racer_of_seat[obs.seat]]
        ahead, _ = planner.landing(planner.start)
        self.ahead = ahead
        self.rest = planner.rest_value(planner.start, obs.hand)
        self.size = min(len(obs.hand), 6)
        me = obs.pos[obs.seat]
        others = [p for car, p in enumerate(obs.pos) if car != obs.seat]
        lead = me - max(others) if others else 0
        self.context: tuple[Key, ...] = (
            ("hand", self.size),
            ("steps", obs.steps),
            ("place", min(sum(1 for p in others if p > me), 3)),
            ("progress", min(4, me * 5 // FINISH)),
            ("lead", max(-4, min(4, lead))),
            ("trap ahead", ahead < len(obs.traps) and obs.traps[ahead]),
        )

    def gain(self, step: PlayStep) -> float:
        """Return what the best plan that starts with ``step`` gains over stopping now."""
        planner, obs = self.planner, self.obs
        _, ends = planner.landing(planner.start)
        if ends is not None:
            return ends - self.rest
        plan = planner.best(self.ahead, obs.steps + 1, less(obs.hand, step.cards), False)
        return plan - self.rest

    def dastardly(self, terrain: int, me: int) -> Key:
        """Return where Dastardly goes if the turn ends on ``terrain``, the racer at ``me``.

        He follows the last card played (``dastardly``): past every racer he lays a trap,
        which the leader meets first.
        """
        obs = self.obs
        traps = obs.traps
        q = next_stop(obs.tiles, lambda t: not traps[t], obs.dastardly, terrain)
        if q < 0:
            return ("dastardly", "stays")
        pos = list(obs.pos)
        pos[obs.seat] = me
        if not lays_a_trap(pos, q):
            return ("dastardly", "follows")
        leading = me == max(pos)
        return ("dastardly", "trap", min(q - me, 4), "leading" if leading else "behind")

    def card(self, card: int, landing: int) -> tuple[Key, ...]:
        """Return the keys of spending ``card`` on a step that lands on ``landing``."""
        obs = self.obs
        tiles = obs.tiles
        start = obs.pos[obs.seat] + 1
        needed = sum(1 for t in tiles[start : start + AHEAD] if t == card)
        return (
            ("copies", min(obs.hand.count(card), 3)),
            ("needed ahead", min(needed, 3)),
            ("copies", min(obs.hand.count(card), 3), "needed ahead", min(needed, 3)),
            self.dastardly(card, landing),
        )

    def keys(self, action: Action, forgone: float, gain: float | None) -> tuple[str, list[Key]]:
        """Return ``action``'s role and keys.

        ``forgone``: the best step's gain (what ending the turn gives up); ``gain``: a
        step's own (``gain``).
        """
        obs = self.obs
        if isinstance(action, PlayStep):
            band = _band(gain or 0.0)
            role = "step"
            keys: list[Key] = [
                ("plan", band),
                ("plan", band, "hand", self.size),
                ("plan", band, "steps", obs.steps),
                ("cards", len(action.cards)),
                ("hand after", min(len(obs.hand) - len(action.cards), 5)),
            ]
            if len(action.cards) == 1:
                keys += self.card(action.cards[0], self.ahead)
        elif isinstance(action, UseAdvantage):
            role = f"advantage {self.effects[action.advantage]}"
            keys = [("forgone", _band(forgone))]
            target = action.target
            if 0 <= target < len(obs.pos):
                gap = obs.pos[target] - obs.pos[obs.seat]
                keys.append(("target ahead", max(-3, min(4, gap))))
                keys.append(("target a player", target < obs.players))
                if target < obs.players:
                    keys.append(("target cards", min(obs.hand_sizes[target], 6)))
        elif isinstance(action, EndTurn):
            role = "end"
            keys = [("forgone", _band(forgone))]
            if obs.top >= 0:
                keys.append(self.dastardly(obs.top, obs.pos[obs.seat]))
        else:
            role = "other"
            keys = []
        keys.append(("heuristic", action == self.chosen))
        return role, keys


def _described(observation: WackyObservation, legal: Sequence[Action]) -> Described:
    """Return, for each legal action, its role and own keys; and the keys of the context.

    Every action's features are its own keys and the context's, named in its role.
    """
    if observation.phase == "choose":
        return [("choose", [("racer", _racer(action))]) for action in legal], ()
    decision = _Decision(observation, legal)
    gains = [decision.gain(a) if isinstance(a, PlayStep) else None for a in legal]
    forgone = max((g for g in gains if g is not None), default=0.0)
    own = [decision.keys(a, forgone, gain) for a, gain in zip(legal, gains, strict=True)]
    return own, decision.context


def features(observation: Observation, legal: Sequence[Action]) -> list[list[str]]:
    """Return, for each legal action of the deciding racer, the names of its features."""
    assert isinstance(observation, WackyObservation)
    return names(_described(observation, legal))


def _racer(action: Action) -> int:
    return action.racer if isinstance(action, ChooseRacer) else -1


class WackyPolicy(KeyedPolicy):
    """Plays the legal action the trained weights score highest (no search, no draws).

    Its scores are the sums of the weights of ``features``' names (a test checks they
    agree), each weight looked up by its role and key once and kept (``KeyedPolicy``).
    """

    features = staticmethod(features)
    weights = MappingProxyType(WEIGHTS.weights)

    def describe(self, observation: Observation, legal: Sequence[Action]) -> Described:
        """Return each action's role and keys, and the racer's context (``_described``)."""
        assert isinstance(observation, WackyObservation)
        return _described(observation, legal)
