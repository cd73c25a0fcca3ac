"""Start-up: ``racedeck --help`` against ``python -c pass``, timed in turn in the same run.

Each side starts a fresh interpreter a few times; the ratio is the bare interpreter's time
over the command's (1.0 would be a command that costs nothing beyond Python itself), so
what the command line imports before it can answer is what this measures.

    python -m benchmarks.bench_startup      # both medians in seconds, and their ratio
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from benchmarks.harness import Benchmark, Ratio

RUNS = 5
"""Interpreters started per repeat, on each side."""

HELP = [sys.executable, "-m", "racedeck", "--help"]
BARE = [sys.executable, "-c", "pass"]


def _starts(command: list[str]) -> int:
    """Run ``command`` ``RUNS`` times, each to its end; return how many."""
    for _ in range(RUNS):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=_env())
    return RUNS


def _env() -> dict[str, str]:
    """The environment of a command a user types: no terminal width games, no plugins dir."""
    return {**os.environ, "COLUMNS": "100"}


def benchmarks() -> list[Ratio]:
    """The start-up of the command line's help as a share of the bare interpreter's."""
    return [
        Ratio(
            name="start-up: racedeck --help against python -c pass",
            measured=Benchmark("racedeck --help", "starts", lambda: _starts(HELP)),
            reference=Benchmark("python -c pass", "starts", lambda: _starts(BARE)),
        )
    ]


def seconds(command: list[str], repeats: int = 11) -> float:
    """Return the median wall-clock seconds of one run of ``command``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=_env())
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print both medians side by side, taken in turn, and the command's extra time."""
    bare, help_ = [], []
    for _ in range(11):
        bare.append(seconds(BARE, 1))
        help_.append(seconds(HELP, 1))
    b, h = statistics.median(bare), statistics.median(help_)
    print(f"python -c pass   {b:.3f} s (median of {len(bare)})")
    print(f"racedeck --help  {h:.3f} s (median of {len(help_)}); {h - b:.3f} s more")


if __name__ == "__main__":
    main()
