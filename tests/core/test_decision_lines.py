"""A decision line must be exactly what the writer writes, even when its hash is re-chained.

Log format 3, "the decision is a line": the reader rebuilds each turn line from its parts
and refuses one that differs, so a line that says the same thing in other bytes (a space
between two events) is named as altered, not read as if the engine had written it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from racedeck.core.errors import LogError
from racedeck.core.hashing import chain, header_hash
from racedeck.core.log import TURN_PREFIX, LogReader, LogWriter
from racedeck.core.runner import run_match
from racedeck.core.verify import verify_log
from racedeck.plugins import Registry

_HASH_FIELD = b'"hash":"'


def _played(registry: Registry, path: Path) -> list[bytes]:
    game = registry.game("lacorsa")
    seats = [registry.bot("random", "lacorsa")] * 2
    with open(path, "wb") as handle:
        run_match(game, game.parse_options({"races": 1}), seats, 3, writer=LogWriter(handle))
    return path.read_bytes().splitlines()


def _rechained(lines: list[bytes]) -> bytes:
    """Chain every turn line's hash again over its body, as a forger would."""
    last = header_hash(lines[0])
    out = [lines[0]]
    for raw in lines[1:]:
        if raw.startswith(b'{"kind":"turn"'):
            start = raw.index(_HASH_FIELD) + len(_HASH_FIELD)
            after = len(b'{"kind":"turn","seq":')
            seq = int(raw[after : raw.index(b",", after)])
            body = raw[start + 34 :]
            last = chain(last, body)
            raw = TURN_PREFIX % (seq, last.encode()) + body
        out.append(raw)
    return b"\n".join(out) + b"\n"


def test_a_rechained_line_with_a_space_between_its_events_is_refused(
    registry: Registry, tmp_path: Path
) -> None:
    path = tmp_path / "match.jsonl"
    lines = _played(registry, path)
    at = next(
        n for n, raw in enumerate(lines) if raw.startswith(b'{"kind":"turn"') and b"},{" in raw
    )
    lines[at] = lines[at].replace(b"},{", b"}, {", 1)
    path.write_bytes(_rechained(lines))
    with (
        LogReader(path) as reader,
        pytest.raises(LogError, match="not in canonical form") as caught,
    ):
        for _entry in reader:
            pass
    assert caught.value.line == at + 1
    with pytest.raises(LogError, match="not in canonical form"):
        verify_log(registry, path)


def test_the_same_lines_rechained_unaltered_verify(registry: Registry, tmp_path: Path) -> None:
    """The forger's re-chaining itself is faithful: untouched, the log still verifies."""
    path = tmp_path / "match.jsonl"
    lines = _played(registry, path)
    path.write_bytes(_rechained(lines))
    assert verify_log(registry, path).whole
