"""What a bot is, and how it is registered.

A bot receives an observation, the legal actions and its own random generator, and
returns one of the legal actions. It never sees a state. Before a match it may be handed
the game's rules (a stateless forward model, the same object for every match) so that a
search bot can simulate; what it searches from is still only what its observation says.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from racedeck.core.errors import RacedeckError
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.rng import Rng


class Bot(abc.ABC):
    """A strategy for one seat of one match; a new instance plays each match."""

    reads_observation: ClassVar[bool] = True
    """False for bots that never look at their observation (a uniformly random bot): the
    engine then hands them ``NOT_OBSERVED`` and does not build the observation at all."""

    emits_debug: ClassVar[bool] = False
    """True for bots whose ``take_debug`` may return text for the log after a decision."""

    def bind_game(self, game: AnyGame) -> None:  # noqa: B027 - optional hook
        """Receive the rules of the game about to be played, before ``start_match``."""

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:  # noqa: B027 - optional hook
        """Hear that a match starts, which seat this bot has and the match's options."""

    @abc.abstractmethod
    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return one of ``legal`` for the situation ``observation`` describes."""

    def limit_time(self, seconds: float) -> None:  # noqa: B027 - optional hook
        """Obey the match's limit of ``seconds`` per decision, for a bot that times itself.

        Called only for bots whose spec says they enforce their own limit (``time_limit``
        of infinity, as a program's bot does); the engine bounds every other bot itself.
        """

    def take_debug(self) -> str | None:
        """Return (and forget) debug text about the last decision, if the bot has any."""
        return None

    def end_match(self, result: Result) -> None:  # noqa: B027 - optional hook
        """Hear how the match ended."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release what the bot holds (a process, a file); called once, however the match ends."""


class BotFault(Exception):
    """A bot failed in a way it describes itself; the message is the fault line's reason."""


class BotGone(BotFault):
    """The bot can answer no more (its process died); its seat cannot be asked again."""


class BotTimeout(BaseException):
    """Raised inside a bot that overran its decision's time limit.

    A ``BaseException`` so that a bot's own ``except Exception`` cannot swallow it.
    """


BotFactory = Callable[[], Bot]
"""Makes a fresh bot for one seat of one match."""


class BotParameterError(RacedeckError, ValueError):
    """A bot was given a parameter it does not declare, or a value its parameter refuses."""


@dataclass(frozen=True)
class NoParameters:
    """The parameters of a bot that takes none (every heuristic, ``random``, ``human``)."""


NO_PARAMETERS = NoParameters()
"""The declared parameters of a bot that declares none."""


@dataclass(frozen=True)
class Parameter:
    """One declared parameter of a bot, as a command line or a sweep reads it.

    ``type`` is ``int``, ``float``, ``str`` or ``bool``; ``optional`` says that ``none``
    is a value too (no limit); ``choices`` lists the only values a ``str`` may take.
    """

    name: str
    type: type
    default: Any
    doc: str
    optional: bool = False
    choices: tuple[str, ...] | None = None


def declared_parameters(parameters: Any) -> tuple[Parameter, ...]:
    """Return each field of a frozen dataclass of parameters as a ``Parameter``, in order.

    A field's type may be ``int``, ``float``, ``str``, ``bool``, a ``Literal`` of strings
    (its choices) or any of these ``| None``; its docstring (the string after it, kept in
    ``__parameter_docs__``) or else its name is what it does.
    """
    cls = type(parameters)
    hints = typing.get_type_hints(cls)
    docs: dict[str, str] = getattr(cls, "__parameter_docs__", {})
    out = []
    for field in dataclasses.fields(parameters):
        kind, optional, choices = _parameter_type(hints[field.name], field.name)
        doc = docs.get(field.name, field.name)
        value = getattr(parameters, field.name)
        out.append(Parameter(field.name, kind, value, doc, optional, choices))
    return tuple(out)


def _parameter_type(hint: Any, name: str) -> tuple[type, bool, tuple[str, ...] | None]:
    """Return (base type, optional, choices) of a parameter's type annotation."""
    optional = False
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args:
        optional = True
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"parameter {name}: only one type besides None is supported")
        hint = rest[0]
    if typing.get_origin(hint) is Literal:
        return str, optional, tuple(str(a) for a in typing.get_args(hint))
    if hint in (int, float, str, bool):
        return hint, optional, None
    raise TypeError(f"parameter {name}: type {hint!r} is not int, float, str, bool or a Literal")


