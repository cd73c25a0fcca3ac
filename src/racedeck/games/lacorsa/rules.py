"""LACORSA's rules as a pure decider.

The order of play follows track position: each lap starts with the last car and ends
with the leader's turn. A car directly behind another must challenge it; the winner of a
challenge carries on, and two passes end a turn. A car with an open space ahead extends
with an Extend card or discards. When a hand runs out the lap is finished and the race
ends; the cars score 9-6-4-3-2-1 by position.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from msgspec.structs import replace

from racedeck.core.errors import OptionError, unknown_event
from racedeck.core.game import Game, OptionRange
from racedeck.core.model import ENGINE, ENGINE_STEP, MATCH_OVER, Result, Step
from racedeck.core.rng import Rng
from racedeck.core.step import Turn
from racedeck.games.lacorsa import data, names, scoring
from racedeck.games.lacorsa.actions import Discard, Extend, LacorsaAction, Play
from racedeck.games.lacorsa.data import DRAFTING, EXTEND_RANKS, HAND_SIZE, POINTS, REDLINE
from racedeck.games.lacorsa.events import (
    CardsCommitted,
    ChallengeResolved,
    Discarded,
    Extended,
    GridFormed,
    LacorsaEvent,
    QualifyingRevealed,
    QualifyingTieRolled,
    RaceDealt,
    RaceScored,
)
from racedeck.games.lacorsa.options import LacorsaOptions
from racedeck.games.lacorsa.render import render_observation, render_state
from racedeck.games.lacorsa.sampling import state_from_observation
from racedeck.games.lacorsa.state import LacorsaObservation, LacorsaState, Phase

_ENGINE_PHASES = frozenset({"deal", "grid", "reveal", "score"})
_SEAT_STEPS = tuple(Step((seat,)) for seat in range(12))
"""One step object per seat acting alone: built once, not at every turn."""


_PAIR_STEPS = tuple(
    tuple(Step((min(x, y), max(x, y))) for y in range(len(_SEAT_STEPS)))
    for x in range(len(_SEAT_STEPS))
)
"""``_PAIR_STEPS[x][y]``: seats ``x`` and ``y`` choosing at once (a challenge), in seat order."""


def cars_per_player(players: int) -> int:
    """Two cars each in a teams' championship (2-3 players), one in a drivers' (4-6)."""
    return 2 if players <= 3 else 1


def suits_in_deck(cars: int, options: LacorsaOptions) -> int:
    """One suit per car, plus the extra suit of the 2-player option."""
    return cars + (1 if options.extra_suit else 0)


def _remove(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    if len(cards) == 1:
        at = hand.index(cards[0])
        return hand[:at] + hand[at + 1 :]
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


_MAX_CARS = 6
"""Two cars each at two or three players, one each at four to six: never more than six."""


_CARD_IDS = data.card(REDLINE, 7) + 1
"""Card ids run from 0 to the last suit's Redline."""


def _table(make: Callable[[int, int], LacorsaAction]) -> tuple[tuple[LacorsaAction, ...], ...]:
    """Return ``make(car, card)`` for every car and every card id, built once."""
    ids = range(_CARD_IDS)
    return tuple(tuple(make(car, c) for c in ids) for car in range(_MAX_CARS))


_PLAY_ONE = _table(lambda car, c: Play(car=car, cards=(c,)))
_DISCARD_ONE = _table(lambda car, c: Discard(car=car, cards=(c,)))
_EXTEND_WITH = _table(lambda car, c: Extend(car=car, card=c))


@functools.cache
def _with_redline(
    kind: type[Play] | type[Discard], car: int, redline: int
) -> tuple[LacorsaAction, ...]:
    """Return, per card id, the action playing the Redline ``redline`` with that card.

    One row per kind, car and Redline, built on first use: a hand holding the Redline
    offers it with a card of every other rank, and a lookup per card is much cheaper
    than building (or looking up) each action by its four arguments. (The row's entries
    for the Redlines themselves are never offered.)
    """
    return tuple(kind(car=car, cards=(redline, c)) for c in range(data.card(REDLINE, 7) + 1))


