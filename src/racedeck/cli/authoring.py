"""Commands of the authoring group; `register` adds them to the racedeck app."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
