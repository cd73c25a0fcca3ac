"""Famous 500's rules: the table of contents of the rulebook, wired into a ``Game``.

Each rule lives in the module named after the rulebook's heading that states it:

========================================  =================================================
Dealing the Cards                         ``dealing_the_cards`` (the deal, false starts,
                                          the pit deck)
Customizing Your Race Car                 ``customizing_your_race_car`` (car designs)
The First Lap: sections, playing a card,  ``the_first_lap`` (sealed cards, the reveal,
earning Speed points, subtracting costs   points and costs)
The First Lap: swapping cards, completing ``swapping_cards`` (the swap, the penny)
your first lap
Between Laps                              ``between_laps`` (the trailing driver's discard
                                          and draw)
Making a Pit Stop                         ``making_a_pit_stop`` (declaring, draw and
                                          return, repairs, returning to the race)
Finishing the Race                        ``finishing_the_race`` (out below zero, the
                                          finish line, the result)
========================================  =================================================

What a driver sees is in ``observation``. The engine shuffles and deals, and tosses a coin
for the one tie that needs it; what follows from a state without a choice or chance (the
reveal once both cards are down, a draw from the top of the pit deck, the finish) is
emitted in the same turn as the action that leads to it, by ``follow``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

from racedeck.core.errors import DataError, OptionError, unknown_event
from racedeck.core.game import Capabilities, Game, OptionRange, Presentation, Score, redeals
from racedeck.core.model import ENGINE, ENGINE_STEP, MATCH_OVER, Result, Step
from racedeck.core.rng import Rng
from racedeck.core.step import Turn
from racedeck.games.famous500 import (
    between_laps,
    customizing_your_race_car,
    dealing_the_cards,
    finishing_the_race,
    making_a_pit_stop,
    names,
    observation,
    the_first_lap,
)
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
from racedeck.games.famous500.evaluation import evaluate
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
from racedeck.games.famous500.race_setup import build_setup, compiled_setup, load_named_files
from racedeck.games.famous500.render import render_state
from racedeck.games.famous500.sampling import state_from_observation
from racedeck.games.famous500.state import Famous500Observation, Famous500State, Setup

_ONE_DRIVER = (Step((0,)), Step((1,)))
_BOTH_DRIVERS = Step((0, 1))
_ENGINE_PHASES = frozenset({"deal", "reveal", "pit_draw", "lap_draw", "finish"})
"""Phases whose event follows from the state by itself (but for a coin toss at a reveal)."""
_NOTHING: tuple[Famous500Action, ...] = ()


class Famous500(
    Game[Famous500State, Famous500Action, Famous500Event, Famous500Observation, Famous500Options]
):
    """Famous 500, the two-player car racing card game."""

    name = "famous-500"
    title = "Famous 500"
    rules_version = "2"
    max_laps: ClassVar[int] = between_laps.MAX_LAPS
    """The longest race these rules play (``between_laps``)."""
    min_players = 2
    max_players = 2
    options_type = Famous500Options
    event_type = Famous500Event
    action_type = Famous500Action
    state_type = Famous500State
    observation_type = Famous500Observation
    scores = (Score(name="speed points"),)
    presentation = Presentation(render=render_state, describe=names.describe)
    """The track, both car sheets and the cards in play, hidden from a viewer."""
    capabilities = Capabilities(
        sampling=True, evaluation=True, hidden_information=True, rules_versions=("1",)
    )
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

    option_ranges = (
        OptionRange("track", ("monaco",)),
        OptionRange("cards", ("standard",)),
        OptionRange.between("laps", 1, between_laps.MAX_LAPS),
        OptionRange("track_data", (None,)),
        OptionRange("cards_data", (None,)),
    )

    def under_rules(self, version: str) -> Famous500:
        """Return the game of rules version ``version``: this one, or version 1's."""
        if version == "1":
            return Famous500RulesV1()
        super().under_rules(version)  # the current version, or refused
        return self

    # Options ----------------------------------------------------------------------------
    def parse_options(self, raw: dict[str, Any]) -> Famous500Options:
        """Build the options, reading a named track or card file into the options."""
        options = load_named_files(self.convert_options(raw))
        self.check_options(options)
        return options

    def check_options(self, options: Famous500Options) -> None:
        """Reject options the rules cannot play, and malformed embedded data."""
        if not 1 <= options.laps <= self.max_laps:
            why = (
                " (the pit deck's three cards last three between-laps draws, and discards"
                " leave the game)"
                if options.laps > self.max_laps == between_laps.MAX_LAPS
                else ""
            )
            raise OptionError(
                f"famous-500: laps must be 1 to {self.max_laps}, got {options.laps}{why}"
            )
        try:
            build_setup(options)
        except DataError as exc:
            raise OptionError(f"famous-500: {exc}") from None

    def setup(self, options: Famous500Options) -> Setup:
        """Return the compiled track and card table the options name."""
        return compiled_setup(options)

    # The contract ------------------------------------------------------------------------
    def set_up(self, options: Famous500Options, players: int) -> Famous500State:
        """Return the race before the first deal."""
        return Famous500State(options=options, setup=compiled_setup(options))

    def next_step(self, state: Famous500State) -> Step:
        """Return who acts: the engine, one driver, or both for a sealed choice."""
        phase = state.phase
        if phase == "choose":
            laid0, laid1 = state.laid
            if laid0:
                return _ONE_DRIVER[1] if not laid1 else ENGINE_STEP
            return _BOTH_DRIVERS if not laid1 else _ONE_DRIVER[0]
        if phase in _ENGINE_PHASES:
            return ENGINE_STEP
        if phase == "pit_return" or phase == "pit_repair":
            return _ONE_DRIVER[state.pit_order[0]]
        if phase == "discard":
            return _ONE_DRIVER[state.trailing]
        if phase == "design":
            return _waiting(state.designed[0], state.designed[1])
        if phase == "start":
            return _waiting(state.start[0] >= 0, state.start[1] >= 0)
        return MATCH_OVER

    def legal_actions(self, state: Famous500State, seat: int) -> Sequence[Famous500Action]:
        """Return every legal action of ``seat``, in a fixed order."""
        phase = state.phase
        if phase == "choose":
            return the_first_lap.card_choices(state, seat)
        if phase == "pit_repair":
            return making_a_pit_stop.repair_choices(state, seat)
        if phase == "pit_return":
            return making_a_pit_stop.return_choices(state, seat)
        if phase == "discard":
            return between_laps.discard_choices(state, seat)
        if phase == "design":
            return customizing_your_race_car.design_choices(state, seat)
        if phase == "start":
            return dealing_the_cards.start_choices(state, seat)
        return _NOTHING

    def may_false_start(self, state: Famous500State, seat: int) -> bool:
        """Return True when every card dealt to ``seat`` is above the false-start speed (100)."""
        return dealing_the_cards.may_false_start(state, seat)

    def take(
        self,
        turn: Turn[Famous500State, Famous500Event],
        actor: int,
        action: Famous500Action | None,
    ) -> None:
        """Emit a driver's (legal) action, or run the engine's turn: the deal, a coin's toss."""
        match action:
            case None if actor == ENGINE:
                if turn.state.phase == "deal":
                    dealing_the_cards.deal(turn)
                elif turn.state.phase == "reveal":
                    # The one reveal left to the engine: both pit, tied, a coin to toss.
                    the_first_lap.reveal(turn)
            case Race() | PitStop():
                the_first_lap.lay_card(turn, actor, action)
            case Repair():
                making_a_pit_stop.repair(turn, actor, action)
            case LeavePit():
                making_a_pit_stop.leave_pit(turn, actor)
            case ReturnCard():
                making_a_pit_stop.return_card(turn, actor, action)
            case Discard():
                between_laps.discard(turn, actor, action)
            case Design():
                customizing_your_race_car.design_car(turn, actor, action)
            case KeepCards() | FalseStart():
                dealing_the_cards.answer_the_deal(turn, actor, action)

    def follow(self, turn: Turn[Famous500State, Famous500Event]) -> bool:
        """Emit what follows from ``turn.state`` by itself, if anything.

        The reveal once both cards are down (unless a coin must be tossed: that is the
        engine's own turn), a draw from the top of the pit deck (in the pit or between
        laps), and the finish need no choice and no chance.
        """
        state = turn.state
        phase = state.phase
        if phase == "reveal":
            pits = state.pits
            # Only a reveal where both drivers pit may need a coin (asked only then).
            if pits[0] and pits[1] and making_a_pit_stop.coin_needed(state):
                return False
            the_first_lap.reveal(turn)
        elif phase == "pit_draw":
            making_a_pit_stop.draw(turn)
        elif phase == "lap_draw":
            between_laps.draw(turn)
        elif phase == "finish":
            finishing_the_race.finish(turn)
        else:
            return False
        return True

    def explain_illegal(self, state: Famous500State, seat: int, action: object) -> str:
        """Say which rule ``action`` breaks."""
        phase = state.phase
        if action is None:
            return "a driver must choose an action"
        if isinstance(action, Race | PitStop | ReturnCard | Discard):
            wanted = {"Race": "choose", "PitStop": "choose", "ReturnCard": "pit_return"}
            if phase != wanted.get(type(action).__name__, "discard"):
                return f"{type(action).__name__} is not a choice in phase {phase!r}"
            if action.card not in state.hands[seat]:
                return f"card {action.card} is not in seat {seat}'s hand {state.hands[seat]}"
            if isinstance(action, PitStop):
                return making_a_pit_stop.why_no_pit_stop(state)
        if isinstance(action, Design):
            return customizing_your_race_car.why_not_a_design(state, action)
        if isinstance(action, FalseStart) and phase == "start":
            return dealing_the_cards.why_no_false_start(state, seat)
        if isinstance(action, Repair):
            return making_a_pit_stop.why_no_repair(state, action)
        return f"{type(action).__name__} is not a choice for seat {seat} in phase {phase!r}"

    def evolve(self, state: Famous500State, event: Famous500Event) -> Famous500State:
        """Fold one event into the state: each kind by the rule it belongs to."""
        match event:
            case CardLaid():
                return the_first_lap.card_laid(state, event)
            case SectionRevealed():
                return the_first_lap.section_revealed(state, event)
            case StartChosen():
                return dealing_the_cards.start_chosen(state, event)
            case CarDesigned():
                return customizing_your_race_car.car_designed(state, event)
            case Dealt():
                return dealing_the_cards.dealt(state, event)
            case RaceFinished():
                return finishing_the_race.race_finished(state, event)
            case CardDrawn():
                return _card_drawn(state, event)
            case CardReturned():
                return making_a_pit_stop.card_returned(state, event)
            case Repaired():
                return making_a_pit_stop.repaired(state, event)
            case PitLeft():
                return making_a_pit_stop.pit_left(state, event)
            case CardDiscarded():
                return between_laps.card_discarded(state, event)
            case _:
                unknown_event(event)

    # Observation, variants, result, render ------------------------------------------------
    def observe(self, state: Famous500State, seat: int) -> Famous500Observation:
        """Return what ``seat`` knows: its own cards and every public fact."""
        return observation.observe(state, seat)

    def hidden_variants(self, state: Famous500State, seat: int, rng: Rng) -> Famous500State | None:
        """Redeal what ``seat`` cannot see, consistently with what it has seen."""
        return observation.hidden_variants(state, seat, rng)

    def result(self, state: Famous500State) -> Result:
        """Rank the winner first; scores are Speed points."""
        return finishing_the_race.result(state)

    def estimate(self, state: Famous500State) -> Result | None:
        """Judge an unfinished match by the game's own measure of who is ahead.

        The game's evaluation (``evaluation.py``, calibrated against full playouts); None
        where it cannot judge yet, and a search's playout goes on.
        """
        return evaluate(state)

    def sample_states(
        self, observation: Famous500Observation, options: Famous500Options, seat: int, rng: Rng
    ) -> Iterator[Famous500State | None]:
        """Yield the state ``observation`` gives (``sampling``), what is unseen redealt."""
        state: Famous500State = state_from_observation(observation, options)
        return redeals(state, self.hidden_variants, seat, rng)


class Famous500RulesV1(Famous500):
    """Rules version 1, kept so that its logs replay and verify: 1 to 20 laps.

    From the fifth lap on its trailing driver drew nothing from the empty pit deck, so a
    hand could run dry; version 2 refuses more than ``between_laps.MAX_LAPS`` laps instead.
    """

    rules_version = "1"
    max_laps = 20

    def under_rules(self, version: str) -> Famous500:
        """Return the game of rules version ``version`` (asked of the current game)."""
        return Famous500().under_rules(version)


def _card_drawn(state: Famous500State, event: CardDrawn) -> Famous500State:
    """Fold a draw from the top of the pit deck: in the pit, or between laps."""
    if state.phase == "pit_draw":
        return making_a_pit_stop.pit_card_drawn(state, event)
    return between_laps.lap_card_drawn(state, event)


def _waiting(done0: bool, done1: bool) -> Step:
    """Return the step of a sealed choice: the drivers who have not answered yet."""
    if done0:
        return MATCH_OVER if done1 else _ONE_DRIVER[1]
    return _ONE_DRIVER[0] if done1 else _BOTH_DRIVERS
