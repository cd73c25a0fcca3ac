"""The circuit (El circuito): its positions, the racers on them, and a race's set-up.

Rulebook: "El circuito en el cual transcurre la carrera se divide en: una Parrilla de
salida, desde la que parten los pilotos elegidos por los jugadores, así como Pierre
Nodoyuna y Patán. una primera etapa compuesta por ocho fichas de terreno. una gasolinera
que hace de nexo entre la primera etapa y la segunda etapa. una segunda etapa compuesta
por nueve fichas de terreno, una de las cuales es una ficha de terreno especial [...] la
meta." / "The race track is divided into: a Starting Grid, from which the drivers chosen by
the players start, together with Dick Dastardly and Muttley; a first stage made of eight
terrain tiles; a gas station [...]; a second stage made of nine terrain tiles, one of which
is a special terrain tile [...]; the finish."

And from the players' turns: "En cada una de las casillas de la Parrilla de salida y en
cada una de las fichas de terreno puede haber dos pilotos como mucho" / "Each
starting-grid space and each terrain tile can hold at most two drivers": moving onto a
full position skips it, forwards and (a published ruling) backwards.

Position 0 is the back of the grid and ``data.FINISH`` the finish, which holds any number
of racers. Racers are cars 0-5 within a race: car ``s`` is seat ``s``'s racer, the cars
after the players' are the neutral racers. Where racers share a position, the one that
arrived first (the smaller ``stamp``) is ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import ChooseRacer
from racedeck.games.wacky_races.data import FINISH, GAS, GRID_POSITIONS, SLOTS
from racedeck.games.wacky_races.events import RacerChosen, RacerMoved, RaceSetUp
from racedeck.games.wacky_races.state import WackyState
from racedeck.games.wacky_races.tuples import expand

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Arrivals, Resolution

CHOICES = tuple(ChooseRacer(racer=r) for r in range(len(data.RACER_KEYS)))
"""``CHOICES[r]``: taking racer ``r`` (actions are values, made once)."""


# Positions and slots --------------------------------------------------------------------------
def forward_target(pos: tuple[int, ...], p: int) -> int:
    """Return where a racer on ``p`` lands one step forward: full positions are skipped."""
    t = p + 1
    while t < FINISH and pos.count(t) >= SLOTS:
        t += 1
    return t


def backward_target(pos: tuple[int, ...], p: int, steps: int) -> int:
    """Return where a racer on ``p`` lands ``steps`` back: full positions are skipped too.

    With no free position behind, the racer stays where it is.
    """
    for _ in range(steps):
        t = p - 1
        while t >= 0 and pos.count(t) >= SLOTS:
            t -= 1
        if t < 0:
            break
        p = t
    return p


def leader_order(state: WackyState, cars: Sequence[int]) -> list[int]:
    """Return ``cars`` from the leader back: further ahead first, then who arrived first."""
    pos, stamp = state.pos, state.stamp
    return sorted(cars, key=lambda c: (-pos[c], stamp[c]))


def last_car(state: WackyState, cars: Sequence[int]) -> int:
    """Return the car in last place among ``cars`` (-1 for none)."""
    order = leader_order(state, cars)
    return order[-1] if order else -1


def in_one_stage(p: int) -> bool:
    """Return True when the tiles at ``p`` and ``p + 1`` belong to the same stage."""
    return GRID_POSITIONS <= p < GAS - 1 or GAS < p < FINISH - 1


def swap(r: Resolution, car: int, other: int, cause: str) -> Arrivals:
    """Let ``car`` and ``other`` change places; ``car`` then meets its new position."""
    pos = r.turn.state.pos
    p, q = pos[car], pos[other]
    r.emit(RacerMoved(car=other, to=p, cause=cause))
    r.emit(RacerMoved(car=car, to=q, cause=cause))
    yield car, False


# Choosing the racers --------------------------------------------------------------------------
def racer_choices(state: WackyState) -> tuple[ChooseRacer, ...]:
    """Return the racers nobody has chosen yet: "los pilotos elegidos por los jugadores"."""
    taken = state.racer_of_seat
    return tuple(choice for choice in CHOICES if choice.racer not in taken)


def why_choice_illegal(action: object) -> str:
    """Say why choosing ``action`` now is refused."""
    if not isinstance(action, ChooseRacer):
        return "each seat must first choose its racer"
    return f"racer {action.racer} is unknown or already taken"


# Setting up a race ----------------------------------------------------------------------------
def set_up(r: Resolution) -> None:
    """Draw the circuit's tiles, place the field on the grid and shuffle both decks.

    Stage one is two tiles of each terrain, stage two the same plus the special tile,
    both shuffled from the match seed so that every race can differ. The neutral racers
    are drawn from the racers nobody chose (once: a championship keeps its field). The
    race's first player takes the front slot, then the other players in turn order; the
    neutral racers fill the rest in random order. Every draw here is the engine's, in
    this order, so logs replay exactly.
    """
    s = r.turn.state
    rng = r.chance()
    players = s.players
    stage_one = expand(data.STAGE_ONE_COPIES)
    rng.shuffle(stage_one)
    special = s.options.special_tile
    code = rng.choice(data.SPECIAL_TILES) if special == "random" else data.special_code(special)
    stage_two = [*expand(data.STAGE_TWO_COPIES), code]
    rng.shuffle(stage_two)
    tiles = (
        (data.GRID,) * GRID_POSITIONS
        + tuple(stage_one)
        + (data.GAS_STATION,)
        + tuple(stage_two)
        + (data.FINISH_LINE,)
    )
    field = s.field
    if not field:
        free = [x for x in range(len(data.RACER_KEYS)) if x not in s.racer_of_seat]
        field = s.racer_of_seat + tuple(rng.sample(free, data.FIELD_SIZE - players))
    first = s.race % players
    neutrals = list(range(players, len(field)))
    rng.shuffle(neutrals)
    slot_order = (*((first + k) % players for k in range(players)), *neutrals)
    grid = [0] * len(field)
    for slot, car in enumerate(slot_order):
        grid[car] = GRID_POSITIONS - 1 - slot // SLOTS
    deck = expand(data.DECK)
    rng.shuffle(deck)
    trap_deck = expand(data.TRAP_COPIES)
    rng.shuffle(trap_deck)
    r.emit(
        RaceSetUp(
            race=s.race,
            tiles=tiles,
            field=field,
            grid=tuple(grid),
            slot_order=slot_order,
            first_seat=first,
            deck=tuple(deck),
            trap_deck=tuple(trap_deck),
        )
    )


# Folding --------------------------------------------------------------------------------------
def on_racer_chosen(state: WackyState, e: RacerChosen) -> WackyState:
    """Fold: a seat took its racer; after the last seat, the first race is set up."""
    chosen = (*state.racer_of_seat, e.racer)
    done = len(chosen) == state.players
    return replace(
        state,
        racer_of_seat=chosen,
        active=0 if done else state.active + 1,
        phase="setup" if done else "choose",
    )


def on_race_set_up(state: WackyState, e: RaceSetUp) -> WackyState:
    """Fold: a race's circuit and field are placed; hands are empty until the deal."""
    cars = len(e.field)
    stamp = [0] * cars
    for slot, car in enumerate(e.slot_order):
        stamp[car] = slot
    players = state.players
    return replace(
        state,
        phase="turn",
        race=e.race,
        tiles=e.tiles,
        field=e.field,
        pos=e.grid,
        stamp=tuple(stamp),
        clock=cars,
        dastardly=-1,
        traps=(-1,) * len(e.tiles),
        trap_deck=e.trap_deck,
        trap_discard=(0,) * len(data.TRAP_KEYS),
        hands=((),) * players,
        draw=e.deck,
        discard=(0,) * len(data.DECK),
        top=-1,
        exhausted=(0,) * players,
        glued=(False,) * players,
        first_seat=e.first_seat,
        active=e.first_seat,
        round=0,
        turn_in_round=0,
        steps=0,
        wild=False,
        pending=(),
        gas_done=False,
        finished=(),
    )
