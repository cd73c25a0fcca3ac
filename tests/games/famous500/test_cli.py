"""Famous 500 on the command line: a race on a user's track, replayed without the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from racedeck.cli.app import app, main
from racedeck.core.errors import EXIT_BAD_INPUT

runner = CliRunner()


def test_a_race_on_a_user_track_replays_and_verifies_without_the_file(tmp_path: Path) -> None:
    track = tmp_path / "oval.json"
    track.write_text(
        json.dumps(
            {
                "name": "Oval",
                "difficulty": 12,
                "sections": [{"kind": "white", "pit": True}, {"kind": "grey"}, {"kind": "black"}],
            }
        )
    )
    log = tmp_path / "oval.jsonl"
    args = ["play", "famous-500", "-s", "heuristic", "-s", "random", "--seed", "3"]
    result = runner.invoke(app, [*args, "-o", f"track={track}", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert "speed points" in result.output
    track.unlink()
    result = runner.invoke(app, ["replay", str(log), "--verify"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["show", str(log), "--at", "8", "--seat", "1"])
    assert result.exit_code == 0, result.output
    assert "Famous 500 at Oval (difficulty 12" in result.output


def test_a_malformed_track_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    track = tmp_path / "bad.json"
    track.write_text('{"name": "Bad", "difficulty": 12, "sections": []}')
    args = ["play", "famous-500", "-s", "random", "-s", "random", "--seed", "1"]
    code = main([*args, "-o", f"track={track}"])
    _out, err = capsys.readouterr()
    assert code == EXIT_BAD_INPUT
    assert err.strip().endswith(f"{track}: a track has 1 to 100 sections, got 0")
    assert len(err.strip().splitlines()) == 1


def test_a_race_too_long_for_the_pit_deck_is_one_clear_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The issue's command: 20 laps used to end in a forfeit; now it is refused up front."""
    args = ["play", "famous-500", "-s", "heuristic", "-s", "heuristic", "--seed", "6"]
    code = main([*args, "-o", "laps=20", "--no-log"])
    _out, err = capsys.readouterr()
    assert code == EXIT_BAD_INPUT
    assert err.strip() == (
        "racedeck: error: famous-500: laps must be 1 to 4, got 20 (the pit deck's three "
        "cards last three between-laps draws, and discards leave the game)"
    )
