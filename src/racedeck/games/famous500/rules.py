"""Famous 500's rules as a pure decider.

Nine Speed cards, three per driver and three face down as the pit deck (a hand of three
cards all above 100 may be redealt). Each driver splits the track's difficulty over a car
sheet. Each section both drivers lay a card face down at once; the higher card earns 2
Speed points and the lower 1, each pays its card's cost for the section's kind, and each
takes the card the other played. On dotted sections a driver may pit instead: draw from
the pit deck, return a card to its bottom and buy repairs with Speed points. Between laps
the trailing driver swaps a card with the pit deck. A column below zero ends the race;
otherwise the most Speed points after the last lap wins, a tie to the faster final card.

The engine shuffles and deals, and tosses a coin for the one tie that needs it; what follows
from a state without a choice (the reveal, a draw from the top of the pit deck, the finish)
is decided with the action that leads to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import msgspec
from msgspec.structs import replace

from racedeck.core.errors import DataError, IllegalActionError, OptionError
from racedeck.core.game import Game
from racedeck.core.model import ENGINE, ENGINE_STEP, MATCH_OVER, Result, Step
from racedeck.core.rng import Rng
from racedeck.games.famous500.actions import (
    Design,
    Discard,
    FalseStart,
    Famous500Action,
    KeepCards,
    LeavePit,
    PitStop,
    Race,
    Repair,
    ReturnCard,
)
from racedeck.games.famous500.data import COLUMNS
from racedeck.games.famous500.events import (
    CardDiscarded,
    CardDrawn,
    CarDesigned,
    CardLaid,
    CardReturned,
    Dealt,
    Famous500Event,
    PitLeft,
    RaceFinished,
    Repaired,
    SectionRevealed,
    StartChosen,
)
from racedeck.games.famous500.options import Famous500Options
from racedeck.games.famous500.race_setup import build_setup, load_named_files
from racedeck.games.famous500.render import render_state
from racedeck.games.famous500.sampling import state_from_observation
from racedeck.games.famous500.state import (
    Car,
    Famous500Observation,
    Famous500State,
    SectionPlayed,
    Setup,
)

SEATS = (0, 1)
_STEPS = {(0,): Step((0,)), (1,): Step((1,)), (0, 1): Step((0, 1)), (): MATCH_OVER}
_STEP_0, _STEP_1, _STEP_1_0 = _STEPS[(0,)], _STEPS[(1,)], _STEPS[(0, 1)]
_FACE_UP_PHASES = frozenset({"pit_draw", "pit_return", "pit_repair"})
"""Phases between the reveal and the swap: cards not laid for a pit stop are face up."""
_OWN_PITS = (((False, False), (True, False)), ((False, False), (False, True)))
"""What a driver sees of the pit declarations before the reveal: its own only."""
_ENGINE_PHASES = frozenset({"deal", "reveal", "pit_draw", "lap_draw", "finish"})
_AUTOMATIC = frozenset({"reveal", "pit_draw", "lap_draw", "finish"})
"""Engine phases whose outcome follows from the state (all but a coin toss)."""
_KEEP = KeepCards()
_FALSE_START = FalseStart()
_LEAVE = LeavePit()
_REPAIRS = (Repair(column=0), Repair(column=1), Repair(column=2))
_NOTHING: tuple[Famous500Action, ...] = ()


class DesignChoices(tuple):  # type: ignore[type-arg]
    """Every car design for one difficulty, with a constant-time membership test."""

    members: frozenset[Design]

    def __contains__(self, item: object) -> bool:
        return item in self.members


_DESIGNS: dict[int, DesignChoices] = {}
_PLAYS: dict[tuple[tuple[int, ...], bool], tuple[Famous500Action, ...]] = {}
_SINGLES: dict[tuple[str, tuple[int, ...]], tuple[Famous500Action, ...]] = {}
_RETURNED: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Pit deck masks (who knows each card) to the seat that put each card there (-1: dealt)."""


