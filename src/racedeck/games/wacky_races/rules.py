"""Wacky Races' rules, section by section of the rulebook: this module is their table of contents.

Each section of the rules summary (``rulebooks/wacky-races.es.txt``) has its module, and
each event of the game is folded by a small function in the module of the rule it belongs
to:

- ``circuit``: the circuit (El circuito): positions and their two slots, choosing the
  racers, a race's set-up;
- ``moving``: players' turns: the three steps, arriving on a position, the refill, the
  turn's end and the next turn;
- ``movement_cards``: the draw pile, the discard pile and the hands;
- ``terrain``: the terrains and the special tile of stage two (Swamp, Level Crossing,
  Crossroads, A.C.M.E. Laboratory);
- ``traps``: traps stop a racer, unless an advantage cancels them; the eight kinds;
- ``advantages``: the four advantages of each racer;
- ``dastardly``: Dick Dastardly and Muttley follow the discard pile and lay traps;
- ``neutrals``: the neutral racers' round;
- ``gas_station``: the last racer past it refreshes an advantage of every player;
- ``race_end``: the finish, the places, the championship;
- ``resolution``: one decision being resolved, over the core's ``Turn``;
- ``view``: what a seat sees, and states it cannot tell from the truth.

Each seat chooses a racer, then races: a turn is a run of decisions (step with a card,
use an advantage, end the turn). After every player's turn the engine refills the hand
and moves Dick Dastardly; after every round but the first it moves the neutral racers.
The first racer onto the finish wins. Chance (draws, steals, traps laid) is the engine's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from types import MappingProxyType
from typing import Any

from racedeck.core.errors import unknown_event
from racedeck.core.game import Capabilities, Game, OptionRange, Presentation, Score
from racedeck.core.model import ENGINE, ENGINE_STEP, MATCH_OVER, Result, Step
from racedeck.core.rng import Rng
from racedeck.core.step import Turn
from racedeck.games.wacky_races import (
    advantages,
    circuit,
    dastardly,
    data,
    gas_station,
    movement_cards,
    moving,
    names,
    neutrals,
    race_end,
    resolution,
    traps,
    view,
)
from racedeck.games.wacky_races.actions import (
    ChooseRacer,
    PlayStep,
    UseAdvantage,
    WackyAction,
)
from racedeck.games.wacky_races.evaluation import evaluate
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
from racedeck.games.wacky_races.resolution import Resolution, TaskWork
from racedeck.games.wacky_races.state import WackyObservation, WackyState

MAX_ROUNDS = race_end.MAX_ROUNDS
"""A race still running after this many rounds ends on the spot (a safety net only)."""

_SEAT_STEPS = tuple(Step((seat,)) for seat in range(data.FIELD_SIZE))

_TASKS: MappingProxyType[str, TaskWork] = MappingProxyType(
    {
        "draw": advantages.draw_two,
        "steal": advantages.steal_card,
        "magnet": traps.magnet_card,
    }
)
"""The chance work a seat's action may queue, by kind, in the section of its rule."""


