"""The authoring kit: new-bot writes a package that installs, registers, tests and plays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from racedeck.cli.app import app, main
from racedeck.core.errors import EXIT_USAGE
from tests.packaging import install_into

runner = CliRunner()
pytestmark = pytest.mark.slow


def test_new_bot_writes_a_package_that_installs_lists_plays_and_passes_its_tests(
    tmp_path: Path,
) -> None:
    package = tmp_path / "racedeck-pit-boss"
    result = runner.invoke(
        app, ["new-bot", "pit-boss", "--game", "lacorsa", "--into", str(package)]
    )
    assert result.exit_code == 0, result.output
    for name in [
        "pyproject.toml",
        "README.md",
        "src/racedeck_pit_boss/bot.py",
        "src/racedeck_pit_boss/plugin.py",
        "tests/test_racedeck_pit_boss.py",
    ]:
        assert (package / name).is_file(), name
    assert 'pit-boss = "racedeck_pit_boss.plugin"' in (package / "pyproject.toml").read_text()

    env = install_into(package, tmp_path / "site")
    listing = subprocess.run(
        [sys.executable, "-m", "racedeck", "bots", "--game", "lacorsa", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "pit-boss" in {bot["name"] for bot in json.loads(listing.stdout)["bots"]}
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(package / "tests")],
        env=env,
        capture_output=True,
        text=True,
        cwd=package,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "4 passed" in tests.stdout


def test_new_bot_refuses_a_bad_name_and_an_unknown_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["new-bot", "Pit Boss", "--game", "lacorsa", "--into", str(tmp_path / "a")])
        == EXIT_USAGE
    )
    assert "bot name 'Pit Boss' must be lowercase" in capsys.readouterr().err
    assert main(["new-bot", "ok", "--game", "nope", "--into", str(tmp_path / "b")]) == 3
    assert "unknown game 'nope'" in capsys.readouterr().err


def test_new_bot_will_not_overwrite_a_folder_without_force(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    args = ["new-bot", "x", "--game", "lacorsa", "--into", str(tmp_path)]
    assert main(args) == EXIT_USAGE
    assert main([*args, "--force"]) == 0
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_new_bot_with_force_writes_through_no_link_and_into_no_pipe(tmp_path: Path) -> None:
    """A planted README.md link overwrote a file elsewhere, a tests/ link put a file in
    another folder, a pipe named README.md hung: each is refused before any file is
    written, and nothing outside the folder changes."""
    import os

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "victim.txt").write_text("mine")
    for plant in ("link", "folder link", "pipe"):
        into = tmp_path / plant.replace(" ", "-")
        into.mkdir()
        if plant == "link":
            (into / "README.md").symlink_to(elsewhere / "victim.txt")
        elif plant == "folder link":
            (into / "tests").symlink_to(elsewhere)
        else:
            os.mkfifo(into / "README.md")
        args = ["new-bot", "x", "--game", "lacorsa", "--into", str(into), "--force"]
        assert main(args) == 3, plant
        assert sorted(p.name for p in into.iterdir()) in (["README.md"], ["tests"]), plant
    assert sorted(p.name for p in elsewhere.iterdir()) == ["victim.txt"]
    assert (elsewhere / "victim.txt").read_text() == "mine"


def test_bot_check_exits_nonzero_and_names_each_violation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "bad.py"
    program.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    print(json.dumps({'type': 'ready'} if m['type'] == 'start' else {'choice': -1}), flush=True)\n"
    )
    code = main(
        [
            "bot",
            "check",
            f"{sys.executable} {program}",
            "--game",
            "lacorsa",
            "--matches",
            "1",
            "--json",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 1, err
    report = json.loads(out)
    assert not report["ok"] and report["violations"][0]["kind"] == "illegal-action"
    assert report["violations"][0]["message"] == '{"choice": -1}'
    assert "broke the protocol" in err


def test_bot_check_of_an_empty_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "check", "  ", "--game", "lacorsa"]) == EXIT_USAGE
    assert "empty" in capsys.readouterr().err
