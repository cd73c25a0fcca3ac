"""The Cards: movement cards and the white car.

"A player playing a movement card moves the cars shown on the card the number of spaces
indicated. The cars must be moved in the order listed, top to bottom; all cars listed must
be moved the full number of spaces unless they are blocked by other cars."

"The white car allows the player to choose which color car to move. [...] A car must be
picked that can move the full number of spaces (including moving beyond the finish line,
but excluding cars that have completed the race); and the color chosen may not appear
elsewhere on the card." (Running the Race: "If that is not possible with the selected car,
another car must be chosen or the player must play another card.")

A movement card in play is ``state.card``, its next car ``state.slot``. The card's player
chooses each car's destination (``Move``); a car with a single legal destination moves,
and a finished car is skipped, without a decision. How far a car may go is
``movement.destinations`` (the search ``movement.reach``, looked up by the cars within
reach); which car a printed colour moves is ``switch_cards``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from msgspec.structs import replace

from racedeck.games.detroit_cleveland.actions import Move
from racedeck.games.detroit_cleveland.data import MOVES, WHITE, WHITE_CARDS
from racedeck.games.detroit_cleveland.events import CarMoved, CarSkipped
from racedeck.games.detroit_cleveland.movement import (
    Positions,
    Reach,
    moved,
    reach_past,
    roads,
)
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.race_end import crossed_the_line
from racedeck.games.detroit_cleveland.state import DetroitClevelandState
from racedeck.games.detroit_cleveland.switch_cards import IDENTITY, colours_in_force
from racedeck.games.detroit_cleveland.track import FINISH, FINISH_ID, Track
from racedeck.games.detroit_cleveland.turn_order import end_turn

State = DetroitClevelandState
Option = tuple[int, int, int]
"""A car's possible move: (car, destination space or ``FINISH``, spaces moved)."""
NO_ONE: frozenset[int] = frozenset()
"""No cars: a play's own cars where the optional rule on white is off (they do not matter)."""