class WackyRaces(Game[WackyState, WackyAction, WackyEvent, WackyObservation, WackyOptions]):
    """Wacky Races: The Board Game for 1-6 players, neutral racers filling the field to six."""

    name = "wacky-races"
    title = "Wacky Races: The Board Game"
    rules_version = "3"
    state_version = 2
    min_players = 1
    max_players = 6
    options_type = WackyOptions
    event_type = WackyEvent
    action_type = WackyAction
    state_type = WackyState
    observation_type = WackyObservation
    scores = (
        Score(name="places", higher_is_better=False),
        Score(name="championship points"),
    )
    """One race scores each seat's place; a championship its points."""
    presentation = Presentation(
        render=render_state, render_observation=render_observation, describe=names.describe
    )
    """The circuit, racers, Dastardly, traps (face down for a viewer) and hands."""
    capabilities = Capabilities(
        sampling=True, evaluation=True, hidden_information=True, rules_versions=("1", "2")
    )
    conformance_options = (
        {},
        {"races": 2, "special_tile": "crossroads", "dastardly_after_neutrals": True},
        {"special_tile": "swamp", "neutral_finish": "continues"},
        {"special_tile": "swamp", "swamp_holds_neutrals": True, "short_turn_hands": True},
    )
    option_ranges = (
        OptionRange.between("races", 1, 100),
        OptionRange(
            "special_tile", ("random", "swamp", "level_crossing", "crossroads", "acme_laboratory")
        ),
        OptionRange("dastardly_after_neutrals", (False, True)),
        OptionRange("neutral_finish", ("ends", "continues")),
        OptionRange("swamp_holds_neutrals", (False, True)),
        OptionRange("short_turn_hands", (False, True)),
    )

    def under_rules(self, version: str) -> WackyRaces:
        """Return the game of rules version ``version``: this one, version 2's or version 1's."""
        if version == "1":
            return WackyRacesRulesV1()
        if version == "2":
            return WackyRacesRulesV2()
        super().under_rules(version)  # the current version, or refused
        return self

    def check_options(self, options: WackyOptions) -> None:
        """Reject option values the rules cannot play."""
        race_end.check_options(options)

    def set_up(self, options: WackyOptions, players: int) -> WackyState:
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
            return ()
        if state.phase == "turn":
            return moving.turn_actions(state, seat)
        if state.phase == "choose":
            return circuit.racer_choices(state)
        return ()

    def take(
        self, turn: Turn[WackyState, WackyEvent], actor: int, action: WackyAction | None
    ) -> None:
        """Emit the events of ``actor``'s legal ``action``; the engine's turn is all ``follow``.

        An effect that needs chance (a steal, the Giant Magnet, a draw that needs a shuffle)
        is queued for the engine (``TaskQueued``).
        """
        if actor == ENGINE:
            return
        # The core hands over its own copy of a legal action: its type is exact.
        r = Resolution(turn, True)
        if type(action) is PlayStep:
            moving.play_step(r, actor, action.cards)
        elif type(action) is UseAdvantage:
            moving.arrive_all(r, advantages.use(r, actor, action))
        elif type(action) is ChooseRacer:
            turn.emit(RacerChosen(seat=actor, racer=action.racer))
        else:
            moving.end_turn(r, actor, "ended")

    def follow(self, turn: Turn[WackyState, WackyEvent]) -> bool:
        """Emit the next piece of work no seat decides; False when a seat must decide.

        A turn ends by itself when a trap stopped the racer or nothing is left to do but end
        it. The rest is the engine's and waits for its turn: the chance work an action
        queued, the turn's end (refill, Dastardly, the neutral racers, the next turn), a
        race's end and the next race's set-up.
        """
        s = turn.state
        engine = turn.engine
        phase = s.phase
        if phase == "turn" and not engine and moving.stopped_this_decision(turn.events, s.active):
            moving.end_turn(Resolution(turn, True), s.active, "trap")
            return True
        if s.pending:
            if not engine:
                return False
            r = Resolution(turn, False)
            for kind, seat, target in s.pending:
                _TASKS[kind](r, seat, target)
            r.emit(TasksDone())
            return True
        if phase == "turn":
            if moving.can_go_on(s, s.active):
                return False
            moving.end_turn(Resolution(turn, not engine), s.active, "nothing left to do")
            return True
        if not engine:
            return False
        r = Resolution(turn, False)
        if phase == "after_turn":
            moving.after_turn(r)
        elif phase == "race_end":
            race_end.end_race(r)
        elif phase == "setup":
            circuit.set_up(r)
            moving.start_race(r)
        else:
            return False
        return True

    def explain_illegal(self, state: WackyState, seat: int, action: object) -> str:
        """Say which rule refuses ``action``."""
        if state.pending:
            return "the engine must first finish the chance work an action queued"
        if seat != state.active or state.phase not in ("turn", "choose"):
            return f"it is not seat {seat}'s turn (phase {state.phase!r}, seat {state.active} acts)"
        if state.phase == "choose":
            return circuit.why_choice_illegal(action)
        if isinstance(action, ChooseRacer):
            return "racers are chosen before the first race only"
        if isinstance(action, PlayStep):
            return moving.why_step_illegal(state, seat, action)
        if isinstance(action, UseAdvantage):
            return advantages.why_illegal(state, seat, action)
        return "not a legal action now"

    def evolve(self, state: WackyState, event: WackyEvent) -> WackyState:
        """Fold one event into the state: each kind by the rule it belongs to."""
        # The commonest kinds first (a race's steps, moves, turns, Dastardly, neutral cards):
        # each class pattern that fails costs an ``isinstance`` through the events' metaclass.
        match event:
            case StepPlayed():
                return moving.on_step_played(state, event)
            case RacerMoved():
                return moving.on_racer_moved(state, event)
            case TurnStarted():
                return moving.on_turn_started(state, event)
            case TurnEnded():
                return moving.on_turn_ended(state, event)
            case DastardlyMoved():
                return dastardly.on_dastardly_moved(state, event)
            case NeutralCardDrawn():
                return neutrals.on_neutral_card_drawn(state, event)
            case AdvantageUsed():
                return advantages.on_advantage_used(state, event)
            case NeutralsMoving():
                return neutrals.on_neutrals_moving(state, event)
            case TrapLaid():
                return dastardly.on_trap_laid(state, event)
            case TrapSprung():
                return traps.on_trap_sprung(state, event)
            case CardsDrawn():
                return movement_cards.on_cards_drawn(state, event)
            case TaskQueued():
                return resolution.on_task_queued(state, event)
            case CardTaken():
                return movement_cards.on_card_taken(state, event)
            case TasksDone():
                return resolution.on_tasks_done(state, event)
            case TrapRemoved():
                return advantages.on_trap_removed(state, event)
            case AdvantageRefreshed():
                return advantages.on_advantage_refreshed(state, event)
            case Glued():
                return traps.on_glued(state, event)
            case DeckReshuffled():
                return movement_cards.on_deck_reshuffled(state, event)
            case RacerChosen():
                return circuit.on_racer_chosen(state, event)
            case GasStationReached():
                return gas_station.on_gas_station_reached(state, event)
            case HandDiscarded():
                return traps.on_hand_discarded(state, event)
            case AdvantageExhausted():
                return advantages.on_advantage_exhausted(state, event)
            case TilesSwapped():
                return advantages.on_tiles_swapped(state, event)
            case RaceSetUp():
                return circuit.on_race_set_up(state, event)
            case RaceEnded():
                return race_end.on_race_ended(state, event)
            case TrapsReshuffled():
                return dastardly.on_traps_reshuffled(state, event)
            case _:
                unknown_event(event)

    def observe(self, state: WackyState, seat: int) -> WackyObservation:
        """Return what ``seat`` knows: its own hand and every public fact."""
        return view.observe(state, seat)

    def hidden_variants(self, state: WackyState, seat: int, rng: Rng) -> WackyState | None:
        """Redeal other hands with the draw pile, and face-down traps with the trap deck."""
        return view.hidden_variants(state, seat, rng)

    def sample_states(
        self, observation: WackyObservation, options: WackyOptions, seat: int, rng: Rng
    ) -> Iterator[WackyState]:
        """Yield states ``seat`` cannot tell from the one it observed, unseen things dealt."""
        while True:
            yield view.sample_state(observation, options, seat, rng)

    def result(self, state: WackyState) -> Result:
        """Rank seats by their racers' finishing order, or by championship points."""
        return race_end.result(state)

    def estimate(self, state: WackyState) -> Result | None:
        """Judge an unfinished match by the game's own measure of who is ahead.

        The game's evaluation (``evaluation.py``, calibrated against full playouts); None
        where it cannot judge yet, and a search's playout goes on.
        """
        return evaluate(state)


