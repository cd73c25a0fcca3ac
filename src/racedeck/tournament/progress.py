"""A one-line progress bar on a terminal: matches done, rate and time left."""

from __future__ import annotations

import time
from typing import TextIO

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
        self._last = 0.0

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


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"
