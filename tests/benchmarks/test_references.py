"""The benchmarks' hand-written references do the work they stand for."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Sequence

import pytest

from benchmarks import agreement, lacorsa_reference, replay_floor
from racedeck.core.bot import Bot
from racedeck.core.log import LogWriter
from racedeck.core.model import Action, Observation
from racedeck.core.replay import replay_log
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

REGISTRY = load_registry(entry_points=False)


def _log(races: int, players: int, seed: int) -> bytes:
    game = REGISTRY.game("lacorsa")
    buffer = io.BytesIO()
    bots = [REGISTRY.bot("random", "lacorsa")] * players
    run_match(game, game.parse_options({"races": races}), bots, seed, writer=LogWriter(buffer))
    return buffer.getvalue()


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (6, 2)])
def test_the_replay_floor_folds_what_replay_folds(players: int, seed: int) -> None:
    """The floor checks the same chain and reaches the same state as a full replay."""
    game = REGISTRY.game("lacorsa")
    log = _log(3, players, seed)
    count, state = replay_floor.fold_log(game, log, game.parse_options({"races": 3}), players)
    replay = replay_log(REGISTRY, "floor.jsonl", stream=io.BytesIO(log))
    assert replay.complete
    assert (count, state) == (replay.events, replay.state)


def test_the_replay_floor_checks_every_hash() -> None:
    """An event edited without its hash breaks the floor's chain, as it breaks replay's."""
    game = REGISTRY.game("lacorsa")
    lines = _log(1, 2, 3).split(b"\n")
    lines[5] = lines[5].replace(b'"car":', b'"car": ', 1)  # same meaning, other bytes
    with pytest.raises(ValueError, match="hash chain breaks"):
        replay_floor.fold_log(game, b"\n".join(lines), game.parse_options({"races": 1}), 2)


def test_the_plain_loop_plays_whole_races() -> None:
    """The plain LACORSA loop deals every card and scores 9-6-4-3-2-1 by position."""
    for cars in (4, 6):
        points, decisions = lacorsa_reference.race(cars, random.Random(cars))
        assert sorted(points, reverse=True) == [9, 6, 4, 3, 2, 1][:cars]
        assert decisions >= cars  # every car qualifies, then the race plays on


def test_the_agreement_counts_are_the_heuristic_matches_choices_and_repeat() -> None:
    """``benchmarks.agreement`` looks without playing: the match is the heuristic's own.

    It counts exactly the seat decisions with a choice of a heuristic match on the same
    seed, no pair's count exceeds them, and a second run gives the same figures.
    """
    counts = agreement.agreement("famous-500", 2, 1, 4, 8, {})
    assert agreement.agreement("famous-500", 2, 1, 4, 8, {}) == counts
    game = REGISTRY.game("famous-500")
    heuristic = REGISTRY.bot("heuristic", "famous-500")
    choices: list[int] = []

    def counting() -> Bot:
        bot = heuristic.factory()
        act = bot.act

        def counted(observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
            choices.append(len(legal))
            return act(observation, legal, rng)

        bot.act = counted  # type: ignore[method-assign]
        return bot

    spec = dataclasses.replace(heuristic, factory=counting)
    run_match(game, game.parse_options({}), [spec] * 2, 1)
    with_choice = sum(1 for n in choices if n > 1)
    decisions = sum(n for (_kind, column), n in counts.items() if column == "decisions")
    assert decisions == with_choice > 0
    for (kind, column), n in counts.items():
        assert 0 <= n <= counts[kind, "decisions"], (kind, column)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--small", "200", "--large", "200"], "must differ"),
        (["--small", "0"], "at least 1"),
        (["-o", "laps=two"], "-o laps=two"),
    ],
)
def test_the_agreement_refuses_settings_it_would_miscount(
    args: list[str],
    named: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Equal budgets would be one search counted under one name twice (a share above 1)."""
    monkeypatch.setattr("sys.argv", ["agreement", "famous-500", *args])
    with pytest.raises(SystemExit) as stopped:
        agreement.main()
    assert stopped.value.code == 2
    assert named in capsys.readouterr().err.splitlines()[-1]
