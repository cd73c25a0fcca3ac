"""Building Famous 500 positions for rule tests."""

from __future__ import annotations

import random
from typing import Any

from msgspec.structs import replace

from racedeck.core.model import ENGINE
from racedeck.core.step import apply
from racedeck.games.famous500.actions import Famous500Action, PitStop, Race
from racedeck.games.famous500.options import Famous500Options
from racedeck.games.famous500.rules import Famous500
from racedeck.games.famous500.state import Famous500State

GAME = Famous500()
OPTIONS = Famous500Options()
MONACO_GREY = 1
"""Monaco's section 2 (Sainte Devote) is grey."""
MONACO_BLACK = 4
"""Monaco's section 5 (Grand Hotel hairpin) is black."""
MONACO_WHITE = 2
"""Monaco's section 3 (Beau Rivage) is white."""
MONACO_PIT = 0
"""Monaco's section 1 (the start straight) is its pit section."""


def fresh(options: Famous500Options = OPTIONS) -> Famous500State:
    """Return a race before the deal."""
    return GAME.initial_state(options, 2)


def designing() -> Famous500State:
    """Return a race after the deal, both drivers to design their cars."""
    return replace(
        fresh(),
        phase="design",
        deals=1,
        hands=((40, 60, 80), (100, 120, 140)),
        pit_deck=(160, 180, 200),
        deck_known=(0, 0, 0),
        start=(0, 0),
    )


def racing(
    hands: tuple[tuple[int, ...], tuple[int, ...]] = ((40, 120, 160), (60, 100, 180)),
    deck: tuple[int, ...] = (80, 140, 200),
    cars: tuple[tuple[int, int, int, int], ...] = ((6, 5, 4, 3), (6, 5, 4, 3)),
    lap: int = 1,
    section: int = 1,
    **fields: Any,
) -> Famous500State:
    """Return a race in the middle of a lap, both drivers to choose a card."""
    return replace(
        fresh(),
        phase="choose",
        deals=1,
        hands=hands,
        pit_deck=deck,
        deck_known=(0,) * len(deck),
        start=(0, 0),
        cars=cars,
        designed=(True, True),
        lap=lap,
        section=section,
        **fields,
    )


def act(state: Famous500State, actor: int, action: Famous500Action | None = None) -> Famous500State:
    """Apply one action of a seat (or the engine's turn) and return the state after it."""
    if actor == ENGINE:
        return engine(state)
    return apply(GAME, state, actor, action).state


def engine(state: Famous500State, seed: int = 0) -> Famous500State:
    """Let the engine act once."""
    assert GAME.next_step(state).engine, state.phase
    return apply(GAME, state, ENGINE, None, random.Random(seed)).state


def settle(state: Famous500State, seed: int = 0) -> Famous500State:
    """Let the engine act for as long as it is its turn (a no-op when it is not)."""
    while GAME.next_step(state).engine:
        state = engine(state, seed)
    return state


def section(
    state: Famous500State, card0: int | Race | PitStop, card1: int | Race | PitStop
) -> Famous500State:
    """Both drivers lay a card (an int races it), then the engine reveals the section."""
    a0 = Race(card=card0) if isinstance(card0, int) else card0
    a1 = Race(card=card1) if isinstance(card1, int) else card1
    state = act(state, 0, a0)
    state = act(state, 1, a1)
    return settle(state)
