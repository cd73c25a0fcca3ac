"""Golden Wacky Races logs: old logs stay readable, replay to their result and re-run alike.

Rewrite them on purpose (after a deliberate rules or format change) with
``python -m tests.games.wacky_races.test_golden``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from racedeck.core.replay import replay_log, verify_log
from racedeck.core.session import plan_match, play_to_log
from racedeck.plugins import Registry, load_registry

GOLDEN = Path(__file__).parent / "golden"
MATCHES: tuple[tuple[str, tuple[str, ...], int, dict[str, Any]], ...] = (
    ("heuristic-random-random-seed3", ("heuristic", "random", "random"), 3, {}),
    ("solo-heuristic-swamp-seed1", ("heuristic",), 1, {"special_tile": "swamp"}),
    (
        "championship-2-races-seed5",
        ("heuristic", "random"),
        5,
        {"races": 2, "dastardly_after_neutrals": True},
    ),
)


@pytest.mark.parametrize("match", MATCHES, ids=lambda m: m[0])
def test_golden_log_replays_and_verifies(registry: Registry, match: Any) -> None:
    name, seats, _seed, _options = match
    path = GOLDEN / f"{name}.jsonl"
    assert path.exists(), f"missing {path.name}: python -m tests.games.wacky_races.test_golden"
    replay = replay_log(registry, path)
    assert replay.complete, replay.error
    assert replay.header.game == "wacky-races"
    assert [s.bot for s in replay.header.seats] == list(seats)
    assert replay.state.phase == "over"
    verify_log(registry, path)


def regenerate() -> None:
    """Rewrite every golden log."""
    registry = load_registry(entry_points=False)
    GOLDEN.mkdir(exist_ok=True)
    for name, seats, seed, options in MATCHES:
        plan = plan_match(registry, "wacky-races", list(seats), seed, options)
        path = GOLDEN / f"{name}.jsonl"
        play_to_log(plan, path)
        print(f"wrote {path}")


if __name__ == "__main__":
    regenerate()
