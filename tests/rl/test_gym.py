"""The Gymnasium single-seat view: one seat learns, racedeck bots play the others."""

from __future__ import annotations

import random
from pathlib import Path

import gymnasium
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
    # As built, with nothing chosen for the checker: it samples the whole action space.
    checked = rl.gym_env(game, opponents=opponents, options=options, seat=1, catalogue=REGISTRY)
    check_env(checked)
    check_env(rl.gym_env(game, opponents=opponents, options=options, render_mode="ansi"))
    made = gymnasium.make(f"racedeck/{game}-v0", opponents=opponents, options=options, seat=1)
    check_env(made.unwrapped)
    assert made.spec is not None and made.spec.id == f"racedeck/{game}-v0"
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


def test_an_illegal_index_loses_by_default_or_raises() -> None:
    env = rl.gym_env("lacorsa", opponents=["random"], options={"races": 1}, illegal="raise")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    losing = rl.gym_env("lacorsa", opponents=["random"], options={"races": 1})
    assert losing.illegal == "lose"
    obs, _ = losing.reset(seed=0)
    _, reward, done, _, _ = losing.step(illegal)
    assert (reward, done) == (-1.0, True)
    with pytest.raises(UsageError, match="reset"):
        losing.step(0)


def test_every_built_in_game_is_registered_for_gymnasium_make() -> None:
    assert set(rl.BUILT_IN_GAMES) <= set(REGISTRY.games)
    assert tuple(f"racedeck/{game}-v0" for game in rl.BUILT_IN_GAMES) == rl.GYM_IDS
    assert all(name in gymnasium.registry for name in rl.GYM_IDS)
    env = gymnasium.make("racedeck/famous-500-v0", opponents=["heuristic"], render_mode="ansi")
    obs, _ = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    assert isinstance(env.render(), str) and env.render()
    # Without an import of one's own, gymnasium imports the module the id names.
    assert (
        gymnasium.make("racedeck.rl:racedeck/wacky-races-v0").spec.id == "racedeck/wacky-races-v0"
    )


def test_there_is_no_rgb_array_mode_and_the_reason_is_documented() -> None:
    assert rl.SingleSeatEnv.metadata["render_modes"] == ["ansi"]
    assert "There is no ``rgb_array``" in (rl.gym.__doc__ or "")
    assert "no `rgb_array`" in (Path(__file__).parents[2] / "docs" / "rl.md").read_text()
