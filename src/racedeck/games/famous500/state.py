"""Famous 500's state, the compiled race set-up, and what one driver may see."""

from __future__ import annotations

from typing import Literal

import msgspec

from racedeck.core.model import Observation
from racedeck.games.famous500.options import Famous500Options

Phase = Literal[
    "deal",
    "start",
    "design",
    "choose",
    "reveal",
    "pit_draw",
    "pit_return",
    "pit_repair",
    "discard",
    "lap_draw",
    "finish",
    "over",
]
"""Engine phases: deal, reveal, pit_draw, lap_draw, finish; the others wait for drivers."""

Car = tuple[int, int, int, int]
"""A car sheet's current row: tires, fuel, engine, speed."""


class Setup(msgspec.Struct, frozen=True, kw_only=True, cache_hash=True):
    """The track and the card table of a race, compiled to tuples the rules index.

    ``kinds[i]`` is section i's kind (0 black, 1 grey, 2 white), ``pits[i]`` whether it
    is a pit section; ``speeds`` the nine cards, slowest first; ``costs[card index][kind]``
    what that card costs in (tires, fuel, engine) on that kind of section.

    Its hash is computed once (``cache_hash``): tables derived from a set-up are cached
    per set-up, and the heuristic looks them up at every decision.
    """

    track: str
    cards: str
    difficulty: int
    laps: int
    names: tuple[str, ...]
    kinds: tuple[int, ...]
    pits: tuple[bool, ...]
    speeds: tuple[int, ...]
    costs: tuple[tuple[tuple[int, int, int], ...], ...]
    repair: tuple[int, int, int]
    faster_points: int
    slower_points: int
    lone_racer_points: int
    false_start_above: int

    def cost(self, card: int, section: int) -> tuple[int, int, int]:
        """Return what ``card`` costs (tires, fuel, engine) on section ``section``."""
        return self.costs[self.speeds.index(card)][self.kinds[section]]


class SectionPlayed(msgspec.Struct, frozen=True, kw_only=True):
    """A finished section, as both drivers know it once the cards were swapped."""

    lap: int
    section: int
    cards: tuple[int, ...]
    pits: tuple[bool, ...]
    points: tuple[int, ...]


class Famous500State(msgspec.Struct, frozen=True, kw_only=True):
    """The whole truth of a Famous 500 race at one moment.

    ``pit_deck`` lists the pit deck top first; ``deck_known[i]`` is a bit mask of the
    seats that know the card at position i (the seat that put it there).
    ``opponent_known[s]`` holds the cards seat ``s`` knows its opponent holds (cards it
    handed over, or the opponent drew from where ``s`` had put them). ``laid`` is each
    driver's face-down card this section (0: none yet); ``start`` each driver's answer
    to the deal (-1 not yet, 0 kept, 1 false start). ``discards`` are (seat, card) pairs
    out of the game.
    """

    options: Famous500Options
    setup: Setup
    phase: Phase = "deal"
    deals: int = 0
    hands: tuple[tuple[int, ...], ...] = ((), ())
    pit_deck: tuple[int, ...] = ()
    deck_known: tuple[int, ...] = ()
    opponent_known: tuple[tuple[int, ...], ...] = ((), ())
    opponent_maybe: tuple[tuple[int, ...], ...] = ((), ())
    """Per seat, cards it knew its opponent held before the opponent put cards under the
    pit deck: each is still in the opponent's hand or under the deck where it put one."""
    start: tuple[int, ...] = (-1, -1)
    cars: tuple[Car, ...] = ((0, 0, 0, 0), (0, 0, 0, 0))
    designed: tuple[bool, ...] = (False, False)
    designs: tuple[Car, ...] = ((0, 0, 0, 0), (0, 0, 0, 0))
    """Each car sheet's first row, as designed."""
    lap: int = 0
    section: int = 0
    laid: tuple[int, ...] = (0, 0)
    pits: tuple[bool, ...] = (False, False)
    pit_order: tuple[int, ...] = ()
    points: tuple[int, ...] = (0, 0)
    """This section's Speed points, kept until the section closes."""
    trailing: int = -1
    discards: tuple[tuple[int, int], ...] = ()
    history: tuple[SectionPlayed, ...] = ()
    winner: int = -1
    reason: str = ""


class Famous500Observation(Observation, frozen=True, tag="famous-500"):
    """What one driver knows: its own cards, the car sheets and the public record.

    ``history`` records every finished section: the cards each driver played (and the
    other took), pit stops and points.

    ``laid``/``pitting`` are this driver's own face-down card and declaration;
    ``revealed`` the cards face up on the current section (0 for none or face down);
    ``pit_deck_known`` the pit deck top first, a card where this driver knows it (it put
    it there) and 0 elsewhere; ``opponent_known`` cards it knows the opponent holds;
    ``opponent_maybe`` cards the opponent held before it put cards under the pit deck;
    ``cars`` the car sheets (the opponent's is ``None`` until both are designed).
    ``pit_deck_returned`` says, per pit deck position top first, which driver put the
    card there (-1: it was dealt there): where a card went under the deck is public, the
    card is not. ``points`` are the Speed points of a section whose pit stops are being
    resolved (public since the reveal; ``(0, 0)`` at any other time).
    ``known_to_opponent`` and ``half_known_to_opponent`` are what the opponent provably
    knows of this driver's cards, which this driver can work out from the swaps it saw.
    """

    seat: int
    phase: Phase
    setup: Setup
    deals: int
    lap: int
    section: int
    hand: tuple[int, ...]
    laid: int
    pitting: bool
    opponent_laid: bool
    revealed: tuple[int, ...]
    pits: tuple[bool, ...]
    cars: tuple[Car | None, ...]
    hand_sizes: tuple[int, ...]
    pit_deck_known: tuple[int, ...]
    opponent_known: tuple[int, ...]
    opponent_maybe: tuple[int, ...]
    """Cards the opponent held before it put cards under the pit deck: each is in its hand
    or under the deck where it put one."""
    discards: tuple[tuple[int, int], ...]
    history: tuple[SectionPlayed, ...]
    pit_order: tuple[int, ...]
    trailing: int
    winner: int
    pit_deck_returned: tuple[int, ...] = ()
    points: tuple[int, ...] = (0, 0)
    known_to_opponent: tuple[int, ...] = ()
    """Cards of this driver's that the opponent knows it holds: what this driver took from
    the opponent in a swap, or drew from where the opponent had put it (the opponent's
    ``opponent_known``). Every such card is in this driver's hand or face down before it."""
    half_known_to_opponent: tuple[int, ...] = ()
    """Cards the opponent knew this driver held before this driver put cards under the pit
    deck (the opponent's ``opponent_maybe``): each is in this driver's hand or where it
    put one."""
