"""Train the learned bot's policy: ``python -m racedeck_learned_bot.train``.

Two phases, numpy only, in the Gymnasium view of ``racedeck.rl`` (two seats, one-race
LACORSA, the learner in seat 0 or 1 at random):

1. Imitation: the heuristic bot plays the learner's seat and the policy learns to choose
   as it does (softmax regression over the legal indexes).
2. Policy gradient (REINFORCE with a running baseline): the policy plays, sampling from
   its softmax, against the random and the heuristic bot in turn; the reward is the
   environment's rank reward (1 for a win, -1 for a loss).

Everything is seeded, so the same arguments write the same weights.
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

import racedeck.rl
from racedeck.core.rng import bot_stream
from racedeck.plugins import Registry, load_registry
from racedeck_learned_bot import GAME, PLAYERS, default_weights
from racedeck_learned_bot.policy import Array, Policy

OPTIONS: dict[str, Any] = {"races": 1}
OPPONENTS = ("random", "heuristic")


@functools.cache
def _registry() -> Registry:
    return load_registry(entry_points=False)


def _env(opponent: str, seat: int, seed: int) -> racedeck.rl.SingleSeatEnv:
    return racedeck.rl.gym_env(
        GAME,
        seat=seat,
        opponents=[opponent] * (PLAYERS - 1),
        players=PLAYERS,
        options=OPTIONS,
        seed=seed,
        catalogue=_registry(),
    )


def imitate(policy: Policy, episodes: int, seed: int, epochs: int = 30, rate: float = 0.5) -> float:
    """Teach ``policy`` the heuristic bot's choices; return the share it then agrees with."""
    registry = _registry()
    samples: list[tuple[Array, np.ndarray, int]] = []
    for episode in range(episodes):
        seat = episode % PLAYERS
        env = _env(OPPONENTS[episode % 2], seat, seed)
        teacher = registry.bot("heuristic", GAME).factory()
        aec = env.env
        teacher.bind_game(aec.game)
        teacher.start_match(GAME, seat, PLAYERS, aec.options)
        rng = bot_stream(seed + episode, seat)
        observation, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            chosen = teacher.act(info["observation"], info["legal"], rng)
            (index,) = aec.encoder.path(chosen)
            samples.append((observation["observation"], legal, index))
            observation, _, done, _, info = env.step(index)
    for _ in range(epochs):
        random.Random(seed).shuffle(samples)
        for x, legal, index in samples:
            p = policy.probabilities(x, legal)
            target = (legal == index).astype(np.float32)
            grad = target - p
            policy.w[:, legal] += rate / 10 * np.outer(x, grad)
            policy.b[legal] += rate / 10 * grad
    agree = sum(policy.best(x, legal) == index for x, legal, index in samples)
    return agree / max(1, len(samples))


def reinforce(
    policy: Policy, episodes: int, seed: int, rate: float = 0.01, seconds: float | None = None
) -> list[float]:
    """Improve ``policy`` by policy gradient; return the reward of every episode played."""
    rng = np.random.default_rng(seed)
    baseline = {name: 0.0 for name in OPPONENTS}
    rewards: list[float] = []
    envs = {(name, seat): _env(name, seat, seed) for name in OPPONENTS for seat in range(PLAYERS)}
    start = time.monotonic()
    for episode in range(episodes):
        if seconds is not None and time.monotonic() - start > seconds:
            break
        name = OPPONENTS[episode % 2]
        env = envs[name, (episode // 2) % PLAYERS]
        observation, _ = env.reset(seed=seed + 1_000_000 + episode)
        steps: list[tuple[Array, np.ndarray, int, Array]] = []
        done, reward = False, 0.0
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            x = observation["observation"]
            p = policy.probabilities(x, legal)
            pick = int(rng.choice(len(legal), p=p))
            steps.append((x, legal, pick, p))
            observation, reward, done, _, _ = env.step(int(legal[pick]))
        advantage = reward - baseline[name]
        baseline[name] += 0.05 * (reward - baseline[name])
        for x, legal, pick, p in steps:
            grad = -p
            grad[pick] += 1.0
            policy.w[:, legal] += rate * advantage * np.outer(x, grad)
            policy.b[legal] += rate * advantage * grad
        rewards.append(reward)
    return rewards


def train(
    out: str | Path,
    *,
    imitation: int = 300,
    episodes: int = 20_000,
    seconds: float | None = None,
    seed: int = 1,
) -> Policy:
    """Train a policy from scratch and save it to ``out``."""
    env = _env("random", 0, seed)
    encoder = env.env.encoder
    policy = Policy.zeros(encoder.size, encoder.actions)
    agree = imitate(policy, imitation, seed)
    print(f"imitation: agrees with the heuristic bot on {agree:.0%} of its decisions")
    rewards = reinforce(policy, episodes, seed, seconds=seconds)
    tail = rewards[-1000:]
    print(
        f"policy gradient: {len(rewards)} episodes, mean reward of the last "
        f"{len(tail)}: {sum(tail) / max(1, len(tail)):+.3f}"
    )
    policy.save(out)
    return policy


def main() -> None:
    """Train and write the weights (by default, the package's own ``weights.npz``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=default_weights())
    parser.add_argument("--imitation", type=int, default=300, help="episodes to imitate")
    parser.add_argument("--episodes", type=int, default=20_000, help="policy-gradient episodes")
    parser.add_argument("--seconds", type=float, default=None, help="stop policy gradient after")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    train(
        args.out,
        imitation=args.imitation,
        episodes=args.episodes,
        seconds=args.seconds,
        seed=args.seed,
    )


if __name__ == "__main__":
    main()
