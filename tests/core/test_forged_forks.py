"""A fork's log vouches for its copied part only through its parent; its header must hold.

The copied prefix is taken as recorded, so a header that makes more of it than a fork can
(a fork point inside a decision, or past the log's end), forced plays no match could have
(a seat not to act, one forced twice), or a copy with a note its parent never had, would
each let an edited log be called verified. Each is refused, naming the line.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from racedeck.cli.app import main
from racedeck.core.errors import LogError, VerificationError
from racedeck.core.log import ForcedPlay, ForkOrigin, Header, encode
from racedeck.core.log_lines import NOTE_LINE, DebugNote
from racedeck.core.verify import verify_log
from racedeck.plugins import Registry
from tests.core.test_line_forms import _rechained


def _log(tmp_path: Path, game: str = "wacky-races") -> Path:
    path = tmp_path / f"{game}.jsonl"
    args = ["play", game, "--seat", "heuristic", "--seat", "random", "--seed", "3"]
    assert main([*args, "--log", str(path)]) == 0
    return path


def _with_fork(path: Path, fork: ForkOrigin) -> Path:
    lines = path.read_bytes().splitlines()
    header = msgspec.json.decode(lines[0], type=Header)
    lines[0] = encode(msgspec.structs.replace(header, fork=fork))
    forged = path.with_name("forged.jsonl")
    forged.write_bytes(_rechained(lines))
    return forged


def _decisions(path: Path) -> list[tuple[int, int]]:
    """Each decision's first event and how many events it holds."""
    found = []
    for raw in path.read_bytes().splitlines()[1:]:
        line = msgspec.json.decode(raw)
        if line["kind"] == "turn":
            found.append((line["seq"], len(line["events"])))
    return found


def test_a_fork_point_inside_a_decision_is_refused(registry: Registry, tmp_path: Path) -> None:
    """The copy ends where a decision ends: one ending inside took the whole decision as
    recorded, so its later events, seen by neither the parent nor the seed, were verified."""
    path = _log(tmp_path)
    seq, _count = next(d for d in _decisions(path) if d[1] > 2)
    forged = _with_fork(path, ForkOrigin(parent_hash="0" * 32, at=seq))
    with pytest.raises(LogError, match="falls inside this decision"):
        verify_log(registry, forged)


def test_a_fork_point_past_the_logs_end_is_refused(registry: Registry, tmp_path: Path) -> None:
    path = _log(tmp_path)
    forged = _with_fork(path, ForkOrigin(parent_hash="0" * 32, at=10**6))
    with pytest.raises(LogError, match="lies past the log's last event"):
        verify_log(registry, forged)


def test_forced_plays_no_fork_could_have_are_refused(registry: Registry, tmp_path: Path) -> None:
    path = _log(tmp_path, "lacorsa")
    at = _decisions(path)[3][0] - 1
    for play in (
        (ForcedPlay(seat=9, act={"type": "pass"}),),
        (ForcedPlay(seat=0, act="anything"), ForcedPlay(seat=0, act="anything")),
    ):
        forged = _with_fork(path, ForkOrigin(parent_hash="0" * 32, at=at, play=play))
        with pytest.raises(LogError, match="forced plays do not hold at the fork point"):
            verify_log(registry, forged)


def test_forced_plays_where_no_decision_follows_are_refused(
    registry: Registry, tmp_path: Path
) -> None:
    """At the last event the match is over: no seat acts there, so none can be forced."""
    path = _log(tmp_path, "lacorsa")
    seq, count = _decisions(path)[-1]
    play = (ForcedPlay(seat=0, act={"type": "pass"}),)
    forged = _with_fork(path, ForkOrigin(parent_hash="0" * 32, at=seq + count - 1, play=play))
    with pytest.raises(LogError, match="forces plays at its fork point, but no decision follows"):
        verify_log(registry, forged)


def test_a_note_added_to_the_copied_part_is_not_the_parents(
    registry: Registry, tmp_path: Path
) -> None:
    parent = _log(tmp_path, "lacorsa")
    fork = tmp_path / "fork.jsonl"
    args = ["fork", str(parent), "--at", "24", "--seat", "random", "--seat", "random"]
    assert main([*args, "--log", str(fork)]) == 0
    assert verify_log(registry, fork, parent=parent).whole
    lines = fork.read_bytes().splitlines()
    note = encode(DebugNote(seat=1, bot="random", text="I saw seat 0's hand"))
    lines.insert(3, NOTE_LINE % (b"debug", 2, b"0" * 32, b"debug", note))
    fork.write_bytes(_rechained(lines))
    verify_log(registry, fork)  # on its own a fork vouches for no copied line
    with pytest.raises(VerificationError, match="debug line 0 is not the parent's"):
        verify_log(registry, fork, parent=parent)
