"""Wacky Races' rules as a pure decider.

Each seat chooses a racer, then races: a turn is a run of decisions (step with a card,
use an advantage, end the turn). After every player's turn the engine refills the hand
and moves Dick Dastardly; after every round but the first it moves the neutral racers.
The first racer onto the finish wins. Chance (draws, steals, traps laid) is the engine's:
a seat's action that needs it queues a task the engine does next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from msgspec.structs import replace

from racedeck.core.errors import IllegalActionError, OptionError
from racedeck.core.game import Game
from racedeck.core.model import ENGINE, ENGINE_STEP, MATCH_OVER, Result, Step
from racedeck.core.rng import Rng
from racedeck.games.wacky_races import data
from racedeck.games.wacky_races.actions import (
    ChooseRacer,
    EndTurn,
    PlayStep,
    UseAdvantage,
    WackyAction,
)
from racedeck.games.wacky_races.data import (
    ACME_LABORATORY,
    ADVANTAGE_EFFECTS,
    CANCELS,
    CROSSROADS,
    FINISH,
    GAS,
    GRID_POSITIONS,
    LEVEL_CROSSING,
    MAX_STEPS,
    SLOTS,
    SWAMP,
    TRAP_AMOUNTS,
    TRAP_EFFECTS,
    TRAP_KEYS,
)
from racedeck.games.wacky_races.events import (
    AdvantageExhausted,
    AdvantageRefreshed,
    AdvantageUsed,
    CardsDrawn,
    CardTaken,
    DastardlyMoved,
    DeckReshuffled,
    GasStationReached,
    Glued,
    HandDiscarded,
    NeutralCardDrawn,
    NeutralsMoving,
    RaceEnded,
    RacerChosen,
    RacerMoved,
    RaceSetUp,
    StepPlayed,
    TaskQueued,
    TasksDone,
    TilesSwapped,
    TrapLaid,
    TrapRemoved,
    TrapSprung,
    TrapsReshuffled,
    TurnEnded,
    TurnStarted,
    WackyEvent,
)
from racedeck.games.wacky_races.options import WackyOptions
from racedeck.games.wacky_races.render import render_observation, render_state
from racedeck.games.wacky_races.state import WackyObservation, WackyState

MAX_ROUNDS = 200
"""A race still running after this many rounds ends on the spot (a safety net only)."""

_SEAT_STEPS = tuple(Step((seat,)) for seat in range(data.FIELD_SIZE))
_END_TURN = EndTurn()
# Actions are values: the common ones are made once.
_ONE_CARD = tuple(PlayStep(cards=(t,)) for t in range(len(data.TERRAINS)))
_USE = tuple(
    tuple(UseAdvantage(advantage=i, target=t) for t in range(-1, data.POSITIONS)) for i in range(4)
)
"""``_USE[i][target + 1]``: advantage ``i`` on ``target`` (a car or a position; -1 none)."""
_NO_TRAP = -1


# Pure helpers on positions ----------------------------------------------------------------
def forward_target(pos: tuple[int, ...], p: int) -> int:
    """Return where a racer on ``p`` lands one step forward: full positions are skipped."""
    t = p + 1
    while t < FINISH and pos.count(t) >= SLOTS:
        t += 1
    return t


def backward_target(pos: tuple[int, ...], p: int, steps: int) -> int:
    """Return where a racer on ``p`` lands ``steps`` back: full positions are skipped too.

    With no free position behind, the racer stays where it is.
    """
    for _ in range(steps):
        t = p - 1
        while t >= 0 and pos.count(t) >= SLOTS:
            t -= 1
        if t < 0:
            break
        p = t
    return p


def leader_order(state: WackyState, cars: Sequence[int]) -> list[int]:
    """Return ``cars`` from the leader back: further ahead first, then who arrived first."""
    pos, stamp = state.pos, state.stamp
    return sorted(cars, key=lambda c: (-pos[c], stamp[c]))


def race_order(state: WackyState) -> tuple[int, ...]:
    """Return every car from first place to last: finishers in order, then by position."""
    rest = [c for c in range(len(state.field)) if c not in state.finished]
    return (*state.finished, *leader_order(state, rest))


def last_car(state: WackyState, cars: Sequence[int]) -> int:
    """Return the car in last place among ``cars`` (-1 for none)."""
    order = leader_order(state, cars)
    return order[-1] if order else -1


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _add(counts: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    out = list(counts)
    for c in cards:
        out[c] += 1
    return tuple(out)


def _remove(hand: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


def _first_bit(mask: int, set_bits: bool) -> int:
    for i in range(4):
        if bool(mask >> i & 1) == set_bits:
            return i
    return -1


def _expand(counts: tuple[int, ...]) -> list[int]:
    """Return the cards a pile given as counts per kind holds, in kind order."""
    return [kind for kind, n in enumerate(counts) for _ in range(n)]


_Evolvers = dict[type, Callable[[WackyState, Any], WackyState]]


class _NeedChance(Exception):
    """Raised when a seat's decision reaches work that needs chance: the engine does it."""


def reshuffle_size(state: WackyState) -> int:
    """Return how many cards a reshuffle of the discard pile (but its top) would give."""
    return sum(state.discard) - (1 if state.top >= 0 else 0)


def in_one_stage(p: int) -> bool:
    """Return True when the tiles at ``p`` and ``p + 1`` belong to the same stage."""
    return GRID_POSITIONS <= p < GAS - 1 or GAS < p < FINISH - 1


