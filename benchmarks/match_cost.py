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
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from benchmarks import lacorsa_reference
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


def plain_loop_rate(races: int = 300) -> float:
    """Return the plain loop's races a second, in processor time."""
    start = time.process_time()
    done = lacorsa_reference.races(races)
    return done / (time.process_time() - start)


def tables(game_name: str) -> tuple[int, ...]:
    """Return the tables measured: two players and the game's largest."""
    game = load_registry(entry_points=False).game(game_name)
    return tuple(sorted({max(2, game.min_players), game.max_players}))


def main(argv: Sequence[str] | None = None) -> int:
    """Print seconds per match for each bot, game and table, with the plain loop's rate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", action="append", default=[])
    parser.add_argument("--game", action="append", default=[])
    parser.add_argument("--players", type=int, action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    bots = args.bot or ["ismcts-fast", "ismcts", "ismcts-strong"]
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
