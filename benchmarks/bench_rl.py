"""The RL environments: environment steps a second with random actions through the AEC
API, side by side with the engine's own decisions a second (random bots, no logs).

An AEC step is one index: a decision of a kind that takes two or three indexes (a
Detroit-Cleveland bid or move, a Famous 500 design) counts as that many steps, so for
those two games a second line compares the environment's decisions a second too. The
random agent reads the action mask and no observation, as the engine's random bot reads
none; it draws from a seeded ``random.Random`` like the bot.
"""

from __future__ import annotations

import random
from typing import Any

from benchmarks.harness import Benchmark, GameRuns, Ratio

GAMES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("lacorsa", {"races": 1}, 6, 60),
    ("detroit-cleveland", {"races": 1}, 6, 12),
    ("famous-500", {}, 2, 120),
    ("wacky-races", {}, 6, 30),
)


class EnvRuns:
    """Random episodes of one game through the AEC API, counting steps and decisions."""

    def __init__(self, game: str, options: dict[str, Any], players: int, episodes: int) -> None:
        import racedeck.rl

        self.env = racedeck.rl.env(game, players=players, options=options)
        self.episodes = episodes
        self.decisions = 0

    def steps(self) -> int:
        """Play the episodes with uniformly random legal indexes; return the steps taken."""
        env = self.env
        rng = random.Random(0)
        steps = decisions = 0
        for seed in range(self.episodes):
            env.reset(seed=seed)
            for _agent in env.agent_iter():
                _, _, terminated, truncated, info = env.last(observe=False)
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = info["action_mask"].nonzero()[0]
                before = len(env._decisions)
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
                decisions += len(env._decisions) - before
        self.decisions = decisions
        return steps

    def decision_count(self) -> int:
        """Play the episodes as ``steps`` does; return the decisions taken."""
        self.steps()
        return self.decisions


def benchmarks() -> list[Benchmark | Ratio]:
    out: list[Benchmark | Ratio] = []
    for game, options, players, episodes in GAMES:
        runs = GameRuns(game, options, players, episodes)
        env = EnvRuns(game, options, players, episodes)
        out.append(
            Ratio(
                f"{game}: AEC env steps / engine decisions, random",
                Benchmark(f"{game} env", "steps", env.steps),
                Benchmark(f"{game} engine", "decisions", runs.decisions),
                0.5,
            )
        )
        if env.env.encoder.stages > 1:
            out.append(
                Ratio(
                    f"{game}: AEC env decisions / engine decisions, random",
                    Benchmark(f"{game} env", "decisions", env.decision_count),
                    Benchmark(f"{game} engine", "decisions", runs.decisions),
                )
            )
    return out
