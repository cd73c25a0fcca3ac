"""Writing an output file whole or not at all: a temporary name, then a rename."""

from __future__ import annotations

import os
from pathlib import Path

from racedeck.core.errors import RacedeckError


def write_whole(path: str | Path, payload: bytes) -> Path:
    """Write ``payload`` to ``path`` through a temporary name, so no half file is left."""
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    try:
        partial.write_bytes(payload)
        os.replace(partial, target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise RacedeckError(f"cannot write {target}: {exc.strerror}") from None
    return target
