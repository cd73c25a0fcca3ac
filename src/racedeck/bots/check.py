"""Checking a program against the subprocess protocol by playing a few matches with it.

Each match seats the program once, against random bots, at player counts taking turns
from the game's least to its most, under the ``substitute`` fault policy so that one
violation does not hide the next. Every violation is kept with the message behind it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from racedeck.bots.subprocess_bot import DEFAULT_TIME_LIMIT, SubprocessBot, Violation
from racedeck.core.bot import BotSpec
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
            text += f"\n    message: {v.message}"
        return text


@dataclass
class CheckReport:
    """What checking a program found."""

    game: str
    command: list[str]
    matches: int = 0
    decisions: int = 0
    findings: list[Finding] = field(default_factory=list)

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
        report.findings.extend(
            Finding(index + 1, match_seed, players, seat, violation) for violation in found
        )
    return report