# Resolution of one decision ---------------------------------------------------------------
class _Resolver:
    """Works out a decision's consequences, emitting events and folding them as it goes."""

    __slots__ = ("afters", "events", "evolvers", "queue", "rng", "start", "state", "stopped")

    def __init__(self, evolvers: _Evolvers, state: WackyState, rng: Rng | None) -> None:
        self.evolvers = evolvers
        self.start = self.state = state
        self.afters: list[WackyState] = []
        """The state after each event, which the game's ``evolve`` hands back, not redoing it."""
        self.rng = rng
        self.queue = rng is None
        """Whether chance work found now is queued for the engine (during a seat's action)."""
        self.events: list[WackyEvent] = []
        self.stopped: set[int] = set()

    def chance(self) -> Rng:
        """Return the engine's generator, or stop a seat's decision that has none."""
        if self.rng is None:
            raise _NeedChance
        return self.rng

    def emit(self, event: WackyEvent) -> None:
        self.events.append(event)
        self.state = after = self.evolvers[type(event)](self.state, event)
        self.afters.append(after)

    def end_turn(self, seat: int, reason: str) -> None:
        """End ``seat``'s turn, refilling its hand at once when the draw pile holds the cards."""
        s = self.state
        drawn: tuple[int, ...] = ()
        if not s.pending:
            need = (2 if s.glued[seat] else data.HAND_SIZE) - len(s.hands[seat])
            if 0 < need <= len(s.draw):
                drawn = s.draw[len(s.draw) - need :]
        self.emit(TurnEnded(seat=seat, reason=reason, drawn=drawn))

    @property
    def racing(self) -> bool:
        return self.state.phase != "race_end"

    # Arrivals, traps and tiles -----------------------------------------------------------
    def arrive(self, car: int, by_step: bool) -> bool:
        """Apply what ``car``'s new position does; return True when it may go on moving."""
        s = self.state
        p = s.pos[car]
        if p == FINISH or not self.racing:
            return False
        trap = s.traps[p]
        if trap >= 0:
            cancel = self.cancel_for(car, trap)
            self.emit(TrapSprung(car=car, position=p, trap=trap, advantage=cancel))
            if cancel < 0:
                self.stopped.add(car)
                self.suffer(car, trap, p)
                self.check_gas()
                return False
        if by_step:
            tile = s.tiles[p]
            if tile == LEVEL_CROSSING:
                self.level_crossing(car, p)
            elif tile == CROSSROADS:
                self.crossroads(car, p)
            elif tile == ACME_LABORATORY:
                self.laboratory()
        self.check_gas()
        return self.racing and car not in self.stopped

    def cancel_for(self, car: int, trap: int) -> int:
        """Return the unexhausted advantage of ``car`` that cancels ``trap``, or -1."""
        s = self.state
        if car >= s.players:
            return -1
        mask = s.exhausted[car]
        for i, cancels in enumerate(CANCELS[s.racer_of_seat[car]]):
            if cancels == trap and not mask >> i & 1:
                return i
        return -1

    def suffer(self, car: int, trap: int, p: int) -> None:
        """Apply a trap's effect to ``car``, which entered it on ``p``."""
        s = self.state
        effect = TRAP_EFFECTS[trap]
        amount = TRAP_AMOUNTS[trap]
        key = TRAP_KEYS[trap]
        if effect == "switcheroo":
            behind = [c for c in range(len(s.field)) if c != car and p - amount <= s.pos[c] < p]
            if behind:
                self.swap(car, leader_order(s, behind)[0], key)
            return
        if effect == "back":
            q = backward_target(s.pos, p, amount)
            if q != p:
                self.emit(RacerMoved(car=car, to=q, cause=key))
                self.arrive(car, False)
            return
        if car >= s.players:
            return  # the other traps act on hands and advantages, which neutrals lack
        if effect == "swat":
            first = _first_bit(s.exhausted[car], False)
            if first >= 0:
                self.emit(AdvantageExhausted(seat=car, advantage=first, cause=key))
        elif effect == "magnet":
            if s.hands[car]:
                self.task("magnet", car, -1)
        elif effect == "glue":
            self.emit(Glued(seat=car))
        elif effect == "hammer" and s.hands[car]:
            self.emit(HandDiscarded(seat=car, cards=s.hands[car], cause=key))

    def check_gas(self) -> None:
        """Once the last racer reaches the gas station, each player refreshes an advantage."""
        s = self.state
        if not s.gas_done and min(s.pos) >= GAS:
            refreshed = tuple(_first_bit(s.exhausted[seat], True) for seat in range(s.players))
            self.emit(GasStationReached(refreshed=refreshed))

    def level_crossing(self, car: int, p: int) -> None:
        s = self.state
        others = [c for c in range(len(s.field)) if c != car]
        back = min(s.pos[c] for c in others)
        if back >= p:
            return
        for c in leader_order(s, [c for c in others if s.pos[c] == back]):
            self.emit(
                RacerMoved(car=c, to=forward_target(self.state.pos, back), cause="level_crossing")
            )
            self.arrive(c, False)
            if not self.racing:
                return

    def crossroads(self, car: int, p: int) -> None:
        s = self.state
        last = last_car(s, [c for c in range(len(s.field)) if c != car and s.pos[c] < p])
        if last >= 0:
            self.swap(car, last, "crossroads")

    def swap(self, car: int, other: int, cause: str) -> None:
        """Let ``car`` and ``other`` change places; ``car`` then meets its new position."""
        p, q = self.state.pos[car], self.state.pos[other]
        self.emit(RacerMoved(car=other, to=p, cause=cause))
        self.emit(RacerMoved(car=car, to=q, cause=cause))
        self.arrive(car, False)

    def laboratory(self) -> None:
        s = self.state
        seat = last_car(s, range(s.players))
        first = _first_bit(s.exhausted[seat], True)
        if first >= 0:
            self.emit(AdvantageRefreshed(seat=seat, advantage=first, cause="acme_laboratory"))

    # Chance --------------------------------------------------------------------------------
    def task(self, kind: str, seat: int, target: int) -> None:
        """Do chance work now when there is chance at hand, else queue it for the engine."""
        if self.queue and (kind != "draw" or len(self.state.draw) < 2):
            self.emit(TaskQueued(kind=kind, seat=seat, target=target))
        else:
            self.resolve(kind, seat, target)

    def resolve(self, kind: str, seat: int, target: int) -> None:
        s = self.state
        if kind == "draw":
            self.draw_cards(seat, 2)
            return
        rng = self.chance()
        if kind == "steal":
            hand = s.hands[target]
            if hand:
                card = hand[rng.randrange(len(hand))]
                self.emit(CardTaken(source=target, taker=seat, card=card, cause="steal"))
        elif kind == "magnet":
            hand = s.hands[seat]
            if hand:
                card = hand[rng.randrange(len(hand))]
                last = last_car(s, [c for c in range(len(s.field)) if c != seat])
                taker = last if last < s.players else -1
                self.emit(CardTaken(source=seat, taker=taker, card=card, cause="giant_magnet"))

    def refill_pile(self) -> bool:
        """Turn the discard pile (but its top) into a shuffled draw pile; False if it is empty."""
        s = self.state
        if reshuffle_size(s) <= 0:
            return False
        cards = _expand(s.discard)
        if s.top >= 0:
            cards.remove(s.top)
        self.chance().shuffle(cards)
        self.emit(DeckReshuffled(order=tuple(cards)))
        return True

    def draw_one(self) -> int:
        """Return the draw pile's next card (reshuffling if needed), or -1 for none."""
        if not self.state.draw and not self.refill_pile():
            return -1
        return self.state.draw[-1]

    def draw_cards(self, seat: int, count: int) -> None:
        while count > 0:
            draw = self.state.draw
            if not draw:
                if not self.refill_pile():
                    return
                continue
            k = min(count, len(draw))
            self.emit(CardsDrawn(seat=seat, cards=draw[len(draw) - k :]))
            count -= k

    # Dick Dastardly --------------------------------------------------------------------------
    def dastardly(self) -> None:
        """Move Dastardly to the next trap-free tile of the top card's terrain; maybe lay a trap."""
        s = self.state
        terrain = s.top
        if terrain < 0:
            return
        tiles, traps = s.tiles, s.traps
        q = s.dastardly
        while True:
            try:
                q = tiles.index(terrain, q + 1)
            except ValueError:
                return  # no such tile ahead: he stays
            if traps[q] < 0:
                break
        self.emit(DastardlyMoved(to=q, cause="discard"))
        if q <= max(s.pos):
            return
        if not s.trap_deck:
            if not sum(s.trap_discard):
                return
            order = _expand(s.trap_discard)
            self.chance().shuffle(order)
            self.emit(TrapsReshuffled(order=tuple(order)))
        self.emit(TrapLaid(position=q, trap=self.state.trap_deck[-1]))
        self.emit(DastardlyMoved(to=min(self.state.pos) - 1, cause="trap_laid"))

    # Neutral racers ---------------------------------------------------------------------------
    def neutrals(self) -> None:
        """One step each, then three cards moving the neutrals on their terrain; leader first."""
        s = self.state
        cars = range(s.players, len(s.field))
        self.emit(NeutralsMoving())
        self.stopped = set()
        for car in leader_order(s, cars):
            st = self.state
            if st.pos[car] != FINISH and st.tiles[st.pos[car]] != SWAMP:
                self.neutral_step(car)
            if not self.racing:
                return
        drawn: list[int] = []
        for _ in range(MAX_STEPS):
            card = self.draw_one()
            if card < 0:
                return
            self.emit(NeutralCardDrawn(card=card))
            # On the Swamp a neutral needs two identical cards, as a player does.
            pair = card in drawn
            drawn.append(card)
            for car in leader_order(self.state, cars):
                st = self.state
                p = st.pos[car]
                if car in self.stopped or p == FINISH:
                    continue
                tile = st.tiles[p]
                if tile != card and not (pair and tile == SWAMP):
                    continue
                self.neutral_step(car)
                if not self.racing:
                    return

    def neutral_step(self, car: int) -> None:
        self.emit(
            RacerMoved(
                car=car, to=forward_target(self.state.pos, self.state.pos[car]), cause="neutral"
            )
        )
        self.arrive(car, True)


