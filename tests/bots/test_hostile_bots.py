"""Whatever a bot does, it is its seat's fault, recorded in a log that replays: never the engine's."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from racedeck.core.bot import BotSpec
from racedeck.core.log import LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from racedeck.core.verify import verify_log
from racedeck.plugins import load_registry
from tests.bots.helpers import REGISTRY
from tools.fuzz.hostile import HOSTILE, NEEDS_LIMIT, PLAYS_ON, PLUGIN

GAMES = {"lacorsa": {"races": 1}, "wacky-races": {}, "detroit-cleveland": {}, "famous-500": {}}
IN_PROCESS = sorted(set(HOSTILE) - NEEDS_LIMIT - {"hostile-hard-exit", "hostile-thread"})


def _play(game_name: str, bot: str, time_limit: float | None = None) -> tuple[object, bytes]:
    game = REGISTRY.game(game_name)
    options = game.parse_options(GAMES[game_name])
    seats = [REGISTRY.bot("random", game_name)] * max(2, game.min_players)
    seats[1] = BotSpec(name=bot, factory=HOSTILE[bot], description="")
    buffer = io.BytesIO()
    outcome = run_match(game, options, seats, 5, writer=LogWriter(buffer), time_limit=time_limit)
    return outcome, buffer.getvalue()


@pytest.mark.parametrize("game_name", sorted(GAMES))
@pytest.mark.parametrize("bot", IN_PROCESS)
def test_a_hostile_bot_costs_its_own_seat_and_the_log_says_so(game_name: str, bot: str) -> None:
    outcome, log = _play(game_name, bot)
    replay = replay_log(REGISTRY, "m.jsonl", stream=io.BytesIO(log))
    assert replay.complete, replay.error
    if bot in PLAYS_ON:
        assert outcome.forfeit is None  # type: ignore[attr-defined]
    else:
        assert outcome.forfeit is not None and outcome.forfeit.seat == 1  # type: ignore[attr-defined]
        assert replay.faults[0].seat == 1


@pytest.mark.parametrize("game_name", ["wacky-races", "detroit-cleveland"])
@pytest.mark.parametrize("bot", ["hostile-mutator", "hostile-equals-all", "hostile-forger"])
def test_a_cheat_never_reaches_the_log_as_a_legal_move(
    game_name: str, bot: str, tmp_path: Path
) -> None:
    outcome, log = _play(game_name, bot)
    path = tmp_path / "m.jsonl"
    path.write_bytes(log)
    if bot == "hostile-mutator":
        (tmp_path / "hostile_bots.py").write_text(PLUGIN)
        # Re-running reproduces it: every move it made was one the engine offered.
        verify_log(load_registry(tmp_path, entry_points=False), path, rerun=True)
    else:
        assert outcome.forfeit is not None  # type: ignore[attr-defined]
        assert "illegal action" in outcome.forfeit.reason  # type: ignore[attr-defined]
