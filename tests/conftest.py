"""Shared fixtures: the registry of built-in games and bots, loaded once."""

from __future__ import annotations

import pytest

from racedeck.plugins import Registry, load_registry


@pytest.fixture(scope="session")
def registry() -> Registry:
    return load_registry(entry_points=False)
