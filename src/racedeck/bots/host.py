"""Plays a registered Python bot over the subprocess protocol: how ``--sandbox`` runs plugins.

``python -m racedeck.bots.host BOT [--plugins-dir DIR] [--no-entry-points]`` loads the
plugins as the engine would, makes the bot named ``BOT`` (parameters included) for the
game named in ``start``, and answers every message as a protocol-2 program does
(``docs/protocol.md``). The engine sends the seat's generator state with the first
``act`` (``stream``), so the bot draws exactly what it draws in the engine's process and
a sandboxed match logs the same bytes. Whatever the bot raises, ``SystemExit`` and
``KeyboardInterrupt`` included, is answered as that decision's ``fault``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.model import NOT_OBSERVED, Action, Result
from racedeck.core.shown import clip, safe_str

PROTOCOL = 2


class _Session:
    """One match of one bot, driven by the engine's messages."""

    def __init__(self, spec: BotSpec, game: AnyGame, out: BinaryIO) -> None:
        self.spec = spec
        self.game = game
        self.out = out
        self.bot: Bot = spec.factory()
        self.rng = random.Random()
        self.reads = bool(getattr(self.bot, "reads_observation", True))
        self.legal_type: Any = tuple.__class_getitem__((game.action_type, ...))

    def send(self, message: dict[str, Any]) -> None:
        self.out.write(msgspec.json.encode(message) + b"\n")
        self.out.flush()

    def start(self, message: dict[str, Any]) -> None:
        game = self.game
        options = msgspec.convert(message["options"], type=game.options_type, strict=False)
        self.bot.bind_game(game)
        self.bot.start_match(game.name, message["seat"], message["players"], options)
        ready: dict[str, Any] = {
            "type": "ready",
            "protocol": PROTOCOL,
            "name": self.spec.name,
            "version": self.spec.version,
        }
        self._debug(ready)
        self.send(ready)

    def act(self, message: dict[str, Any]) -> None:
        decision = message["decision"]
        stream = message.get("stream")
        if stream is not None:
            self.rng.setstate((stream[0], tuple(stream[1]), stream[2]))
        game = self.game
        legal: tuple[Action, ...] = msgspec.convert(message["legal"], type=self.legal_type)
        seen = (
            msgspec.convert(message["observation"], type=game.observation_type)
            if self.reads
            else NOT_OBSERVED
        )
        answer: dict[str, Any] = {"decision": decision}
        try:
            chosen = self.bot.act(seen, legal, self.rng)
            answer["choice"] = _index(legal, chosen)
        except BaseException as exc:  # the bot's failure is its seat's fault, said in the answer
            answer["fault"] = clip(f"raised {type(exc).__name__}: {safe_str(exc)}")
        self._debug(answer)
        self.send(answer)

    def end(self, message: dict[str, Any]) -> None:
        result = msgspec.convert(message["result"], type=Result)
        self.bot.end_match(result)
        self.bot.close()

    def _debug(self, answer: dict[str, Any]) -> None:
        if getattr(self.bot, "emits_debug", False):
            text = self.bot.take_debug()
            if text is not None:
                answer["debug"] = text


def _index(legal: tuple[Action, ...], chosen: object) -> int:
    """Return the place of ``chosen`` in ``legal``: itself first, else an equal action."""
    for index, action in enumerate(legal):
        if action is chosen:
            return index
    for index, action in enumerate(legal):
        if action == chosen:
            return index
    return -1  # the engine reports it as an illegal choice


def serve(spec_of: Any, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answer the engine's messages on ``stdin`` until ``end``; return the exit status."""
    session: _Session | None = None
    for line in stdin:
        message = msgspec.json.decode(line)
        kind = message.get("type")
        if kind == "start":
            game, spec = spec_of(message["game"])
            session = _Session(spec, game, stdout)
            session.start(message)
        elif kind == "act" and session is not None:
            session.act(message)
        elif kind == "end" and session is not None:
            session.end(message)
            return 0
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the host: load the plugins, then serve one match on standard input and output."""
    parser = argparse.ArgumentParser(prog="python -m racedeck.bots.host")
    parser.add_argument("bot")
    parser.add_argument("--plugins-dir", type=Path, default=None)
    parser.add_argument("--no-entry-points", action="store_true")
    args = parser.parse_args(argv)
    from racedeck.plugins import load_registry  # the bots package registers through it

    registry = load_registry(args.plugins_dir, entry_points=not args.no_entry_points)

    def spec_of(game_name: str) -> tuple[AnyGame, BotSpec]:
        game = registry.game(game_name)
        return game, registry.bot(args.bot, game.name)

    return serve(spec_of, sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main())
