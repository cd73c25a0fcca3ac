"""The Race: who acts next, "Next Lap" and "Finish".

Rulebook, "First Lap": "Note: The order of play will always be based on the track
position." "Next Lap": "After the leading car's turn, the next lap starts with the
last-place racecar." "Finish": "The race ends when a racecar runs out of cards. Play
continues with the next car ahead, and the final lap is completed (all the way to the
first-place racecar)." Notes on Play 5 and 6: a car out of cards is passed over, and the
next lap does not start once one has run out.

Every fold that ends a car's action goes through ``settle``, the one function that finds
the next car to act and what it must do.
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.games.lacorsa.state import LacorsaState, Phase


def next_turn(
    order: tuple[int, ...],
    hands: tuple[tuple[int, ...], ...],
    spaces: tuple[int, ...],
    cursor: int,
    passes: int,
    lap: int,
) -> tuple[Phase, int, int, int, int, int]:
    """Return ``(phase, cursor, passes, lap, attacker, defender)`` of the next car to act.

    A car with no cards is skipped; a car directly behind another must challenge it;
    otherwise it extends or discards. Past the leader the lap ends, and when any hand
    is empty then, so does the race. Returned as plain values, not a state, so that the
    event being folded builds its state once with everything it changed.
    """
    n = len(order)
    while True:
        if cursor >= n:
            # Hands are tuples: an empty one equals ``()``.
            if () in hands:
                return "score", n, 0, lap, -1, -1
            cursor, passes, lap = 0, 0, lap + 1
        car = order[cursor]
        if not hands[car]:
            cursor, passes = cursor + 1, 0
            continue
        if cursor + 1 < n:
            ahead = order[cursor + 1]
            if spaces[ahead] == spaces[car] + 1:
                return "challenge", cursor, passes, lap, car, ahead
        return "move", cursor, passes, lap, -1, -1


def settle(
    state: LacorsaState,
    cursor: int,
    passes: int,
    lap: int,
    *,
    hands: tuple[tuple[int, ...], ...] | None = None,
    committed: tuple[tuple[int, ...] | None, ...] | None = None,
    order: tuple[int, ...] | None = None,
    spaces: tuple[int, ...] | None = None,
    played: tuple[int, ...] | None = None,
    played_by: tuple[int, ...] | None = None,
) -> LacorsaState:
    """Find the next car to act from ``cursor`` and what it must do; end laps and the race.

    The other arguments are fields of the state the event being folded changed (None: as
    in ``state``), given here so that the state is rebuilt once (``next_turn`` says what
    follows). Named one by one, not as ``**changes``: this runs at every car's turn.
    """
    if hands is None:
        hands = state.hands
    if committed is None:
        committed = state.committed
    if order is None:
        order = state.order
    if spaces is None:
        spaces = state.spaces
    if played is None:
        played = state.played
    if played_by is None:
        played_by = state.played_by
    phase, cursor, passes, lap, attacker, defender = next_turn(
        order, hands, spaces, cursor, passes, lap
    )
    return replace(
        state,
        phase=phase,
        hands=hands,
        committed=committed,
        order=order,
        spaces=spaces,
        lap=lap,
        cursor=cursor,
        passes=passes,
        attacker=attacker,
        defender=defender,
        played=played,
        played_by=played_by,
    )


def deciding_car(state: LacorsaState, seat: int) -> int:
    """Return the car of ``seat`` that must act now, or -1."""
    owner = state.owner
    phase = state.phase
    if phase == "move":
        car = state.order[state.cursor]
        return car if owner[car] == seat else -1
    if phase == "challenge":
        a, d = state.attacker, state.defender
        if owner[a] == seat and state.committed[a] is None:
            return a
        if owner[d] == seat and state.committed[d] is None and state.hands[d]:
            return d
        return -1
    if phase == "qualify":
        for car, committed in enumerate(state.committed):
            if committed is None and owner[car] == seat:
                return car
    return -1
