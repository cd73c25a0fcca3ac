"""Command lines and files a stranger controls: one clear error, the right exit code, nothing half-done."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.errors import EXIT_BAD_INPUT, EXIT_USAGE
from tools.fuzz.hostile import PLUGIN


def test_play_refuses_a_folder_as_its_log_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "logs"
    target.mkdir()
    code = main(["play", "lacorsa", "-s", "random", "-s", "random", "--log", str(target)])
    assert code == EXIT_BAD_INPUT
    assert "is a folder" in capsys.readouterr().err
    assert not (tmp_path / "logs.partial").exists()


def test_play_refuses_to_replace_a_symbolic_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "precious.txt"
    real.write_text("kept")
    link = tmp_path / "match.jsonl"
    link.symlink_to(real)
    assert main(["play", "lacorsa", "-s", "random", "-s", "random", "--log", str(link)]) == 3
    assert link.is_symlink() and real.read_text() == "kept"
    assert "symbolic link" in capsys.readouterr().err


def test_an_empty_log_name_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "lacorsa", "-s", "random", "-s", "random", "--log", ""]) == 3
    assert "names no file" in capsys.readouterr().err


@pytest.mark.parametrize("depth", [100, 1000, 100_000])
def test_an_option_nested_too_deep_is_a_usage_error(
    depth: int, capsys: pytest.CaptureFixture[str]
) -> None:
    value = "[" * depth + "]" * depth
    code = main(
        ["play", "lacorsa", "-s", "random", "-s", "random", "--no-log", "-o", f"races={value}"]
    )
    assert code in (EXIT_USAGE, EXIT_BAD_INPUT)
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("lines", [1, 3])
def test_a_log_line_nested_too_deep_is_bad_input(
    tmp_path: Path, lines: int, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.jsonl"
    assert main(["play", "lacorsa", "-s", "random", "-s", "random", "--log", str(log)]) == 0
    raw = log.read_bytes().splitlines(keepends=True)
    raw[lines - 1] = b"[" * 5000 + b"]" * 5000 + b"\n"
    log.write_bytes(b"".join(raw))
    capsys.readouterr()
    for command in ("replay", "show", "html", "chart", "step"):
        args = [command, str(log)]
        if command in ("html", "chart"):
            args += ["--out", str(tmp_path / f"out.{'html' if command == 'html' else 'svg'}")]
        code = main(args)
        err = capsys.readouterr().err
        assert code == EXIT_BAD_INPUT, (command, err)
        assert f":{lines}:" in err


def test_dev_zero_as_a_log_is_refused_without_reading_it_all(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", "/dev/zero"]) == EXIT_BAD_INPUT
    assert "longer than" in capsys.readouterr().err


def test_json_output_stays_json_when_a_bot_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "hostile_bots.py").write_text(PLUGIN)
    code = main(
        [
            "play",
            "lacorsa",
            "-s",
            "hostile-printer",
            "-s",
            "random",
            "--no-log",
            "--json",
            "--plugins-dir",
            str(plugins),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert json.loads(out)["events"] > 0


def test_replay_at_a_negative_event_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.jsonl"
    assert main(["play", "lacorsa", "-s", "random", "-s", "random", "--log", str(log)]) == 0
    assert main(["replay", str(log), "--at", "-1"]) == EXIT_USAGE
    assert main(["show", str(log), "--at", "-1"]) == EXIT_USAGE
    assert "--at must be 0 or more" in capsys.readouterr().err
    assert os.path.exists(log)


def test_a_thread_a_bot_leaves_running_does_not_keep_play_from_exiting(tmp_path: Path) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "hostile_bots.py").write_text(PLUGIN)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "racedeck",
            "play",
            "lacorsa",
            "-s",
            "hostile-thread",
            "-s",
            "random",
            "--no-log",
            "--plugins-dir",
            str(plugins),
        ],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"race 1" in done.stdout
