"""What a careless caller hands the environments and the Python API: refused where it comes
in, with one error naming it, never played into a log no reader takes; and what it keeps
stays what it was given."""

from __future__ import annotations

import numpy as np
import pytest

import racedeck
import racedeck.rl
from racedeck.core.errors import UsageError
from racedeck.tournament.script import run_tournament

ONE_RACE = {"races": 1}


@pytest.mark.parametrize("action", [1.99, np.float64(1.0), "1", b"1", True, np.bool_(True), None])
def test_an_action_that_is_not_an_integer_is_refused(action: object) -> None:
    """``int()`` took 1.99 as 1, "1" as 1 and True as 1: only an integer is an index."""
    env = racedeck.rl.gym_env("lacorsa", options=ONE_RACE)
    env.reset(seed=2)
    with pytest.raises(UsageError, match=r"must be an integer|None is only for a finished"):
        env.step(action)  # type: ignore[arg-type]


def test_a_numpy_integer_is_an_index_and_a_seed() -> None:
    env = racedeck.rl.env("lacorsa", options=ONE_RACE)
    env.reset(seed=np.int64(3))
    assert type(env.seed) is int and env.seed == 3
    mask = env.last()[4]["action_mask"]
    env.step(np.int64(int(np.flatnonzero(mask)[0])))


@pytest.mark.parametrize("seed", [3.0, 3.5, "7", True, float("nan")])
def test_a_seed_that_is_not_an_integer_is_refused_before_anything_is_played(seed: object) -> None:
    """3.0 seeded another match than 3 (streams are keyed by the seed's text), and a float
    in a log's header made a log no reader took."""
    with pytest.raises(UsageError, match="seed must be an integer"):
        racedeck.rl.env("lacorsa", options=ONE_RACE).reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="seed must be an integer"):
        racedeck.play("lacorsa", ["random", "random"], seed=seed, options=ONE_RACE)  # type: ignore[arg-type]


def test_one_bots_name_is_one_name_not_its_letters() -> None:
    env = racedeck.rl.gym_env("lacorsa", opponents="heuristic", options=ONE_RACE)
    assert env.env.players == 2
    with pytest.raises(UsageError, match="opponents must be a bot's name or a list"):
        racedeck.rl.gym_env("lacorsa", opponents=[None], options=ONE_RACE)  # type: ignore[list-item]
    with pytest.raises(UsageError, match="bots must be a bot's name or a list"):
        run_tournament("lacorsa", [None, "random"], options=ONE_RACE)  # type: ignore[list-item]


def test_a_tournament_argument_of_the_wrong_type_writes_no_database(tmp_path: object) -> None:
    """``seed=1.5`` stored a plan no later run could read: the database was lost for good."""
    from pathlib import Path

    db = Path(str(tmp_path)) / "t.sqlite"
    for bad in ({"seed": 1.5}, {"matches": 2.5}, {"players": 2.0}, {"workers": "2"}):
        with pytest.raises(UsageError, match="must be an integer"):
            run_tournament("lacorsa", ["random", "heuristic"], db=db, options=ONE_RACE, **bad)  # type: ignore[arg-type]
        assert not db.exists()


def test_stepping_before_reset_or_after_the_end_says_so() -> None:
    aec = racedeck.rl.env("lacorsa", options=ONE_RACE)
    with pytest.raises(UsageError, match="must be reset before it is stepped"):
        aec.step(0)
    with pytest.raises(UsageError, match="must be reset before it is observed"):
        aec.observe("seat_0")
    gym = racedeck.rl.gym_env("lacorsa", options=ONE_RACE)
    with pytest.raises(UsageError, match="must be reset before it is stepped"):
        gym.step(0)
    gym.reset(seed=1)
    done = False
    while not done:
        mask = gym.env.infos[gym.agent]["action_mask"]
        done = gym.step(int(np.flatnonzero(mask)[0]))[2]
    with pytest.raises(UsageError, match="the episode is over; reset"):
        gym.step(0)


def test_a_kept_info_shows_the_observation_it_was_given_with() -> None:
    """An info's observation is built when first read: one kept and read later (a replay
    buffer's) showed the state as it was then, even another episode's."""
    env = racedeck.rl.gym_env("lacorsa", options=ONE_RACE)
    _, first = env.reset(seed=2)
    seen = env.env.raw_observation(env.seat)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.env.infos[env.agent]["action_mask"])[0]))
    assert env.env.raw_observation(env.seat) != seen
    assert first["observation"] == seen
    _, before = env.reset(seed=10)
    was = env.env.raw_observation(env.seat)
    env.reset(seed=11)
    assert before["observation"] == was != env.env.raw_observation(env.seat)
    aec = racedeck.rl.env("lacorsa", options=ONE_RACE)
    aec.reset(seed=4)
    agent = aec.agent_selection
    info = aec.last()[4]
    then = aec.raw_observation(aec._seats[agent])
    aec.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["observation"] == then


def _finished(seed: int = 1) -> racedeck.rl.SingleSeatEnv:
    env = racedeck.rl.gym_env("lacorsa", options=ONE_RACE)
    env.reset(seed=seed)
    done = False
    while not done:
        done = env.step(int(np.flatnonzero(env.env.infos[env.agent]["action_mask"])[0]))[2]
    return env


def test_an_episode_log_under_a_file_is_a_clear_write_error(tmp_path: object) -> None:
    from pathlib import Path

    from racedeck.core.files import FileWriteError

    blocker = Path(str(tmp_path)) / "file"
    blocker.write_text("")
    with pytest.raises(FileWriteError, match="its folder"):
        _finished().write_log(blocker / "x.jsonl")


def test_rerun_says_it_cannot_ask_an_episodes_learner_again(tmp_path: object) -> None:
    """``--rerun`` replays the header's bots; an episode's outside seat was a learner, so it
    says so rather than call the log altered (``verify_episode`` is that log's re-run)."""
    from pathlib import Path

    from racedeck.core.errors import VerificationError
    from racedeck.core.verify import verify_log
    from racedeck.plugins import load_registry

    path = _finished().write_log(Path(str(tmp_path)) / "episode.jsonl")
    registry = load_registry(entry_points=False)
    assert verify_log(registry, path).whole
    with pytest.raises(VerificationError, match="an environment episode's log"):
        verify_log(registry, path, rerun=True)
    racedeck.rl.verify_episode(registry, path)
