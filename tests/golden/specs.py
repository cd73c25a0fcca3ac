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
    label: str = ""
    """Told apart from other matches of the same seats and seed (an option, a track)."""

    @property
    def path(self) -> Path:
        bots = "-".join(self.seats)
        label = f"-{self.label}" if self.label else ""
        return GOLDEN_DIR / f"{self.game}-{len(self.seats)}p-{bots}-seed{self.seed}{label}.jsonl"


OVAL_TRACK: dict[str, Any] = {
    "name": "Oval",
    "difficulty": 12,
    "sections": [
        {"kind": "white", "pit": True, "name": "Front straight"},
        {"kind": "grey"},
        {"kind": "white"},
        {"kind": "black", "name": "Hairpin"},
    ],
}
"""A user-made Famous 500 track, carried in the options so its logs replay anywhere."""


GOLDEN_MATCHES = (
    GoldenMatch(
        "lacorsa", ("heuristic", "random", "random", "random", "random", "random"), 1, {"races": 2}
    ),
    GoldenMatch("lacorsa", ("heuristic", "random"), 2, {"races": 1, "extra_suit": True}),
    GoldenMatch("lacorsa", ("random", "heuristic", "random"), 3, {"races": 1}),
    GoldenMatch("detroit-cleveland", ("heuristic", "random", "random"), 4, {"races": 1}),
    GoldenMatch("wacky-races", ("heuristic", "random", "random"), 3),
    GoldenMatch("famous-500", ("heuristic", "random"), 4),
    GoldenMatch("famous-500", ("heuristic", "heuristic"), 2),
    GoldenMatch(
        "famous-500",
        ("heuristic", "heuristic"),
        5,
        {"track": "oval.json", "track_data": OVAL_TRACK},
        label="oval",
    ),
    GoldenMatch("wacky-races", ("heuristic",), 1, {"special_tile": "swamp"}, label="swamp"),
    GoldenMatch(
        "wacky-races",
        ("heuristic", "random"),
        5,
        {"races": 2, "dastardly_after_neutrals": True},
        label="championship",
    ),
)
