"""`racedeck fork`: a fork records its parent, replays and verifies on its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.errors import LogError, UsageError, VerificationError
from racedeck.core.fork import ForkOutcome, fork_log, verify_fork
from racedeck.core.log import LogReader
from racedeck.core.replay import replay_log
from racedeck.core.verify import check_parent
from racedeck.inspect.diff import diff_logs
from racedeck.plugins import Registry
from tests.inspect.helpers import events_of, play, rewrite


@pytest.fixture(scope="module")
def parent(tmp_path_factory: pytest.TempPathFactory, registry: Registry) -> Path:
    return play(registry, tmp_path_factory.mktemp("fork") / "parent.jsonl", options={"races": 2})


def _hash_at(path: Path, at: int) -> str:
    with LogReader(path) as reader:
        for entry in reader:
            if entry.seq == at:
                return reader.last_hash
    raise AssertionError(at)


@pytest.mark.parametrize("at", [0, 9, 57])
def test_fork_with_the_same_seed_and_bots_reproduces_the_parent(
    parent: Path, tmp_path: Path, registry: Registry, at: int
) -> None:
    forked = fork_log(registry, parent, at, tmp_path / "fork.jsonl")
    report = diff_logs(registry, parent, forked.path)
    assert report.identical, report.divergence
    assert report.header_differences == ["fork"]
    assert forked.header.fork is not None
    assert forked.header.fork.at == at
    assert forked.header.fork.parent_hash == _hash_at(parent, at)


def _fork_at_a_decision_boundary(
    registry: Registry, parent: Path, wanted: int, folder: Path
) -> tuple[int, ForkOutcome]:
    for at in range(wanted, -1, -1):
        try:
            return at, fork_log(registry, parent, at, folder / f"f{at}.jsonl")
        except UsageError as exc:
            assert "inside one decision" in str(exc)
    raise AssertionError("no decision boundary")


def test_a_fork_point_inside_one_decision_is_refused_naming_where_it_began(
    parent: Path, tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    kinds = [e["type"] for e in events_of(parent)]
    revealed = kinds.index("qualifying_revealed")  # the engine's grid: revealed, then formed
    assert kinds[revealed + 1] in ("grid_formed", "qualifying_tie_rolled")
    code = main(["fork", str(parent), "--at", str(revealed), "--log", str(tmp_path / "x.jsonl")])
    assert code == 2
    assert f"began at event {revealed}" in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize("game", ["lacorsa", "detroit-cleveland", "famous-500", "wacky-races"])
def test_fork_of_a_random_bot_match_with_the_same_seed_reproduces_it(
    tmp_path: Path, registry: Registry, game: str
) -> None:
    """The bots watch the prefix, drawing from their own streams as they did in the parent."""
    g = registry.game(game)
    players = max(g.min_players, min(g.max_players, 3))
    parent = play(
        registry,
        tmp_path / "p.jsonl",
        game=game,
        bots=("random",) * players,
        seed=21,
        options=g.conformance_options[0],
    )
    count = len(events_of(parent))
    for wanted in (count // 4, count // 2):
        at, forked = _fork_at_a_decision_boundary(registry, parent, wanted, tmp_path)
        report = diff_logs(registry, parent, forked.path)
        assert report.identical, (at, report.divergence and report.divergence.seq)
        verify_fork(registry, forked.path, parent)


def test_fork_with_other_bots_and_seed_replays_and_verifies_on_its_own(
    parent: Path, tmp_path: Path, registry: Registry
) -> None:
    forked = fork_log(registry, parent, 30, tmp_path / "f.jsonl", bots=["random"] * 4, seed=99)
    assert events_of(forked.path)[:31] == events_of(parent)[:31]
    assert events_of(forked.path) != events_of(parent)
    replay = replay_log(registry, forked.path)
    assert replay.complete
    verify_fork(registry, forked.path, parent)
    with LogReader(forked.path) as reader:
        assert reader.header.seed == 99
        assert [s.bot for s in reader.header.seats] == ["random"] * 4


def test_a_fork_altered_after_its_fork_point_fails_verification(
    parent: Path, tmp_path: Path, registry: Registry
) -> None:
    forked = fork_log(registry, parent, 30, tmp_path / "f.jsonl", bots=["random"] * 4, seed=5)
    other = fork_log(registry, parent, 30, tmp_path / "g.jsonl", bots=["random"] * 4, seed=6)
    # The header of one with the events of the other, re-chained: every hash holds, yet its
    # continuation is not what its header's seed deals: replay finds the engine's first
    # decision that the seed does not explain, without re-running any bot.
    with LogReader(forked.path) as reader:
        header = reader.header
    spliced = rewrite(other.path, tmp_path / "spliced.jsonl", lambda seq, e: e, lambda h: header)
    replay = replay_log(registry, spliced)
    assert replay.error is not None and "the engine's decision at event" in str(replay.error)
    with pytest.raises(LogError, match=r"the engine's decision at event"):
        verify_fork(registry, spliced)


def test_check_parent_refuses_another_log(parent: Path, tmp_path: Path, registry: Registry) -> None:
    forked = fork_log(registry, parent, 12, tmp_path / "f.jsonl", seed=3)
    stranger = play(registry, tmp_path / "stranger.jsonl", seed=1234)
    check_parent(forked.path, parent)
    with pytest.raises(VerificationError):
        check_parent(forked.path, stranger)


def test_fork_command_writes_a_log_that_fork_verify_accepts(
    parent: Path, tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    at, _ = _fork_at_a_decision_boundary(registry, parent, 20, tmp_path)
    out = tmp_path / "cli.jsonl"
    code = main(
        [
            "fork",
            str(parent),
            "--at",
            str(at),
            "--seat",
            "random",
            "--seat",
            "heuristic",
            "--seat",
            "heuristic",
            "--seat",
            "random",
            "--seed",
            "4",
            "--log",
            str(out),
            "--json",
        ]
    )
    assert code == 0, capsys.readouterr().err
    written = json.loads(capsys.readouterr().out)
    assert written["fork"]["at"] == at and written["log"] == str(out)
    assert main(["fork", "--verify", str(out), "--parent", str(parent)]) == 0
    assert "verified" in capsys.readouterr().out
    # replay --verify re-runs a fork too, from its fork point
    assert main(["replay", str(out), "--verify"]) == 0, capsys.readouterr().err


def test_fork_past_the_end_is_a_usage_error_and_leaves_no_file(
    parent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parent is fine; the value asked for is not: a usage error (as ``step --at``),
    not the exit of a bad log."""
    out = tmp_path / "none.jsonl"
    assert main(["fork", str(parent), "--at", "100000", "--log", str(out)]) == 2
    assert "--at 100000: " in capsys.readouterr().err
    assert not out.exists() and not list(tmp_path.iterdir())


def test_fork_with_the_wrong_number_of_seats_is_a_usage_error(
    parent: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["fork", str(parent), "--at", "3", "--seat", "random", "--log", str(tmp_path / "x")])
        == 2
    )
    assert "4 seats" in capsys.readouterr().err


def test_diff_of_a_parent_and_its_fork_with_other_bots_diverges_after_the_fork_point(
    parent: Path, tmp_path: Path, registry: Registry
) -> None:
    forked = fork_log(registry, parent, 25, tmp_path / "f.jsonl", bots=["random"] * 4, seed=11)
    report = diff_logs(registry, parent, forked.path)
    assert report.divergence is not None
    assert report.divergence.seq > 25
    assert (
        events_of(parent)[: report.divergence.seq]
        == events_of(forked.path)[: report.divergence.seq]
    )
    assert set(report.header_differences) == {"seed", "seats", "fork"}
