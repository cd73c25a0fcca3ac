"""What one seat sees of a race, and states a seat cannot tell from the true one.

A seat knows its own hand and every public fact: the other hands' sizes only, where the
face-down traps are (not what they are), the draw pile's size (not its order), the trap
deck's size, the discard pile per terrain and its top card, the revealed traps per kind,
every racer's position and arrival order, Dastardly, every seat's exhausted advantages,
and the championship so far. Search bots sample the rest (``sample_state``).
"""

from __future__ import annotations

import functools

from msgspec.structs import astuple, replace

from racedeck.core.rng import Rng
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.options import WackyOptions
from racedeck.games.wacky_races.state import WackyObservation, WackyState
from racedeck.games.wacky_races.tuples import expand


@functools.lru_cache(maxsize=1024)
def face_down(traps: tuple[int, ...]) -> tuple[bool, ...]:
    """Return where the face-down traps are (a pure function: many states share a tuple)."""
    return tuple(trap >= 0 for trap in traps)


def observe(state: WackyState, seat: int) -> WackyObservation:
    """Return what ``seat`` knows: its own hand and every public fact."""
    # Search bots observe at every step of every playout: the fields are read in one go
    # and the observation is built from them in its own field order.
    (
        options,
        players,
        phase,
        racer_of_seat,
        race,
        tiles,
        field,
        pos,
        stamp,
        _clock,
        dastardly,
        traps,
        trap_deck,
        trap_discard,
        hands,
        draw,
        discard,
        top,
        exhausted,
        glued,
        _first_seat,
        active,
        round_,
        _turn_in_round,
        steps,
        wild,
        _pending,
        gas_done,
        finished,
        results,
        fields,
        points,
        held,
    ) = astuple(state)
    return WackyObservation(
        seat,
        players,
        phase,
        racer_of_seat,
        race,
        options.races,
        tiles,
        field,
        pos,
        stamp,
        dastardly,
        face_down(traps),
        hands[seat] if hands else (),
        tuple(map(len, hands)),
        len(draw),
        discard,
        top,
        len(trap_deck),
        trap_discard,
        exhausted,
        glued,
        active,
        round_,
        steps,
        wild,
        gas_done,
        finished,
        results,
        points,
        fields,
        held,
    )


def hidden_variants(state: WackyState, seat: int, rng: Rng) -> WackyState | None:
    """Redeal other hands with the draw pile, and face-down traps with the trap deck."""
    if not state.hands:
        return None
    pool = list(state.draw)
    for other, hand in enumerate(state.hands):
        if other != seat:
            pool.extend(hand)
    rng.shuffle(pool)
    hands = list(state.hands)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hands[other] = tuple(sorted(pool[: len(hand)]))
            del pool[: len(hand)]
    draw = tuple(pool)
    face_down_at = [p for p, t in enumerate(state.traps) if t >= 0]
    trap_pool = list(state.trap_deck)
    trap_pool.extend(state.traps[p] for p in face_down_at)
    rng.shuffle(trap_pool)
    traps = list(state.traps)
    for p in face_down_at:
        traps[p] = trap_pool.pop()
    trap_deck = tuple(trap_pool)
    return replace(state, hands=tuple(hands), draw=draw, traps=tuple(traps), trap_deck=trap_deck)


def _unseen(counts: tuple[int, ...], seen: tuple[int, ...]) -> list[int]:
    """Return the cards of a pile of ``counts`` per kind less those ``seen``, in kind order."""
    left = list(counts)
    for kind, n in enumerate(seen):
        left[kind] -= n
    return expand(tuple(left))


def sample_state(
    observation: WackyObservation, options: WackyOptions, seat: int, rng: Rng
) -> WackyState:
    """Return a state ``seat`` cannot tell from the one it observed, unseen things dealt.

    The other hands and the draw pile are dealt at random from the movement cards the
    seat has not seen; the face-down traps and the trap deck from the traps not yet
    revealed. Every public fact, past races' fields included, is copied.
    """
    obs = observation
    players = obs.players
    if obs.hand_sizes:
        # Seen: the discard pile and the seat's own hand; the rest is dealt, in kind order
        # before the shuffle (as a list with the seen cards removed would be).
        seen = list(obs.discard)
        for card in obs.hand:
            seen[card] += 1
        unseen = _unseen(data.DECK, tuple(seen))
        traps_unseen = _unseen(data.TRAP_COPIES, obs.trap_discard)
    else:  # before a race is set up there are no piles
        unseen, traps_unseen = [], []
    rng.shuffle(unseen)
    rng.shuffle(traps_unseen)
    hands = []
    for other, size in enumerate(obs.hand_sizes):
        if other == seat:
            hands.append(obs.hand)
        else:
            hands.append(tuple(sorted(unseen[:size])))
            del unseen[:size]
    traps = tuple(traps_unseen.pop() if down else -1 for down in obs.traps)
    first = obs.race % players
    return WackyState(
        options=options,
        players=players,
        phase=obs.phase,
        racer_of_seat=obs.racer_of_seat,
        race=obs.race,
        tiles=obs.tiles,
        field=obs.field,
        pos=obs.pos,
        stamp=obs.stamp,
        clock=max(obs.stamp, default=-1) + 1,
        dastardly=obs.dastardly,
        traps=traps,
        trap_deck=tuple(traps_unseen),
        trap_discard=obs.trap_discard,
        hands=tuple(hands),
        draw=tuple(unseen),
        discard=obs.discard,
        top=obs.top,
        exhausted=obs.exhausted,
        glued=obs.glued,
        held=obs.held,
        first_seat=first,
        active=obs.active,
        round=obs.round,
        turn_in_round=(obs.active - first) % players,
        steps=obs.steps,
        wild=obs.wild,
        gas_done=obs.gas_done,
        finished=obs.finished,
        results=obs.results,
        fields=obs.fields,
        points=obs.points,
    )
