"""Search bots: seconds a match against the heuristic, beside the plain loop's races a second.

For every game at two players and at its largest table, one match (``benchmarks.match_cost``)
of the registered ``ismcts`` in seat 0 against the heuristic, and the same of
``EFFORT_BOT``, timed between two runs of the plain LACORSA loop in the same run: the loop
says how fast the machine was.

Where a game registers its own budgets (``GAME_BUDGETS``: Famous 500's budgets of effort,
LACORSA's and Wacky Races' searches guided by their learned policies, Detroit-Cleveland's
search of the cards alone), each variant's match with its own budget is timed beside the
same match with the general budget, the parameters that set it back: matches a second,
own over general. A tenth of the time (10 or more) is the target; Famous 500's ``ismcts``
takes a quarter and Detroit-Cleveland's a fifth, the cheapest budgets the gates found as
strong (``docs/bots.md``). Detroit-Cleveland's general searches take from ten seconds to
minutes of a core a match, so its pairs are timed once (``ONCE``), with no warm-up.
"""

from __future__ import annotations

from functools import partial

from benchmarks import lacorsa_reference
from benchmarks.harness import Benchmark, Ratio
from benchmarks.match_cost import GAMES, match_seconds, tables
from racedeck.bots.plugin import GAME_BUDGETS, ISMCTS_BUDGETS

PLAIN_LOOP_RACES = 300
EFFORT_BOT = "ismcts:simulations=none,effort=1,horizon=20"
"""The cheaper search timed beside the registered one: effort 1, playouts cut at 20 steps."""
ONCE = frozenset({"detroit-cleveland"})
"""The games whose matches with the general searches are timed once: minutes of a core."""


def _one_match(game: str, bot: str, players: int) -> int:
    match_seconds(game, bot, players)
    return 1


def general(name: str, game: str) -> str:
    """Return how a user seats variant ``name`` with the general budget in ``game``."""
    own, _ = GAME_BUDGETS[game][name]
    usual, _ = ISMCTS_BUDGETS[name]
    changed = [
        f"{field}={'none' if value is None else value}"
        for field, value in vars(usual).items()
        if value != getattr(own, field)
    ]
    return f"{name}:{','.join(changed)}"


def own_budgets() -> list[Ratio]:
    """Each game's own budget against the general one: two players, the same match."""
    return [
        Ratio(
            f"{game}: {name} matches a second, its own budget / the general one",
            Benchmark("own", "match", partial(_one_match, game, name, 2)),
            Benchmark(
                "general",
                "match",
                partial(_one_match, game, general(name, game), 2),
                repeats=1 if game in ONCE else None,
            ),
            10.0,
        )
        for game, budgets in GAME_BUDGETS.items()
        for name in budgets
    ]


def benchmarks() -> list[Benchmark | Ratio]:
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
        *(
            Benchmark(
                f"ismcts (registered) vs heuristic: {game}, {players} players",
                "match",
                partial(_one_match, game, "ismcts", players),
                per_unit=True,
            )
            for game in GAMES
            for players in tables(game)
        ),
        Benchmark("plain loop, 6-car races (after the matches)", "races", loop),
        *own_budgets(),
    ]
