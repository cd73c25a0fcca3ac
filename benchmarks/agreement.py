"""How often two searches choose alike: the agreement behind a gate that splits most deals.

Heuristic matches are played from seeds 1 to N; at every seat decision with more than one
legal action, the named ISMCTS budgets search the same observation and their choices are
compared with each other and with the heuristic's, counted per kind of action. A budget
searched twice with two seeds gives the agreement that noise alone leaves, the yardstick
for the agreement of two budgets: when a larger budget agrees with a smaller one about as
often as the smaller one agrees with itself, the larger one changes little but the noise.

    PYTHONPATH=. python -m benchmarks.agreement famous-500 --players 2 --seeds 3

The figures are deterministic (every search has its own seeded stream).
"""

from __future__ import annotations

import argparse
import collections
import functools
import random
from collections.abc import Sequence
from typing import Any

from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

Counts = collections.Counter[tuple[str, str]]


class _Comparing(Bot):
    """Plays as the heuristic; at each choice, asks two searches too and counts agreements.

    The match is the heuristic's own (``racedeck play GAME -s heuristic ... --seed S``):
    the searches only look. Each search has a stream of its own, from the seed, the seat
    and the number of the decision.
    """

    def __init__(
        self,
        game: AnyGame,
        options: Options,
        heuristic: BotSpec,
        small: int,
        large: int,
        counts: Counts,
        seed: int,
    ) -> None:
        self.game, self.options, self.small, self.large = game, options, small, large
        self.counts, self.seed = counts, seed
        self.inner = heuristic.factory()
        self.seat = self.players = self.decisions = 0

    def bind_game(self, game: AnyGame) -> None:
        """Hand the game to the heuristic too."""
        self.inner.bind_game(game)

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Start the heuristic's match and remember the table for the searches."""
        self.inner.start_match(game, seat, players, options)
        self.seat, self.players = seat, players
        self.decisions = 0

    def _search(
        self, sims: int, observation: Observation, legal: Sequence[Action], stream: int
    ) -> Action:
        bot = Ismcts(Budget(simulations=sims, rollout="heuristic"))
        bot.bind_game(self.game)
        bot.start_match(self.game.name, self.seat, self.players, self.options)
        seed = ((self.seed * 8 + self.seat) * 1000 + self.decisions) * 2 + stream
        return bot.act(observation, legal, random.Random(seed))

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Play the heuristic's choice, after counting what the searches would play."""
        choice = self.inner.act(observation, legal, rng)
        if len(legal) > 1:
            small, large = self.small, self.large
            first = self._search(small, observation, legal, 0)
            again = self._search(small, observation, legal, 1)
            more = self._search(large, observation, legal, 0)
            kind = type(legal[0]).__name__
            self.counts[kind, "decisions"] += 1
            self.counts[kind, f"{small} = {small} (another seed)"] += first == again
            self.counts[kind, f"{small} = {large}"] += first == more
            self.counts[kind, f"{small} = heuristic"] += first == choice
            self.counts[kind, f"{large} = heuristic"] += more == choice
        self.decisions += 1
        return choice


def agreement(
    game_name: str, players: int, seeds: int, small: int, large: int, options: dict[str, Any]
) -> Counts:
    """Return the counts per action kind: decisions, and each pair's equal choices."""
    registry = load_registry(entry_points=False)
    game = registry.game(game_name)
    parsed = game.parse_options(options)
    heuristic = registry.bot("heuristic", game_name)
    counts: Counts = collections.Counter()
    for seed in range(1, seeds + 1):
        factory = functools.partial(_Comparing, game, parsed, heuristic, small, large, counts, seed)
        spec = BotSpec(name="heuristic", factory=factory, description="the heuristic, compared")
        run_match(game, parsed, [spec] * players, seed)
    return counts


def main() -> None:
    """Print the agreement table for the game named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=3, help="heuristic matches, seeds 1..N")
    parser.add_argument("--small", type=int, default=200, help="simulations of the first search")
    parser.add_argument("--large", type=int, default=1000, help="simulations of the second")
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=INT option")
    args = parser.parse_args()
    if min(args.small, args.large, args.seeds, args.players) < 1:
        parser.error("--small, --large, --seeds and --players must be at least 1")
    if args.small == args.large:
        # The two would be the same search, and their columns one name: the first
        # budget's second seed already compares a budget with itself.
        parser.error("--small and --large must differ (the small budget is searched twice)")
    options: dict[str, Any] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        if not value.lstrip("-").isdigit():
            parser.error(f"-o {item}: expected KEY=INT")
        options[key] = int(value)
    counts = agreement(args.game, args.players, args.seeds, args.small, args.large, options)
    columns = sorted({column for _kind, column in counts if column != "decisions"})
    kinds = sorted({kind for kind, _column in counts})
    print("kind | decisions | " + " | ".join(columns))
    for kind in [*kinds, "all"]:
        chosen = kinds if kind == "all" else [kind]
        total = sum(counts[k, "decisions"] for k in chosen)
        same = [sum(counts[k, column] for k in chosen) for column in columns]
        cells = [f"{n} ({n / total:.2f})" for n in same]
        print(f"{kind} | {total} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