class CardPlay:
    """One movement card being played: the cars it moves after switches, and the rules for white.

    ``cars[i]`` is the car slot ``i`` moves (``WHITE`` for the wildcard), ``counts[i]``
    how far. ``own`` are the cars of the card's player, which the optional rule lets the
    white car move short of the full count.
    """

    __slots__ = (
        "cars",
        "counts",
        "excluded",
        "own",
        "roads",
        "track",
        "white_own",
        "white_slot",
    )

    def __init__(
        self,
        track: Track,
        moves: Sequence[tuple[int, int]],
        mapping: Sequence[int],
        own: frozenset[int] = frozenset(),
        white_own: bool = False,
    ) -> None:
        self.track = track
        self.cars = tuple(mapping[colour] for colour, _ in moves)
        self.counts = tuple(count for _, count in moves)
        self.roads = tuple(roads(track, count) for count in self.counts)
        self.white_slot = self.cars.index(WHITE) if WHITE in self.cars else -1
        # "the color chosen may not appear elsewhere on the card": after switches, the
        # cars the card actually moves.
        self.excluded = frozenset(c for c in self.cars if c != WHITE)
        self.own = own
        # Optional rule: "The white may be used for moving the player's own car, even if
        # full movement is not possible."
        self.white_own = white_own

    def reach(self, positions: Positions, car: int, slot: int) -> Reach:
        """Return ``destinations`` of ``car`` moving ``slot``'s count from ``positions``."""
        start = positions[car]
        cone, open_road = self.roads[slot][start]
        if cone.isdisjoint(positions):
            return open_road
        return reach_past(self.track, start, self.counts[slot], cone.intersection(positions))

    def options(self, positions: Positions, slot: int) -> list[Option]:
        """Return every legal (car, destination, steps) of ``slot``; empty if its car finished.

        Before the white slot, only destinations after which the white car can still
        make its move are legal: a card is only played if all of it can be.
        """
        car = self.cars[slot]
        if car == WHITE:
            return self.white_options(positions, slot)
        if positions[car] < 0:
            return []
        dests, steps, finish_at = self.reach(positions, car, slot)
        if self.white_slot > slot and not self.white_assured(positions, slot):
            options: list[Option] = []
            for d in dests:
                if self.feasible(moved(positions, car, d), slot + 1):
                    options.append((car, d, finish_at if d == FINISH else steps))
            return options
        return [(car, d, finish_at if d == FINISH else steps) for d in dests]

    def white_options(self, positions: Positions, slot: int) -> list[Option]:
        """Return the moves the white car may make: cars not on the card, moving in full."""
        count = self.counts[slot]
        options: list[Option] = []
        for car in range(6):
            if car in self.excluded or positions[car] < 0:
                continue
            dests, steps, finish_at = self.reach(positions, car, slot)
            if finish_at or steps == count or (self.white_own and car in self.own):
                options.extend((car, d, finish_at if d == FINISH else steps) for d in dests)
        return options

    def white_possible(self, positions: Positions) -> bool:
        """Return True when some car may take the white move from ``positions``."""
        count = self.counts[self.white_slot]
        for car in range(6):
            if car in self.excluded or positions[car] < 0:
                continue
            if self.white_own and car in self.own:
                return True
            _, steps, finish_at = self.reach(positions, car, self.white_slot)
            if finish_at or steps == count:
                return True
        return False

    def white_assured(self, positions: Positions, slot: int) -> bool:
        """Return True when some car can surely make the white move from ``positions``.

        Surely: whatever the cars of the slots from ``slot`` to the white one do (False
        means it takes a search to tell). Those cars end within their counts' reach of
        where they stand; a car whose path for the white count crosses none of that, nor
        any car, moves in full.
        """
        white = self.white_slot
        paths = self.roads[white]
        taken: set[int] | None = None
        for car in range(6):
            space = positions[car]
            if car in self.excluded or space < 0:
                continue
            if self.white_own and car in self.own:
                return True
            path = paths[space][0]
            if not path.isdisjoint(positions):
                continue
            if taken is None:
                taken = set()
                for i in range(slot, white):
                    start = positions[self.cars[i]]
                    if start >= 0:
                        taken |= self.roads[i][start][0]
            if path.isdisjoint(taken):
                return True
        return False

    def feasible(self, positions: Positions, slot: int) -> bool:
        """Return True when the slots from ``slot`` on can be played through the white one."""
        if slot >= self.white_slot:
            return slot > self.white_slot or self.white_possible(positions)
        if self.white_assured(positions, slot):
            return True
        car = self.cars[slot]
        if positions[car] < 0:
            return self.feasible(positions, slot + 1)
        dests, _, _ = self.reach(positions, car, slot)
        return any(self.feasible(moved(positions, car, d), slot + 1) for d in dests)

    def playable(self, positions: Positions) -> bool:
        """Return True when the card can be played: its white move, if any, can be made."""
        return self.white_slot < 0 or self.feasible(positions, 0)


@functools.lru_cache(maxsize=4096)
def card_play_for(
    track: Track, card: int, mapping: tuple[int, ...], own: frozenset[int], white_own: bool
) -> CardPlay:
    """Return ``card`` played on ``track``, one play object per distinct play.

    ``mapping`` gives the car each colour moves (``switch_cards.colours_in_force``),
    ``own`` the player's cars, ``white_own`` whether the optional rule lets white move
    them short of the full count.
    """
    return CardPlay(track, MOVES[card], mapping, own, white_own)


@functools.lru_cache(maxsize=256)
def slot_options(play: CardPlay, positions: Positions, slot: int) -> tuple[Option, ...]:
    """Return ``play.options(positions, slot)``, worked out once for its askers in a row.

    A car's options are asked for twice running: by ``consequence`` (does the car need a
    decision?) and then by ``legal_moves`` (the decision's actions). A play object and
    positions never change, so the answer is a pure function of them.
    """
    return tuple(play.options(positions, slot))


@functools.lru_cache(maxsize=256)
def own_cars(owner: tuple[int, ...], seat: int) -> frozenset[int]:
    """Return the cars ``seat`` owns."""
    return frozenset(car for car, holder in enumerate(owner) if holder == seat)


def card_play(state: State, card: int, seat: int) -> CardPlay:
    """Return ``card`` as ``seat`` would play it now: its cars after switches, its white."""
    options = state.options
    switches = state.switches
    mapping = colours_in_force(switches) if switches else IDENTITY
    if not options.white_own_car:
        # Whose cars are whose matters only to the optional rule: one play serves all seats.
        return card_play_for(track_of(options), card, mapping, NO_ONE, False)
    return card_play_for(track_of(options), card, mapping, own_cars(state.owner, seat), True)


