"""The Gymnasium single-seat view: one seat learns, racedeck bots play the others."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import racedeck.rl as rl
from racedeck.core.errors import IllegalActionError, UsageError
from racedeck.core.verify import verify_log
from tests.rl.helpers import REGISTRY


def _episode(env: rl.SingleSeatEnv, seed: int) -> tuple[list[int], float, list[object]]:
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    taken, total, done = [], 0.0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        taken.append(action)
        obs, reward, done, truncated, _ = env.step(action)
        assert not truncated
        total += reward
    return taken, total, list(env.env.events)


@pytest.mark.parametrize(
    ("game", "opponents", "options"),
    [
        ("lacorsa", ["heuristic", "random"], {"races": 1}),
        ("detroit-cleveland", ["heuristic"], {"races": 1}),
        ("famous-500", ["heuristic"], {}),
        ("wacky-races", ["random", "heuristic"], {}),
    ],
)
def test_gymnasium_checks_pass_and_episodes_repeat(
    game: str, opponents: list[str], options: dict[str, object], tmp_path: Path
) -> None:
    checked = rl.gym_env(
        game, opponents=opponents, options=options, seat=1, catalogue=REGISTRY, illegal="lose"
    )
    check_env(checked, skip_render_check=True)
    env = rl.gym_env(game, opponents=opponents, options=options, seat=1, catalogue=REGISTRY)
    first = _episode(env, seed=3)
    assert first == _episode(env, seed=3)
    assert first[1] in (-1.0, 0.0, 1.0)
    path = env.write_log(tmp_path / "episode.jsonl")
    replay = verify_log(REGISTRY, path).replay
    names = [seat.bot for seat in replay.header.seats]
    assert names[1] == "random"
    assert names[0] == opponents[0]
    rl.verify_episode(REGISTRY, path)


def test_the_learning_seat_decides_only_on_its_own_turns() -> None:
    env = rl.gym_env("lacorsa", opponents=["heuristic"], players=3, options={"races": 1})
    obs, info = env.reset(seed=1)
    rng = random.Random(1)
    done = False
    while not done:
        assert env.env.deciding == 0
        assert info["legal"]
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, done, _, info = env.step(int(legal[rng.randrange(len(legal))]))
    assert env.env.over


def test_opponents_must_match_the_seats() -> None:
    with pytest.raises(UsageError, match="need 2 opponents"):
        rl.gym_env("lacorsa", opponents=["random", "random", "random"], players=3)
    with pytest.raises(UsageError, match="seat 4 does not exist"):
        rl.gym_env("lacorsa", opponents=["random"], seat=4)


def test_an_illegal_index_raises_or_loses() -> None:
    env = rl.gym_env("lacorsa", opponents=["random"], options={"races": 1})
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    losing = rl.gym_env("lacorsa", opponents=["random"], options={"races": 1}, illegal="lose")
    obs, _ = losing.reset(seed=0)
    _, reward, done, _, _ = losing.step(illegal)
    assert (reward, done) == (-1.0, True)
    with pytest.raises(UsageError, match="reset"):
        losing.step(0)
