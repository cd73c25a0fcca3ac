"""Checking a bot against the protocol by playing a few matches with it.

Each match seats the bot once, against random bots, at player counts taking turns
from the game's least to its most, under the ``substitute`` fault policy so that one
violation does not hide the next. Every violation is kept with the message behind it.
A program is checked over the subprocess protocol; a registered Python bot is checked
in the engine's process by the same rules (a raise is a ``fault``, an answer that is not
one of the legal actions an ``illegal-action``). With protocol 2 a line is matched to
its decision by the number it echoes, never by its timing, so the same program gets the
same verdict every run.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from racedeck.bots.named import COMMAND_PREFIX, is_program
from racedeck.bots.subprocess_bot import DEFAULT_TIME_LIMIT, SubprocessBot, Violation
from racedeck.bots.violations import clip
from racedeck.core.asking import describe_failure
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import UsageError
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.plugins import Registry


@dataclass(frozen=True)
class Finding:
    """A violation and the match it happened in."""

    match: int
    seed: int
    players: int
    seat: int
    violation: Violation

    def describe(self) -> str:
        """Return the finding as two readable lines: what and where, then the message."""
        v = self.violation
        where = "start" if v.decision < 0 else f"decision {v.decision}"
        text = (
            f"match {self.match} (seed {self.seed}, {self.players} players, seat {self.seat}), "
            f"{where}: {v.kind}: {v.detail}"
        )
        if v.message:
            # A program's line may be a megabyte long: the report shows its start.
            text += f"\n    message: {clip(v.message, MESSAGE_SHOWN)}"
        return text


MESSAGE_SHOWN = 200
"""How much of a violation's message the report shows."""


@dataclass
class CheckReport:
    """What checking a program found."""

    game: str
    command: list[str]
    matches: int = 0
    decisions: int = 0
    findings: list[Finding] = field(default_factory=list)
    program: str = ""
    """What the program called itself in ``ready`` (protocol 2), else ``""``."""

    @property
    def ok(self) -> bool:
        """True when the program kept to the protocol in every match."""
        return not self.findings


def check_program(
    registry: Registry,
    command: Sequence[str],
    game_name: str,
    *,
    matches: int = 3,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> CheckReport:
    """Play ``matches`` matches with the program ``command`` and report every violation."""
    game = registry.game(game_name)
    options = game.parse_options(dict(game.conformance_options[0]))
    opponent = registry.bot("random", game.name)
    report = CheckReport(game=game.name, command=list(command))
    counts = range(game.min_players, game.max_players + 1)
    for index in range(matches):
        players = counts[index % len(counts)]
        seat = index % players
        match_seed = seed + index
        found: list[Violation] = []
        made: list[SubprocessBot] = []

        def make(found: list[Violation] = found, made: list[SubprocessBot] = made) -> SubprocessBot:
            bot = SubprocessBot(command, time_limit=time_limit, on_violation=found.append)
            made.append(bot)
            return bot

        program = BotSpec(name="program", factory=make, description="", time_limit=float("inf"))
        seats = [opponent] * players
        seats[seat] = program
        run_match(game, options, seats, match_seed, fault_policy="substitute")
        report.matches += 1
        report.decisions += sum(bot.decisions for bot in made)
        named = [f"{b.program[0]} {b.program[1]}" for b in made if b.program is not None]
        report.program = named[0] if named else report.program
        report.findings.extend(
            Finding(index + 1, match_seed, players, seat, violation) for violation in found
        )
    return report


class _Watched(Bot):
    """Plays a registered bot, recording each of its failures as a violation."""

    def __init__(self, bot: Bot, found: list[Violation]) -> None:
        self.bot = bot
        self.found = found
        self.decisions = 0
        self.reads_observation = getattr(bot, "reads_observation", True)  # type: ignore[misc]

    def bind_game(self, game: Any) -> None:
        """Hand the bot the game."""
        self.bot.bind_game(game)

    def start_match(self, game: str, seat: int, players: int, options: Any) -> None:
        """Start the bot's match, recording a failure."""
        self._watch(-1, self.bot.start_match, game, seat, players, options)

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Ask the bot; record a raise, or an answer that is not one of ``legal``."""
        decision = self.decisions
        self.decisions += 1
        answer: Action = self._watch(decision, self.bot.act, observation, legal, rng)
        if not any(answer is offer or answer == offer for offer in legal):
            text = f"{answer!r}"[:200]
            self.found.append(
                Violation(
                    kind="illegal-action",
                    decision=decision,
                    detail="the answer is not one of the legal actions",
                    message=text,
                )
            )
        return answer

    def _watch(self, decision: int, call: Any, *args: Any) -> Any:
        try:
            return call(*args)
        except BaseException as exc:  # checked like a program's fault: recorded, raised on
            reason = describe_failure(exc)
            self.found.append(Violation(kind="fault", decision=decision, detail=reason))
            raise


def check_in_process(
    registry: Registry, spec: BotSpec, game_name: str, *, matches: int = 3, seed: int = 0
) -> CheckReport:
    """Play ``matches`` matches with the registered bot ``spec`` and report its failures."""
    game = registry.game(game_name)
    options = game.parse_options(dict(game.conformance_options[0]))
    opponent = registry.bot("random", game.name)
    report = CheckReport(game=game.name, command=[spec.name], program=f"{spec.name} {spec.version}")
    counts = range(game.min_players, game.max_players + 1)
    for index in range(matches):
        players = counts[index % len(counts)]
        seat = index % players
        found: list[Violation] = []
        made: list[_Watched] = []

        def make(found: list[Violation] = found, made: list[_Watched] = made) -> Bot:
            watched = _Watched(spec.factory(), found)
            made.append(watched)
            return watched

        seats = [opponent] * players
        seats[seat] = BotSpec(name=spec.name, factory=make, description="")
        run_match(game, options, seats, seed + index, fault_policy="substitute")
        report.matches += 1
        report.decisions += sum(bot.decisions for bot in made)
        report.findings.extend(
            Finding(index + 1, seed + index, players, seat, violation) for violation in found
        )
    return report


def check_named(
    registry: Registry,
    name: str,
    game_name: str,
    *,
    matches: int = 3,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> CheckReport:
    """Check what ``name`` names: a program (``cmd:...``, a path, a command line) or a bot."""
    text = name.removeprefix(COMMAND_PREFIX)
    if not is_program(name) and " " not in text:
        spec = registry.bot(text, registry.game(game_name).name)
        if spec.command is None:
            return check_in_process(registry, spec, game_name, matches=matches, seed=seed)
        argv = list(spec.command)
    else:
        try:
            argv = shlex.split(text)
        except ValueError as exc:
            raise UsageError(f"cannot split the command {text!r}: {exc}") from None
        if not argv:
            raise UsageError("the command to check is empty")
    return check_program(
        registry, argv, game_name, matches=matches, seed=seed, time_limit=time_limit
    )
