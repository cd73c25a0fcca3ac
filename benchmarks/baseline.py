"""Two versions of the engine verifying logs side by side: today's tree and an earlier one.

A target such as "verifying at three times the events a second of revision R" is a ratio
between two versions of the engine, and on a shared machine absolute rates drift by half
from one minute to the next. So the earlier revision's ``src`` and ``benchmarks`` are
unpacked from git (``git archive``) into a temporary folder, and each version gets the
same treatment, as ``racedeck replay --verify`` gets it from a user: a first process of
that tree plays the random-bot matches and writes their logs (in its own log format),
and a second one, which has played nothing, verifies them on each request. ``Ratio``
times the two workers one after the other, and ``benchmarks.instructions`` counts their
instructions.

A worker that played the matches itself would verify among what playing left behind: the
collector walks it again and again, and in one measurement that cost today's engine more
than half again its instructions. A fresh process has none of it.

Without git or the revision (a shallow clone, an unpacked archive) the earlier engine is
not available and the benchmarks that need it say so instead of running.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAY = r"""
import sys
from pathlib import Path
from benchmarks.harness import GameRuns

game, players, races, count, folder = sys.argv[1:6]
runs = GameRuns(game, {"races": 1}, players=int(players), matches=1)
for number, log in enumerate(runs.replay_logs({"races": int(races)}, int(count))):
    Path(folder, f"{game}-{players}-{races}-{number}.jsonl").write_bytes(log)
"""
"""Play ``count`` random-bot matches of a game and write their logs into a folder."""

VERIFY = r"""
import sys
from pathlib import Path
from racedeck.plugins import load_registry
try:
    from racedeck.core.verify import verify_log
except ImportError:  # before log format 3: replay, then re-run the bots and compare
    from racedeck.core.replay import verify_log

registry = load_registry(entry_points=False)
for request in sys.stdin:
    paths = request.split()
    events = 0
    for path in paths:
        checked = verify_log(registry, path)
        events += getattr(checked, "replay", checked).events
    print(events, flush=True)
"""
"""Verify the logs named on each line of standard input; print their events."""


def environment(tree: Path) -> dict[str, str]:
    """Return the environment that runs ``tree``'s own racedeck and benchmarks."""
    return {"PYTHONPATH": f"{tree / 'src'}:{tree}", "PATH": "/usr/bin:/bin"}


def unpack(revision: str, into: Path) -> Path:
    """Unpack ``revision``'s ``src`` and ``benchmarks`` into ``into``; return the tree.

    Raises ``LookupError`` when git or the revision is not there, or when ``revision``
    reads as an option (``--output=...`` would have git write a file of its choosing).
    """
    if not revision or revision.startswith("-"):
        raise LookupError(f"{revision!r} is not a git revision")
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "src", "benchmarks"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        raise LookupError(f"revision {revision} is not in this checkout's git history") from None
    with tarfile.open(fileobj=BytesIO(archive)) as files:
        files.extractall(into, filter="data")
    return into


def write_logs(
    tree: Path, game: str, players: int, races: int, count: int, folder: Path
) -> list[str]:
    """Have ``tree``'s engine play ``count`` matches and write their logs; return the paths."""
    subprocess.run(
        [sys.executable, "-c", PLAY, game, str(players), str(races), str(count), str(folder)],
        cwd=tree,
        env=environment(tree),
        check=True,
    )
    return [str(folder / f"{game}-{players}-{races}-{n}.jsonl") for n in range(count)]


class Engine:
    """One version of the engine: its tree, its logs, and a worker that verifies them.

    ``revision`` None is today's tree; otherwise the revision is unpacked on first use.
    """

    def __init__(self, revision: str | None = None) -> None:
        self.revision = revision
        self.name = revision or "today"
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._worker: subprocess.Popen[str] | None = None
        self._logs: dict[tuple[str, int, int, int], list[str]] = {}
        self.tree = ROOT
        """The tree whose engine runs: this one, or the revision's once unpacked."""
        self.missing = ""
        """Why this version cannot be run here ('' while it can)."""

    def available(self) -> bool:
        """Unpack the tree and start the worker, unless done; False if it cannot be."""
        if self._worker is not None:
            return True
        if self.missing:
            return False
        self._folder = tempfile.TemporaryDirectory(prefix="racedeck-engine-")
        if self.revision is not None:
            try:
                self.tree = unpack(self.revision, Path(self._folder.name) / "tree")
            except LookupError as exc:
                self.missing = str(exc)
                return False
        tree = self.tree
        self._worker = subprocess.Popen(
            [sys.executable, "-c", VERIFY],
            cwd=tree,
            env=environment(tree),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        return True

    def logs(self, game: str, players: int, races: int, count: int) -> list[str]:
        """Return this engine's logs of ``count`` random-bot matches, written on first use."""
        key = (game, players, races, count)
        if key not in self._logs:
            assert self._folder is not None
            folder = Path(self._folder.name) / "logs"
            folder.mkdir(exist_ok=True)
            self._logs[key] = write_logs(self.tree, game, players, races, count, folder)
        return self._logs[key]

    def verify(self, game: str, players: int, races: int, count: int) -> int:
        """Verify this engine's logs of those matches once more; count their events."""
        paths = self.logs(game, players, races, count)
        assert self._worker is not None and self._worker.stdin and self._worker.stdout
        self._worker.stdin.write(" ".join(paths) + "\n")
        self._worker.stdin.flush()
        answer = self._worker.stdout.readline()
        if not answer:
            raise RuntimeError(f"the verifying worker of {self.name} stopped")
        return int(answer)

    def close(self) -> None:
        """Stop the worker and remove the unpacked tree and the logs."""
        if self._worker is not None:
            assert self._worker.stdin is not None
            self._worker.stdin.close()
            self._worker.wait()
            self._worker = None
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
