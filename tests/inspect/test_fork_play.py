"""`racedeck fork --play SEAT=ACTION`: a seat's action forced at the fork point, in words or JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from racedeck.cli.app import main
from racedeck.core.log import ForcedPlay, LogReader, encode
from racedeck.core.replay import replay_log
from racedeck.inspect.diff import diff_logs
from racedeck.plugins import Registry
from tests.inspect.helpers import play, rewrite


@pytest.fixture(scope="module")
def parent(tmp_path_factory: pytest.TempPathFactory, registry: Registry) -> Path:
    folder = tmp_path_factory.mktemp("forkplay")
    return play(registry, folder / "parent.jsonl", bots=("heuristic", "heuristic", "random"))


def _decisions(path: Path) -> list[dict[str, Any]]:
    with open(path, "rb") as handle:
        lines = [json.loads(line) for line in handle]
    return [line for line in lines if line.get("kind") == "turn" and "by" in line]


def _seat_point(registry: Registry, parent: Path, seat: int) -> tuple[int, dict[str, Any], Any]:
    """Return a fork point before one of ``seat``'s decisions, that decision and its choices."""
    decision = [d for d in _decisions(parent) if d["by"] == seat][3]
    at = decision["seq"] - 1
    replay = replay_log(registry, parent, at=at)
    legal = replay.game.legal_actions(replay.state, seat)
    return at, decision, legal


def _other(legal: Any, recorded: dict[str, Any]) -> Any:
    return next(a for a in legal if msgspec.json.decode(encode(a)) != recorded)


def _fork(parent: Path, out: Path, at: int, *plays: str) -> int:
    args = ["fork", str(parent), "--at", str(at), "--log", str(out)]
    for given in plays:
        args += ["--play", given]
    return main(args)


