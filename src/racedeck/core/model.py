"""Base classes of every game's structs, and the engine-level values the contract uses.

Games subclass these with ``tag=...`` so that each game's events, actions and
observations form tagged unions that ``msgspec`` decodes in one pass.
"""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Something that happened in a match: the only thing a log stores."""


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A choice a seat makes; ``decide`` turns a legal one into events."""


def action_kind(action: Action) -> str:
    """Return the kind of ``action``: the tag its game's log names it by (``move``, ``bid``)."""
    return str(type(action).__struct_config__.tag)


class Observation(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Everything one seat may know at one moment, and nothing more."""


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A game's options; every field has a default that follows the rulebook."""


class Unobserved(Observation, frozen=True, kw_only=True, tag="unobserved"):
    """What a bot that declares it never reads its observation is handed instead of one."""


NOT_OBSERVED = Unobserved()
"""The one ``Unobserved``: bots with ``reads_observation = False`` get it, at no cost."""


ENGINE = -1
"""The actor that stands for the engine itself: chance, scoring and non-player racers."""


class Step(msgspec.Struct, frozen=True):
    """Who must act next: some seats, the engine, or nobody once the match is over.

    More than one seat means a sealed, simultaneous decision: each of them chooses from
    the same state and none of them sees another's choice before it is revealed.
    """

    seats: tuple[int, ...] = ()
    engine: bool = False

    @property
    def over(self) -> bool:
        """True when nobody is to act any more: the match has ended."""
        return not self.seats and not self.engine


ENGINE_STEP = Step(engine=True)
"""The step in which the engine acts."""

MATCH_OVER = Step()
"""The step of a finished match."""


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """How a match ended, per seat.

    ``ranks`` gives each seat's place (1 is best; tied seats share a place), ``scores``
    what each seat earned in the game's own unit (points, dollars, speed points), and
    ``summary`` a few readable lines about the match.
    """

    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    unit: str
    summary: tuple[str, ...] = ()


def ranks_from_scores(scores: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Return competition ranks (1 is best, ties share a place) for higher-is-better scores."""
    return tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)
