"""Carrying a seat's search tree from one of its decisions to the next (``Budget.reuse``).

The tree is keyed by the seats' actions (open loop), so the node a match has reached is
the one its actions since the last decision lead to: the seat's own choice, then the
others'. A bot never sees those actions, only its next observation, and what it sees of
the others' play may leave several of them possible (a card played face down, a sealed
choice not yet revealed) or none it searched (a card the engine dealt it, a new race).
So the node is found by what the seat saw: while a decision is searched, every node below
the root at which the searching seat is asked notes the observation that seat has there
(``Sightings``), and at the next decision the node noted under exactly the observation
the seat now has becomes the root, its statistics kept. An observation noted at two
nodes (actions the seat cannot tell apart) or at none starts a fresh tree.

Nothing hidden picks the node: the keys are the seat's own observations, which show what
it may know and nothing more, and the truth is never compared with a sampled hidden card.
"""

from __future__ import annotations

import msgspec

from racedeck.bots.search_tree import Node
from racedeck.core.model import Observation

_encode = msgspec.msgpack.Encoder().encode


class Sightings:
    """Per observation the searching seat had at a node below the root, that node.

    An observation seen at two different nodes maps to None: the seat could not tell
    which of the two the match is at.
    """

    __slots__ = ("_nodes",)

    def __init__(self) -> None:
        self._nodes: dict[bytes, Node | None] = {}

    def note(self, observation: Observation, node: Node) -> None:
        """Note that the seat, asked at ``node``, saw ``observation``."""
        key = _encode(observation)
        nodes = self._nodes
        if key not in nodes:
            nodes[key] = node
        elif nodes[key] is not node:
            nodes[key] = None

    def node_for(self, observation: Observation) -> Node | None:
        """Return the one node noted under ``observation``, or None (none, or ambiguous)."""
        return self._nodes.get(_encode(observation))

    def __len__(self) -> int:
        """Return how many distinct observations were noted."""
        return len(self._nodes)


def carried_root(sightings: Sightings | None, observation: Observation) -> Node | None:
    """Return the node the seat's ``observation`` identifies in the last search's tree.

    None when there was no last search or ``observation`` names no single node. The node's
    statistics are kept; the heuristic's choices it remembers were asked of some earlier
    sample, so they are forgotten and asked again of this decision's.
    """
    if sightings is None:
        return None
    node = sightings.node_for(observation)
    if node is not None:
        node.favourites.clear()
    return node
