"""Progress on stderr: a one-line bar on a terminal, plain lines elsewhere (CI logs).

Both show matches done, the rate and the time left; the plain lines also the wins so far,
like a chess tournament tool's rating interval. Neither reads anything inside a match.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass
from typing import Protocol, TextIO

from racedeck.core.errors import UsageError
from racedeck.tournament.record import MatchRecord

WIDTH = 30
INTERVAL = 0.2


class ProgressBar:
    """Redraws one line on ``stream`` at most every ``INTERVAL`` seconds."""

    def __init__(self, total: int, done: int, stream: TextIO) -> None:
        self.total = total
        self.done = done
        self._start_done = done
        self._stream = stream
        self._start = time.monotonic()
        self._last = self._start
        self._draw(self._start)

    def record(self, record: MatchRecord) -> None:
        """Count one finished match."""
        self.advance()

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more finished matches and redraw if it is time to."""
        self.done += count
        now = time.monotonic()
        if now - self._last >= INTERVAL or self.done >= self.total:
            self._last = now
            self._draw(now)

    def close(self) -> None:
        """Draw the final state and end the line."""
        self._draw(time.monotonic())
        self._stream.write("\n")
        self._stream.flush()

    def _draw(self, now: float) -> None:
        elapsed = max(now - self._start, 1e-9)
        rate = (self.done - self._start_done) / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        filled = WIDTH * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (WIDTH - filled)
        eta = _clock(left) if left != float("inf") else "--:--"
        self._stream.write(
            f"\r[{bar}] {self.done}/{self.total} matches  {rate:,.1f}/s  {eta} left  "
        )
        self._stream.flush()


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

    def __init__(self, total: int, done: int, stream: TextIO, every: ReportEvery) -> None:
        self.total = total
        self.done = done
        self._start_done = done
        self._stream = stream
        self._every = every
        self._start = time.monotonic()
        self._last_time = self._start
        self._last_done = done
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
        rate = (self.done - self._start_done) / elapsed
        left = _clock((self.total - self.done) / rate) if rate > 0 else "--:--"
        share = 100 * self.done / max(self.total, 1)
        wins = ", ".join(f"{bot} {n}" for bot, n in sorted(self._wins.items()))
        errors = f"; {self._errors} unplayable" if self._errors else ""
        self._stream.write(
            f"progress: {self.done}/{self.total} matches ({share:.0f}%), {rate:,.1f}/s,"
            f" {left} left; wins: {wins or '-'}{errors}\n"
        )
        self._stream.flush()


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"
