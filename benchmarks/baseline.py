"""An earlier revision of the engine, timed beside today's in the same benchmark run.

A target such as "verifying at three times the events a second of revision R" is a ratio
between two versions of the engine, and on a shared machine absolute rates drift by half
from one minute to the next. So the earlier revision's ``src`` and ``benchmarks`` are
unpacked from git (``git archive``) into a temporary folder, and a worker process runs
there, with that tree's own ``racedeck`` and harness. It plays its own logs (in its own
log format) once; then each request verifies them once more, as ``replay --verify`` did
at that revision, so ``Ratio`` times the two engines one after the other.

Without git or the revision (a shallow clone, an unpacked archive) the baseline is not
available and the benchmarks that need it say so instead of running.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_WORKER = r"""
import sys
from pathlib import Path
from tempfile import TemporaryDirectory
from benchmarks.harness import GameRuns
try:
    from racedeck.core.verify import verify_log
except ImportError:  # before log format 3: replay, then re-run the bots and compare
    from racedeck.core.replay import verify_log

folder = TemporaryDirectory()
logs = {}
for request in sys.stdin:
    game, players, races, count = request.split()
    key = (game, players, races, count)
    if key not in logs:
        runs = GameRuns(game, {"races": 1}, players=int(players), matches=1)
        paths = []
        for number, log in enumerate(runs.replay_logs({"races": int(races)}, int(count))):
            path = Path(folder.name) / f"{game}-{players}-{races}-{number}.jsonl"
            path.write_bytes(log)
            paths.append(path)
        logs[key] = (runs.registry, paths)
    registry, paths = logs[key]
    events = 0
    for path in paths:
        checked = verify_log(registry, path)
        events += getattr(checked, "replay", checked).events
    print(events, flush=True)
"""


class Baseline:
    """A worker verifying logs with the engine of ``revision``; started on first use."""

    def __init__(self, revision: str) -> None:
        self.revision = revision
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._worker: subprocess.Popen[str] | None = None
        self.missing = ""
        """Why the revision cannot be run here ('' while it can)."""

    def available(self) -> bool:
        """Unpack the revision and start its worker, unless done; False if it cannot be."""
        if self._worker is not None:
            return True
        if self.missing:
            return False
        try:
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", self.revision, "src", "benchmarks"],
                capture_output=True,
                check=True,
            ).stdout
        except (OSError, subprocess.CalledProcessError):
            self.missing = f"revision {self.revision} is not in this checkout's git history"
            return False
        self._folder = tempfile.TemporaryDirectory(prefix="racedeck-baseline-")
        tree = Path(self._folder.name)
        with tarfile.open(fileobj=BytesIO(archive)) as unpacked:
            unpacked.extractall(tree, filter="data")
        self._worker = subprocess.Popen(
            [sys.executable, "-c", _WORKER],
            cwd=tree,
            env={"PYTHONPATH": f"{tree / 'src'}:{tree}", "PATH": "/usr/bin:/bin"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        return True

    def verify(self, game: str, players: int, races: int, logs: int) -> int:
        """Verify the revision's own ``logs`` random-bot matches once more; count their events."""
        assert self._worker is not None and self._worker.stdin and self._worker.stdout
        self._worker.stdin.write(f"{game} {players} {races} {logs}\n")
        self._worker.stdin.flush()
        answer = self._worker.stdout.readline()
        if not answer:
            raise RuntimeError(f"the worker of revision {self.revision} stopped")
        return int(answer)

    def close(self) -> None:
        """Stop the worker and remove the unpacked revision."""
        if self._worker is not None:
            assert self._worker.stdin is not None
            self._worker.stdin.close()
            self._worker.wait()
            self._worker = None
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
