"""Wacky Races' components, loaded from ``data/wacky_races.json`` and checked.

Terrains, movement cards and tiles are small integers so that states stay cheap: a
movement card is its terrain's index (0-3), and a circuit position holds a tile code:
0-3 a terrain tile, then the grid, the gas station, the finish and the four special tiles.
Every item of the data file carries ``source``: ``seed`` (the rulebook),
``published`` (public material about the physical game) or ``proposal`` (designed here).
"""

from __future__ import annotations

from importlib import resources
from typing import Literal

import msgspec

from racedeck.core.data import Source, Tagged, TaggedList
from racedeck.core.errors import DataError

TrapEffect = Literal["lose_turn", "switcheroo", "back", "swat", "magnet", "glue", "hammer"]
"""What a kind of trap does to the racer that suffers it (see ``traps``)."""
AdvantageEffect = Literal[
    "cancel",
    "move",
    "draw",
    "steal",
    "swap_ahead",
    "push_back",
    "dastardly_back",
    "remove_trap",
    "wild",
    "sawtooth",
]
"""What an advantage does (see ``advantages``)."""
SPECIAL_KEYS = ("swamp", "level_crossing", "crossroads", "acme_laboratory")
"""The special tiles of stage two, in tile-code order."""


class Terrain(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of the four terrains of the tiles and the movement cards."""

    key: str
    name: str
    source: Source


class Copies(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How many of each terrain, in terrain order, and where that comes from."""

    copies: list[int]
    source: Source


class Circuit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The shape of the circuit: grid, stage one, gas station, stage two, finish."""

    grid_positions: Tagged
    stage_one_tiles: Tagged
    stage_two_tiles: Tagged
    stage_one_terrain_copies: Copies
    stage_two_terrain_copies: Copies
    stage_two_special_tiles: Tagged


class Special(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A special tile of stage two and what it does."""

    key: str
    name: str
    source: Source
    text: str


class Trap(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A kind of trap card: its effect, a number the effect uses, and its copies."""

    key: str
    name: str
    effect: TrapEffect
    amount: int
    copies: int
    source: Source


class Advantage(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One advantage card of a racer; ``trap`` names the trap a ``cancel`` ignores."""

    name: str
    effect: AdvantageEffect
    trap: str
    source: Source


class Racer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of the ten racers, with its four advantages."""

    key: str
    name: str
    vehicle: str
    source: Source
    advantages: list[Advantage]


class WackyData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole data file."""

    terrains: list[Terrain]
    movement_deck: Copies
    hand_size: Tagged
    max_steps: Tagged
    slots_per_position: Tagged
    field_size: Tagged
    circuit: Circuit
    specials: list[Special]
    traps: list[Trap]
    racers: list[Racer]
    championship_points: TaggedList


def load(raw: bytes, origin: str = "wacky_races.json") -> WackyData:
    """Decode and check Wacky Races' data, raising ``DataError`` with what is wrong."""
    try:
        data = msgspec.json.decode(raw, type=WackyData)
    except msgspec.DecodeError as exc:
        raise DataError(f"{origin}: {exc}") from None
    _check(data, origin)
    return data


def _check(data: WackyData, origin: str) -> None:
    def fail(why: str) -> None:
        raise DataError(f"{origin}: {why}")

    terrains = len(data.terrains)
    if terrains != 4:
        fail(f"expected 4 terrains, found {terrains}")
    circuit = data.circuit
    for label, copies in (
        ("movement_deck", data.movement_deck),
        ("circuit.stage_one_terrain_copies", circuit.stage_one_terrain_copies),
        ("circuit.stage_two_terrain_copies", circuit.stage_two_terrain_copies),
    ):
        if len(copies.copies) != terrains or min(copies.copies) < 0:
            fail(f"{label} must give a count of 0 or more for each of the {terrains} terrains")
    if sum(data.movement_deck.copies) < data.hand_size.value * data.field_size.value:
        fail("movement_deck is too small to deal every hand")
    if sum(circuit.stage_one_terrain_copies.copies) != circuit.stage_one_tiles.value:
        fail("circuit.stage_one_terrain_copies must add up to circuit.stage_one_tiles")
    specials = circuit.stage_two_special_tiles.value
    if sum(circuit.stage_two_terrain_copies.copies) + specials != circuit.stage_two_tiles.value:
        fail("stage two's terrain tiles plus its special tiles must add up to stage_two_tiles")
    if specials != 1:
        fail(f"stage two takes exactly 1 special tile, found {specials}")
    if data.slots_per_position.value < 1 or data.max_steps.value < 1 or data.hand_size.value < 1:
        fail("slots_per_position, max_steps and hand_size must be at least 1")
    field = data.field_size.value
    if circuit.grid_positions.value * data.slots_per_position.value < field:
        fail(f"the grid has fewer slots than the {field} racers of a field")
    if tuple(s.key for s in data.specials) != SPECIAL_KEYS:
        fail(f"specials must be, in order: {', '.join(SPECIAL_KEYS)}")
    trap_keys = [t.key for t in data.traps]
    if len(set(trap_keys)) != len(trap_keys) or not trap_keys:
        fail("trap keys must be present and distinct")
    for trap in data.traps:
        if trap.copies < 1 or trap.amount < 0:
            fail(f"trap {trap.key!r}: copies must be at least 1 and amount 0 or more")
        if trap.effect in ("back", "switcheroo") and trap.amount < 1:
            fail(f"trap {trap.key!r}: a {trap.effect} trap needs an amount of 1 or more")
    if len(data.racers) < field:
        fail(f"expected at least {field} racers, found {len(data.racers)}")
    if len({r.key for r in data.racers}) != len(data.racers):
        fail("racer keys must be distinct")
    for racer in data.racers:
        if len(racer.advantages) != 4:
            fail(f"racer {racer.key!r} has {len(racer.advantages)} advantages; each has 4")
        for adv in racer.advantages:
            if adv.effect == "cancel" and adv.trap not in trap_keys:
                fail(f"racer {racer.key!r}: {adv.name!r} cancels unknown trap {adv.trap!r}")
            if adv.effect != "cancel" and adv.trap:
                fail(f"racer {racer.key!r}: only a cancel advantage names a trap")
    if len(data.championship_points.values) != field:
        fail(f"championship_points must give points for {field} places")


DATA = load(resources.files(__package__).joinpath("data/wacky_races.json").read_bytes())
"""The checked data file."""

TERRAINS: tuple[str, ...] = tuple(t.name for t in DATA.terrains)
"""The four terrains' names, by terrain (a movement card is its terrain's index)."""
DECK: tuple[int, ...] = tuple(DATA.movement_deck.copies)
"""How many movement cards of each terrain the deck holds."""
HAND_SIZE: int = DATA.hand_size.value
"""The cards a player holds at the start of each turn (three)."""
MAX_STEPS: int = DATA.max_steps.value
"""The steps a racer takes with cards in a turn at most (three)."""
SLOTS: int = DATA.slots_per_position.value
"""The racers a position holds at most (two; the finish holds any number)."""
FIELD_SIZE: int = DATA.field_size.value
"""The racers of a race, neutral racers filling the players' field up to it."""
POINTS: tuple[int, ...] = tuple(DATA.championship_points.values)
"""Championship points by place, first to last."""

# Tile codes: 0-3 are the terrains, then these.
GRID = 4
"""Tile code of a starting-grid position."""
GAS_STATION = 5
"""Tile code of the gas station."""
FINISH_LINE = 6
"""Tile code of the finish."""
SWAMP = 7
"""Tile code of the Swamp."""
LEVEL_CROSSING = 8
"""Tile code of the Level Crossing."""
CROSSROADS = 9
"""Tile code of the Crossroads."""
ACME_LABORATORY = 10
"""Tile code of the A.C.M.E. Laboratory."""
SPECIAL_TILES: tuple[int, ...] = (SWAMP, LEVEL_CROSSING, CROSSROADS, ACME_LABORATORY)
"""The tile codes of the special tiles, in ``SPECIAL_KEYS`` order."""
TILE_NAMES: tuple[str, ...] = (
    *TERRAINS,
    "Starting Grid",
    "Gas Station",
    "Finish",
    *(s.name for s in DATA.specials),
)
"""Each tile code's name."""

GRID_POSITIONS: int = DATA.circuit.grid_positions.value
"""How many positions the starting grid has (position 0 is its back)."""
STAGE_ONE: int = DATA.circuit.stage_one_tiles.value
"""How many tiles stage one holds."""
STAGE_TWO: int = DATA.circuit.stage_two_tiles.value
"""How many tiles stage two holds, its special tile included."""
GAS: int = GRID_POSITIONS + STAGE_ONE
"""The gas station's position."""
FINISH: int = GAS + 1 + STAGE_TWO
"""The finish's position, the last of the circuit."""
POSITIONS: int = FINISH + 1
"""How many positions the circuit has, grid to finish."""
STAGE_ONE_COPIES: tuple[int, ...] = tuple(DATA.circuit.stage_one_terrain_copies.copies)
"""Stage one's terrain tiles, per terrain."""
STAGE_TWO_COPIES: tuple[int, ...] = tuple(DATA.circuit.stage_two_terrain_copies.copies)
"""Stage two's terrain tiles, per terrain (the special tile apart)."""

TRAP_KEYS: tuple[str, ...] = tuple(t.key for t in DATA.traps)
"""Each kind of trap's key, by trap index."""
TRAP_NAMES: tuple[str, ...] = tuple(t.name for t in DATA.traps)
"""Each kind of trap's name."""
TRAP_EFFECTS: tuple[str, ...] = tuple(t.effect for t in DATA.traps)
"""Each kind of trap's effect."""
TRAP_AMOUNTS: tuple[int, ...] = tuple(t.amount for t in DATA.traps)
"""The number each kind of trap's effect uses (positions back, for instance)."""
TRAP_COPIES: tuple[int, ...] = tuple(t.copies for t in DATA.traps)
"""How many cards of each kind of trap the trap deck holds."""

RACER_KEYS: tuple[str, ...] = tuple(r.key for r in DATA.racers)
"""Each racer's key, by racer index."""
RACER_NAMES: tuple[str, ...] = tuple(r.name for r in DATA.racers)
"""Each racer's name."""
ADVANTAGE_NAMES: tuple[tuple[str, ...], ...] = tuple(
    tuple(a.name for a in r.advantages) for r in DATA.racers
)
"""Per racer, its four advantages' names in sheet order."""
ADVANTAGE_EFFECTS: tuple[tuple[str, ...], ...] = tuple(
    tuple(a.effect for a in r.advantages) for r in DATA.racers
)
"""Per racer, its four advantages' effects in sheet order."""
CANCELS: tuple[tuple[int, ...], ...] = tuple(
    tuple(TRAP_KEYS.index(a.trap) if a.effect == "cancel" else -1 for a in r.advantages)
    for r in DATA.racers
)
"""Per racer and advantage, the trap index the advantage cancels, or -1."""


def terrain_of(tile: int) -> int:
    """Return a tile's terrain (0-3), or -1 for a tile without one (any card matches there)."""
    return tile if tile < GRID else -1


def special_code(key: str) -> int:
    """Return the tile code of the special tile called ``key``."""
    return SPECIAL_TILES[SPECIAL_KEYS.index(key)]
