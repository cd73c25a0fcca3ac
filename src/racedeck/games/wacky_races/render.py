"""A text picture of a Wacky Races race: the circuit with racers, Dastardly, traps and hands."""

from __future__ import annotations

from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.state import WackyState


def car_label(state: WackyState, car: int) -> str:
    """Return a car's label: its racer and, for a player's racer, the seat."""
    name = data.RACER_NAMES[state.field[car]]
    return f"{name} (seat {car})" if car < state.players else f"{name} (neutral)"


def card_names(cards: tuple[int, ...]) -> str:
    """Return movement cards as terrain names."""
    return ", ".join(data.TERRAINS[c] for c in cards) or "-"


def render_state(state: WackyState, viewer: int | None = None) -> str:
    """Return the race as text; with a ``viewer`` seat, others' hands and traps are hidden."""
    races = state.options.races
    lines = [
        f"Wacky Races: race {min(state.race + 1, races)} of {races}, round {state.round + 1}, "
        f"phase {state.phase}"
    ]
    if state.racer_of_seat:
        lines.append(
            "  racers: "
            + ", ".join(
                f"seat {s} {data.RACER_NAMES[r]}" for s, r in enumerate(state.racer_of_seat)
            )
        )
    if not state.tiles:
        return "\n".join(lines)
    lines.append("  finish at the top; each position holds two racers, Dastardly rides on top")
    if state.dastardly < 0:
        lines.append("  Dick Dastardly and Muttley wait behind the grid")
    for p in range(len(state.tiles) - 1, -1, -1):
        cars = sorted((c for c, q in enumerate(state.pos) if q == p), key=lambda c: state.stamp[c])
        trap = state.traps[p]
        mark = ""
        if trap >= 0:
            mark = (
                " [trap: face down]" if viewer is not None else f" [trap: {data.TRAP_NAMES[trap]}]"
            )
        who = " | ".join(car_label(state, c) for c in cars)
        if state.dastardly == p:
            who = f"{who} + Dick Dastardly" if who else "Dick Dastardly"
        lines.append(f"  {p:2d} {data.TILE_NAMES[state.tiles[p]]:<19}{mark} {who}".rstrip())
    for seat, hand in enumerate(state.hands):
        racer = data.RACER_NAMES[state.racer_of_seat[seat]]
        shown = card_names(hand) if viewer is None or viewer == seat else f"{len(hand)} cards"
        mask = state.exhausted[seat]
        advantages = ", ".join(
            f"{name}{' (exhausted)' if mask >> i & 1 else ''}"
            for i, name in enumerate(data.ADVANTAGE_NAMES[state.racer_of_seat[seat]])
        )
        turn = " <- to act" if state.phase == "turn" and state.active == seat else ""
        lines.append(f"  seat {seat} {racer}: hand {shown}; advantages {advantages}{turn}")
    top = data.TERRAINS[state.top] if state.top >= 0 else "empty"
    lines.append(
        f"  draw pile {len(state.draw)} cards, discard {sum(state.discard)} (top {top}); "
        f"trap deck {len(state.trap_deck)}"
    )
    if races > 1:
        lines.append("  points: " + ", ".join(f"seat {s} {p}" for s, p in enumerate(state.points)))
    return "\n".join(lines)
