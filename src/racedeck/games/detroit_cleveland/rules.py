"""Detroit-Cleveland Grand Prix's rules: the table of contents.

A match is three races. Before each race the cards are dealt and the six cars are
auctioned in the order the bidding deck turns them up; then, starting with the owner of
car #1, each player in turn plays a card: a movement card moves the cars it lists, top to
bottom, as far as its counts allow (the player choosing each car's destination), a switch
card swaps two colours until the end of its player's next turn. Cars crossing the finish
line win prize money for their owners; the richest player after the last race wins.

Each rule lives in the module named after its rulebook section:

- The Setup: ``setup``; Race Preparation (the deal): ``race_preparation``;
- Bidding for Cars: ``auction``;
- The Cards: ``movement_cards`` (movement cards and the white car), ``switch_cards``;
- Running the Race: ``turn_order`` (who plays, the end of a turn), ``running_the_race``
  (a card every turn, the hand shown), ``movement`` (how a car moves);
- Winning the Race: ``race_end`` (places, the end of a race), ``prizes``;
- Winning the Game: ``championship``; Tournament Rules: ``tournament_rules``;
- Optional Rules: ``optional_rules``.

A seat's action emits its event, then every consequence that needs no decision (the next
car offered, a sale, a car with a single destination, a hand with no playable card, the
end of a race), each computed from the state after the events before it. The engine's
only turn is the deal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, cast

from racedeck.core.errors import unknown_event
from racedeck.core.game import Capabilities, Game, OptionRange, Presentation, Score, redeals
from racedeck.core.model import ENGINE, ENGINE_STEP, MATCH_OVER, Result, Step
from racedeck.core.rng import Rng
from racedeck.core.step import Turn
from racedeck.games.detroit_cleveland import (
    auction,
    championship,
    movement_cards,
    names,
    observation,
    optional_rules,
    race_end,
    race_preparation,
    running_the_race,
    sampling,
    setup,
    turn_order,
)
from racedeck.games.detroit_cleveland.actions import (
    Bid,
    Decline,
    DetroitClevelandAction,
    Move,
    Pass,
    Play,
)
from racedeck.games.detroit_cleveland.events import (
    BidMade,
    BidPassed,
    CarBought,
    CardPlayed,
    CarMoved,
    CarOffered,
    CarRefused,
    CarSkipped,
    CarUnowned,
    DetroitClevelandEvent,
    HandRevealed,
    RaceDealt,
    RaceEnded,
    RaceStarted,
    TurnDeclined,
)
from racedeck.games.detroit_cleveland.options import (
    DetroitClevelandOptions,
    check_options,
    track_of,
    with_track,
)
from racedeck.games.detroit_cleveland.render import render
from racedeck.games.detroit_cleveland.state import (
    DetroitClevelandObservation,
    DetroitClevelandState,
)
from racedeck.games.detroit_cleveland.track import FINISH_ID

__all__ = ["FINISH_ID", "DetroitCleveland", "track_of"]

State = DetroitClevelandState
Event = DetroitClevelandEvent
Action = DetroitClevelandAction


class DetroitCleveland(
    Game[
        DetroitClevelandState,
        DetroitClevelandAction,
        DetroitClevelandEvent,
        DetroitClevelandObservation,
        DetroitClevelandOptions,
    ]
):
    """Detroit-Cleveland Grand Prix for 2-6 players."""

    name = "detroit-cleveland"
    title = "Detroit-Cleveland Grand Prix"
    rules_version = "1"
    min_players = 2
    max_players = 6
    options_type = DetroitClevelandOptions
    event_type = DetroitClevelandEvent
    action_type = DetroitClevelandAction
    state_type = DetroitClevelandState
    observation_type = DetroitClevelandObservation
    scores = (Score(name="dollars"),)
    presentation = Presentation(render=render, describe=names.describe)
    """The track with the cars, the auction or race, the hands and the money."""
    capabilities = Capabilities(sampling=True, evaluation=True, hidden_information=True)
    conformance_options = (
        {"races": 1},
        {"races": 2, "track": "cleveland", "tournament_seating": True},
        {"races": 1, "ten_counts_in_deck": True, "white_own_car": True},
        {
            "races": 1,
            "no_car_limit": True,
            "no_car_required": True,
            "may_stop_when_finished": True,
        },
    )

    option_ranges = (
        OptionRange("track", ("detroit", "cleveland")),
        OptionRange("track_data", (None,)),
        OptionRange("track_hash", ("",)),
        OptionRange.between("races", 1, 100),
        OptionRange("tournament_seating", (False, True)),
        OptionRange("ten_counts_in_deck", (False, True)),
        OptionRange("no_car_limit", (False, True)),
        OptionRange("no_car_required", (False, True)),
        OptionRange("white_own_car", (False, True)),
        OptionRange("may_stop_when_finished", (False, True)),
    )

    # Options ----------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> DetroitClevelandOptions:
        """Build the options; a track file's content and hash are copied into them."""
        options = with_track(self.convert_options(raw))
        self.check_options(options)
        return options

    def check_options(self, options: DetroitClevelandOptions) -> None:
        """Reject option values the rules cannot play."""
        check_options(options)

    # Who acts, and what they may do --------------------------------------------------------
    def set_up(self, options: DetroitClevelandOptions, players: int) -> State:
        """Return the match before the first deal (The Setup)."""
        return setup.initial_state(options, players)

    def next_step(self, state: State) -> Step:
        """Return who acts: the engine deals, one seat bids or plays, or nobody."""
        phase = state.phase
        if phase == "race":
            return Step((state.order[state.turn % state.players],))
        if phase == "auction":
            return Step((state.bidder,))
        if phase == "deal":
            return ENGINE_STEP
        return MATCH_OVER

    def to_act(self, state: State) -> int:
        """Return the seat that must decide now, or -1."""
        return turn_order.to_act(state)

    def legal_actions(self, state: State, seat: int) -> Sequence[Action]:
        """Return every legal action of ``seat``, in a fixed order."""
        phase = state.phase
        if phase == "race":
            if seat != state.order[state.turn % state.players]:
                return ()
            if state.card >= 0:
                return movement_cards.legal_moves(state)
            return running_the_race.legal_plays(state, seat)
        if phase == "auction" and seat == state.bidder:
            return auction.legal_bids(state, seat)
        return ()

    def explain_illegal(self, state: State, seat: int, action: object) -> str:
        """Say which rule ``action`` breaks."""
        if not isinstance(action, Bid | Pass | Play | Move | Decline):
            return f"{type(action).__name__} is not a Detroit-Cleveland action"
        acting = turn_order.to_act(state)
        if acting != seat:
            who = f"seat {acting}" if acting >= 0 else "the engine"
            return f"seat {seat} is not to act in phase {state.phase!r}; {who} is"
        if state.phase == "auction":
            return auction.why_illegal(state, seat, action)
        return running_the_race.why_illegal(state, seat, action)

    # What happens --------------------------------------------------------------------------
    def take(self, turn: Turn[State, Event], actor: int, action: Action | None) -> None:
        """Emit the deal (the engine's turn) or a seat's action."""
        if actor == ENGINE:
            race_preparation.deal(turn)
        else:
            turn.emit(_first_event(turn.state, actor, action))

    def follow(self, turn: Turn[State, Event]) -> bool:
        """Emit what follows without a decision from the state the turn reached, if anything.

        The auction's (``auction.consequence``: an offer, a sale) or the race's
        (``running_the_race.consequence``: a skipped car, a shown hand, the race's end).
        """
        state = turn.state
        phase = state.phase
        if phase == "race":
            event: Event | None = running_the_race.consequence(state)
        elif phase == "auction":
            event = auction.consequence(state)
        else:
            return False
        if event is None:
            return False
        turn.emit(event)
        return True

    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into the state: each kind by the rule it belongs to."""
        match event:
            case CarMoved():
                return movement_cards.car_moved(state, event)
            case CardPlayed():
                return running_the_race.card_played(state, event)
            case CarSkipped():
                return movement_cards.car_skipped(state, event)
            case HandRevealed():
                return running_the_race.hand_revealed(state, event)
            case TurnDeclined():
                return optional_rules.turn_declined(state, event)
            case BidMade():
                return auction.bid_made(state, event)
            case BidPassed():
                return auction.bid_passed(state, event)
            case CarOffered():
                return auction.car_offered(state, event)
            case CarBought():
                return auction.car_bought(state, event)
            case CarRefused():
                return auction.car_refused(state, event)
            case CarUnowned():
                return auction.car_unowned(state, event)
            case RaceStarted():
                return turn_order.race_started(state, event)
            case RaceDealt():
                return race_preparation.dealt(state, event)
            case RaceEnded():
                return race_end.ended(state, event)
            case _:
                unknown_event(event)

    # Views ---------------------------------------------------------------------------------
    def observe(self, state: State, seat: int) -> DetroitClevelandObservation:
        """Return what ``seat`` knows: its own hand, shown hands and every public fact."""
        return observation.observe(state, seat)

    def hidden_variants(self, state: State, seat: int, rng: Rng) -> State | None:
        """Redeal the cards ``seat`` cannot see among the other hands, sizes kept."""
        return sampling.hidden_variants(state, seat, rng)

    def sample_states(
        self,
        observation: DetroitClevelandObservation,
        options: DetroitClevelandOptions,
        seat: int,
        rng: Rng,
    ) -> Iterator[State]:
        """Yield deals ``seat`` cannot tell from the truth, endlessly.

        During the auction they are read from the bids seen (``sampling.read_the_bids``):
        a seat that bid high on a car is dealt what moves it. Otherwise, and at two
        players (the other hand is then every card unseen), each is dealt at random.
        """
        state: State = sampling.state_from_observation(observation, options)
        if state.phase == "auction" and state.auction:
            return sampling.read_the_bids(state, seat, rng)
        # Every deal is a state: Detroit-Cleveland always rebuilds one from an observation.
        return cast("Iterator[State]", redeals(state, sampling.hidden_variants, seat, rng))

    def result(self, state: State) -> Result:
        """Rank seats by money: the richest player wins (Winning the Game)."""
        return championship.result(state)

    def estimate(self, state: State) -> Result:
        """Rank seats by their money with the race's prizes paid as the cars stand now."""
        return championship.estimate(state, track_of(state.options))


def _first_event(state: State, seat: int, action: Action | None) -> Event:
    """Return the event a seat's action begins with: its move, card, bid, pass or decline."""
    match action:
        case Move():
            return movement_cards.car_moved_by(state, action)
        case Play():
            return CardPlayed(seat=seat, card=action.card)
        case Bid():
            return BidMade(seat=seat, car=state.offer, amount=action.amount)
        case Pass():
            return BidPassed(seat=seat, car=state.offer)
        case Decline():
            return TurnDeclined(seat=seat)
    raise TypeError(f"not a Detroit-Cleveland action: {action!r}")