def _plays(
    car: int,
    hand: tuple[int, ...],
    singles: tuple[tuple[LacorsaAction, ...], ...],
    kind: type[Play] | type[Discard],
) -> tuple[LacorsaAction, ...]:
    """One card of each rank, then the Redline with one card of each other rank.

    ``singles`` is the table of one-card actions of ``kind`` (``_PLAY_ONE`` or
    ``_DISCARD_ONE``).
    """
    firsts = []
    last_rank = -1
    for c in hand:
        r = c >> 3
        if r != last_rank:
            firsts.append(c)
            last_rank = r
    row = singles[car]
    if last_rank != REDLINE:
        return tuple([row[c] for c in firsts])
    redline = firsts.pop()
    pairs = _with_redline(kind, car, redline)
    return (*[row[c] for c in firsts], row[redline], *[pairs[c] for c in firsts])


_NONES = tuple((None,) * cars for cars in range(_MAX_CARS + 1))
"""``(None,) * cars`` for every number of cars, built once."""


@functools.cache
def _cars_of(owner: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Return the cars ``seat`` drives."""
    return tuple(car for car, o in enumerate(owner) if o == seat)


def _reveal(turn: Turn[LacorsaState, LacorsaEvent]) -> None:
    """Show both sealed plays of a challenge: the higher total wins, a tie goes to the front.

    It follows the last commit of a challenge at once, in the same decision.
    """
    state = turn.state
    a, d = state.attacker, state.defender
    a_cards, d_cards = state.committed[a], state.committed[d]
    a_total = data.play_total(a_cards) if a_cards else 0
    # A defender with no cards left loses automatically.
    d_total = data.play_total(d_cards) if d_cards else -1
    winner = a if a_total > d_total else d
    turn.emit(
        ChallengeResolved(
            attacker=a, defender=d, attacker_total=a_total, defender_total=d_total, winner=winner
        )
    )


def _next_turn(
    order: tuple[int, ...],
    hands: tuple[tuple[int, ...], ...],
    spaces: tuple[int, ...],
    cursor: int,
    passes: int,
    lap: int,
) -> tuple[Phase, int, int, int, int, int]:
    """Return ``(phase, cursor, passes, lap, attacker, defender)`` of the next car to act.

    A car with no cards is skipped; a car directly behind another must challenge it;
    otherwise it extends or discards. Past the leader the lap ends, and when any hand
    is empty then, so does the race. Returned as plain values, not a state, so that the
    event being folded builds its state once with everything it changed.
    """
    n = len(order)
    while True:
        if cursor >= n:
            # Hands are tuples: an empty one equals ``()``.
            if () in hands:
                return "score", n, 0, lap, -1, -1
            cursor, passes, lap = 0, 0, lap + 1
        car = order[cursor]
        if not hands[car]:
            cursor, passes = cursor + 1, 0
            continue
        if cursor + 1 < n:
            ahead = order[cursor + 1]
            if spaces[ahead] == spaces[car] + 1:
                return "challenge", cursor, passes, lap, car, ahead
        return "move", cursor, passes, lap, -1, -1


def settle(state: LacorsaState, cursor: int, passes: int, lap: int, **changes: Any) -> LacorsaState:
    """Find the next car to act from ``cursor`` and what it must do; end laps and the race.

    ``changes`` are other fields of the state the event being folded changed, given here
    so that the state is rebuilt once (``_next_turn`` says what follows).
    """
    phase, cursor, passes, lap, attacker, defender = _next_turn(
        changes.get("order", state.order),
        changes.get("hands", state.hands),
        changes.get("spaces", state.spaces),
        cursor,
        passes,
        lap,
    )
    return replace(
        state,
        phase=phase,
        cursor=cursor,
        passes=passes,
        lap=lap,
        attacker=attacker,
        defender=defender,
        **changes,
    )


class Lacorsa(Game[LacorsaState, LacorsaAction, LacorsaEvent, LacorsaObservation, LacorsaOptions]):
    """LACORSA Grand Prix for 2-6 players."""

    name = "lacorsa"
    title = "LACORSA Grand Prix"
    rules_version = "2"
    min_players = 2
    max_players = 6
    options_type = LacorsaOptions
    event_type = LacorsaEvent
    action_type = LacorsaAction
    state_type = LacorsaState
    observation_type = LacorsaObservation
    state_version = 2
    conformance_options = (
        {"races": 1},
        {"races": 2, "board_length": 8},
        {"races": 1, "extra_suit": True},
        {"races": 1, "pairs_as_teams": True},
    )

    option_ranges = (
        OptionRange.between("races", 1, 100),
        OptionRange("extra_suit", (False, True)),
        OptionRange("pairs_as_teams", (False, True)),
        OptionRange("board_length", (0, 6, 1000)),
    )

    def under_rules(self, version: str) -> Lacorsa:
        """Return the game of rules version ``version``: this one, or version 1's."""
        if version == "1":
            return LacorsaRulesV1()
        super().under_rules(version)  # the current version, or refused
        return self

    # Options ----------------------------------------------------------------------------
    def check_options(self, options: LacorsaOptions) -> None:
        """Reject option values the rules cannot play."""
        if not 1 <= options.races <= 100:
            raise OptionError(f"lacorsa: races must be 1 to 100, got {options.races}")
        if options.board_length != 0 and not 6 <= options.board_length <= 1000:
            raise OptionError(
                "lacorsa: board_length must be 0 (open-ended) or 6 to 1000, "
                f"got {options.board_length}"
            )

    def check_players(self, options: LacorsaOptions, players: int) -> None:
        """Check the player count, and that options meant for some counts fit it."""
        super().check_players(options, players)
        if options.extra_suit and players != 2:
            raise OptionError(
                f"lacorsa: extra_suit is the 2-player option; this match has {players} players"
            )
        if options.pairs_as_teams and players < 4:
            raise OptionError("lacorsa: pairs_as_teams is for drivers' championships (4-6 players)")

    # The contract ------------------------------------------------------------------------
    def initial_state(self, options: LacorsaOptions, players: int) -> LacorsaState:
        """Return the championship before the first deal."""
        per = cars_per_player(players)
        cars = players * per
        return LacorsaState(
            options=options,
            players=players,
            owner=tuple(car // per for car in range(cars)),
            points=(0,) * cars,
        )

    def next_step(self, state: LacorsaState) -> Step:
        """Return who acts: the engine, one seat, or the seats with sealed cards to place."""
        phase = state.phase
        owner = state.owner
        if phase == "challenge":
            a, d = state.attacker, state.defender
            committed = state.committed
            attacking = committed[a] is None
            if attacking and committed[d] is None and state.hands[d]:
                sa, sd = owner[a], owner[d]
                if sa != sd:
                    return _PAIR_STEPS[sa][sd]
            return _SEAT_STEPS[owner[a] if attacking else owner[d]]
        if phase == "move":
            return _SEAT_STEPS[owner[state.order[state.cursor]]]
        if phase == "qualify":
            return Step(
                tuple(sorted({owner[c] for c, x in enumerate(state.committed) if x is None}))
            )
        if phase in _ENGINE_PHASES:
            return ENGINE_STEP
        return MATCH_OVER

    def deciding_car(self, state: LacorsaState, seat: int) -> int:
        """Return the car of ``seat`` that must act now, or -1."""
        owner = state.owner
        phase = state.phase
        if phase == "move":
            car = state.order[state.cursor]
            return car if owner[car] == seat else -1
        if phase == "challenge":
            a, d = state.attacker, state.defender
            if owner[a] == seat and state.committed[a] is None:
                return a
            if owner[d] == seat and state.committed[d] is None and state.hands[d]:
                return d
            return -1
        if phase == "qualify":
            for car, committed in enumerate(state.committed):
                if committed is None and owner[car] == seat:
                    return car
        return -1

    def legal_actions(self, state: LacorsaState, seat: int) -> Sequence[LacorsaAction]:
        """Return every distinct legal action (cards of one rank are interchangeable)."""
        phase = state.phase
        if phase == "challenge":
            # ``deciding_car`` written out for the two phases asked most.
            owner, committed = state.owner, state.committed
            car = state.attacker
            if owner[car] != seat or committed[car] is not None:
                car = state.defender
                if owner[car] != seat or committed[car] is not None or not state.hands[car]:
                    return ()
            return _plays(car, state.hands[car], _PLAY_ONE, Play)
        if phase != "move":
            car = self.deciding_car(state, seat)
            if car < 0:
                return ()
            return _plays(car, state.hands[car], _PLAY_ONE, Play)
        car = state.order[state.cursor]
        if state.owner[car] != seat:
            return ()
        hand = state.hands[car]
        length = state.options.board_length
        if length and state.spaces[car] >= length - 1:
            return _plays(car, hand, _DISCARD_ONE, Discard)
        actions: list[LacorsaAction] = []
        leader = state.cursor == len(state.order) - 1
        extend_with = _EXTEND_WITH[car]
        last_rank = -1
        for c in hand:
            r = c >> 3
            if r > DRAFTING:
                break
            if r != last_rank and not (leader and r == DRAFTING):
                actions.append(extend_with[c])
            last_rank = r
        if not actions:
            return _plays(car, hand, _DISCARD_ONE, Discard)
        return (*actions, *_plays(car, hand, _DISCARD_ONE, Discard))

    def _may_extend(self, state: LacorsaState, car: int) -> bool:
        """Return whether ``car`` may extend: not when the board ends right ahead of it.

        ``legal_actions`` inlines this test; keep the two in step.
        """
        length = state.options.board_length
        return not (length and state.spaces[car] >= length - 1)

    def resolve(
        self, turn: Turn[LacorsaState, LacorsaEvent], actor: int, action: LacorsaAction | None
    ) -> None:
        """Emit a seat's sealed card, extend or discard, or run the engine's turn."""
        if actor == ENGINE:
            self._engine(turn)
        elif isinstance(action, Play):
            # Once both cars of a challenge have committed, the cards are revealed at once.
            if turn.emit(CardsCommitted(car=action.car, cards=action.cards)).phase == "reveal":
                _reveal(turn)
        elif isinstance(action, Extend):
            turn.emit(Extended(car=action.car, card=action.card))
        elif isinstance(action, Discard):
            turn.emit(Discarded(car=action.car, cards=action.cards))

    def action_of(
        self, state: LacorsaState, seat: int, event: LacorsaEvent
    ) -> LacorsaAction | None:
        """Return the action a seat's first event names: each action emits its own first.

        One-card plays and discards and every extend are the very objects
        ``legal_actions`` offers, so that ``choose`` finds them by identity.
        """
        kind = type(event)
        if kind is CardsCommitted or kind is Discarded:
            car, cards = event.car, event.cards  # type: ignore[union-attr]
            if len(cards) == 1 and 0 <= car < _MAX_CARS and 0 <= cards[0] < _CARD_IDS:
                return (_PLAY_ONE if kind is CardsCommitted else _DISCARD_ONE)[car][cards[0]]
            if kind is CardsCommitted:
                return Play(car=car, cards=cards)
            return Discard(car=car, cards=cards)
        if kind is Extended:
            car, card = event.car, event.card  # type: ignore[union-attr]
            if 0 <= car < _MAX_CARS and 0 <= card < _CARD_IDS:
                return _EXTEND_WITH[car][card]
            return Extend(car=car, card=card)
        return None

    def explain_illegal(self, state: LacorsaState, seat: int, action: object) -> str:
        """Say which rule ``action`` breaks."""
        if not isinstance(action, Play | Extend | Discard):
            return f"{type(action).__name__} is not a LACORSA action"
        return self._why_illegal(state, seat, action)

    def _why_illegal(self, state: LacorsaState, seat: int, action: LacorsaAction) -> str:
        car = self.deciding_car(state, seat)
        if car < 0:
            return f"seat {seat} has nothing to decide in phase {state.phase!r}"
        if action.car != car:
            return f"car {action.car} is not the car to act; seat {seat} decides for car {car}"
        hand = state.hands[car]
        if isinstance(action, Extend):
            if state.phase != "move":
                return f"a car cannot extend during {state.phase!r}"
            if action.card not in hand:
                return f"card {action.card} is not in car {car}'s hand"
            rank = action.card >> 3
            if rank not in EXTEND_RANKS:
                return f"{data.label(action.card)} is not an Extend card (1, 2 or 3)"
            if rank == DRAFTING and state.cursor == len(state.order) - 1:
                return "the leader cannot use the Drafting Extend card (3) to extend"
            if not self._may_extend(state, car):
                return "there is no open space ahead: the board ends here"
            return ""
        wanted = "move" if isinstance(action, Discard) else ("qualify", "challenge")
        if state.phase not in wanted:
            verb = "discard" if isinstance(action, Discard) else "play a sealed card"
            return f"a car cannot {verb} during {state.phase!r}"
        cards = action.cards
        if not 1 <= len(cards) <= 2:
            return "a play is one card, or a Redline with one other card"
        if len(cards) == 2 and ((cards[0] >> 3 == REDLINE) + (cards[1] >> 3 == REDLINE)) != 1:
            return "two cards are only allowed as a Redline with one other card"
        if len(cards) == 2 and cards[0] == cards[1]:
            return "the same card cannot be played twice"
        for c in cards:
            if c not in hand:
                return f"card {c} is not in car {car}'s hand"
        return ""

    def _engine(self, turn: Turn[LacorsaState, LacorsaEvent]) -> None:
        state, rng = turn.state, turn.rng
        phase = state.phase
        if phase == "deal":
            cars = len(state.owner)
            cards = list(data.deck(suits_in_deck(cars, state.options)))
            rng.shuffle(cards)
            hands = tuple(
                tuple(sorted(cards[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(cars)
            )
            turn.emit(RaceDealt(race=state.race, hands=hands))
        elif phase == "grid":
            self._qualifying(turn)
        elif phase == "reveal":
            _reveal(turn)
        elif phase == "score":
            places = tuple(reversed(state.order))
            points = [0] * len(state.owner)
            for place, car in enumerate(places):
                points[car] = POINTS[place]
            turn.emit(RaceScored(race=state.race, places=places, points=tuple(points)))

    def _qualifying(self, turn: Turn[LacorsaState, LacorsaEvent]) -> None:
        totals = tuple(data.play_total(cards or ()) for cards in turn.state.committed)
        turn.emit(QualifyingRevealed(totals=totals))
        order: list[int] = []
        for total in sorted(set(totals)):
            tied = [car for car, t in enumerate(totals) if t == total]
            order.extend(self._break_tie(tied, turn))
        turn.emit(GridFormed(order=tuple(order)))

    def _break_tie(self, cars: list[int], turn: Turn[LacorsaState, LacorsaEvent]) -> list[int]:
        """Return ``cars`` from last to first; tied cars roll the die, highest ahead."""
        if len(cars) == 1:
            return cars
        rolls = tuple(turn.rng.randint(1, data.DIE_SIDES) for _ in cars)
        turn.emit(QualifyingTieRolled(cars=tuple(cars), rolls=rolls))
        ordered: list[int] = []
        for roll in sorted(set(rolls)):
            ordered.extend(
                self._break_tie([c for c, r in zip(cars, rolls, strict=True) if r == roll], turn)
            )
        return ordered

    def evolve(self, state: LacorsaState, event: LacorsaEvent) -> LacorsaState:
        """Fold one event into the state."""
        match event:
            case CardsCommitted():
                return _committed(state, event)
            case ChallengeResolved():
                return _after_challenge(state, event)
            case Extended():
                return _extended(state, event)
            case Discarded():
                return _discarded(state, event)
            case RaceDealt():
                return _dealt(state, event)
            case QualifyingRevealed():
                return _qualifying_revealed(state, event)
            case QualifyingTieRolled():
                # It records the dice; the grid event carries their outcome.
                return state
            case GridFormed():
                return _grid_formed(state, event)
            case RaceScored():
                return _scored(state, event)
            case _:
                unknown_event(event)

    def observe(self, state: LacorsaState, seat: int) -> LacorsaObservation:
        """Return what ``seat`` knows: its own hands and every public fact."""
        owner = state.owner
        hands = state.hands
        committed = state.committed
        cars = len(owner)
        mine = _cars_of(owner, seat)
        sizes = list(map(len, hands))
        if committed.count(None) == len(committed):
            # Nothing face down (most of a race): no flags to set, no sizes to add to.
            flags: tuple[bool, ...] = (False,) * len(committed)
            own_committed: tuple[tuple[int, ...] | None, ...] = (None,) * cars if flags else ()
        else:
            flags = tuple([x is not None for x in committed])
            # Sealed cards still count in the hand size until they are revealed.
            for car, x in enumerate(committed):
                if x is not None:
                    sizes[car] += len(x)
            held: list[tuple[int, ...] | None] = [None] * cars
            for car in mine:
                held[car] = committed[car]
            own_committed = tuple(held)
        if not hands:
            seen_hands: tuple[tuple[int, ...] | None, ...] = ()
        elif len(mine) == 1:
            car = mine[0]
            seen_hands = (*_NONES[car], hands[car], *_NONES[cars - car - 1])
        else:
            shown: list[tuple[int, ...] | None] = [None] * cars
            for car in mine:
                shown[car] = hands[car]
            seen_hands = tuple(shown)
        phase = state.phase
        order = state.order
        return LacorsaObservation(
            seat=seat,
            players=state.players,
            owner=owner,
            phase=phase,
            race=state.race,
            races=state.options.races,
            lap=state.lap,
            hands=seen_hands,
            hand_sizes=tuple(sizes),
            committed=flags,
            own_committed=own_committed,
            order=order,
            spaces=state.spaces,
            active_car=order[state.cursor] if phase == "move" or phase == "challenge" else -1,
            passes=state.passes,
            attacker=state.attacker,
            defender=state.defender,
            played=state.played,
            qualifying_totals=state.qualifying_totals,
            results=state.results,
            points=state.points,
            board_length=state.options.board_length,
            deciding_car=self.deciding_car(state, seat),
            played_by=state.played_by,
        )

    def hidden_variants(self, state: LacorsaState, seat: int, rng: Rng) -> LacorsaState | None:
        """Redeal every card ``seat`` cannot see among the cars that might hold it."""
        if not state.hands:
            return None
        owner = state.owner
        seen: set[int] = set(state.played)
        for car, hand in enumerate(state.hands):
            if owner[car] == seat:
                seen.update(hand)
                seen.update(state.committed[car] or ())
        pool = [c for c in data.deck(suits_in_deck(len(owner), state.options)) if c not in seen]
        rng.shuffle(pool)
        hands = list(state.hands)
        committed = list(state.committed)
        for car in range(len(owner)):
            if owner[car] == seat:
                continue
            sealed = committed[car]
            size = len(hands[car]) + (len(sealed) if sealed else 0)
            cards, pool = pool[:size], pool[size:]
            if sealed:
                committed[car], rest = (cards[0],), cards[1:]
            else:
                rest = cards
            hands[car] = tuple(sorted(rest))
        return replace(state, hands=tuple(hands), committed=tuple(committed))

    def state_from_observation(
        self, observation: LacorsaObservation, options: LacorsaOptions
    ) -> LacorsaState:
        """Return a state that gives exactly ``observation``, unseen cards as placeholders."""
        state: LacorsaState = state_from_observation(observation, options)
        return state

    def render(self, state: LacorsaState, viewer: int | None = None) -> str:
        """Return the strip, the hands (hidden from ``viewer`` where not its own) and points."""
        return render_state(state, viewer)

    def describe(self, value: Any) -> str:
        """Return an action, an event or a card as words (``names``)."""
        return names.describe(value)

    def render_observation(self, observation: LacorsaObservation) -> str:
        """Return what one seat sees: the strip, its own cards, the others' hand sizes."""
        return render_observation(observation)

    def result(self, state: LacorsaState) -> Result:
        """Rank seats by championship points, then most wins, most seconds, and so on."""
        return scoring.result(state)


class LacorsaRulesV1(Lacorsa):
    """Rules version 1, kept so that its logs replay and verify.

    Play is the same; its result summed the teams of pairs into one unranked line.
    """

    rules_version = "1"

    def result(self, state: LacorsaState) -> Result:
        """Return the result as version 1 wrote it (``scoring.result_v1``)."""
        return scoring.result_v1(state)

    def under_rules(self, version: str) -> Lacorsa:
        """Return the game of rules version ``version`` (asked of the current game)."""
        return Lacorsa().under_rules(version)


def _committed(state: LacorsaState, event: CardsCommitted) -> LacorsaState:
    car = event.car
    cards = event.cards
    hands = state.hands
    hand = hands[car]
    if len(cards) == 1:
        at = hand.index(cards[0])
        hand = hand[:at] + hand[at + 1 :]
    else:
        hand = _remove(hand, cards)
    # A list copy and a tuple: cheaper than joining slices around the changed entry.
    changed = list(hands)
    changed[car] = hand
    hands = tuple(changed)
    down = list(state.committed)
    down[car] = cards
    committed = tuple(down)
    phase = state.phase
    if phase == "qualify":
        if None not in committed:
            phase = "grid"
    else:
        a, d = state.attacker, state.defender
        if committed[a] is not None and (committed[d] is not None or not hands[d]):
            phase = "reveal"
    return replace(state, hands=hands, committed=committed, phase=phase)


def _after_challenge(state: LacorsaState, event: ChallengeResolved) -> LacorsaState:
    a, d = event.attacker, event.defender
    committed = state.committed
    a_cards, d_cards = committed[a] or (), committed[d] or ()
    # One copy of the growing tuples each: the two plays are joined first.
    played = state.played + (a_cards + d_cards)
    played_by = state.played_by + ((a,) * len(a_cards) + (d,) * len(d_cards))
    cars = len(committed)
    down = (committed[a] is not None) + (committed[d] is not None)
    if a != d and committed.count(None) + down == cars:
        # Only the two cars of the challenge had cards down (always, in play).
        cleared: tuple[tuple[int, ...] | None, ...] = (None,) * cars
    else:
        rest = list(committed)
        rest[a] = rest[d] = None
        cleared = tuple(rest)
    cursor, passes = state.cursor, 0
    order, spaces = state.order, state.spaces
    if event.winner != a:
        cursor += 1
    else:
        ahead = list(order)
        ahead[cursor], ahead[cursor + 1] = d, a
        order = tuple(ahead)
        moved = list(spaces)
        moved[a], moved[d] = moved[d], moved[a]
        spaces = tuple(moved)
        passes = state.passes + 1
        if passes >= 2:
            cursor, passes = cursor + 2, 0
        else:
            cursor += 1
    return settle(
        state,
        cursor,
        passes,
        state.lap,
        played=played,
        played_by=played_by,
        committed=cleared,
        order=order,
        spaces=spaces,
    )


def _extended(state: LacorsaState, event: Extended) -> LacorsaState:
    car = event.car
    hands = state.hands
    hand = hands[car]
    at = hand.index(event.card)
    changed = list(hands)
    changed[car] = hand[:at] + hand[at + 1 :]
    hands = tuple(changed)
    moved = list(state.spaces)
    moved[car] += 1
    spaces = tuple(moved)
    return settle(
        state,
        state.cursor + 1,
        0,
        state.lap,
        hands=hands,
        spaces=spaces,
        played=(*state.played, event.card),
        played_by=(*state.played_by, car),
    )


def _discarded(state: LacorsaState, event: Discarded) -> LacorsaState:
    car = event.car
    cards = event.cards
    hands = state.hands
    changed = list(hands)
    changed[car] = _remove(hands[car], cards)
    hands = tuple(changed)
    return settle(
        state,
        state.cursor + 1,
        0,
        state.lap,
        hands=hands,
        played=state.played + cards,
        played_by=state.played_by + (car,) * len(cards),
    )


def _dealt(state: LacorsaState, event: RaceDealt) -> LacorsaState:
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


def _qualifying_revealed(state: LacorsaState, event: QualifyingRevealed) -> LacorsaState:
    played = tuple(c for cards in state.committed for c in cards or ())
    by = tuple(car for car, cards in enumerate(state.committed) for _ in cards or ())
    return replace(
        state,
        qualifying_totals=event.totals,
        played=state.played + played,
        played_by=state.played_by + by,
        committed=(None,) * len(state.committed),
    )


def _grid_formed(state: LacorsaState, event: GridFormed) -> LacorsaState:
    spaces = [0] * len(event.order)
    for position, car in enumerate(event.order):
        spaces[car] = position
    state = replace(state, order=event.order, spaces=tuple(spaces))
    return settle(state, 0, 0, 1)


def _scored(state: LacorsaState, event: RaceScored) -> LacorsaState:
    race = state.race + 1
    return replace(
        state,
        race=race,
        phase="over" if race >= state.options.races else "deal",
        results=(*state.results, event.places),
        points=tuple(p + q for p, q in zip(state.points, event.points, strict=True)),
    )
