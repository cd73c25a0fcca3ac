"""A text picture of a Wacky Races race: the circuit with racers, Dastardly, traps and hands."""

from __future__ import annotations

from collections.abc import Callable

from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.state import WackyObservation, WackyState


def car_label(field: tuple[int, ...], players: int, car: int) -> str:
    """Return a car's label: its racer and, for a player's racer, the seat."""
    name = data.RACER_NAMES[field[car]]
    return f"{name} (seat {car})" if car < players else f"{name} (neutral)"


def card_names(cards: tuple[int, ...]) -> str:
    """Return movement cards as terrain names."""
    return ", ".join(data.TERRAINS[c] for c in cards) or "-"


def render_state(state: WackyState, viewer: int | None = None) -> str:
    """Return the race as text; with a ``viewer`` seat, others' hands and traps are hidden."""

    def trap(p: int) -> str:
        t = state.traps[p]
        if t < 0:
            return ""
        return " [trap: face down]" if viewer is not None else f" [trap: {data.TRAP_NAMES[t]}]"

    def hand(seat: int) -> str:
        cards = state.hands[seat]
        return card_names(cards) if viewer is None or viewer == seat else f"{len(cards)} cards"

    return _picture(
        state,
        state.options.races,
        trap,
        hand,
        len(state.hands),
        len(state.draw),
        len(state.trap_deck),
    )


def render_observation(observation: WackyObservation) -> str:
    """Return what one seat sees, as text: its own hand, the traps face down."""
    obs = observation

    def trap(p: int) -> str:
        return " [trap: face down]" if obs.traps[p] else ""

    def hand(seat: int) -> str:
        return card_names(obs.hand) if seat == obs.seat else f"{obs.hand_sizes[seat]} cards"

    text = _picture(
        obs, obs.races, trap, hand, len(obs.hand_sizes), obs.draw_size, obs.trap_deck_size
    )
    return f"seat {obs.seat}'s view\n{text}"


def _picture(
    view: WackyState | WackyObservation,
    races: int,
    trap: Callable[[int], str],
    hand: Callable[[int], str],
    hands: int,
    draw_size: int,
    trap_deck_size: int,
) -> str:
    lines = [
        f"Wacky Races: race {min(view.race + 1, races)} of {races}, round {view.round + 1}, "
        f"phase {view.phase}"
    ]
    if view.racer_of_seat:
        lines.append(
            "  racers: "
            + ", ".join(f"seat {s} {data.RACER_NAMES[r]}" for s, r in enumerate(view.racer_of_seat))
        )
    if not view.tiles:
        return "\n".join(lines)
    lines.append("  finish at the top; each position holds two racers, Dastardly rides on top")
    if view.dastardly < 0:
        lines.append("  Dick Dastardly and Muttley wait behind the grid")
    for p in range(len(view.tiles) - 1, -1, -1):
        cars = sorted((c for c, q in enumerate(view.pos) if q == p), key=lambda c: view.stamp[c])
        who = " | ".join(car_label(view.field, view.players, c) for c in cars)
        if view.dastardly == p:
            who = f"{who} + Dick Dastardly" if who else "Dick Dastardly"
        lines.append(f"  {p:2d} {data.TILE_NAMES[view.tiles[p]]:<19}{trap(p)} {who}".rstrip())
    for seat in range(hands):
        racer = view.racer_of_seat[seat]
        mask = view.exhausted[seat]
        advantages = ", ".join(
            f"{name}{' (exhausted)' if mask >> i & 1 else ''}"
            for i, name in enumerate(data.ADVANTAGE_NAMES[racer])
        )
        turn = " <- to act" if view.phase == "turn" and view.active == seat else ""
        lines.append(
            f"  seat {seat} {data.RACER_NAMES[racer]}: hand {hand(seat)}; "
            f"advantages {advantages}{turn}"
        )
    top = data.TERRAINS[view.top] if view.top >= 0 else "empty"
    lines.append(
        f"  draw pile {draw_size} cards, discard {sum(view.discard)} (top {top}); "
        f"trap deck {trap_deck_size}"
    )
    if races > 1:
        lines.append("  points: " + ", ".join(f"seat {s} {p}" for s, p in enumerate(view.points)))
    return "\n".join(lines)
