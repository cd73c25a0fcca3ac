"""Famous 500: a state consistent with one seat's observation, for search bots.

What the seat sees is copied; what it cannot see is filled with placeholders that the
game's ``hidden_variants`` then redeals (``Game.sample_state`` does both).
"""

from __future__ import annotations

from typing import Any


def state_from_observation(observation: Any, options: Any) -> Any:
    """Rebuild a Famous 500 state from a driver's observation.

    Copied: every public fact, with which driver put each pit deck card where it lies and
    the points of a section being pitted, and what the opponent knows of this driver's
    cards (``known_to_opponent``, ``half_known_to_opponent``): the opponent's heuristic
    in a playout then plays on what it would really know. Not observed, so approximated:
    the first rows of the car sheets (the current ones) and the opponent's sealed answers
    (not given yet).
    """
    from racedeck.games.famous500.state import Famous500State

    obs = observation
    seat, other = obs.seat, 1 - obs.seat
    filler = obs.setup.speeds[0]
    hands = [(), ()]
    hands[seat] = obs.hand
    hands[other] = (filler,) * obs.hand_sizes[other]
    revealed = obs.phase in ("pit_draw", "pit_return", "pit_repair")
    laid = [0, 0]
    laid[seat] = obs.laid
    if obs.opponent_laid:
        laid[other] = obs.revealed[other] if revealed and obs.revealed[other] else filler
    both = obs.cars[other] is not None
    designed = [both, both]
    designed[seat] = obs.cars[seat] is not None
    known: list[tuple[int, ...]] = [(), ()]
    known[seat] = obs.opponent_known
    known[other] = obs.known_to_opponent
    maybe: list[tuple[int, ...]] = [(), ()]
    maybe[seat] = obs.opponent_maybe
    maybe[other] = obs.half_known_to_opponent
    cars = tuple(car or (0, 0, 0, 0) for car in obs.cars)
    returned = getattr(obs, "pit_deck_returned", ())
    if len(returned) != len(obs.pit_deck_known):  # an observation from before the field
        returned = tuple(seat if c else other for c in obs.pit_deck_known)
    fields: dict[str, Any] = {
        "options": options,
        "setup": obs.setup,
        "phase": obs.phase,
        "deals": obs.deals,
        "hands": tuple(hands),
        "pit_deck": tuple(c or filler for c in obs.pit_deck_known),
        "deck_known": tuple(0 if by < 0 else 1 << by for by in returned),
        "opponent_known": tuple(known),
        "opponent_maybe": tuple(maybe),
        "cars": cars,
        "designed": tuple(designed),
        "designs": cars,
        "lap": obs.lap,
        "section": obs.section,
        "laid": tuple(laid),
        "pits": obs.pits,
        "pit_order": obs.pit_order,
        "points": getattr(obs, "points", (0, 0)),
        "trailing": obs.trailing,
        "discards": obs.discards,
        "history": obs.history,
        "winner": obs.winner,
    }
    present = set(Famous500State.__struct_fields__)
    return Famous500State(**{k: v for k, v in fields.items() if k in present})
