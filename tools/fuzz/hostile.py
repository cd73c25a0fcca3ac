"""Bots that fail in every way a bot can: one of each kind, for the fuzz run and the tests.

None is registered by default. A plugins folder holding ``PLUGIN`` (this module's own
text, so that it loads wherever racedeck does) makes them all playable under the names
in ``HOSTILE``; ``NEEDS_LIMIT`` lists those that only end under a time
limit (they hang, by design).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.rng import Rng
from racedeck.hookspecs import hookimpl


class _Plays(Bot):
    """Plays a random legal action; the hostile bots misbehave around it."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return a random legal action."""
        return legal[rng.randrange(len(legal))]


class Raiser(_Plays):
    """Raises an ordinary exception."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Raise."""
        raise RuntimeError("hostile: boom")


class Exiter(_Plays):
    """Calls ``sys.exit()``."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Exit."""
        sys.exit(0)


class Interrupter(_Plays):
    """Raises ``KeyboardInterrupt`` as if Ctrl-C had been pressed."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Pretend to be interrupted."""
        raise KeyboardInterrupt


class GeneratorExiter(_Plays):
    """Raises ``GeneratorExit``."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Raise GeneratorExit."""
        raise GeneratorExit


class Garbage(_Plays):
    """Answers with a string."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Answer garbage."""
        return "not an action"  # type: ignore[return-value]


class _EqualsAll:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class EqualsAll(_Plays):
    """Answers with an object that claims to equal everything."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Answer an object equal to everything."""
        return _EqualsAll()  # type: ignore[return-value]


class _Nasty:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("hostile: no comparing me")

    def __hash__(self) -> int:
        raise RuntimeError("hostile: no hashing me")

    def __repr__(self) -> str:
        raise RuntimeError("hostile: no showing me")


class Nasty(_Plays):
    """Answers with an object whose comparison, hash and repr raise."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Answer an object that raises when looked at."""
        return _Nasty()  # type: ignore[return-value]


class Mutator(_Plays):
    """Tries to change what it was handed (the legal actions, the observation), then plays.

    Each attempt that fails is ignored; the action it answers is the last of the list it
    tried to extend, which is legal only if nothing of its change reached the engine.
    """

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Try to mutate, then answer."""
        forged = (
            msgspec.structs.replace(legal[0]) if isinstance(legal[0], msgspec.Struct) else legal[0]
        )
        for attempt in (
            lambda: legal.append(forged),  # type: ignore[attr-defined]
            lambda: legal.__setitem__(0, forged),  # type: ignore[index]
            lambda: setattr(observation, "seat", 99),
            lambda: setattr(legal[0], "card", 99),
        ):
            try:
                attempt()
            except Exception:  # frozen and immutable: what the engine hands out
                continue
        return legal[-1]


class Forger(_Plays):
    """Answers with an action of the right type that was never offered."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Answer a changed copy of a legal action."""
        action = legal[0]
        fields = getattr(action, "__struct_fields__", ())
        for name in fields:
            value = getattr(action, name)
            if isinstance(value, int) and not isinstance(value, bool):
                return msgspec.structs.replace(action, **{name: value + 1000})
        return "forged"  # type: ignore[return-value]


class Sleeper(_Plays):
    """Never answers and swallows every exception meant to stop it."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Hang."""
        while True:
            with contextlib.suppress(BaseException):  # the point of this bot
                time.sleep(3600)


class AlarmIgnorer(_Plays):
    """Ignores SIGALRM and spins."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Spin with the alarm ignored."""
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            pass


class CLoop(_Plays):
    """Spends its time inside C code (a regular expression that backtracks for ages)."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Backtrack."""
        re.match(r"(a+)+$", "a" * 64 + "b")
        return legal[0]


class HardExit(_Plays):
    """Ends its process with ``os._exit``."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Exit hard."""
        os._exit(3)


class Spawner(_Plays):
    """Starts a process in a session of its own that would outlive the match, then hangs."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Spawn a daemon, then hang."""
        subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(600)  # racedeck-fuzz-orphan"],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        while True:
            time.sleep(3600)


class ThreadLeaver(_Plays):
    """Leaves a non-daemon thread running, which would keep the process from exiting."""

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Start a thread that never ends."""
        threading.Thread(target=time.sleep, args=(3600,), daemon=False).start()


class Printer(_Plays):
    """Prints to standard output on every decision."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Print, then play."""
        print("hostile: printing on stdout {not json")
        sys.stdout.flush()
        return super().act(observation, legal, rng)


class StartRaiser(_Plays):
    """Raises when told the match starts."""

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Raise."""
        raise SystemExit(2)


class BindRaiser(_Plays):
    """Raises when handed the game."""

    def bind_game(self, game: AnyGame) -> None:
        """Raise."""
        raise KeyboardInterrupt


class EndRaiser(_Plays):
    """Raises when told how the match ended."""

    def end_match(self, result: Result) -> None:
        """Raise."""
        raise SystemExit(1)


class DebugFlood(_Plays):
    """Leaves megabytes of debug text with every decision."""

    emits_debug = True

    def take_debug(self) -> str | None:
        """Return a flood."""
        return "x" * (4 << 20)


def _unmakeable() -> Bot:
    raise SystemExit("hostile: cannot be made")


HOSTILE: dict[str, Callable[[], Any]] = {
    "hostile-raiser": Raiser,
    "hostile-exit": Exiter,
    "hostile-interrupt": Interrupter,
    "hostile-generator-exit": GeneratorExiter,
    "hostile-garbage": Garbage,
    "hostile-equals-all": EqualsAll,
    "hostile-nasty": Nasty,
    "hostile-mutator": Mutator,
    "hostile-forger": Forger,
    "hostile-hard-exit": HardExit,
    "hostile-thread": ThreadLeaver,
    "hostile-printer": Printer,
    "hostile-start": StartRaiser,
    "hostile-bind": BindRaiser,
    "hostile-end": EndRaiser,
    "hostile-debug-flood": DebugFlood,
    "hostile-unmakeable": _unmakeable,
    "hostile-sleeper": Sleeper,
    "hostile-alarm": AlarmIgnorer,
    "hostile-c-loop": CLoop,
    "hostile-spawner": Spawner,
}
"""Every hostile bot by the name it is registered under."""

NEEDS_LIMIT = frozenset({"hostile-sleeper", "hostile-alarm", "hostile-c-loop", "hostile-spawner"})
"""The bots that hang: a match with one of them ends only under a time limit."""

NEEDS_PROCESS_IN_PLAY = frozenset({"hostile-hard-exit"})
"""The bots that end their process: ``play`` survives them only when they play in a process
of their own, that is under a time limit (a tournament plays them so on its own)."""

PLAYS_ON = frozenset(
    {"hostile-mutator", "hostile-thread", "hostile-printer", "hostile-end", "hostile-debug-flood"}
)
"""The bots whose misbehaviour leaves their answers legal: their matches end normally."""


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register every hostile bot."""
    for name, factory in HOSTILE.items():
        register(BotSpec(name=name, factory=factory, description="misbehaves on purpose"))


PLUGIN = Path(__file__).read_text(encoding="utf-8")
"""A plugin file registering every hostile bot: this module's own text."""
