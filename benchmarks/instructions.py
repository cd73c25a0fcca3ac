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

With ``--parts`` it also counts, in today's tree, two parts of that verification on
their own: reading the logs' lines (``READ``: each decoded, checked canonical, its hash
chained) and the rules alone (``RULES``: each log's recorded actions fed straight to the
play driver, so every event is derived again, with nothing read or compared). Beside a
third of the earlier revision's count, they show how much of "three times fewer" the
game's own work leaves for the rest.

    PYTHONPATH=src:. python -m benchmarks.instructions --against d1d5eae --parts

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

READ = r"""
import sys
from racedeck.core.log import LogReader

for request in sys.stdin:
    lines = 0
    for path in request.split():
        with LogReader(path) as reader:
            reader.event_entries = False
            for _entry in reader:
                lines += 1
    print(lines, flush=True)
"""
"""Read the logs named on each line of standard input, checking every line; print how many."""

RULES = r"""
import sys
from racedeck.core.driver import Driver, play_through
from racedeck.core.entries import decode_action
from racedeck.core.log import LogReader
from racedeck.core.replay import open_game
from racedeck.plugins import load_registry

registry = load_registry(entry_points=False)
matches = {}


def recorded(path):
    # The header and the seats' actions, read and decoded on the first request only.
    with LogReader(path) as reader:
        game, options = open_game(registry, reader.header, path)
        reader.event_entries = False
        actions = [
            decode_action(game, entry.decision.action, path, entry.line)
            for entry in reader
            if entry.decision is not None and entry.decision.action is not None
        ]
    header = reader.header
    return game, game.initial_state(options, header.players), header.seed, actions


for request in sys.stdin:
    events = 0
    for path in request.split():
        if path not in matches:
            matches[path] = recorded(path)
        game, state, seed, actions = matches[path]
        answers = iter(actions)
        driver = Driver(game, state, seed, lambda _state, _seat, _legal: next(answers))
        events += play_through(driver).events
    print(events, flush=True)
"""
"""Play each named log's recorded actions through the driver again; print the events."""


def write(tree: Path, game: str, folder: Path) -> list[str]:
    """Have ``tree``'s engine write ``game``'s three logs into ``folder``; return the paths."""
    players, races = GAMES[game]
    logs = folder / tree.name / game
    logs.mkdir(parents=True)
    return write_logs(tree, game, players, races, 3, logs)


def count(tree: Path, paths: list[str], passes: int, worker: str = VERIFY) -> int:
    """Return the instructions of one pass of ``worker`` (``VERIFY`` by default) over ``paths``.

    The logs are written first by a process of their own (``write``); the count is of a
    process that only reads them, as ``racedeck replay --verify`` does.
    """
    line = " ".join(paths) + "\n"
    logs = Path(paths[0]).parent

    def run(extra: int) -> int:
        # The worker verifies the logs once a line: once to warm up, then ``extra`` more.
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={logs}/callgrind.out",
                sys.executable,
                "-c",
                worker,
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
    parser.add_argument(
        "--parts", action="store_true", help="also count reading alone and the rules alone"
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: it counts the instructions", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="racedeck-instructions-") as folder:
        earlier = unpack(args.against, Path(folder) / "earlier") if args.against else None
        for game in args.game or list(GAMES):
            paths = write(ROOT, game, Path(folder))
            now = count(ROOT, paths, args.passes)
            line = f"{game:<18} {now / 1e6:9.1f} M instructions"
            then = 0
            if earlier is not None:
                then = count(earlier, write(earlier, game, Path(folder)), args.passes)
                line += f"  (at {args.against}: {then / 1e6:.1f} M; {then / now:.2f} x fewer now)"
            print(line, flush=True)
            if args.parts:
                reading = count(ROOT, paths, args.passes, READ)
                rules = count(ROOT, paths, args.passes, RULES)
                line = f"{'':<18} reading alone {reading / 1e6:.1f} M"
                line += f", rules alone {rules / 1e6:.1f} M"
                if then:
                    line += f"; a third of {args.against}'s count: {then / 3e6:.1f} M"
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
