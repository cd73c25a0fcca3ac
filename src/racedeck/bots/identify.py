"""A program's name and version, asked before a match is planned (protocol 2).

A program says who it is in ``ready``. The engine asks before it writes a log header or
records a tournament: it starts the program once (in its sandbox, when it is to play in
one), sends ``start`` for the game's smallest match, reads ``ready`` and stops it. A
protocol-2 program's spec then carries ``"<name> <version>"`` as its version, which the
log header's seat entry and the tournament's recorded bot versions hold, and which every
later match checks: a program that then says it is another version faults at its start,
and ``tournament resume`` refuses to go on with it, naming both versions. A version-1
program keeps the version ``1``. Identities are kept per process while the files the
command names are unchanged, so a worker asks once.
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
from dataclasses import replace
from typing import Any

from racedeck.bots.subprocess_bot import SubprocessBot
from racedeck.core.bot import BotFault, BotSpec
from racedeck.core.game import AnyGame

_known: dict[tuple[Any, ...], str | None] = {}


def program_identity(spec: BotSpec, game: AnyGame) -> str | None:
    """Return ``"<name> <version>"`` as the program of ``spec`` says in ``ready``, or None.

    None for a bot that is not a program, a version-1 program, or one that fails to start
    (its matches will say why).
    """
    if spec.command is None:
        return None
    sandboxed = getattr(spec.factory, "keywords", {}).get("sandbox") is not None
    key = (tuple(spec.command), spec.cwd, game.name, sandboxed, _files(spec))
    if key not in _known:
        _known[key] = _ask(spec, game)
    return _known[key]


def _files(spec: BotSpec) -> tuple[tuple[str, int, int], ...]:
    """Return the files the command names with their times and sizes (a change: ask again)."""
    found = []
    for word in spec.command or ():
        path = os.path.join(spec.cwd or os.getcwd(), word)
        with contextlib.suppress(OSError):
            info = os.stat(path)
            if stat.S_ISREG(info.st_mode):
                found.append((path, info.st_mtime_ns, info.st_size))
    return tuple(found)


def _ask(spec: BotSpec, game: AnyGame) -> str | None:
    bot = spec.factory()
    if not isinstance(bot, SubprocessBot):
        return None
    try:
        bot.bind_game(game)
        bot.start_match(game.name, 0, game.min_players, game.parse_options({}))
    except BotFault:
        return None
    finally:
        bot.close()
    return None if bot.program is None else f"{bot.program[0]} {bot.program[1]}"


def identified(spec: BotSpec, game: AnyGame) -> BotSpec:
    """Return ``spec`` with its program's identity as its version, checked at every start."""
    factory = spec.factory
    if isinstance(factory, functools.partial) and factory.func is _expecting:
        return spec  # asked already
    identity = program_identity(spec, game)
    if identity is None:
        return spec
    return replace(spec, version=identity, factory=functools.partial(_expecting, spec, identity))


def _expecting(spec: BotSpec, identity: str) -> SubprocessBot:
    bot = spec.factory()
    assert isinstance(bot, SubprocessBot)
    bot.expect = identity
    return bot
