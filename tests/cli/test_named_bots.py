"""Bots named where they are used: parameters, programs, and search bots in forks."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.errors import EXIT_BAD_INPUT
from tests.tournament.conftest import rows

PROGRAM = Path(__file__).parents[2] / "plugins" / "subprocess-python" / "program" / "bot.py"
CMD = f"cmd:{sys.executable} {PROGRAM}"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_fork_seats_a_search_bot_that_gets_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.jsonl"
    code, _out, err = run(
        ["play", "lacorsa", "-s", "heuristic", "-s", "random", "-o", "races=1", "--log", str(log)],
        capsys,
    )
    assert code == 0, err
    fork = tmp_path / "f.jsonl"
    code, out, err = run(
        [
            "fork",
            str(log),
            "--at",
            "10",
            "--seat",
            "ismcts:simulations=10",
            "--seat",
            "random",
            "--log",
            str(fork),
        ],
        capsys,
    )
    assert code == 0, err
    assert fork.exists() and f"log: {fork}" in out
    code, _out, err = run(["fork", str(fork), "--verify"], capsys)
    assert code == 0, err


def test_parameters_go_into_the_log_and_the_replay_reproduces_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.jsonl"
    seat = "ismcts:rollout=random,simulations=15"
    code, out, err = run(
        ["play", "lacorsa", "-s", seat, "-s", "heuristic", "-o", "races=1", "--log", str(log)],
        capsys,
    )
    assert code == 0, err
    header = json.loads(log.read_text().splitlines()[0])
    # Written back in the bot's declared order, whatever order they were given in.
    assert header["seats"][0]["bot"] == "ismcts:simulations=15,rollout=random"
    code, out, err = run(["replay", str(log), "--verify"], capsys)
    assert code == 0, err
    assert "verified" in out


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ("ismcts:sims=5", "bot ismcts has no parameter 'sims' (its parameters: simulations,"),
        ("ismcts:simulations=many", "parameter simulations takes an integer or none"),
        ("ismcts:rollout=clever", "parameter rollout takes one of random, heuristic"),
        ("ismcts:simulations=0", "simulations must be positive"),
        ("ismcts:simulations", "parameters are KEY=VALUE"),
        ("ismcts:simulations=5,simulations=6", "parameter 'simulations' is given twice"),
        ("random:speed=2", "bot random takes no parameters"),
        ("cmd:", "the command after cmd: is empty"),
    ],
)
def test_bad_parameters_are_one_clear_line_and_bad_input(
    seat: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(["play", "lacorsa", "-s", seat, "-s", "heuristic", "--no-log"], capsys)
    assert code == EXIT_BAD_INPUT
    assert words in err and err.count("\n") == 1, err


def test_bots_json_lists_each_bots_parameters_and_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _err = run(["bots", "--json"], capsys)
    assert code == 0
    listed = json.loads(out)["bots"]
    # Each name's registration for every game (a game may register its own beside it).
    bots = {b["name"]: b for b in listed if b["games"] is None}
    parameters = {p["name"]: p for p in bots["ismcts-strong"]["parameters"]}
    assert parameters["simulations"]["default"] == 1000
    assert parameters["simulations"]["type"] == "int" and parameters["simulations"]["optional"]
    assert parameters["rollout"]["choices"] == [
        "random",
        "heuristic",
        "light",
        "distilled",
        "guided",
    ]
    assert parameters["exploration"]["description"].startswith("UCB1")
    assert bots["random"]["parameters"] == []
    code, out, _err = run(["bots", "--game", "detroit-cleveland"], capsys)
    assert code == 0
    assert "parameters: ismcts-strong:simulations=500,steps=none," in out
    code, out, _err = run(["bots", "--game", "wacky-races"], capsys)
    assert code == 0
    assert "parameters: ismcts-strong:simulations=60,steps=none," in out
    assert "rollout=guided" in out
    code, out, _err = run(["bots", "--game", "lacorsa"], capsys)
    assert code == 0
    assert "parameters: ismcts-strong:simulations=35,steps=none," in out
    assert "rollout=distilled" in out
    code, out, _err = run(["bots"], capsys)
    assert code == 0
    general = next(line for line in out.splitlines() if line.startswith("ismcts-strong "))
    assert "every game but detroit-cleveland, famous-500, lacorsa, wacky-races" in general


def test_a_program_is_seated_by_command_or_by_path_without_a_plugin_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["play", "lacorsa", "-s", CMD, "-s", "heuristic", "--no-log"], capsys)
    assert code == 0, err
    assert f"({CMD})" in out
    script = tmp_path / "bot"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {PROGRAM}\n")
    os.chmod(script, 0o755)
    code, out, err = run(
        ["play", "lacorsa", "-s", str(script), "-s", "heuristic", "-o", "races=1", "--no-log"],
        capsys,
    )
    assert code == 0, err
    assert f"({script})" in out
    code, out, err = run(["bot", "check", CMD, "--game", "lacorsa", "--matches", "1"], capsys)
    assert code == 0, err


def test_a_tournament_records_parameters_and_its_resume_plays_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    args = [
        "tournament",
        "lacorsa",
        "--bot",
        "ismcts:simulations=5",
        "--bot",
        CMD,
        "-o",
        "races=1",
        "--players",
        "2",
        "--matches",
        "2",
        "--workers",
        "1",
        "--db",
        str(db),
    ]
    code, _out, err = run(args, capsys)
    assert code == 0, err
    seats = {tuple(json.loads(row[3])) for row in rows(db)}
    assert seats == {("ismcts:simulations=5", CMD), (CMD, "ismcts:simulations=5")}
    # A program the database names runs again only when the resume names it too.
    code, _out, err = run(["tournament", "resume", str(db), "--workers", "1"], capsys)
    assert code == 2 and "--program" in err
    resume = ["tournament", "resume", str(db), "--workers", "1", "--program", CMD]
    code, _out, err = run(resume, capsys)
    assert code == 0, err
    code, out, err = run(
        [
            "gate",
            "lacorsa",
            "--candidate",
            "ismcts:simulations=5",
            "--baseline",
            "random",
            "-o",
            "races=1",
            "--max-matches",
            "2",
            "--workers",
            "1",
        ],
        capsys,
    )
    assert code in (0, 1, 5) and "gate: " in out, err
