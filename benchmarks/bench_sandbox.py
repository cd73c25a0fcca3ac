"""What ``--sandbox`` costs: per decision and per match, against in-process and plain programs.

One LACORSA race (``races=1``), seat 0 played five ways, seat 1 by ``random`` in the
engine: ``heuristic`` in the engine's process; the same bot through
``racedeck.bots.host`` as a plain subprocess, and in a sandbox; the Python example
program as a plain subprocess, and in a sandbox. The ways take turns, match by match, in
one run, so the machine's drift falls on all of them alike. A decision's cost is the
mean time seat 0's ``act`` takes as the engine sees it; a match's is its wall time,
start-up and shutdown included. ``python -m benchmarks.bench_sandbox [MATCHES]``.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks.harness import Benchmark
from racedeck.bots.sandbox import Sandbox
from racedeck.bots.sandboxed import HostBot, sandboxed
from racedeck.bots.subprocess_bot import subprocess_spec
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

EXAMPLE = Path(__file__).parents[1] / "plugins" / "subprocess-python" / "program" / "bot.py"
_registry = load_registry(entry_points=False)
_game = _registry.game("lacorsa")
_options = _game.parse_options({"races": 1})
_random = _registry.bot("random", "lacorsa")
_heuristic = _registry.bot("heuristic", "lacorsa")


class _Timed(Bot):
    """Passes every call to a bot, adding up the time its ``act`` takes."""

    spent: list[float] = []

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.emits_debug = bot.emits_debug  # type: ignore[misc]

    def bind_game(self, game: object) -> None:
        """Pass the game on."""
        self.bot.bind_game(game)  # type: ignore[arg-type]

    def limit_time(self, seconds: float) -> None:
        """Pass the limit on."""
        self.bot.limit_time(seconds)

    def start_match(self, game: str, seat: int, players: int, options: object) -> None:
        """Pass the start on."""
        self.bot.start_match(game, seat, players, options)  # type: ignore[arg-type]

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Time the bot's answer."""
        start = time.perf_counter()
        try:
            return self.bot.act(observation, legal, rng)
        finally:
            _Timed.spent.append(time.perf_counter() - start)

    def take_debug(self) -> str | None:
        """Pass the debug text on."""
        return self.bot.take_debug()

    def end_match(self, result: object) -> None:
        """Pass the end on."""
        self.bot.end_match(result)  # type: ignore[arg-type]

    def close(self) -> None:
        """Let the bot go."""
        self.bot.close()


def _timed(spec: BotSpec) -> BotSpec:
    factory = spec.factory
    return replace(spec, factory=lambda: _Timed(factory()))


def _plain_host() -> BotSpec:
    boxed = sandboxed(_heuristic, Sandbox(), entry_points=False)
    made = boxed.factory()
    assert isinstance(made, HostBot)
    command = [c for c in made.command]  # the host's own command line, without the sandbox
    env = made.env

    def factory() -> Bot:
        bot = HostBot(command, time_limit=60, start_limit=30)
        bot.env = env
        return bot

    return replace(boxed, factory=factory)


def ways() -> dict[str, BotSpec]:
    """The five ways of playing seat 0."""
    small = Sandbox()
    # The system's interpreter by its path in both: a bare name might find a slow shim.
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    program = subprocess_spec("example", [python, str(EXAMPLE)])
    return {
        "in-process heuristic": _heuristic,
        "host, plain subprocess": _plain_host(),
        "host, --sandbox": sandboxed(_heuristic, small, entry_points=False),
        "program, plain subprocess": program,
        "program, --sandbox": sandboxed(program, small),
    }


def measure(matches: int) -> dict[str, tuple[float, float]]:
    """Return, per way, the median match time and the mean decision time, in seconds."""
    seats = {name: _timed(spec) for name, spec in ways().items()}
    match_times: dict[str, list[float]] = {name: [] for name in seats}
    decisions: dict[str, list[float]] = {name: [] for name in seats}
    for index in range(matches):
        for name, spec in seats.items():
            _Timed.spent = []
            start = time.perf_counter()
            outcome = run_match(_game, _options, [spec, _random], index)
            match_times[name].append(time.perf_counter() - start)
            assert outcome.forfeit is None, (name, outcome.forfeit)
            decisions[name].extend(_Timed.spent)
    return {
        name: (statistics.median(match_times[name]), statistics.fmean(decisions[name]))
        for name in seats
    }


def table(figures: dict[str, tuple[float, float]]) -> str:
    """Return the figures as a table, in milliseconds."""
    lines = [f"{'seat 0 played by':<28}{'per match':>12}{'per decision':>15}"]
    for name, (match, decision) in figures.items():
        lines.append(f"{name:<28}{match * 1e3:>9.1f} ms{decision * 1e3:>12.3f} ms")
    return "\n".join(lines)


def benchmarks() -> list[Benchmark]:
    """Matches a second with seat 0 sandboxed (the harness's view; the table says more)."""
    if shutil.which("bwrap") is None:
        return []
    boxed = sandboxed(_heuristic, Sandbox(), entry_points=False)

    def run() -> int:
        for seed in range(5):
            run_match(_game, _options, [boxed, _random], seed)
        return 5

    return [Benchmark("LACORSA race, seat 0 in --sandbox", "matches", run)]


def main(argv: Sequence[str] | None = None, echo: Callable[[str], None] = print) -> int:
    """Print the table for ``MATCHES`` matches per way (default 20)."""
    args = list(sys.argv[1:] if argv is None else argv)
    matches = int(args[0]) if args else 20
    echo(table(measure(matches)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
