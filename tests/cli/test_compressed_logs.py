"""Every command that reads a log reads it gzip-compressed too, whatever the file is called."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.errors import EXIT_BAD_INPUT
from racedeck.core.log import LogReader

PLAY = ["play", "lacorsa", "-s", "heuristic", "-s", "random", "-s", "random", "--seed", "8"]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A plain log and the same log gzip-compressed beside it."""
    plain = tmp_path / "match.jsonl"
    code, _out, err = run([*PLAY, "-o", "races=1", "--log", str(plain)], capsys)
    assert code == 0, err
    packed = tmp_path / "match.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
    return plain, packed


def test_replay_verify_re_runs_a_compressed_log(
    logs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _plain, packed = logs
    code, out, err = run(["replay", str(packed), "--verify"], capsys)
    assert code == 0, err
    assert "verified" in out


def test_show_html_and_chart_read_a_compressed_log_as_the_plain_one(
    logs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, packed = logs
    shown = [run(["show", str(log), "--at", "12", "--json"], capsys) for log in (plain, packed)]
    assert shown[0][0] == shown[1][0] == 0
    assert json.loads(shown[0][1])["view"] == json.loads(shown[1][1])["view"]
    for log, name in ((plain, "plain"), (packed, "packed")):
        assert run(["html", str(log), "--out", str(tmp_path / f"{name}.html")], capsys)[0] == 0
        assert run(["chart", str(log), "--out", str(tmp_path / f"{name}.svg")], capsys)[0] == 0
    assert (tmp_path / "plain.svg").read_bytes() == (tmp_path / "packed.svg").read_bytes()


def test_diff_finds_a_compressed_log_identical_to_its_plain_self(
    logs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    plain, packed = logs
    for a, b in ((plain, packed), (packed, plain), (packed, packed)):
        code, out, err = run(["diff", str(a), str(b), "--json"], capsys)
        assert code == 0, err
        assert json.loads(out)["identical"]


def test_a_fork_of_a_compressed_log_verifies(
    logs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _plain, packed = logs
    fork = tmp_path / "fork.jsonl"
    code, _out, err = run(["fork", str(packed), "--at", "0", "--log", str(fork)], capsys)
    assert code == 0, err
    assert run(["fork", "--verify", str(fork), "--parent", str(packed)], capsys)[0] == 0
    assert run(["replay", str(fork), "--verify"], capsys)[0] == 0


def test_compression_is_recognised_by_content_not_by_name(logs: tuple[Path, Path]) -> None:
    plain, packed = logs
    disguised = plain.with_name("disguised.jsonl")
    disguised.write_bytes(packed.read_bytes())
    with LogReader(disguised) as reader, LogReader(plain) as reference:
        assert reader.header == reference.header
        assert list(reader) == list(reference)
        assert reader.result == reference.result


def test_a_cut_off_compressed_log_is_one_line_of_bad_input(
    logs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _plain, packed = logs
    data = packed.read_bytes()
    packed.write_bytes(data[: len(data) // 2])
    code, _out, err = run(["replay", str(packed)], capsys)
    assert code == EXIT_BAD_INPUT and err.count("\n") == 1, err
    assert "compressed log is damaged or cut off" in err


def test_a_zstd_log_is_refused_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "match.jsonl.zst"
    log.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 32)
    code, _out, err = run(["replay", str(log)], capsys)
    assert code == EXIT_BAD_INPUT and "zstd" in err and err.count("\n") == 1, err
