"""How far ahead a game's estimate sees: the check behind a playout horizon.

A search that cuts its playouts short (ISMCTS's ``horizon``) trusts ``Game.estimate`` to
say who is ahead where it stops. This measures that trust: seeded matches between the
game's heuristic bots are played and logged, and at every seat decision of each the
estimate is asked who leads; once the match is over, a decision counts as *foreseen* when
every seat the estimate ranks first is a winner of the match. The figures are given by how
many seat decisions were still to come, since a horizon leaves that many to the estimate.
Where the estimate foresees little more than chance (one seat in ``players``), a playout
cut there is close to a coin toss.

Run ``python -m racedeck.bots.estimates GAME --players N --matches M [-o KEY=VALUE]``.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from racedeck.core.errors import RacedeckError
from racedeck.core.log import LogWriter
from racedeck.core.model import Options
from racedeck.core.replay import iter_states
from racedeck.core.runner import run_match
from racedeck.plugins import Registry, load_registry

BUCKET = 20
"""Seat decisions to come per row of the table."""


@dataclass(frozen=True)
class Foresight:
    """How often the estimate named a winner, among decisions with ``ahead`` or so to come."""

    ahead: int
    """The fewest decisions still to come in this row (the row spans ``BUCKET``)."""
    foreseen: int
    decisions: int

    @property
    def share(self) -> float:
        """The share of this row's decisions whose leaders all won."""
        return self.foreseen / self.decisions if self.decisions else 0.0


def foresight(
    registry: Registry, game_name: str, options: Options, players: int, seeds: Sequence[int]
) -> list[Foresight]:
    """Return, per ``BUCKET`` of decisions still to come, how often the estimate saw a winner.

    Each seed is one match between the game's heuristic bots (``random`` where the game has
    none), played with a log that is then read back state by state, so the states judged
    are the match's own. A game that gives no estimate raises ``RacedeckError``.
    """
    game = registry.game(game_name)
    try:
        bot = registry.bot("heuristic", game_name)
    except RacedeckError:
        bot = registry.bot("random", game_name)
    rows: dict[int, list[int]] = {}
    for seed in seeds:
        buffer = io.BytesIO()
        outcome = run_match(game, options, [bot] * players, seed, writer=LogWriter(buffer))
        winners = {seat for seat, rank in enumerate(outcome.result.ranks) if rank == 1}
        judged: list[bool] = []
        buffer.seek(0)
        # The state before each seat decision: the initial one, then each after an event.
        for _, _, state, _ in iter_states(registry, f"<seed {seed}>", buffer):
            step = game.next_step(state)
            if step.engine or not step.seats:
                continue
            verdict = game.estimate(state)
            if verdict is None:
                raise RacedeckError(f"{game_name} gives no estimate of an unfinished match")
            leaders = {seat for seat, rank in enumerate(verdict.ranks) if rank == 1}
            judged.append(leaders <= winners)
        for index, seen in enumerate(judged):
            row = rows.setdefault((len(judged) - 1 - index) // BUCKET, [0, 0])
            row[0] += seen
            row[1] += 1
    return [Foresight(key * BUCKET, *rows[key]) for key in sorted(rows)]


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table of ``foresight`` for one game and table size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--plugins-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    try:
        registry = load_registry(args.plugins_dir)
        game = registry.game(args.game)
        raw = dict(item.split("=", 1) for item in args.option if "=" in item)
        if len(raw) != len(args.option):
            raise RacedeckError("an option is KEY=VALUE")
        if not game.min_players <= args.players <= game.max_players:
            raise RacedeckError(
                f"{args.game} takes {game.min_players} to {game.max_players} players"
            )
        if args.matches < 1:
            raise RacedeckError("--matches must be at least 1")
        options = game.parse_options(raw)
        seeds = range(args.first_seed, args.first_seed + args.matches)
        rows = foresight(registry, args.game, options, args.players, seeds)
    except RacedeckError as exc:
        print(f"estimates: {exc}", file=sys.stderr)
        return 2
    print(f"{args.game}, {args.players} players, {args.matches} heuristic matches")
    print(f"(chance: {1 / args.players:.2f})")
    print("| decisions to come | estimate's leaders won | decisions |")
    print("|---|---|---|")
    for row in rows:
        print(f"| {row.ahead}-{row.ahead + BUCKET - 1} | {row.share:.2f} | {row.decisions} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
