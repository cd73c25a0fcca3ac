"""Bots under a time limit play in a process of their own, which the engine can always stop.

An in-process bot cannot be interrupted for sure: it may swallow every exception, ignore
signals or spin in C code. So a seat with a time limit gets an ``IsolatedBot``: the real
bot is made and played in a child process forked for the match, and the engine waits for
each answer at most the limit. A child that overruns is killed with every process it
started (``racedeck.core.proctree``); one that exits, crashes or closes its end is gone.
Either way the seat can answer no more (``BotGone``), which the fault policy handles.

What the child sends back is never unpickled: an answer travels as MessagePack bytes and
is decoded as the game's action type, so a bot cannot run code in the engine's process.
The child writes its standard output to standard error, so printing cannot corrupt a
command's output. Where ``fork`` does not exist, ``available()`` is False and the runner
falls back to an alarm (see ``racedeck.core.runner``).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import struct
import sys
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any, NoReturn

import msgspec

from racedeck.core import diagnostics, proctree
from racedeck.core.bot import Bot, BotFactory, BotFault, BotGone
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.rng import Rng
from racedeck.core.shown import clip, safe_str, shown
from racedeck.core.step import choose

START_LIMIT = 10.0
"""Seconds a bot may take to be made, handed the game and told the match starts."""
END_LIMIT = 2.0
"""Seconds a bot may take to hear how the match ended."""
MAX_REPLY = 1 << 20
"""The largest reply a bot's process may send, in bytes."""
_MAX_FD = 1 << 16

_log = diagnostics.get_logger(component="isolation")


class _Reply(msgspec.Struct, array_like=True):
    """What the child answers: ``ok`` with an action's bytes, or ``raised`` with a reason."""

    kind: str
    action: bytes = b""
    text: str = ""
    debug: str | None = None
    reads_observation: bool = True
    emits_debug: bool = False


_encode_reply = msgspec.msgpack.Encoder().encode
_decode_reply = msgspec.msgpack.Decoder(_Reply).decode


def available() -> bool:
    """Return True when bots can be isolated here (the platform can fork)."""
    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods()


