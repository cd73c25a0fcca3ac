"""LACORSA's rules as a pure decider: this module is the table of contents of its sections.

Each section of the rulebook (``rulebooks/lacorsa.txt``) that the game plays has its
module, and each event is folded by a small function in the module of its rule:

- ``pre_race``: "Race Type" (two cars each at 2-3 players, one at 4-6), "Build the Deck"
  and "The Deal";
- ``qualifying``: "Select Cards" and "Start Position": the sealed reveal, the grid, the
  die for ties;
- ``first_lap``: challenges for position: sealed cards, the reveal, passes;
- ``extending``: extend into an open space, or discard to end the turn;
- ``finish``: the order of play, "Next Lap" and "Finish": which car acts next, the end of
  a lap and of the race;
- ``scoring``: the race's points and the championship's ranking;
- ``view``: what a seat sees (Notes on Play 7), and states it cannot tell from the truth;
- ``actions``: the choices of a seat and the tables of them built once; ``data``: the
  ranks of the cards and the points.

The order of play follows track position: each lap starts with the last car and ends
with the leader's turn. A car directly behind another must challenge it; the winner of a
challenge carries on, and two passes end a turn. A car with an open space ahead extends
with an Extend card or discards. When a hand runs out the lap is finished and the race
ends; the cars score 9-6-4-3-2-1 by position.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from racedeck.core.errors import OptionError, unknown_event
from racedeck.core.game import Capabilities, Game, OptionRange, Presentation, Score, redeals
from racedeck.core.model import ENGINE, ENGINE_STEP, MATCH_OVER, Result, Step
from racedeck.core.rng import Rng
from racedeck.core.step import Turn
from racedeck.games.lacorsa import (
    data,
    extending,
    finish,
    first_lap,
    names,
    pre_race,
    qualifying,
    scoring,
    view,
)
from racedeck.games.lacorsa.actions import (
    PLAY_ONE,
    Discard,
    Extend,
    LacorsaAction,
    Play,
    plays,
)
from racedeck.games.lacorsa.data import DRAFTING, EXTEND_RANKS, REDLINE
from racedeck.games.lacorsa.evaluation import evaluate
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
from racedeck.games.lacorsa.pre_race import cars_per_player
from racedeck.games.lacorsa.render import render_observation, render_state
from racedeck.games.lacorsa.sampling import state_from_observation
from racedeck.games.lacorsa.state import LacorsaObservation, LacorsaState

_ENGINE_PHASES = frozenset({"deal", "grid", "score"})
_SEAT_STEPS = tuple(Step((seat,)) for seat in range(12))
"""One step object per seat acting alone: built once, not at every turn."""


_PAIR_STEPS = tuple(
    tuple(Step((min(x, y), max(x, y))) for y in range(len(_SEAT_STEPS)))
    for x in range(len(_SEAT_STEPS))
)
"""``_PAIR_STEPS[x][y]``: seats ``x`` and ``y`` choosing at once (a challenge), in seat order."""


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
    scores = (Score(name="points"),)
    presentation = Presentation(
        render=render_state, render_observation=render_observation, describe=names.describe
    )
    """The strip, the hands (a viewer's own only) and points; cards by their faces."""
    capabilities = Capabilities(
        sampling=True, evaluation=True, hidden_information=True, rules_versions=("1",)
    )
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
    def set_up(self, options: LacorsaOptions, players: int) -> LacorsaState:
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
        """Return the car of ``seat`` that must act now, or -1 (``finish.deciding_car``)."""
        return finish.deciding_car(state, seat)

    def legal_actions(self, state: LacorsaState, seat: int) -> Sequence[LacorsaAction]:
        """Return every distinct legal action (cards of one rank are interchangeable)."""
        car = finish.deciding_car(state, seat)
        if car < 0:
            return ()
        if state.phase == "move":
            return extending.choices(state, car)
        return plays(car, state.hands[car], PLAY_ONE, Play)

    def take(
        self, turn: Turn[LacorsaState, LacorsaEvent], actor: int, action: LacorsaAction | None
    ) -> None:
        """Emit a seat's sealed card, extend or discard, or run the engine's turn."""
        if actor == ENGINE:
            self._engine(turn)
            return
        # By exact type: a legal action is always one of these very classes, and a failed
        # ``isinstance`` on a msgspec struct goes through its metaclass.
        kind = type(action)
        if kind is not Play and kind is not Extend and kind is not Discard:
            kind = next((k for k in (Play, Extend, Discard) if isinstance(action, k)), kind)
        if kind is Play:
            play: Play = action  # type: ignore[assignment]
            turn.emit(CardsCommitted(car=play.car, cards=play.cards))
        elif kind is Extend:
            extend: Extend = action  # type: ignore[assignment]
            turn.emit(Extended(car=extend.car, card=extend.card))
        elif kind is Discard:
            discard: Discard = action  # type: ignore[assignment]
            turn.emit(Discarded(car=discard.car, cards=discard.cards))

    def follow(self, turn: Turn[LacorsaState, LacorsaEvent]) -> bool:
        """Reveal a challenge's sealed cards once both are down, in the same decision."""
        if turn.state.phase == "reveal":
            first_lap.reveal(turn)
            return True
        return False

    def explain_illegal(self, state: LacorsaState, seat: int, action: object) -> str:
        """Say which rule ``action`` breaks."""
        if not isinstance(action, Play | Extend | Discard):
            return f"{type(action).__name__} is not a LACORSA action"
        return self._why_illegal(state, seat, action)

    def _why_illegal(self, state: LacorsaState, seat: int, action: LacorsaAction) -> str:
        car = finish.deciding_car(state, seat)
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
            if not extending.may_extend(state, car):
                return "there is no open space ahead: the board ends here"
            return _suits_have_no_rank(hand, (action.card,))
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
        return _suits_have_no_rank(hand, cards)

    def _engine(self, turn: Turn[LacorsaState, LacorsaEvent]) -> None:
        phase = turn.state.phase
        if phase == "deal":
            pre_race.deal(turn)
        elif phase == "grid":
            qualifying.start_position(turn)
        elif phase == "score":
            scoring.score(turn)

    def evolve(self, state: LacorsaState, event: LacorsaEvent) -> LacorsaState:
        """Fold one event into the state: each kind by the rule it belongs to."""
        match event:
            case CardsCommitted():
                return first_lap.committed(state, event)
            case ChallengeResolved():
                return first_lap.after_challenge(state, event)
            case Extended():
                return extending.extended(state, event)
            case Discarded():
                return extending.discarded(state, event)
            case RaceDealt():
                return pre_race.dealt(state, event)
            case QualifyingRevealed():
                return qualifying.revealed(state, event)
            case QualifyingTieRolled():
                return state  # the grid event carries the dice's outcome
            case GridFormed():
                return qualifying.grid_formed(state, event)
            case RaceScored():
                return scoring.scored(state, event)
            case _:
                unknown_event(event)

    def observe(self, state: LacorsaState, seat: int) -> LacorsaObservation:
        """Return what ``seat`` knows: its own hands and every public fact (``view``)."""
        return view.observe(state, seat)

    def hidden_variants(self, state: LacorsaState, seat: int, rng: Rng) -> LacorsaState | None:
        """Redeal every card ``seat`` cannot see among the cars that might hold it (``view``)."""
        return view.hidden_variant(state, seat, rng)

    def sample_states(
        self, observation: LacorsaObservation, options: LacorsaOptions, seat: int, rng: Rng
    ) -> Iterator[LacorsaState | None]:
        """Yield the state ``observation`` gives (``sampling``), its unseen cards redealt."""
        return redeals(state_from_observation(observation, options), view.hidden_variant, seat, rng)

    def result(self, state: LacorsaState) -> Result:
        """Rank seats by championship points, then most wins, most seconds, and so on."""
        return scoring.result(state)

    def estimate(self, state: LacorsaState) -> Result | None:
        """Judge an unfinished match by the game's own measure of who is ahead.

        The game's evaluation (``evaluation.py``, calibrated against full playouts); None
        where it cannot judge yet, and a search's playout goes on.
        """
        return evaluate(state)


def _suits_have_no_rank(hand: tuple[int, ...], cards: tuple[int, ...]) -> str:
    """Say which offered card stands for a card of the same rank in another suit, if any.

    Rulebook, "Terms": "Suits are used to divide the playing cards into groups of
    thirteen. The suits have no rank." Cards of one rank are one choice, offered once as
    the hand's first card of that rank (``actions.plays``).
    """
    for c in cards:
        first = next(x for x in hand if x >> 3 == c >> 3)
        if first != c:
            face = data.label(c)
            return (
                f"the suits have no rank (Terms): card {c} ({face} of {_suit(c)}) is the same "
                f"choice as card {first} ({face} of {_suit(first)}), which is offered for its "
                f"rank; play card {first}"
            )
    return ""


def _suit(card: int) -> str:
    return data.SUITS[data.suit_of(card)]


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
