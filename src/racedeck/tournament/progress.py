"""Progress on stderr: a bar drawn by rich on a terminal, plain lines elsewhere (CI logs).

Both show matches done, the pace, the time elapsed and the time left; the plain lines also
the wins so far, like a chess tournament tool's rating interval. When matches are slow the
pace is the time between matches (``a match every 12.3 s``) rather than a rate of
``0.0/s``. Once the first match of a run is back, both say what the run will cost: the
seconds a match takes and the time the whole run needs at that pace (``estimate_line``).
Neither reads anything inside a match.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from racedeck.core.errors import UsageError
from racedeck.tournament.record import MatchRecord

WIDTH = 30
INTERVAL = 0.2


def pace(done: int, elapsed: float) -> str:
    """Return how fast matches come: a rate when several a second, else the time between."""
    if done <= 0:
        return "first match running"
    rate = done / max(elapsed, 1e-9)
    if rate >= 1:
        return f"{rate:,.1f} matches/s"
    return f"a match every {elapsed / done:,.1f} s"


def estimate_line(elapsed: float, done: int, total: int, workers: int, limit: bool = False) -> str:
    """Return the estimate of a run from its first ``done`` matches, back after ``elapsed``.

    With ``workers`` playing at once a match takes about ``elapsed * workers / done`` of
    one worker (at most as many workers as matches were running); the rest of the run then
    takes the matches left times that, shared among the workers. ``limit``: ``total`` is
    a limit the run may stop short of (a gate stops at its verdict).
    """
    busy = max(1, min(workers, total))
    per_match = elapsed * min(busy, done) / max(done, 1)
    left = total - done
    rest = per_match * left / busy
    more = f"at most {left} more" if limit else f"{left} more"
    return (
        f"estimate: {per_match:,.1f} s a match (from the first {done} of this run);"
        f" {more} on {busy} worker{'s' if busy != 1 else ''}: about {clock(rest)}"
    )


class Estimate:
    """Says once what a run will cost, when its first matches give enough to go on.

    That is ``STEADY_SPAN`` after the first match came back with a match a worker back
    since, or after ``ESTIMATE_WAIT`` seconds with at least one back: a slow match gives
    its estimate as soon as it ends.
    Fast ones are judged by the pace after the first match came back, not by the time
    since the start, which carried the workers' start-up (a second or so that would
    make a run of quick matches look ten times dearer than it is).
    """

    def __init__(self, total: int, done: int, workers: int, start: float, limit: bool = False):
        self._total = total
        self._start_done = done
        self._workers = max(1, workers)
        self._start = start
        self._limit = limit
        self._first: tuple[float, int] | None = None
        self.said = False

    def due(self, done: int, now: float) -> str | None:
        """Return the estimate the first time it is due with ``done`` matches, else None."""
        ran = done - self._start_done
        elapsed = now - self._start
        if self.said or ran <= 0 or done >= self._total:
            return None
        if self._first is None:
            self._first = (now, ran)
        first_at, first_ran = self._first
        since = now - first_at
        steady = ran - first_ran >= self._workers and since >= STEADY_SPAN
        if not steady and elapsed < ESTIMATE_WAIT:
            return None
        self.said = True
        left = self._total - self._start_done
        if steady:
            # The pace once running: the matches back after the first return, over the
            # time since then (the run's rest, like them, has no start-up to pay).
            return estimate_line(
                since, ran - first_ran, left - first_ran, self._workers, self._limit
            )
        return estimate_line(elapsed, ran, left, self._workers, self._limit)

    def rest(self, done: int, now: float) -> float:
        """Return the seconds the run needs after ``done`` matches, at its pace so far."""
        ran = max(1, done - self._start_done)
        return (now - self._start) * (self._total - done) / ran


ESTIMATE_WAIT = 2.0
"""Seconds after which one finished match is enough for an estimate."""

STEADY_SPAN = 0.5
"""The time after the first match's return over which a pace is taken: long enough for
every worker to have started and handed back matches of its own."""

ESTIMATE_AFTER = 5.0
"""Off a terminal, the estimate is written only for a run with at least this many seconds
left after its first match: a short run's log stays as short as it was."""


