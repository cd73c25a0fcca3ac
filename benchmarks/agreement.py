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

from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.core.model import ENGINE, Action, Observation
from racedeck.core.rng import engine_stream
from racedeck.core.step import NO_CHANCE, resolve
from racedeck.plugins import load_registry


def _search(
    game_name: str,
    game: object,
    sims: int,
    *,
    seat: int,
    players: int,
    options: object,
    observation: Observation,
    legal: Sequence[Action],
    seed: int,
) -> Action:
    """Return what an ISMCTS of ``sims`` simulations chooses, with its own seed."""
    bot = Ismcts(Budget(simulations=sims, rollout="heuristic"))
    bot.bind_game(game)  # type: ignore[arg-type]
    bot.start_match(game_name, seat, players, options)  # type: ignore[arg-type]
    return bot.act(observation, legal, random.Random(seed))


def agreement(
    game_name: str, players: int, seeds: int, small: int, large: int, options: dict[str, object]
) -> collections.Counter[tuple[str, str]]:
    """Return the counts per action kind: decisions, and each pair's equal choices."""
    registry = load_registry(entry_points=False)
    game = registry.game(game_name)
    parsed = game.parse_options(options)
    heuristic = registry.bot("heuristic", game_name)
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    for seed in range(1, seeds + 1):
        state = game.initial_state(parsed, players)
        bots = [heuristic.factory() for _ in range(players)]
        for seat, bot in enumerate(bots):
            bot.start_match(game_name, seat, players, parsed)
        events = decisions = 0
        while not (step := game.next_step(state)).over:
            if step.engine:
                turn = resolve(game, state, ENGINE, None, engine_stream(seed, events))
            else:
                seat = step.seats[0]
                legal = game.legal_actions(state, seat)
                observation = game.observe(state, seat)
                choice = bots[seat].act(observation, legal, random.Random(seed * 100 + decisions))
                if len(legal) > 1:
                    search = functools.partial(
                        _search,
                        game_name,
                        game,
                        seat=seat,
                        players=players,
                        options=parsed,
                        observation=observation,
                        legal=legal,
                    )
                    base = seed * 1000 + decisions
                    first, again = search(small, seed=base + 1), search(small, seed=base + 2)
                    more = search(large, seed=base + 1)
                    kind = type(legal[0]).__name__
                    counts[kind, "decisions"] += 1
                    counts[kind, f"{small} = {small} (another seed)"] += first == again
                    counts[kind, f"{small} = {large}"] += first == more
                    counts[kind, f"{small} = heuristic"] += first == choice
                    counts[kind, f"{large} = heuristic"] += more == choice
                decisions += 1
                turn = resolve(game, state, seat, choice, NO_CHANCE)
            state = turn.state
            events += len(turn.events)
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
    options: dict[str, object] = {}
    for item in args.option:
        key, _, value = item.partition("=")
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
