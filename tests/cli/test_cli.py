"""The command line: output, logs, exit codes and one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from racedeck.cli.app import app, main
from racedeck.core.errors import EXIT_BAD_INPUT, EXIT_USAGE, EXIT_VERIFY_FAILED

runner = CliRunner()
PLUGINS = Path(__file__).parents[2] / "plugins" / "single-file"
LACORSA_4 = ["play", "lacorsa", "-s", "heuristic", "-s", "random", "-s", "random", "-s", "random"]


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def play_log(tmp_path: Path, name: str = "match.jsonl", seed: int = 5) -> Path:
    log = tmp_path / name
    result = runner.invoke(
        app, [*LACORSA_4, "--seed", str(seed), "-o", "races=2", "--log", str(log)]
    )
    assert result.exit_code == 0, result.output
    return log


def test_games_lists_lacorsa() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "lacorsa" in result.output and "2-6 players" in result.output
    data = json.loads(runner.invoke(app, ["games", "--json"]).output)
    assert {
        "name": "lacorsa",
        "title": "LACORSA Grand Prix",
        "players": [2, 6],
        "rules_version": "2",
    } in data["games"]


def test_bots_for_a_game() -> None:
    data = json.loads(runner.invoke(app, ["bots", "--game", "lacorsa", "--json"]).output)
    names = {b["name"] for b in data["bots"]}
    assert {"random", "heuristic"} <= names


def test_play_prints_standings_and_writes_the_log(tmp_path: Path) -> None:
    log = tmp_path / "out" / "m.jsonl"
    result = runner.invoke(app, [*LACORSA_4, "--seed", "3", "-o", "races=1", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert "final standings" in result.output
    assert "1. seat" in result.output and "points" in result.output
    assert f"log: {log}" in result.output
    lines = log.read_bytes().splitlines()
    assert json.loads(lines[0])["kind"] == "header"
    assert json.loads(lines[-1])["kind"] == "result"
    assert not list(log.parent.glob("*.partial"))


def test_play_json_output(tmp_path: Path) -> None:
    result = runner.invoke(
        app, [*LACORSA_4, "--json", "--log", str(tmp_path / "a.jsonl"), "-o", "races=1"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "lacorsa" and data["events"] > 0
    assert sorted(data["result"]["ranks"]) == sorted(data["result"]["ranks"])
    assert len(data["result"]["scores"]) == 4


def test_the_same_command_writes_byte_identical_logs(tmp_path: Path) -> None:
    first = play_log(tmp_path, "a.jsonl")
    second = play_log(tmp_path, "b.jsonl")
    assert first.read_bytes() == second.read_bytes()
    assert play_log(tmp_path, "c.jsonl", seed=6).read_bytes() != first.read_bytes()


def test_default_log_goes_to_logs_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [*LACORSA_4, "-o", "races=1"])
    assert result.exit_code == 0, result.output
    logs = list((tmp_path / "logs").glob("lacorsa-seed0-*.jsonl"))
    assert len(logs) == 1
    assert f"log: logs/{logs[0].name}" in result.output


def test_replay_verify_succeeds(tmp_path: Path) -> None:
    log = play_log(tmp_path)
    result = runner.invoke(app, ["replay", str(log), "--verify"])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output
    data = json.loads(runner.invoke(app, ["replay", str(log), "--json"]).output)
    assert data["complete"] is True and data["error"] is None


def test_replay_at_event_as_a_seat_hides_other_hands(tmp_path: Path) -> None:
    log = play_log(tmp_path)
    result = runner.invoke(app, ["replay", str(log), "--at", "3", "--seat", "1"])
    assert result.exit_code == 0, result.output
    assert "after event 3" in result.output
    own = next(line for line in result.output.splitlines() if "/s1:" in line)
    other = next(line for line in result.output.splitlines() if "/s0:" in line)
    assert "?" not in own and "?" in other


def test_show_renders_a_state(tmp_path: Path) -> None:
    log = play_log(tmp_path)
    result = runner.invoke(app, ["show", str(log), "--at", "10"])
    assert result.exit_code == 0, result.output
    assert "LACORSA Grand Prix" in result.output
    data = json.loads(
        runner.invoke(app, ["show", str(log), "--at", "10", "--seat", "2", "--json"]).output
    )
    assert data["view"]["seat"] == 2
    assert data["view"]["hands"][0] is None


def test_altered_log_is_bad_input_with_line_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = play_log(tmp_path)
    lines = log.read_bytes().splitlines(keepends=True)
    lines[5] = (
        lines[5].replace(b'"car":', b'"car": ', 1)
        if b'"car":' in lines[5]
        else lines[5][:-2] + b" }\n"
    )
    log.write_bytes(b"".join(lines))
    code, out, err = run_main(["replay", str(log)], capsys)
    assert code == EXIT_BAD_INPUT
    assert f"{log}:6:" in err and "altered" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "intact up to event 3" in out


def test_truncated_log_names_the_line_and_keeps_the_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = play_log(tmp_path)
    raw = log.read_bytes()
    log.write_bytes(raw[: len(raw) // 2])
    code, out, err = run_main(["replay", str(log)], capsys)
    assert code == EXIT_BAD_INPUT
    assert "truncated" in err
    assert "intact up to event" in out


def test_log_without_result_is_truncated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = play_log(tmp_path)
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:-1]))
    code, _out, err = run_main(["replay", str(log)], capsys)
    assert code == EXIT_BAD_INPUT
    assert "no result line" in err


def test_unknown_log_format_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = play_log(tmp_path)
    raw = log.read_bytes().replace(b'"format":3', b'"format":99', 1)
    log.write_bytes(raw)
    code, _out, err = run_main(["replay", str(log)], capsys)
    assert code == EXIT_BAD_INPUT
    assert ":1: unknown log format version 99" in err


def test_not_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.jsonl"
    bad.write_text("hello\n")
    code, _out, err = run_main(["replay", str(bad)], capsys)
    assert code == EXIT_BAD_INPUT and ":1: not JSON" in err
    code, _out, err = run_main(["replay", str(tmp_path / "missing.jsonl")], capsys)
    assert code == EXIT_BAD_INPUT and "cannot open" in err


def test_verification_failure_names_the_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "greedy.jsonl"
    code, _out, _err = run_main(
        [
            "play",
            "lacorsa",
            "--plugins-dir",
            str(PLUGINS),
            "-s",
            "greedy",
            "-s",
            "random",
            "-o",
            "races=1",
            "--log",
            str(log),
        ],
        capsys,
    )
    assert code == 0
    # Another plugin folder registers a different bot under the same name and version.
    other = tmp_path / "other"
    other.mkdir()
    (other / "greedy.py").write_text(
        (PLUGINS / "greedy.py").read_text().replace("return legal[-1]", "return legal[0]")
    )
    code, _out, err = run_main(
        ["replay", str(log), "--verify", "--rerun", "--plugins-dir", str(other)], capsys
    )
    assert code == EXIT_VERIFY_FAILED
    assert "differs at event" in err


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["play", "chess", "-s", "random"], EXIT_BAD_INPUT, "unknown game 'chess'"),
        (
            ["play", "lacorsa", "-s", "nobody", "-s", "random"],
            EXIT_BAD_INPUT,
            "unknown bot 'nobody'",
        ),
        (["play", "lacorsa", "-s", "random"], EXIT_BAD_INPUT, "2 to 6 players"),
        (
            ["play", "lacorsa", "-s", "random", "-s", "random", "-o", "laps=3"],
            EXIT_BAD_INPUT,
            "laps",
        ),
        (
            ["play", "lacorsa", "-s", "random", "-s", "random", "-o", "races"],
            EXIT_USAGE,
            "KEY=VALUE",
        ),
        (["play", "lacorsa"], EXIT_USAGE, "--seat"),
        (["play", "lacorsa", "-s", "random", "--seed", "x"], EXIT_USAGE, "seed"),
        (["frobnicate"], EXIT_USAGE, "frobnicate"),
        (
            ["play", "lacorsa", "-s", "random", "-s", "random", "--fault-policy", "shrug"],
            EXIT_USAGE,
            "forfeit",
        ),
        (
            ["play", "lacorsa", "-s", "random", "-s", "random", "--plugins-dir", "/nonexistent"],
            EXIT_BAD_INPUT,
            "not a directory",
        ),
    ],
)
def test_errors_are_one_line_with_distinct_codes(
    args: list[str], code: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    got, _out, err = run_main(args, capsys)
    assert got == code, err
    assert message in err
    assert err.startswith("racedeck: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_seat_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = play_log(tmp_path)
    code, _out, err = run_main(["show", str(log), "--seat", "9"], capsys)
    assert code == EXIT_USAGE and "--seat 9" in err


def test_console_script_runs_in_a_subprocess(tmp_path: Path) -> None:
    log = tmp_path / "sub.jsonl"
    script = Path(sys.executable).parent / "racedeck"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "racedeck"]
    done = subprocess.run(
        [
            *command,
            "play",
            "lacorsa",
            "-s",
            "heuristic",
            "-s",
            "random",
            "--seed",
            "9",
            "-o",
            "races=1",
            "--log",
            str(log),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "RACEDECK_LOAD_PLUGINS": ""},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["log"] == str(log)
    bad = subprocess.run(
        [*command, "play", "nogame", "-s", "random"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == EXIT_BAD_INPUT
    assert bad.stderr.startswith("racedeck: error: unknown game 'nogame'; known games: ")
    assert bad.stderr.count("\n") == 1


def test_play_time_limit_is_passed_to_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    slow = tmp_path / "plugins"
    slow.mkdir()
    (slow / "sleepy.py").write_text(
        "import time\n"
        "from racedeck.core.bot import Bot, BotSpec\n"
        "from racedeck.hookspecs import hookimpl\n\n"
        "class Sleepy(Bot):\n"
        "    def act(self, observation, legal, rng):\n"
        "        time.sleep(0.2)\n"
        "        return legal[0]\n\n"
        "@hookimpl\n"
        "def racedeck_register_bots(register):\n"
        "    register(BotSpec(name='sleepy', factory=Sleepy, description='slow'))\n"
    )
    code, out, _err = run_main(
        [
            "play",
            "lacorsa",
            "-s",
            "sleepy",
            "-s",
            "random",
            "--plugins-dir",
            str(slow),
            "--time-limit",
            "0.05",
            "--no-log",
            "--json",
        ],
        capsys,
    )
    assert code == 0
    data = json.loads(out)
    assert data["forfeit"]["seat"] == 0
    assert "time limit" in data["forfeit"]["reason"]


def test_verify_refuses_a_bot_whose_play_a_seed_does_not_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "moody.py").write_text(
        "from racedeck.core.bot import Bot, BotSpec\n"
        "from racedeck.hookspecs import hookimpl\n\n"
        "class Moody(Bot):\n"
        "    def act(self, observation, legal, rng):\n"
        "        return legal[0]\n\n"
        "@hookimpl\n"
        "def racedeck_register_bots(register):\n"
        "    register(BotSpec(name='moody', factory=Moody, description='x', reproducible=False))\n"
    )
    log = tmp_path / "moody.jsonl"
    common = ["--plugins-dir", str(plugins)]
    code, _out, err = run_main(
        [
            "play",
            "lacorsa",
            "-s",
            "random",
            "-s",
            "moody",
            "-o",
            "races=1",
            "--log",
            str(log),
            *common,
        ],
        capsys,
    )
    assert code == 0, err
    code, _out, _err = run_main(["replay", str(log), *common], capsys)
    assert code == 0, "an ordinary replay still checks every hash"
    code, _out, err = run_main(["replay", str(log), "--verify", "--rerun", *common], capsys)
    assert code == EXIT_VERIFY_FAILED
    assert "seat 1 was played by moody, whose play a seed does not fix" in err


def test_html_and_new_bot_speak_json(tmp_path: Path) -> None:
    log = play_log(tmp_path)
    page = tmp_path / "replay.html"
    result = runner.invoke(app, ["html", str(log), "--out", str(page), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["html"] == str(page) and data["bytes"] == page.stat().st_size
    result = runner.invoke(
        app, ["new-bot", "zoom", "--game", "lacorsa", "--into", str(tmp_path / "zoom"), "--json"]
    )
    assert result.exit_code == 0, result.output
    files = json.loads(result.output)["files"]
    assert any(f.endswith("pyproject.toml") for f in files)
    assert all(Path(f).exists() for f in files)
