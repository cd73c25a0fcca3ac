"""Winning the Race: the prize money.

"At the end of each race, the banker pays the owners of the cars the prize money earned by
each car. Prize money for un-owned cards remains in the bank."

"Prize money by finishing position: 1st (Winner's Circle) $200,000, 2nd $150,000, 3rd
$100,000, 4th $60,000, 5th $30,000, 6th $10,000." (Winning the Game: "Cars that do not
finish earn nothing.") The table is ``data.PRIZES``.
"""

from __future__ import annotations

from racedeck.games.detroit_cleveland.data import PRIZES
from racedeck.games.detroit_cleveland.state import DetroitClevelandState


def prizes_won(state: DetroitClevelandState) -> tuple[int, ...]:
    """Return each seat's prize money for the cars that finished, by their places."""
    prizes = [0] * state.players
    owner = state.owner
    for place, car in enumerate(state.finished):
        seat = owner[car]
        if seat >= 0:
            prizes[seat] += PRIZES[place]
    return tuple(prizes)


def paid(money: tuple[int, ...], prizes: tuple[int, ...]) -> tuple[int, ...]:
    """Return each seat's money once the banker has paid its prizes."""
    return tuple(m + p for m, p in zip(money, prizes, strict=True))