def convert_parameter(parameter: Parameter, value: Any) -> Any:
    """Return ``value`` (a string from a command line, or already typed) as the parameter's type.

    Raises ``BotParameterError`` naming the parameter and what it accepts.
    """
    name = parameter.name
    if isinstance(value, str):
        text = value.strip()
        if parameter.optional and text.lower() == "none":
            return None
        try:
            if parameter.type is bool:
                lowered = text.lower()
                if lowered not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(text)
                value = lowered in ("true", "1", "yes")
            elif parameter.type is int:
                value = int(text)
            elif parameter.type is float:
                value = float(text)
            else:
                value = text
        except ValueError:
            raise BotParameterError(
                f"parameter {name} takes {_accepts(parameter)}, got {value!r}"
            ) from None
    elif value is None and parameter.optional:
        return None
    elif parameter.type is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, parameter.type) or (parameter.type is int and isinstance(value, bool)):
        raise BotParameterError(f"parameter {name} takes {_accepts(parameter)}, got {value!r}")
    if parameter.choices is not None and value not in parameter.choices:
        raise BotParameterError(f"parameter {name} takes {_accepts(parameter)}, got {value!r}")
    return value


def _accepts(parameter: Parameter) -> str:
    """Say in words which values a parameter accepts."""
    what = (
        "one of " + ", ".join(parameter.choices)
        if parameter.choices is not None
        else {int: "an integer", float: "a number", bool: "true or false"}.get(
            parameter.type, "a string"
        )
    )
    return f"{what} or none" if parameter.optional else what


@dataclass(frozen=True)
class BotSpec:
    """A registered bot: its name, what makes it, and which games it plays.

    ``games`` of ``None`` means every game but those in ``excluded``. Several specs may
    share a name when each covers other games: every game's heuristic bot answers to
    ``heuristic``, and ``ismcts`` plays every game but those that register a budget of
    their own under the name.
    ``time_limit`` is the bot's own limit in seconds per decision (``None``: the match's).
    ``reproducible`` is False for bots whose play a seed does not fix (a person, a
    wall-clock budget): re-running their matches cannot verify a log.

    ``parameters`` declares what the bot can be tuned by: a frozen dataclass instance
    holding this registered bot's defaults (``NO_PARAMETERS`` for a bot that takes none),
    and ``configure`` makes a bot from such an instance. ``declared()`` lists them and
    ``with_parameters(name=value, ...)`` returns the spec of the bot tuned so.
    """

    name: str
    factory: BotFactory
    description: str
    version: str = "1"
    games: tuple[str, ...] | None = None
    excluded: tuple[str, ...] = ()
    """With ``games`` None, the games left to another registration of the same name."""
    time_limit: float | None = None
    reproducible: bool = True
    parameters: Any = NO_PARAMETERS
    configure: Callable[[Any], Bot] | None = None
    command: tuple[str, ...] | None = None
    """For a program's bot, its command line (and ``cwd`` its folder): what ``--sandbox``
    runs in place of the factory."""
    cwd: str | None = None

    def declared(self) -> tuple[Parameter, ...]:
        """Return the parameters this bot declares, with this registration's defaults."""
        return declared_parameters(self.parameters)

    def with_parameters(self, **values: Any) -> BotSpec:
        """Return this bot with the named parameters set; values may be strings to convert.

        Raises ``BotParameterError`` for a name the bot does not declare (listing those it
        does) or a value the parameter does not take, including the bot's own checks of
        the combination (a budget with no limit at all).
        """
        declared = {p.name: p for p in self.declared()}
        changes: dict[str, Any] = {}
        for name, value in values.items():
            parameter = declared.get(name)
            if parameter is None:
                known = ", ".join(declared) or "none"
                raise BotParameterError(
                    f"bot {self.name} has no parameter {name!r} (its parameters: {known})"
                )
            changes[name] = convert_parameter(parameter, value)
        if not changes:
            return self
        try:
            tuned = dataclasses.replace(self.parameters, **changes)
        except (TypeError, ValueError) as exc:
            raise BotParameterError(f"bot {self.name}: {exc}") from None
        configure = self.configure
        if configure is None:  # declared parameters without a maker: a registration bug
            raise BotParameterError(f"bot {self.name} declares parameters but cannot take them")
        return dataclasses.replace(
            self, factory=functools.partial(configure, tuned), parameters=tuned
        )

    def plays(self, game: str) -> bool:
        """Return True when this bot can take a seat in ``game``."""
        if self.games is None:
            return game not in self.excluded
        return game in self.games

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready description of this bot."""
        return {
            "name": self.name,
            "version": self.version,
            "games": list(self.games) if self.games is not None else None,
            "excluded": list(self.excluded),
            "description": self.description,
            "reproducible": self.reproducible,
            "parameters": [
                {
                    "name": p.name,
                    "type": p.type.__name__,
                    "default": p.default,
                    "optional": p.optional,
                    "choices": list(p.choices) if p.choices is not None else None,
                    "description": p.doc,
                }
                for p in self.declared()
            ],
        }