# The game ------------------------------------------------------------------------------------
class WackyRaces(Game[WackyState, WackyAction, WackyEvent, WackyObservation, WackyOptions]):
    """Wacky Races: The Board Game for 1-6 players, neutral racers filling the field to six."""

    name = "wacky-races"
    title = "Wacky Races: The Board Game"
    rules_version = "1"
    min_players = 1
    max_players = 6
    options_type = WackyOptions
    event_type = WackyEvent
    action_type = WackyAction
    state_type = WackyState
    observation_type = WackyObservation
    conformance_options = (
        {},
        {"races": 2, "special_tile": "crossroads", "dastardly_after_neutrals": True},
        {"special_tile": "swamp", "neutral_finish": "continues"},
    )

    def __init__(self) -> None:
        super().__init__()
        self._legal_for: WackyState | None = None
        self._legal: list[WackyAction] = []
        self._folded: tuple[WackyState, list[WackyEvent], list[WackyState]] = (
            WackyState(options=WackyOptions(), players=1),
            [],
            [],
        )
        self._fold_at = 0
        self._trap_flags: tuple[tuple[int, ...], tuple[bool, ...]] = ((), ())
        self._evolvers: _Evolvers = {
            StepPlayed: _on_step,
            RacerMoved: _on_moved,
            CardsDrawn: _on_drawn,
            TurnStarted: _on_turn_started,
            TurnEnded: _on_turn_ended,
            DastardlyMoved: lambda s, e: replace(s, dastardly=e.to),
            AdvantageUsed: _on_advantage_used,
            TrapSprung: _on_trap_sprung,
            TrapLaid: _on_trap_laid,
            NeutralCardDrawn: _on_neutral_card,
            NeutralsMoving: lambda s, e: s,
            TaskQueued: lambda s, e: replace(s, pending=(*s.pending, (e.kind, e.seat, e.target))),
            TasksDone: lambda s, e: replace(s, pending=()),
            CardTaken: _on_card_taken,
            HandDiscarded: _on_hand_discarded,
            Glued: lambda s, e: replace(s, glued=_set(s.glued, e.seat, e.on)),
            AdvantageExhausted: lambda s, e: replace(
                s, exhausted=_set(s.exhausted, e.seat, s.exhausted[e.seat] | 1 << e.advantage)
            ),
            AdvantageRefreshed: lambda s, e: replace(
                s, exhausted=_set(s.exhausted, e.seat, s.exhausted[e.seat] & ~(1 << e.advantage))
            ),
            GasStationReached: _on_gas_station,
            TrapRemoved: lambda s, e: replace(
                s,
                traps=_set(s.traps, e.position, -1),
                trap_discard=_add(s.trap_discard, (e.trap,)),
            ),
            TrapsReshuffled: lambda s, e: replace(
                s, trap_deck=e.order, trap_discard=(0,) * len(s.trap_discard)
            ),
            TilesSwapped: _on_tiles_swapped,
            DeckReshuffled: _on_reshuffled,
            RacerChosen: _on_racer_chosen,
            RaceSetUp: _on_race_set_up,
            RaceEnded: _on_race_ended,
        }

    # Options -------------------------------------------------------------------------------
    def check_options(self, options: WackyOptions) -> None:
        """Reject option values the rules cannot play."""
        if not 1 <= options.races <= 100:
            raise OptionError(f"wacky-races: races must be 1 to 100, got {options.races}")

    # The contract --------------------------------------------------------------------------
    def initial_state(self, options: WackyOptions, players: int) -> WackyState:
        """Return the match before the first racer is chosen."""
        return WackyState(options=options, players=players, points=(0,) * players)

    def next_step(self, state: WackyState) -> Step:
        """Return who acts: the seat choosing or taking its turn, the engine, or nobody."""
        if state.pending:
            return ENGINE_STEP
        phase = state.phase
        if phase == "turn" or phase == "choose":
            return _SEAT_STEPS[state.active]
        if phase == "over":
            return MATCH_OVER
        return ENGINE_STEP

    def legal_actions(self, state: WackyState, seat: int) -> Sequence[WackyAction]:
        """Return every distinct legal action of ``seat`` (cards of one terrain are alike)."""
        if seat != state.active or state.pending:
            return []
        if state.phase == "choose":
            taken = state.racer_of_seat
            return [ChooseRacer(racer=r) for r in range(len(data.RACER_KEYS)) if r not in taken]
        if state.phase != "turn":
            return []
        # The runner asks for the legal actions, then decides one of them on the same state.
        if state is self._legal_for:
            return self._legal
        legal = self._turn_actions(state, seat)
        self._legal_for, self._legal = state, legal
        return legal

    def _can_go_on(self, state: WackyState, seat: int) -> bool:
        """Return True when ``seat`` has something to do in its turn besides ending it."""
        # The seat's next decision is asked on this very state: keep its legal actions.
        legal = self._turn_actions(state, seat)
        self._legal_for, self._legal = state, legal
        return len(legal) > 1

    def _turn_actions(self, state: WackyState, seat: int) -> list[WackyAction]:
        actions: list[WackyAction] = []
        hand = state.hands[seat]
        pos = state.pos
        p = pos[seat]
        tile = state.tiles[p]
        if state.steps < MAX_STEPS and hand:
            if tile == SWAMP:
                kinds = sorted(set(hand))
                actions.extend(PlayStep(cards=(t, t)) for t in kinds if hand.count(t) >= 2)
                actions.extend(PlayStep(cards=c) for c in sorted(set(combinations(hand, 3))))
            else:
                if state.steps == 0 or state.wild or tile >= data.GRID:
                    last = -1
                    for t in hand:  # hands are sorted
                        if t != last:
                            actions.append(_ONE_CARD[t])
                            last = t
                elif tile in hand:
                    actions.append(_ONE_CARD[tile])
        mask = state.exhausted[seat]
        if mask != 15:
            self._advantage_actions(state, seat, mask, actions)
        actions.append(_END_TURN)
        return actions

    def _advantage_actions(
        self, state: WackyState, seat: int, mask: int, actions: list[WackyAction]
    ) -> None:
        pos = state.pos
        p = pos[seat]
        effects = ADVANTAGE_EFFECTS[state.racer_of_seat[seat]]
        for i in range(4):
            if mask >> i & 1:
                continue
            effect = effects[i]
            use = _USE[i]
            if effect == "move":
                actions.append(use[0])
            elif effect == "draw":
                if state.draw or reshuffle_size(state) > 0:
                    actions.append(use[0])
            elif effect == "steal":
                for t in range(state.players):
                    if t != seat and state.hands[t] and -1 <= pos[t] - p <= 1:
                        actions.append(use[t + 1])
            elif effect == "swap_ahead":
                ahead = [q for q in pos if p < q < FINISH]
                if ahead:
                    q = min(ahead)
                    for c in leader_order(state, [c for c in range(len(pos)) if pos[c] == q]):
                        actions.append(use[c + 1])
            elif effect == "push_back":
                if backward_target(pos, p, 1) != p:
                    for c in range(len(pos)):
                        if c != seat and pos[c] == p:
                            actions.append(use[c + 1])
            elif effect == "dastardly_back":
                if state.dastardly > min(pos) - 1:
                    actions.append(use[0])
            elif effect == "remove_trap":
                for q in (p - 1, p + 1):
                    if 0 <= q <= FINISH and state.traps[q] >= 0:
                        actions.append(use[q + 1])
            elif effect == "wild":
                if (
                    0 < state.steps < MAX_STEPS
                    and not state.wild
                    and state.hands[seat]
                    and state.tiles[p] < data.GRID
                ):
                    actions.append(use[0])
            elif effect == "sawtooth" and in_one_stage(p):
                actions.append(use[0])

    def resolve(self, turn: Any, actor: int, action: Any) -> None:
        """Transitional: emit what ``decide`` returns."""
        for event in self.decide(turn.state, actor, action, turn.rng):
            turn.emit(event)

    def decide(
        self, state: WackyState, actor: int, action: WackyAction | None, rng: Rng
    ) -> list[WackyEvent]:
        """Validate a seat's action and return its events, or run the engine's turn."""
        if actor == ENGINE:
            return self._engine(state, rng)
        if action is None:
            raise IllegalActionError(action, actor, "a seat must choose an action")
        if action not in self.legal_actions(state, actor):
            raise IllegalActionError(action, actor, self._why_illegal(state, actor, action))
        if isinstance(action, ChooseRacer):
            return [RacerChosen(seat=actor, racer=action.racer)]
        r = _Resolver(self._evolvers, state, None)
        if isinstance(action, EndTurn):
            r.end_turn(actor, "ended")
        elif isinstance(action, PlayStep):
            p = state.pos[actor]
            r.emit(StepPlayed(seat=actor, cards=action.cards, to=forward_target(state.pos, p)))
            r.arrive(actor, True)
        else:
            self._use_advantage(r, actor, action)
        s = r.state
        if s.phase == "turn":
            if actor in r.stopped:
                r.end_turn(actor, "trap")
            elif not s.pending and not self._can_go_on(s, actor):
                r.end_turn(actor, "nothing left to do")
        self._carry_on(r)
        self._folded, self._fold_at = (r.start, r.events, r.afters), 0
        return r.events

    def _carry_on(self, r: _Resolver) -> None:
        """Run what follows a seat's action up to the next seat's decision, if no chance is needed.

        A turn's end (refill, Dick Dastardly, the neutral racers, the next turn) is the
        engine's work, but usually it only turns over the next cards of the ordered piles.
        A seat's decision does it at once; when a shuffle or a random card is needed, the
        decision stops at the turn's end and the engine carries on from there.
        """
        s = r.state
        if s.pending or s.phase not in ("after_turn", "race_end"):
            return
        mark, saved = len(r.events), s
        r.queue = False
        try:
            self._flow(r)
        except _NeedChance:
            del r.events[mark:]
            del r.afters[mark:]
            r.state = saved

    def _use_advantage(self, r: _Resolver, seat: int, action: UseAdvantage) -> None:
        state = r.state
        effect = ADVANTAGE_EFFECTS[state.racer_of_seat[seat]][action.advantage]
        target = action.target
        r.emit(AdvantageUsed(seat=seat, advantage=action.advantage, target=target))
        p = state.pos[seat]
        if effect == "move":
            r.emit(RacerMoved(car=seat, to=forward_target(state.pos, p), cause="advantage"))
            r.arrive(seat, True)
        elif effect == "draw":
            r.task("draw", seat, -1)
        elif effect == "steal":
            r.task("steal", seat, target)
        elif effect == "swap_ahead":
            r.swap(seat, target, "swap")
        elif effect == "push_back":
            r.emit(RacerMoved(car=target, to=backward_target(state.pos, p, 1), cause="push_back"))
            r.arrive(target, False)
        elif effect == "dastardly_back":
            r.emit(DastardlyMoved(to=min(state.pos) - 1, cause="advantage"))
        elif effect == "remove_trap":
            r.emit(TrapRemoved(position=target, trap=state.traps[target]))
        elif effect == "sawtooth":
            r.emit(TilesSwapped(position=p))
            for q in (p, p + 1):
                here = [c for c in range(len(state.field)) if r.state.pos[c] == q]
                for c in leader_order(r.state, here):
                    if r.state.traps[q] >= 0 and r.racing:
                        r.arrive(c, False)
        # "wild" only sets the state's flag, which AdvantageUsed does.

    def _why_illegal(self, state: WackyState, seat: int, action: WackyAction) -> str:
        if state.pending:
            return "the engine must first finish the chance work an action queued"
        if seat != state.active or state.phase not in ("turn", "choose"):
            return f"it is not seat {seat}'s turn (phase {state.phase!r}, seat {state.active} acts)"
        if state.phase == "choose":
            if not isinstance(action, ChooseRacer):
                return "each seat must first choose its racer"
            return f"racer {action.racer} is unknown or already taken"
        if isinstance(action, ChooseRacer):
            return "racers are chosen before the first race only"
        if isinstance(action, PlayStep):
            hand = state.hands[seat]
            if state.steps >= MAX_STEPS:
                return f"a racer moves at most {MAX_STEPS} steps with cards a turn"
            if any(action.cards.count(c) > hand.count(c) for c in action.cards):
                return f"cards {action.cards} are not in seat {seat}'s hand {hand}"
            if state.tiles[state.pos[seat]] == SWAMP:
                return "to leave the Swamp play two identical cards or give up any three"
            return (
                "the second and third steps need a card of the terrain of the racer's tile "
                f"({data.TILE_NAMES[state.tiles[state.pos[seat]]]})"
            )
        if isinstance(action, UseAdvantage):
            if not 0 <= action.advantage < 4:
                return "a racer has advantages 0 to 3"
            if state.exhausted[seat] >> action.advantage & 1:
                return f"advantage {action.advantage} is exhausted"
            effect = ADVANTAGE_EFFECTS[state.racer_of_seat[seat]][action.advantage]
            if effect == "cancel":
                return "a cancelling advantage is used only when its trap is entered"
            return f"advantage {action.advantage} ({effect}) has no use on {action.target} now"
        return "not a legal action now"

    # The engine ------------------------------------------------------------------------------
    def _engine(self, state: WackyState, rng: Rng) -> list[WackyEvent]:
        if not state.pending and state.phase not in ("after_turn", "race_end", "setup"):
            raise IllegalActionError(
                None, ENGINE, f"the engine has nothing to do in phase {state.phase!r}"
            )
        r = _Resolver(self._evolvers, state, rng)
        self._flow(r)
        self._folded, self._fold_at = (r.start, r.events, r.afters), 0
        return r.events

    def _flow(self, r: _Resolver) -> None:
        """Do the engine's work until a seat must decide or the match is over."""
        while True:
            s = r.state
            if s.pending:
                for kind, seat, target in s.pending:
                    r.resolve(kind, seat, target)
                r.emit(TasksDone())
                self._auto_end(r)
                continue
            phase = s.phase
            if phase == "after_turn":
                self._after_turn(r)
            elif phase == "race_end":
                r.emit(RaceEnded(race=s.race, order=race_order(s), points=self._points(s)))
            elif phase == "setup":
                self._set_up(r)
            else:
                return

    def _auto_end(self, r: _Resolver) -> None:
        s = r.state
        if s.phase == "turn" and not s.pending and not self._can_go_on(s, s.active):
            r.end_turn(s.active, "nothing left to do")

    def _points(self, state: WackyState) -> tuple[int, ...]:
        order = race_order(state)
        return tuple(data.POINTS[order.index(seat)] for seat in range(state.players))

    def _set_up(self, r: _Resolver) -> None:
        s = r.state
        rng = r.chance()
        players = s.players
        stage_one = [t for t, n in enumerate(data.STAGE_ONE_COPIES) for _ in range(n)]
        rng.shuffle(stage_one)
        special = s.options.special_tile
        code = rng.choice(data.SPECIAL_TILES) if special == "random" else data.special_code(special)
        stage_two = [t for t, n in enumerate(data.STAGE_TWO_COPIES) for _ in range(n)] + [code]
        rng.shuffle(stage_two)
        tiles = (
            (data.GRID,) * GRID_POSITIONS
            + tuple(stage_one)
            + (data.GAS_STATION,)
            + tuple(stage_two)
            + (data.FINISH_LINE,)
        )
        field = s.field
        if not field:
            free = [x for x in range(len(data.RACER_KEYS)) if x not in s.racer_of_seat]
            field = s.racer_of_seat + tuple(rng.sample(free, data.FIELD_SIZE - players))
        first = s.race % players
        neutrals = list(range(players, len(field)))
        rng.shuffle(neutrals)
        slot_order = (*((first + k) % players for k in range(players)), *neutrals)
        grid = [0] * len(field)
        for slot, car in enumerate(slot_order):
            grid[car] = GRID_POSITIONS - 1 - slot // SLOTS
        deck = _expand(data.DECK)
        rng.shuffle(deck)
        trap_deck = _expand(data.TRAP_COPIES)
        rng.shuffle(trap_deck)
        r.emit(
            RaceSetUp(
                race=s.race,
                tiles=tiles,
                field=field,
                grid=tuple(grid),
                slot_order=slot_order,
                first_seat=first,
                deck=tuple(deck),
                trap_deck=tuple(trap_deck),
            )
        )
        for k in range(players):
            r.draw_cards((first + k) % players, data.HAND_SIZE)
        r.emit(TurnStarted(seat=first, round=0))
        self._auto_end(r)

    def _after_turn(self, r: _Resolver) -> None:
        s = r.state
        seat = s.active
        hand_target = 2 if s.glued[seat] else data.HAND_SIZE
        if len(s.hands[seat]) < hand_target:
            r.draw_cards(seat, hand_target - len(s.hands[seat]))
        if r.state.glued[seat]:
            r.emit(Glued(seat=seat, on=False))
        r.dastardly()
        s = r.state
        next_turn = s.turn_in_round + 1
        rnd = s.round
        if next_turn >= s.players:
            if rnd >= 1 and len(s.field) > s.players:
                r.neutrals()
                if not r.racing:
                    return
                if s.options.dastardly_after_neutrals:
                    r.dastardly()
            next_turn, rnd = 0, rnd + 1
            if rnd >= MAX_ROUNDS:
                r.emit(TurnStarted(seat=s.first_seat, round=rnd))  # ends the race
                return
        r.emit(TurnStarted(seat=(s.first_seat + next_turn) % s.players, round=rnd))
        self._auto_end(r)

    def evolve(self, state: WackyState, event: WackyEvent) -> WackyState:
        """Fold one event into the state."""
        # ``decide`` folds its events as it works them out; the runner then folds the very
        # same event objects into the very same state, so the result is remembered.
        before, events, afters = self._folded
        at = self._fold_at
        if at < len(events) and events[at] is event and before is state:
            after = afters[at]
            self._folded = (after, events, afters)
            self._fold_at = at + 1
            return after
        return self._evolvers[type(event)](state, event)

    def observe(self, state: WackyState, seat: int) -> WackyObservation:
        """Return what ``seat`` knows: its own hand and every public fact."""
        hands = state.hands
        return WackyObservation(
            seat=seat,
            players=state.players,
            phase=state.phase,
            racer_of_seat=state.racer_of_seat,
            race=state.race,
            races=state.options.races,
            tiles=state.tiles,
            field=state.field,
            pos=state.pos,
            stamp=state.stamp,
            dastardly=state.dastardly,
            traps=self._face_down(state.traps),
            hand=hands[seat] if hands else (),
            hand_sizes=tuple(map(len, hands)),
            draw_size=len(state.draw),
            discard=state.discard,
            top=state.top,
            trap_deck_size=len(state.trap_deck),
            trap_discard=state.trap_discard,
            exhausted=state.exhausted,
            glued=state.glued,
            active=state.active,
            round=state.round,
            steps=state.steps,
            wild=state.wild,
            gas_done=state.gas_done,
            finished=state.finished,
            results=state.results,
            points=state.points,
            fields=state.fields,
        )

    def _face_down(self, traps: tuple[int, ...]) -> tuple[bool, ...]:
        """Return where the face-down traps are; unchanged trap tuples are shared by states."""
        known, flags = self._trap_flags
        if traps is not known:
            flags = tuple(map(_NO_TRAP.__lt__, traps))
            self._trap_flags = (traps, flags)
        return flags

    def hidden_variants(self, state: WackyState, seat: int, rng: Rng) -> WackyState | None:
        """Redeal other hands with the draw pile, and face-down traps with the trap deck."""
        if not state.hands:
            return None
        pool = list(state.draw)
        for other, hand in enumerate(state.hands):
            if other != seat:
                pool.extend(hand)
        rng.shuffle(pool)
        hands = list(state.hands)
        for other, hand in enumerate(state.hands):
            if other != seat:
                hands[other] = tuple(sorted(pool[: len(hand)]))
                del pool[: len(hand)]
        draw = tuple(pool)
        face_down = [p for p, t in enumerate(state.traps) if t >= 0]
        trap_pool = list(state.trap_deck)
        trap_pool.extend(state.traps[p] for p in face_down)
        rng.shuffle(trap_pool)
        traps = list(state.traps)
        for p in face_down:
            traps[p] = trap_pool.pop()
        trap_deck = tuple(trap_pool)
        return replace(
            state, hands=tuple(hands), draw=draw, traps=tuple(traps), trap_deck=trap_deck
        )

    def sample_state(
        self, observation: WackyObservation, options: WackyOptions, seat: int, rng: Rng
    ) -> WackyState:
        """Return a state ``seat`` cannot tell from the one it observed, unseen things dealt.

        The other hands and the draw pile are dealt at random from the movement cards the
        seat has not seen; the face-down traps and the trap deck from the traps not yet
        revealed. Every public fact, past races' fields included, is copied.
        """
        obs = observation
        players = obs.players
        unseen = _expand(data.DECK)
        for card in (*_expand(obs.discard), *obs.hand):
            unseen.remove(card)
        traps_unseen = _expand(data.TRAP_COPIES)
        for trap in _expand(obs.trap_discard):
            traps_unseen.remove(trap)
        if not obs.hand_sizes:  # before a race is set up there are no piles
            unseen, traps_unseen = [], []
        rng.shuffle(unseen)
        rng.shuffle(traps_unseen)
        hands = []
        for other, size in enumerate(obs.hand_sizes):
            if other == seat:
                hands.append(obs.hand)
            else:
                hands.append(tuple(sorted(unseen[:size])))
                del unseen[:size]
        traps = tuple(traps_unseen.pop() if down else -1 for down in obs.traps)
        first = obs.race % players
        return WackyState(
            options=options,
            players=players,
            phase=obs.phase,
            racer_of_seat=obs.racer_of_seat,
            race=obs.race,
            tiles=obs.tiles,
            field=obs.field,
            pos=obs.pos,
            stamp=obs.stamp,
            clock=max(obs.stamp, default=-1) + 1,
            dastardly=obs.dastardly,
            traps=traps,
            trap_deck=tuple(traps_unseen),
            trap_discard=obs.trap_discard,
            hands=tuple(hands),
            draw=tuple(unseen),
            discard=obs.discard,
            top=obs.top,
            exhausted=obs.exhausted,
            glued=obs.glued,
            first_seat=first,
            active=obs.active,
            round=obs.round,
            turn_in_round=(obs.active - first) % players,
            steps=obs.steps,
            wild=obs.wild,
            gas_done=obs.gas_done,
            finished=obs.finished,
            results=obs.results,
            fields=obs.fields,
            points=obs.points,
        )

    def render(self, state: WackyState, viewer: int | None = None) -> str:
        """Return the circuit, racers, Dastardly, traps (face down for a viewer) and hands."""
        return render_state(state, viewer)

    def render_observation(self, observation: WackyObservation) -> str:
        """Return what one seat sees: the circuit, traps face down, its own hand."""
        return render_observation(observation)

    def result(self, state: WackyState) -> Result:
        """Rank seats by their racers' finishing order, or by championship points."""
        players = state.players
        if not state.results:
            return Result(ranks=(1,) * players, scores=(0,) * players, unit="places")
        last = state.results[-1]
        places = tuple(last.index(seat) + 1 for seat in range(players))
        summary = tuple(
            f"race {n + 1}: "
            + ", ".join(
                f"{data.RACER_NAMES[field[car]]}{'' if car >= players else f' (seat {car})'}"
                for car in order
            )
            for n, (order, field) in enumerate(zip(state.results, state.fields, strict=True))
        )
        if state.options.races == 1:
            ranks = tuple(1 + sum(1 for other in places if other < mine) for mine in places)
            return Result(ranks=ranks, scores=places, unit="places", summary=summary)
        keys = [(state.points[s], -places[s]) for s in range(players)]
        ranks = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
        return Result(ranks=ranks, scores=state.points, unit="championship points", summary=summary)


