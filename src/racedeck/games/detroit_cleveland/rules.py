"""Detroit-Cleveland Grand Prix's rules as a pure decider.

A match is three races. Before each race the cards are dealt and the six cars are
auctioned in the order the bidding deck turns them up; then, starting with the owner of
car #1, each player in turn plays a card: a movement card moves the cars it lists, top to
bottom, as far as its counts allow (the player choosing each car's destination), a switch
card swaps two colours until the end of its player's next turn. Cars crossing the finish
line win prize money for their owners; the richest player after the last race wins.

Consequences that need no decision (the next car offered, a sale once all but one have
passed, the forced purchase, a car with a single destination, a hand with no playable
card) are returned by ``decide`` right after the event that causes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from racedeck.core.errors import IllegalActionError, OptionError
from racedeck.core.game import Game
from racedeck.core.model import ENGINE, ENGINE_STEP, MATCH_OVER, Result, Step, ranks_from_scores
from racedeck.core.rng import Rng
from racedeck.games.detroit_cleveland.actions import (
    Bid,
    Decline,
    DetroitClevelandAction,
    Move,
    Pass,
    Play,
)
from racedeck.games.detroit_cleveland.data import (
    BID_STEP,
    CAR_LIMITS,
    FORCED_PRICE,
    MOVES,
    PRIZES,
    RACE_DECK,
    STARTING_MONEY,
    SWITCHES,
    TEN_COUNT,
    WHITE,
    WHITE_CARDS,
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
from racedeck.games.detroit_cleveland.movement import CardPlay, Option
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions
from racedeck.games.detroit_cleveland.render import describe_race, render_state
from racedeck.games.detroit_cleveland.sampling import state_from_observation
from racedeck.games.detroit_cleveland.state import (
    NO_CARS,
    OFF,
    AuctionEntry,
    DetroitClevelandObservation,
    DetroitClevelandState,
    Switch,
)
from racedeck.games.detroit_cleveland.track import (
    BUILTIN_TRACKS,
    FINISH,
    Track,
    builtin_track,
    builtin_track_hash,
    compile_track,
    read_track_file,
    track_from_data,
    track_hash,
)

State = DetroitClevelandState
Event = DetroitClevelandEvent
FINISH_ID = "finish"


def track_of(options: DetroitClevelandOptions) -> Track:
    """Return the compiled track the options name (built-in, or carried in ``track_data``)."""
    if options.track_data is None:
        return builtin_track(options.track)
    return track_from_data(options.track_data, options.track_hash or track_hash(options.track_data))


def car_limit(players: int, options: DetroitClevelandOptions) -> int:
    """Return the most cars one player may own: 3 with 2 players, 2 with 3-5, 1 with 6."""
    return 6 if options.no_car_limit else CAR_LIMITS[players]


def space_id(track: Track, space: int) -> str:
    """Return the id of a space, or ``finish`` for a car across the line."""
    return FINISH_ID if space == FINISH else track.ids[space]


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _insert(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(sorted((*hand, card)))


def _car_counts(state: State) -> list[int]:
    counts = [0] * state.players
    for seat in state.owner:
        if seat >= 0:
            counts[seat] += 1
    return counts


def _must_sell(state: State, counts: list[int]) -> bool:
    if state.options.no_car_required:
        return False
    left = len(state.bid_deck) + (1 if state.offer >= 0 else 0)
    carless = counts.count(0)
    return carless > 0 and left <= carless


def must_sell(state: State) -> bool:
    """Return True when every car left must go to a player still without one."""
    return _must_sell(state, _car_counts(state))


def active_bidders(state: State) -> list[int]:
    """Return the seats still in the auction of the car on offer, in seat order.

    A seat is out once it has passed, once it owns as many cars as it may, and, when
    every remaining car must go to a player without one, once it owns a car.
    """
    counts = _car_counts(state)
    limit = car_limit(state.players, state.options)
    forced = _must_sell(state, counts)
    passed = state.passed
    return [
        seat
        for seat, owned in enumerate(counts)
        if not passed[seat] and owned < limit and not (forced and owned)
    ]


def _next_active(state: State, start: int, inclusive: bool) -> int:
    """Return the first active bidder clockwise from ``start`` (or after it), or -1."""
    active = active_bidders(state)
    n = state.players
    for k in range(0 if inclusive else 1, n):
        seat = (start + k) % n
        if seat in active:
            return seat
    return -1


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

    def __init__(self) -> None:
        super().__init__()
        self._legal_key: tuple[Any, ...] = ()
        self._legal_value: list[DetroitClevelandAction] = []
        self._plays_key: tuple[Any, ...] = ()
        self._plays_value: list[DetroitClevelandAction] = []
        self._slot_key: tuple[Any, ...] = ()
        self._slot_value: list[Option] = []
        self._slot_moves: list[DetroitClevelandAction] = []
        self._card_plays: dict[tuple[Any, ...], CardPlay] = {}
        self._card_plays_for: DetroitClevelandOptions | None = None
        self._chain: list[tuple[State, Event, State]] = []
        self._chain_at = 0

    # Options ----------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> DetroitClevelandOptions:
        """Build the options; a track file's content and hash are copied into them."""
        options = super().parse_options(raw)
        if options.track_data is not None:
            digest = track_hash(options.track_data)
            if options.track_hash and options.track_hash != digest:
                raise OptionError(
                    f"detroit-cleveland: track_data of track {options.track!r} does not match "
                    f"its track_hash {options.track_hash}: the track was altered"
                )
            compile_track(options.track_data, f"track {options.track!r}")
            return replace(options, track_hash=digest)
        if options.track in BUILTIN_TRACKS:
            digest = builtin_track_hash(options.track)
            if options.track_hash and options.track_hash != digest:
                raise OptionError(
                    f"detroit-cleveland: the built-in track {options.track!r} has changed since "
                    f"this match was set up (hash {options.track_hash}, now {digest})"
                )
            return replace(options, track_hash=digest)
        if not options.track.endswith(".json"):
            raise OptionError(
                f"detroit-cleveland: unknown track {options.track!r}; use a built-in track "
                f"({', '.join(BUILTIN_TRACKS)}) or the path of a .json track file"
            )
        track = read_track_file(options.track)
        return replace(options, track_data=track, track_hash=track_hash(track))

    def check_options(self, options: DetroitClevelandOptions) -> None:
        """Reject option values the rules cannot play."""
        if not 1 <= options.races <= 100:
            raise OptionError(f"detroit-cleveland: races must be 1 to 100, got {options.races}")

    # The contract ------------------------------------------------------------------------
    def initial_state(self, options: DetroitClevelandOptions, players: int) -> State:
        """Return the match before the first deal: $200,000 each, seat 0 deals first."""
        track_of(options)
        return State(options=options, players=players, money=(STARTING_MONEY,) * players)

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
        if state.phase == "race":
            return state.order[state.turn % state.players]
        if state.phase == "auction":
            return state.bidder
        return -1

    def legal_actions(self, state: State, seat: int) -> Sequence[DetroitClevelandAction]:
        """Return every legal action of ``seat``, in a fixed order."""
        if seat != self.to_act(state):
            return []
        if state.phase == "auction":
            money = state.money[seat]
            first = state.high_bid + BID_STEP
            bids: list[DetroitClevelandAction] = [Pass()]
            bids.extend(Bid(amount=a) for a in range(first, money + 1, BID_STEP))
            return bids
        if state.card >= 0:
            self._slot(state)
            return self._slot_moves
        return self._plays(state, seat)

    def _plays(self, state: State, seat: int) -> list[DetroitClevelandAction]:
        """Every playable card of the hand (one of identical cards), then Decline if allowed."""
        key = (state.positions, state.hands[seat], state.switches, state.owner, seat, state.options)
        if key == self._plays_key:
            return self._plays_value
        options = state.options
        positions = state.positions
        actions: list[DetroitClevelandAction] = []
        seen: set[Any] = set()
        for card in state.hands[seat]:
            moves = MOVES.get(card)
            content: Any = moves if moves is not None else SWITCHES[card]
            if content in seen:
                continue
            seen.add(content)
            if card in WHITE_CARDS and not self.card_play(state, card, seat).playable(positions):
                continue
            actions.append(Play(card=card))
        if options.may_stop_when_finished and all(
            positions[c] == FINISH for c in range(6) if state.owner[c] == seat
        ):
            actions.append(Decline())
        self._plays_key = key
        self._plays_value = actions
        return actions

    def card_play(self, state: State, card: int, seat: int) -> CardPlay:
        """Return ``card`` as ``seat`` would play it now: its cars after switches, its white."""
        options = state.options
        if options is not self._card_plays_for or len(self._card_plays) > 4096:
            self._card_plays = {}
            self._card_plays_for = options
        key = (card, state.switches, state.owner, seat)
        play = self._card_plays.get(key)
        if play is None:
            play = CardPlay.for_seat(
                track_of(options).successors,
                MOVES[card],
                [(s.a, s.b) for s in state.switches],
                state.owner,
                seat,
                options.white_own_car,
            )
            self._card_plays[key] = play
        return play

    def _slot(self, state: State) -> list[Option]:
        """Every legal move of the card's next car (the matching actions in ``_slot_moves``)."""
        key = (
            state.positions,
            state.card,
            state.slot,
            state.switches,
            state.owner,
            state.turn,
            state.order,
        )
        if key == self._slot_key and state.options is self._card_plays_for:
            return self._slot_value
        seat = state.order[state.turn % state.players]
        options = self.card_play(state, state.card, seat).options(state.positions, state.slot)
        track = track_of(state.options)
        self._slot_key = key
        self._slot_value = options
        self._slot_moves = [Move(car=car, to=space_id(track, d)) for car, d, _ in options]
        return options

    def resolve(self, turn: Any, actor: int, action: Any) -> None:
        """Transitional: emit what ``decide`` returns."""
        for event in self.decide(turn.state, actor, action, turn.rng):
            turn.emit(event)

    def decide(
        self, state: State, actor: int, action: DetroitClevelandAction | None, rng: Rng
    ) -> list[Event]:
        """Validate a seat's action (or deal, for the engine) and return what follows."""
        if actor == ENGINE:
            if state.phase != "deal":
                raise IllegalActionError(
                    action, ENGINE, f"the engine has nothing to do in phase {state.phase!r}"
                )
            return self.with_consequences(state, [self._deal(state, rng)])
        if action is None:
            raise IllegalActionError(action, actor, "a seat must choose an action")
        legal = self.legal_actions(state, actor)
        if action not in legal and not self._same_as_offered(state, actor, action, legal):
            raise IllegalActionError(action, actor, self._why_illegal(state, actor, action))
        return self.with_consequences(state, self._events_of(state, actor, action))

    def _same_as_offered(
        self,
        state: State,
        seat: int,
        action: DetroitClevelandAction,
        legal: Sequence[DetroitClevelandAction],
    ) -> bool:
        """Return True for a card in the hand identical to an offered one (one is listed)."""
        if not isinstance(action, Play) or action.card not in MOVES:
            return False
        if state.phase != "race" or state.card >= 0 or action.card not in state.hands[seat]:
            return False
        moves = MOVES[action.card]
        return any(isinstance(a, Play) and MOVES.get(a.card) == moves for a in legal)

    def _why_illegal(self, state: State, seat: int, action: DetroitClevelandAction) -> str:
        acting = self.to_act(state)
        if acting != seat:
            who = f"seat {acting}" if acting >= 0 else "the engine"
            return f"seat {seat} is not to act in phase {state.phase!r}; {who} is"
        if state.phase == "auction":
            if not isinstance(action, (Bid, Pass)):
                return "during the auction a player bids or passes"
            assert isinstance(action, Bid)
            if action.amount % BID_STEP:
                return f"all bids are made in increments of ${BID_STEP:,}"
            if action.amount > state.money[seat]:
                return f"a player may not bid more than he has (${state.money[seat]:,})"
            return f"a bid must top the current bid of ${state.high_bid:,}"
        if isinstance(action, (Bid, Pass)):
            return "bids and passes belong to the auction, not the race"
        if state.card >= 0:
            if not isinstance(action, Move):
                return f"card #{state.card} is being played: move its next car first"
            return (
                f"{action.to!r} is not a legal destination for car {action.car} on card "
                f"#{state.card}: cars move the full count where possible, forward or "
                "diagonally, never onto or through another car, and the white car must be "
                "a car not on the card that can move the full count"
            )
        if isinstance(action, Move):
            return "no card is being played: play a card first"
        if isinstance(action, Decline):
            return "a player may only decline once all of his cars have finished (optional rule)"
        assert isinstance(action, Play)
        if action.card not in state.hands[seat]:
            return f"card #{action.card} is not in seat {seat}'s hand"
        return f"card #{action.card} is unplayable: no car can make its white move in full"

    def _events_of(self, state: State, seat: int, action: DetroitClevelandAction) -> list[Event]:
        if isinstance(action, Move):
            to = FINISH if action.to == FINISH_ID else track_of(state.options).index[action.to]
            steps = next(s for car, d, s in self._slot(state) if car == action.car and d == to)
            return [CarMoved(car=action.car, to=action.to, steps=steps)]
        if isinstance(action, Play):
            return [CardPlayed(seat=seat, card=action.card)]
        if isinstance(action, Bid):
            return [BidMade(seat=seat, car=state.offer, amount=action.amount)]
        if isinstance(action, Pass):
            return [BidPassed(seat=seat, car=state.offer)]
        return [TurnDeclined(seat=seat)]

    def with_consequences(self, state: State, events: list[Event]) -> list[Event]:
        """Return ``events`` followed by what follows from them with no decision to make."""
        # The states are kept so that folding the same events again (as the runner does
        # right after) costs a lookup rather than a second evolve.
        evolve = self._evolve
        chain = []
        for event in events:
            after = evolve(state, event)
            chain.append((state, event, after))
            state = after
        while True:
            more = self._automatic(state)
            if not more:
                self._chain = chain
                self._chain_at = 0
                return events
            for event in more:
                after = evolve(state, event)
                chain.append((state, event, after))
                state = after
            events.extend(more)

    def _automatic(self, state: State) -> list[Event]:
        phase = state.phase
        if phase == "race":
            return self._race_automatic(state)
        if phase == "auction":
            return self._auction_automatic(state)
        return []

    def _auction_automatic(self, state: State) -> list[Event]:
        car = state.offer
        if car < 0:
            if not state.bid_deck:
                return [RaceStarted(order=self.turn_order(state))]
            top = state.bid_deck[0]
            return [CarOffered(car=top, again=top in state.refused)]
        active = active_bidders(state)
        position = len(state.start_order) + 1
        if state.high_bidder >= 0:
            if active == [state.high_bidder]:
                seat = state.high_bidder
                return [CarBought(seat=seat, car=car, price=state.high_bid, position=position)]
            return []
        if not active:
            if car in state.refused:
                return [CarUnowned(car=car, position=position)]
            return [CarRefused(car=car)]
        if len(active) == 1 and must_sell(state):
            seat = active[0]
            price = min(FORCED_PRICE, state.money[seat])
            return [CarBought(seat=seat, car=car, price=price, position=position, forced=True)]
        return []

    def turn_order(self, state: State) -> tuple[int, ...]:
        """Return the seats in turn order for the race about to start.

        The owner of car #1 plays first, then play goes clockwise. Under the tournament
        seating rule the owners sit in the order of their best-placed cars instead, and
        players without a car follow, clockwise.
        """
        n = state.players
        owners = [state.owner[car] for car in state.start_order if state.owner[car] >= 0]
        first = owners[0] if owners else state.dealer
        clockwise = [(first + k) % n for k in range(n)]
        if not state.options.tournament_seating:
            return tuple(clockwise)
        seated: list[int] = []
        for seat in owners:
            if seat not in seated:
                seated.append(seat)
        seated.extend(seat for seat in clockwise if seat not in seated)
        return tuple(seated)

    def _race_automatic(self, state: State) -> list[Event]:
        if state.card >= 0:
            seat = state.order[state.turn % state.players]
            car = self.card_play(state, state.card, seat).cars[state.slot]
            if car != WHITE and state.positions[car] == FINISH:
                return [CarSkipped(car=car)]
            options = self._slot(state)
            if len(options) == 1:
                car, dest, steps = options[0]
                track = track_of(state.options)
                return [CarMoved(car=car, to=space_id(track, dest), steps=steps)]
            if not options:
                return [CarSkipped(car=-1)]
            return []
        n = state.players
        if (
            len(state.finished) == 6
            or not any(state.hands)
            or (state.passes >= n and not state.switches)
        ):
            return [self._race_end(state)]
        seat = state.order[state.turn % n]
        if not any(isinstance(p, Play) for p in self._plays(state, seat)):
            return [HandRevealed(seat=seat, cards=state.hands[seat])]
        return []

    def _race_end(self, state: State) -> RaceEnded:
        prizes = [0] * state.players
        for place, car in enumerate(state.finished):
            seat = state.owner[car]
            if seat >= 0:
                prizes[seat] += PRIZES[place]
        winner = state.owner[state.finished[0]] if state.finished else -1
        dealer = winner if winner >= 0 else (state.dealer + 1) % state.players
        return RaceEnded(
            race=state.race, places=state.finished, prizes=tuple(prizes), next_dealer=dealer
        )

    def _deal(self, state: State, rng: Rng) -> RaceDealt:
        deck = list(RACE_DECK)
        if state.options.ten_counts_in_deck:
            deck.extend(TEN_COUNT)
            deck.sort()
        rng.shuffle(deck)
        n = state.players
        hands: list[list[int]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):
            hands[(state.dealer + 1 + i) % n].append(card)
        bidding = list(range(6))
        rng.shuffle(bidding)
        return RaceDealt(
            race=state.race,
            dealer=state.dealer,
            hands=tuple(tuple(sorted(h)) for h in hands),
            bidding=tuple(bidding),
        )

    # Evolve ------------------------------------------------------------------------------
    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into the state."""
        chain = self._chain
        at = self._chain_at
        if at < len(chain):
            before, known, after = chain[at]
            if before is state and known is event:
                self._chain_at = at + 1
                return after
        return self._evolve(state, event)

    def _evolve(self, state: State, event: Event) -> State:
        kind = type(event)
        if kind is CarMoved:
            assert isinstance(event, CarMoved)
            if event.to == FINISH_ID:
                state = replace(
                    state,
                    positions=_set(state.positions, event.car, FINISH),
                    finished=(*state.finished, event.car),
                )
            else:
                to = track_of(state.options).index[event.to]
                state = replace(state, positions=_set(state.positions, event.car, to))
            return self._next_slot(state)
        if kind is CardPlayed:
            assert isinstance(event, CardPlayed)
            seat = event.seat
            state = replace(
                state,
                hands=_set(state.hands, seat, _remove(state.hands[seat], event.card)),
                played=(*state.played, event.card),
                passes=0,
            )
            pair = SWITCHES.get(event.card)
            if pair is None:
                return replace(state, card=event.card, slot=0)
            switch = Switch(a=pair[0], b=pair[1], seat=seat, until=state.turn + state.players)
            return _end_turn(replace(state, switches=(*state.switches, switch)))
        if kind is BidMade:
            assert isinstance(event, BidMade)
            state = replace(
                state,
                high_bid=event.amount,
                high_bidder=event.seat,
                auction=(*state.auction, AuctionEntry(event.car, event.seat, event.amount)),
            )
            return replace(state, bidder=_next_active(state, event.seat, False))
        if kind is BidPassed:
            assert isinstance(event, BidPassed)
            state = replace(
                state,
                passed=_set(state.passed, event.seat, True),
                auction=(*state.auction, AuctionEntry(event.car, event.seat, 0)),
            )
            return replace(state, bidder=_next_active(state, event.seat, False))
        if kind is CarSkipped:
            return self._next_slot(state)
        if kind is HandRevealed:
            assert isinstance(event, HandRevealed)
            revealed = state.revealed
            if event.seat not in revealed:
                revealed = (*revealed, event.seat)
            return _end_turn(replace(state, revealed=revealed, passes=state.passes + 1))
        if kind is TurnDeclined:
            return _end_turn(replace(state, passes=state.passes + 1))
        if kind is CarOffered:
            assert isinstance(event, CarOffered)
            state = replace(
                state,
                offer=event.car,
                bid_deck=state.bid_deck[1:],
                high_bid=0,
                high_bidder=-1,
                passed=(False,) * state.players,
            )
            last = state.last_buyer
            starter = state.dealer if last < 0 else (last + 1) % state.players
            return replace(state, bidder=_next_active(state, starter, True))
        if kind is CarBought:
            assert isinstance(event, CarBought)
            seat, car = event.seat, event.car
            hands = state.hands
            if not state.options.ten_counts_in_deck:
                hands = _set(hands, seat, _insert(hands[seat], TEN_COUNT[car]))
            start = track_of(state.options).start[event.position - 1]
            return replace(
                state,
                owner=_set(state.owner, car, seat),
                money=_set(state.money, seat, state.money[seat] - event.price),
                positions=_set(state.positions, car, start),
                start_order=(*state.start_order, car),
                hands=hands,
                last_buyer=seat,
                offer=-1,
                bidder=-1,
            )
        if kind is CarRefused:
            assert isinstance(event, CarRefused)
            return replace(
                state,
                bid_deck=(*state.bid_deck, event.car),
                refused=(*state.refused, event.car),
                offer=-1,
                bidder=-1,
            )
        if kind is CarUnowned:
            assert isinstance(event, CarUnowned)
            start = track_of(state.options).start[event.position - 1]
            return replace(
                state,
                positions=_set(state.positions, event.car, start),
                start_order=(*state.start_order, event.car),
                offer=-1,
                bidder=-1,
            )
        if kind is RaceStarted:
            assert isinstance(event, RaceStarted)
            return replace(state, phase="race", order=event.order, turn=0, passes=0)
        if kind is RaceDealt:
            assert isinstance(event, RaceDealt)
            return replace(
                state,
                phase="auction",
                race=event.race,
                dealer=event.dealer,
                hands=event.hands,
                bid_deck=event.bidding,
                owner=NO_CARS,
                positions=OFF,
                start_order=(),
                refused=(),
                offer=-1,
                high_bid=0,
                high_bidder=-1,
                passed=(False,) * state.players,
                bidder=-1,
                last_buyer=-1,
                auction=(),
                order=(),
                turn=0,
                passes=0,
                card=-1,
                slot=0,
                switches=(),
                played=(),
                revealed=(),
                finished=(),
            )
        if kind is RaceEnded:
            assert isinstance(event, RaceEnded)
            race = state.race + 1
            return replace(
                state,
                phase="over" if race >= state.options.races else "deal",
                race=race,
                dealer=event.next_dealer,
                money=tuple(m + p for m, p in zip(state.money, event.prizes, strict=True)),
                results=(*state.results, event.places),
                owners=(*state.owners, state.owner),
                hands=(),
                card=-1,
                switches=(),
            )
        return state

    def _next_slot(self, state: State) -> State:
        slot = state.slot + 1
        if slot >= len(MOVES[state.card]):
            return _end_turn(state)
        return replace(state, slot=slot)

    # Views -------------------------------------------------------------------------------
    def observe(self, state: State, seat: int) -> DetroitClevelandObservation:
        """Return what ``seat`` knows: its own hand, shown hands and every public fact."""
        hands = state.hands
        options = state.options
        known: list[tuple[int, ...] | None] = [None] * len(hands)
        if hands:
            known[seat] = hands[seat]
            for other in state.revealed:
                known[other] = hands[other]
        return DetroitClevelandObservation(
            seat=seat,
            players=state.players,
            phase=state.phase,
            race=state.race,
            races=options.races,
            dealer=state.dealer,
            money=state.money,
            owner=state.owner,
            positions=state.positions,
            start_order=state.start_order,
            finished=state.finished,
            hand=hands[seat] if hands else (),
            hands=tuple(known),
            hand_sizes=tuple(map(len, hands)),
            played=state.played,
            offer=state.offer,
            high_bid=state.high_bid,
            high_bidder=state.high_bidder,
            passed=state.passed,
            bidder=state.bidder,
            auction=state.auction,
            refused=state.refused,
            cars_left=len(state.bid_deck),
            order=state.order,
            to_act=self.to_act(state),
            card=state.card,
            slot=state.slot,
            switches=state.switches,
            results=state.results,
            track=options.track,
            track_hash=options.track_hash,
            turn=state.turn,
            passes=state.passes,
            owners=state.owners,
        )

    def hidden_variants(self, state: State, seat: int, rng: Rng) -> State | None:
        """Redeal the cards ``seat`` cannot see among the other hands, sizes kept.

        Shown hands stay as they are, and so do the 10 count cards a buyer took into his
        hand; the face-down part of the bidding deck is shuffled too.
        """
        if not state.hands:
            return None
        known: list[tuple[int, ...]] = []
        pool: list[int] = []
        tens_known = not state.options.ten_counts_in_deck
        for other, hand in enumerate(state.hands):
            if other == seat or other in state.revealed:
                known.append(hand)
                continue
            fixed = tuple(
                TEN_COUNT[car]
                for car in range(6)
                if tens_known and state.owner[car] == other and TEN_COUNT[car] in hand
            )
            known.append(fixed)
            pool.extend(c for c in hand if c not in fixed)
        rng.shuffle(pool)
        hands: list[tuple[int, ...]] = []
        for other, hand in enumerate(state.hands):
            fixed = known[other]
            need = len(hand) - len(fixed)
            dealt, pool = pool[:need], pool[need:]
            hands.append(tuple(sorted((*fixed, *dealt))))
        deck = state.bid_deck
        hidden = sum(1 for car in deck if car not in state.refused)
        top = list(deck[:hidden])
        rng.shuffle(top)
        return replace(state, hands=tuple(hands), bid_deck=(*top, *deck[hidden:]))

    def state_from_observation(
        self, observation: DetroitClevelandObservation, options: DetroitClevelandOptions
    ) -> State:
        """Return a state that gives exactly ``observation``, unseen cards as placeholders."""
        state: State = state_from_observation(observation, options)
        return state

    def render(self, state: State, viewer: int | None = None) -> str:
        """Return the track with the cars, the auction or race, the hands and the money."""
        return render_state(state, track_of(state.options), viewer)

    def result(self, state: State) -> Result:
        """Rank seats by money: the richest player wins."""
        scores = state.money
        summary = [
            describe_race(race, places, state.owners[race])
            for race, places in enumerate(state.results)
        ]
        summary.append("money: " + ", ".join(f"seat {s} ${m:,}" for s, m in enumerate(scores)))
        return Result(
            ranks=ranks_from_scores(scores), scores=scores, unit="dollars", summary=tuple(summary)
        )


def _end_turn(state: State) -> State:
    """Close the turn: the next seat is to play; switches whose time is up end."""
    turn = state.turn
    switches = state.switches
    if switches:
        switches = tuple(s for s in switches if s.until > turn)
    return replace(state, turn=turn + 1, card=-1, slot=0, switches=switches)
