"""The contract every game implements: a pure decider.

``initial_state`` gives the state before anything happened; ``next_step`` says who acts;
``legal_actions`` enumerates a seat's choices; ``take`` emits the events of a legal
choice (or of the engine's own turn) into a ``Turn`` that folds each as it is emitted, and
``follow`` adds the automatic consequences one by one (``resolve`` loops it);
``evolve`` folds one event into a state; ``observe`` cuts a state down to what one seat
may know; ``result`` scores a finished match. Only the engine's turn may draw random
numbers, and what it draws goes into events.

A game object is a stateless table of rules: no method changes an attribute, so one
instance serves every match, every search and every thread, and handing it to a bot hands
over no secret. The core owns the step (``racedeck.core.step``): legality is checked there
once per decision, and every event is folded exactly once.
"""

from __future__ import annotations

import abc
import dataclasses
import typing
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, final

import msgspec

from racedeck.core.errors import OptionError
from racedeck.core.model import Action, Event, Observation, Options, Result, Step
from racedeck.core.names import spell
from racedeck.core.rng import Rng

if TYPE_CHECKING:
    from racedeck.core.step import Turn

StateT = TypeVar("StateT", bound=msgspec.Struct)
ActionT = TypeVar("ActionT", bound=Action)
EventT = TypeVar("EventT", bound=Event)
ObservationT = TypeVar("ObservationT", bound=Observation)
OptionsT = TypeVar("OptionsT", bound=Options)


class Score(msgspec.Struct, frozen=True, kw_only=True):
    """What a game's result scores, declared by the game: its name and which way is better."""

    name: str
    """What ``Result.scores`` hold: the ``unit`` of the results that hold it."""
    higher_is_better: bool = True
    """False when a lower score is the better one (a place: 1st beats 2nd)."""


class Capabilities(msgspec.Struct, frozen=True, kw_only=True):
    """What a game offers beyond the contract, declared as data.

    Each flag promises a method that does more than the base's default; the conformance
    suite holds every game to its declaration (``tests/conformance/test_capabilities.py``).
    """

    sampling: bool = False
    """``sample_states`` builds states from a seat's observation (search plays from them)."""
    evaluation: bool = False
    """``estimate`` judges an unfinished match (a search stops its playouts early)."""
    hidden_information: bool = False
    """Some of a state is hidden from a seat: ``hidden_variants`` redeals it."""
    rules_versions: tuple[str, ...] = ()
    """The older rules versions the game still plays (``under_rules``), for their logs."""


def redeals(
    state: StateT | None,
    redeal: Callable[[StateT, int, Rng], StateT | None],
    seat: int,
    rng: Rng,
) -> Iterator[StateT | None]:
    """Yield ``state`` with what ``seat`` cannot see dealt anew by ``redeal``, endlessly.

    The usual ``sample_states``: the state is rebuilt from the observation once, then only
    redealt for each simulation.
    """
    while True:
        if state is None:
            yield None
            continue
        redealt = redeal(state, seat, rng)
        yield state if redealt is None else redealt


def action_kinds(game: AnyGame) -> tuple[str, ...]:
    """Return the kinds of ``game``'s actions (``model.action_kind``), in declared order."""
    kinds = typing.get_args(game.action_type) or (game.action_type,)
    return tuple(str(kind.__struct_config__.tag) for kind in kinds)


def fields_text(value: msgspec.Struct) -> str:
    """Return a struct as one ``name: value`` line per field (the plain way to show one)."""
    return "\n".join(f"{name}: {getattr(value, name)}" for name in value.__struct_fields__)


class Renderer(Protocol):
    """Shows a state as text: ``render(state)``, or ``render(state, viewer)`` for one seat."""

    def __call__(self, state: Any, viewer: int | None = None, /) -> str:
        """Return ``state`` as text, hiding what ``viewer`` (if given) cannot see."""
        ...


@dataclasses.dataclass(frozen=True)
class Presentation:
    """How a game is shown as text, declared beside it (``Game.presentation``), not on it.

    ``render(state, viewer)`` is the state as readable text, with a ``viewer`` seat hiding
    what it cannot see; ``render_observation(observation)`` what one seat sees (by default
    the observation's fields); ``describe(value)`` an action, an event or a card (an int)
    as words a player reads (by default the kind and the fields, cards as numbers:
    ``racedeck.core.names.spell``; a game names its cards by their faces). Pictures are
    registered beside the game through the plugin hook, RL encoders through
    ``racedeck.rl.register_encoder``.
    """

    render: Renderer
    render_observation: Callable[[Any], str] = fields_text
    describe: Callable[[Any], str] = spell


