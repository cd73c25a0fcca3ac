"""The search tree's node and its statistics, what a playout credits them, and the choice.

A node holds, per seat that acts there, a statistics row per action (``selection.Row``);
its children are keyed by the step's joint choice (open loop: chance and hidden cards are
not in the keys). After the search the bot plays the action visited most (``most_tried``),
and stops early once no other action could catch it up (``settled``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from racedeck.bots.search_budget import RANK_WEIGHT
from racedeck.bots.selection import Row
from racedeck.core.model import Action, Result


class Node:
    """One point of the action tree: per acting seat, statistics of its choices."""

    __slots__ = ("children", "favourites", "listings", "tables")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.tables: dict[int, dict[Action, Row]] = {}
        self.favourites: dict[int, Action | None] = {}
        """Per seat, the heuristic's choice here, asked once (of the first determinization)."""
        self.listings: dict[int, tuple[Sequence[Action], dict[Action, int] | None]] = {}
        """Per seat, the last long legal list seen here and, once it came back, its index."""

    def index(self, seat: int, legal: Sequence[Action]) -> dict[Action, int] | None:
        """Return each of ``legal``'s actions and its position, when ``legal`` comes back.

        A game that hands out the very same legal object every time (Famous 500's 1,330
        car designs) gets its index built once and kept; a list built anew each time is
        not worth indexing, and gets None.
        """
        seen = self.listings.get(seat)
        if seen is None or seen[0] is not legal:
            self.listings[seat] = (legal, None)
            return None
        index = seen[1]
        if index is None:
            index = {action: position for position, action in enumerate(legal)}
            if len(index) != len(legal):  # equal actions listed twice: no index
                return None
            self.listings[seat] = (legal, index)
        return index


def rewards(result: Result, rank_weight: float = RANK_WEIGHT) -> list[float]:
    """Return each seat's reward in [0, 1]: mostly its place, partly its share of the scores."""
    ranks, scores = result.ranks, result.scores
    players = len(ranks)
    low, high = min(scores), max(scores)
    spread = high - low
    out = []
    for rank, score in zip(ranks, scores, strict=True):
        place = (players - rank) / (players - 1) if players > 1 else 1.0
        share = (score - low) / spread if spread else 0.5
        out.append(rank_weight * place + (1 - rank_weight) * share)
    return out


def most_tried(
    table: Mapping[Action, Row], legal: Sequence[Action], prefer: Action | None = None
) -> tuple[Action, float]:
    """Return the legal action with the most visits and its visits.

    On a tie, ``prefer`` where it is among the most visited (a learned policy's choice,
    which the search could not tell apart), else the first in ``legal``.
    """
    best, most = legal[0], -1.0
    for action in legal:
        stats = table.get(action)
        if stats is not None and stats[0] > most:
            best, most = action, stats[0]
    if prefer is not None and prefer in table and table[prefer][0] == most:
        best = prefer
    return best, most


def settled(table: Mapping[Action, Row], legal: Sequence[Action], left: int) -> bool:
    """Whether ``left`` more visits to any one other action could not change the choice.

    Each simulation adds at most one visit at the root, so an action that trails the
    leader by more than ``left`` visits cannot draw level, whatever the simulations do.
    """
    best, most = most_tried(table, legal)
    runner_up = max((stats[0] for action, stats in table.items() if action != best), default=0)
    return most - runner_up > left
