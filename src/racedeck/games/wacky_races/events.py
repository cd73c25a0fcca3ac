"""Everything that can happen in a Wacky Races match.

Cars are numbered 0-5 within a race: car ``s`` is seat ``s``'s racer for every seat, the
cars after them are the neutral racers. Events carry outcomes (where a racer ended up,
which card was drawn), so folding them never repeats a rule or draws a random number.
"""

from __future__ import annotations

from racedeck.core.model import Event


class RacerChosen(Event, frozen=True, gc=False, tag="racer_chosen"):
    """A seat took a racer."""

    seat: int
    racer: int


class RaceSetUp(Event, frozen=True, gc=False, tag="race_set_up"):
    """A race's circuit was drawn and the field placed on the starting grid.

    ``tiles`` is the tile code of every position, grid to finish; ``field`` the racer of
    every car (players' cars first, then the neutral racers); ``grid`` each car's grid
    position, in the order the cars took their slots.
    """

    race: int
    tiles: tuple[int, ...]
    field: tuple[int, ...]
    grid: tuple[int, ...]
    slot_order: tuple[int, ...]
    first_seat: int
    deck: tuple[int, ...]
    """The shuffled movement deck, drawn from its end."""
    trap_deck: tuple[int, ...]
    """The shuffled trap deck, drawn from its end."""


class CardsDrawn(Event, frozen=True, gc=False, tag="cards_drawn"):
    """A seat drew movement cards from the end of the draw pile into its hand."""

    seat: int
    cards: tuple[int, ...]


class DeckReshuffled(Event, frozen=True, gc=False, tag="deck_reshuffled"):
    """The empty draw pile was replaced by the discard pile but its top card, shuffled."""

    order: tuple[int, ...]


class StepPlayed(Event, frozen=True, gc=False, tag="step_played"):
    """A seat spent ``cards`` from its hand and its racer stepped forward to ``to``."""

    seat: int
    cards: tuple[int, ...]
    to: int


class RacerMoved(Event, frozen=True, gc=False, tag="racer_moved"):
    """A racer was moved other than by its own step; ``cause`` says why."""

    car: int
    to: int
    cause: str


class AdvantageUsed(Event, frozen=True, gc=False, tag="advantage_used"):
    """A seat exhausted one of its advantages to use it."""

    seat: int
    advantage: int
    target: int = -1


class AdvantageExhausted(Event, frozen=True, gc=False, tag="advantage_exhausted"):
    """A seat's advantage was turned face down by something else (a trap)."""

    seat: int
    advantage: int
    cause: str


class AdvantageRefreshed(Event, frozen=True, gc=False, tag="advantage_refreshed"):
    """A seat's exhausted advantage was turned face up again."""

    seat: int
    advantage: int
    cause: str


class GasStationReached(Event, frozen=True, gc=False, tag="gas_station_reached"):
    """The last racer reached the gas station: each seat refreshed one advantage (-1: none)."""

    refreshed: tuple[int, ...]


class TrapSprung(Event, frozen=True, gc=False, tag="trap_sprung"):
    """A racer entered a trap's position: the trap is revealed and discarded.

    ``advantage`` is the racer's advantage that cancelled it (and is now exhausted), or -1
    when the racer suffers the trap.
    """

    car: int
    position: int
    trap: int
    advantage: int = -1


class TrapRemoved(Event, frozen=True, gc=False, tag="trap_removed"):
    """An advantage removed a face-down trap; it is revealed and discarded."""

    position: int
    trap: int


class TrapLaid(Event, frozen=True, gc=False, tag="trap_laid"):
    """Dick Dastardly laid a face-down trap on his position."""

    position: int
    trap: int


class TrapsReshuffled(Event, frozen=True, gc=False, tag="traps_reshuffled"):
    """The trap deck ran out: the discarded traps, shuffled, became the trap deck again."""

    order: tuple[int, ...]


class DastardlyMoved(Event, frozen=True, gc=False, tag="dastardly_moved"):
    """Dick Dastardly and Muttley moved to ``to`` (-1 is the space behind the grid)."""

    to: int
    cause: str


class TilesSwapped(Event, frozen=True, gc=False, tag="tiles_swapped"):
    """Sawtooth swapped the tile at ``position`` with the one ahead; traps went with them."""

    position: int


class CardTaken(Event, frozen=True, gc=False, tag="card_taken"):
    """A card left ``source``'s hand for ``taker``'s (-1: to the discard pile)."""

    source: int
    taker: int
    card: int
    cause: str


class HandDiscarded(Event, frozen=True, gc=False, tag="hand_discarded"):
    """A seat lost cards from its hand to the discard pile."""

    seat: int
    cards: tuple[int, ...]
    cause: str


class Glued(Event, frozen=True, gc=False, tag="glued"):
    """The Glue Trap holds a seat's next turn to two steps; ``on=False`` once it has.

    (Under ``short_turn_hands`` it stops the seat's next refill at two cards instead.)
    """

    seat: int
    on: bool = True


class TaskQueued(Event, frozen=True, gc=False, tag="task_queued"):
    """A seat's action needs chance (a draw, a steal, a magnet): the engine does it next."""

    kind: str
    seat: int
    target: int = -1


class TasksDone(Event, frozen=True, gc=False, tag="tasks_done"):
    """The engine finished the chance work the seats' actions queued."""


class TurnStarted(Event, frozen=True, gc=False, tag="turn_started"):
    """It is ``seat``'s turn, in round ``round`` of the race."""

    seat: int
    round: int


class TurnEnded(Event, frozen=True, gc=False, tag="turn_ended"):
    """A seat's turn ended: by choice, by a trap, or with nothing left to do.

    ``drawn`` are the cards it drew from the end of the draw pile to refill its hand, when
    the pile held them all; otherwise the engine refills it after a shuffle.
    """

    seat: int
    reason: str
    drawn: tuple[int, ...] = ()


class NeutralsMoving(Event, frozen=True, gc=False, tag="neutrals_moving"):
    """The round is over: the neutral racers move."""


class NeutralCardDrawn(Event, frozen=True, gc=False, tag="neutral_card_drawn"):
    """A movement card drawn for the neutral racers; it goes to the discard pile."""

    card: int


class RaceEnded(Event, frozen=True, gc=False, tag="race_ended"):
    """A racer reached the finish: every car's place, and championship points per seat."""

    race: int
    order: tuple[int, ...]
    points: tuple[int, ...]


WackyEvent = (
    RacerChosen
    | RaceSetUp
    | CardsDrawn
    | DeckReshuffled
    | StepPlayed
    | RacerMoved
    | AdvantageUsed
    | AdvantageExhausted
    | AdvantageRefreshed
    | GasStationReached
    | TrapSprung
    | TrapRemoved
    | TrapLaid
    | TrapsReshuffled
    | DastardlyMoved
    | TilesSwapped
    | CardTaken
    | HandDiscarded
    | Glued
    | TaskQueued
    | TasksDone
    | TurnStarted
    | TurnEnded
    | NeutralsMoving
    | NeutralCardDrawn
    | RaceEnded
)
"""Every event of a Wacky Races match: the union ``evolve`` folds."""
