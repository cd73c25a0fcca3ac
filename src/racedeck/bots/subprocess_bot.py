"""A bot in any language: a program speaking JSON Lines on its standard input and output.

The protocol (``docs/protocol.md``): the engine sends a ``start`` message and waits for
``ready``; for each decision it sends an ``act`` message (the observation, the legal
actions and a seed) and reads one answer naming an action by its index (``choice``) or
in full (``action``); at the end it sends ``end`` and closes the program's input. Any
message from the program may carry a ``debug`` text, which the engine writes to the log.

The program runs in its own process group, as a child subreaper on Linux, so what it
starts stays findable after a ``setsid`` (and after it exited, by the pipes it holds).
Past the time limit (the match's ``--time-limit`` if set) it and all it started are
killed, so a program can never hang the engine; one that dies or is killed cannot be
asked again (``BotGone``). Answers are framed strictly: one line a message (a second, or
one nobody asked for, is a violation). The last ``STDERR_KEEP`` bytes of stderr are kept.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NoReturn

import msgspec

from racedeck.bots.cgroups import Group
from racedeck.bots.sandbox import Sandbox, in_sandbox, program_binds
from racedeck.bots.violations import CLIP as CLIP
from racedeck.bots.violations import Violation as Violation
from racedeck.bots.violations import clip, decoded_object, echoes, where
from racedeck.core import proctree
from racedeck.core.bot import Bot, BotFault, BotGone, BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.rng import Rng

PROTOCOL = 2
"""The version of the protocol this engine speaks (it still plays version 1 programs)."""
STRAY = "a line that answers no decision it was asked"
"""What a line that echoes no decision asked is told, however its timing fell."""
DEFAULT_TIME_LIMIT = 5.0
"""Seconds a program may take to answer one decision."""
DEFAULT_START_LIMIT = 10.0
"""Seconds a program may take to start and answer ``ready``."""
_OUT_OF_MEMORY = "its sandbox passed --bot-memory in total: the kernel killed in it"
END_GRACE = 1.0
"""Seconds a program gets to exit after ``end`` before its process group is killed."""
MAX_LINE = 1 << 20
"""The longest answer line accepted, in bytes."""
STDERR_KEEP = 1 << 16
"""How many bytes of the end of a program's standard error are kept (the rest is dropped)."""


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
        sandbox: Sandbox | None = None,
        binds: Sequence[str] = (),
    ) -> None:
        self.command = list(command)
        self.sandbox = sandbox
        self.binds = list(binds)
        self.env: dict[str, str] = {}
        """Variables the program finds set in its sandbox (its environment is empty)."""
        self.protocol = 1
        """The protocol version the program said it speaks in ``ready`` (1 if it did not)."""
        self.program: tuple[str, str] | None = None
        """The name and version the program gave in ``ready`` (protocol 2)."""
        self.expect: str | None = None
        """``"<name> <version>"`` the match was planned with (``racedeck.bots.identify``)."""
        self._late: set[int] = set()
        """Decisions settled by a stray line: a late answer to one is dropped."""
        self.time_limit = time_limit
        self.start_limit = start_limit
        self.cwd = cwd
        self.on_violation = on_violation
        self.decisions = 0
        self._game: AnyGame | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._group: Group | None = None
        self._pipes: frozenset[int] = frozenset()  # its pipes' inodes (proctree.kill_holders)
        self._stderr = b""
        self._buffer = b""
        self._debug: str | None = None
        self._last_sent = b""

    # The bot interface -------------------------------------------------------------------
    def bind_game(self, game: AnyGame) -> None:
        """Keep the game to decode actions the program spells out in full."""
        self._game = game

    def limit_time(self, seconds: float) -> None:
        """Give each decision at most ``seconds`` (the match's limit replaces the default)."""
        self.time_limit = seconds

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Start the program, send ``start`` and wait for ``ready``."""
        command, cwd, preexec = self.command, self.cwd, proctree.in_child
        if self.sandbox is not None:
            binds, argv = program_binds(self.command, self.cwd)
            where = self.cwd or os.getcwd()  # empty inside, but for the folders bound
            command = self.sandbox.command(
                argv, binds=[*binds, *self.binds], cwd=where, env=self.env
            )
            self._group = self.sandbox.group()
            cwd, preexec = None, partial(in_sandbox, self.sandbox, proctree.in_child, self._group)
        try:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,
                preexec_fn=preexec,  # prctl and setrlimit calls: nothing that takes a lock
            )
        except OSError as exc:
            self._fail("crash", -1, f"cannot start {' '.join(self.command)}: {exc.strerror}")
        self._pipes = proctree.pipes_of(self._process)
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
        self._ready(answer, line)

    def _ready(self, answer: dict[str, Any], line: str) -> None:
        """Read the protocol version, name and version a program gives in ``ready``."""
        protocol = answer.get("protocol", 1)
        if type(protocol) is not int or protocol not in (1, 2):  # not true, nor 2.0
            self._violate("bad-answer", -1, f"protocol {protocol!r} is not 1 or 2", line)
        self.protocol = protocol
        if protocol == 2:
            name, version = answer.get("name"), answer.get("version")
            if not isinstance(name, str) or not isinstance(version, str) or not name:
                self._violate(
                    "bad-answer",
                    -1,
                    'protocol 2 "ready" names the program: "name", "version"',
                    line,
                )
            self.program = (name, version)
        said = f"{self.program[0]} {self.program[1]}" if self.program else None
        if self.expect is not None and said != self.expect:
            self._fail(
                "bad-answer",
                -1,
                f"the program says it is {said or 'nothing (protocol 1)'}; the match was"
                f" planned with {self.expect}",
                line,
            )

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Send the decision and return the action the program answers with."""
        decision = self.decisions
        self.decisions += 1
        message = self._act_message(decision, observation, legal, rng)
        self._nothing_unasked(decision)
        deadline = time.monotonic() + self.time_limit
        self._send(message, decision, deadline)
        while True:
            line = self._receive(decision, deadline)
            if self.protocol == 1:
                break
            echoed = decoded_object(line)
            if echoes(echoed, decision):
                break
            self._stray(echoed or {}, decision, line)
        answer = self._parse(line, decision)
        return self._chosen(answer, legal, decision, line)

    def _act_message(
        self, decision: int, observation: Observation, legal: Sequence[Action], rng: Rng
    ) -> dict[str, Any]:
        return {
            "type": "act",
            "decision": decision,
            "seed": rng.getrandbits(53),
            "observation": observation,
            "legal": legal,
        }

    def _stray(self, answer: dict[str, Any], decision: int, line: str) -> None:
        """Drop a late answer to a decision already settled; any other line is a violation."""
        echoed = answer.get("decision")
        if type(echoed) is int and echoed in self._late:
            self._late.discard(echoed)
            return
        self._late.add(decision)  # its real answer may still come: it is dropped then
        self._violate("bad-answer", decision, STRAY, line)

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
        """Kill the program and everything it started if anything is left; free the pipes."""
        self._kill()

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
            readable, writable, _ = select.select(self._errs(), [fd], [], remaining)
            if readable:
                self._drain_stderr()
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
            readable, _, _ = select.select([fd, *self._errs()], [], [], remaining)
            if fd not in readable:
                if readable:
                    self._drain_stderr()
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self._crashed(decision)
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\n", 1)
        text = raw.decode("utf-8", errors="replace")
        if self._buffer and self.protocol == 1:
            self._buffer = b""
            self._violate("bad-answer", decision, "more than one line for one message", text)
        return text

    def _nothing_unasked(self, decision: int) -> None:
        """Refuse output the program sent between messages: every line must answer one."""
        process = self._process
        if process is None or process.stdout is None:
            return
        fd = process.stdout.fileno()
        while select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE:
                break
        if self.protocol == 2:
            self._unasked_lines(decision)
        if self._buffer.strip():
            unasked = self._buffer.decode("utf-8", errors="replace")
            self._buffer = b""
            self._violate("bad-answer", decision, "a line sent before it was asked", unasked)
        self._buffer = b""

    def _unasked_lines(self, decision: int) -> None:
        """Take the complete lines waiting: late answers are dropped, any other is stray."""
        while b"\n" in self._buffer:
            raw, self._buffer = self._buffer.split(b"\n", 1)
            if not raw.strip():
                continue
            line = raw.decode("utf-8", errors="replace")
            self._stray(decoded_object(line) or {}, decision, line)

    def _errs(self) -> list[int]:
        process = self._process
        if process is None or process.stderr is None or process.stderr.closed:
            return []
        return [process.stderr.fileno()]

    def _drain_stderr(self) -> None:
        """Read what the program wrote to standard error, keeping only its last bytes."""
        for fd in self._errs():
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                process = self._process
                assert process is not None and process.stderr is not None
                process.stderr.close()
                continue
            self._stderr = (self._stderr + chunk)[-STDERR_KEEP:]

    def _parse(self, line: str, decision: int) -> dict[str, Any]:
        try:
            answer = msgspec.json.decode(line)
        except (msgspec.DecodeError, RecursionError):
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
        if self.protocol == 2 and "fault" in answer:
            reason = answer["fault"]
            reason = reason if isinstance(reason, str) else msgspec.json.encode(reason).decode()
            violation = Violation(kind="fault", decision=decision, detail=reason, message=line)
            if self.on_violation is not None:
                self.on_violation(violation)
            raise BotFault(clip(reason))
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
        if process is None or process.poll() is not None or self._out_of_memory():
            self._crashed(decision)
        return process

    def _out_of_memory(self) -> bool:
        """Whether the kernel killed in the sandbox's group: a bot past its total memory."""
        return self._group is not None and self._group.oom_kills() > 0

    def _violate(self, kind: str, decision: int, detail: str, message: str) -> NoReturn:
        """Record a violation the program survives, and refuse its answer."""
        violation = Violation(kind=kind, decision=decision, detail=detail, message=message)
        if self.on_violation is not None:
            self.on_violation(violation)
        raise BotFault(f"{kind} at {where(decision)}: {detail}: {clip(message)}")

    def _fail(self, kind: str, decision: int, detail: str, message: str = "") -> NoReturn:
        """Record a violation that ends the program: kill what is left of it."""
        self._kill()
        violation = Violation(kind=kind, decision=decision, detail=detail, message=message)
        if self.on_violation is not None:
            self.on_violation(violation)
        quoted = f": {clip(message)}" if message else ""
        raise BotGone(f"{kind} at {where(decision)}: {detail}{quoted}")

    def _timeout(self, decision: int, doing: str) -> NoReturn:
        limit = self.start_limit if decision < 0 else self.time_limit
        self._fail(
            "timeout",
            decision,
            f"took more than {limit:g} s {doing}; its process group was killed",
            "(unanswered) " + self._last_sent.decode("utf-8", errors="replace").strip(),
        )

    def _crashed(self, decision: int) -> NoReturn:
        process, code = self._process, None
        if self._out_of_memory():  # the whole sandbox's fault, whichever process was killed
            self._fail("crash", decision, _OUT_OF_MEMORY, self._stderr_tail())
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
        # What is already in the pipe is the last the program said: read it without waiting.
        while self._errs() and select.select(self._errs(), [], [], 0)[0]:
            self._drain_stderr()
        tail = self._stderr[-CLIP:].decode("utf-8", errors="replace").strip()
        return f"stderr: {tail}" if tail else ""

    @property
    def stderr_kept(self) -> bytes:
        """The end of what the program wrote to standard error (at most ``STDERR_KEEP``)."""
        return self._stderr

    def _kill(self) -> None:
        process, group, self._group = self._process, self._group, None
        if group is not None:
            group.remove()  # kills what is left in it first
        if process is None:
            return
        if process.poll() is None:
            if self.sandbox is not None:
                # The sandbox's first process: its death takes every process in it along.
                for child in proctree.children(process.pid):
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(child, signal.SIGKILL)
            proctree.kill_tree(process.pid)
        else:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            proctree.kill_holders(self._pipes)  # what left its session after it exited
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(2)
        for pipe in (process.stdin, process.stdout, process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


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
        command=tuple(command),
        cwd=cwd,
    )
