"""A log is trusted only as far as it was checked, and the file under a log's name is the engine's.

A fork's copied prefix is verified only against its parent; a forged copied state is
refused naming its line, never reaching a renderer; the partial log is its owner's alone
while the match runs, and a partial file swapped for a link or another file never lands
under the log's name; a fork never overwrites its parent.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from racedeck.cli.app import main
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import EXIT_BAD_INPUT, LogError, UsageError, VerificationError
from racedeck.core.files import UnsafeTargetError
from racedeck.core.fork import fork_log, verify_fork
from racedeck.core.log import ForkOrigin, LogReader
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.session import MatchPlan, play_to_log
from racedeck.core.verify import verify_log
from racedeck.plugins import Registry
from tests.inspect.helpers import play, rewrite


@pytest.fixture(scope="module")
def parent(tmp_path_factory: pytest.TempPathFactory, registry: Registry) -> Path:
    return play(registry, tmp_path_factory.mktemp("trust") / "parent.jsonl")


@pytest.fixture(scope="module")
def fork(parent: Path, registry: Registry) -> Path:
    return fork_log(registry, parent, 19, parent.with_name("fork.jsonl"), seed=3).path


def test_a_fork_is_verified_from_its_fork_point_unless_its_parent_is_checked(
    registry: Registry, parent: Path, fork: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = verify_log(registry, fork, rerun=True)
    assert alone.checked_from == 20 and alone.parent is None and not alone.whole
    assert "from the fork point only" in alone.summary()
    assert "are not verified" in alone.summary()
    with_parent = verify_log(registry, fork, parent=parent)
    assert with_parent.whole and with_parent.parent == str(parent)
    assert main(["replay", str(fork), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "from the fork point only" in out and "verified: " not in out
    assert main(["replay", str(fork), "--verify", "--parent", str(parent)]) == 0
    assert f"are those of the parent {parent}" in capsys.readouterr().out


def test_a_fork_checked_against_another_log_is_refused(
    registry: Registry, fork: Path, tmp_path: Path
) -> None:
    other = play(registry, tmp_path / "other.jsonl", seed=8)
    with pytest.raises(VerificationError, match="forked at event 19"):
        verify_log(registry, fork, parent=other)
    with pytest.raises(VerificationError):
        verify_fork(registry, fork, other)


def _forge_the_copied_deal(seq: int, event: dict[str, Any]) -> dict[str, Any]:
    if seq == 0:
        return {**event, "hands": [[1]]}  # one hand of one card for four cars
    return event


def test_a_forged_copied_state_is_refused_at_its_line_by_every_reader(
    fork: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = rewrite(fork, tmp_path / "forged.jsonl", _forge_the_copied_deal)
    commands = (["replay", str(forged)], ["show", str(forged)], ["replay", str(forged), "--verify"])
    for command in commands:
        assert main(command) == EXIT_BAD_INPUT, command
        err = capsys.readouterr().err
        assert f"{forged}:2:" in err and "is no state a match reaches" in err, err
        assert "Traceback" not in err


class _Snooper(Bot):
    """Looks at the partial log as a program sharing the folder could, on its first turn."""

    seen: list[int] = []
    swap_to: Path | None = None

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        partial = _Snooper.log.with_name(_Snooper.log.name + ".partial")
        if not _Snooper.seen:
            _Snooper.seen.append(stat.S_IMODE(os.stat(partial).st_mode))
            if _Snooper.swap_to is not None:
                partial.unlink()
                partial.symlink_to(_Snooper.swap_to)
        return legal[0]

    log = Path()


def _plan(registry: Registry) -> MatchPlan:
    game = registry.game("lacorsa")
    snooper = BotSpec(name="snooper", factory=_Snooper, description="test")
    return MatchPlan(game, game.parse_options({"races": 1}), [snooper, snooper], 2)


def test_the_partial_log_is_its_owners_alone_while_the_match_runs(
    registry: Registry, tmp_path: Path
) -> None:
    _Snooper.seen, _Snooper.swap_to, _Snooper.log = [], None, tmp_path / "m.jsonl"
    _outcome, written = play_to_log(_plan(registry), _Snooper.log)
    assert _Snooper.seen == [0o600]
    assert written is not None and written.exists()


def test_a_partial_log_swapped_for_a_link_never_lands_under_the_logs_name(
    registry: Registry, tmp_path: Path
) -> None:
    planted = tmp_path / "planted.jsonl"
    planted.write_bytes(b"a log the bot wrote\n")
    _Snooper.seen, _Snooper.swap_to, _Snooper.log = [], planted, tmp_path / "m.jsonl"
    with pytest.raises(UnsafeTargetError, match="was replaced while it was being written"):
        play_to_log(_plan(registry), _Snooper.log)
    assert not _Snooper.log.exists()
    assert not _Snooper.log.with_name("m.jsonl.partial").exists()
    assert planted.read_bytes() == b"a log the bot wrote\n"  # the link went, not its target


@pytest.mark.parametrize("how", ["same-name", "hard-link", "other-spelling"])
def test_fork_refuses_to_overwrite_its_parent(
    registry: Registry, tmp_path: Path, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parent = play(registry, tmp_path / "p.jsonl")
    before = parent.read_bytes()
    if how == "same-name":
        target = parent
    elif how == "hard-link":
        target = tmp_path / "alias.jsonl"
        os.link(parent, target)
    else:
        (tmp_path / "sub").mkdir()
        target = tmp_path / "sub" / ".." / "p.jsonl"
    with pytest.raises(UsageError, match="overwrite its parent"):
        fork_log(registry, parent, 10, target)
    assert main(["fork", str(parent), "--at", "10", "--log", str(target)]) == 2
    assert "overwrite its parent" in capsys.readouterr().err
    assert parent.read_bytes() == before


def test_diff_with_a_seat_the_logs_do_not_have_is_a_usage_error(
    parent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", str(parent), str(parent), "--seat", "9"]) == 2
    assert "--seat 9 does not exist" in capsys.readouterr().err
    assert main(["diff", str(parent), str(parent), "--seat", "3"]) == 0


def test_replay_verify_runs_no_bot_and_rerun_does(
    registry: Registry, parent: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []
    real = registry.bot

    def counting(name: str, game: str) -> BotSpec:
        made.append(name)
        return real(name, game)

    monkeypatch.setattr(registry, "bot", counting)
    checked = verify_log(registry, parent)
    assert made == [] and checked.whole and not checked.rerun
    assert verify_log(registry, parent, rerun=True).rerun
    assert made == ["heuristic"] * 4


def test_a_verification_names_what_it_checked(registry: Registry, parent: Path) -> None:
    checked = verify_log(registry, parent)
    assert (checked.checked_from, checked.parent, checked.rerun) == (0, None, False)
    assert checked.summary().startswith("verified: derived again from its header: all ")


def test_a_log_refused_by_reading_is_refused_by_verification(
    registry: Registry, parent: Path, tmp_path: Path
) -> None:
    edited = rewrite(parent, tmp_path / "e.jsonl", lambda seq, e: e if seq != 5 else None)
    with pytest.raises(LogError):
        verify_log(registry, edited)


def test_a_made_up_fork_header_is_not_called_verified(
    registry: Registry, parent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plain log given a fork header at its last event: nothing of it is re-derived
    from its seed, and neither the library nor the command calls it verified."""
    with LogReader(parent) as reader:
        last = sum(1 for entry in reader if entry.event is not None) - 1
    origin = ForkOrigin(parent_hash="0" * 32, at=last)
    forged = rewrite(
        parent, tmp_path / "forged.jsonl", lambda seq, e: e, lambda h: replace(h, fork=origin)
    )
    checked = verify_log(registry, forged)
    assert not checked.whole and checked.checked_from == last + 1
    assert main(["replay", str(forged), "--verify", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verified"] is False
    assert main(["replay", str(forged), "--verify"]) == 0
    assert "are not verified" in capsys.readouterr().out
    assert main(["replay", str(forged), "--verify", "--parent", str(parent)]) == 4
    assert "forked at event" in capsys.readouterr().err