# Evolution, one function per event ----------------------------------------------------------
def _finish(state: WackyState, car: int) -> WackyState:
    if car in state.finished:
        return state
    ends = car < state.players or state.options.neutral_finish == "ends"
    return replace(
        state, finished=(*state.finished, car), phase="race_end" if ends else state.phase
    )


def _move(state: WackyState, car: int, to: int) -> WackyState:
    pos, stamp = list(state.pos), list(state.stamp)
    pos[car], stamp[car] = to, state.clock
    state = replace(state, pos=tuple(pos), stamp=tuple(stamp), clock=state.clock + 1)
    return _finish(state, car) if to == FINISH else state


def _on_step(state: WackyState, e: StepPlayed) -> WackyState:
    seat, to, cards = e.seat, e.to, e.cards
    pos, stamp, hands = list(state.pos), list(state.stamp), list(state.hands)
    pos[seat], stamp[seat] = to, state.clock
    if len(cards) == 1:
        hand = list(hands[seat])
        hand.remove(cards[0])
        hands[seat] = tuple(hand)
        discard = list(state.discard)
        discard[cards[0]] += 1
    else:
        hands[seat] = _remove(hands[seat], cards)
        discard = list(_add(state.discard, cards))
    state = replace(
        state,
        hands=tuple(hands),
        discard=tuple(discard),
        top=cards[-1],
        steps=state.steps + 1,
        wild=False,
        pos=tuple(pos),
        stamp=tuple(stamp),
        clock=state.clock + 1,
    )
    return _finish(state, seat) if to == FINISH else state


