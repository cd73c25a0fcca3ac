"""Famous 500's learned policy: what each legal action shows, and the bot that weighs it.

Every action is described from the deciding driver's side by its *role* (racing a card,
declaring a pit stop, repairing a column, leaving the pit, letting a card go, the deal,
the design) and what the heuristic's own judgement says of it (``bots``): what racing a
card is worth (its chance of winning less its cost at the column prices) and how far
below the best card that is, the card's speed among the hand's, what the pit stop would
repair, whether the heuristic would choose it. Each is paired with where the driver
stands: the sections left, its lead in Speed points, the cards in hand, what the rest of
the race still needs repaired. A feature is named ``role what value...`` and weighs what
the trained file (``data/policy.json``, made by ``python -m tools.distill famous-500``)
says.

The features are written once, as keys (``_described``); the names the trainer fits and
the bot's scores are both the keys' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from racedeck.bots.linear import Described, Key, KeyedPolicy, load_weights
from racedeck.core.model import Action, Observation
from racedeck.games.famous500.actions import (
    Discard,
    FalseStart,
    LeavePit,
    PitStop,
    Race,
    Repair,
    ReturnCard,
)
from racedeck.games.famous500.between_laps import MAX_LAPS
from racedeck.games.famous500.bots import (
    INFEASIBLE,
    Famous500Heuristic,
    car_design,
    remaining_sections,
    repair_plan,
    should_pit,
    win_chance,
)
from racedeck.games.famous500.state import Famous500Observation

WEIGHTS = load_weights(__package__ or "racedeck.games.famous500", "policy.json")
"""The trained weights of Famous 500's policy."""


def _below(gap: float) -> int:
    """Return how far a value falls below the best, in bands: 0 (the best) to 5."""
    if gap <= 0.0:
        return 0
    for band, edge in enumerate((0.15, 0.35, 0.7, 1.5), start=1):
        if gap < edge:
            return band
    return 5


Roles = list[tuple[str, list[Key]]]
"""Per legal action, its role and own keys."""


def _value(value: float) -> int:
    """Return a card's value in half points, -4 to 4 (-5: the car cannot pay its cost)."""
    if value <= INFEASIBLE:
        return -5
    return max(-4, min(4, round(value * 2)))


def _rank(values: Sequence[float], value: float) -> int:
    """Return how many of ``values`` are above ``value``, at most 3."""
    return min(3, sum(1 for v in values if v > value))


