"""The result is part of the chain: every command that reads a log checks it follows from the log."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from racedeck.cli.app import main
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import EXIT_BAD_INPUT
from racedeck.core.hashing import chain, header_hash
from racedeck.core.log import (
    TURN_PREFIX,
    Forfeit,
    LogWriter,
    ResultLine,
    encode,
    seal_result,
    turn_body,
)
from racedeck.core.runner import run_match
from racedeck.plugins import Registry


class _Crasher(Bot):
    def act(self, observation, legal, rng):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("oops")


def _played(registry: Registry, path: Path, crash: bool = False) -> Path:
    game = registry.game("lacorsa")
    seats = [registry.bot("random", "lacorsa"), registry.bot("random", "lacorsa")]
    if crash:
        seats[1] = BotSpec(name="crasher", factory=_Crasher, description="")
    with open(path, "wb") as handle:
        run_match(game, game.parse_options({"races": 1}), seats, 4, writer=LogWriter(handle))
    return path


def _forge(path: Path, edit: Callable[[list[dict[str, Any]]], None]) -> int:
    """Edit a log's lines as mappings and re-chain every hash, as a forger would.

    Returns the line number of the result line.
    """
    lines = [msgspec.json.decode(raw) for raw in path.read_bytes().splitlines()]
    edit(lines)
    out = [encode(lines[0])]
    last = header_hash(out[0])
    for line in lines[1:]:
        if line["kind"] == "result":
            result = msgspec.convert(line, ResultLine)
            out.append(encode(seal_result(last, msgspec.structs.replace(result, hash=last))))
            continue
        if line["kind"] == "turn":
            action = encode(line["act"]) if "act" in line else None
            body = turn_body(line.get("by", -1), action, encode(line["events"]))
            last = chain(last, body)
            out.append(TURN_PREFIX % (line["seq"], last.encode()) + body)
            continue
        payload = encode(line[line["kind"]])
        last = chain(last, payload)
        line["hash"] = last
        out.append(encode(line))
    path.write_bytes(b"\n".join(out) + b"\n")
    return len(out)


def _swap_ranks(lines: list[dict[str, Any]]) -> None:
    lines[-1]["result"]["ranks"].reverse()


def _invent_forfeit(lines: list[dict[str, Any]]) -> None:
    lines[-1]["forfeit"] = {"seat": 0, "reason": "made up"}
    lines[-1]["result"] = {
        "ranks": [2, 1],
        "scores": [0, 0],
        "unit": "points",
        "summary": ["seat 0 forfeited: made up"],
    }


def _blame_the_other_seat(lines: list[dict[str, Any]]) -> None:
    lines[-1]["forfeit"]["seat"] = 0
    lines[-1]["result"]["ranks"] = [2, 1]
    lines[-1]["result"]["summary"] = [lines[-1]["result"]["summary"][0].replace("seat 1", "seat 0")]


def _drop_scores(lines: list[dict[str, Any]]) -> None:
    del lines[-1]["result"]["scores"]


def _renumber_fault(lines: list[dict[str, Any]]) -> None:
    fault = next(line for line in lines if line["kind"] == "fault")
    fault["seq"] += 5


def _drop_fault(lines: list[dict[str, Any]]) -> None:
    lines[:] = [line for line in lines if line["kind"] != "fault"]


def _commands(log: Path, tmp_path: Path) -> list[list[str]]:
    return [
        ["replay", str(log)],
        ["show", str(log)],
        ["show", str(log), "--at", "0"],
        ["html", str(log), "--out", str(tmp_path / "page.html")],
        ["chart", str(log), "--out", str(tmp_path / "chart.svg")],
        ["fork", str(log), "--at", "0", "--log", str(tmp_path / "fork.jsonl")],
        ["diff", str(log), str(log)],
    ]


@pytest.mark.parametrize(
    ("crash", "edit", "words"),
    [
        (False, _swap_ranks, "does not match the final state"),
        (False, _invent_forfeit, "no fault line caused"),
        (True, _blame_the_other_seat, "does not match the fault"),
        (True, _drop_scores, "forfeiting seat last, no scores"),
        (True, _renumber_fault, "fault line numbered"),
        (True, _drop_fault, "no fault line caused"),
    ],
    ids=[
        "swapped-ranks",
        "invented-forfeit",
        "forfeit-of-the-other-seat",
        "no-scores",
        "renumbered-fault",
        "dropped-fault",
    ],
)
def test_every_command_refuses_a_forged_ending_naming_its_line(
    registry: Registry,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    crash: bool,
    edit: Callable[[list[dict[str, Any]]], None],
    words: str,
) -> None:
    log = _played(registry, tmp_path / "m.jsonl", crash)
    _forge(log, lambda lines: None)
    assert main(["replay", str(log)]) == 0, "re-chaining alone leaves the log intact"
    _forge(log, edit)
    capsys.readouterr()
    for command in _commands(log, tmp_path):
        code = main(command)
        err = capsys.readouterr().err
        assert code == EXIT_BAD_INPUT, (command, err)
        assert words in err and f"{log}:" in err, (command, err)
        assert ":0:" not in err, (command, err)
    assert not (tmp_path / "page.html").exists() and not (tmp_path / "fork.jsonl").exists()


def test_the_result_line_is_chained(registry: Registry, tmp_path: Path) -> None:
    log = _played(registry, tmp_path / "m.jsonl")
    lines = log.read_bytes().splitlines()
    result = msgspec.json.decode(lines[-1], type=ResultLine)
    assert result.line_hash == seal_result(result.hash, result).line_hash != ""
    lines[-1] = lines[-1].replace(b'"unit":"points"', b'"unit":"points "')
    log.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["replay", str(log)]) == EXIT_BAD_INPUT


def test_a_forfeit_follows_from_the_first_fault(registry: Registry, tmp_path: Path) -> None:
    log = _played(registry, tmp_path / "m.jsonl", crash=True)
    result = msgspec.json.decode(log.read_bytes().splitlines()[-1], type=ResultLine)
    assert result.forfeit == Forfeit(seat=1, reason="raised ZeroDivisionError: oops")
    assert main(["replay", str(log)]) == 0