def _on_moved(state: WackyState, e: RacerMoved) -> WackyState:
    return _move(state, e.car, e.to)


def _on_drawn(state: WackyState, e: CardsDrawn) -> WackyState:
    return replace(
        state,
        draw=state.draw[: len(state.draw) - len(e.cards)],
        hands=_set(state.hands, e.seat, tuple(sorted(state.hands[e.seat] + e.cards))),
    )


def _on_turn_ended(state: WackyState, e: TurnEnded) -> WackyState:
    drawn = e.drawn
    if not drawn:
        return replace(state, phase="after_turn")
    return replace(
        state,
        phase="after_turn",
        draw=state.draw[: len(state.draw) - len(drawn)],
        hands=_set(state.hands, e.seat, tuple(sorted(state.hands[e.seat] + drawn))),
    )


def _on_turn_started(state: WackyState, e: TurnStarted) -> WackyState:
    return replace(
        state,
        phase="turn" if e.round < MAX_ROUNDS else "race_end",
        active=e.seat,
        round=e.round,
        turn_in_round=(e.seat - state.first_seat) % state.players,
        steps=0,
        wild=False,
    )


def _on_advantage_used(state: WackyState, e: AdvantageUsed) -> WackyState:
    effect = ADVANTAGE_EFFECTS[state.racer_of_seat[e.seat]][e.advantage]
    return replace(
        state,
        exhausted=_set(state.exhausted, e.seat, state.exhausted[e.seat] | 1 << e.advantage),
        wild=state.wild or effect == "wild",
    )


