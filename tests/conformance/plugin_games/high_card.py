"""A small game registered as a single-file plugin, so that the conformance suite proves it
holds for plugins' games as it does for the built-in ones.

High Card: the engine deals each seat a hidden hand; every round the seats play one card
face down at once, then the engine reveals them and the highest card scores a point.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import msgspec
from msgspec.structs import replace

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import OptionError, unknown_event
from racedeck.core.game import Capabilities, Game, OptionRange, Presentation, Score, redeals
from racedeck.core.model import (
    ENGINE,
    ENGINE_STEP,
    MATCH_OVER,
    Action,
    Event,
    Observation,
    Options,
    Result,
    Step,
    ranks_from_scores,
)
from racedeck.core.rng import Rng
from racedeck.core.step import Turn
from racedeck.hookspecs import hookimpl

CARDS = 13


class HighCardOptions(Options, frozen=True, kw_only=True):
    """How many cards each seat is dealt, which is also how many rounds are played."""

    hand: int = 4


class Lay(Action, frozen=True, kw_only=True, tag="lay"):
    """Lay one card of the hand face down."""

    card: int


class Dealt(Event, frozen=True, kw_only=True, tag="dealt"):
    """The hands, as the engine dealt them."""

    hands: tuple[tuple[int, ...], ...]


class Laid(Event, frozen=True, kw_only=True, tag="laid"):
    """A seat laid a card face down."""

    seat: int
    card: int


class Revealed(Event, frozen=True, kw_only=True, tag="revealed"):
    """The laid cards were shown; the highest seat (the lowest on a tie) scored."""

    winner: int


HighCardEvent = Dealt | Laid | Revealed


class HighCardState(msgspec.Struct, frozen=True, kw_only=True):
    """The whole match."""

    options: HighCardOptions
    players: int
    hands: tuple[tuple[int, ...], ...] = ()
    laid: tuple[int | None, ...] = ()
    points: tuple[int, ...] = ()
    rounds: int = 0


class HighCardObservation(Observation, frozen=True, kw_only=True, tag="high-card"):
    """One seat's hand, who has laid a card, and the points."""

    seat: int
    hand: tuple[int, ...]
    laid: tuple[bool, ...]
    own_laid: int | None
    points: tuple[int, ...]
    dealt: bool


def _render(state: HighCardState, viewer: int | None = None) -> str:
    """The points, and the hands the viewer may see."""
    hands = [
        " ".join(map(str, h)) if viewer in (None, s) else f"{len(h)} cards"
        for s, h in enumerate(state.hands)
    ]
    return f"points {state.points}; hands {hands}"


