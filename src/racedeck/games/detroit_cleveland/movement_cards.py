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
``movement.reach``; which car a printed colour moves is ``switch_cards``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from msgspec.structs import replace

from racedeck.games.detroit_cleveland.actions import Move
from racedeck.games.detroit_cleveland.data import MOVES, WHITE, WHITE_CARDS
from racedeck.games.detroit_cleveland.events import CarMoved, CarSkipped
from racedeck.games.detroit_cleveland.movement import Positions, destinations, moved, within
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.race_end import crossed_the_line
from racedeck.games.detroit_cleveland.state import DetroitClevelandState, Switch
from racedeck.games.detroit_cleveland.switch_cards import colours_in_force, switch_mapping
from racedeck.games.detroit_cleveland.track import FINISH, FINISH_ID, Track
from racedeck.games.detroit_cleveland.turn_order import end_turn, seat_to_play

State = DetroitClevelandState
Option = tuple[int, int, int]
"""A car's possible move: (car, destination space or ``FINISH``, spaces moved)."""


class CardPlay:
    """One movement card being played: the cars it moves after switches, and the rules for white.

    ``cars[i]`` is the car slot ``i`` moves (``WHITE`` for the wildcard), ``counts[i]``
    how far. ``own`` are the cars of the card's player, which the optional rule lets the
    white car move short of the full count.
    """

    __slots__ = ("cars", "counts", "excluded", "own", "track", "white_own", "white_slot")

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
        self.white_slot = self.cars.index(WHITE) if WHITE in self.cars else -1
        # "the color chosen may not appear elsewhere on the card": after switches, the
        # cars the card actually moves.
        self.excluded = frozenset(c for c in self.cars if c != WHITE)
        self.own = own
        # Optional rule: "The white may be used for moving the player's own car, even if
        # full movement is not possible."
        self.white_own = white_own

    @classmethod
    def for_seat(
        cls,
        track: Track,
        moves: Sequence[tuple[int, int]],
        switches: Sequence[tuple[int, int]],
        owner: Sequence[int],
        seat: int,
        white_own: bool = False,
    ) -> CardPlay:
        """Return a card as ``seat`` plays it: ``switches`` in force, its own cars ``owner``'s."""
        own = frozenset(car for car, holder in enumerate(owner) if holder == seat)
        return cls(track, moves, switch_mapping(switches), own, white_own)

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
        dests, steps, finish_at = destinations(self.track, positions, car, self.counts[slot])
        options = [(car, d, finish_at if d == FINISH else steps) for d in dests]
        if self.white_slot > slot and not self.white_assured(positions, slot):
            options = [o for o in options if self.feasible(moved(positions, car, o[1]), slot + 1)]
        return options

    def white_options(self, positions: Positions, slot: int) -> list[Option]:
        """Return the moves the white car may make: cars not on the card, moving in full."""
        count = self.counts[slot]
        options: list[Option] = []
        for car in range(6):
            if car in self.excluded or positions[car] < 0:
                continue
            dests, steps, finish_at = destinations(self.track, positions, car, count)
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
            _, steps, finish_at = destinations(self.track, positions, car, count)
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
        track = self.track
        paths = within(track, self.counts[white])
        taken: set[int] | None = None
        for car in range(6):
            space = positions[car]
            if car in self.excluded or space < 0:
                continue
            if self.white_own and car in self.own:
                return True
            path = paths[space]
            if not path.isdisjoint(positions):
                continue
            if taken is None:
                taken = set()
                for i in range(slot, white):
                    start = positions[self.cars[i]]
                    if start >= 0:
                        taken |= within(track, self.counts[i])[start]
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
        dests, _, _ = destinations(self.track, positions, car, self.counts[slot])
        return any(self.feasible(moved(positions, car, d), slot + 1) for d in dests)

    def playable(self, positions: Positions) -> bool:
        """Return True when the card can be played: its white move, if any, can be made."""
        return self.white_slot < 0 or self.feasible(positions, 0)


@functools.lru_cache(maxsize=4096)
def card_play_for(
    track: Track,
    card: int,
    switches: tuple[Switch, ...],
    owner: tuple[int, ...],
    seat: int,
    white_own: bool,
) -> CardPlay:
    """Return ``card`` as ``seat`` plays it on ``track`` with ``switches`` in force.

    ``owner`` tells which cars are the seat's, for the optional rule on white and one's
    own car (``white_own``).
    """
    own = frozenset(car for car, holder in enumerate(owner) if holder == seat)
    return CardPlay(track, MOVES[card], colours_in_force(switches), own, white_own)


def card_play(state: State, card: int, seat: int) -> CardPlay:
    """Return ``card`` as ``seat`` would play it now: its cars after switches, its white."""
    options = state.options
    return card_play_for(
        track_of(options), card, state.switches, state.owner, seat, options.white_own_car
    )


def playable(state: State, card: int, seat: int) -> bool:
    """Return True when ``seat`` may play movement card ``card`` now.

    Only a card with the white car can be unplayable: when no car could make its white
    move in full, whatever the cars before it do.
    """
    return card not in WHITE_CARDS or card_play(state, card, seat).playable(state.positions)


def card_started(state: State, card: int) -> State:
    """Put movement card ``card`` in play: its top car moves first."""
    return replace(state, card=card, slot=0)


def _slot_options(state: State) -> tuple[Track, list[Option]]:
    play = card_play(state, state.card, seat_to_play(state))
    return track_of(state.options), play.options(state.positions, state.slot)


def legal_moves(state: State) -> tuple[Move, ...]:
    """Return every legal destination of the card's next car (of each car, for white)."""
    track, options = _slot_options(state)
    space_id = track.space_id
    return tuple(Move(car=car, to=space_id(dest)) for car, dest, _ in options)


def consequence(state: State) -> CarMoved | CarSkipped | None:
    """Return the move of the card's next car when it needs no decision, else None.

    A finished car is skipped; a car with a single legal destination goes there.
    """
    seat = seat_to_play(state)
    play = card_play(state, state.card, seat)
    car = play.cars[state.slot]
    if car != WHITE and state.positions[car] == FINISH:
        return CarSkipped(car=car)
    options = play.options(state.positions, state.slot)
    if len(options) == 1:
        car, dest, steps = options[0]
        return CarMoved(car=car, to=track_of(state.options).space_id(dest), steps=steps)
    if not options:
        return CarSkipped(car=-1)
    return None


def car_moved_by(state: State, action: Move) -> CarMoved:
    """Return the event of the card's player moving a car to the chosen destination."""
    track = track_of(state.options)
    dest = track.space_index(action.to)
    play = card_play(state, state.card, seat_to_play(state))
    count = play.counts[state.slot]
    # The same search that offered the destination tells how far the car went.
    _, steps, finish_at = destinations(track, state.positions, action.car, count)
    return CarMoved(car=action.car, to=action.to, steps=finish_at if dest == FINISH else steps)


def car_moved(state: State, event: CarMoved) -> State:
    """Fold ``CarMoved``: the car stands on its new space (or has crossed the line)."""
    if event.to == FINISH_ID:
        state = crossed_the_line(state, event.car)
    else:
        to = track_of(state.options).index[event.to]
        state = replace(state, positions=moved(state.positions, event.car, to))
    return next_car(state)


def car_skipped(state: State, event: CarSkipped) -> State:
    """Fold ``CarSkipped``: the card's next car does not move."""
    return next_car(state)


def next_car(state: State) -> State:
    """Go on to the card's next car, or end the turn after its last."""
    slot = state.slot + 1
    if slot >= len(MOVES[state.card]):
        return end_turn(state)
    return replace(state, slot=slot)


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
