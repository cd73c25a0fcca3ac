"""Building LACORSA positions by hand, and acting on them."""

from __future__ import annotations

import random
from collections.abc import Sequence

from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import apply
from racedeck.games.lacorsa import data
from racedeck.games.lacorsa.actions import Discard, Extend, LacorsaAction, Play
from racedeck.games.lacorsa.finish import settle
from racedeck.games.lacorsa.options import LacorsaOptions
from racedeck.games.lacorsa.rules import Lacorsa
from racedeck.games.lacorsa.state import LacorsaState

GAME = Lacorsa()
_NEXT_SUIT: dict[int, int] = {}


def card(label: str, suit: int = 0) -> int:
    """The card with this label ('1'..'12' or 'R') in ``suit``."""
    return data.card(data.RANK_LABELS.index(label), suit)


def hand(labels: str) -> tuple[int, ...]:
    """A hand from space-separated labels; repeated labels take the next suits."""
    seen: dict[str, int] = {}
    cards = []
    for label in labels.split():
        suit = seen.get(label, 0)
        seen[label] = suit + 1
        cards.append(card(label, suit))
    return tuple(sorted(cards))


def race(
    order: Sequence[int],
    spaces: Sequence[int],
    hands: dict[int, str],
    *,
    players: int | None = None,
    owner: Sequence[int] | None = None,
    options: LacorsaOptions | None = None,
    cursor: int = 0,
    passes: int = 0,
    lap: int = 1,
) -> LacorsaState:
    """A race in progress: ``order`` back to front, ``spaces`` per car, hands by car."""
    cars = len(order)
    owner = tuple(owner) if owner is not None else tuple(range(cars))
    players = players if players is not None else max(owner) + 1
    state = LacorsaState(
        options=options or LacorsaOptions(races=1),
        players=players,
        owner=owner,
        phase="move",
        hands=tuple(hand(hands.get(car, "")) for car in range(cars)),
        committed=(None,) * cars,
        order=tuple(order),
        spaces=tuple(spaces),
        points=(0,) * cars,
    )
    return settle(state, cursor, passes, lap)


def act(state: LacorsaState, seat: int, action: LacorsaAction) -> LacorsaState:
    """Apply a seat's action through the core's step (legality checked, events folded once).

    The legal actions list each play once, its cards in a fixed order (a Redline first),
    so a play written in another order is matched to the listed one with the same cards.
    """
    return apply(GAME, state, seat, listed(state, seat, action), random.Random(0)).state


def listed(state: LacorsaState, seat: int, action: LacorsaAction) -> LacorsaAction:
    """Return the legal action of ``seat`` that plays the same cards as ``action``, if any."""
    for legal in GAME.legal_actions(state, seat):
        if (
            type(legal) is type(action)
            and legal.car == action.car
            and _cards(legal) == _cards(action)
        ):
            return legal
    return action


def _cards(action: LacorsaAction) -> tuple[int, ...]:
    return (action.card,) if isinstance(action, Extend) else tuple(sorted(action.cards))


def engine(state: LacorsaState, seed: int = 0) -> LacorsaState:
    """Let the engine take its step."""
    return apply(GAME, state, ENGINE, None, engine_stream(seed, 0)).state


def play(car: int, labels: str) -> Play:
    """A sealed play of these cards (suit 0 first) for ``car``."""
    return Play(car=car, cards=hand(labels))


def discard(car: int, labels: str) -> Discard:
    """A discard of these cards for ``car``."""
    return Discard(car=car, cards=hand(labels))


def extend(car: int, label: str) -> Extend:
    """An Extend with this card for ``car``."""
    return Extend(car=car, card=card(label))


def challenge(
    state: LacorsaState, attacker_labels: str, defender_labels: str | None
) -> LacorsaState:
    """Both cars of the current challenge commit; the last commit reveals them at once."""
    a, d = state.attacker, state.defender
    state = act(state, state.owner[a], play(a, attacker_labels))
    if defender_labels is not None:
        state = act(state, state.owner[d], play(d, defender_labels))
    assert state.phase != "reveal", "the reveal follows the last commit in the same decision"
    return state
