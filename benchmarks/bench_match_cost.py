"""Search bots: seconds a match against the heuristic, beside the plain loop's races a second.

For every game at two players and at its largest table, one match of ``EFFORT_BOT``
(seat 0) against the heuristic (``benchmarks.match_cost``), timed with the plain LACORSA
loop's races a second before and after in the same run: the loop says how fast the machine
was. The budget of effort, not the registered ``ismcts``, whose Detroit-Cleveland match
takes close to a minute of a core (``docs/bots.md``, "Budgets of effort").
"""

from __future__ import annotations

from functools import partial

from benchmarks import lacorsa_reference
from benchmarks.harness import Benchmark
from benchmarks.match_cost import GAMES, match_seconds, tables

PLAIN_LOOP_RACES = 300
EFFORT_BOT = "ismcts:simulations=none,effort=1,horizon=20"
"""The search timed: effort 1, playouts cut at 20 steps."""


def _one_match(game: str, bot: str, players: int) -> int:
    match_seconds(game, bot, players)
    return 1


def benchmarks() -> list[Benchmark]:
    loop = partial(lacorsa_reference.races, PLAIN_LOOP_RACES)
    return [
        Benchmark("plain loop, 6-car races (before the matches)", "races", loop),
        *(
            Benchmark(
                f"ismcts effort 1, horizon 20 vs heuristic: {game}, {players} players",
                "match",
                partial(_one_match, game, EFFORT_BOT, players),
                per_unit=True,
            )
            for game in GAMES
            for players in tables(game)
        ),
        Benchmark("plain loop, 6-car races (after the matches)", "races", loop),
    ]
