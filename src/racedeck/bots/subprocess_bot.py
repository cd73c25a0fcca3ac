"""A bot in any language: a program speaking JSON Lines on its standard input and output.

The protocol (``docs/protocol.md``): the engine sends a ``start`` message and waits for
``ready``; for each decision it sends an ``act`` message (the observation, the legal
actions and a seed) and reads one answer naming an action by its index (``choice``) or
in full (``action``); at the end it sends ``end`` and closes the program's input. Any
message from the program may carry a ``debug`` text, which the engine writes to the log.

The program runs in its own process group. A decision that takes longer than the time
limit gets the whole group killed, so a program (and anything it started) can never hang
the engine; a program that dies or is killed cannot be asked again (``BotGone``).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import IO, Any, NoReturn

import msgspec

from racedeck.core.bot import Bot, BotFault, BotGone, BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.rng import Rng

PROTOCOL = 1
"""The version of the protocol this engine speaks."""
DEFAULT_TIME_LIMIT = 5.0
"""Seconds a program may take to answer one decision."""
DEFAULT_START_LIMIT = 10.0
"""Seconds a program may take to start and answer ``ready``."""
END_GRACE = 1.0
"""Seconds a program gets to exit after ``end`` before its process group is killed."""
MAX_LINE = 1 << 20
"""The longest answer line accepted, in bytes."""
CLIP = 200
"""How many characters of an offending message a fault reason quotes."""


class Violation(msgspec.Struct, frozen=True, kw_only=True):
    """One breach of the protocol: what kind, at which decision, and the message behind it.

    ``kind`` is one of ``bad-json``, ``bad-answer``, ``illegal-action``, ``timeout``,
    ``crash``. ``decision`` counts from 0; -1 is the start of the match.
    """

    kind: str
    decision: int
    detail: str
    message: str = ""


def clip(text: str, width: int = CLIP) -> str:
    """Return ``text`` cut to ``width`` characters, marked when cut."""
    return text if len(text) <= width else text[: width - 3] + "..."


class SubprocessBot(Bot):
    """Plays by asking a program; each match starts the program afresh."""

    emits_debug = True

    def __init__(
        self,
        command: Sequence[str],
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        start_limit: float = DEFAULT_START_LIMIT,
        cwd: str | None = None,
        on_violation: Callable[[Violation], None] | None = None,
    ) -> None:
        self.command = list(command)
        self.time_limit = time_limit
        self.start_limit = start_limit
        self.cwd = cwd
        self.on_violation = on_violation
        self.decisions = 0
        self._game: AnyGame | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""
        self._debug: str | None = None
        self._last_sent = b""

    # The bot interface -------------------------------------------------------------------
    def bind_game(self, game: AnyGame) -> None:
        """Keep the game to decode actions the program spells out in full."""
        self._game = game

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Start the program, send ``start`` and wait for ``ready``."""
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                cwd=self.cwd,
                start_new_session=True,
            )
        except OSError as exc:
            self._fail("crash", -1, f"cannot start {' '.join(self.command)}: {exc.strerror}")
        start = {
            "type": "start",
            "protocol": PROTOCOL,
            "game": game,
            "seat": seat,
            "players": players,
            "options": options,
            "time_limit": self.time_limit,
        }
        deadline = time.monotonic() + self.start_limit
        self._send(start, -1, deadline)
        line = self._receive(-1, deadline)
        answer = self._parse(line, -1)
        if answer.get("type") != "ready":
            self._violate("bad-answer", -1, 'the answer to "start" must be {"type": "ready"}', line)

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Send the decision and return the action the program answers with."""
        decision = self.decisions
        self.decisions += 1
        message = {
            "type": "act",
            "decision": decision,
            "seed": rng.getrandbits(53),
            "observation": observation,
            "legal": legal,
        }
        deadline = time.monotonic() + self.time_limit
        self._send(message, decision, deadline)
        line = self._receive(decision, deadline)
        answer = self._parse(line, decision)
        return self._chosen(answer, legal, decision, line)

    def take_debug(self) -> str | None:
        """Return the debug text of the program's last message, if it sent one."""
        text, self._debug = self._debug, None
        return text

    def end_match(self, result: Result) -> None:
        """Send ``end``, close the program's input and give it a moment to exit."""
        process = self._process
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(BotFault):
            self._send({"type": "end", "result": result}, self.decisions, time.monotonic() + 1)
        with contextlib.suppress(OSError):
            assert process.stdin is not None
            process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(END_GRACE)

    def close(self) -> None:
        """Kill the program's process group if anything of it is left, and free the pipes."""
        self._kill()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    # Talking to the program -------------------------------------------------------------
    def _send(self, message: dict[str, Any], decision: int, deadline: float) -> None:
        process = self._alive(decision)
        assert process.stdin is not None
        data = msgspec.json.encode(message) + b"\n"
        self._last_sent = data
        fd = process.stdin.fileno()
        while data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._timeout(decision, "to read the message")
            _, writable, _ = select.select([], [fd], [], remaining)
            if not writable:
                continue
            try:
                written = os.write(fd, data[: 1 << 16])
            except (BrokenPipeError, OSError):
                self._crashed(decision)
            data = data[written:]

    def _receive(self, decision: int, deadline: float) -> str:
        process = self._alive(decision)
        assert process.stdout is not None
        fd = process.stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:
                self._buffer = b""
                self._fail("bad-answer", decision, f"an answer line longer than {MAX_LINE} bytes")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._timeout(decision, "to answer")
            readable, _, _ = select.select([fd], [], [], remaining)
            if not readable:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self._crashed(decision)
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\n", 1)
        return raw.decode("utf-8", errors="replace")

    def _parse(self, line: str, decision: int) -> dict[str, Any]:
        try:
            answer = msgspec.json.decode(line)
        except msgspec.DecodeError:
            self._violate("bad-json", decision, "the answer is not JSON", line)
        if not isinstance(answer, dict):
            self._violate("bad-answer", decision, "the answer is not a JSON object", line)
        parsed: dict[str, Any] = answer
        debug = parsed.get("debug")
        if debug is not None:
            self._debug = debug if isinstance(debug, str) else msgspec.json.encode(debug).decode()
        return parsed

    def _chosen(
        self, answer: dict[str, Any], legal: Sequence[Action], decision: int, line: str
    ) -> Action:
        if "choice" in answer:
            choice = answer["choice"]
            if isinstance(choice, bool) or not isinstance(choice, int):
                self._violate("bad-answer", decision, '"choice" must be an integer', line)
            if not 0 <= choice < len(legal):
                self._violate(
                    "illegal-action",
                    decision,
                    f"choice {choice} is not one of the {len(legal)} legal actions (0 to "
                    f"{len(legal) - 1})",
                    line,
                )
            picked: Action = legal[choice]
            return picked
        if "action" in answer:
            assert self._game is not None
            try:
                action = msgspec.convert(answer["action"], type=self._game.action_type)
            except msgspec.ValidationError as exc:
                self._violate(
                    "illegal-action", decision, f"not an action of this game: {exc}", line
                )
            if action not in legal:
                self._violate("illegal-action", decision, "the action is not a legal one", line)
            chosen: Action = action
            return chosen
        self._violate("bad-answer", decision, 'the answer has neither "choice" nor "action"', line)

    # Failures ----------------------------------------------------------------------------
    def _alive(self, decision: int) -> subprocess.Popen[bytes]:
        process = self._process
        if process is None or process.poll() is not None:
            self._crashed(decision)
        return process

    def _violate(self, kind: str, decision: int, detail: str, message: str) -> NoReturn:
        """Record a violation the program survives, and refuse its answer."""
        violation = Violation(kind=kind, decision=decision, detail=detail, message=message)
        if self.on_violation is not None:
            self.on_violation(violation)
        raise BotFault(f"{kind} at {_where(decision)}: {detail}: {clip(message)}")

    def _fail(self, kind: str, decision: int, detail: str, message: str = "") -> NoReturn:
        """Record a violation that ends the program: kill what is left of it."""
        self._kill()
        violation = Violation(kind=kind, decision=decision, detail=detail, message=message)
        if self.on_violation is not None:
            self.on_violation(violation)
        quoted = f": {clip(message)}" if message else ""
        raise BotGone(f"{kind} at {_where(decision)}: {detail}{quoted}")

    def _timeout(self, decision: int, doing: str) -> NoReturn:
        limit = self.start_limit if decision < 0 else self.time_limit
        self._fail(
            "timeout",
            decision,
            f"took more than {limit:g} s {doing}; its process group was killed",
            "(unanswered) " + self._last_sent.decode("utf-8", errors="replace").strip(),
        )

    def _crashed(self, decision: int) -> NoReturn:
        process = self._process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(0.5)
        self._fail(
            "crash",
            decision,
            f"the program exited (code {code}) without answering",
            self._stderr_tail(),
        )

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - CLIP))
        tail = self._stderr.read().decode("utf-8", errors="replace").strip()
        return f"stderr: {tail}" if tail else ""

    def _kill(self) -> None:
        process = self._process
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(2)
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


def _where(decision: int) -> str:
    return "start" if decision < 0 else f"decision {decision}"


def subprocess_spec(
    name: str,
    command: Sequence[str],
    *,
    description: str = "",
    games: tuple[str, ...] | None = None,
    version: str = "1",
    time_limit: float = DEFAULT_TIME_LIMIT,
    cwd: str | None = None,
) -> BotSpec:
    """Return the spec of a bot played by the program ``command``.

    The program enforces its own ``time_limit`` (its process group is killed past it), so
    the spec tells the runner not to add another.
    """
    return BotSpec(
        name=name,
        factory=partial(SubprocessBot, list(command), time_limit=time_limit, cwd=cwd),
        description=description or f"the program {' '.join(command)}",
        version=version,
        games=games,
        time_limit=float("inf"),
    )
