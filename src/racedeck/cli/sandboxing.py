"""The ``--sandbox`` and ``--bot-memory`` options, shared by play, tournament, gate and fork."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from racedeck.core.errors import UsageError

if TYPE_CHECKING:
    # The sandbox's modules load only when a command asks for one, so --help stays light.
    from racedeck.bots.sandbox import Sandbox
    from racedeck.core.catalogue import Catalogue

SandboxFlag = Annotated[
    bool,
    typer.Option(
        "--sandbox",
        help="Run every bot as a stranger's: in a bubblewrap sandbox of its own, without "
        "network or a view of the engine's files, bounded memory and processes.",
    ),
]
BotMemory = Annotated[
    str | None,
    typer.Option(
        "--bot-memory",
        help="With --sandbox: the memory a bot's sandbox may hold in all (with a control "
        "group) and each of its processes may map (512M, 1G; default 1G).",
    ),
]


def sandbox_of(enabled: bool, memory: str | None) -> Sandbox | None:
    """Return the sandbox the options ask for, or None; a bad size is a usage error."""
    if memory is not None and not enabled:
        raise UsageError("--bot-memory goes with --sandbox")
    if not enabled:
        return None
    from racedeck.bots.sandbox import Sandbox, parse_memory

    if memory is None:
        return Sandbox()
    try:
        return Sandbox(memory=parse_memory(memory))
    except (ValueError, IndexError):
        raise UsageError(
            f"--bot-memory takes a size such as 512M or 1G (at least 16M), got {memory!r}"
        ) from None


def confined(catalogue: Catalogue, sandbox: Sandbox | None, plugins_dir: Path | None) -> Catalogue:
    """Return ``catalogue``, or one whose bots all run in ``sandbox`` when it is given."""
    if sandbox is None:
        return catalogue
    from racedeck.bots.sandboxed import SandboxedCatalogue

    return SandboxedCatalogue(catalogue, sandbox, plugins_dir=plugins_dir)


def sandbox_memory(sandbox: Sandbox | None) -> int:
    """Return what a tournament's spec records of ``sandbox``: its memory, 0 for none."""
    if sandbox is None:
        return 0
    from racedeck.bots.sandbox import bwrap_path

    bwrap_path()
    return sandbox.memory
