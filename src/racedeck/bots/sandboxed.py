"""Turning the bots of a match into sandboxed ones (``--sandbox``).

A program's bot runs its own command in a sandbox; any other registered bot runs in a
sandbox through ``racedeck.bots.host``, which loads the same plugins and speaks the
subprocess protocol. The spec keeps its name and version, so the log is the one an
unsandboxed match writes, byte for byte.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from racedeck.bots.human import HumanBot
from racedeck.bots.identify import identified
from racedeck.bots.named import is_program, program_spec
from racedeck.bots.sandbox import Sandbox, bwrap_path, own_files, python_binds, python_path
from racedeck.bots.subprocess_bot import DEFAULT_TIME_LIMIT, SubprocessBot
from racedeck.core import diagnostics
from racedeck.core.bot import BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng

HOST_TIME_LIMIT = 60.0
"""Seconds a sandboxed Python bot may take per decision when no limit is set: it runs in a
process of its own, which a decision that never ends must not hold forever."""
HOST_START_LIMIT = 30.0
"""Seconds the host may take to load the plugins and answer ``ready``."""


class HostBot(SubprocessBot):
    """A registered Python bot played through ``racedeck.bots.host`` in a sandbox.

    The first ``act`` carries the seat's generator state (``stream``), so the bot draws
    in the host exactly what it would have drawn in the engine's process.
    """

    def _act_message(
        self, decision: int, observation: Observation, legal: Sequence[Action], rng: Rng
    ) -> dict[str, Any]:
        stream = None
        if decision == 0:
            version, state, gauss = rng.getstate()
            stream = [version, state, gauss]
        message = super()._act_message(decision, observation, legal, rng)
        if stream is not None:
            message["stream"] = stream  # taken before the seed: the host's copy is untouched
        return message


def sandboxed(
    spec: BotSpec,
    sandbox: Sandbox,
    *,
    plugins_dir: Path | None = None,
    entry_points: bool = True,
) -> BotSpec:
    """Return ``spec`` played in a sandbox of its own, under the same name and version.

    A person's seat (``human``: the terminal, not code) stays in the engine's process.
    """
    bwrap_path()  # one line naming the package, before anything is played
    if spec.factory is HumanBot:
        return spec
    if spec.command is not None:
        limit = DEFAULT_TIME_LIMIT
        if isinstance(spec.factory, functools.partial):
            limit = spec.factory.keywords.get("time_limit", DEFAULT_TIME_LIMIT)
        program = functools.partial(
            SubprocessBot, list(spec.command), time_limit=limit, cwd=spec.cwd, sandbox=sandbox
        )
        return replace(spec, factory=program, time_limit=float("inf"))
    command = [sys.executable, "-s", "-B", "-m", "racedeck.bots.host", spec.name]
    binds = python_binds()
    if plugins_dir is not None:
        folder = str(plugins_dir.resolve())
        command += ["--plugins-dir", folder]
        binds += own_files(folder)
    if not entry_points:
        command.append("--no-entry-points")
    env = {"PYTHONPATH": python_path()} if python_path() else {}
    allowed = os.environ.get("RACEDECK_LOAD_PLUGINS")
    if allowed is not None:
        env["RACEDECK_LOAD_PLUGINS"] = allowed
    limit = spec.time_limit if spec.time_limit and spec.time_limit > 0 else HOST_TIME_LIMIT
    host = functools.partial(_host_bot, command, binds, env, sandbox, min(limit, 1e9))
    return replace(spec, factory=host, time_limit=float("inf"))


_log = diagnostics.get_logger(component="sandbox")


def _host_bot(
    command: list[str], binds: list[str], env: dict[str, str], sandbox: Sandbox, limit: float
) -> HostBot:
    bot = HostBot(
        command, time_limit=limit, start_limit=HOST_START_LIMIT, sandbox=sandbox, binds=binds
    )
    bot.env = env
    _log.debug("sandboxed bot starting", command=command, time_limit=limit)
    return bot


class SandboxedCatalogue:
    """A catalogue whose every bot is sandboxed: what ``--sandbox`` hands a command."""

    def __init__(
        self,
        catalogue: Any,
        sandbox: Sandbox,
        *,
        plugins_dir: Path | None = None,
        entry_points: bool = True,
    ) -> None:
        bwrap_path()  # said before any name is looked up
        self.catalogue = catalogue
        self.sandbox = sandbox
        self.plugins_dir = plugins_dir
        self.entry_points = entry_points

    def game(self, name: str) -> Any:
        """Return the game called ``name``."""
        return self.catalogue.game(name)

    def bot(self, name: str, game: str) -> BotSpec:
        """Return the bot called ``name`` for ``game``, to be played in a sandbox.

        A program is not resolved by the catalogue (which would ask it who it is outside
        any sandbox): it is made here, sandboxed, then asked.
        """
        if is_program(name):
            found = self.catalogue.game(game)
            boxed = sandboxed(program_spec(name), self.sandbox)
            return identified(boxed, found)
        spec: BotSpec = self.catalogue.bot(name, game)
        return sandboxed(
            spec, self.sandbox, plugins_dir=self.plugins_dir, entry_points=self.entry_points
        )
