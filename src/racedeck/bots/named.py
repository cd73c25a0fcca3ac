"""Bots named where they are used: ``name``, ``name:key=value,...``, ``cmd:PROGRAM``, a path.

- ``ismcts:simulations=500,rollout=random`` is the registered ``ismcts`` with those
  parameters, checked against the ones it declares (``racedeck bots --json`` lists them).
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

from racedeck.bots.subprocess_bot import subprocess_spec
from racedeck.core.bot import BotParameter, BotSpec
from racedeck.core.errors import UnknownBotError

COMMAND_PREFIX = "cmd:"
"""Marks a bot that is a program: ``cmd:python3 bot.py``."""


class BotParameterError(UnknownBotError):
    """A bot was named with parameters it does not take, or with values of the wrong kind."""


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


def resolve(lookup: Callable[[str], BotSpec], name: str) -> BotSpec:
    """Return the bot ``name`` names; ``lookup`` finds a registered bot by its plain name."""
    if is_program(name):
        return program_spec(name)
    base, sep, settings = name.partition(":")
    spec = lookup(base)
    if not sep:
        return spec
    if not spec.parameters or spec.configure is None:
        raise BotParameterError(f"bot {base!r} takes no parameters, got {name!r}")
    values = parse_parameters(spec, settings)
    try:
        factory = spec.configure(values)
    except ValueError as exc:
        raise BotParameterError(f"bot {name!r}: {exc}") from None
    return replace(spec, name=canonical_name(spec, values), factory=factory)


def parse_parameters(spec: BotSpec, settings: str) -> dict[str, Any]:
    """Read ``key=value,...`` against the parameters ``spec`` declares."""
    declared = {parameter.name: parameter for parameter in spec.parameters}
    known = ", ".join(declared)
    values: dict[str, Any] = {}
    for pair in settings.split(","):
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BotParameterError(
                f"bot {spec.name!r}: parameters are KEY=VALUE separated by commas, got {pair!r}"
            )
        if key not in declared:
            raise BotParameterError(
                f"bot {spec.name!r} has no parameter {key!r}; its parameters: {known}"
            )
        if key in values:
            raise BotParameterError(f"bot {spec.name!r}: parameter {key!r} is given twice")
        values[key] = _convert(spec.name, declared[key], text.strip())
    return values


def _convert(bot: str, parameter: BotParameter, text: str) -> Any:
    kind = type(parameter.default)
    where = f"bot {bot!r}: {parameter.name}={text}"
    if kind is bool:
        if text.lower() in ("true", "yes", "1"):
            return True
        if text.lower() in ("false", "no", "0"):
            return False
        raise BotParameterError(f"{where}: expected true or false")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise BotParameterError(f"{where}: expected a whole number") from None
    if kind is float:
        try:
            return float(text)
        except ValueError:
            raise BotParameterError(f"{where}: expected a number") from None
    if parameter.choices and text not in parameter.choices:
        raise BotParameterError(f"{where}: expected one of {', '.join(parameter.choices)}")
    return text


def canonical_name(spec: BotSpec, values: dict[str, Any]) -> str:
    """Return ``name:key=value,...`` with the keys in the bot's declared order."""
    parts = [
        f"{p.name}={_spell(values[p.name])}" for p in spec.parameters if p.name in values
    ]
    return f"{spec.name}:{','.join(parts)}"


def _spell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
