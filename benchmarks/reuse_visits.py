"""What ``reuse`` carries: the visits a search's root holds, with and without the last tree.

One match per seed of the bot in seat 0 against the game's heuristic (one race of LACORSA
and Detroit-Cleveland), once as named and once with ``reuse=true``. At each decision the
bot searched (more than one legal action) it counts the simulations run, the visits the
root brought from the last decision's tree (``Ismcts.last_carried``) and the processor
seconds of the decision. The two matches part ways at the first decision reuse changes,
so the figures are per decision, over all the decisions of all the matches.

    PYTHONPATH=src:. python -m benchmarks.reuse_visits --game lacorsa --seeds 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from racedeck.bots.ismcts import Ismcts
from racedeck.bots.named import resolve
from racedeck.core.bot import BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

ONE_RACE = {"detroit-cleveland": {"races": 1}, "lacorsa": {"races": 1}}
"""The options of the matches measured: one race where a match is a championship."""


def _counting(spec: BotSpec, rows: list[tuple[int, int, float]]) -> BotSpec:
    """Return ``spec`` whose bot notes (carried, simulations, seconds) per searched decision."""

    def make() -> Any:
        bot = spec.factory()
        assert isinstance(bot, Ismcts)
        act = bot.act

        def counted(observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
            start = time.process_time()
            action = act(observation, legal, rng)
            if len(legal) > 1:
                seconds = time.process_time() - start
                rows.append((bot.last_carried, bot.last_simulations, seconds))
            return action

        bot.act = counted  # type: ignore[method-assign]
        return bot

    return BotSpec(name=spec.name, factory=make, description=spec.description)


def decisions(game_name: str, bot: str, players: int, seeds: range) -> list[tuple[int, int, float]]:
    """Return (carried, simulations, seconds) of every decision ``bot`` searched."""
    registry = load_registry(entry_points=False)
    game = registry.game(game_name)
    options = game.parse_options(ONE_RACE.get(game_name, {}))
    spec = resolve(lambda name: registry.bot(name, game_name), bot)
    rows: list[tuple[int, int, float]] = []
    seats = [_counting(spec, rows)] + [registry.bot("heuristic", game_name)] * (players - 1)
    for seed in seeds:
        run_match(game, options, seats, seed)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Print, per game and bot, the root's visits a decision with and without reuse."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--game", action="append", default=[])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args(argv)
    reuse = f"{args.bot}{',' if ':' in args.bot else ':'}reuse=true"
    print(
        "| game | bot | decisions | carried | visits carried (mean) | simulations (mean) "
        "| root visits (mean) | ms a decision (median) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for game_name in args.game or ["lacorsa", "wacky-races"]:
        for bot in (args.bot, reuse):
            rows = decisions(game_name, bot, args.players, range(1, args.seeds + 1))
            carried = [c for c, _, _ in rows]
            sims = [s for _, s, _ in rows]
            share = sum(1 for c in carried if c) / len(rows)
            print(
                f"| {game_name} | `{bot}` | {len(rows)} | {share:.0%} "
                f"| {statistics.mean(carried):.1f} | {statistics.mean(sims):.1f} "
                f"| {statistics.mean(c + s for c, s, _ in rows):.1f} "
                f"| {1000 * statistics.median(t for _, _, t in rows):.1f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