class ProgressBar:
    """A bar drawn by rich on a terminal: done, pace, elapsed and left, redrawn in place."""

    def __init__(self, total: int, done: int, stream: TextIO, workers: int = 1) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn

        self.total = total
        self.done = done
        self._start_done = done
        self._workers = workers
        self._start = time.monotonic()
        self._estimate = Estimate(total, done, workers, self._start)
        terminal = _is_terminal(stream)
        console = Console(file=stream, force_terminal=terminal or None, highlight=False)
        self._bar = Progress(
            BarColumn(bar_width=WIDTH),
            TextColumn("{task.completed}/{task.total} matches  {task.fields[pace]}"),
            TextColumn("elapsed {task.fields[elapsed]}  {task.fields[left]} left"),
            console=console,
            auto_refresh=terminal,
            refresh_per_second=1 / INTERVAL,
            transient=False,
            # Standard output carries results (--json): the bar never takes it over.
            redirect_stdout=False,
        )
        self._task = self._bar.add_task("", total=total, completed=done, **self._fields())
        self._bar.start()

    def record(self, record: MatchRecord) -> None:
        """Count one finished match."""
        self.advance()

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more finished matches; say the estimate after the first."""
        self.done += count
        self._bar.update(self._task, completed=self.done, **self._fields())
        line = self._estimate.due(self.done, time.monotonic())
        if line is not None:
            self._bar.console.print(line)

    def close(self) -> None:
        """Draw the final state and end the line."""
        self._bar.update(self._task, completed=self.done, **self._fields())
        self._bar.stop()

    def _fields(self) -> dict[str, Any]:
        elapsed = time.monotonic() - self._start
        ran = self.done - self._start_done
        rate = ran / max(elapsed, 1e-9)
        left = clock((self.total - self.done) / rate) if rate > 0 else "--:--"
        return {"pace": pace(ran, elapsed), "elapsed": clock(elapsed), "left": left}


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress(Protocol):
    """What the tournament command tells as matches finish."""

    def record(self, record: MatchRecord) -> None:
        """Count one finished match."""

    def close(self) -> None:
        """Say the last word."""


@dataclass(frozen=True)
class ReportEvery:
    """How often plain progress lines come: every ``matches`` matches or ``seconds`` seconds."""

    matches: int | None = None
    seconds: float | None = None


DEFAULT_REPORT_EVERY = ReportEvery(seconds=10.0)
"""Off a terminal, without ``--report-every``: a line every ten seconds."""

_EVERY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s?)\s*$")


def parse_report_every(text: str) -> ReportEvery:
    """Read ``--report-every``: ``N`` matches, or ``Ts`` seconds (``30s``)."""
    found = _EVERY.match(text)
    if found is None or float(found.group(1)) <= 0:
        raise UsageError(
            f"--report-every expects a number of matches (50) or of seconds (30s), got {text!r}"
        )
    number, seconds = found.groups()
    if seconds:
        return ReportEvery(seconds=float(number))
    if "." in number:
        raise UsageError(f"--report-every: a number of matches is a whole number, got {text!r}")
    return ReportEvery(matches=int(number))


class ProgressLines:
    """Writes a plain line every so many matches or seconds, and one at the end."""

    def __init__(
        self, total: int, done: int, stream: TextIO, every: ReportEvery, workers: int = 1
    ) -> None:
        self.total = total
        self.done = done
        self._start_done = done
        self._stream = stream
        self._every = every
        self._start = time.monotonic()
        self._last_time = self._start
        self._last_done = done
        self._estimate = Estimate(total, done, workers, self._start)
        self._wins: Counter[str] = Counter()
        self._errors = 0
        self._written = False

    def record(self, record: MatchRecord) -> None:
        """Count one finished match; write a line when one is due."""
        self.done += 1
        if record.counted:
            for bot, rank in zip(record.seats, record.ranks, strict=True):
                self._wins[bot] += rank == 1
        else:
            self._errors += 1
        now = time.monotonic()
        line = self._estimate.due(self.done, now)
        if line is not None and self._estimate.rest(self.done, now) >= ESTIMATE_AFTER:
            self._stream.write(line + "\n")
            self._stream.flush()
        every = self._every
        if (every.matches is not None and self.done - self._last_done >= every.matches) or (
            every.seconds is not None and now - self._last_time >= every.seconds
        ):
            self._write(now)

    def close(self) -> None:
        """Write the last line, when earlier lines left matches untold (a short run says none)."""
        if self._written and self.done != self._last_done:
            self._write(time.monotonic())

    def _write(self, now: float) -> None:
        self._last_time, self._last_done, self._written = now, self.done, True
        elapsed = max(now - self._start, 1e-9)
        ran = self.done - self._start_done
        rate = ran / elapsed
        left = clock((self.total - self.done) / rate) if rate > 0 else "--:--"
        share = 100 * self.done / max(self.total, 1)
        wins = ", ".join(f"{bot} {n}" for bot, n in sorted(self._wins.items()))
        errors = f"; {self._errors} unplayable" if self._errors else ""
        self._stream.write(
            f"progress: {self.done}/{self.total} matches ({share:.0f}%), {pace(ran, elapsed)},"
            f" elapsed {clock(elapsed)}, {left} left; wins: {wins or '-'}{errors}\n"
        )
        self._stream.flush()


def clock(seconds: float) -> str:
    """Return a duration as ``MM:SS``, or ``H:MM:SS`` from an hour on."""
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"
