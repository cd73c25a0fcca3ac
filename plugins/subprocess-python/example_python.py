"""Registers the Python example program as the bot ``example-python``.

Load it with ``racedeck play lacorsa --plugins-dir plugins/subprocess-python --seat
example-python --seat heuristic``; no plugin file is needed to seat the program itself:
``--seat "cmd:python3 plugins/subprocess-python/program/bot.py"``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from racedeck.bots.subprocess_bot import subprocess_spec
from racedeck.core.bot import BotSpec
from racedeck.hookspecs import hookimpl

PROGRAM = Path(__file__).parent / "program" / "bot.py"


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the example program, run by the same Python as racedeck."""
    register(
        subprocess_spec(
            "example-python",
            [sys.executable, str(PROGRAM)],
            description="example subprocess bot in Python (JSON Lines protocol)",
        )
    )
