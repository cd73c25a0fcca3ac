"""Advantages (ventajas): four per racer, each used once by exhausting it.

Rulebook: "Todos los pilotos disponen para vosotros de cuatro ventajas (habilidades) que
podéis utilizar en cualquier momento de vuestro turno. Con ellas tendréis la posibilidad de
realizar movimientos adicionales y de hacer un poquito la vida imposible al resto de
jugadores." / "Every driver has four advantages (abilities) that can be used at any moment
during your turn. With them you can make extra moves and make life nearly impossible for
the other players."

Each racer has one cancel (it ignores one kind of trap, see ``traps``) and three of the
effects below; the cards are data (``data/wacky_races.json``), the effects are here, each
with who or what it may target and what it does:

- ``move``: one step forward without a card (not one of the turn's three steps);
- ``draw``: two cards;
- ``steal``: a random card of a player's racer within one position;
- ``swap_ahead``: swap places with a racer on the nearest occupied position ahead (not
  the finish);
- ``push_back``: a racer on your position goes back one;
- ``dastardly_back``: Dick Dastardly goes just behind the last racer;
- ``remove_trap``: discard a face-down trap on the position just behind or just ahead;
- ``wild``: the next step's card counts as any terrain;
- ``sawtooth`` (Rufus Ruffcut's, published): swap your tile with the one ahead in the
  same stage; racers stay, traps go with their tiles and trigger at once.

An exhausted advantage is face down; the Gas Station and the A.C.M.E. Laboratory turn the
first exhausted one face up again, the Giant Fly-Swatter the first face-up one down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from msgspec.structs import replace

from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import UseAdvantage
from racedeck.games.wacky_races.circuit import (
    backward_target,
    forward_target,
    in_one_stage,
    leader_order,
    swap,
)
from racedeck.games.wacky_races.dastardly import behind_last
from racedeck.games.wacky_races.data import ADVANTAGE_EFFECTS, FINISH, MAX_STEPS
from racedeck.games.wacky_races.events import (
    AdvantageExhausted,
    AdvantageRefreshed,
    AdvantageUsed,
    CardTaken,
    DastardlyMoved,
    RacerMoved,
    TilesSwapped,
    TrapRemoved,
)
from racedeck.games.wacky_races.movement_cards import draw_cards, reshuffle_size
from racedeck.games.wacky_races.state import WackyState
from racedeck.games.wacky_races.tuples import add_counts, set_at

if TYPE_CHECKING:
    from racedeck.games.wacky_races.resolution import Arrivals, Resolution

USE = tuple(
    tuple(UseAdvantage(advantage=i, target=t) for t in range(-1, data.POSITIONS)) for i in range(4)
)
"""``USE[i][target + 1]``: advantage ``i`` on ``target`` (a car or a position; -1 none)."""

ALONE = tuple((row[0],) for row in USE)
"""``ALONE[i]``: the one use of advantage ``i``, which needs no target."""


# The face-up and face-down cards --------------------------------------------------------------
def first_face_up(mask: int) -> int:
    """Return the first advantage (sheet order) of an exhausted-mask still face up, or -1."""
    for i in range(4):
        if not mask >> i & 1:
            return i
    return -1


def first_exhausted(mask: int) -> int:
    """Return the first exhausted advantage (sheet order) of an exhausted-mask, or -1."""
    for i in range(4):
        if mask >> i & 1:
            return i
    return -1


# Who or what each effect may target now -------------------------------------------------------
Uses = Callable[[WackyState, int, int, int], Sequence[UseAdvantage]]
"""``uses(state, seat, p, i)``: the uses advantage ``i`` of this effect has now, one per
target (``p`` is the seat's position), or none."""

_NONE: tuple[UseAdvantage, ...] = ()


def _move_uses(state: WackyState, seat: int, p: int, i: int) -> Sequence[UseAdvantage]:
    return ALONE[i]


def _draw_uses(state: WackyState, seat: int, p: int, i: int) -> Sequence[UseAdvantage]:
    return ALONE[i] if state.draw or reshuffle_size(state) > 0 else _NONE


def _steal_uses(state: WackyState, seat: int, p: int, i: int) -> Sequence[UseAdvantage]:
    # Only players' racers hold cards; "within one position" is behind, level or ahead.
    pos, hands, use = state.pos, state.hands, USE[i]
    uses = []
    for t in range(state.players):
        if t != seat and hands[t] and -1 <= pos[t] - p <= 1:
            uses.append(use[t + 1])
    return uses


def _swap_ahead_uses(state: WackyState, seat: int, p: int, i: int) -> Sequence[UseAdvantage]:
    # The nearest occupied position ahead (not the finish), then its racers, leader first.
    pos = state.pos
    q = FINISH
    for x in pos:
        if p < x < q:
            q = x
    if q == FINISH:
        return _NONE
    use = USE[i]
    if pos.count(q) == 1:
        return (use[pos.index(q) + 1],)
    return [use[c + 1] for c in leader_order(state, [c for c in range(len(pos)) if pos[c] == q])]


def _push_back_uses(state: WackyState, seat: int, p: int, i: int) -> Sequence[UseAdvantage]:
    pos = state.pos
    if backward_target(pos, p, 1) == p:
        return _NONE  # nowhere to push to
    use = USE[i]
    uses = []
    for c in range(len(pos)):
        if c != seat and pos[c] == p:
            uses.append(use[c + 1])
    return uses


def _dastardly_back_uses(state: WackyState, seat: int, p: int, i: int) -> Sequence[UseAdvantage]:
    return ALONE[i] if state.dastardly > behind_last(state) else _NONE


def _remove_trap_uses(state: WackyState, seat: int, p: int, i: int) -> Sequence[UseAdvantage]:
    traps = state.traps
    behind = p > 0 and traps[p - 1] >= 0
    ahead = p < FINISH and traps[p + 1] >= 0
    if not (behind or ahead):
        return _NONE
    use = USE[i]
    if behind:
        return (use[p], use[p + 2]) if ahead else (use[p],)
    return (use[p + 2],)


def _wild_uses(state: WackyState, seat: int, p: int, i: int) -> Sequence[UseAdvantage]:
    # Only worth a card where a later step needs a terrain: the first step takes any card,
    # and so does a tile without terrain.
    if (
        0 < state.steps < (MAX_STEPS - 1 if state.held else MAX_STEPS)  # the Glue Trap's hold
        and not state.wild
        and state.hands[seat]
        and state.tiles[p] < data.GRID
    ):
        return ALONE[i]
    return _NONE


def _sawtooth_uses(state: WackyState, seat: int, p: int, i: int) -> Sequence[UseAdvantage]:
    return ALONE[i] if in_one_stage(p) else _NONE


_USES: MappingProxyType[str, Uses] = MappingProxyType(
    {
        "move": _move_uses,
        "draw": _draw_uses,
        "steal": _steal_uses,
        "swap_ahead": _swap_ahead_uses,
        "push_back": _push_back_uses,
        "dastardly_back": _dastardly_back_uses,
        "remove_trap": _remove_trap_uses,
        "wild": _wild_uses,
        "sawtooth": _sawtooth_uses,
    }
)

_FACE_UP_CHOOSABLE: tuple[tuple[tuple[tuple[int, Uses], ...], ...], ...] = tuple(
    tuple(
        tuple(
            (i, _USES[effect])
            for i, effect in enumerate(effects)
            if effect != "cancel" and not mask >> i & 1
        )
        for mask in range(16)
    )
    for effects in ADVANTAGE_EFFECTS
)
"""``_FACE_UP_CHOOSABLE[racer][mask]``: the advantages of ``racer`` a seat may use by choice
that the exhausted-mask ``mask`` leaves face up, with their uses (a cancel is used only
when its trap is entered)."""


def advantage_actions(state: WackyState, seat: int) -> list[UseAdvantage]:
    """Return every use of ``seat``'s face-up advantages it can make now, in sheet order."""
    p = state.pos[seat]
    actions: list[UseAdvantage] = []
    for i, uses in _FACE_UP_CHOOSABLE[state.racer_of_seat[seat]][state.exhausted[seat]]:
        actions += uses(state, seat, p, i)
    return actions


def any_usable(state: WackyState, seat: int) -> bool:
    """Return True when ``seat`` can use one of its advantages now."""
    p = state.pos[seat]
    for i, uses in _FACE_UP_CHOOSABLE[state.racer_of_seat[seat]][state.exhausted[seat]]:
        if uses(state, seat, p, i):
            return True
    return False


def why_illegal(state: WackyState, seat: int, action: UseAdvantage) -> str:
    """Say why using this advantage now is refused."""
    if not 0 <= action.advantage < 4:
        return "a racer has advantages 0 to 3"
    if state.exhausted[seat] >> action.advantage & 1:
        return f"advantage {action.advantage} is exhausted"
    effect = ADVANTAGE_EFFECTS[state.racer_of_seat[seat]][action.advantage]
    if effect == "cancel":
        return "a cancelling advantage is used only when its trap is entered"
    return f"advantage {action.advantage} ({effect}) has no use on {action.target} now"


# What each effect does ------------------------------------------------------------------------
Effect = Callable[["Resolution", int, int, WackyState], "Arrivals"]
"""``effect(r, seat, target, before)``: ``before`` is the state before the advantage was used;
it yields the racers it moved, each to meet its new position before it goes on."""

_MOVES_NOBODY: Arrivals = ()
"""What an effect that moves no racer yields."""


def _move(r: Resolution, seat: int, target: int, before: WackyState) -> Arrivals:
    # A step without a card: it lands past full positions and meets the tile like a step.
    to = forward_target(before.pos, before.pos[seat])
    r.emit(RacerMoved(car=seat, to=to, cause="advantage"))
    yield seat, True


def _draw(r: Resolution, seat: int, target: int, before: WackyState) -> Arrivals:
    # Drawn at once from an ordered pile that holds both cards; a shuffle is the engine's.
    r.task("draw", seat, -1, draw_two, needs_chance=len(r.turn.state.draw) < 2)
    return _MOVES_NOBODY


def draw_two(r: Resolution, seat: int, target: int) -> None:
    """Draw the draw advantage's cards (the engine's work when a shuffle is needed)."""
    draw_cards(r, seat, 2)


def _steal(r: Resolution, seat: int, target: int, before: WackyState) -> Arrivals:
    r.task("steal", seat, target, steal_card)
    return _MOVES_NOBODY


def steal_card(r: Resolution, seat: int, target: int) -> None:
    """Take a random card from ``target``'s hand into ``seat``'s (the engine's chance)."""
    hand = r.turn.state.hands[target]
    if hand:
        card = hand[r.chance().randrange(len(hand))]
        r.emit(CardTaken(source=target, taker=seat, card=card, cause="steal"))


def _swap_ahead(r: Resolution, seat: int, target: int, before: WackyState) -> Arrivals:
    return swap(r, seat, target, "swap")


def _push_back(r: Resolution, seat: int, target: int, before: WackyState) -> Arrivals:
    to = backward_target(before.pos, before.pos[seat], 1)
    r.emit(RacerMoved(car=target, to=to, cause="push_back"))
    yield target, False


def _dastardly_back(r: Resolution, seat: int, target: int, before: WackyState) -> Arrivals:
    r.emit(DastardlyMoved(to=behind_last(before), cause="advantage"))
    return _MOVES_NOBODY


def _remove_trap(r: Resolution, seat: int, target: int, before: WackyState) -> Arrivals:
    r.emit(TrapRemoved(position=target, trap=before.traps[target]))
    return _MOVES_NOBODY


def _wild(r: Resolution, seat: int, target: int, before: WackyState) -> Arrivals:
    """Nothing more: ``AdvantageUsed`` sets the turn's wild flag, the next step clears it."""
    return _MOVES_NOBODY


def _sawtooth(r: Resolution, seat: int, target: int, before: WackyState) -> Arrivals:
    p = before.pos[seat]
    r.emit(TilesSwapped(position=p))
    # Racers stay; a trap that came to a racer's position with its tile triggers at once,
    # for the racers there in order of arrival (published: Sawtooth).
    for q in (p, p + 1):
        here = [c for c in range(len(before.field)) if r.turn.state.pos[c] == q]
        for c in leader_order(r.turn.state, here):
            if r.turn.state.traps[q] >= 0 and r.racing:
                yield c, False


_EFFECTS: MappingProxyType[str, Effect] = MappingProxyType(
    {
        "move": _move,
        "draw": _draw,
        "steal": _steal,
        "swap_ahead": _swap_ahead,
        "push_back": _push_back,
        "dastardly_back": _dastardly_back,
        "remove_trap": _remove_trap,
        "wild": _wild,
        "sawtooth": _sawtooth,
    }
)


def use(r: Resolution, seat: int, action: UseAdvantage) -> Arrivals:
    """Exhaust the advantage, then do what it does; yield the racers it moves (``Effect``)."""
    before = r.turn.state
    effect = ADVANTAGE_EFFECTS[before.racer_of_seat[seat]][action.advantage]
    r.emit(AdvantageUsed(seat=seat, advantage=action.advantage, target=action.target))
    return _EFFECTS[effect](r, seat, action.target, before)


# Folding --------------------------------------------------------------------------------------
def on_advantage_used(state: WackyState, e: AdvantageUsed) -> WackyState:
    """Fold: the advantage is turned face down; a wild card's flag holds until the next step."""
    effect = ADVANTAGE_EFFECTS[state.racer_of_seat[e.seat]][e.advantage]
    return replace(
        state,
        exhausted=set_at(state.exhausted, e.seat, state.exhausted[e.seat] | 1 << e.advantage),
        wild=state.wild or effect == "wild",
    )


def on_advantage_exhausted(state: WackyState, e: AdvantageExhausted) -> WackyState:
    """Fold: something else (a trap) turned the advantage face down."""
    mask = state.exhausted[e.seat] | 1 << e.advantage
    return replace(state, exhausted=set_at(state.exhausted, e.seat, mask))


def on_advantage_refreshed(state: WackyState, e: AdvantageRefreshed) -> WackyState:
    """Fold: the advantage is face up again."""
    mask = state.exhausted[e.seat] & ~(1 << e.advantage)
    return replace(state, exhausted=set_at(state.exhausted, e.seat, mask))


def on_trap_removed(state: WackyState, e: TrapRemoved) -> WackyState:
    """Fold: the removed trap is revealed and discarded."""
    return replace(
        state,
        traps=set_at(state.traps, e.position, -1),
        trap_discard=add_counts(state.trap_discard, (e.trap,)),
    )


def on_tiles_swapped(state: WackyState, e: TilesSwapped) -> WackyState:
    """Fold: sawtooth: the tile and the one ahead change places, each with its trap."""
    p = e.position
    tiles, traps = list(state.tiles), list(state.traps)
    tiles[p], tiles[p + 1] = tiles[p + 1], tiles[p]
    traps[p], traps[p + 1] = traps[p + 1], traps[p]
    return replace(state, tiles=tuple(tiles), traps=tuple(traps))