RULES_V1_OPTIONS = MappingProxyType({"swamp_holds_neutrals": True, "short_turn_hands": True})
"""Rules version 1 is version 2 with these two readings on (its logs' options lack them)."""


class WackyRacesRulesV1(WackyRaces):
    """Rules version 1, kept so that its logs replay and verify.

    It played the two readings version 2 made options: the Swamp held neutral racers, and
    turns began with what was left in hand (the Glue Trap stopping a refill at two).
    """

    rules_version = "1"

    def parse_options(self, raw: dict[str, Any]) -> WackyOptions:
        """Build the options of a version 1 log: its own, with version 1's readings on."""
        return super().parse_options({**raw, **RULES_V1_OPTIONS})

    def under_rules(self, version: str) -> WackyRaces:
        """Return the game of rules version ``version`` (asked of the current game)."""
        return WackyRaces().under_rules(version)


class WackyRacesRulesV2(WackyRaces):
    """Rules version 2, kept so that its logs replay and verify under their own version.

    Its seat decisions carried the turn's end (refill, Dastardly, the next turn) and the
    last race's end through when they drew nothing; version 3 leaves that work to the
    engine's turn. The events, and so the logs, are the same: only where one decision ends
    and the next begins moved.
    """

    rules_version = "2"

    def under_rules(self, version: str) -> WackyRaces:
        """Return the game of rules version ``version`` (asked of the current game)."""
        return WackyRaces().under_rules(version)
