"""Everything that can happen in a Detroit-Cleveland Grand Prix match."""

from __future__ import annotations

from racedeck.core.model import Event


class RaceDealt(Event, frozen=True, tag="race_dealt"):
    """The dealer shuffled and dealt the race cards and shuffled the bidding deck."""

    race: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    bidding: tuple[int, ...]
    """The cars of the bidding deck, top first."""


class CarOffered(Event, frozen=True, tag="car_offered"):
    """The top bidding card was turned over: this car is up for auction."""

    car: int
    again: bool = False
    """True when the car was refused once and comes up from the bottom of the deck."""


class BidMade(Event, frozen=True, tag="bid_made"):
    """A player bid for the car on offer."""

    seat: int
    car: int
    amount: int


class BidPassed(Event, frozen=True, tag="bid_passed"):
    """A player passed on the car on offer; the pass is final for that car."""

    seat: int
    car: int


class CarBought(Event, frozen=True, tag="car_bought"):
    """A player bought the car: it pays, places the car and takes its 10 count card."""

    seat: int
    car: int
    price: int
    position: int
    """The start position, 1 to 6, in the order the cars were placed."""
    forced: bool = False
    """True for the forced purchase by a player still without a car."""


class CarRefused(Event, frozen=True, tag="car_refused"):
    """Nobody bid on the car: its bidding card goes to the bottom of the deck."""

    car: int


class CarUnowned(Event, frozen=True, tag="car_unowned"):
    """Nobody bid on the car a second time: it races unowned, its 10 count card out of play."""

    car: int
    position: int


class RaceStarted(Event, frozen=True, tag="race_started"):
    """Every car is on the grid; ``order`` is the seats in turn order, the first to play first."""

    order: tuple[int, ...]


class CardPlayed(Event, frozen=True, tag="card_played"):
    """A player played a card face up."""

    seat: int
    card: int


class CarMoved(Event, frozen=True, tag="car_moved"):
    """One car of the card in play moved; ``to`` is a space id or ``finish``."""

    car: int
    to: str
    steps: int


class CarSkipped(Event, frozen=True, tag="car_skipped"):
    """A car listed on the card in play had already finished the race and did not move."""

    car: int


class HandRevealed(Event, frozen=True, tag="hand_revealed"):
    """A player with no playable card showed the hand to everyone and passed."""

    seat: int
    cards: tuple[int, ...]


class TurnDeclined(Event, frozen=True, tag="turn_declined"):
    """A player whose cars have all finished chose not to play (optional rule)."""

    seat: int


class RaceEnded(Event, frozen=True, tag="race_ended"):
    """The race ended: the cars in finishing order and the prize money paid to each seat."""

    race: int
    places: tuple[int, ...]
    prizes: tuple[int, ...]
    next_dealer: int


DetroitClevelandEvent = (
    RaceDealt
    | CarOffered
    | BidMade
    | BidPassed
    | CarBought
    | CarRefused
    | CarUnowned
    | RaceStarted
    | CardPlayed
    | CarMoved
    | CarSkipped
    | HandRevealed
    | TurnDeclined
    | RaceEnded
)
