"""The learned bot, end to end: a short training run, legal play, registration.

Run from the repository with ``pytest tests/rl/test_learned_bot.py`` (which collects
these) or, with the package installed, ``pytest plugins/racedeck-learned-bot/tests``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from racedeck_learned_bot import LearnedBot, default_weights
from racedeck_learned_bot.policy import Policy
from racedeck_learned_bot.train import train

from racedeck.core.bot import BotFault, BotSpec
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

PACKAGE = Path(__file__).resolve().parents[1]


def test_a_short_training_run_writes_weights_the_bot_plays_legally_with(tmp_path: Path) -> None:
    out = tmp_path / "weights.npz"
    trained = train(out, imitation=4, episodes=20, seed=3)
    again = Policy.load(out)
    assert np.array_equal(again.w, trained.w) and np.array_equal(again.b, trained.b)
    assert np.abs(trained.w).sum() > 0
    registry = load_registry(entry_points=False)
    game = registry.game("lacorsa")
    spec = BotSpec(name="learned", factory=lambda: LearnedBot(out), description="test")
    for seed, other in enumerate(["random", "heuristic"] * 3):
        outcome = run_match(
            game, game.parse_options({"races": 1}), [spec, registry.bot(other, "lacorsa")], seed
        )
        assert not outcome.faults, outcome.faults  # an illegal action would be a fault


def test_the_same_seed_trains_the_same_weights(tmp_path: Path) -> None:
    a = train(tmp_path / "a.npz", imitation=2, episodes=6, seed=5)
    b = train(tmp_path / "b.npz", imitation=2, episodes=6, seed=5)
    assert np.array_equal(a.w, b.w)


def test_the_shipped_weights_load_and_fit_two_seats() -> None:
    registry = load_registry(entry_points=False)
    game = registry.game("lacorsa")
    options = game.parse_options({"races": 1})
    spec = BotSpec(name="learned", factory=LearnedBot, description="shipped")
    outcome = run_match(game, options, [registry.bot("heuristic", "lacorsa"), spec], 9)
    assert not outcome.faults
    assert default_weights().is_file()
    three = run_match(game, options, [spec] * 3, 1)
    assert three.forfeit is not None and "trained for 2 players" in three.forfeit.reason
    with pytest.raises(BotFault):
        bot = LearnedBot()
        bot.bind_game(game)
        bot.start_match("lacorsa", 0, 3, options)


@pytest.mark.slow
def test_installed_it_registers_through_its_entry_point(tmp_path: Path) -> None:
    from tests.packaging import install_into

    env = install_into(PACKAGE, tmp_path / "site")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "racedeck",
            "play",
            "lacorsa",
            "--seat",
            "learned",
            "--seat",
            "random",
            "--option",
            "races=1",
            "--seed",
            "2",
            "--log",
            str(tmp_path / "m.jsonl"),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    verified = subprocess.run(
        [sys.executable, "-m", "racedeck", "replay", str(tmp_path / "m.jsonl"), "--verify"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert verified.returncode == 0, verified.stderr
