"""The First Lap: sections, cards played face down, Speed points and costs.

The rulebook's section "The First Lap", with "Hairpins, curves and straightaways",
"Playing a card", "Earning Speed points" and "Subtracting the costs from your car":

    Each section, you and your opponent will choose a card from your hand and play it
    facedown. Once you're both ready, turn your card over, revealing how fast you've
    chosen to drive through the current section of track.

    The driver who played the higher card earns 2 speed points. The driver who played the
    lower card earns only 1 speed point.

    Both drivers subtract the costs from the appropriate columns on their sheet.

Both drivers lay a card at once (sealed); the last card down turns both over. A section's
kind (black hairpin, grey curve, white straightaway) says which row of the card table a
card costs; each racing driver pays its own card's cost. What a pit stop changes at the
reveal is in ``making_a_pit_stop``; the swap and the penny's advance that close the
section are in ``swapping_cards``; a car below zero is in ``finishing_the_race``.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.famous500 import finishing_the_race, making_a_pit_stop, swapping_cards
from racedeck.games.famous500.actions import Famous500Action, PitStop, Race
from racedeck.games.famous500.events import CardLaid, SectionRevealed
from racedeck.games.famous500.hands import SEATS, remove
from racedeck.games.famous500.state import Famous500State

if TYPE_CHECKING:
    from racedeck.games.famous500.hands import RaceTurn

_NOTHING: tuple[Famous500Action, ...] = ()


@functools.cache
def _plays(hand: tuple[int, ...], dotted: bool) -> tuple[Famous500Action, ...]:
    """Race each card of ``hand``; on a dotted section, or lay it for a pit stop."""
    races: list[Famous500Action] = [Race(card=c) for c in hand]
    if dotted:
        races.extend(making_a_pit_stop.pit_stop_choices(hand))
    return tuple(races)


def card_choices(state: Famous500State, seat: int) -> tuple[Famous500Action, ...]:
    """Return the cards ``seat`` may lay on this section, or nothing once it has laid one."""
    if seat not in SEATS or state.laid[seat]:
        return _NOTHING
    return _plays(state.hands[seat], state.setup.pits[state.section])


def lay_card(turn: RaceTurn, seat: int, action: Race | PitStop) -> None:
    """Emit a card laid face down, raced or (on a dotted section) for a pit stop."""
    turn.emit(CardLaid(seat=seat, card=action.card, pit=isinstance(action, PitStop)))


def card_laid(state: Famous500State, event: CardLaid) -> Famous500State:
    """Fold a card laid face down; with both cards down it is time to reveal."""
    card = event.card
    (h0, h1), (l0, l1), (p0, p1) = state.hands, state.laid, state.pits
    if event.seat == 0:
        h0, l0, p0 = remove(h0, card), card, event.pit
    else:
        h1, l1, p1 = remove(h1, card), card, event.pit
    return replace(
        state,
        hands=(h0, h1),
        laid=(l0, l1),
        pits=(p0, p1),
        phase="reveal" if l0 and l1 else "choose",
    )


def reveal(turn: RaceTurn) -> None:
    """Emit the reveal: each driver's points and costs, and who pits in which order.

    Only a tie that needs a coin (see ``making_a_pit_stop.coin_needed``) draws from
    ``turn.rng``, and that reveal is the engine's own turn.
    """
    state = turn.state
    setup = state.setup
    section = state.section
    c0, c1 = state.laid
    p0, p1 = state.pits
    if p0 or p1:
        points, costs, pit_order = making_a_pit_stop.pit_stop_reveal(state, turn.rng)
    else:
        kind = setup.kinds[section]
        fast, slow = setup.faster_points, setup.slower_points
        points = (fast, slow) if c0 > c1 else (slow, fast)
        index = setup.speeds.index
        costs = (setup.costs[index(c0)][kind], setup.costs[index(c1)][kind])
        pit_order = ()
    turn.emit(
        SectionRevealed(
            lap=state.lap,
            section=section,
            cards=(c0, c1),
            pits=(p0, p1),
            points=points,
            costs=costs,
            pit_order=pit_order,
        )
    )


def section_revealed(state: Famous500State, event: SectionRevealed) -> Famous500State:
    """Fold the reveal: add the points, subtract the costs, then what the section leads to.

    A car below zero ends the race; a pit stop comes before the swap; otherwise the
    section closes at once.
    """
    (t0, f0, e0, s0), (t1, f1, e1, s1) = state.cars
    (a0, b0, c0), (a1, b1, c1) = event.costs
    p0, p1 = event.points
    t0, f0, e0, t1, f1, e1 = t0 - a0, f0 - b0, e0 - c0, t1 - a1, f1 - b1, e1 - c1
    cars = ((t0, f0, e0, s0 + p0), (t1, f1, e1, s1 + p1))
    # finishing_the_race.is_out of either car, spelled out: this runs at every reveal.
    if t0 < 0 or f0 < 0 or e0 < 0 or t1 < 0 or f1 < 0 or e1 < 0:
        return finishing_the_race.out_of_the_race(state, cars, event.points)
    if event.pit_order:
        return making_a_pit_stop.into_the_pit(state, cars, event)
    return swapping_cards.close_section(state, cars, event.points)
