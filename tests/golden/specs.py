"""The golden matches: one or more per game, replayed and verified on every test run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GOLDEN_DIR = Path(__file__).parent


@dataclass(frozen=True)
class GoldenMatch:
    """A match whose log is kept in ``tests/golden/`` as a regression reference."""

    game: str
    seats: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        bots = "-".join(self.seats)
        return GOLDEN_DIR / f"{self.game}-{len(self.seats)}p-{bots}-seed{self.seed}.jsonl"


GOLDEN_MATCHES = (
    GoldenMatch(
        "lacorsa", ("heuristic", "random", "random", "random", "random", "random"), 1, {"races": 2}
    ),
    GoldenMatch("lacorsa", ("heuristic", "random"), 2, {"races": 1, "extra_suit": True}),
    GoldenMatch("lacorsa", ("random", "heuristic", "random"), 3, {"races": 1}),
    GoldenMatch("detroit-cleveland", ("heuristic", "random", "random"), 4, {"races": 1}),
    GoldenMatch("wacky-races", ("heuristic", "random", "random"), 3),
    GoldenMatch("famous-500", ("heuristic", "random"), 4),
)
