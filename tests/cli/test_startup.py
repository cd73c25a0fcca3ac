"""The command line starts light: its help loads none of the engine or its heavy libraries."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

HEAVY = (
    "structlog",
    "rich",
    "pydantic",
    "msgspec",
    "pluggy",
    "openskill",
    "racedeck.plugins",
    "racedeck.core.log",
    "racedeck.tournament",
    "racedeck.bots",
)
"""What ``racedeck --help`` must not import: each is loaded by the command that uses it."""


def imported_by(*args: str) -> set[str]:
    """Return the modules a run of the command line with ``args`` imports."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "racedeck", *args],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return {
        line.rsplit("|", 1)[1].strip()
        for line in run.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


@pytest.mark.parametrize("args", [["--help"], ["tournament", "--help"], ["gate", "--help"]])
def test_help_imports_nothing_heavy(args: list[str]) -> None:
    modules = imported_by(*args)
    assert "racedeck.cli.app" in modules
    loaded = sorted(
        m for m in modules for heavy in HEAVY if m == heavy or m.startswith(heavy + ".")
    )
    assert loaded == []


def test_check_time_limit_is_the_program_bots_own() -> None:
    from racedeck.bots.subprocess_bot import DEFAULT_TIME_LIMIT
    from racedeck.cli.authoring import CHECK_TIME_LIMIT

    assert CHECK_TIME_LIMIT == DEFAULT_TIME_LIMIT