def _on_trap_sprung(state: WackyState, e: TrapSprung) -> WackyState:
    state = replace(
        state,
        traps=_set(state.traps, e.position, -1),
        trap_discard=_add(state.trap_discard, (e.trap,)),
    )
    if e.advantage >= 0:
        mask = state.exhausted[e.car] | 1 << e.advantage
        state = replace(state, exhausted=_set(state.exhausted, e.car, mask))
    return state


def _on_trap_laid(state: WackyState, e: TrapLaid) -> WackyState:
    return replace(
        state,
        traps=_set(state.traps, e.position, e.trap),
        trap_deck=state.trap_deck[:-1],
    )


def _on_neutral_card(state: WackyState, e: NeutralCardDrawn) -> WackyState:
    return replace(
        state,
        draw=state.draw[:-1],
        discard=_add(state.discard, (e.card,)),
        top=e.card,
    )


def _on_card_taken(state: WackyState, e: CardTaken) -> WackyState:
    hands = list(state.hands)
    hands[e.source] = _remove(hands[e.source], (e.card,))
    discard = state.discard
    if e.taker >= 0:
        hands[e.taker] = tuple(sorted((*hands[e.taker], e.card)))
    else:
        discard = _add(discard, (e.card,))
    return replace(state, hands=tuple(hands), discard=discard)