class IsolatedBot(Bot):
    """Plays a bot made by ``factory`` in a child process, each call bounded by ``limit`` s.

    Without a limit (``None``) the engine waits as long as the bot takes, but a bot that
    takes its process down still costs only its own seat.
    """

    def __init__(self, factory: BotFactory, limit: float | None) -> None:
        self._factory = factory
        self._limit = limit
        self._pid = 0
        self._conn: Connection | None = None
        self._game: AnyGame | None = None
        self._debug: str | None = None
        self._rng_sent = False
        self.reads_observation = True  # type: ignore[misc]
        self.emits_debug = False  # type: ignore[misc]

    # The bot interface, forwarded -------------------------------------------------------
    def bind_game(self, game: AnyGame) -> None:
        """Fork the child, which makes the bot and hands it the game."""
        self._game = game
        parent, child = multiprocessing.Pipe(duplex=True)
        pid = os.fork()
        if pid == 0:  # the child: never returns into the engine's code
            parent.close()
            _child(child, self._factory, game)
        child.close()
        self._pid, self._conn = pid, parent
        # A child that stops reading must not block the engine's writing either.
        if self._limit is not None:
            _send_timeout(parent, max(START_LIMIT, self._limit))
        reply = self._ask(None, self._start_limit(), " to start")
        self.reads_observation = reply.reads_observation  # type: ignore[misc]
        self.emits_debug = reply.emits_debug  # type: ignore[misc]

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Tell the bot the match starts."""
        self._ask(("start", game, seat, players, options), self._start_limit(), " to start")

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Ask the bot for its action, within the limit; the answer is decoded, not unpickled."""
        # The seat's generator lives in the child from its first decision on.
        sent = None if self._rng_sent else rng
        self._rng_sent = True
        reply = self._ask(("act", observation, tuple(legal), sent), self._limit, "")
        assert self._game is not None
        try:
            action: Action = msgspec.msgpack.decode(reply.action, type=self._game.action_type)
        except (msgspec.DecodeError, RecursionError) as exc:
            raise BotFault(
                f"returned something that is not an action of this game: {exc}"
            ) from None
        return action

    def take_debug(self) -> str | None:
        """Return the debug text the bot left with its last answer."""
        text, self._debug = self._debug, None
        return text

    def end_match(self, result: Result) -> None:
        """Tell the bot how the match ended."""
        if self._conn is not None:
            self._ask(("end", result), END_LIMIT if self._limit else None, " to hear the result")

    def close(self) -> None:
        """Kill the child and everything in its process group, and reap it."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._pid:
            proctree.kill_tree(self._pid)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self._pid, 0)
            self._pid = 0

    # The round trip ----------------------------------------------------------------------
    def _start_limit(self) -> float | None:
        return None if self._limit is None else max(START_LIMIT, self._limit)

    def _ask(self, message: Any, limit: float | None, doing: str) -> _Reply:
        conn = self._conn
        if conn is None:
            raise BotGone("its process is gone")
        try:
            if message is not None:
                conn.send(message)
            if not conn.poll(limit):
                _log.info("bot killed for its time limit", pid=self._pid, limit=limit)
                self._gone(f"exceeded its time limit of {limit:g} s{doing}")
            raw = conn.recv_bytes(MAX_REPLY)
        except (EOFError, OSError):
            reason = self._exit_reason()
            _log.info("bot process died", reason=reason)
            self._gone(reason)
        try:
            reply = _decode_reply(raw)
        except (msgspec.DecodeError, RecursionError):
            self._gone("its process sent a reply the engine cannot read")
        self._debug = reply.debug
        if reply.kind == "raised":
            raise BotFault(reply.text)
        return reply

    def _exit_reason(self) -> str:
        """Say how the child ended, giving it a moment to do so before it is killed."""
        code = None
        deadline = time.monotonic() + 1.0
        while self._pid and time.monotonic() < deadline:
            try:
                pid, status = os.waitpid(self._pid, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                code = os.waitstatus_to_exitcode(status)
                self._pid = 0
                break
            time.sleep(0.01)
        if code is None:
            return "its process stopped answering (it closed its end or sent too much)"
        if code < 0:
            return f"its process was killed by signal {-code}"
        return f"its process exited (code {code}) without answering"

    def _gone(self, reason: str) -> NoReturn:
        self.close()
        raise BotGone(reason)


def _send_timeout(conn: Connection, seconds: float) -> None:
    """Make writes to ``conn`` fail after ``seconds`` instead of blocking for good."""
    with contextlib.suppress(OSError, ValueError):
        sock = socket.socket(fileno=os.dup(conn.fileno()))
        whole = int(seconds)
        sock.setsockopt(
            socket.SOL_SOCKET,
            socket.SO_SNDTIMEO,
            struct.pack("ll", whole, int((seconds - whole) * 1e6)),
        )
        sock.close()


def _child(conn: Connection, factory: BotFactory, game: AnyGame) -> NoReturn:
    """Run the bot in the child process until told to stop; never return."""
    code = 0
    try:
        _detach(conn.fileno())
        where = "making the bot "
        try:
            bot = factory()
            where = "bind_game "
            bot.bind_game(game)
        except BaseException as exc:  # the seat's fault, said as the engine says it
            text = f"{where}raised {type(exc).__name__}: {safe_str(exc)}"
            conn.send_bytes(_encode_reply(_Reply("raised", text=clip(text))))
            os._exit(0)
        reply = _Reply(
            "ok",
            reads_observation=bool(bot.reads_observation),
            emits_debug=bool(bot.emits_debug),
        )
        conn.send_bytes(_encode_reply(reply))
        _serve(conn, bot)
    except BaseException:  # the child ends here whatever happened; the engine sees EOF
        code = 1
    finally:
        os._exit(code)


def _detach(keep: int) -> None:
    """Put the child in its own process group, quiet its output and tie its life to ours.

    Every file the engine had open (a log being written, say) is closed but the pipe
    ``keep``; standard input is the null device.
    """
    os.setpgid(0, 0)
    os.closerange(3, keep)
    os.closerange(keep + 1, _MAX_FD)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the engine decides what an interrupt does
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        os.dup2(2, 1)  # a bot that prints cannot corrupt the engine's output
    sys.stdout = sys.stderr
    proctree.become_subreaper()  # what the bot starts stays findable, to be killed with it
    proctree.die_with_parent()
    if os.getppid() == 1:  # the engine died before the line above took effect
        os._exit(1)


def _serve(conn: Connection, bot: Bot) -> None:
    """Answer the engine's messages until it closes the pipe."""
    rng: Rng | None = None
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        kind = message[0]
        try:
            if kind == "start":
                bot.start_match(*message[1:])
                reply = _Reply("ok")
            elif kind == "act":
                _, observation, legal, sent = message
                if sent is not None:
                    rng = sent
                assert rng is not None
                answer = bot.act(observation, legal, rng)
                # Only one of the offered actions travels back; anything else is refused
                # here, worded as the engine words an illegal answer in its own process.
                if choose(legal, answer) is None:
                    reply = _Reply("raised", text=f"returned an illegal action {shown(answer)}")
                else:
                    reply = _Reply("ok", action=msgspec.msgpack.encode(answer))
            else:
                bot.end_match(message[1])
                reply = _Reply("ok")
        except BotFault as exc:
            reply = _Reply("raised", text=str(exc))
        except BaseException as exc:  # whatever the bot raises is its seat's fault
            where = {"start": "start_match ", "end": "end_match "}.get(kind, "")
            reply = _Reply("raised", text=f"{where}raised {type(exc).__name__}: {exc}")
        if bot.emits_debug:
            with contextlib.suppress(Exception):
                debug = bot.take_debug()
                reply.debug = debug if isinstance(debug, str) else None
        conn.send_bytes(_encode_reply(reply))
