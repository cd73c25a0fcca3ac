"""How ISMCTS picks a seat's action at a node: UCB1, or at sealed nodes regret matching or Exp3.

At a node where one seat acts, it picks an untried action, else the best tried one by
UCB1 over availability (``select_ucb1``).

Where several seats choose at once and none sees the others' choices (Famous 500's
sections, car design and answer to the deal, LACORSA's challenge cards), each seat picks
from its own statistics (decoupled). UCB1 there is deterministic given the statistics, so
each seat's choice is a best response to the other's *current* empirical play, and the
pair can cycle or settle where one side is exploitable (Lanctot, Lisý and Winands, "Monte
Carlo Tree Search in Simultaneous Move Games with Applications to Goofspiel", 2013).
The rules here are no-regret learners whose average strategies approach an equilibrium
of the node's matrix game:

- ``regret``: regret matching with outcome sampling. Each action's cumulative regret is
  its importance-weighted reward (``reward / probability`` for the one played, 0 for the
  others) less the reward actually got; the strategy plays the actions with positive
  regret in proportion to it, mixed with ``mix`` of uniform play.
- ``exp3``: Exp3 (Auer et al.; Teytaud and Flory on simultaneous-move MCTS). Each
  action's estimated total reward grows by ``reward / probability`` when played; the
  strategy is ``(1 - mix)`` times the softmax of ``mix / K`` times the totals, plus
  ``mix / K`` each.

Both first try every legal action once (the heuristic's choice first, as UCB1 does), and
with more than ``WIDEN_ABOVE`` legal actions widen progressively in the same way, so a
car design of 1,330 choices is learnt over a few candidates, not spread thin.

A statistics row is ``[visits, reward sum, availability, learnt]``, where ``learnt`` is
the cumulative regret (``regret``) or the estimated total reward (``exp3``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Literal

from racedeck.core.model import Action
from racedeck.core.step import choose

SealedRule = Literal["regret", "exp3", "ucb1"]
"""How a seat picks at a sealed simultaneous node; ``ucb1`` is decoupled UCB1."""

SEALED_RULES: tuple[str, ...] = ("regret", "exp3", "ucb1")
"""Every sealed-node rule, the default first."""

WIDEN_ABOVE = 20
"""Nodes with more legal actions than this widen progressively."""

Row = list[float]
"""One action's statistics: visits, reward sum, availability, learnt value."""

Update = tuple[float, list[Row]] | None
"""What a backup needs of a sealed pick: its probability and the rows it chose among."""


def new_row() -> Row:
    """Return the statistics of an action tried for the first time."""
    return [0, 0.0, 1, 0.0]


def listed(table: dict[Action, Row], index: dict[Action, int]) -> list[tuple[int, Action, Row]]:
    """Return the tried actions that ``index`` lists, as ``(position, action, row)`` in order.

    ``index`` maps each legal action to its position in the legal list. A widened node has
    tried a few of its many legal actions (a car design, a handful of 1,330), so going
    through what was tried costs far less than going through what is legal, and gives the
    same actions in the same order.
    """
    tried = [(index[action], action, row) for action, row in table.items() if action in index]
    tried.sort(key=_position)
    return tried


def _position(entry: tuple[int, Action, Row]) -> int:
    return entry[0]


def expand(
    table: dict[Action, Row],
    legal: Sequence[Action],
    rng: random.Random,
    prior: Callable[[], Action | None] | None,
    tried: list[tuple[int, Action, Row]] | None = None,
) -> tuple[Action, Row] | None:
    """Return a new action to try and its row, or None while no new one may be tried.

    Counts each tried legal action as available once more. The new action is the
    ``prior``'s when untried, else one at random; with more than ``WIDEN_ABOVE`` legal
    actions one is added only while fewer than ``1 + sqrt(visits)`` have been tried.
    ``tried`` (``listed``'s answer for a widened node, which the caller goes on with when
    nothing new is tried) lets it go through its tried actions only; the outcome is the
    same.
    """
    if tried is not None:
        visits = 0.0
        for _, _, row in tried:
            row[2] += 1
            visits += row[0]
        if len(tried) == len(legal) or len(tried) >= 1 + math.sqrt(visits):
            return None
        untried = [action for action in legal if action not in table]
    else:
        untried = []
        count = 0
        visits_here = 0.0
        for action in legal:
            stats = table.get(action)
            if stats is None:
                untried.append(action)
            else:
                stats[2] += 1
                count += 1
                visits_here += stats[0]
        if not untried or (len(legal) > WIDEN_ABOVE and count >= 1 + math.sqrt(visits_here)):
            return None
    action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
    if prior is not None:
        favourite = prior()
        if favourite is not None:
            listed_favourite = choose(untried, favourite)
            if listed_favourite is not None:
                action = listed_favourite
    new = table[action] = new_row()
    return action, new


