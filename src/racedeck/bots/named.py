"""Bots named where they are used: ``name``, ``name:key=value,...``, ``cmd:PROGRAM``, a path.

- ``ismcts:simulations=500,rollout=random`` is the registered ``ismcts`` with those
  parameters, checked against the ones it declares (``BotSpec.with_parameters``;
  ``racedeck bots --json`` lists them).
  The name is written back in a canonical form (the bot's declared order, values as
  read), and that is the name logs and tournaments record: a replay or a resume resolves
  the same string to the same bot.
- ``cmd:python3 bot.py`` is a program speaking the JSON Lines protocol
  (``docs/protocol.md``), split like a shell command line; no plugin file needed.
- A path to an executable file (``./bot`` or anything with a ``/``) is the same as
  ``cmd:`` with that path.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from racedeck.bots.identify import identified
from racedeck.bots.subprocess_bot import subprocess_spec
from racedeck.core.bot import BotParameterError, BotSpec
from racedeck.core.errors import UnknownBotError
from racedeck.core.game import AnyGame

COMMAND_PREFIX = "cmd:"
"""Marks a bot that is a program: ``cmd:python3 bot.py``."""


def is_program(name: str) -> bool:
    """Return True when ``name`` names a program rather than a registered bot."""
    if name.startswith(COMMAND_PREFIX):
        return True
    return "/" in name and ":" not in name.split("/")[0] and _executable(Path(name))


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def program_spec(name: str) -> BotSpec:
    """Return the spec of the program ``name`` names (``cmd:...`` or a path)."""
    if name.startswith(COMMAND_PREFIX):
        text = name[len(COMMAND_PREFIX) :]
        try:
            command = shlex.split(text)
        except ValueError as exc:
            raise UnknownBotError(f"bot {name!r}: cannot split the command: {exc}") from None
        if not command:
            raise UnknownBotError(f"bot {name!r}: the command after {COMMAND_PREFIX} is empty")
    else:
        command = [name]
    return subprocess_spec(name, command, description=f"the program {' '.join(command)}")


def resolve(lookup: Callable[[str], BotSpec], name: str, game: AnyGame | None = None) -> BotSpec:
    """Return the bot ``name`` names; ``lookup`` finds a registered bot by its plain name.

    With ``game``, a program is asked its own name and version for that game (protocol 2,
    ``racedeck.bots.identify``): they are then its version.
    """
    if is_program(name):
        spec = program_spec(name)
        return spec if game is None else identified(spec, game)
    base, sep, settings = name.partition(":")
    spec = lookup(base)
    if not sep:
        return spec
    if not spec.declared():
        raise BotParameterError(f"bot {base} takes no parameters, got {name!r}")
    tuned = spec.with_parameters(**parse_settings(base, settings))
    # Parameters that mean something only in a game (a kind of its decisions) say whether
    # they do there, so a wrong one stops before a match rather than faulting in it.
    check = getattr(tuned.parameters, "check_game", None)
    if game is not None and check is not None:
        check(game)
    return replace(tuned, name=canonical_name(tuned, settings))


def parse_settings(bot: str, settings: str) -> dict[str, str]:
    """Read ``key=value,...`` into strings, each key once; ``with_parameters`` checks them."""
    values: dict[str, str] = {}
    for pair in settings.split(","):
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BotParameterError(
                f"bot {bot}: parameters are KEY=VALUE separated by commas, got {pair!r}"
            )
        if key in values:
            raise BotParameterError(f"bot {bot}: parameter {key!r} is given twice")
        values[key] = text.strip()
    return values


def canonical_name(tuned: BotSpec, settings: str) -> str:
    """Return ``name:key=value,...`` for the keys given, in the bot's declared order."""
    given = {pair.partition("=")[0].strip() for pair in settings.split(",")}
    parts = [
        f"{p.name}={_spell(getattr(tuned.parameters, p.name))}"
        for p in tuned.declared()
        if p.name in given
    ]
    return f"{tuned.name}:{','.join(parts)}"


def _spell(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
