"""Shared helpers of the tournament tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from racedeck.cli.app import main

PLUGINS = Path(__file__).parent / "plugins"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def rows(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT * FROM matches ORDER BY idx").fetchall()


def rows_or_none(db: Path) -> list[tuple[object, ...]] | None:
    """The rows of a database another process is still creating, or None."""
    if not db.exists():
        return None
    try:
        return rows(db)
    except sqlite3.Error:
        return None