def select_ucb1(
    table: dict[Action, Row],
    legal: Sequence[Action],
    exploration: float,
    rng: random.Random,
    prior: Callable[[], Action | None] | None = None,
    bias: float = 0.0,
    index: dict[Action, int] | None = None,
) -> tuple[Action, Row]:
    """Pick a new action to try (see ``expand``), else the best tried one by UCB1.

    UCB1 here counts an action's availability (the simulations in which it was legal), not
    the node's visits, since what is legal differs between determinizations. With a
    ``bias`` (progressive bias, Chaslot et al. 2008) the ``prior``'s choice gets
    ``bias / (visits + 1)`` more: the search leaves the heuristic's choice only once the
    simulations show another is better, by a margin that shrinks as they pile up.
    ``index``: each of ``legal``'s actions and its position, for a widened node (``listed``).
    """
    listing = listed(table, index) if index is not None and len(legal) > WIDEN_ABOVE else None
    new = expand(table, legal, rng, prior, listing)
    if new is not None:
        return new
    favourite = prior() if bias > 0 and prior is not None else None
    best: Action = legal[0]
    best_stats: Row = []
    best_value = -math.inf
    log = math.log
    sqrt = math.sqrt
    # Nothing new was tried, so the listing still holds every tried action.
    candidates: Sequence[Action] = legal
    if listing is not None:
        candidates = [action for _, action, _ in listing]
    for action in candidates:
        stats = table.get(action)
        if stats is None:
            continue
        visits = stats[0]
        value = stats[1] / visits + exploration * sqrt(log(stats[2]) / visits)
        if favourite is not None and action == favourite:
            value += bias / (visits + 1)
        if value > best_value:
            best, best_stats, best_value = action, stats, value
    return best, best_stats


def strategy(rule: str, rows: Sequence[Row], mix: float) -> list[float]:
    """Return the probability of playing each of ``rows``' actions under ``rule``."""
    k = len(rows)
    floor = mix / k
    if rule == "regret":
        positive = [r[3] if r[3] > 0 else 0.0 for r in rows]
        total = sum(positive)
        if total <= 0:
            return [1.0 / k] * k
        return [(1 - mix) * p / total + floor for p in positive]
    eta = mix / k
    top = max(r[3] for r in rows)
    weights = [math.exp(eta * (r[3] - top)) for r in rows]
    total = sum(weights)
    return [(1 - mix) * w / total + floor for w in weights]


def select_sealed(
    table: dict[Action, Row],
    legal: Sequence[Action],
    rule: str,
    mix: float,
    rng: random.Random,
    prior: Callable[[], Action | None] | None = None,
    index: dict[Action, int] | None = None,
) -> tuple[Action, Row, Update]:
    """Pick a seat's action at a sealed node: a new one to try, else one drawn by ``rule``.

    Returns the action, its row, and what the backup needs (None after an expansion,
    which is not drawn from the strategy and so teaches the learner nothing). ``index``:
    see ``select_ucb1``.
    """
    listing = listed(table, index) if index is not None and len(legal) > WIDEN_ABOVE else None
    new = expand(table, legal, rng, prior, listing)
    if new is not None:
        return new[0], new[1], None
    if listing is not None:
        actions = [action for _, action, _ in listing]
        rows = [row for _, _, row in listing]
    else:
        actions = [a for a in legal if a in table]
        rows = [table[a] for a in actions]
    probabilities = strategy(rule, rows, mix)
    draw = rng.random()
    pick = len(rows) - 1
    for i, p in enumerate(probabilities):
        draw -= p
        if draw < 0:
            pick = i
            break
    return actions[pick], rows[pick], (probabilities[pick], rows)


def learn(rule: str, row: Row, update: Update, reward: float) -> None:
    """Teach a sealed pick's learner the reward its seat got from the simulation."""
    if update is None:
        return
    probability, rows = update
    if rule == "regret":
        for other in rows:
            other[3] -= reward
        row[3] += reward / probability
    else:
        row[3] += reward / probability
