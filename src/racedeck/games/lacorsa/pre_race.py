"""Race Type, Pre-Race and the deal: how many cars each driver races, the deck, its hands.

Rulebook, "Race Type": "Teams' Championship (2-3 players): Each driver operates two
racecars." "Drivers' Championship (4-6 players): Each driver operates one racecar."
"Build the Deck": "Use one suit of cards for each race car in the game." Qualifying, "The
Deal": "Shuffle and deal all the cards in the deck to each racecar face down." The ranks
of the cards are game data (``data``).
"""

from __future__ import annotations

from msgspec.structs import replace

from racedeck.core.step import Turn
from racedeck.games.lacorsa import data
from racedeck.games.lacorsa.data import HAND_SIZE
from racedeck.games.lacorsa.events import LacorsaEvent, RaceDealt
from racedeck.games.lacorsa.options import LacorsaOptions
from racedeck.games.lacorsa.state import LacorsaState


def cars_per_player(players: int) -> int:
    """Two cars each in a teams' championship (2-3 players), one in a drivers' (4-6)."""
    return 2 if players <= 3 else 1


def suits_in_deck(cars: int, options: LacorsaOptions) -> int:
    """One suit per car, plus the extra suit of the 2-player option."""
    return cars + (1 if options.extra_suit else 0)


def deal(turn: Turn[LacorsaState, LacorsaEvent]) -> None:
    """Shuffle the deck and deal every car its hand (the engine's turn before qualifying)."""
    state = turn.state
    cars = len(state.owner)
    cards = list(data.deck(suits_in_deck(cars, state.options)))
    turn.rng.shuffle(cards)
    hands = tuple(tuple(sorted(cards[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(cars))
    turn.emit(RaceDealt(race=state.race, hands=hands))


def dealt(state: LacorsaState, event: RaceDealt) -> LacorsaState:
    """Fold a deal: a fresh race in qualifying, every hand dealt, nothing on the board."""
    cars = len(event.hands)
    return replace(
        state,
        phase="qualify",
        race=event.race,
        hands=event.hands,
        committed=(None,) * cars,
        order=(),
        spaces=(),
        lap=0,
        cursor=0,
        passes=0,
        attacker=-1,
        defender=-1,
        played=(),
        played_by=(),
        qualifying_totals=(),
    )
