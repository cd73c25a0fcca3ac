"""What a person reads on the command line: help that names what each option takes, and
tables whose columns line up."""

from __future__ import annotations

from pathlib import Path

import pytest

from racedeck.cli.app import main

PLUGINS = Path(__file__).parents[2] / "plugins" / "single-file"


def help_of(command: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*command, "--help"]) == 0
    return capsys.readouterr().out


def option_line(text: str, option: str) -> str:
    return next(line for line in text.splitlines() if f"{option} " in line)


@pytest.mark.parametrize("command", [["replay"], ["show"], ["step"], ["html"], ["diff"]])
def test_a_seat_that_is_viewed_is_a_seat_number(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert "--seat SEAT" in option_line(help_of(command, capsys), "--seat")


@pytest.mark.parametrize("command", [["play"], ["fork"]])
def test_a_seat_that_is_filled_is_a_bot(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert "--seat BOT" in option_line(help_of(command, capsys), "--seat")


def test_counts_and_events_are_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(["tournament", "run"], capsys)
    for option in ("--matches", "--players", "--workers"):
        assert f"{option} N" in option_line(text, option)
    assert "--at N" in option_line(help_of(["replay"], capsys), "--at")


def test_plugins_lines_up_its_columns_however_long_a_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["plugins", "--plugins-dir", str(PLUGINS)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["plugin", "source", "from", "registers"]
    starts = {name: lines[0].index(name) for name in ("source", "from", "registers")}
    for line in lines[1:]:
        for column, at in starts.items():
            assert line[at - 2 : at] == "  " and line[at] != " ", (column, line)
    assert any(str(PLUGINS / "greedy.py") in line for line in lines)


def test_the_list_of_commands_shows_each_first_line_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_of([], capsys)
    assert "..." not in text.split("Commands:")[1].replace("--bot B ...", "")
    assert "exit 0 when" in text and "identical, 1 when not." in text