def designs(difficulty: int) -> DesignChoices:
    """Return every split of ``difficulty`` over tires, fuel, engine and speed."""
    found = _DESIGNS.get(difficulty)
    if found is None:
        d = difficulty
        found = DesignChoices(
            Design(tires=t, fuel=f, engine=e, speed=d - t - f - e)
            for t in range(d + 1)
            for f in range(d - t + 1)
            for e in range(d - t - f + 1)
        )
        found.members = frozenset(found)
        _DESIGNS[difficulty] = found
    return found


def _plays(hand: tuple[int, ...], pit: bool) -> tuple[Famous500Action, ...]:
    key = (hand, pit)
    found = _PLAYS.get(key)
    if found is None:
        races: list[Famous500Action] = [Race(card=c) for c in hand]
        if pit:
            races.extend(PitStop(card=c) for c in hand)
        found = _PLAYS[key] = tuple(races)
    return found


def _singles(kind: str, hand: tuple[int, ...]) -> tuple[Famous500Action, ...]:
    key = (kind, hand)
    found = _SINGLES.get(key)
    if found is None:
        maker = ReturnCard if kind == "return" else Discard
        found = _SINGLES[key] = tuple(maker(card=c) for c in hand)
    return found


def _add(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(sorted((*hand, card)))


def _remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(c for c in hand if c != card)


def _pair(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (value, values[1]) if seat == 0 else (values[0], value)


def is_out(car: Car) -> bool:
    """Return True when a car's tires, fuel or engine fell below zero."""
    return car[0] < 0 or car[1] < 0 or car[2] < 0


class Famous500(
    Game[Famous500State, Famous500Action, Famous500Event, Famous500Observation, Famous500Options]
):
    """Famous 500, the two-player car racing card game."""

    name = "famous-500"
    title = "Famous 500"
    rules_version = "1"
    min_players = 2
    max_players = 2
    options_type = Famous500Options
    event_type = Famous500Event
    action_type = Famous500Action
    state_type = Famous500State
    observation_type = Famous500Observation
    conformance_options = (
        {},
        {"laps": 1},
        {
            "laps": 2,
            "track": "pits.json",
            "track_data": {
                "name": "Pit lane test",
                "difficulty": 9,
                "sections": [
                    {"kind": "black", "pit": True},
                    {"kind": "grey"},
                    {"kind": "white", "pit": True},
                ],
            },
        },
    )

    def __init__(self) -> None:
        super().__init__()
        self._setups: dict[int, tuple[Famous500Options, Setup]] = {}

    # Options ----------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> Famous500Options:
        """Build the options, reading a named track or card file into the options."""
        try:
            options = msgspec.convert(raw, type=Famous500Options, strict=False)
        except msgspec.ValidationError as exc:
            raise OptionError(f"{self.name}: bad option: {exc}") from None
        options = load_named_files(options)
        self.check_options(options)
        return options

    def check_options(self, options: Famous500Options) -> None:
        """Reject options the rules cannot play, and malformed embedded data."""
        if not 1 <= options.laps <= 20:
            raise OptionError(f"famous-500: laps must be 1 to 20, got {options.laps}")
        try:
            build_setup(options)
        except DataError as exc:
            raise OptionError(f"famous-500: {exc}") from None

    def setup(self, options: Famous500Options) -> Setup:
        """Return the compiled track and card table the options name."""
        return build_setup(options)

    # The contract ------------------------------------------------------------------------
    def initial_state(self, options: Famous500Options, players: int) -> Famous500State:
        """Return the race before the first deal."""
        setup = self._setups.get(id(options))
        if setup is None or setup[0] is not options:
            setup = (options, self.setup(options))
            if len(self._setups) > 64:
                self._setups.clear()
            self._setups[id(options)] = setup
        return Famous500State(options=options, setup=setup[1])

    def next_step(self, state: Famous500State) -> Step:
        """Return who acts: the engine, one driver, or both for a sealed choice."""
        phase = state.phase
        if phase == "choose":
            laid0, laid1 = state.laid
            if laid0:
                return _STEP_1 if not laid1 else ENGINE_STEP
            return _STEP_1_0 if not laid1 else _STEP_0
        if phase in _ENGINE_PHASES:
            return ENGINE_STEP
        if phase == "pit_return" or phase == "pit_repair":
            return _STEPS[(state.pit_order[0],)]
        if phase == "discard":
            return _STEPS[(state.trailing,)]
        if phase == "design":
            designed = state.designed
            return _STEPS[tuple(s for s in SEATS if not designed[s])]
        if phase == "start":
            start = state.start
            return _STEPS[tuple(s for s in SEATS if start[s] < 0)]
        return MATCH_OVER

    def legal_actions(self, state: Famous500State, seat: int) -> Sequence[Famous500Action]:
        """Return every legal action of ``seat``, in a fixed order."""
        phase = state.phase
        if phase == "choose":
            if state.laid[seat] or seat not in SEATS:
                return _NOTHING
            return _plays(state.hands[seat], state.setup.pits[state.section])
        if phase == "pit_repair":
            if seat != state.pit_order[0]:
                return _NOTHING
            if state.cars[seat][3] <= 0:
                return (_LEAVE,)
            return (*_REPAIRS, _LEAVE)
        if phase == "pit_return":
            if seat != state.pit_order[0]:
                return _NOTHING
            return _singles("return", state.hands[seat])
        if phase == "discard":
            if seat != state.trailing:
                return _NOTHING
            return _singles("discard", state.hands[seat])
        if phase == "design":
            if seat not in SEATS or state.designed[seat]:
                return _NOTHING
            return designs(state.setup.difficulty)
        if phase == "start":
            if seat not in SEATS or state.start[seat] >= 0:
                return _NOTHING
            if self.may_false_start(state, seat):
                return (_KEEP, _FALSE_START)
            return (_KEEP,)
        return _NOTHING

    def may_false_start(self, state: Famous500State, seat: int) -> bool:
        """Return True when every card dealt to ``seat`` is above the false-start speed (100)."""
        above = state.setup.false_start_above
        return all(c > above for c in state.hands[seat])

    def resolve(self, turn: Any, actor: int, action: Any) -> None:
        """Transitional: emit what ``decide`` returns."""
        for event in self.decide(turn.state, actor, action, turn.rng):
            turn.emit(event)

    def decide(
        self, state: Famous500State, actor: int, action: Famous500Action | None, rng: Rng
    ) -> list[Famous500Event]:
        """Validate a driver's action and return its event, or run the engine's turn."""
        if actor == ENGINE:
            return self._engine(state, rng)
        legal = self.legal_actions(state, actor)
        if not legal:
            raise IllegalActionError(
                action, actor, f"seat {actor} is not to act now (phase {state.phase!r})"
            )
        if action is None or action not in legal:
            raise IllegalActionError(action, actor, self._why(state, actor, action))
        if isinstance(action, (Race, PitStop)):
            laid = CardLaid(seat=actor, card=action.card, pit=isinstance(action, PitStop))
            if not state.laid[1 - actor]:
                return [laid]
            return self._follow_ups(state, [laid])
        if isinstance(action, Repair):
            amount = state.setup.repair[action.column]
            return [Repaired(seat=actor, column=action.column, amount=amount)]
        if isinstance(action, LeavePit):
            return self._follow_ups(state, [PitLeft(seat=actor)])
        if isinstance(action, ReturnCard):
            return [CardReturned(seat=actor, card=action.card)]
        if isinstance(action, Discard):
            return self._follow_ups(state, [CardDiscarded(seat=actor, card=action.card)])
        if isinstance(action, Design):
            return [
                CarDesigned(
                    seat=actor,
                    tires=action.tires,
                    fuel=action.fuel,
                    engine=action.engine,
                    speed=action.speed,
                )
            ]
        return [StartChosen(seat=actor, false_start=isinstance(action, FalseStart))]

    def _why(self, state: Famous500State, seat: int, action: object) -> str:
        """Say which rule ``action`` breaks."""
        phase = state.phase
        if action is None:
            return "a driver must choose an action"
        if isinstance(action, (Race, PitStop, ReturnCard, Discard)):
            expected = {
                Race: "choose",
                PitStop: "choose",
                ReturnCard: "pit_return",
                Discard: "discard",
            }[type(action)]
            if phase != expected:
                return f"{type(action).__name__} is not a choice in phase {phase!r}"
            if action.card not in state.hands[seat]:
                return f"card {action.card} is not in seat {seat}'s hand {state.hands[seat]}"
            if isinstance(action, PitStop):
                return (
                    f"section {state.section + 1} ({state.setup.names[state.section]}) has no "
                    "dotted line: pit stops are only on pit sections"
                )
        if isinstance(action, Design):
            split = (action.tires, action.fuel, action.engine, action.speed)
            if min(split) < 0:
                return f"design {split}: columns are whole numbers, none negative"
            return (
                f"design {split} adds up to {sum(split)}; the track's difficulty is "
                f"{state.setup.difficulty}"
            )
        if isinstance(action, FalseStart) and phase == "start":
            return (
                f"a false start needs all three cards above {state.setup.false_start_above}; "
                f"seat {seat} holds {state.hands[seat]}"
            )
        if isinstance(action, Repair):
            if phase != "pit_repair":
                return "repairs are bought only during a pit stop"
            if not 0 <= action.column <= 2:
                return f"column {action.column} cannot be repaired (0 tires, 1 fuel, 2 engine)"
            return "repairs cost a Speed point and seat has none left"
        return f"{type(action).__name__} is not a choice for seat {seat} in phase {phase!r}"

    # The engine --------------------------------------------------------------------------
    def _follow_ups(
        self, state: Famous500State, events: list[Famous500Event]
    ) -> list[Famous500Event]:
        """Append to ``events`` what follows from them by itself.

        The reveal once both cards are down, a pitting or trailing driver's draw from the
        top of the pit deck, and the finish need no choice and no chance, so they are
        decided with the action that leads to them; only a coin toss waits for the engine.
        """
        evolve = self.evolve
        for event in events:
            state = evolve(state, event)
        while state.phase in _AUTOMATIC and not self._coin_needed(state):
            event = self._automatic(state, None)
            events.append(event)
            state = evolve(state, event)
        return events

    def _coin_needed(self, state: Famous500State) -> bool:
        """Return True when both drivers pit tied on Speed points with no section before."""
        return (
            state.phase == "reveal"
            and state.pits[0]
            and state.pits[1]
            and state.cars[0][3] == state.cars[1][3]
            and not state.history
        )

    def _engine(self, state: Famous500State, rng: Rng) -> list[Famous500Event]:
        phase = state.phase
        if phase in _AUTOMATIC:
            return self._follow_ups(state, [self._automatic(state, rng)])
        if phase == "deal":
            cards = list(state.setup.speeds)
            rng.shuffle(cards)
            return [
                Dealt(
                    deal=state.deals + 1,
                    hands=(tuple(sorted(cards[0:3])), tuple(sorted(cards[3:6]))),
                    pit_deck=tuple(cards[6:9]),
                )
            ]
        raise IllegalActionError(None, ENGINE, f"the engine has nothing to do in phase {phase!r}")

    def _automatic(self, state: Famous500State, rng: Rng | None) -> Famous500Event:
        """Return the event of an automatic phase; only a coin toss uses ``rng``."""
        phase = state.phase
        if phase == "reveal":
            return self._reveal(state, rng)
        if phase == "pit_draw":
            return CardDrawn(seat=state.pit_order[0], card=state.pit_deck[0])
        if phase == "lap_draw":
            return CardDrawn(seat=state.trailing, card=state.pit_deck[0])
        if phase == "finish":
            winner, reason = self._winner(state)
            return RaceFinished(
                winner=winner, reason=reason, speed=(state.cars[0][3], state.cars[1][3])
            )
        raise IllegalActionError(None, ENGINE, f"no automatic event in phase {phase!r}")

    def _reveal(self, state: Famous500State, rng: Rng | None) -> SectionRevealed:
        setup = state.setup
        section = state.section
        kind = setup.kinds[section]
        c0, c1 = state.laid
        p0, p1 = state.pits
        zero = (0, 0, 0)
        pit_order: tuple[int, ...] = ()
        if not p0 and not p1:
            fast, slow = setup.faster_points, setup.slower_points
            points = (fast, slow) if c0 > c1 else (slow, fast)
            index = setup.speeds.index
            costs = (setup.costs[index(c0)][kind], setup.costs[index(c1)][kind])
        elif p0 and p1:
            points = (0, 0)
            costs = (zero, zero)
            s0, s1 = state.cars[0][3], state.cars[1][3]
            if s0 != s1:
                first = 0 if s0 > s1 else 1
            elif state.history:
                previous = state.history[-1].cards
                first = 0 if previous[0] > previous[1] else 1
            else:
                assert rng is not None, "a tie with no section before needs the engine's coin"
                first = rng.randrange(2)
            pit_order = (first, 1 - first)
        elif p0:
            points = (0, setup.lone_racer_points)
            costs = (zero, setup.costs[setup.speeds.index(c1)][kind])
            pit_order = (0,)
        else:
            points = (setup.lone_racer_points, 0)
            costs = (setup.costs[setup.speeds.index(c0)][kind], zero)
            pit_order = (1,)
        return SectionRevealed(
            lap=state.lap,
            section=section,
            cards=(c0, c1),
            pits=(p0, p1),
            points=points,
            costs=costs,
            pit_order=pit_order,
        )

    def _winner(self, state: Famous500State) -> tuple[int, str]:
        cars = state.cars
        out = (is_out(cars[0]), is_out(cars[1]))
        s0, s1 = cars[0][3], cars[1][3]
        last = state.history[-1].cards if state.history else (0, 0)
        faster = 0 if last[0] > last[1] else 1
        if out[0] != out[1]:
            loser = 0 if out[0] else 1
            column = next(COLUMNS[c] for c in range(3) if cars[loser][c] < 0)
            return 1 - loser, f"seat {loser}'s {column} fell below zero"
        if out[0]:
            if s0 != s1:
                return (0 if s0 > s1 else 1), "both cars fell below zero: more Speed points"
            return faster, "both cars fell below zero, tied on Speed points: faster card"
        if s0 != s1:
            return (0 if s0 > s1 else 1), "most Speed points at the finish line"
        return faster, "tied on Speed points: the faster final card"

    # Evolve ------------------------------------------------------------------------------
    def evolve(self, state: Famous500State, event: Famous500Event) -> Famous500State:
        """Fold one event into the state."""
        evolved: Famous500State = self._evolvers[type(event)](self, state, event)
        return evolved

    def _laid(self, state: Famous500State, event: CardLaid) -> Famous500State:
        seat = event.seat
        laid = _pair(state.laid, seat, event.card)
        return replace(
            state,
            hands=_pair(state.hands, seat, _remove(state.hands[seat], event.card)),
            laid=laid,
            pits=_pair(state.pits, seat, event.pit),
            phase="reveal" if laid[0] and laid[1] else "choose",
        )

    def _revealed(self, state: Famous500State, event: SectionRevealed) -> Famous500State:
        (t0, f0, e0, s0), (t1, f1, e1, s1) = state.cars
        (a0, b0, c0), (a1, b1, c1) = event.costs
        p0, p1 = event.points
        cars = ((t0 - a0, f0 - b0, e0 - c0, s0 + p0), (t1 - a1, f1 - b1, e1 - c1, s1 + p1))
        if min(t0 - a0, f0 - b0, e0 - c0, t1 - a1, f1 - b1, e1 - c1) < 0:
            return replace(state, cars=cars, phase="finish", **self._swap(state, event.points))
        if event.pit_order:
            return replace(
                state,
                cars=cars,
                pit_order=event.pit_order,
                points=event.points,
                phase="pit_draw" if state.pit_deck else "pit_repair",
            )
        return self._close(state, cars, event.points)

    def _repaired(self, state: Famous500State, event: Repaired) -> Famous500State:
        seat = event.seat
        t, f, e, s = state.cars[seat]
        column = event.column
        car = (
            t + (event.amount if column == 0 else 0),
            f + (event.amount if column == 1 else 0),
            e + (event.amount if column == 2 else 0),
            s - 1,
        )
        return replace(state, cars=_pair(state.cars, event.seat, car))

    def _drawn(self, state: Famous500State, event: CardDrawn) -> Famous500State:
        seat = event.seat
        other = 1 - seat
        known = state.opponent_known
        if state.deck_known[0] & (1 << other):
            known = _pair(known, other, (*known[other], event.card))
        maybe = state.opponent_maybe
        if event.card in maybe[seat]:
            maybe = _pair(maybe, seat, _remove(maybe[seat], event.card))
        fields = {
            "hands": _pair(state.hands, seat, _add(state.hands[seat], event.card)),
            "pit_deck": state.pit_deck[1:],
            "deck_known": state.deck_known[1:],
            "opponent_known": known,
            "opponent_maybe": maybe,
        }
        if state.phase == "pit_draw":
            return replace(state, phase="pit_return", **fields)
        return replace(state, lap=state.lap + 1, section=0, trailing=-1, phase="choose", **fields)

    def _returned(self, state: Famous500State, event: CardReturned) -> Famous500State:
        seat = event.seat
        other = 1 - seat
        return replace(
            state,
            hands=_pair(state.hands, seat, _remove(state.hands[seat], event.card)),
            pit_deck=(*state.pit_deck, event.card),
            deck_known=(*state.deck_known, 1 << seat),
            # The opponent cannot tell which card went under the deck: what it knew this hand
            # held may now be under the deck instead.
            opponent_known=_pair(state.opponent_known, other, ()),
            opponent_maybe=_pair(
                state.opponent_maybe,
                other,
                (*state.opponent_maybe[other], *state.opponent_known[other]),
            ),
            phase="pit_repair",
        )

    def _pit_left(self, state: Famous500State, event: PitLeft) -> Famous500State:
        pit_order = state.pit_order[1:]
        if pit_order:
            phase = "pit_draw" if state.pit_deck else "pit_repair"
            return replace(state, pit_order=pit_order, phase=phase)
        return self._close(state, state.cars, state.points)

    def _discarded(self, state: Famous500State, event: CardDiscarded) -> Famous500State:
        seat = event.seat
        other = 1 - seat
        known = _pair(state.opponent_known, other, _remove(state.opponent_known[other], event.card))
        maybe = _pair(state.opponent_maybe, other, _remove(state.opponent_maybe[other], event.card))
        fields = {
            "hands": _pair(state.hands, seat, _remove(state.hands[seat], event.card)),
            "discards": (*state.discards, (seat, event.card)),
            "opponent_known": known,
            "opponent_maybe": maybe,
        }
        if state.pit_deck:
            return replace(state, phase="lap_draw", **fields)
        return replace(state, lap=state.lap + 1, section=0, trailing=-1, phase="choose", **fields)

    def _dealt(self, state: Famous500State, event: Dealt) -> Famous500State:
        return replace(
            state,
            phase="start",
            deals=event.deal,
            hands=tuple(event.hands),
            pit_deck=event.pit_deck,
            deck_known=(0,) * len(event.pit_deck),
            opponent_known=((), ()),
            opponent_maybe=((), ()),
            start=(-1, -1),
        )

    def _start_chosen(self, state: Famous500State, event: StartChosen) -> Famous500State:
        start = _pair(state.start, event.seat, 1 if event.false_start else 0)
        phase = state.phase
        if start[0] >= 0 and start[1] >= 0:
            phase = "deal" if max(start) == 1 else "design"
        return replace(state, start=start, phase=phase)

    def _designed(self, state: Famous500State, event: CarDesigned) -> Famous500State:
        designed = _pair(state.designed, event.seat, True)
        car = (event.tires, event.fuel, event.engine, event.speed)
        racing = designed[0] and designed[1]
        return replace(
            state,
            cars=_pair(state.cars, event.seat, car),
            designs=_pair(state.designs, event.seat, car),
            designed=designed,
            phase="choose" if racing else "design",
            lap=1 if racing else 0,
            section=0,
        )

    def _finished(self, state: Famous500State, event: RaceFinished) -> Famous500State:
        return replace(state, phase="over", winner=event.winner, reason=event.reason)

    _evolvers: ClassVar[dict[type, Any]] = {
        CardLaid: _laid,
        SectionRevealed: _revealed,
        Repaired: _repaired,
        CardDrawn: _drawn,
        CardReturned: _returned,
        PitLeft: _pit_left,
        CardDiscarded: _discarded,
        Dealt: _dealt,
        StartChosen: _start_chosen,
        CarDesigned: _designed,
        RaceFinished: _finished,
    }

    def _swap(self, state: Famous500State, points: tuple[int, ...]) -> dict[str, Any]:
        """Return the fields of the swap.

        Each driver takes the card the other played, and the section goes on the record.
        """
        c0, c1 = state.laid
        hands = state.hands
        k0, k1 = state.opponent_known
        m0, m1 = state.opponent_maybe
        record = SectionPlayed(
            lap=state.lap, section=state.section, cards=(c0, c1), pits=state.pits, points=points
        )
        return {
            "hands": (_add(hands[0], c1), _add(hands[1], c0)),
            "opponent_known": (
                (*(c for c in k0 if c != c1), c0),
                (*(c for c in k1 if c != c0), c1),
            ),
            "opponent_maybe": (
                _remove(m0, c1) if c1 in m0 else m0,
                _remove(m1, c0) if c0 in m1 else m1,
            ),
            "history": (*state.history, record),
            "laid": (0, 0),
            "pits": (False, False),
            "pit_order": (),
            "points": (0, 0),
        }

    def _close(
        self, state: Famous500State, cars: tuple[Car, ...], points: tuple[int, ...]
    ) -> Famous500State:
        """Swap, then advance the penny: next section, between laps, or the finish."""
        fields = self._swap(state, points)
        section = state.section + 1
        if section < len(state.setup.kinds):
            return replace(state, cars=cars, section=section, trailing=-1, phase="choose", **fields)
        if state.lap >= state.setup.laps:
            return replace(state, cars=cars, trailing=-1, phase="finish", **fields)
        s0, s1 = cars[0][3], cars[1][3]
        if s0 != s1:
            trailing = 0 if s0 < s1 else 1
        else:
            c0, c1 = state.laid
            trailing = 0 if c0 < c1 else 1
        return replace(state, cars=cars, trailing=trailing, phase="discard", **fields)

    # Observation, variants, result, render ------------------------------------------------
    def observe(self, state: Famous500State, seat: int) -> Famous500Observation:
        """Return what ``seat`` knows: its own cards and every public fact."""
        other = 1 - seat
        phase = state.phase
        laid = state.laid
        pits = state.pits
        hands = state.hands
        if phase in _FACE_UP_PHASES:
            revealed = (0 if pits[0] else laid[0], 0 if pits[1] else laid[1])
            shown_pits = pits
        else:
            revealed = (0, 0)
            shown_pits = _OWN_PITS[seat][pits[seat]]
        cars = state.cars
        if state.designed[0] and state.designed[1]:
            shown_cars: tuple[Car | None, ...] = cars
        else:
            shown_cars = _pair((None, None), seat, cars[seat] if state.designed[seat] else None)
        bit = 1 << seat
        masks = state.deck_known
        if any(masks) and any(m & bit for m in masks):
            deck_known = tuple(
                c if m & bit else 0 for c, m in zip(state.pit_deck, masks, strict=True)
            )
        else:
            deck_known = (0,) * len(masks)
        returned = _RETURNED.get(masks)
        if returned is None:
            returned = _RETURNED[masks] = tuple(m.bit_length() - 1 for m in masks)
        return Famous500Observation(
            seat=seat,
            phase=phase,
            setup=state.setup,
            deals=state.deals,
            lap=state.lap,
            section=state.section,
            hand=hands[seat],
            laid=laid[seat],
            pitting=pits[seat],
            opponent_laid=laid[other] != 0,
            revealed=revealed,
            pits=shown_pits,
            cars=shown_cars,
            hand_sizes=(len(hands[0]), len(hands[1])),
            pit_deck_known=deck_known,
            opponent_known=state.opponent_known[seat],
            opponent_maybe=state.opponent_maybe[seat],
            discards=state.discards,
            history=state.history,
            pit_order=state.pit_order,
            trailing=state.trailing,
            winner=state.winner,
            pit_deck_returned=returned,
            points=state.points,
        )

    def hidden_variants(self, state: Famous500State, seat: int, rng: Rng) -> Famous500State | None:
        """Redeal what ``seat`` cannot see, consistently with what it has seen.

        The opponent's hand and face-down card and the pit deck cards ``seat`` did not put
        there are dealt again from the cards ``seat`` cannot place. Cards it knows the
        opponent holds stay with the opponent; cards it knew the opponent held before the
        opponent put cards under the pit deck stay with the opponent or go where the
        opponent put those cards. An opponent's sealed design, pit declaration or answer to
        the deal is redrawn too.
        """
        if not state.hands[0] and not state.hands[1]:
            return None
        other = 1 - seat
        bit = 1 << seat
        face_up_other = (
            state.laid[other] if (state.phase in _FACE_UP_PHASES and not state.pits[other]) else 0
        )
        hidden_laid = state.laid[other] != 0 and face_up_other == 0
        known_other = [c for c in state.opponent_known[seat] if c != face_up_other]
        maybe_other = [c for c in state.opponent_maybe[seat] if c != face_up_other]
        fixed = set(state.hands[seat])
        fixed.add(state.laid[seat])
        fixed.add(face_up_other)
        fixed.update(c for _s, c in state.discards)
        fixed.update(known_other)
        fixed.update(maybe_other)
        masks = state.deck_known
        fixed.update(c for c, m in zip(state.pit_deck, masks, strict=True) if m & bit)
        pool = [c for c in state.setup.speeds if c not in fixed]
        rng.shuffle(pool)
        free = len(state.hands[other]) + (1 if hidden_laid else 0) - len(known_other)
        # Where the cards the viewer half-knows may be: the opponent's free slots, or under
        # the deck where the opponent put cards.
        places: list[int] = [-1] * free + [i for i, m in enumerate(masks) if m == 1 << other]
        rng.shuffle(places)
        group = list(known_other)
        deck = list(state.pit_deck)
        filled = set()
        for card, place in zip(maybe_other, places, strict=False):
            if place < 0:
                group.append(card)
            else:
                deck[place] = card
                filled.add(place)
        take = free - (len(group) - len(known_other))
        group.extend(pool[:take])
        rest = pool[take:]
        for i, m in enumerate(masks):
            if not m & bit and i not in filled:
                deck[i] = rest.pop()
        rng.shuffle(group)
        laid = state.laid
        if hidden_laid:
            laid = _pair(laid, other, group.pop())
        variant = replace(
            state,
            hands=_pair(state.hands, other, tuple(sorted(group))),
            laid=laid,
            pit_deck=tuple(deck),
        )
        phase = state.phase
        if phase == "choose" and hidden_laid and state.setup.pits[state.section]:
            variant = replace(variant, pits=_pair(variant.pits, other, rng.random() < 0.5))
        elif phase == "design" and state.designed[other]:
            d = rng.choice(designs(state.setup.difficulty))
            car = (d.tires, d.fuel, d.engine, d.speed)
            variant = replace(
                variant,
                cars=_pair(state.cars, other, car),
                designs=_pair(state.designs, other, car),
            )
        elif phase == "start" and state.start[other] >= 0:
            may = self.may_false_start(variant, other)
            variant = replace(
                variant, start=_pair(state.start, other, rng.randrange(2) if may else 0)
            )
        return variant

    def result(self, state: Famous500State) -> Result:
        """Rank the winner first; scores are Speed points."""
        winner = state.winner
        speed = (state.cars[0][3], state.cars[1][3])
        ranks = (1, 1) if winner < 0 else (1, 2) if winner == 0 else (2, 1)
        summary = (
            f"winner: seat {winner} ({state.reason})" if winner >= 0 else "no winner yet",
            f"speed points: seat 0 {speed[0]}, seat 1 {speed[1]}",
            "cars (tires/fuel/engine/speed): "
            + ", ".join(f"seat {s} {'/'.join(map(str, state.cars[s]))}" for s in SEATS),
        )
        return Result(ranks=ranks, scores=speed, unit="speed points", summary=summary)

    def state_from_observation(
        self, observation: Famous500Observation, options: Famous500Options
    ) -> Famous500State:
        """Return a state that gives exactly ``observation``, unseen cards as placeholders."""
        state: Famous500State = state_from_observation(observation, options)
        return state

    def render(self, state: Famous500State, viewer: int | None = None) -> str:
        """Return the track, both car sheets and the cards in play, hidden from ``viewer``."""
        return render_state(state, viewer)