def test_an_action_forced_in_words_is_played_and_the_fork_verifies(
    parent: Path, tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    at, decision, legal = _seat_point(registry, parent, 0)
    chosen = _other(legal, decision["act"])
    spoken = registry.game("lacorsa").presentation.describe(chosen)
    # Matched without regard to case or extra spaces.
    messy = "  " + spoken.upper().replace(" ", "   ") + " "
    out = tmp_path / "f.jsonl"
    assert _fork(parent, out, at, f"0={messy}") == 0, capsys.readouterr().err
    with LogReader(out) as reader:
        fork = reader.header.fork
    assert fork is not None
    assert fork.play == (ForcedPlay(seat=0, act=msgspec.json.decode(encode(chosen))),)
    played = _decisions(out)[len([d for d in _decisions(parent) if d["seq"] <= at])]
    assert played["seq"] == at + 1 and played["act"] == msgspec.json.decode(encode(chosen))
    assert main(["replay", str(out), "--verify", "--parent", str(parent)]) == 0
    assert main(["fork", "--verify", str(out), "--parent", str(parent)]) == 0
    assert "verified" in capsys.readouterr().out
    report = diff_logs(registry, parent, out)
    assert report.divergence is not None and report.divergence.seq == at + 1
    assert main(["diff", str(parent), str(out)]) == 1
    assert f"the logs diverge at event {at + 1}" in capsys.readouterr().out


def test_an_action_forced_as_json_is_played(
    parent: Path, tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    at, decision, legal = _seat_point(registry, parent, 1)
    chosen = _other(legal, decision["act"])
    out = tmp_path / "j.jsonl"
    assert _fork(parent, out, at, f"1={encode(chosen).decode()}") == 0, capsys.readouterr().err
    assert main(["replay", str(out), "--verify"]) == 0
    report = diff_logs(registry, parent, out)
    assert report.divergence is not None and report.divergence.seq == at + 1


def test_forcing_the_parents_own_action_gives_the_parent(
    parent: Path, tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    """The forced seat's bot is still asked and its answer set aside: its stream stays put."""
    at, decision, _legal = _seat_point(registry, parent, 2)  # a random bot
    out = tmp_path / "same.jsonl"
    assert _fork(parent, out, at, f"2={json.dumps(decision['act'])}") == 0
    report = diff_logs(registry, parent, out)
    assert report.identical, report.divergence
    assert report.header_differences == ["fork"]
    assert main(["fork", "--verify", str(out), "--parent", str(parent)]) == 0, (
        capsys.readouterr().err
    )


def test_an_illegal_forced_action_is_refused_listing_the_legal_ones(
    parent: Path, tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    at, _decision, legal = _seat_point(registry, parent, 0)
    out = tmp_path / "x.jsonl"
    assert _fork(parent, out, at, "0=car 0 plays 99") == 2
    err = capsys.readouterr().err.strip().splitlines()
    describe = registry.game("lacorsa").presentation.describe
    assert len(err) == 1
    assert "seat 0 cannot play 'car 0 plays 99'" in err[0]
    assert describe(legal[0]) in err[0]
    assert not out.exists()
    assert _fork(parent, out, at, '0={"type":"play","car":0,"cards":[999]}') == 2
    assert "seat 0 cannot play" in capsys.readouterr().err


def test_a_seat_that_is_not_to_act_is_refused_naming_who_acts(
    parent: Path, tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    at, _decision, _legal = _seat_point(registry, parent, 0)
    out = tmp_path / "x.jsonl"
    assert _fork(parent, out, at, "1=car 1 plays 3") == 2
    err = capsys.readouterr().err
    assert "seat 1 is not to act at the fork point; who acts there: seat 0" in err
    assert _fork(parent, out, at, "nonsense") == 2
    assert "SEAT=ACTION" in capsys.readouterr().err
    assert not out.exists()


def test_a_header_forcing_another_action_than_the_log_holds_is_refused(
    parent: Path, tmp_path: Path, registry: Registry
) -> None:
    at, decision, legal = _seat_point(registry, parent, 0)
    out = tmp_path / "f.jsonl"
    assert _fork(parent, out, at, f"0={json.dumps(decision['act'])}") == 0
    other = msgspec.json.decode(encode(_other(legal, decision["act"])))

    def edit(header: Any) -> Any:
        fork = msgspec.structs.replace(header.fork, play=(ForcedPlay(seat=0, act=other),))
        return msgspec.structs.replace(header, fork=fork)

    edited = rewrite(out, tmp_path / "edited.jsonl", lambda seq, e: e, edit)
    replay = replay_log(registry, edited)
    assert replay.error is not None
    assert "not the one the header forces" in str(replay.error)


@pytest.mark.parametrize("game", ["lacorsa", "detroit-cleveland", "famous-500", "wacky-races"])
def test_a_forced_action_forks_and_verifies_in_every_game(
    tmp_path: Path, registry: Registry, game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    g = registry.game(game)
    players = max(g.min_players, min(g.max_players, 3))
    bots = ("random",) * players
    source = play(
        registry,
        tmp_path / "p.jsonl",
        game=game,
        bots=bots,
        seed=13,
        options=g.conformance_options[0],
    )
    decisions = [d for d in _decisions(source) if d["by"] == 0]
    for decision in decisions[len(decisions) // 2 :]:
        at = decision["seq"] - 1
        replay = replay_log(registry, source, at=at)
        legal = g.legal_actions(replay.state, 0)
        if len(legal) > 1:
            break
    else:
        pytest.skip("seat 0 never had a choice")
    chosen = _other(legal, decision["act"])
    out = tmp_path / "f.jsonl"
    assert _fork(source, out, at, f"0={g.presentation.describe(chosen)}") == 0, (
        capsys.readouterr().err
    )
    assert main(["fork", "--verify", str(out), "--parent", str(source)]) == 0, (
        capsys.readouterr().err
    )
    report = diff_logs(registry, source, out)
    assert report.divergence is not None and report.divergence.seq == at + 1
