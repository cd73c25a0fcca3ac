"""Registers the Node.js example program as the bot ``example-node``.

Load it with ``racedeck play lacorsa --plugins-dir plugins/subprocess-node --seat
example-node --seat heuristic``; it needs ``node``. Without a plugin file:
``--seat "cmd:node plugins/subprocess-node/bot.js"``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from racedeck.bots.subprocess_bot import subprocess_spec
from racedeck.core.bot import BotSpec
from racedeck.hookspecs import hookimpl

PROGRAM = Path(__file__).parent / "bot.js"


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the example program, run with ``node``."""
    register(
        subprocess_spec(
            "example-node",
            ["node", str(PROGRAM)],
            description="example subprocess bot in JavaScript (JSON Lines protocol)",
        )
    )
