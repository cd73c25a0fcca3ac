"""Building Detroit-Cleveland positions for tests: cars on named spaces, chosen hands."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from racedeck.core.model import ENGINE
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, Turn, apply
from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.actions import Bid, DetroitClevelandAction, Pass, Play
from racedeck.games.detroit_cleveland.events import (
    CarMoved,
    CarSkipped,
    DetroitClevelandEvent,
    RaceDealt,
)
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions, track_of
from racedeck.games.detroit_cleveland.rules import DetroitCleveland
from racedeck.games.detroit_cleveland.state import DetroitClevelandState, Switch
from racedeck.games.detroit_cleveland.track import FINISH, OFF_TRACK

GAME = DetroitCleveland()
FIGURES_TRACK = str(Path(__file__).with_name("figures-track.json"))
Y, B, G, K, R, O = range(6)  # noqa: E741
CAR = {"yellow": Y, "blue": B, "green": G, "black": K, "red": R, "orange": O}


def options(**raw: Any) -> DetroitClevelandOptions:
    """Parse options as a user's would be."""
    return GAME.parse_options(raw)


def figures_options(**raw: Any) -> DetroitClevelandOptions:
    """Options of a match on the small track that rebuilds the rulebook's figures."""
    return GAME.parse_options({"track": FIGURES_TRACK, **raw})


def race_state(
    opts: DetroitClevelandOptions,
    at: dict[str, str],
    hands: dict[int, tuple[int, ...]],
    *,
    players: int = 2,
    owner: dict[str, int] | None = None,
    first: int = 0,
    finished: tuple[str, ...] = (),
    switches: tuple[Switch, ...] = (),
) -> DetroitClevelandState:
    """Return a race in progress: cars on the named spaces (or ``finish``), seat ``first`` to play."""
    track = track_of(opts)
    positions = [OFF_TRACK] * 6
    for name, space in at.items():
        positions[CAR[name]] = FINISH if space == "finish" else track.index[space]
    for name in finished:
        positions[CAR[name]] = FINISH
    owners = [-1] * 6
    for name, seat in (owner or {}).items():
        owners[CAR[name]] = seat
    return DetroitClevelandState(
        options=opts,
        players=players,
        money=(data.STARTING_MONEY,) * players,
        phase="race",
        hands=tuple(tuple(sorted(hands.get(s, ()))) for s in range(players)),
        owner=tuple(owners),
        positions=tuple(positions),
        start_order=tuple(range(6)),
        order=tuple((first + k) % players for k in range(players)),
        finished=tuple(CAR[n] for n in finished),
        switches=switches,
        passed=(False,) * players,
    )


def space(opts: DetroitClevelandOptions, state: DetroitClevelandState, car: int) -> str:
    """Return the id of the space a car stands on, or ``finish``."""
    position = state.positions[car]
    return "finish" if position == FINISH else track_of(opts).ids[position]


def act(
    state: DetroitClevelandState, seat: int, action: DetroitClevelandAction
) -> tuple[DetroitClevelandState, list[DetroitClevelandEvent]]:
    """Let ``seat`` take ``action``; return the state after it and every event it caused."""
    turn = apply(GAME, state, seat, action)
    return turn.state, turn.events


def consequences(state: DetroitClevelandState) -> list[DetroitClevelandEvent]:
    """Return what follows from ``state`` with no decision to make."""
    turn: Turn[DetroitClevelandState, DetroitClevelandEvent] = Turn(GAME, state, NO_CHANCE)
    while GAME.follow(turn):
        pass
    return turn.events


def deal(
    opts: DetroitClevelandOptions,
    players: int,
    *,
    bidding: tuple[int, ...] = (Y, B, G, K, R, O),
    dealer: int = 0,
    hands: tuple[tuple[int, ...], ...] | None = None,
    money: tuple[int, ...] | None = None,
) -> DetroitClevelandState:
    """Return the state once the cards are dealt and the first car is up for auction."""
    state = GAME.initial_state(opts, players)
    if money is not None:
        state = replace(state, money=money)
    if hands is None:
        deck = list(data.RACE_DECK)
        hands = tuple(tuple(deck[s::players]) for s in range(players))
    turn: Turn[DetroitClevelandState, DetroitClevelandEvent] = Turn(GAME, state, NO_CHANCE)
    turn.emit(RaceDealt(race=0, dealer=dealer, hands=hands, bidding=bidding))
    while GAME.follow(turn):
        pass
    return turn.state


def engine(state: DetroitClevelandState, seed: int = 0) -> DetroitClevelandState:
    """Let the engine act once (the deal), with a seeded generator."""
    dealt: DetroitClevelandState = apply(GAME, state, ENGINE, None, random.Random(seed)).state
    return dealt


def sell(state: DetroitClevelandState, buyer: int, amount: int = 10_000) -> DetroitClevelandState:
    """Let ``buyer`` bid ``amount`` and every other seat pass until the car on offer is sold."""
    car = state.offer
    while state.offer == car and state.phase == "auction":
        seat = state.bidder
        state, _ = act(state, seat, Bid(amount=amount) if seat == buyer else Pass())
    assert state.owner[car] == buyer
    return state


def auction_to_race(players: int, buyers: tuple[int, ...], **raw: Any) -> DetroitClevelandState:
    """Return the race about to start once ``buyers`` bought the six cars in turn."""
    state = deal(options(**raw), players)
    for buyer in buyers:
        state = sell(state, buyer)
    return state


SPREAD = {
    "yellow": "jefferson:1L",
    "blue": "jefferson:1C",
    "green": "jefferson:1R",
    "black": "atwater:1L",
    "red": "atwater:1C",
    "orange": "atwater:1R",
}
"""Six cars with open road ahead of each of them (on Detroit)."""
BOXED = {
    "green": "pipe1:1C",
    "black": "pipe1:2C",
    "yellow": "pipe1:3C",
    "orange": "jefferson:1L",
}
"""Green stuck behind black, black behind yellow, on Detroit's first single-lane pipe."""


def play_card(
    state: DetroitClevelandState,
    seat: int,
    card: int,
    choose: Callable[[Sequence[Any]], DetroitClevelandAction] = lambda moves: moves[0],
) -> tuple[DetroitClevelandState, list[DetroitClevelandEvent]]:
    """Play ``card`` and choose each car's destination with ``choose``; return moves made."""
    state, events = act(state, seat, Play(card=card))
    made: list[DetroitClevelandEvent] = [e for e in events if isinstance(e, CarMoved | CarSkipped)]
    while state.card == card:
        moves = GAME.legal_actions(state, seat)
        state, events = act(state, seat, choose(moves))
        made.extend(e for e in events if isinstance(e, CarMoved | CarSkipped))
    return state, made


def random_states(raw: dict[str, Any], players: int, seed: int) -> Iterator[DetroitClevelandState]:
    """Yield the state before every decision of a match between random seats."""
    opts = options(**raw)
    state = GAME.initial_state(opts, players)
    pick = random.Random(seed)
    events = 0
    while not (step := GAME.next_step(state)).over:
        if step.engine:
            turn = apply(GAME, state, ENGINE, None, engine_stream(seed, events))
        else:
            yield state
            legal = GAME.legal_actions(state, step.seats[0])
            turn = apply(GAME, state, step.seats[0], legal[pick.randrange(len(legal))])
        events += len(turn.events)
        state = turn.state
