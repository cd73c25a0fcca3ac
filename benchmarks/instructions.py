"""Instructions, not seconds: how much work ``replay --verify`` does, beside an earlier revision.

Timed rates on a shared two-core machine drift by half from one minute to the next, even
taken side by side. An instruction count does not: valgrind's callgrind counts the
instructions the interpreter executes, the same on every run of the same code and input
(string hashing salted alike in every process: ``PYTHONHASHSEED=0``).
For each game, a process of the tree plays the same random-bot matches as
``bench_replay`` and writes their logs (each tree in its own format); then a fresh process
verifies them once to warm up and ``--passes`` more times, and another with no extra
pass; the difference over the passes is one verification of the game's logs, start-up
and imports excluded. With ``--against REV`` the same is counted in revision ``REV``'s
tree (``git archive``, as ``benchmarks.baseline``), and the ratio is printed.

    PYTHONPATH=src:. python -m benchmarks.instructions --against d1d5eae

It needs ``valgrind`` (a system package); each count takes about a minute.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.baseline import ROOT, VERIFY, environment, unpack, write_logs

GAMES = {"lacorsa": (6, 20), "detroit-cleveland": (4, 3), "wacky-races": (4, 3)}
"""Each game's table and races, as ``bench_replay`` verifies them."""

_COLLECTED = re.compile(r"Collected : (\d+)")


def count(tree: Path, game: str, passes: int, folder: Path) -> int:
    """Return the instructions of one verification of ``game``'s logs by ``tree``'s engine.

    The logs are written first by a process of their own (``baseline.write_logs``); the
    count is of a process that only verifies them, as ``racedeck replay --verify`` does.
    """
    players, races = GAMES[game]
    logs = folder / tree.name / game
    logs.mkdir(parents=True)
    line = " ".join(write_logs(tree, game, players, races, 3, logs)) + "\n"

    def run(extra: int) -> int:
        # The worker verifies the logs once a line: once to warm up, then ``extra`` more.
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={logs}/callgrind.out",
                sys.executable,
                "-c",
                VERIFY,
            ],
            input=line * (1 + extra),
            cwd=tree,
            # String hashing is salted per process: sets and dicts of strings then iterate
            # in another order, and the count moves by several percent between runs of the
            # same code. One fixed salt makes it the same on every run.
            env={**environment(tree), "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            check=True,
        )
        found = _COLLECTED.search(done.stderr)
        if found is None:
            raise RuntimeError(f"valgrind printed no count: {done.stderr[-400:]}")
        return int(found.group(1))

    return (run(passes) - run(0)) // passes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="also count this git revision")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--game", action="append", choices=sorted(GAMES), default=[])
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: it counts the instructions", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="racedeck-instructions-") as folder:
        earlier = unpack(args.against, Path(folder) / "earlier") if args.against else None
        for game in args.game or list(GAMES):
            now = count(ROOT, game, args.passes, Path(folder))
            line = f"{game:<18} {now / 1e6:9.1f} M instructions"
            if earlier is not None:
                then = count(earlier, game, args.passes, Path(folder))
                line += f"  (at {args.against}: {then / 1e6:.1f} M; {then / now:.2f} x fewer now)"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
