"""A bot that raises or plays an illegal action never stops the engine."""

from __future__ import annotations

import io
from collections.abc import Sequence

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.log import LogWriter
from racedeck.core.model import Action, Observation
from racedeck.core.replay import replay_log
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.plugins import Registry


class Crasher(Bot):
    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        raise ZeroDivisionError("oops")


class Cheater(Bot):
    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        return observation  # type: ignore[return-value]


def _play(registry: Registry, bad: BotSpec, policy: str) -> tuple[object, bytes]:
    game = registry.game("lacorsa")
    buffer = io.BytesIO()
    outcome = run_match(
        game,
        game.parse_options({"races": 1}),
        [registry.bot("random", "lacorsa"), bad, registry.bot("random", "lacorsa")],
        4,
        writer=LogWriter(buffer),
        fault_policy=policy,
    )
    return outcome, buffer.getvalue()


def test_a_crash_forfeits_the_match_and_is_recorded(registry: Registry) -> None:
    outcome, log = _play(
        registry, BotSpec(name="crasher", factory=Crasher, description=""), "forfeit"
    )
    assert outcome.forfeit is not None and outcome.forfeit.seat == 1  # type: ignore[attr-defined]
    assert "ZeroDivisionError: oops" in outcome.forfeit.reason  # type: ignore[attr-defined]
    assert outcome.result.ranks == (1, 3, 1)  # type: ignore[attr-defined]
    assert b'"kind":"fault"' in log and b'"forfeit":{"seat":1' in log
    replay = replay_log(registry, "m.jsonl", stream=io.BytesIO(log))
    assert replay.complete and replay.faults[0].seat == 1


def test_an_illegal_action_is_substituted_under_that_policy(registry: Registry) -> None:
    outcome, log = _play(
        registry, BotSpec(name="cheater", factory=Cheater, description=""), "substitute"
    )
    assert outcome.forfeit is None  # type: ignore[attr-defined]
    assert outcome.faults and all("illegal action" in f.reason for f in outcome.faults)  # type: ignore[attr-defined]
    replay = replay_log(registry, "m.jsonl", stream=io.BytesIO(log))
    assert replay.complete
    assert len(replay.faults) == len(outcome.faults)  # type: ignore[attr-defined]