class HighCard(Game[HighCardState, Lay, HighCardEvent, HighCardObservation, HighCardOptions]):
    """High Card for 2-4 players."""

    name = "high-card"
    title = "High Card"
    rules_version = "1"
    min_players = 2
    max_players = 4
    options_type = HighCardOptions
    event_type = HighCardEvent
    action_type = Lay
    state_type = HighCardState
    observation_type = HighCardObservation
    scores = (Score(name="points"),)
    presentation = Presentation(render=_render)
    capabilities = Capabilities(sampling=True, hidden_information=True)
    conformance_options = ({}, {"hand": 2})
    option_ranges = (OptionRange.between("hand", 1, CARDS),)

    def check_options(self, options: HighCardOptions) -> None:
        """A hand is 1 to ``CARDS`` cards (the deck has ``CARDS`` a seat)."""
        if not 1 <= options.hand <= CARDS:
            raise OptionError(f"high-card: hand must be 1 to {CARDS}, got {options.hand}")

    def set_up(self, options: HighCardOptions, players: int) -> HighCardState:
        """Return the match before the deal."""
        return HighCardState(options=options, players=players, points=(0,) * players)

    def next_step(self, state: HighCardState) -> Step:
        """The engine deals and reveals; the seats lay their cards at once."""
        if not state.hands or (state.laid and all(c is not None for c in state.laid)):
            return ENGINE_STEP
        if state.rounds >= state.options.hand:
            return MATCH_OVER
        return Step(tuple(s for s, c in enumerate(state.laid) if c is None))

    def legal_actions(self, state: HighCardState, seat: int) -> Sequence[Lay]:
        """Any card of the hand, while the seat has not laid one this round."""
        if seat not in self.next_step(state).seats:
            return ()
        return tuple(Lay(card=c) for c in state.hands[seat])

    def take(
        self, turn: Turn[HighCardState, HighCardEvent], actor: int, action: Lay | None
    ) -> None:
        """Deal, lay, or reveal."""
        state = turn.state
        if actor != ENGINE:
            assert action is not None
            turn.emit(Laid(seat=actor, card=action.card))
        elif not state.hands:
            deck = list(range(CARDS * state.players))
            turn.rng.shuffle(deck)
            size = state.options.hand
            turn.emit(
                Dealt(
                    hands=tuple(
                        tuple(sorted(deck[s * size : (s + 1) * size])) for s in range(state.players)
                    )
                )
            )
        else:
            laid = [c if c is not None else -1 for c in state.laid]
            turn.emit(Revealed(winner=laid.index(max(laid))))

    def evolve(self, state: HighCardState, event: HighCardEvent) -> HighCardState:
        """Fold one event."""
        match event:
            case Dealt():
                return replace(state, hands=event.hands, laid=(None,) * state.players)
            case Laid():
                hands = list(state.hands)
                hands[event.seat] = tuple(c for c in hands[event.seat] if c != event.card)
                laid = list(state.laid)
                laid[event.seat] = event.card
                return replace(state, hands=tuple(hands), laid=tuple(laid))
            case Revealed():
                points = list(state.points)
                points[event.winner] += 1
                return replace(
                    state,
                    points=tuple(points),
                    laid=(None,) * state.players,
                    rounds=state.rounds + 1,
                )
            case _:
                unknown_event(event)

    def observe(self, state: HighCardState, seat: int) -> HighCardObservation:
        """A seat sees its own hand and nobody's laid card."""
        return HighCardObservation(
            seat=seat,
            hand=state.hands[seat] if state.hands else (),
            laid=tuple(c is not None for c in state.laid),
            own_laid=state.laid[seat] if state.laid else None,
            points=state.points,
            dealt=bool(state.hands),
        )

    def sample_states(
        self, observation: HighCardObservation, options: HighCardOptions, seat: int, rng: Rng
    ) -> Iterator[HighCardState | None]:
        """Yield the match rebuilt from one seat's view, the others' cards redealt."""
        return redeals(self.rebuilt(observation, options), self.hidden_variants, seat, rng)

    def rebuilt(self, observation: HighCardObservation, options: HighCardOptions) -> HighCardState:
        """Rebuild the match from one seat's view, the others' cards as placeholders."""
        players = len(observation.points)
        state = HighCardState(options=options, players=players, points=observation.points)
        if not observation.dealt:
            return state
        rounds = sum(observation.points)
        size = options.hand - rounds
        hands = tuple(
            observation.hand if s == observation.seat else (-1,) * (size - observation.laid[s])
            for s in range(players)
        )
        laid = tuple(
            observation.own_laid if s == observation.seat else (-1 if observation.laid[s] else None)
            for s in range(players)
        )
        return replace(state, hands=hands, laid=laid, rounds=rounds)

    def hidden_variants(self, state: HighCardState, seat: int, rng: Rng) -> HighCardState | None:
        """Redeal the other seats' hands and laid cards from the cards ``seat`` has not seen."""
        if not state.hands:
            return None
        seen = set(state.hands[seat]) | {state.laid[seat]} if state.laid else set(state.hands[seat])
        pool = [c for c in range(CARDS * state.players) if c not in seen]
        rng.shuffle(pool)
        hands, laid = list(state.hands), list(state.laid)
        for other in range(state.players):
            if other == seat:
                continue
            size = len(hands[other])
            hands[other], pool = tuple(sorted(pool[:size])), pool[size:]
            if laid[other] is not None:
                laid[other], pool = pool[0], pool[1:]
        return replace(state, hands=tuple(hands), laid=tuple(laid))

    def result(self, state: HighCardState) -> Result:
        """Rank by points."""
        return Result(ranks=ranks_from_scores(state.points), scores=state.points, unit="points")


class Highest(Bot):
    """Lays its highest card."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the last (highest) legal card."""
        return legal[-1]


@hookimpl
def racedeck_register_games(register: Callable[[HighCard], None]) -> None:
    """Register High Card."""
    register(HighCard())


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register its heuristic."""
    register(
        BotSpec(
            name="heuristic",
            factory=Highest,
            description="lays its highest card",
            games=("high-card",),
        )
    )
