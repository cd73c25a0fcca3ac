"""Each game's rules live in modules named after their rulebook sections, tested by name.

``docs/architecture.md``: "Each game's rules are split into modules named after its
rulebook's headings ... The tests of a section live in tests/games/<game>/test_<section>.py."
A module of a game's package that is not plumbing (its actions, events, state, options,
names, pictures and their drawings, rendering, registration, sampling, bots and what they
read, the evaluation searches judge positions by, data) is a rule section, and a
reader finds its tests beside it by the same name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import racedeck.games

PLUMBING = frozenset(
    {
        "__init__",
        "actions",
        "bots",
        "data",
        "drawing",
        "evaluation",
        "events",
        "hands",
        "heuristic_bids",
        "heuristic_scoring",
        "heuristic_tables",
        "names",
        "options",
        "picture",
        "plugin",
        "race_setup",
        "render",
        "sampling",
        "state",
        "track",
        "tuples",
    }
)
"""Modules that hold a game's types, data and wiring rather than a rule of its rulebook."""

GAMES = Path(racedeck.games.__file__).parent
TESTS = Path(__file__).parent
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "rules.py").is_file())


def test_every_built_in_game_is_checked() -> None:
    """The four games' packages are found (a renamed folder must not pass by being missed)."""
    assert PACKAGES == ["detroit_cleveland", "famous500", "lacorsa", "wacky_races"]


@pytest.mark.parametrize("package", PACKAGES)
def test_each_rule_section_has_its_tests_by_the_same_name(package: str) -> None:
    """Every rule module of a game has ``tests/games/<game>/test_<module>.py``."""
    sections = sorted(
        m.stem for m in (GAMES / package).glob("*.py") if m.stem not in PLUMBING | {"rules"}
    )
    assert len(sections) >= 5, "a game's rules are split into its rulebook's sections"
    missing = [s for s in sections if not (TESTS / package / f"test_{s}.py").is_file()]
    assert missing == [], f"{package}: rule modules without a test of the same name"


@pytest.mark.parametrize("package", PACKAGES)
def test_rules_is_a_short_table_of_contents(package: str) -> None:
    """``rules.py`` wires the sections; the rules themselves live in them (a few hundred lines)."""
    lines = (GAMES / package / "rules.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 500