class _Driver:
    """What every action of one decision shares: the driver's car, needs and context."""

    __slots__ = ("context", "heuristic", "left", "obs", "plan")

    def __init__(self, obs: Famous500Observation, heuristic: Famous500Heuristic) -> None:
        self.obs = obs
        self.heuristic = heuristic
        sections = len(remaining_sections(obs))
        self.left = min(6, (sections + 2) // 3)
        car = obs.cars[obs.seat]
        other = obs.cars[1 - obs.seat]
        self.plan = 0.0
        context: list[Key] = [("left", self.left), ("hand", min(len(obs.hand), 9))]
        if car is not None:
            self.plan = sum(repair_plan(obs.setup, obs.lap, obs.section, car))
            context.append(("needs", min(4, round(self.plan))))
            context.append(("speed", min(6, car[3])))
            if other is not None:
                context.append(("lead", max(-4, min(4, car[3] - other[3]))))
        self.context: tuple[Key, ...] = tuple(context)

    def speed_rank(self, card: int) -> tuple[Key, ...]:
        """Return the keys of ``card``'s speed among the hand's, from both ends."""
        hand = self.obs.hand
        slower = sum(1 for c in hand if c < card)
        faster = sum(1 for c in hand if c > card)
        return (
            ("slower", min(slower, 4)),
            ("faster", min(faster, 4)),
            ("faster", min(faster, 4), "left", self.left),
        )


def _race(driver: _Driver, legal: Sequence[Action]) -> Roles:
    """Return the roles and keys of a section's choice: race a card or pit.

    The heuristic judges the cards once: its choice is made from the same values.
    """
    obs = driver.obs
    heuristic = driver.heuristic
    races = [a for a in legal if isinstance(a, Race)]
    odds = heuristic.card_odds(obs) if races else []
    values = heuristic.race_values(obs, races, odds) if races else []
    chosen = heuristic.section_choice(obs, legal, values)
    best = max(values, default=0.0)
    value_of = {race.card: value for race, value in zip(races, values, strict=True)}
    car = obs.cars[obs.seat]
    pit = car is not None and should_pit(obs.setup, obs.lap, obs.section, car)
    kind = obs.setup.kinds[obs.section]
    own: Roles = []
    for action in legal:
        if isinstance(action, Race):
            value = value_of[action.card]
            below = _below(best - value)
            win = round(4 * win_chance(action.card, odds))
            keys: list[Key] = [
                ("value", _value(value)),
                ("win", win),
                ("win", win, "left", driver.left),
                ("win", win, "below", below),
                ("below", below),
                ("below", below, "left", driver.left),
                ("rank", _rank(values, value)),
                ("kind", kind, "below", below),
                ("opponent laid", obs.opponent_laid, "below", below),
                *driver.speed_rank(action.card),
            ]
            role = "race"
        elif isinstance(action, PitStop):
            keys = [
                ("heuristic pits", pit),
                ("needs", min(4, round(driver.plan)), "left", driver.left),
                ("best", _value(best)),
                *driver.speed_rank(action.card),
            ]
            role = "pit"
        else:
            keys, role = [], "other"
        keys.append(("heuristic", action == chosen))
        own.append((role, keys))
    return own


def _repair(driver: _Driver, legal: Sequence[Action], chosen: Action) -> Roles:
    """Return the roles and keys of a pit stop's repairs and of leaving the pit."""
    obs = driver.obs
    car = obs.cars[obs.seat]
    assert car is not None
    plan = repair_plan(obs.setup, obs.lap, obs.section, car)
    most = max(plan)
    own: Roles = []
    for action in legal:
        if isinstance(action, Repair):
            role = f"repair {action.column}"
            need = plan[action.column]
            keys: list[Key] = [
                ("need", min(6, round(need * 3))),
                ("most", need == most),
                ("left", driver.left),
            ]
        elif isinstance(action, LeavePit):
            role = "leave"
            keys = [("most", min(6, round(most * 3)))]
        else:
            role, keys = "other", []
        keys.append(("heuristic", action == chosen))
        own.append((role, keys))
    return own


def _let_go(driver: _Driver, legal: Sequence[Action]) -> Roles:
    """Return the roles and keys of a card returned to the pit deck or discarded.

    The heuristic judges the cards once: its choice is made from the same worths.
    """
    obs = driver.obs
    choices = [a for a in legal if isinstance(a, (ReturnCard, Discard))]
    worths = driver.heuristic.keep_worths(obs, choices) if obs.cars[obs.seat] else []
    chosen = driver.heuristic.let_go_choice(obs, legal, worths or None)
    worth_of = {a.card: w for a, w in zip(choices, worths, strict=True)}
    own: Roles = []
    for action in legal:
        if isinstance(action, (ReturnCard, Discard)):
            role = "return" if isinstance(action, ReturnCard) else "discard"
            worth = worth_of.get(action.card, 0.0)
            below = sum(1 for w in worths if w < worth)
            keys: list[Key] = [("worth rank", min(below, 4)), *driver.speed_rank(action.card)]
        else:
            role, keys = "other", []
        keys.append(("heuristic", action == chosen))
        own.append((role, keys))
    return own


def _described(
    observation: Famous500Observation, legal: Sequence[Action], heuristic: Famous500Heuristic
) -> Described:
    """Return, for each legal action, its role and own keys; and the keys of the context.

    A lap, a race's laps or a section outside what the rules play is a ``ValueError``:
    the engine never hands one, but a kept decision (``tools.distill``) may come from
    anywhere, and the heuristic walks the sections still to race, lap by lap.
    """
    setup = observation.setup
    if not (
        1 <= setup.laps <= MAX_LAPS
        and 0 <= observation.lap <= setup.laps + 1
        and 0 <= observation.section < len(setup.kinds)
    ):
        raise ValueError(
            f"lap {observation.lap} of {setup.laps}, section {observation.section}: "
            "not a position of the race"
        )
    phase = observation.phase
    if phase == "design":
        # 1,330 designs: the policy learns how much to trust the heuristic's.
        design = car_design(observation.setup)
        return [("design", [("heuristic", a is design or a == design)]) for a in legal], ()
    if phase in ("start", "deal"):
        chosen = heuristic.choice(observation, legal)
        return [
            ("deal", [("false start", isinstance(a, FalseStart)), ("heuristic", a == chosen)])
            for a in legal
        ], ()
    driver = _Driver(observation, heuristic)
    if phase == "choose":
        return _race(driver, legal), driver.context
    if phase in ("pit_return", "discard"):
        return _let_go(driver, legal), driver.context
    chosen = heuristic.choice(observation, legal)
    if phase == "pit_repair":
        return _repair(driver, legal, chosen), driver.context
    return [("other", [("heuristic", a == chosen)]) for a in legal], driver.context


class Famous500Policy(KeyedPolicy):
    """Plays the legal action the trained weights score highest (no search, no draws).

    Its scores are the sums of the weights of ``features``' names, each weight looked up
    by its role and key once and kept (``KeyedPolicy``).
    """

    weights = MappingProxyType(WEIGHTS.weights)

    def __init__(self) -> None:
        super().__init__()
        self.heuristic = Famous500Heuristic()

    def describe(self, observation: Observation, legal: Sequence[Action]) -> Described:
        """Return each action's role and keys, and the driver's context (``_described``)."""
        assert isinstance(observation, Famous500Observation)
        return _described(observation, legal, self.heuristic)