def _on_hand_discarded(state: WackyState, e: HandDiscarded) -> WackyState:
    return replace(
        state,
        hands=_set(state.hands, e.seat, _remove(state.hands[e.seat], e.cards)),
        discard=_add(state.discard, e.cards),
    )


def _on_gas_station(state: WackyState, e: GasStationReached) -> WackyState:
    exhausted = tuple(
        mask & ~(1 << i) if i >= 0 else mask
        for mask, i in zip(state.exhausted, e.refreshed, strict=True)
    )
    return replace(state, exhausted=exhausted, gas_done=True)


def _on_tiles_swapped(state: WackyState, e: TilesSwapped) -> WackyState:
    p = e.position
    tiles, traps = list(state.tiles), list(state.traps)
    tiles[p], tiles[p + 1] = tiles[p + 1], tiles[p]
    traps[p], traps[p + 1] = traps[p + 1], traps[p]
    return replace(state, tiles=tuple(tiles), traps=tuple(traps))


def _on_reshuffled(state: WackyState, e: DeckReshuffled) -> WackyState:
    kept = tuple(1 if t == state.top else 0 for t in range(len(state.discard)))
    return replace(state, draw=e.order, discard=kept)


def _on_racer_chosen(state: WackyState, e: RacerChosen) -> WackyState:
    chosen = (*state.racer_of_seat, e.racer)
    done = len(chosen) == state.players
    return replace(
        state,
        racer_of_seat=chosen,
        active=0 if done else state.active + 1,
        phase="setup" if done else "choose",
    )