class Game(abc.ABC, Generic[StateT, ActionT, EventT, ObservationT, OptionsT]):
    """A game as a pure decider. Subclasses set the class attributes and the methods."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type[Options]]
    event_type: ClassVar[Any]
    action_type: ClassVar[Any]
    state_type: ClassVar[type[msgspec.Struct]]
    observation_type: ClassVar[Any]
    state_version: ClassVar[int] = 1
    """Bump when the state's fields change: a log's final-state hash is compared only when
    it was written with the same state version (its events and result always are)."""
    conformance_options: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    """Option sets the conformance suite plays at every player count; keep them quick."""
    option_ranges: ClassVar[tuple[OptionRange, ...]] = ()
    """Every option's documented range or enumerated values, for the conformance matrix."""
    scores: ClassVar[tuple[Score, ...]]
    """Every score the game's results may hold, one per ``Result.unit`` it writes, with
    which way is better: standings read it (``score_of``)."""
    presentation: ClassVar[Presentation]
    """How the game is shown as text (``Presentation``)."""
    capabilities: ClassVar[Capabilities] = Capabilities()
    """What the game offers beyond the contract, declared (tools read this, never which
    methods a subclass overrides); pictures and encoders are registered beside the game."""

    def __init__(self) -> None:
        self.event_decoder: msgspec.json.Decoder[EventT] = msgspec.json.Decoder(self.event_type)
        self.action_decoder: msgspec.json.Decoder[ActionT] = msgspec.json.Decoder(self.action_type)

    # The contract -------------------------------------------------------------------
    @final
    def initial_state(self, options: OptionsT, players: int) -> StateT:
        """Return the state before anything has happened, once ``options`` pass their checks.

        Every way of setting a game up comes through here, so no match starts with options
        of another type, out of their ranges (``check_options``) or unfit for the player
        count (``check_players``), however the options were built. ``set_up`` is the game's.
        """
        if not isinstance(options, self.options_type):
            raise OptionError(
                f"{self.name}: options must be {self.options_type.__name__}, "
                f"got {type(options).__name__}"
            )
        # A struct built by hand is not checked against its fields' types (an ``int`` given
        # 1.5 or True, a ``bool`` given "x", a choice given a value it does not list):
        # read back as its own type, it is, exactly as ``parse_options`` would read it.
        try:
            msgspec.json.decode(msgspec.json.encode(options), type=self.options_type)
        except (msgspec.ValidationError, msgspec.EncodeError) as exc:
            raise OptionError(f"{self.name}: options: {exc}") from None
        self.check_options(options)
        self.check_players(options, players)
        return self.set_up(options, players)

    @abc.abstractmethod
    def set_up(self, options: OptionsT, players: int) -> StateT:
        """Return the state before anything has happened (``initial_state`` checked the options)."""

    @abc.abstractmethod
    def next_step(self, state: StateT) -> Step:
        """Return who must act now."""

    @abc.abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> Sequence[ActionT]:
        """Return every legal action of ``seat``, in a fixed order."""

    @final
    def resolve(self, turn: Turn[StateT, EventT], actor: int, action: ActionT | None) -> None:
        """Emit into ``turn`` the events of ``actor`` taking ``action``, then what follows.

        The one way a decision becomes events, in every game: ``take`` emits the action's
        own events, then ``follow`` is asked again and again for the automatic
        consequences until it has nothing more to add. A game writes those two, never
        this loop.
        """
        self.take(turn, actor, action)
        follow = self.follow
        while follow(turn):
            pass

    @abc.abstractmethod
    def take(self, turn: Turn[StateT, EventT], actor: int, action: ActionT | None) -> None:
        """Emit into ``turn`` the events of ``actor`` taking the legal ``action`` itself.

        ``actor`` is ``ENGINE`` (with ``None``) for the engine's own turn, which may draw
        from ``turn.rng``. The core has checked the action against ``legal_actions``.
        What follows from these events without a decision is ``follow``'s.
        """

    def follow(self, turn: Turn[StateT, EventT]) -> bool:
        """Emit the next automatic consequence of ``turn.state``; return False when none is due.

        A consequence is read off ``turn.state`` after the events before it (a reveal once
        both sealed cards are down, a sale, a draw from the top of a pile, a turn that
        ends itself). On a seat's turn it must draw nothing (``turn.engine`` is False):
        work that needs chance waits for the engine's turn, whose consequences may draw.
        The default: nothing ever follows.
        """
        return False

    def explain_illegal(self, state: StateT, seat: int, action: object) -> str:
        """Return why ``action`` is not legal for ``seat`` (only asked when it is not).

        Games override this to name the rule; the default says nothing more.
        """
        return ""

    @abc.abstractmethod
    def evolve(self, state: StateT, event: EventT) -> StateT:
        """Return the state after ``event``; pure, and an error for an event it does not know."""

    @abc.abstractmethod
    def observe(self, state: StateT, seat: int) -> ObservationT:
        """Return exactly what ``seat`` may know in ``state``."""

    @abc.abstractmethod
    def result(self, state: StateT) -> Result:
        """Return the result of a finished match."""

    def estimate(self, state: StateT) -> Result | None:
        """Return a quick judgement of an unfinished match, in the shape of its result.

        For searches that stop a playout early (ISMCTS's ``horizon``): the ranks and scores
        the match would end with if it ended as it stands, by the game's own measure of
        who is ahead. It sees the whole state (a search judges its own sampled worlds) and
        must not draw. ``None`` (the default): the game gives none, and playouts run to
        the end.
        """
        return None

    def sample_states(
        self, observation: ObservationT, options: OptionsT, seat: int, rng: Rng
    ) -> Iterator[StateT | None]:
        """Yield states ``seat`` cannot tell from the true one, one per simulation, endlessly.

        The one hook for sampling hidden information, offered by a game that declares
        ``capabilities.sampling``. A search draws its determinizations for one decision
        from this stream: each gives back ``observation``, what the seat cannot see dealt
        at random (``redeals`` does it for most games), or walked as a chain of deals that
        agree with what play revealed (a bid says something of a hand). The default, for a
        game that declares no sampling, yields ``None``: it cannot build a state.
        """
        while True:
            yield None

    # Helpers shared by every game ------------------------------------------------------
    def score_of(self, result: Result) -> Score:
        """Return the declared score ``result`` holds (found by its unit)."""
        for score in self.scores:
            if score.name == result.unit:
                return score
        raise ValueError(f"{self.name} declares no score {result.unit!r}")

    def hidden_variants(self, state: StateT, seat: int, rng: Rng) -> StateT | None:
        """Return a state that ``seat`` cannot tell from ``state``, its unseen cards redealt.

        Not a sampler for search (``sample_states`` is): the conformance suite redeals a
        true state with it to prove that observations leak nothing, which a state built
        from an observation cannot prove. ``None`` means the game has nothing ``seat``
        cannot see.
        """
        return None

    def under_rules(self, version: str) -> Game[StateT, ActionT, EventT, ObservationT, OptionsT]:
        """Return the game that plays rules version ``version``: a log replays under its own.

        The current version is this game itself; a game that still plays an older version
        returns a game object for it (stateless like this one). Any other version is refused.
        """
        if version == self.rules_version:
            return self
        raise OptionError(
            f"{self.name} rules version {version!r} is not one this engine plays "
            f"(it plays {self.rules_version!r})"
        )

    def parse_options(self, raw: dict[str, Any]) -> OptionsT:
        """Build the options from a mapping of names to values, with clear errors."""
        options = self.convert_options(raw)
        self.check_options(options)
        return options

    def convert_options(self, raw: dict[str, Any]) -> OptionsT:
        """Return ``raw`` as this game's options; an unknown name is refused with the valid ones."""
        known = self.options_type.__struct_fields__
        unknown = sorted(str(name) for name in raw if name not in known)
        if unknown:
            raise OptionError(
                f"{self.name}: unknown option {unknown[0]!r}; its options are {', '.join(known)}"
            )
        try:
            options = msgspec.convert(raw, type=self.options_type, strict=False)
        except msgspec.ValidationError as exc:
            raise OptionError(f"{self.name}: bad option: {exc}") from None
        return options  # type: ignore[return-value]

    def check_options(self, options: OptionsT) -> None:
        """Raise ``OptionError`` when options contradict each other; override as needed."""

    def check_players(self, options: OptionsT, players: int) -> None:
        """Raise ``OptionError`` when ``players`` seats cannot play with these options."""
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, got {players}"
            )


class OptionRange(msgspec.Struct, frozen=True):
    """One option's documented values: an enumeration, or a whole-number range's two ends.

    ``values`` is what the conformance matrix plays (each with the other options at their
    defaults). A range built with ``between`` also sets ``low`` and ``high``, and the
    conformance suite checks that one past either end is refused.
    """

    name: str
    values: tuple[Any, ...]
    low: int | None = None
    high: int | None = None

    @classmethod
    def between(cls, name: str, low: int, high: int) -> OptionRange:
        """Return the range ``low`` to ``high`` of a whole-number option."""
        return cls(name, (low, high), low, high)


AnyGame = Game[Any, Any, Any, Any, Any]
"""A game of any kind, as the runner and the registry hold them."""
