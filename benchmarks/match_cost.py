"""What a search bot's match costs: processor seconds of one match against the heuristic.

One match per game and table: the bot in seat 0, the game's heuristic in every other seat,
seed 1 (``racedeck play GAME --seat BOT --seat heuristic ... --seed 1``), one race of
LACORSA and Detroit-Cleveland, the other games' defaults. The time is the process's own
(user and system, ``time.process_time``), so another process on the machine slows it
less than the wall clock; the plain loop's races a second (``lacorsa_reference``) are
measured in the same run, before and after, as the yardstick of the machine's speed.

    PYTHONPATH=src:. python -m benchmarks.match_cost --bot ismcts --bot ismcts-fast
    PYTHONPATH=src:. python -m benchmarks.match_cost --bot 'ismcts:simulations=200' \\
        --game lacorsa --players 2 --players 6

With ``--against REV`` each match is played by today's tree and by revision ``REV``'s
(unpacked from git, as ``benchmarks.baseline`` does), each in a fresh process, the two
alternated ``--runs`` times; the medians are printed side by side with whether the two
matches ended in the same places and scores (the same play, where the bot's version did
not change). Only registered bot names are taken there: an older tree may not read
parameters.

    PYTHONPATH=src:. python -m benchmarks.match_cost --against d1d5eae --bot ismcts
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import lacorsa_reference
from benchmarks.baseline import ROOT, environment, unpack
from racedeck.bots.named import resolve
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

ONE_RACE = {"detroit-cleveland": {"races": 1}, "lacorsa": {"races": 1}}
"""The options of the matches measured: one race where a match is a championship."""
GAMES = ("lacorsa", "famous-500", "wacky-races", "detroit-cleveland")


def match_seconds(game_name: str, bot: str, players: int, seed: int = 1) -> float:
    """Return the processor seconds of one match of ``bot`` against the heuristic."""
    registry = load_registry(entry_points=False)
    game = registry.game(game_name)
    options = game.parse_options(ONE_RACE.get(game_name, {}))
    spec = resolve(lambda name: registry.bot(name, game_name), bot)
    seats = [spec] + [registry.bot("heuristic", game_name)] * (players - 1)
    start = time.process_time()
    run_match(game, options, seats, seed)
    return time.process_time() - start


MATCH = r"""
import json, sys, time
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

name, bot, players, seed, raw = sys.argv[1:6]
registry = load_registry(entry_points=False)
game = registry.game(name)
seats = [registry.bot(bot, name)] + [registry.bot("heuristic", name)] * (int(players) - 1)
options = game.parse_options(json.loads(raw))
start = time.process_time()
outcome = run_match(game, options, seats, int(seed))
seconds = time.process_time() - start
print(json.dumps([seconds, list(outcome.result.ranks), list(outcome.result.scores)]))
"""
"""One match of a registered bot against the heuristic, in whichever tree runs it: its
processor seconds, places and scores as JSON."""


def tree_match(tree: Path, game_name: str, bot: str, players: int, seed: int) -> tuple[float, str]:
    """Return the processor seconds of one match played by ``tree``'s engine, and its end.

    A fresh process each time, so neither tree measures what another match left behind.
    """
    options = json.dumps(ONE_RACE.get(game_name, {}))
    done = subprocess.run(
        [sys.executable, "-c", MATCH, game_name, bot, str(players), str(seed), options],
        cwd=tree,
        env=environment(tree),
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, ranks, scores = json.loads(done.stdout)
    return float(seconds), json.dumps([ranks, scores])


def against(revision: str, cases: Sequence[tuple[str, int, str]], seed: int, runs: int) -> int:
    """Print each case's median seconds a match in ``revision``'s tree and today's."""
    with tempfile.TemporaryDirectory(prefix="racedeck-engine-") as folder:
        try:
            then = unpack(revision, Path(folder) / "tree")
        except LookupError as exc:
            print(exc, file=sys.stderr)
            return 2
        print(f"plain loop: {plain_loop_rate():,.0f} races a second (before)")
        print(f"| game | players | bot | {revision} (s) | today (s) | times faster | same end |")
        print("|---|---|---|---|---|---|---|")
        try:
            rows(then, cases, seed, runs)
        except subprocess.CalledProcessError as exc:
            lines = (exc.stderr or "").strip().splitlines() or ["no message"]
            print(f"a match failed in one of the trees: {lines[-1]}", file=sys.stderr)
            return 2
        print(f"plain loop: {plain_loop_rate():,.0f} races a second (after)")
    return 0


def rows(then: Path, cases: Sequence[tuple[str, int, str]], seed: int, runs: int) -> None:
    """Print one row a case: the medians of ``runs`` alternated matches in each tree."""
    for game_name, players, bot in cases:
        old: list[float] = []
        new: list[float] = []
        ends: set[str] = set()
        for _ in range(runs):  # alternated, so a busy minute falls on both
            for tree, times in ((then, old), (ROOT, new)):
                seconds, end = tree_match(tree, game_name, bot, players, seed)
                times.append(seconds)
                ends.add(end)
        before, after = statistics.median(old), statistics.median(new)
        same = "yes" if len(ends) == 1 else "no"
        faster = f"{before / after:.2f}" if after > 0 else "-"
        print(
            f"| {game_name} | {players} | `{bot}` | {before:.2f} | {after:.2f} "
            f"| {faster} | {same} |",
            flush=True,
        )


def plain_loop_rate(races: int = 300) -> float:
    """Return the plain loop's races a second, in processor time."""
    start = time.process_time()
    done = lacorsa_reference.races(races)
    return done / (time.process_time() - start)


def tables(game_name: str) -> tuple[int, ...]:
    """Return the tables measured: two players and the game's largest."""
    game = load_registry(entry_points=False).game(game_name)
    return tuple(sorted({max(2, game.min_players), game.max_players}))


def _positive(text: str) -> int:
    """Parse a count of one or more, or refuse it in argparse's one line."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of one or more")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Print seconds per match for each bot, game and table, with the plain loop's rate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", action="append", default=[])
    parser.add_argument("--game", action="append", default=[])
    parser.add_argument("--players", type=int, action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", metavar="REV", help="also play each match in this revision")
    parser.add_argument(
        "--runs", type=_positive, default=3, help="with --against: runs of each side"
    )
    args = parser.parse_args(argv)
    bots = args.bot or ["ismcts-fast", "ismcts", "ismcts-strong"]
    if args.against:
        cases = [
            (game_name, players, bot)
            for game_name in args.game or GAMES
            for players in args.players or tables(game_name)
            for bot in bots
        ]
        return against(args.against, cases, args.seed, args.runs)
    before = plain_loop_rate()
    print(f"plain loop: {before:,.0f} races a second (before)")
    print("| game | players | bot | seconds a match |")
    print("|---|---|---|---|")
    for game_name in args.game or GAMES:
        for players in args.players or tables(game_name):
            for bot in bots:
                seconds = match_seconds(game_name, bot, players, args.seed)
                print(f"| {game_name} | {players} | `{bot}` | {seconds:.2f} |", flush=True)
    print(f"plain loop: {plain_loop_rate():,.0f} races a second (after)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