def _on_race_set_up(state: WackyState, e: RaceSetUp) -> WackyState:
    cars = len(e.field)
    stamp = [0] * cars
    for slot, car in enumerate(e.slot_order):
        stamp[car] = slot
    players = state.players
    traps = len(data.TRAP_KEYS)
    return replace(
        state,
        phase="turn",
        race=e.race,
        tiles=e.tiles,
        field=e.field,
        pos=e.grid,
        stamp=tuple(stamp),
        clock=cars,
        dastardly=-1,
        traps=(-1,) * len(e.tiles),
        trap_deck=e.trap_deck,
        trap_discard=(0,) * traps,
        hands=((),) * players,
        draw=e.deck,
        discard=(0,) * len(data.DECK),
        top=-1,
        exhausted=(0,) * players,
        glued=(False,) * players,
        first_seat=e.first_seat,
        active=e.first_seat,
        round=0,
        turn_in_round=0,
        steps=0,
        wild=False,
        pending=(),
        gas_done=False,
        finished=(),
    )


def _on_race_ended(state: WackyState, e: RaceEnded) -> WackyState:
    race = state.race + 1
    return replace(
        state,
        race=race,
        phase="over" if race >= state.options.races else "setup",
        results=(*state.results, e.order),
        fields=(*state.fields, state.field),
        points=tuple(p + q for p, q in zip(state.points, e.points, strict=True)),
    )
