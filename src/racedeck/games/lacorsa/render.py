"""A text picture of a LACORSA race: the strip with cars and gaps, hand sizes, the lap."""

from __future__ import annotations

from racedeck.games.lacorsa import data, scoring
from racedeck.games.lacorsa.state import LacorsaObservation, LacorsaState


def car_name(car: int, owner: tuple[int, ...]) -> str:
    """Return a car's label: its number, the seat that drives it and, in a team, its hand.

    A team's first car is its left hand (``L``), the second its right (``R``), the car with
    the stripe.
    """
    if owner.count(owner[car]) == 1:
        return f"C{car}/s{owner[car]}"
    hand = "L" if car == owner.index(owner[car]) else "R"
    return f"C{car}/s{owner[car]}{hand}"


def render_state(state: LacorsaState, viewer: int | None = None) -> str:
    """Return the race as text; with a ``viewer`` seat, other seats' cards are hidden."""
    lines = [
        f"LACORSA Grand Prix: race {min(state.race + 1, state.options.races)} of "
        f"{state.options.races}, lap {state.lap}, phase {state.phase}"
    ]
    if state.order:
        lines.append(_strip(state.order, state.spaces, state.owner))
        lines.append("  (back of the field on the left; the leader on the right)")
    for car, hand in enumerate(state.hands):
        sealed = state.committed[car] if state.committed else None
        if viewer is None or state.owner[car] == viewer:
            cards = " ".join(data.label(c) for c in hand)
            if sealed is not None:
                cards += f"  face down: {' '.join(data.label(c) for c in sealed)}"
            size = len(hand)
        else:
            # A sealed play stays in the hand's count: how many cards went down is secret too.
            size = len(hand) + len(sealed or ())
            cards = "?" * size + ("  (has played face down)" if sealed is not None else "")
        lines.append(f"  {car_name(car, state.owner)}: {size:2d} cards  {cards}")
    if state.phase == "challenge":
        lines.append(f"  challenge: C{state.attacker} attacks C{state.defender}")
    if state.played:
        lines.append(f"  played: {' '.join(data.label(c) for c in state.played[-12:])}")
    lines.append("  points: " + ", ".join(f"C{c} {p}" for c, p in enumerate(state.points)))
    if state.options.pairs_as_teams:
        lines.append(
            "  teams' championship: "
            + "; ".join(scoring.describe_team(t) for t in scoring.team_standings(state))
        )
    return "\n".join(lines)


def render_observation(observation: LacorsaObservation) -> str:
    """Return what one seat sees, as text."""
    lines = [
        f"seat {observation.seat}: race {observation.race + 1}, lap {observation.lap}, "
        f"phase {observation.phase}"
    ]
    if observation.order:
        lines.append(_strip(observation.order, observation.spaces, observation.owner))
    for car, size in enumerate(observation.hand_sizes):
        hand = observation.hands[car]
        cards = " ".join(data.label(c) for c in hand) if hand is not None else "hidden"
        lines.append(f"  {car_name(car, observation.owner)}: {size:2d} cards  {cards}")
    return "\n".join(lines)


def _strip(order: tuple[int, ...], spaces: tuple[int, ...], owner: tuple[int, ...]) -> str:
    first = spaces[order[0]]
    by_space = {spaces[car]: car for car in order}
    cells = []
    for space in range(first, spaces[order[-1]] + 1):
        car = by_space.get(space)
        cells.append(f"[{car_name(car, owner)}]" if car is not None else " .. ")
    return "  " + "".join(cells)