def playable(state: State, card: int, seat: int) -> bool:
    """Return True when ``seat`` may play movement card ``card`` now.

    Only a card with the white car can be unplayable: when no car could make its white
    move in full, whatever the cars before it do.
    """
    return card not in WHITE_CARDS or card_play(state, card, seat).playable(state.positions)


def card_started(state: State, card: int) -> State:
    """Put movement card ``card`` in play: its top car moves first."""
    return replace(state, card=card, slot=0)


@functools.lru_cache(maxsize=16)
def _move_actions(track: Track) -> tuple[tuple[Move, ...], ...]:
    """Per car, the action of moving it to each destination, indexed by the destination.

    A space's index is its own; ``FINISH`` (-2) indexes from the end, so the move across
    the line closes each row (twice: -1 is no destination).
    """
    rows = []
    for car in range(6):
        across = Move(car=car, to=FINISH_ID)
        rows.append((*(Move(car=car, to=name) for name in track.ids), across, across))
    return tuple(rows)


def _in_play(state: State) -> CardPlay:
    """Return the movement card in play as its player plays it (``card_play``, inlined)."""
    options = state.options
    switches = state.switches
    mapping = colours_in_force(switches) if switches else IDENTITY
    if not options.white_own_car:
        return card_play_for(track_of(options), state.card, mapping, NO_ONE, False)
    own = own_cars(state.owner, state.order[state.turn % state.players])
    return card_play_for(track_of(options), state.card, mapping, own, True)


def legal_moves(state: State) -> tuple[Move, ...]:
    """Return every legal destination of the card's next car (of each car, for white)."""
    play = _in_play(state)
    moves = _move_actions(play.track)
    options = slot_options(play, state.positions, state.slot)
    return tuple([moves[car][dest] for car, dest, _ in options])


def consequence(state: State) -> CarMoved | CarSkipped | None:
    """Return the move of the card's next car when it needs no decision, else None.

    A finished car is skipped; a car with a single legal destination goes there.
    """
    play = _in_play(state)
    car = play.cars[state.slot]
    if car != WHITE and state.positions[car] == FINISH:
        return CarSkipped(car=car)
    # All the options, not just the two that tell a decision is needed: ``legal_moves``
    # asks for them next, from the same positions.
    options = slot_options(play, state.positions, state.slot)
    if len(options) == 1:
        car, dest, steps = options[0]
        return CarMoved(car=car, to=play.track.space_id(dest), steps=steps)
    if not options:
        return CarSkipped(car=-1)
    return None


def car_moved_by(state: State, action: Move) -> CarMoved:
    """Return the event of the card's player moving a car to the chosen destination."""
    play = _in_play(state)
    # The same search that offered the destination tells how far the car went.
    _, steps, finish_at = play.reach(state.positions, action.car, state.slot)
    steps = finish_at if action.to == FINISH_ID else steps
    return CarMoved(car=action.car, to=action.to, steps=steps)


def car_moved(state: State, event: CarMoved) -> State:
    """Fold ``CarMoved``: the car stands on its new space (or has crossed the line)."""
    if event.to == FINISH_ID:
        state = crossed_the_line(state, event.car)
        return next_car(state, state.positions)
    to = track_of(state.options).index[event.to]
    return next_car(state, moved(state.positions, event.car, to))


def car_skipped(state: State, event: CarSkipped) -> State:
    """Fold ``CarSkipped``: the card's next car does not move."""
    return next_car(state, state.positions)


def next_car(state: State, positions: Positions) -> State:
    """Go on to the card's next car with the cars on ``positions``, or end the turn after its last.

    The cars' new places and the next slot are one copy of the state, not two.
    """
    slot = state.slot + 1
    if slot >= len(MOVES[state.card]):
        return end_turn(replace(state, positions=positions))
    return replace(state, positions=positions, slot=slot)


def why_illegal_move(state: State, action: object) -> str:
    """Say why ``action`` is not a legal move of the card in play."""
    if not isinstance(action, Move):
        return f"card #{state.card} is being played: move its next car first"
    return (
        f"{action.to!r} is not a legal destination for car {action.car} on card "
        f"#{state.card}: cars move the full count where possible, forward or "
        "diagonally, never onto or through another car, and the white car must be "
        "a car not on the card that can move the full count"
    )
